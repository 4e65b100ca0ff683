"""The tool calls that carry out a follow-up's wishes on the current material, one after the other in one turn.

Order: tasks made easier or harder (numbers stay), then additions (appended at the end, numbers stay), then the
numbered strikes in one patch (the highest first), then strikes by words, then a new duration. A replacement is its
addition plus a strike: when the addition finds nothing, the chain stops there, nothing is struck, and the teacher is
told which wishes were not carried out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolReturnPart, UserPromptPart

from agents.offline import refusal
from agents.offline.followup import Intent, classify
from agents.offline.messages import call, say, text_of, turn_returns
from core.language.text import fold
from core.materials.patch_ops import RemoveTask

_MATERIAL = re.compile(r"\[material:([0-9a-fA-F-]{36})\]")


@dataclass(frozen=True)
class Step:
    """One tool call (without the material id, which is the version the step before made) and what it does."""

    tool: str
    what: str
    args: dict[str, Any] = field(default_factory=dict)


def _noun(kind: str) -> str:
    return {"klausur": "die Klausur", "h5p": "die Übung"}.get(kind, "das Material")


def _named(n: int, kind: str, niveau: str | None = None) -> str:
    """„Aufgabe 2“, „Frage 3“, „die letzte Aufgabe“, „Niveau C: Aufgabe 2“ — as the teacher reads it."""
    noun = "Frage" if kind == "h5p" else "Aufgabe"
    place = {-1: f"die letzte {noun}", -2: f"die vorletzte {noun}", -3: f"die drittletzte {noun}"}.get(n, f"{noun} {n}")
    return f"Niveau {niveau}: {place}" if niveau else place


def _cannot_level(intent: Intent, kind: str) -> Step:
    """A quiz or a differentiated sheet the offline model cannot make easier or harder: a rerun would compose the
    same reviewed items again (and drop her edits). Said plainly, with what she can do; nothing is changed."""
    wort = "leichter" if intent.kind == "easier" else "schwerer"
    if kind == "h5p":
        return Step("", f"{'Leichtere' if intent.kind == 'easier' else 'Schwerere'} Fragen kann ich ohne "
                        "Sprachmodell nicht schreiben: Die Übung besteht aus geprüften Fragen der Sammlung, und eine "
                        "Neuerzeugung ergäbe dieselben Fragen. Ich habe nichts geändert. Sie können einzelne Fragen "
                        "streichen („Frage 3 raus“), Fragen zu einem anderen Teilthema dazunehmen („Noch zwei Fragen "
                        "zu …“) oder ein Sprachmodell einrichten (siehe README), das die Fragen umschreibt.")
    welches = f"Niveau {intent.niveau}" if intent.niveau else "Das Arbeitsblatt"
    return Step("", f"{welches} kann ich ohne Sprachmodell nicht "
                    f"{wort} machen: Die Aufgaben sind geprüfte dreistufige Aufgaben der Sammlung, und eine "
                    "Neuerzeugung ergäbe dieselben. Ich habe nichts geändert. Sie können einzelne Aufgaben eines "
                    "Niveaus streichen („Niveau C: Aufgabe 2 raus“), das Blatt unter „Meine Materialien“ selbst "
                    "bearbeiten oder ein Sprachmodell einrichten (siehe README).")


def _level(intent: Intent, text: str, single: bool, kind: str) -> list[Step]:
    wort = "leichter" if intent.kind == "easier" else "schwerer"
    if not intent.tasks:
        whole = f"Niveau {intent.niveau}" if intent.niveau else _noun(kind)
        return [Step("regenerate_from_previous", f"{whole} {wort} machen",
                     {"instruction": text if single else f"Mach {whole} {wort}."})]
    as_said = single and len(intent.tasks) == 1 and intent.tasks[0] > 0 and not intent.niveau
    return [Step("regenerate_from_previous", f"{_named(n, kind, intent.niveau)} {wort} machen",
                 {"instruction": text if as_said else f"Mach {_named(n, kind, intent.niveau)} {wort}."})
            for n in intent.tasks]


def _duration(intent: Intent, text: str, single: bool, kind: str) -> Step:
    if single:
        instruction = text
    elif intent.minuten:
        instruction = f"{_noun(kind).capitalize()} soll {intent.minuten} Minuten dauern."
    else:
        instruction = "Bitte kürzer." if intent.kind == "shorter" else "Bitte länger."
    return Step("regenerate_from_previous", "kürzer" if intent.kind == "shorter" else "länger",
                {"instruction": instruction})


def _addition(intent: Intent, kind: str) -> Step:
    """One more task (or `anzahl` questions) on the named sub-topic; a replacement on a quiz brings as many
    questions as it strikes."""
    many = len(intent.tasks) if intent.kind == "replace" and intent.tasks else intent.anzahl
    one, more = ("Frage", "Fragen") if kind == "h5p" else ("Aufgabe", "Aufgaben")
    was = f"{many} {more}" if many and many > 1 else f"eine {one}" if many or kind != "h5p" else more
    what = f"{was} zu „{intent.thema}“ ergänzen" if intent.thema else f"{was} ergänzen"
    args: dict[str, Any] = {"thema": intent.thema} if intent.thema else {}
    if intent.minuten:
        args["dauer_minuten"] = intent.minuten
    if many and (kind == "h5p" or many > 1):
        args["anzahl"] = many
    return Step("add_bank_task", what, args)


def steps(text: str, kind: str) -> list[Step]:
    """The steps for the wishes in `text` on a material of type `kind` ('klausur', 'h5p', …); [] for no edit."""
    intents = classify(text)
    if open_ := next((i for i in intents if i.kind == "replace" and not i.thema), None):
        named = _named(open_.tasks[0], kind) if open_.tasks else (f"die Aufgabe zu „{open_.words}“" if open_.words
                                                                 else "die Aufgabe")
        return [Step("", f"Wodurch soll ich {named} ersetzen? Nennen Sie das Thema, z. B. „Ersetze {named} durch "
                         "eine Aufgabe zu …“ – bis dahin bleibt alles, wie es ist.")]
    if kind in ("h5p", "differenzierung") and (
            level := next((i for i in intents if i.kind in ("easier", "harder")), None)):
        return [_cannot_level(level, kind)]
    single = len(intents) == 1
    out: list[Step] = []
    for i in intents:
        if i.kind in ("easier", "harder"):
            out += _level(i, text, single, kind)
    out += [_addition(i, kind) for i in intents if i.kind in ("add", "replace")]
    struck = sorted({(i.niveau or "", n) for i in intents if i.kind in ("remove", "replace") for n in i.tasks},
                    key=lambda x: (x[0], x[1] if x[1] > 0 else 100 + x[1]), reverse=True)
    if struck:
        named = " und ".join(_named(n, kind, niveau or None) for niveau, n in reversed(struck))
        out.append(Step("patch_material_task", f"{named} streichen", {
            "operations": [RemoveTask(ziel=f"{niveau}{n}").model_dump(exclude_none=True) for niveau, n in struck],
            "force": True}))
    out += [Step("remove_topic_tasks", f"die Aufgabe(n) zu „{i.words}“ streichen", {"thema": i.words})
            for i in intents if i.kind in ("remove", "replace") and i.words and not i.tasks]
    out += [_duration(i, text, single, kind) for i in intents if i.kind in ("shorter", "longer")]
    return out


def first_call(plan: list[Step], material_id: str) -> ModelResponse:
    """The first step's call — or, for a wish that lacks what it needs, the question for it."""
    if not plan[0].tool:
        return say(plan[0].what)
    return call(plan[0].tool, {"material_id": material_id, **plan[0].args})


