"""Filling an exam up to its time (decision 043): only tasks that serve what was asked fill it without a word; tasks
on a neighbour part or another topic fill it only when the teacher chose the offer to do so. Until then the exam is
shorter, says for how many minutes its tasks are, and the reply offers „mit Aufgaben zu „X“ auf N Minuten
auffüllen“ — the exam that offer names is the one she gets when she chooses it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.checks.topicality import TopicContext, name_stems
from core.composition.candidates import TaskCandidate
from core.composition.select import ExamSpec, serves
from core.language.text import fold

MIN_SHARE = 0.4  # below this share of the working time on topic, the options come first, not a stub exam
MIN_BUDGET = 30  # … in an exam of at least this many working minutes (a 20-minute test of one task is a test)
CONSENT = "Mit Nachbarthemen auffüllen"  # appended to the request's wishes when she chose the offer
SHORT_OK = "Kürzere Fassung erwünscht"  # appended when she chose the short exam over the options
_CONSENT = re.compile(r"\bauf(?:zu)?fuell|\baufgefuellt")
_REFUSE = re.compile(r"\b(?:nicht|kein\w*|ohne)\s+(?:\w+\s+){0,3}auf(?:zu)?fuell")


def consents(zusatz: str) -> bool:
    """The teacher agreed to fill the exam with neighbour tasks: she chose the offer, or wrote „gern auffüllen“
    herself („nicht auffüllen“ is no consent)."""
    text = fold(zusatz or "")
    return bool(_CONSENT.search(text)) and not _REFUSE.search(text)


def short_ok(zusatz: str) -> bool:
    """She chose the short exam over the options (decision 043): no minimum of on-topic time."""
    return fold(SHORT_OK) in fold(zusatz or "")


def without_choice(zusatz: str) -> str:
    """The wishes without the appended choice: the choice changes which pool may fill, never the tie-break between
    equal tasks — so the exam she chose is the exam the offer named."""
    return re.sub(rf"\s*(?:{CONSENT}|{SHORT_OK})\.?", "", zusatz or "").strip()


def serving(cands: Sequence[TaskCandidate], spec: ExamSpec, *, sibling: bool = False) -> list[TaskCandidate]:
    """The tasks that serve what was asked (`select.serves`); the others wait for her consent."""
    return [c for c in cands if serves(c, spec, sibling=sibling)]


def other_title_words(thema: str, topic: TopicContext | None) -> frozenset[str]:
    """The stems of the resolved topic's title the request's topic does not say: „bruch“ for „Dezimalzahlen“ of
    „Brüche und Dezimalzahlen“ (a task naming them is about the other part)."""
    if topic is None or whole_topic(thema, topic):
        return frozenset()
    said = name_stems(thema)
    return frozenset(w for t in topic.resolved for w in name_stems(t.thema.rpartition(":")[2]) - said)


def whole_topic(thema: str, topic: TopicContext | None) -> bool:
    """The request names a bank topic as a whole („Weimarer Republik (Krisenjahr 1923)“, „Schall: Echo“), not one
    part of it („Dezimalzahlen“ of „Brüche und Dezimalzahlen“, „Sinussatz und Kosinussatz“ of „Trigonometrie“):
    then all the topic's parts serve the request (decision 043). Without a resolved topic there is nothing wider."""
    if topic is None or not topic.resolved:
        return True
    said = name_stems(thema)
    for t in topic.resolved:
        head = name_stems(t.thema.rpartition(":")[0])
        if name_stems(t.thema) <= said or (head and head <= said):
            return True
    return False


def neighbours(chosen: Sequence[TaskCandidate], pool: Sequence[TaskCandidate]) -> list[TaskCandidate]:
    """The chosen tasks that come from the neighbour pool, in the exam's order."""
    keys = {c.key for c in pool}
    return [c for c in chosen if c.key in keys]


def names(tasks: Sequence[TaskCandidate]) -> list[str]:
    """The neighbour parts those tasks are filed under, most points first."""
    points: dict[str, int] = {}
    for c in tasks:
        if c.unterthema:
            points[c.unterthema] = points.get(c.unterthema, 0) + c.punkte
    return sorted(points, key=lambda n: -points[n])


def quoted(parts: Sequence[str]) -> str:
    """„A“, „B“ und „C“."""
    q = [f"„{p}“" for p in parts]
    return " und ".join(", ".join(q).rsplit(", ", 1)) if q else "Nachbarthemen"


def offer_option(parts: Sequence[str], dauer: int) -> str:
    """The option as the reply lists it (agents/offline/refusal.py reads it back)."""
    return f"mit Aufgaben zu {quoted(parts[:3])} auf {dauer} Minuten auffüllen"


def offer_note(thema: str, minuten: int, dauer: int, parts: Sequence[str]) -> str:
    """What the shorter exam says about itself — the one note on its time (report.Befund.knapp says it instead of
    its own line, so the teacher never reads „aufgefüllt wird nicht“ beside the offer to fill it up)."""
    return (
        f"Kürzer als gewünscht: ausgelegt auf {minuten} statt {dauer} Minuten. Mehr geprüfte Aufgaben zu „{thema}“ "
        f"gibt es nicht; Aufgaben zu {quoted(parts[:3])} habe ich nicht ohne Ihr Einverständnis ergänzt – wählen "
        "Sie unten „auffüllen“, wenn die Zeit gefüllt sein soll."
    )


def stub_reason(thema: str, minuten: int, dauer: int) -> str:
    """Why no exam was handed out although some tasks exist (too little on topic, decision 043)."""
    return (
        f"Zu „{thema}“ gibt es nur geprüfte Aufgaben für ca. {minuten} der {dauer} Minuten – zu wenig für eine "
        "brauchbare Arbeit. Wählen Sie, wie es weitergehen soll."
    )


def short_option(minuten: int) -> str:
    return f"die kurze Fassung mit Aufgaben für ca. {minuten} Minuten erstellen"


def filled_note(thema: str, refs: Sequence[str], punkte: int, gesamt: int, parts: Sequence[str]) -> str:
    """The filled exam names which of its tasks are on the neighbour parts (core.editing.notes reads the head)."""
    wo = ("Aufgabe " if len(refs) == 1 else "Aufgaben ") + " und ".join(", ".join(refs).rsplit(", ", 1))
    return (
        f"Ergänzt um Aufgaben zu {quoted(parts)}, wie gewünscht: {wo} ({punkte} von {gesamt} Punkten) "
        f"{'ist' if len(refs) == 1 else 'sind'} nicht zu „{thema}“, sondern zu diesem Nachbarthema."
    )
