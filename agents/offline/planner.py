"""The rule planner: decomposes a combined German request into a Plan by rules — the offline planner, and the last
fallback behind a real planner model (as a FunctionModel reading the planner prompt)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo

from agents.offline.capability import UNSURE_BELOW, SpecialistChoice, Word, choose, head_signal, read_words
from agents.offline.messages import JSON_BLOCK, Rules, user_prompts
from agents.offline.segments import SEP_PUNCT, Segment, classify_heads, split_segments, strip_joiners
from agents.planner import TYPE_LABELS, Plan, PlanPart
from core.app.errors import UserError
from core.language.klasse import KLASSENSTUFE_MAX, KLASSENSTUFE_MIN
from core.language.lexicon import Lexicon
from core.language.request.extract import extract
from core.language.request.extraction import Extraction, merge
from core.language.text import fold
from core.materials.faecher import normalize_fach
from core.materials.request import AfbWunsch

_PURPOSE = re.compile(r"vorbereit|vor\s+der\s+(?:klausur|klassenarbeit|arbeit|pruefung)", re.I)
_PASSEND_DAZU = re.compile(r"\b(?:passend\s+dazu|dazu\s+passend|darauf\s+abgestimmt|dazu\s+abgestimmt)", re.I)
_SHARED_TAIL = re.compile(r"^\s*(?:beides|beide|alles|alle|jeweils|insgesamt|fuer\s+alle|für\s+alle)\b", re.I)
_LESSON = re.compile(
    r"\b(?:in|innerhalb)\s+(?:der|derselben|dieser|der\s+gleichen|einer|einer\s+einzigen|einer\s+gemeinsamen)\s+"
    r"(doppelstunde|unterrichtsstunde|stunde|schulstunde)\b", re.I)
_TOPIC_PREP = re.compile(r"\b(?:zu|zum|zur|über|ueber)\s+(?:(?:den|die|das|dem|der)\s+)?", re.I)
_GENERIC_TOPICS = frozenset({
    "ueben", "lernen", "wiederholen", "wiederholung", "vorbereiten", "vorbereitung", "einstieg", "einfuehrung",
    "festigung", "sicherung", "vertiefung", "uebung", "selbstkontrolle", "abschluss", "thema", "themen", "stunde",
    "doppelstunde", "klasse", "nachbereitung", "kontrolle", "selbstlernen", "hausaufgabe", "hausaufgaben"})


def _tail_clauses(text: str, seg: Segment, words: list[Word], terms: Mapping[str, Any]) -> str:
    """Trailing clauses of the last part that only state shared facts (", beides für die 8b", ", 45 Minuten")."""
    head_end = words[seg.head.index].end
    tail = text[head_end:seg.end]
    pieces = re.split(r"[,;]", tail)
    shared: list[str] = []
    for piece in reversed(pieces[1:]):
        if not piece.strip():
            continue
        if any(head_signal(w.fold, w.orig) for w in read_words(piece)):
            break
        e = extract(piece, topic_terms=terms)
        if e.thema is not None and not _SHARED_TAIL.search(piece):
            break
        shared.insert(0, piece.strip())
    return ", ".join(shared)


def _prep_phrase(text: str) -> str | None:
    """The noun phrase after "zu/zum/zur/über" when the vocabulary knows it only as a topic area ("zur Genetik")."""
    for m in _TOPIC_PREP.finditer(text):
        ws = read_words(text[m.end():])
        out: list[str] = []
        for n, w in enumerate(ws):
            if n and SEP_PUNCT.search(text[m.end() + ws[n - 1].end:m.end() + w.start]):
                break
            nxt = ws[n + 1] if n + 1 < len(ws) else None
            adjective = not w.cap and w.fold.endswith(("e", "en", "er", "es")) and nxt is not None and nxt.cap
            if not (w.cap or adjective) or w.fold in _GENERIC_TOPICS or head_signal(w.fold, w.orig):
                break
            word = w.orig[:-1] if adjective and w.fold.endswith("en") else w.orig
            out.append(word)
            if len(out) == 4:
                break
        if out:
            return " ".join(out)
    return None


def _thema(e: Extraction, text: str) -> str | None:
    thema = e.thema
    if thema and fold(thema) in _GENERIC_TOPICS:
        thema = None
    if thema is None and e.fach_hint:
        thema = _prep_phrase(text)
    return thema


# "für die 12", "in der 10": a bare grade after an article (the NLU wants "Klasse 12" or "10a" for safety).
_BARE_GRADE = re.compile(r"\b(?:für|fuer|in)\s+(?:die|der|meine|meiner|unsere|unserer)\s+(\d{1,2})\b(?![.,]\d)"
                         r"(?!\s*(?:min|minuten|std|stunden|fragen|aufgaben|punkte|%|prozent|seiten|schüler|sus)\b)",
                         re.I)


def _extract(text: str, terms: Mapping[str, Any]) -> Extraction:
    e = extract(text, topic_terms=terms)
    if e.klassenstufe is None and (m := _BARE_GRADE.search(text)):
        stufe = int(m.group(1))
        if KLASSENSTUFE_MIN <= stufe <= KLASSENSTUFE_MAX:
            e = replace(e, klassenstufe=stufe)
    return e


def _base_extraction(context: Mapping[str, Any] | None) -> Extraction:
    if not context:
        return Extraction()
    fach = context.get("fach")
    try:
        fach = normalize_fach(fach, required=False) if fach else None
    except UserError:
        fach = None
    afb = context.get("afb_ziel") or context.get("afb_verteilung")
    if isinstance(afb, Mapping):
        afb = tuple(int(afb.get(k, 0)) for k in ("I", "II", "III"))
    stufe = context.get("klassenstufe")
    return Extraction(
        fach=fach, fach_source="explicit" if fach else None, klassenstufe=int(stufe) if stufe else None,
        klasse=context.get("klasse"), thema=context.get("thema"), dauer_minuten=context.get("dauer_minuten"),
        afb_verteilung=tuple(afb) if afb else None,  # type: ignore[arg-type]
    )


@dataclass
class _Reading:
    """What the rules read from each part: its own facts, with the shared ones, its specialist and topic."""

    own: list[Extraction] = field(default_factory=list)
    merged: list[Extraction] = field(default_factory=list)
    choices: list[SpecialistChoice] = field(default_factory=list)
    topics: list[str | None] = field(default_factory=list)
    attributed: dict[str, int] = field(default_factory=dict)  # material type -> minutes said in another part
    problems: list[str] = field(default_factory=list)

    @property
    def types(self) -> list[str]:
        return [c.agent_type for c in self.choices]

    def others(self, i: int) -> list[int]:
        """The other parts, nearest earlier first, then the later ones."""
        return [*range(i - 1, -1, -1), *range(i + 1, len(self.choices))]


def _read_parts(text: str, segments: list[Segment], shared: Extraction, terms: Mapping[str, Any]) -> _Reading:
    r = _Reading(problems=list(shared.problems))
    for seg in segments:
        seg_text = strip_joiners(text[seg.start:seg.end])
        for mtype, clause in seg.attributions:
            seg_text = seg_text.replace(clause, " ")
            r.attributed.setdefault(mtype, extract(clause).dauer_minuten or 0)
        e_seg = _extract(seg_text, terms)
        r.problems += e_seg.problems
        r.own.append(e_seg)
        r.merged.append(merge(shared, e_seg))
        r.topics.append(_thema(e_seg, seg_text))
        r.choices.append(choose(seg.signals))
    # Shared facts and right-node topics: "eine Klausur und ein Quiz zu Stromkreisen", "für die 10a … und ein Quiz".
    for i, e in enumerate(r.merged):
        upd: dict[str, Any] = {}
        for name in ("fach", "klassenstufe"):
            if getattr(e, name) is None:
                src = next((r.merged[j] for j in r.others(i) if getattr(r.merged[j], name) is not None), None)
                if src is not None:
                    upd[name] = getattr(src, name)
                    if name == "klassenstufe":
                        upd["klasse"] = src.klasse
                    else:
                        upd["fach_hint"] = src.fach_hint
        r.merged[i] = replace(e, **upd)
    return r


def _keys(choices: list[SpecialistChoice]) -> list[str]:
    keys: list[str] = []
    for c in choices:
        key = {"klausur": "klausur", "differenzierung": "blatt", "h5p": "quiz"}[c.agent_type]
        keys.append(key if key not in keys else f"{key}{sum(k.startswith(key) for k in keys) + 1}")
    return keys


def _links(i: int, text: str, seg: Segment, r: _Reading, keys: list[str], shared_topic: str | None
           ) -> tuple[list[str], str | None, str | None]:
    """(depends_on, topic_from, thema) of part i: "zur Vorbereitung auf die Klausur", "passend dazu", and a part
    without its own topic following the Klausur named before it, else the nearest earlier part with a topic."""
    seg_text = strip_joiners(text[seg.start:seg.end])
    types = r.types
    depends: list[str] = []
    topic_from: str | None = None
    thema = r.topics[i] or shared_topic
    for ref in seg.references:  # "zur Vorbereitung auf die Klausur"
        j = next((j for j in r.others(i) if types[j] == ref), None)
        if j is not None:
            depends.append(keys[j])
    if not depends and _PURPOSE.search(seg_text) and "klausur" in types[:i] + types[i + 1:]:
        depends.append(keys[next(j for j in r.others(i) if types[j] == "klausur")])
    if not depends and i and _PASSEND_DAZU.search(text[seg.start:seg.end]):
        depends.append(keys[i - 1])
    if thema is None:  # follows the Klausur named before it, else the nearest earlier part with a topic
        earlier = next((j for j in range(i) if types[j] == "klausur" and r.topics[j]), None)
        if earlier is None:
            earlier = next((j for j in range(i - 1, -1, -1) if r.topics[j]), None)
        target = next((keys.index(d) for d in depends if r.topics[keys.index(d)]), earlier)
        if target is not None:
            topic_from = keys[target]
            thema = r.topics[target]
            if keys[target] not in depends:
                depends.append(keys[target])
        else:  # right-node raising: the topic named later belongs to this part as well
            later = next((j for j in range(i + 1, len(types)) if r.topics[j]), None)
            thema = r.topics[later] if later is not None else None
    return depends, topic_from, thema


def _part(i: int, text: str, seg: Segment, r: _Reading, keys: list[str], shared_topic: str | None
          ) -> tuple[PlanPart, str | None]:
    """Part i of the plan, and a note for the teacher when its material type was unclear."""
    seg_text = strip_joiners(text[seg.start:seg.end])
    e, choice, types = r.merged[i], r.choices[i], r.types
    depends, topic_from, thema = _links(i, text, seg, r, keys, shared_topic)
    # A shared "45 Minuten" belongs to the exam; other parts keep only a duration of their own.
    dauer = e.dauer_minuten if choice.agent_type == "klausur" else r.own[i].dauer_minuten
    if choice.agent_type in r.attributed and types.index(choice.agent_type) == i:
        dauer = r.attributed[choice.agent_type] or dauer
    afb = e.afb_verteilung
    if choice.agent_type == "klausur" and afb is None:  # "…, AFB 30/40/30" said in another part's words
        afb = next((x.afb_verteilung for x in r.merged if x.afb_verteilung), None)
    part = PlanPart(
        key=keys[i], wording=seg_text, material_type=choice.agent_type, fach=e.fach, klassenstufe=e.klassenstufe,
        klasse=e.klasse, thema=thema, dauer_minuten=dauer, zusatz=seg_text[:500],
        afb_ziel=dict(zip(("I", "II", "III"), afb, strict=True)) if afb and choice.agent_type == "klausur" else None,
        afb_wuensche=[AfbWunsch(thema=w.thema, afb=w.afb) for w in e.afb_wishes]
        if choice.agent_type == "klausur" else [],
        depends_on=depends, topic_from=topic_from, confidence=choice.confidence, reason=choice.reason,
    )
    note = None
    if choice.fallback:
        note = (f"Bei „{seg_text}“ war die Materialart nicht erkennbar ({choice.reason}); ich habe eine "
                f"{TYPE_LABELS[choice.agent_type]} angenommen (Sicherheit {choice.confidence:.0%}).")
    elif choice.confidence < UNSURE_BELOW:
        note = (f"Bei „{seg_text}“ war die Materialart nicht ganz eindeutig ({choice.reason}); ich habe "
                f"{TYPE_LABELS[choice.agent_type]} gewählt (Sicherheit {choice.confidence:.0%}).")
    return part, note


def rule_plan(text: str, context: Mapping[str, Any] | None = None, *, lexicon: Lexicon) -> Plan:
    """Decompose a combined German request by rules (the offline planner), reading topics with `lexicon`.

    Parts start at material words ("Klausur", "Übungsblatt", "H5P-Quiz") after a separator ("dazu", "und", ",",
    "außerdem", "sowie" …); "auf die Klausur" refers to a part, "mit Lückentexten" describes one. Facts before the
    first part ("Für die 10a:") and trailing shared clauses apply to all parts; a part without its own topic follows
    the Klausur named before it, else the nearest earlier part with a topic (a topic named only at the end of a bare
    list belongs to all parts); "zur Vorbereitung" makes a part depend on the Klausur.
    """
    text = re.sub(r"(?m)^\s*(?:\d{1,2}[.)]|[-*•])\s+", "", (text or "").strip())  # list markers "1." / "-"
    text = " ".join(re.sub(r"\s*\n\s*", "; ", text).split())
    terms = lexicon.terms
    words = read_words(text)
    shared_text, segments = split_segments(text, words, classify_heads(text, words))
    base = _base_extraction(context)
    if not segments:
        return Plan(parts=[], notes=["In der Anfrage ist keine Materialart erkennbar (Klausur, Arbeitsblatt oder "
                                     "H5P-Übung)."])
    tail = _tail_clauses(text, segments[-1], words, terms)
    shared = merge(base, _extract(shared_text, terms)) if shared_text.strip() else base
    if tail:
        shared = merge(_extract(tail, terms), shared)  # the prefix is more specific than a trailing "beides …"
    reading = _read_parts(text, segments, shared, terms)
    keys = _keys(reading.choices)
    shared_topic = _thema(shared, shared_text + " " + tail) if shared.thema or tail else None
    parts: list[PlanPart] = []
    notes: list[str] = []
    for i, seg in enumerate(segments):
        part, note = _part(i, text, seg, reading, keys, shared_topic)
        parts.append(part)
        if note:
            notes.append(note)
    lesson = _LESSON.search(text)
    lesson_minutes = (90 if lesson.group(1).lower().startswith("doppel") else 45) if lesson else None
    return Plan(parts=parts, notes=notes, lesson_minutes=lesson_minutes,
                problems=list(dict.fromkeys(reading.problems)))


def planner_rules(lexicon: Lexicon) -> Rules:
    """The rules as a FunctionModel's function: they read the planner prompt (the teacher's words between <<< and
    >>>, the known context as a JSON block) and answer with the rule plan as the output."""

    def rules(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        prompts = user_prompts(messages)
        prompt = next((p for p in prompts if p.startswith("Anfrage der Lehrkraft")), prompts[0] if prompts else "")
        m = re.search(r"<<<\n(.*)\n>>>", prompt, re.S)
        c = JSON_BLOCK.search(prompt)
        plan = rule_plan(m.group(1) if m else prompt, json.loads(c.group(1)) if c else None, lexicon=lexicon)
        tool = info.output_tools[0].name if info.output_tools else "final_result"
        return ModelResponse(parts=[ToolCallPart(tool, plan.model_dump(mode="json"))])

    return rules
