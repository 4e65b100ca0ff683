"""Quizzes and worksheets on one named literary work (decision 070): only the items on that work go in, or — when the
bank has none — the plain reason with the works it does have; never a sheet on another text under the asked title."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from core.checks.topicality import TopicContext
from core.composition import works
from core.composition.candidates import DiffCandidate, QuizCandidate, TaskCandidate
from core.composition.fill_up import quoted
from core.composition.filters import diff_views, quiz_view
from core.composition.report import Befund, artikel
from core.composition.works import Work
from core.materials.request import MaterialRequest

MAX_OFFERED = 3

Item = TypeVar("Item", QuizCandidate, DiffCandidate)


@dataclass
class OnWork:
    """The work a quiz or worksheet request names, its items, and the bank's other works that have items."""

    work: Work
    items: list
    others: list[str]
    said: str = ""  # the name she used when it is a quoted name of the work („All the world's a stage“)

    def thema(self, asked: str) -> str:
        """The material's topic: hers when it names the work, else the work as she named it („Sonnet 18“)."""
        return asked if works.names_work(asked, self.work) else self.said or self.work.title

    def refusal(self, *, was: str, einheit: str, klassenstufe: int, anzahl: int | None) -> Befund:
        """Why there is no quiz or worksheet on the work: the bank has no reviewed item on it; the works that have
        some, by name. The options add the upload and a model (Befund.optionen)."""
        stueck = "Fragen" if einheit == "Fragen" else "Aufgaben"
        grund = (
            f"Zu {self.label} gibt es in der Aufgabensammlung keine geprüften {stueck}. Fragen oder Aufgaben zu "
            "einem anderen Text gebe ich unter diesem Titel nicht aus."
        )
        if self.others:
            grund += (
                f" Geprüfte {stueck} gibt es zu {quoted(self.others)} – nennen Sie eines dieser Werke, dann "
                f"erstelle ich {artikel(was, akkusativ=True, kuerzer=False)} dazu. Oder laden Sie den Text mit eigenen "
                "Aufgaben hoch."
            )
        return Befund(
            was=was,
            thema=self.work.title,
            gefunden=0,
            gewuenscht_anzahl=anzahl,
            einheit=einheit,
            klassenstufe=klassenstufe,
            grund=grund,
        )

    @property
    def label(self) -> str:
        """The work as the request named it: „All the world's a stage“ (aus „As You Like It“)."""
        return f"„{self.said}“ (aus „{self.work.title}“)" if self.said else f"„{self.work.title}“"


def _text(c: QuizCandidate | DiffCandidate) -> str:
    views = [quiz_view(c)] if isinstance(c, QuizCandidate) else diff_views(c)
    return " ".join(p for v in views for p in (v.titel, v.text, *v.kriterien))


def _printed(c: QuizCandidate | DiffCandidate) -> Work | None:
    return works.work_of(c.material) if isinstance(c, DiffCandidate) and c.material is not None else None


def _filed_under(c: QuizCandidate | DiffCandidate, work: Work) -> bool:
    """Its bank label is the work („As You Like It“, „Romeo and Juliet“)."""
    label = works.significant(c.unterthema)
    return bool(label) and any(label == works.significant(t) for t in (work.title, *work.aliases))


def on_work(c: QuizCandidate | DiffCandidate, work: Work, known: Sequence[Work], sole: frozenset[str]) -> bool:
    """The item is on this work alone: the text it prints is the work; or it prints none, and its label or its own
    words name the work and no other work of the bank; or it is filed under a topic whose only work this is."""
    if (printed := _printed(c)) is not None:
        return printed.key == work.key
    text = _text(c)
    if any(works.names_work(text, o) for o in known if o.key != work.key):
        return False
    return c.topic in sole or _filed_under(c, work) or works.names_work(text, work)


def _sole_homes(tasks: Sequence[TaskCandidate], work: Work, topic: TopicContext | None) -> frozenset[str]:
    """The topics titled by this work under which the bank prints it and no other („Goethes „Faust I““) — not a
    genre that prints one work („Dystopian fiction“ holds Huxley and More as well as Orwell)."""
    titles = {t.id: t.thema for t in topic.index.topics.values()} if topic is not None else {}
    return frozenset(
        t
        for t in works.homes(tasks, work)
        if works.names_work(titles.get(t, ""), work)
        and all(w.key == work.key for c in tasks if c.topic == t for w in works.works_of(c))
    )


def narrowed(
    request: MaterialRequest,
    fach: str,
    items: Sequence[Item],
    tasks: Sequence[TaskCandidate],
    topic: TopicContext | None,
) -> OnWork | None:
    """The items on the one work the request names (the works known from the bank's exam tasks and the items' own
    texts), or None when it names none, several, or a topic of the bank in quotes."""
    if fach not in works.LITERARY_FAECHER:
        return None
    known = works.catalogue(tasks)
    keys = {w.key for w in known}
    for c in items:
        if (w := _printed(c)) is not None and w.key not in keys:
            known.append(w)
            keys.add(w.key)
    if (found := works.named_among(request, known)) is None:
        return None
    work, in_bank = found
    if not in_bank and works.is_topic(work, topic):
        return None
    sole = _sole_homes(tasks, work, topic) if in_bank else frozenset()
    mine = [c for c in items if on_work(c, work, known, sole)]
    counts = {
        o.title: sum(on_work(c, o, known, _sole_homes(tasks, o, topic)) for c in items)
        for o in known
        if o.key != work.key
    }
    same = {o.title for o in known if work.surname and o.surname == work.surname}
    order = sorted((t for t, n in counts.items() if n), key=lambda t: (t not in same, -counts[t], t))
    return OnWork(work=work, items=mine, others=order[:MAX_OFFERED], said=works.said_name(work, request))
