"""The supervisor's planner: splits one teacher message asking for several materials into checked sub-requests.

Real models plan through `planner_agent` (output type `Plan`, checked in code by `plan_faults`); offline, and as the
real model's last fallback, `rule_plan` decomposes the German text by rules. Capability matching picks the specialist.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, Field
from pydantic_ai import Agent, ModelRetry, RunContext
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolCallPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo

from agents import offline_nlu as nlu
from agents.offline import topic_terms
from core.app.errors import UserError
from core.faecher import fach_name, normalize_fach
from core.materials import AfbWunsch, MaterialRequest

MAX_PARTS = 5
MATERIAL_TYPES = ("klausur", "differenzierung", "h5p")
TYPE_LABELS = {"klausur": "Klausur", "differenzierung": "Differenziertes Arbeitsblatt", "h5p": "H5P-Übung"}
FALLBACK_TYPE = "klausur"
FALLBACK_CONFIDENCE = 0.3
UNSURE_BELOW = 0.6

# --- the plan ------------------------------------------------------------------------------------------------------


class PlanPart(BaseModel):
    """One material of a combined request. Loose types on purpose: the checks in `plan_faults` answer in German."""

    key: str = Field(description="Eindeutige Kurzkennung dieses Teils, z. B. 'klausur', 'blatt', 'quiz'.")
    wording: str = Field(default="", description="Die Worte der Lehrkraft zu diesem Teil (Ausschnitt der Anfrage).")
    material_type: str = Field(
        description="'klausur' (Klausur/Klassenarbeit/Test), 'differenzierung' (Arbeitsblatt auf drei Niveaus) "
                    "oder 'h5p' (interaktive Übung, Quiz, Lückentext)."
    )
    fach: str | None = Field(default=None, description="Unterrichtsfach, z. B. 'Physik'; null, wenn nicht erkennbar.")
    klassenstufe: int | None = Field(default=None, description="Klassenstufe 5 bis 13; null, wenn nicht genannt.")
    klasse: str | None = Field(default=None, description="Konkrete Klasse wie '10a', falls genannt.")
    thema: str | None = Field(
        default=None,
        description="Thema dieses Teils. Hat der Teil kein eigenes Thema, das Thema des Teils aus 'topic_from'.",
    )
    dauer_minuten: int | None = Field(default=None, description="Dauer in Minuten, falls für diesen Teil genannt.")
    zusatz: str = Field(default="", description="Weitere Wünsche zu diesem Teil (z. B. '10 Fragen'), knapp.")
    afb_ziel: dict[str, int] | None = Field(
        default=None, description="AFB-Verteilung in Prozent für eine Klausur, z. B. {'I': 30, 'II': 40, 'III': 30}."
    )
    afb_wuensche: list[AfbWunsch] = Field(default_factory=list, description="Wünsche wie 'Induktion als AFB III'.")
    depends_on: list[str] = Field(
        default_factory=list,
        description="Kennungen der Teile, die vorher fertig sein müssen (z. B. das Übungsblatt zur Vorbereitung "
                    "hängt von der Klausur ab). Keine Kreise.",
    )
    topic_from: str | None = Field(
        default=None, description="Kennung des Teils, dessen Thema (und Aufgaben) dieser Teil übernimmt, sonst null."
    )
    confidence: float = Field(default=1.0, ge=0, le=1, description="Wie sicher die Materialart ist (0 bis 1).")
    reason: str = Field(default="", description="Woran die Materialart erkannt wurde, kurz.")

    def to_request(self) -> MaterialRequest:
        """The router's request for this part (call only on a plan without faults)."""
        return MaterialRequest(
            fach=fach_name(normalize_fach(self.fach) or ""), klassenstufe=self.klassenstufe, klasse=self.klasse,
            thema=self.thema or "", material_type=self.material_type,  # type: ignore[arg-type]
            dauer_minuten=self.dauer_minuten, zusatz=self.zusatz[:500], afb_ziel=self.afb_ziel,
            afb_wuensche=self.afb_wuensche,
        )


class Plan(BaseModel):
    """The decomposition of a combined request: sub-requests with dependencies (a DAG)."""

    parts: list[PlanPart] = Field(description=f"Die einzelnen Materialien in Reihenfolge, höchstens {MAX_PARTS}.")
    notes: list[str] = Field(
        default_factory=list, description="Hinweise für die Lehrkraft (z. B. eine unsichere Zuordnung), deutsch."
    )
    lesson_minutes: int | None = Field(
        default=None,
        description="Nur wenn die Teile laut Anfrage in dieselbe Stunde sollen: deren Länge in Minuten (45/90).",
    )
    problems: list[str] = Field(
        default_factory=list,
        description="Unmögliche Angaben der Lehrkraft (z. B. Klassenstufe 4 oder eine AFB-Summe von 110 %), "
                    "deutsch; sonst leer.",
    )
    flat: bool = Field(default=False, description="Immer false; das System setzt es bei aufgelösten Kreisen.")

    def part(self, key: str) -> PlanPart:
        return next(p for p in self.parts if p.key == key)


