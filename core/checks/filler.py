"""Content-free tasks: a topic name in a generic operator frame, or an Erwartungshorizont of only generic criteria.

Substance is what a task names beyond its frame: other content words, numbers in a calculation, a quoted line, or the
material it works with. A task that points to a material that is not there is content-free too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.checks.lexicon import FRAME_WORDS, RUBRIC_WORDS, operator_stems
from core.checks.views import TaskView
from core.language.text import STOPWORDS, content_words, stem

# A number that is part of a calculation or a measurement, not a count in a frame ("Nenne 3 Merkmale").
_UNITS = (r"(%|‰|€|ct|°C?|km/h|m/s²?|g/mol|mol/l|mol/L|g/l|g/cm³|kg/m³|kWh|Wh|[kMm]?W|[kmµ]?[VAΩ]|[kM]?Hz|[hk]?Pa|"
          r"bar|[kmcd]?m[²³]?|[mk]?g|t|[mn]?s|min|h|[mdc]?[lL]|[km]?J|[km]?N|mol|K|Jahre?n?|Tage?n?|Stunden?|"
          r"Minuten?|Euro|Cent|Prozent|Grad)")
_MATH = re.compile(
    r"[\d)]\s*[+\-−·*×/:=^<>≈≤≥]\s*[\d(a-z−-]|\d+[,.]\d+|\d\s*" + _UNITS + r"(?![\w])|[a-z]\s*[²³]|\bf\s*\(\s*x\s*\)"
    r"|\d{3,}|[=≈]\s*-?\d|\b\d+\s*/\s*\d+\b",
)
_DEICTIC = r"(das|dem|des|den|der|die|im|ins|diese[mnrs]?|vorliegende[mnrs]?|folgende[mnrs]?|abgedruckte[mnrs]?)"
# Always a reference to material: numbered materials and line/verse numbers.
_STRONG_REF = re.compile(r"\b(M\s?\d+|Z\.\s?\d+|V\.\s?\d+|Zeilen?\s\d+|Verse?\s\d+|lines?\s\d+|"
                         r"(im|dem|das|den|vorliegenden|folgenden) Material(ien)?|"
                         r"(in|from|of) the (following |given |above )?(text|poem|extract|excerpt|source|table|chart|"
                         r"cartoon|graph|article)|the (following|given|above) (text|poem|extract|excerpt|source|table|"
                         r"chart|cartoon|graph|article))\b", re.I)
# In an exam task ("Analysiere das Gedicht."), a definite article before a text kind also points to material.
_WEAK_REF = re.compile(
    rf"\b{_DEICTIC}\s(\w+\s)?(Gedicht(es|s)?|Quelle|Tabelle|Diagramm(s)?|Abbildung|Grafik|Karikatur|Karte|"
    r"(Text)?auszug(s)?|Szene|Messwerte|Messreihe|Klimadiagramm(s)?|Fallbeispiel(s)?|Statistik|Textes|Text)\b",
    re.I,
)
_MIN_SUBSTANCE = 2
_MIN_MATERIAL_WORDS = 12


@dataclass(frozen=True)
class Filler:
    ref: str
    reason: str


def topic_stems(*names: str | None) -> frozenset[str]:
    """Stems of the requested topic's own words: they are the frame's filling, not substance."""
    return frozenset(stem(w) for n in names if n for w in content_words(n))


def _ignored(word: str, ignore: frozenset[str]) -> bool:
    """A word of the frame, also as a 3rd-person verb ('beschreibt', 'erläutert', 'bezeichnet')."""
    if stem(word) in ignore:
        return True
    return word.endswith("t") and (stem(word[:-1]) in ignore or (word.endswith("et") and stem(word[:-2]) in ignore))


def _substance(text: str, ignore: frozenset[str]) -> set[str]:
    return {stem(w) for w in content_words(text) if not w.isdigit() and len(stem(w)) > 2 and not _ignored(w, ignore)}


def task_substance(text: str, topic: frozenset[str], operators: Iterable[str] = ()) -> set[str]:
    """Content stems of a task text beyond operator, frame, stopwords and the topic's own name."""
    return _substance(text, FRAME_WORDS | operator_stems(tuple(operators)) | topic | STOPWORDS)


def has_math(text: str) -> bool:
    return bool(_MATH.search(text or ""))


def refers_to_material(text: str, *, exam: bool = True) -> bool:
    """Whether the task works with a material ('M1', 'Z. 3', 'im Material'; in exam tasks also 'das Gedicht')."""
    return bool(_STRONG_REF.search(text or "") or (exam and _WEAK_REF.search(text or "")))


def filler_reason(task: TaskView, topic: frozenset[str], operators: Iterable[str] = (), *,
                  check_criteria: bool = True) -> str | None:
    """Why a task is content-free, or None. Quiz and worksheet tasks (check_criteria=False) are short by nature:
    one word of substance is enough there. Only the first reason is reported."""
    material_words = len(content_words(task.material))
    if refers_to_material(task.text, exam=check_criteria) and material_words == 0 and not has_math(task.text):
        return "verweist auf Material (Text, Quelle, Tabelle …), das in der Aufgabe fehlt"
    substance = task_substance(task.text, topic, operators)
    needed = _MIN_SUBSTANCE if check_criteria else 1
    grounded = has_math(task.text) or len(substance) >= needed or (
        material_words >= _MIN_MATERIAL_WORDS and (refers_to_material(task.text, exam=check_criteria)
                                                    or len(substance) >= 1))
    specific = [k for k in task.kriterien if k and criterion_is_specific(k, topic, operators)]
    if not grounded and not (len(substance) == 1 and len(specific) >= 2):
        # one aspect word ("Erläutere die Ursachen des Ersten Weltkriegs") is enough when the key is concrete
        return "nennt außer dem Thema keinen Inhalt (nur ein allgemeiner Operator-Rahmen)"
    if check_criteria and task.kriterien and not specific:
        return "der Erwartungshorizont besteht nur aus allgemeinen Kriterien (nichts Inhaltliches ist erwartet)"
    return None


_ANSWER_KEY = re.compile(r"^\s*(\(?\d{1,2}[.)]|[a-h]\)|[„\"“'])")


def criterion_is_specific(text: str, topic: frozenset[str], operators: Iterable[str] = ()) -> bool:
    """A criterion names something to expect; an enumerated or quoted answer ('(3) will be rich') is an answer key."""
    ignore = RUBRIC_WORDS | operator_stems(tuple(operators)) | topic | STOPWORDS
    found = len(_substance(text, ignore))
    return has_math(text) or found >= _MIN_SUBSTANCE or (found >= 1 and (bool(_ANSWER_KEY.match(text))
                                                                        or any(c.isdigit() for c in text)))


def generic_criteria(kriterien: Iterable[str], topic: frozenset[str], operators: Iterable[str] = ()) -> bool:
    """True when no criterion names anything specific (the points could be given for any answer on any topic)."""
    texts = [k for k in kriterien if k and k.strip()]
    return bool(texts) and not any(criterion_is_specific(k, topic, operators) for k in texts)


def fillers(tasks: Iterable[TaskView], topic: frozenset[str], operators: Iterable[str] = (), *,
            check_criteria: bool = True) -> list[Filler]:
    out = []
    for t in tasks:
        reason = filler_reason(t, topic, operators, check_criteria=check_criteria)
        if reason:
            out.append(Filler(t.ref, reason))
    return out