def carried(plan: list[Step], messages: list[ModelMessage]) -> list[ToolReturnPart] | None:
    """This turn's results of `plan`, or None when the turn's first call was not the plan's (another rule's)."""
    returns = turn_returns(messages)
    if not plan or not returns or returns[0].tool_name != plan[0].tool:
        return None
    return returns


def next_call(plan: list[Step], returns: list[ToolReturnPart]) -> ModelResponse | None:
    """The next step on the version the last step made; None when all are done or the last one failed."""
    done = len(returns)
    last = text_of(returns[-1].content)
    if done >= len(plan) or last.startswith("FEHLER") or not (mm := _MATERIAL.search(last)):
        return None
    return call(plan[done].tool, {"material_id": mm.group(1), **plan[done].args})


def said(returns: list[ToolReturnPart], present: Any) -> str:
    """What the steps did, as the teacher reads it: the changes of the steps before, then the last version in full
    (a failed step in full, with the versions before it)."""
    if len(returns) == 1 or any(text_of(r.content).startswith("FEHLER") for r in returns):
        return "\n\n".join(present(r) for r in returns)
    earlier = [line for r in returns[:-1] for line in _changed(text_of(r.content))]
    head = "\n".join(["Zuerst geändert (diese Zwischenfassungen bleiben abrufbar):", *(f"- {e}" for e in earlier)]
                     ) if earlier else ""
    return "\n\n".join(x for x in (head, present(returns[-1])) if x)