# --- capability matching -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpecialistChoice:
    """Which specialist takes a part, how sure that is, and why."""

    agent_type: str
    confidence: float
    reason: str
    fallback: bool = False


@dataclass(frozen=True)
class _Signal:
    agent_type: str | None  # None: a material word that names no capability ("Material") -> fallback
    confidence: float
    label: str
    head: bool  # a noun that can stand for a material on its own (adjectives only modify)


_SUBJECT_PREFIX = r"(?:physik|mathe|mathematik|bio|biologie|chemie|deutsch|englisch|geschichts|erdkunde|geo|geographie)"
_HEADS: tuple[tuple[re.Pattern[str], str | None, float, str], ...] = tuple(
    (re.compile(rx), agent, conf, label) for rx, agent, conf, label in (
        (r"h5p(?:-[a-z]+)*", "h5p", 0.95, "H5P"),
        (r"[a-z-]*lueckentext[a-z-]*", "h5p", 0.9, "Lückentext"),
        (r"[a-z-]*(?:quiz|quizze|quizzes|quizfragen)", "h5p", 0.9, "Quiz"),
        (r"[a-z-]*(?:zuordnungsuebung(?:en)?|zuordnungsaufgabe(?:n)?|drag-and-drop[a-z-]*|kreuzwortraetsel)", "h5p",
         0.85, "Zuordnungsübung"),
        (r"(?:online|interaktive?|digitale?|h5p|selbstlern)-?uebung(?:en)?", "h5p", 0.9, "interaktive Übung"),
        (r"(?:online|selbst)-?tests?", "h5p", 0.75, "Selbsttest"),
        (r"[a-z-]*(?:klausur|klausuren|klassenarbeit|klassenarbeiten)", "klausur", 0.95, "Klausur"),
        (rf"(?:kurz|vokabel|wissens|einstiegs|abschluss|lernstands|zwischen|eingangs|diagnose|grammatik|"
         rf"{_SUBJECT_PREFIX})?-?tests?", "klausur", 0.85, "Test"),
        (r"(?:lern|leistungs|kurz|lernziel|lernerfolgs)kontrollen?|leistungsnachweis|schulaufgabe|stegreifaufgabe",
         "klausur", 0.85, "Lernkontrolle"),
        (r"[a-z-]*(?:foerderblatt|foerderblaetter|foerdermaterial|differenzierungsmaterial|foerderaufgaben)",
         "differenzierung", 0.9, "Fördermaterial"),
        (r"[a-z-]*(?:arbeitsblatt|arbeitsblaetter|arbeitsbogen|arbeitsboegen|aufgabenblatt|aufgabenblaetter)",
         "differenzierung", 0.85, "Arbeitsblatt"),
        (r"[a-z-]*(?:uebungsblatt|uebungsblaetter)", "differenzierung", 0.8, "Übungsblatt"),
        (r"stationenlernen|lerntheke|lernzirkel", "differenzierung", 0.6, "Lernstationen"),
        (r"uebung|uebungen", "differenzierung", 0.55, "Übung"),
        (r"material|materialien|unterlagen|lernmaterial|unterrichtsmaterial", None, 0.0, "Material"),
    )
)
_MODIFIERS: tuple[tuple[re.Pattern[str], str, float, str], ...] = tuple(
    (re.compile(rx), agent, conf, label) for rx, agent, conf, label in (
        (r"(?:binnen)?differenziert[a-z]*|niveaus|niveaustufen|anforderungsniveaus", "differenzierung", 0.9,
         "differenziert/Niveaus"),
        (r"interaktiv[a-z]*|digital[a-z]*|online", "h5p", 0.9, "interaktiv"),
        (r"multiple-choice[a-z-]*|multiplechoice", "h5p", 0.85, "Multiple Choice"),
    )
)


def _fold(text: str) -> str:
    text = text.lower()
    for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(a, b)
    return text


def _head_signal(fold: str, orig: str) -> _Signal | None:
    if orig == "AB":
        return _Signal("differenzierung", 0.7, "AB (Arbeitsblatt)", True)
    for rx, agent, conf, label in _HEADS:
        if rx.fullmatch(fold):
            return _Signal(agent, conf, label, True)
    return None


def _modifier_signal(fold: str) -> _Signal | None:
    for rx, agent, conf, label in _MODIFIERS:
        if rx.fullmatch(fold):
            return _Signal(agent, conf, label, False)
    return None


def _choose(signals: list[_Signal]) -> SpecialistChoice:
    known = [s for s in signals if s.agent_type is not None]
    if not known:
        what = next((s.label for s in signals), "die Anfrage")
        return SpecialistChoice(FALLBACK_TYPE, FALLBACK_CONFIDENCE, f"„{what}“ nennt keine Materialart", True)
    best = max(known, key=lambda s: (s.confidence, s.head))
    rivals = [s for s in known if s.agent_type != best.agent_type and best.confidence - s.confidence < 0.05]
    confidence = best.confidence - (0.15 if rivals else 0.0)
    reason = best.label + (f" (auch „{rivals[0].label}“ genannt)" if rivals else "")
    return SpecialistChoice(best.agent_type or FALLBACK_TYPE, round(confidence, 2), reason)


