"""Filling an exam up to its time (decision 043): only tasks that serve what was asked fill it without a word; tasks
on a neighbour part or another topic fill it only when the teacher chose the offer to do so. Until then the exam is
shorter, says for how many minutes its tasks are, and the reply offers „mit Aufgaben zu „X“ auf N Minuten
auffüllen“ — the exam that offer names is the one she gets when she chooses it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from core.checks.topicality import TopicContext, home_topic, name_stems
from core.checks.topics import TopicInfo
from core.checks.views import TaskView
from core.composition.candidates import DiffCandidate, QuizCandidate, TaskCandidate
from core.composition.parts_lexicon import covers_part, filed_as
from core.composition.select import ExamSpec, serves
from core.language.text import fold

Item = TypeVar("Item", QuizCandidate, DiffCandidate)
MIN_SHARE = 0.4  # below this share of the working time on topic, the options come first, not a stub exam
MIN_BUDGET = 30  # … in an exam of at least this many working minutes (a 20-minute test of one task is a test)
MIN_QUESTIONS = 4  # a quiz of fewer questions is no quiz to hand out while neighbours could fill it (nor under 40 %)
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


def below_stub_line(have: float, asked: float, *, items: int, min_items: int) -> bool:
    """Too little of what was asked to hand out as a finished material (decisions 043, 057): under 40 % of the asked
    time or count, or fewer items than `min_items` (a single task in an exam, under four questions in a quiz)."""
    return items < min_items or have < MIN_SHARE * asked


def without_choice(zusatz: str) -> str:
    """The wishes without the appended choice: the choice changes which pool may fill, never the tie-break between
    equal tasks — so the exam she chose is the exam the offer named."""
    return re.sub(rf"\s*(?:{CONSENT}|{SHORT_OK})\.?", "", zusatz or "").strip()


def serving(cands: Sequence[TaskCandidate], spec: ExamSpec, *, sibling: bool = False) -> list[TaskCandidate]:
    """The tasks that serve what was asked (`select.serves`); the others wait for her consent."""
    return [c for c in cands if serves(c, spec, sibling=sibling)]


def elsewhere(items: Sequence[Item], topic: TopicContext | None, thema: str, unterthemen: Sequence[str],
              view: Callable[[Item], TaskView]) -> list[Item]:
    """The quiz questions or sheet tasks filed under another topic that treat no named part by content — or, with
    none named, not the request's topic (decisions 043, 051): a neighbour's, used only with her consent. A Hanse
    question for „Mittelalter: Lehnswesen und Grundherrschaft“ treats the Mittelalter, not a part she named; never
    her own items."""
    if topic is None or not topic.resolved:
        return []
    ids = {t.id for t in _holding(topic, unterthemen)} | {t.id for w in topic.wishes for t in w.resolved}
    return [c for c in items if c.herkunft != "eigene"
            and (home := c.topic or home_topic(topic.index, c.unterthema)) is not None and home not in ids
            and not any(covers_part([view(c)], u, thema) for u in (unterthemen or (thema,)))]


def _holding(topic: TopicContext, unterthemen: Sequence[str]) -> list[TopicInfo]:
    """The resolved topics that hold a named part in their title or sub-topics („Lehnswesen und Grundherrschaft im
    Mittelalter“, not „Die Stadt im Mittelalter“, for „Mittelalter: Lehnswesen und Grundherrschaft“); all of them when
    none does or no part is named."""
    def holds(t: TopicInfo, u: str) -> bool:
        return bool(name_stems(u)) and name_stems(u) <= name_stems(" ".join([t.thema, *t.unterthemen]))
    held = [t for t in topic.resolved if any(holds(t, u) for u in unterthemen)]
    return held or list(topic.resolved)


def said_in(unterthema: str, thema: str, named: Sequence[str] = ()) -> bool:
    """The request's topic names this sub-topic as one of its parts („Vulkanismus“ in „Vulkane und Erdbeben“): its
    items are on what she asked for, not a neighbour's. With parts `named` after it, a topic of one part names none
    („Konkurrenz und ökologische Nische“ is not said by „Ökologie: Räuber-Beute-Beziehung“, decision 057)."""
    parts = [p for p in re.split(r"\s+und\s+|,\s*", thema) if p.strip()]
    return (len(parts) > 1 or not named) and any(filed_as(unterthema, p, thema) for p in parts)


def restates_title(unterthemen: Sequence[str], topic: TopicContext | None) -> bool:
    """The named parts are sections the topic's own title lists — two or more („Deutschland: Bundesländer und
    Landschaften“ of „Deutschland: Großlandschaften, Bundesländer und Flüsse“): the request restates the topic, it
    does not focus on a part of it (decision 057); „Räuber-Beute-Beziehung“ is no section of „Ökologie:
    Umweltfaktoren und Populationen“."""
    if topic is None or len(unterthemen) < 2:
        return False
    for t in topic.resolved:
        title = name_stems(t.thema)
        if all((stems := name_stems(u)) and all(any(w in x for x in title) for w in stems) for u in unterthemen):
            return True
    return False


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


def offer_option(parts: Sequence[str], dauer: int, einheit: str = "Minuten") -> str:
    """The option as the reply lists it (agents/offline/refusal.py reads it back); a quiz counts „Fragen“."""
    was = "Fragen" if einheit == "Fragen" else "Aufgaben"
    return f"mit {was} zu {quoted(parts[:3])} auf {dauer} {einheit} auffüllen"


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
    return _too_little(thema, f"geprüfte Aufgaben für ca. {minuten} der {dauer} Minuten", "Arbeit")


def _too_little(thema: str, gibt: str, was: str) -> str:
    return f"Zu „{thema}“ gibt es nur {gibt} – zu wenig für eine brauchbare {was}. Wählen Sie, wie es weitergehen soll."


def short_option(minuten: int) -> str:
    return f"die kurze Fassung mit Aufgaben für ca. {minuten} Minuten erstellen"


def filled_note(thema: str, refs: Sequence[str], umfang: str, parts: Sequence[str],
                was: tuple[str, str] = ("Aufgabe", "Aufgaben")) -> str:
    """The filled exam or quiz names which of its tasks or questions are on the neighbour parts, and how much of it
    they are („14 von 35 Punkten“, „von 10“; core.editing.notes reads the head)."""
    wo = f"{was[0] if len(refs) == 1 else was[1]} " + " und ".join(", ".join(refs).rsplit(", ", 1))
    return (
        f"Ergänzt um {was[1]} zu {quoted(parts)}, wie gewünscht: {wo} ({umfang}) "
        f"{'ist' if len(refs) == 1 else 'sind'} nicht zu „{thema}“, sondern zu diesem Nachbarthema."
    )


def offer_note_count(genannt: str, n: int, anzahl: int, parts: Sequence[str]) -> str:
    """The shorter quiz's one note on its count, with the offer to fill it up (as `offer_note` for an exam);
    `genannt`: what it is all on, quoted (the named parts, else the topic)."""
    return (
        f"Kürzer als gewünscht: {n} statt {anzahl} Fragen, alle zu {genannt}. Mehr geprüfte Fragen dazu gibt es "
        f"nicht; Fragen zu {quoted(parts[:3])} habe ich nicht ohne Ihr Einverständnis ergänzt – wählen Sie unten "
        f"„auffüllen“, wenn es {anzahl} Fragen sein sollen."
    )


def stub_reason_count(thema: str, n: int, anzahl: int) -> str:
    """Why no quiz was handed out although some questions exist (too few on topic, decision 043)."""
    return _too_little(thema, f"{n} geprüfte {'Frage' if n == 1 else 'Fragen'} statt {anzahl}", "Übung")


def short_option_count(n: int) -> str:
    return f"die kurze Fassung mit {n} {'Frage' if n == 1 else 'Fragen'} erstellen"
