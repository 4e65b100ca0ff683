"""P3 `bench chat`: one offline chat turn to a validated exam with its DOCX and PDF files — latency, the tokens a real
model would be sent and return (instructions, history, tool schemas), and the cost at Sonnet prices."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agents.models.names import ANTHROPIC_SONNET
from agents.models.pricing import MODEL_PRICES, call_cost
from agents.models.registry import offline_model, override_models
from core.app.acting import DEMO_TEACHER_EMAIL
from core.chat.turn import chat_turn
from core.knowledge.wissenskarte import build_wissenskarte
from core.language.tokens import estimate_tokens
from core.ops.bench.common import machine, pct, write_section, written
from core.ops.bootstrap import ensure_ready
from db.repos.teachers import find_teacher, identity_for
from db.session import Identity, unit_of_work

EXAM_REQUEST = ("Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30, eine Aufgabe Induktion "
                "als AFB III")
Meter = dict[str, list[int]]
PRICE_REFERENCE = "claude-sonnet-4-6"  # the price basis of the first measurements (decision 008)


def _sent_text(part) -> str:  # noqa: ANN001
    """The text of a message part as a provider receives it: content and tool arguments, no pydantic-ai metadata."""
    if getattr(part, "part_kind", "") == "tool-call":
        return part.tool_name + part.args_as_json_str()
    content = getattr(part, "content", "")
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, default=str)


def _prefix_tokens(info: AgentInfo) -> int:
    """The part of a request that Anthropic prompt caching keeps: tool definitions and instructions."""
    tools = [{"name": t.name, "description": t.description, "parameters": t.parameters_json_schema}
             for t in [*info.function_tools, *info.output_tools]]
    return estimate_tokens((info.instructions or "") + json.dumps(tools, ensure_ascii=False))


def _input_tokens(messages: list[ModelMessage], info: AgentInfo) -> int:
    """What a real model would get: instructions, tool schemas and the whole history."""
    return _prefix_tokens(info) + estimate_tokens("".join(_sent_text(p) for m in messages for p in m.parts))


def _breakdown(messages: list[ModelMessage], info: AgentInfo, response: ModelResponse) -> dict[str, int]:
    """Where the tokens of one request go: instructions, Wissenskarte, tool and output schemas, each part of the
    history (tool results by tool), and the answer."""
    prompt, _, karte = (info.instructions or "").partition("### Wissenskarte")
    parts = {"instructions": estimate_tokens(prompt), "Wissenskarte (+ targets)": estimate_tokens(karte)}
    for label, tools in (("tool schemas", info.function_tools), ("output schemas", info.output_tools)):
        for t in tools:
            parts[f"{label}: {t.name}"] = estimate_tokens(json.dumps(
                {"name": t.name, "description": t.description, "parameters": t.parameters_json_schema},
                ensure_ascii=False))
    for m in messages:
        for p in m.parts:
            name = getattr(p, "tool_name", None)
            key = {"tool-return": f"result: {name}", "tool-call": "tool calls", "user-prompt": "Auftrag (prompt)",
                   "retry-prompt": f"retry: {name}", "text": "assistant text"}.get(p.part_kind, p.part_kind)
            parts[key] = parts.get(key, 0) + estimate_tokens(_sent_text(p))
    parts["→ output"] = estimate_tokens("".join(_sent_text(p) for p in response.parts))
    return parts


def _metered(model: FunctionModel, meter: Meter, role: str, largest: dict[str, int] | None = None) -> FunctionModel:
    """The offline model with a meter on both of its paths (a streamed main turn, plain specialist requests)."""
    assert model.function is not None and model.stream_function is not None
    function, stream_function = model.function, model.stream_function

    def rules_with_meter(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        response = function(messages, info)
        tokens = _input_tokens(messages, info)
        if largest is not None and tokens > sum(v for k, v in largest.items() if k != "→ output"):
            largest.clear()
            largest.update(_breakdown(messages, info, response))
        meter.setdefault(f"{role}_in", []).append(tokens)
        meter.setdefault(f"{role}_prefix", []).append(_prefix_tokens(info))
        meter.setdefault(f"{role}_out", []).append(estimate_tokens("".join(_sent_text(p) for p in response.parts)))
        return response

    async def stream_with_meter(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        out: list[str] = []
        async for delta in stream_function(messages, info):
            # the stream yields each tool call's name and JSON arguments, or the text word by word
            out += [c.name + c.json_args for c in delta.values()] if isinstance(delta, dict) else [delta]
            yield delta
        meter.setdefault(f"{role}_in", []).append(_input_tokens(messages, info))
        meter.setdefault(f"{role}_prefix", []).append(_prefix_tokens(info))
        meter.setdefault(f"{role}_out", []).append(estimate_tokens("".join(out)))

    return FunctionModel(rules_with_meter, stream_function=stream_with_meter, model_name=model.model_name)


def _median(meters: list[Meter], key: str, pick: Callable[[list[int]], int] = sum) -> float:
    return statistics.median(pick(m[key]) for m in meters)


def bench_chat(runs: int = 20) -> dict[str, float]:
    ensure_ready()
    with unit_of_work(Identity.system()) as db:
        teacher = find_teacher(db=db, ref=DEMO_TEACHER_EMAIL)
        ident = identity_for(db=db, teacher=teacher)
    times, meters, wk_tokens, largest = [], [], 0, {}
    for i in range(runs + 2):  # two warm-up turns
        meter: Meter = {}
        largest = {}  # the Klausur specialist's largest request of this run, part by part
        models = {role: _metered(offline_model(role), meter, role, largest if role == "klausur" else None)
                  for role in ("main", "klausur")}
        with unit_of_work(ident) as db, override_models(**models):
            t = db.merge(teacher)
            t0 = time.perf_counter()
            result = chat_turn(db=db, identity=ident, teacher=t, message=EXAM_REQUEST)
            elapsed = (time.perf_counter() - t0) * 1000
            assert result.material_id and len(result.files) == 4, result.reply
            wk_tokens = build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="physik").tokens
            db.rollback()  # measure without filling the demo teacher's materials
        if i >= 2:
            times.append(elapsed)
            meters.append(meter)
    spec_in, spec_out = _median(meters, "klausur_in"), _median(meters, "klausur_out")
    main_in, main_out = _median(meters, "main_in"), _median(meters, "main_out")
    median_meter = min(meters, key=lambda m: abs(sum(m["klausur_in"]) - spec_in))
    costs = {model: {cached: _exam_cost(median_meter, model, cached) for cached in ("none", "write", "read")}
             for model in (ANTHROPIC_SONNET, PRICE_REFERENCE)}
    return {"p50": statistics.median(times), "p95": pct(times, 95), "runs": runs, "wk_tokens": wk_tokens,
            "spec_final": _median(meters, "klausur_in", max), "spec_in": spec_in, "spec_out": spec_out,
            "main_in": main_in, "main_out": main_out, "costs": costs, "spec_requests": len(median_meter["klausur_in"]),
            "breakdown": largest}


def _exam_cost(meter: Meter, model: str, cached: str) -> float:
    """USD for one exam (main agent + Klausur specialist): without prompt caching ('none'); with caching of tool
    definitions and instructions as the first exam in five minutes ('write': the first request of each agent writes
    the cache, later ones read it) or a following one ('read': every request reads it)."""
    total = 0.0
    for role in ("main", "klausur"):
        for n, (tokens_in, prefix) in enumerate(zip(meter[f"{role}_in"], meter[f"{role}_prefix"], strict=True)):
            read = write = 0
            if cached == "read" or (cached == "write" and n > 0):
                read = prefix
            elif cached == "write":
                write = prefix
            total += call_cost(model, tokens_in, 0, cache_read=read, cache_write=write) or 0.0
        total += call_cost(model, 0, sum(meter[f"{role}_out"])) or 0.0
    return total


def run_chat_bench(*, runs: int, write: bool) -> None:
    print(f"Benchmark chat · Maschine: {machine()}")
    r = bench_chat(runs)
    print(f"Offline-Chat → geprüfte Klausur + 2 DOCX + 2 PDF: p50 {r['p50']:.0f} ms, p95 {r['p95']:.0f} ms "
          f"({runs} Läufe)")
    print(f"Tokens: Wissenskarte {r['wk_tokens']} · Klausur-Spezialist: Kontext beim Schreiben {r['spec_final']:.0f}, "
          f"Eingabe über alle Anfragen {r['spec_in']:.0f} / Ausgabe "
          f"{r['spec_out']:.0f} · Hauptagent {r['main_in']:.0f} / {r['main_out']:.0f}")
    for model, c in r["costs"].items():
        name = model.rpartition(":")[2]
        price_in, price_out = MODEL_PRICES[name]
        print(f"Geschätzte Kosten je Klausur zu Preisen von {name} (${price_in:g}/${price_out:g} je M Tokens): "
              f"ohne Prompt-Caching ${c['none']:.4f} · mit Caching ${c['write']:.4f} (erste Klausur) / "
              f"${c['read']:.4f} (jede weitere binnen 5 Minuten)")
    print(f"Größte Anfrage des Klausur-Spezialisten ({r['spec_requests']} Anfrage(n) je Klausur), Tokens je Teil:")
    for part, tokens in r["breakdown"].items():
        print(f"  {part}: {tokens}")
    tokens_ok = "erreicht" if r["spec_final"] <= 6000 else "verfehlt"
    cost_ok = " · ".join(f"{m.rpartition(':')[2]} {'erreicht' if max(c.values()) <= 0.03 else 'verfehlt'}"
                         for m, c in r["costs"].items())
    print(f"Ziele: größte Eingabe des Klausur-Spezialisten ≤ 6 000 Tokens: {tokens_ok} · ≤ $0.03 je Klausur mit und "
          f"ohne Caching: {cost_ok}")
    if not write:
        return
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    section = (
        "### P3 · Offline chat → validated exam + DOCX and PDF\n\n"
        "One message with everything (Fach, Klasse, Thema, Dauer, AFB, a wish) → main agent → router → Klausur "
        "specialist (tools, validation) → stored material + Schüler-/Lehrerfassung as DOCX and PDF, warm.\n\n"
        "| measure | value | goal |\n|---|---:|---:|\n"
        f"| latency p50 | {r['p50']:.0f} ms | ≤ 1 500 ms |\n| latency p95 | {r['p95']:.0f} ms | — |\n"
        f"| Wissenskarte tokens | {r['wk_tokens']} | ≤ 200 |\n"
        f"| Klausur specialist's whole input when it writes the exam (largest request) | {r['spec_final']:.0f} tokens "
        "| ≤ 6 000 |\n"
        f"| Klausur specialist input summed over its {r['spec_requests']} request(s) (billed) | {r['spec_in']:.0f} "
        "tokens | — |\n"
        f"| Klausur specialist output per exam | {r['spec_out']:.0f} tokens | — |\n"
        f"| main agent input / output per turn | {r['main_in']:.0f} / {r['main_out']:.0f} tokens | — |\n"
        + "".join(f"| estimated cost per exam at {m.rpartition(':')[2]} prices: no prompt cache / cache written "
                  f"(first exam) / cache read (next exams within 5 min) | ${c['none']:.4f} / ${c['write']:.4f} / "
                  f"${c['read']:.4f} | ≤ $0.03 |\n" for m, c in r["costs"].items())
        + "\nThe Klausur specialist's largest request, part by part (tokens):\n\n| part | tokens |\n|---|---:|\n"
        + "".join(f"| {part} | {tokens} |\n" for part, tokens in r["breakdown"].items())
        + "\nThe specialist answers with a plan to the composed draft (`{}` keeps it; decision 015), which the server "
        "expands into the stored Klausur; subject profile, preferences and the draft come with its first request.\n"
        + "\nPrompt caching (Anthropic, `cache={'messages': False}`): tool definitions and instructions, priced at "
        "1.25× input for a cache write and 0.1× for a read (`agents/models/pricing.py`). "
        + "Tokens are what a real model would be sent (instructions + history + tool schemas, and the JSON it "
        "returns), counted with `core.language.tokens.estimate_tokens` (3.2 characters per token, on the safe side for "
        "German), not the offline model's own word count.\n\n"
        f"*{stamp} · {machine()} · `python -m core bench chat --runs {runs}`*\n"
    )
    write_section("chat", section)
    written()