def select_specialist(wording: str) -> SpecialistChoice:
    """Capability matching for one part's words: "Lückentext-Übung" -> h5p 0.9, "Übungsblatt" -> differenzierung 0.8,
    no material word at all -> the Klausur specialist as fallback with low confidence."""
    signals = []
    for w in _words(wording):
        s = _head_signal(w.fold, w.orig) or _modifier_signal(w.fold)
        if s is not None:
            signals.append(s)
    return _choose(signals)


# --- checks ---------------------------------------------------------------------------------------------------------


def topological_levels(parts: list[PlanPart]) -> list[list[str]] | None:
    """Kahn's algorithm: the keys in levels (a level only needs earlier levels); None when the graph has a cycle."""
    keys = [p.key for p in parts]
    needs = {p.key: {d for d in p.depends_on if d in keys} for p in parts}
    levels: list[list[str]] = []
    done: set[str] = set()
    while len(done) < len(keys):
        ready = [k for k in keys if k not in done and needs[k] <= done]
        if not ready:
            return None
        levels.append(ready)
        done.update(ready)
    return levels


def plan_faults(plan: Plan) -> list[str]:
    """What makes a plan unusable, in German (for the model's retry and for the teacher). A cycle is no fault: it is
    resolved by `normalized` into a flat list."""
    faults: list[str] = []
    if not plan.parts:
        return ["Der Plan enthält kein Material. Jede Anfrage braucht mindestens einen Teil."]
    if len(plan.parts) > MAX_PARTS:
        faults.append(f"Der Plan enthält {len(plan.parts)} Materialien — höchstens {MAX_PARTS} pro Anfrage sind "
                      "möglich. Bitte fassen Sie Teile zusammen oder stellen Sie eine zweite Anfrage.")
    keys = [p.key for p in plan.parts]
    for key in sorted({k for k in keys if keys.count(k) > 1}):
        faults.append(f"Die Kennung „{key}“ kommt mehrfach vor; jede Kennung darf nur einmal vorkommen.")
    for p in plan.parts:
        name = f"Teil „{p.key}“"
        if p.material_type not in MATERIAL_TYPES:
            faults.append(f"{name}: Die Materialart „{p.material_type}“ gibt es nicht — möglich sind klausur, "
                          "differenzierung und h5p.")
        if p.klassenstufe is not None and not nlu.KLASSENSTUFE_MIN <= p.klassenstufe <= nlu.KLASSENSTUFE_MAX:
            faults.append(f"{name}: Klassenstufe {p.klassenstufe} ist nicht möglich — erlaubt sind die "
                          f"Klassenstufen {nlu.KLASSENSTUFE_MIN} bis {nlu.KLASSENSTUFE_MAX}.")
        if p.fach:
            try:
                normalize_fach(p.fach)
            except UserError as exc:
                faults.append(f"{name}: {exc.message}")
        if p.dauer_minuten is not None and not 1 <= p.dauer_minuten <= 600:
            faults.append(f"{name}: Eine Dauer von {p.dauer_minuten} Minuten ist nicht möglich (1 bis 600).")
        if p.afb_ziel is not None and (set(p.afb_ziel) - {"I", "II", "III"} or sum(p.afb_ziel.values()) != 100
                                       or any(v < 0 for v in p.afb_ziel.values())):
            faults.append(f"{name}: Die AFB-Verteilung muss die Schlüssel I, II, III haben und 100 % ergeben.")
        for d in [*p.depends_on, *([p.topic_from] if p.topic_from else [])]:
            if d not in keys:
                faults.append(f"{name}: hängt von „{d}“ ab, diesen Teil gibt es im Plan nicht.")
    return faults


def normalized(plan: Plan) -> Plan:
    """Subject keys, `topic_from` as a dependency, topics filled from their source; a cycle becomes a flat list."""
    parts = []
    for p in plan.parts:
        fach = normalize_fach(p.fach, required=False) if p.fach else None
        deps = list(dict.fromkeys([*p.depends_on, *([p.topic_from] if p.topic_from else [])]))
        parts.append(p.model_copy(update={"fach": fach, "depends_on": deps}))
    by_key = {p.key: p for p in parts}
    for i, p in enumerate(parts):  # a part without its own topic takes its source's (following a chain)
        seen: set[str] = set()
        src = p
        while not src.thema and src.topic_from and src.topic_from in by_key and src.key not in seen:
            seen.add(src.key)
            src = by_key[src.topic_from]
        if not p.thema and src.thema:
            parts[i] = p.model_copy(update={"thema": src.thema})
    notes = list(plan.notes)
    flat = plan.flat
    if topological_levels(parts) is None:
        cycle = ", ".join(p.key for p in parts if p.depends_on)
        notes.append(f"Die Abhängigkeiten im Plan bilden einen Kreis ({cycle}); ich erstelle die Teile deshalb "
                     "unabhängig voneinander.")
        parts = [p.model_copy(update={"depends_on": [], "topic_from": None}) for p in parts]
        flat = True
    return plan.model_copy(update={"parts": parts, "notes": notes, "flat": flat})