def _changed(text: str) -> list[str]:
    """The change lines of one step's reply; its own „Ergänzt: …“ line stands for the „Geändert: …“ lines after."""
    marks = ("Ergänzt", "Geändert", "- Ergänzt", "- Geändert")
    lines = [line.removeprefix("- ") for line in text.split("\n") if line.startswith(marks)]
    if any(line.startswith("Ergänzt") for line in lines):
        return [line for line in lines if line.startswith("Ergänzt")]
    return [line.removeprefix("Geändert: ") for line in lines]


def not_done(plan: list[Step], returns: list[ToolReturnPart]) -> str:
    """What the teacher asked for that was not carried out because a step before failed (empty when all ran)."""
    left = plan[len(returns):]
    if not left:
        return ""
    wishes = "; ".join(s.what for s in left)
    return (f"Deshalb habe ich auch Folgendes nicht ausgeführt: {wishes}. Die zuletzt gespeicherte Fassung bleibt "
            "unverändert – sagen Sie mir, wie ich weitermachen soll.")


_MISSING = re.compile(r"^FEHLER: In der geprüften Aufgabensammlung gibt es zu „(.+?)“ für Klasse")
_NEAR = re.compile(r"„Noch eine Aufgabe zu (.+?) dazu“")
_YOURSELF = ("Gern: Unter „Meine Materialien“ → „Bearbeiten“ → „Neue Aufgabe“ formulieren Sie die Aufgabe selbst (oder "
             "wählen eine aus der Sammlung); eigene Aufgaben laden Sie auf der Seite „Hochladen“ hoch. Das Material "
             "bleibt bis dahin, wie es ist.")
_MODEL = ("Ein Sprachmodell (Anthropic, OpenAI oder ein lokaler OpenAI-kompatibler Server) wird in der Konfiguration "
          "eingerichtet, wie im README beschrieben; danach schreibe ich die Aufgabe damit. Das Material bleibt bis "
          "dahin, wie es ist.")


def _turns(messages: list[ModelMessage]) -> list[tuple[str, list[ToolReturnPart]]]:
    """Each teacher message with the tool results of its turn."""
    out: list[tuple[str, list[ToolReturnPart]]] = []
    for m in messages:
        if not isinstance(m, ModelRequest):
            continue
        for p in m.parts:
            if isinstance(p, UserPromptPart):
                out.append((text_of(p.content), []))
            elif isinstance(p, ToolReturnPart) and out:
                out[-1][1].append(p)
    return out


def chosen_instead(text: str, messages: list[ModelMessage]) -> tuple[str, str | None]:
    """After an addition was refused with options: her choice of the nearest sub-topic („3“, „Dann Hebel“) is the
    wish she made before with that sub-topic; the other options get what to do. Else `text` as it is."""
    turns = _turns(messages)
    if len(turns) < 2 or not turns[-2][1]:
        return text, None
    before, returns = turns[-2]
    failed = text_of(returns[-1].content)
    if returns[-1].tool_name != "add_bank_task" or not (missing := _MISSING.match(failed)):
        return text, None
    options = refusal.offered(failed.removeprefix("FEHLER: "))
    near = [m.group(1) for o in options if (m := _NEAR.search(o))]
    number = refusal.chosen(text, options)
    picked = near[number - 3] if number and 3 <= number < 3 + len(near) else next(
        (u for u in near if number is None and fold(u) in fold(text)), None)
    if picked:
        return before.replace(missing.group(1), picked), None
    if number == 1:
        return text, _YOURSELF
    if number == 2:
        return text, _MODEL
    return text, None
