"""The rule planner's reading of a combined request: which material words open a part, which only refer to one
("auf die Klausur") or describe it ("mit Lückentexten"), and where each part's words begin and end."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agents.offline.capability import WORD, Signal, Word, head_signal, modifier_signal
from core.language.request.extract import extract
from core.language.text import fold

_SEP_WORDS = frozenset({"und", "sowie", "dazu", "ausserdem", "plus", "zusaetzlich", "ferner", "noch", "anschliessend",
                        "danach", "dann", "sodann", "ergaenzend"})
SEP_PUNCT = re.compile(r"[,;:.!?()+&\n]")
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


@dataclass
class Head:
    index: int  # word index
    signal: Signal
    kind: str  # "part" | "reference" | "feature"


def _gap_has_separator(text: str, words: list[Word], i: int, j: int) -> bool:
    """Is there a separator (punctuation or a joining word) between word i and word j (i < j)?"""
    if SEP_PUNCT.search(text[words[i].end:words[j].start]):
        return True
    return any(words[k].fold in _SEP_WORDS for k in range(i + 1, j))


def classify_heads(text: str, words: list[Word]) -> list[Head]:
    heads: list[Head] = []
    types_seen: set[str] = set()
    for i, w in enumerate(words):
        signal = head_signal(w.fold, w.orig)
        if signal is None:
            continue
        prev = [words[k].fold for k in range(max(0, i - 2), i)
                if not SEP_PUNCT.search(text[words[k].end:words[i].start])]
        if any(p in _NEGATIONS for p in prev):
            continue
        k, skipped = i - 1, []
        while k >= 0 and words[k].fold in _SKIP_BEFORE_HEAD and not SEP_PUNCT.search(text[words[k].end:w.start]):
            skipped.append(words[k].fold)
            k -= 1
        before = words[k].fold if k >= 0 and not SEP_PUNCT.search(text[words[k].end:w.start]) else None
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
        heads.append(Head(i, signal, kind))
    # A head without a separator before it continues the previous part ("ein H5P Quiz"); after a feature preposition
    # ("mit Multiple Choice und Lückentext") it stays a feature unless an article opens a new material.
    merged: list[Head] = []
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
                merged.append(Head(h.index, h.signal, "feature"))
                continue
        feature_mode = False
        merged.append(h)
    return merged


@dataclass
class Segment:
    start: int
    end: int
    head: Head
    signals: list[Signal] = field(default_factory=list)
    references: list[str] = field(default_factory=list)  # material types referred to ("auf die Klausur")
    # clauses about another part: ("h5p", "das Quiz 20 Minuten") in "…, der Test 30 Minuten, das Quiz 20 Minuten"
    attributions: list[tuple[str, str]] = field(default_factory=list)


def split_segments(text: str, words: list[Word], heads: list[Head]) -> tuple[str, list[Segment]]:
    parts = [h for h in heads if h.kind == "part"]
    if not parts:
        return "", []
    bounds: list[int] = []
    for n, h in enumerate(parts):
        lo_word = parts[n - 1].index + 1 if n else 0
        cut = None
        for k in range(h.index - 1, lo_word - 1, -1):  # the last separator before this head
            gap = text[words[k].end:words[k + 1].start]
            if SEP_PUNCT.search(gap):
                cut = words[k].end + max(m.end() for m in SEP_PUNCT.finditer(gap))
                break
            if words[k].fold in _SEP_WORDS:
                cut = words[k].start
                # "… (90 Minuten). Dazu bitte noch eine …": the part opens at the first joining word
                while k - 1 >= lo_word and words[k - 1].fold in _SEP_WORDS | _FILLERS and not SEP_PUNCT.search(
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
        seg = Segment(start=bounds[n], end=end, head=h)
        segments.append(seg)
    for h in heads:
        pos = words[h.index].start
        seg = next((s for s in segments if s.start <= pos < s.end), None)
        if seg is None:
            continue
        if h.kind == "reference" and h.signal.agent_type:
            k = h.index
            while k > 0 and words[k - 1].fold in _DEFINITE and not SEP_PUNCT.search(
                    text[words[k - 1].end:words[k].start]):
                k -= 1
            stop = SEP_PUNCT.search(text, words[h.index].end)
            clause = text[words[k].start:stop.start() if stop else len(text)]
            if k < h.index and extract(clause).dauer_minuten:
                seg.attributions.append((h.signal.agent_type, clause))
            else:
                seg.references.append(h.signal.agent_type)
        elif h.kind != "reference":
            seg.signals.append(h.signal)
    for seg in segments:
        for w in words:
            if seg.start <= w.start < seg.end and (m := modifier_signal(w.fold)):
                seg.signals.append(m)
    return shared, segments


def strip_joiners(text: str) -> str:
    """A part's own words without the joining words around it ("Außerdem ein Übungsblatt und" -> "ein Übungsblatt")."""
    text = text.strip(" ,;:.+&–-")
    while (m := WORD.match(text)) and fold(m.group()) in _SEP_WORDS | _FILLERS:
        text = text[m.end():].strip(" ,;:.+&–-")
    while (m := re.search(r"[^\W_]+$", text)) and fold(m.group()) in _SEP_WORDS:
        text = text[:m.start()].rstrip(" ,;:.+&–-")
    return text