# --- the offline rules ------------------------------------------------------------------------------------------------


@dataclass
class _Word:
    orig: str
    fold: str
    start: int
    end: int
    cap: bool


_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
_SEP_WORDS = frozenset({"und", "sowie", "dazu", "ausserdem", "plus", "zusaetzlich", "ferner", "noch", "anschliessend",
                        "danach", "dann", "sodann", "ergaenzend"})
_SEP_PUNCT = re.compile(r"[,;:.!?()+&\n]")
_FILLERS = frozenset({"bitte", "auch", "gern", "gerne", "mal", "vielleicht", "ich", "mir", "uns", "brauche",
                      "braeuchte", "moechte", "haette", "will", "wuerde", "gleich", "direkt"})
_INDEFINITE = frozenset({"ein", "eine", "einen", "einem", "einer", "eines", "noch", "zwei", "drei", "paar"})
_DEFINITE = frozenset({"der", "die", "das", "den", "dem", "des", "diese", "dieser", "diesen", "dieses"})
_SKIP_BEFORE_HEAD = _INDEFINITE | _DEFINITE | frozenset({
    "kommende", "kommenden", "anstehende", "anstehenden", "naechste", "naechsten", "bevorstehende", "bevorstehenden",
    "kleine", "kleinen", "kleines", "kurze", "kurzen", "kurzes", "passende", "passenden", "passendes", "neue", "neues",
    "neuen", "weitere", "weiteres", "weiteren"})
_PURPOSE_PREPS = frozenset({"auf", "vor", "nach", "zur", "zum", "fuer", "zu", "bis", "passend", "gemaess", "aus",
                            "von", "vom", "im", "beim", "ueber"})
_CONTRACTED = frozenset({"zur", "zum", "vom", "im", "beim"})
_FEATURE_PREPS = frozenset({"mit", "ohne", "inklusive", "inkl", "samt", "als"})
_NEGATIONS = frozenset({"kein", "keine", "keinen", "keiner", "ohne", "statt", "anstatt", "nicht"})
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


def _words(text: str) -> list[_Word]:
    return [_Word(m.group(), _fold(m.group()), m.start(), m.end(), m.group()[:1].isupper())
            for m in _WORD.finditer(text)]


@dataclass
class _Head:
    index: int  # word index
    signal: _Signal
    kind: str  # "part" | "reference" | "feature"


def _gap_has_separator(text: str, words: list[_Word], i: int, j: int) -> bool:
    """Is there a separator (punctuation or a joining word) between word i and word j (i < j)?"""
    if _SEP_PUNCT.search(text[words[i].end:words[j].start]):
        return True
    return any(words[k].fold in _SEP_WORDS for k in range(i + 1, j))


def _classify_heads(text: str, words: list[_Word]) -> list[_Head]:
    heads: list[_Head] = []
    types_seen: set[str] = set()
    for i, w in enumerate(words):
        signal = _head_signal(w.fold, w.orig)
        if signal is None:
            continue
        prev = [words[k].fold for k in range(max(0, i - 2), i)
                if not _SEP_PUNCT.search(text[words[k].end:words[i].start])]
        if any(p in _NEGATIONS for p in prev):
            continue
        k, skipped = i - 1, []
        while k >= 0 and words[k].fold in _SKIP_BEFORE_HEAD and not _SEP_PUNCT.search(text[words[k].end:w.start]):
            skipped.append(words[k].fold)
            k -= 1
        before = words[k].fold if k >= 0 and not _SEP_PUNCT.search(text[words[k].end:w.start]) else None
        indefinite = any(s in _INDEFINITE for s in skipped)
        definite = any(s in _DEFINITE for s in skipped)
        kind = "part"
        if not indefinite and before in _FEATURE_PREPS:
            kind = "feature"  # "ein Quiz mit Lückentexten"
        elif not indefinite and before in _PURPOSE_PREPS and (definite or before in _CONTRACTED or not skipped):
            kind = "reference"  # "zur Vorbereitung auf die Klausur", "passend zur Klausur"
        elif definite and not indefinite and signal.agent_type in types_seen:
            kind = "reference"  # "… das die Klausur vorbereitet" after "eine Klausur"
        elif definite and before is not None and words[k].cap and before not in _PURPOSE_PREPS and skipped[:1] in (
                ["der"], ["des"]):
            kind = "reference"  # genitive: "die Themen der Klausur"
        if kind == "part" and signal.agent_type:
            types_seen.add(signal.agent_type)
        heads.append(_Head(i, signal, kind))
    # A head without a separator before it continues the previous part ("ein H5P Quiz"); after a feature preposition
    # ("mit Multiple Choice und Lückentext") it stays a feature unless an article opens a new material.
    merged: list[_Head] = []
    feature_mode = False
    for h in heads:
        if h.kind != "part":
            feature_mode = h.kind == "feature"
            merged.append(h)
            continue
        prev_part = next((m for m in reversed(merged) if m.kind == "part"), None)
        if prev_part is not None:
            opens = h.index > 0 and words[h.index - 1].fold in _INDEFINITE
            if not _gap_has_separator(text, words, prev_part.index, h.index) or (feature_mode and not opens):
                merged.append(_Head(h.index, h.signal, "feature"))
                continue
        feature_mode = False
        merged.append(h)
    return merged


@dataclass
class _Segment:
    start: int
    end: int
    head: _Head
    signals: list[_Signal] = field(default_factory=list)
    references: list[str] = field(default_factory=list)  # material types referred to ("auf die Klausur")
    # clauses about another part: ("h5p", "das Quiz 20 Minuten") in "…, der Test 30 Minuten, das Quiz 20 Minuten"
    attributions: list[tuple[str, str]] = field(default_factory=list)


def _segments(text: str, words: list[_Word], heads: list[_Head]) -> tuple[str, list[_Segment]]:
    parts = [h for h in heads if h.kind == "part"]
    if not parts:
        return "", []
    bounds: list[int] = []
    for n, h in enumerate(parts):
        lo_word = parts[n - 1].index + 1 if n else 0
        cut = None
        for k in range(h.index - 1, lo_word - 1, -1):  # the last separator before this head
            gap = text[words[k].end:words[k + 1].start]
            if _SEP_PUNCT.search(gap):
                cut = words[k].end + max(m.end() for m in _SEP_PUNCT.finditer(gap))
                break
            if words[k].fold in _SEP_WORDS:
                cut = words[k].start
                # "… (90 Minuten). Dazu bitte noch eine …": the part opens at the first joining word
                while k - 1 >= lo_word and words[k - 1].fold in _SEP_WORDS | _FILLERS and not _SEP_PUNCT.search(
                        text[words[k - 1].end:words[k].start]):
                    k -= 1
                    cut = words[k].start
                break
        if cut is None and n == 0:
            cut = 0
        elif cut is None:
            cut = words[h.index].start
            # no separator: the new part starts at its first article/adjective
            k = h.index - 1
            while k > parts[n - 1].index and words[k].fold in _SKIP_BEFORE_HEAD:
                cut = words[k].start
                k -= 1
        bounds.append(cut)
    # "Chemie 10:" -> "Chemie 10" (a number followed by ":" reads as a time of day otherwise)
    shared = text[:bounds[0]].rstrip(" ,;:.!?-") if bounds[0] > 0 else ""
    segments = []
    for n, h in enumerate(parts):
        end = bounds[n + 1] if n + 1 < len(parts) else len(text)
        seg = _Segment(start=bounds[n], end=end, head=h)
        segments.append(seg)
    for h in heads:
        pos = words[h.index].start
        seg = next((s for s in segments if s.start <= pos < s.end), None)
        if seg is None:
            continue
        if h.kind == "reference" and h.signal.agent_type:
            k = h.index
            while k > 0 and words[k - 1].fold in _DEFINITE and not _SEP_PUNCT.search(
                    text[words[k - 1].end:words[k].start]):
                k -= 1
            stop = _SEP_PUNCT.search(text, words[h.index].end)
            clause = text[words[k].start:stop.start() if stop else len(text)]
            if k < h.index and nlu.extract(clause).dauer_minuten:
                seg.attributions.append((h.signal.agent_type, clause))
            else:
                seg.references.append(h.signal.agent_type)
        elif h.kind != "reference":
            seg.signals.append(h.signal)
    for seg in segments:
        for w in words:
            if seg.start <= w.start < seg.end and (m := _modifier_signal(w.fold)):
                seg.signals.append(m)
    return shared, segments


def _strip_joiners(text: str) -> str:
    """A part's own words without the joining words around it ("Außerdem ein Übungsblatt und" -> "ein Übungsblatt")."""
    text = text.strip(" ,;:.+&–-")
    while (m := _WORD.match(text)) and _fold(m.group()) in _SEP_WORDS | _FILLERS:
        text = text[m.end():].strip(" ,;:.+&–-")
    while (m := re.search(r"[^\W_]+$", text)) and _fold(m.group()) in _SEP_WORDS:
        text = text[:m.start()].rstrip(" ,;:.+&–-")
    return text


def _tail_clauses(text: str, seg: _Segment, words: list[_Word]) -> str:
    """Trailing clauses of the last part that only state shared facts (", beides für die 8b", ", 45 Minuten")."""
    head_end = words[seg.head.index].end
    tail = text[head_end:seg.end]
    pieces = re.split(r"[,;]", tail)
    shared: list[str] = []
    for piece in reversed(pieces[1:]):
        if not piece.strip():
            continue
        if any(_head_signal(w.fold, w.orig) for w in _words(piece)):
            break
        e = nlu.extract(piece, topic_terms=topic_terms())
        if e.thema is not None and not _SHARED_TAIL.search(piece):
            break
        shared.insert(0, piece.strip())
    return ", ".join(shared)


def _prep_phrase(text: str) -> str | None:
    """The noun phrase after "zu/zum/zur/über" when the vocabulary knows it only as a topic area ("zur Genetik")."""
    for m in _TOPIC_PREP.finditer(text):
        ws = _words(text[m.end():])
        out: list[str] = []
        for n, w in enumerate(ws):
            if n and _SEP_PUNCT.search(text[m.end() + ws[n - 1].end:m.end() + w.start]):
                break
            nxt = ws[n + 1] if n + 1 < len(ws) else None
            adjective = not w.cap and w.fold.endswith(("e", "en", "er", "es")) and nxt is not None and nxt.cap
            if not (w.cap or adjective) or w.fold in _GENERIC_TOPICS or _head_signal(w.fold, w.orig):
                break
            word = w.orig[:-1] if adjective and w.fold.endswith("en") else w.orig
            out.append(word)
            if len(out) == 4:
                break
        if out:
            return " ".join(out)
    return None


def _thema(e: nlu.Extraction, text: str) -> str | None:
    thema = e.thema
    if thema and _fold(thema) in _GENERIC_TOPICS:
        thema = None
    if thema is None and e.fach_hint:
        thema = _prep_phrase(text)
    return thema


# "für die 12", "in der 10": a bare grade after an article (the NLU wants "Klasse 12" or "10a" for safety).
_BARE_GRADE = re.compile(r"\b(?:für|fuer|in)\s+(?:die|der|meine|meiner|unsere|unserer)\s+(\d{1,2})\b(?![.,]\d)"
                         r"(?!\s*(?:min|minuten|std|stunden|fragen|aufgaben|punkte|%|prozent|seiten|schüler|sus)\b)",
                         re.I)


def _extract(text: str, terms: Mapping[str, Any]) -> nlu.Extraction:
    e = nlu.extract(text, topic_terms=terms)
    if e.klassenstufe is None and (m := _BARE_GRADE.search(text)):
        stufe = int(m.group(1))
        if nlu.KLASSENSTUFE_MIN <= stufe <= nlu.KLASSENSTUFE_MAX:
            e = replace(e, klassenstufe=stufe)
    return e


def _base_extraction(context: Mapping[str, Any] | None) -> nlu.Extraction:
    if not context:
        return nlu.Extraction()
    fach = context.get("fach")
    try:
        fach = normalize_fach(fach, required=False) if fach else None
    except UserError:
        fach = None
    afb = context.get("afb_ziel") or context.get("afb_verteilung")
    if isinstance(afb, Mapping):
        afb = tuple(int(afb.get(k, 0)) for k in ("I", "II", "III"))
    stufe = context.get("klassenstufe")
    return nlu.Extraction(
        fach=fach, fach_source="explicit" if fach else None, klassenstufe=int(stufe) if stufe else None,
        klasse=context.get("klasse"), thema=context.get("thema"), dauer_minuten=context.get("dauer_minuten"),
        afb_verteilung=tuple(afb) if afb else None,  # type: ignore[arg-type]
    )


def rule_plan(text: str, context: Mapping[str, Any] | None = None) -> Plan:
    """Decompose a combined German request by rules (the offline planner).

    Parts start at material words ("Klausur", "Übungsblatt", "H5P-Quiz") after a separator ("dazu", "und", ",",
    "außerdem", "sowie" …); "auf die Klausur" refers to a part, "mit Lückentexten" describes one. Facts before the
    first part ("Für die 10a:") and trailing shared clauses apply to all parts; a part without its own topic follows
    the Klausur named before it, else the nearest earlier part with a topic (a topic named only at the end of a bare
    list belongs to all parts); "zur Vorbereitung" makes a part depend on the Klausur.
    """
    text = re.sub(r"(?m)^\s*(?:\d{1,2}[.)]|[-*•])\s+", "", (text or "").strip())  # list markers "1." / "-"
    text = " ".join(re.sub(r"\s*\n\s*", "; ", text).split())
    terms = topic_terms()
    words = _words(text)
    heads = _classify_heads(text, words)
    shared_text, segments = _segments(text, words, heads)
    base = _base_extraction(context)
    if not segments:
        return Plan(parts=[], notes=["In der Anfrage ist keine Materialart erkennbar (Klausur, Arbeitsblatt oder "
                                     "H5P-Übung)."])
    tail = _tail_clauses(text, segments[-1], words)
    shared = nlu.merge(base, _extract(shared_text, terms)) if shared_text.strip() else base
    if tail:
        tail_e = _extract(tail, terms)
        shared = nlu.merge(tail_e, shared)  # the prefix is more specific than a trailing "beides …"
    problems = list(shared.problems)

    extractions: list[nlu.Extraction] = []
    own: list[nlu.Extraction] = []
    choices: list[SpecialistChoice] = []
    own_topics: list[str | None] = []
    attributed: dict[str, int] = {}
    for seg in segments:
        seg_text = _strip_joiners(text[seg.start:seg.end])
        for mtype, clause in seg.attributions:
            seg_text = seg_text.replace(clause, " ")
            attributed.setdefault(mtype, nlu.extract(clause).dauer_minuten or 0)
        e_seg = _extract(seg_text, terms)
        problems += e_seg.problems
        own.append(e_seg)
        extractions.append(nlu.merge(shared, e_seg))
        own_topics.append(_thema(e_seg, seg_text))
        choices.append(_choose(seg.signals))
    # Shared facts and right-node topics: "eine Klausur und ein Quiz zu Stromkreisen", "für die 10a … und ein Quiz".
    n = len(segments)

    def order(i: int) -> list[int]:  # the other parts, nearest earlier first, then the later ones
        return [*range(i - 1, -1, -1), *range(i + 1, n)]

    for i, e in enumerate(extractions):
        upd: dict[str, Any] = {}
        for name in ("fach", "klassenstufe"):
            if getattr(e, name) is None:
                src = next((extractions[j] for j in order(i) if getattr(extractions[j], name) is not None), None)
                if src is not None:
                    upd[name] = getattr(src, name)
                    if name == "klassenstufe":
                        upd["klasse"] = src.klasse
                    else:
                        upd["fach_hint"] = src.fach_hint
        extractions[i] = replace(e, **upd)

    keys: list[str] = []
    for c in choices:
        key = {"klausur": "klausur", "differenzierung": "blatt", "h5p": "quiz"}[c.agent_type]
        keys.append(key if key not in keys else f"{key}{sum(k.startswith(key) for k in keys) + 1}")
    types = [c.agent_type for c in choices]
    shared_topic = _thema(shared, shared_text + " " + tail) if shared.thema or tail else None

    parts: list[PlanPart] = []
    notes: list[str] = []
    for i, seg in enumerate(segments):
        seg_text = _strip_joiners(text[seg.start:seg.end])
        e, choice = extractions[i], choices[i]
        depends: list[str] = []
        topic_from: str | None = None
        thema = own_topics[i] or shared_topic
        for ref in seg.references:  # "zur Vorbereitung auf die Klausur"
            j = next((j for j in order(i) if types[j] == ref), None)
            if j is not None:
                depends.append(keys[j])
        if not depends and _PURPOSE.search(seg_text) and "klausur" in types[:i] + types[i + 1:]:
            depends.append(keys[next(j for j in order(i) if types[j] == "klausur")])
        if not depends and i and _PASSEND_DAZU.search(text[seg.start:seg.end]):
            depends.append(keys[i - 1])
        if thema is None:  # follows the Klausur named before it, else the nearest earlier part with a topic
            earlier = next((j for j in range(i) if types[j] == "klausur" and own_topics[j]), None)
            if earlier is None:
                earlier = next((j for j in range(i - 1, -1, -1) if own_topics[j]), None)
            target = next((keys.index(d) for d in depends if own_topics[keys.index(d)]), earlier)
            if target is not None:
                topic_from = keys[target]
                thema = own_topics[target]
                if keys[target] not in depends:
                    depends.append(keys[target])
            else:  # right-node raising: the topic named later belongs to this part as well
                later = next((j for j in range(i + 1, n) if own_topics[j]), None)
                thema = own_topics[later] if later is not None else None
        # A shared "45 Minuten" belongs to the exam; other parts keep only a duration of their own.
        dauer = e.dauer_minuten if choice.agent_type == "klausur" else own[i].dauer_minuten
        if choice.agent_type in attributed and types.index(choice.agent_type) == i:
            dauer = attributed[choice.agent_type] or dauer
        afb = e.afb_verteilung
        if choice.agent_type == "klausur" and afb is None:  # "…, AFB 30/40/30" said in another part's words
            afb = next((x.afb_verteilung for x in extractions if x.afb_verteilung), None)
        part = PlanPart(
            key=keys[i], wording=seg_text, material_type=choice.agent_type, fach=e.fach, klassenstufe=e.klassenstufe,
            klasse=e.klasse, thema=thema, dauer_minuten=dauer, zusatz=seg_text[:500],
            afb_ziel=dict(zip(("I", "II", "III"), afb, strict=True)) if afb and choice.agent_type == "klausur"
            else None,
            afb_wuensche=[AfbWunsch(thema=w.thema, afb=w.afb) for w in e.afb_wishes]
            if choice.agent_type == "klausur" else [],
            depends_on=depends, topic_from=topic_from, confidence=choice.confidence, reason=choice.reason,
        )
        parts.append(part)
        if choice.fallback:
            notes.append(f"Bei „{seg_text}“ war die Materialart nicht erkennbar ({choice.reason}); ich habe eine "
                         f"{TYPE_LABELS[choice.agent_type]} angenommen (Sicherheit {choice.confidence:.0%}).")
        elif choice.confidence < UNSURE_BELOW:
            notes.append(f"Bei „{seg_text}“ war die Materialart nicht ganz eindeutig ({choice.reason}); ich habe "
                         f"{TYPE_LABELS[choice.agent_type]} gewählt (Sicherheit {choice.confidence:.0%}).")
    lesson = _LESSON.search(text)
    lesson_minutes = (90 if lesson.group(1).lower().startswith("doppel") else 45) if lesson else None
    return Plan(parts=parts, notes=notes, lesson_minutes=lesson_minutes, problems=list(dict.fromkeys(problems)))


# --- the planner agent (real models) --------------------------------------------------------------------------------

DEFAULT_INSTRUCTIONS = f"""\
Du zerlegst die Anfrage einer Lehrkraft, die mehrere Unterrichtsmaterialien auf einmal möchte, in einzelne Teile.
- Jeder Teil ist genau ein Material: 'klausur' (Klausur, Klassenarbeit, Test, Lernkontrolle), 'differenzierung'
  (Arbeitsblatt/Übungsblatt auf drei Niveaus) oder 'h5p' (Quiz, Lückentext, Zuordnungsübung, interaktive Übung).
  Ist die Art unklar, nimm 'klausur' mit confidence unter 0.5 und begründe es in 'reason'.
- Höchstens {MAX_PARTS} Teile. Gemeinsame Angaben („Für die 10a:“, „Physik“) gelten für alle Teile.
- Klassenstufe 5 bis 13; was nicht genannt ist, bleibt null (nicht raten).
- Abhängigkeiten: Ein Teil ohne eigenes Thema übernimmt das Thema des Teils, auf den er sich bezieht (topic_from,
  auch in depends_on). Ein Teil „zur Vorbereitung“ hängt von der Klausur ab. Keine Kreise.
- lesson_minutes nur, wenn die Teile ausdrücklich in dieselbe Stunde sollen.
- Erfinde nichts hinzu: übernimm Thema, Dauer, AFB-Verteilung und Wünsche (z. B. „10 Fragen“ in zusatz) wörtlich."""


@dataclass
class PlannerDeps:
    """What the planner run sees: instructions resolved beforehand (no database work inside the run)."""

    instructions: str = DEFAULT_INSTRUCTIONS
    faults: list[str] = field(default_factory=list)


planner_agent: Agent[PlannerDeps, Plan] = Agent(
    output_type=Plan, deps_type=PlannerDeps, name="supervisor", retries={"output": 2}, defer_model_check=True,
)


@planner_agent.instructions
async def _instructions(ctx: RunContext[PlannerDeps]) -> str:
    return ctx.deps.instructions if ctx.deps is not None else DEFAULT_INSTRUCTIONS


@planner_agent.output_validator
async def _check(ctx: RunContext[PlannerDeps], output: Plan) -> Plan:
    faults = plan_faults(output)
    if ctx.deps is not None:
        ctx.deps.faults = faults
    if faults:
        raise ModelRetry("Der Plan ist ungültig. Behebe genau diese Fehler:\n- " + "\n- ".join(faults))
    return output


_CONTEXT_BLOCK = re.compile(r"```json\s*(\{.*?\})\s*```", re.S)


def planner_prompt(text: str, context: Mapping[str, Any] | None) -> str:
    """The planner's user prompt: the teacher's words and the known context as JSON (the rules read it back)."""
    known = {k: v for k, v in (context or {}).items() if v is not None}
    return f"Anfrage der Lehrkraft:\n<<<\n{text}\n>>>\n\nBekannter Kontext:\n```json\n{json.dumps(known)}\n```"


def planner_rules(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """The rules as a FunctionModel: the offline planner, and the last fallback behind a real planner model."""
    prompts = [p.content for m in messages if isinstance(m, ModelRequest) for p in m.parts
               if isinstance(p, UserPromptPart) and isinstance(p.content, str)]
    prompt = next((p for p in prompts if p.startswith("Anfrage der Lehrkraft")), prompts[0] if prompts else "")
    m = re.search(r"<<<\n(.*)\n>>>", prompt, re.S)
    c = _CONTEXT_BLOCK.search(prompt)
    plan = rule_plan(m.group(1) if m else prompt, json.loads(c.group(1)) if c else None)
    tool = info.output_tools[0].name if info.output_tools else "final_result"
    return ModelResponse(parts=[ToolCallPart(tool, plan.model_dump(mode="json"))])


__all__ = [
    "MATERIAL_TYPES", "MAX_PARTS", "TYPE_LABELS", "Plan", "PlanPart", "PlannerDeps", "SpecialistChoice", "normalized",
    "plan_faults", "planner_agent", "planner_prompt", "planner_rules", "rule_plan", "select_specialist",
    "topological_levels",
]
