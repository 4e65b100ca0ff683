"""Hard constraints before choosing: the gate (no filler, on topic, at the level), the grade and course level,
the teacher's 'please avoid' list."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from core.checks.arithmetic.calculations import check_calculations
from core.checks.focus import Focus, request_focus, serves
from core.checks.gate import task_findings
from core.checks.promises import covers
from core.checks.topicality import (
    TopicContext,
    filed_elsewhere,
    home_topic,
    main_off_topic_reason,
    name_stems,
)
from core.checks.topics import TopicInfo, term_matches
from core.checks.views import TaskView, differenzierung_views, h5p_views, material_text
from core.composition.candidates import DiffCandidate, QuizCandidate, TaskCandidate
from core.composition.layout import aufgabe_titel
from core.composition.parts_lexicon import filed_as, in_other_words
from core.composition.relevance import belongs
from core.composition.report import Befund
from core.composition.wishes import to_avoid
from core.language.text import fold
from core.materials.differenzierung import NIVEAU_NAMEN, DifferenziertesMaterial, Niveau
from core.materials.h5p import H5PSet

C = TypeVar("C", TaskCandidate, QuizCandidate, DiffCandidate)


def level_ok(klassenstufe: int | None, niveau: str | None, *, wanted: int, kurs: str | None) -> bool:
    """Sek I: the task's grade at most one above and two below the class; Oberstufe: Oberstufe tasks only, and no
    eA (Leistungskurs) task in a Grundkurs."""
    if wanted >= 11:
        upper = (niveau in ("gA", "eA")) or (klassenstufe is not None and klassenstufe >= 11)
        if not upper:
            return False
        return not (kurs == "grundlegend" and niveau == "eA")
    if niveau in ("gA", "eA") or (klassenstufe is not None and klassenstufe >= 11):
        return False
    return klassenstufe is None or wanted - 2 <= klassenstufe <= wanted + 1


def task_view(c: TaskCandidate) -> TaskView:
    """The task as the final exam will show it (title as the layout gives it), so the gate judges the same thing."""
    return TaskView(ref=c.key, text=c.text, kriterien=tuple(t for t, _ in c.erwartung), titel=aufgabe_titel([c]),
                    material=material_text(list(c.materialien)))


def quiz_view(c: QuizCandidate) -> TaskView:
    """The question as the final quiz shows it to the checks (h5p_views of a one-question set)."""
    s = H5PSet(titel="x", fach="x", klassenstufe=c.klassenstufe or 9, thema="x", fragen=[c.frage])
    return h5p_views(s)[0]


def diff_views(c: DiffCandidate) -> list[TaskView]:
    """The three-level task as the final worksheet shows it to the checks."""
    m = DifferenziertesMaterial(
        titel="x", fach="x", klassenstufe=c.klassenstufe or 9, thema="x", lernziel=c.lernziel,
        niveaus=[Niveau(name=n, **c.niveaus[n]) for n in NIVEAU_NAMEN if n in c.niveaus],
        materialien=[c.material] if c.material else [])
    return [replace(v, ref=f"{c.key}|{v.ref}") for v in differenzierung_views(m)]


def _requested(topic: TopicContext) -> set[str]:
    return {t.id for t in topic.resolved} | {t.id for w in topic.wishes for t in w.resolved}


def passing(cands: Sequence[C], *, thema: str, unterthemen: Sequence[str], topic: TopicContext | None,
            operators: Iterable[str], wanted: int, kurs: str | None, avoid: Sequence[str]) -> list[C]:
    """The candidates that pass every hard constraint."""
    ok = [c for c in cands if level_ok(c.klassenstufe, getattr(c, "niveau", None), wanted=wanted, kurs=kurs)]
    out: list[C] = []
    for c in ok:
        if isinstance(c, TaskCandidate):
            if check_calculations([t for t, _ in c.erwartung]).issues:
                continue  # a key whose arithmetic does not recompute never reaches a teacher
            views, exam = [task_view(c)], True
        elif isinstance(c, QuizCandidate):
            views, exam = [quiz_view(c)], False
        else:
            views, exam = diff_views(c), False
        if not _filed_for(c, topic):
            continue  # filed under another topic that is not what was asked (decision 044)
        # an item its authors filed under the requested topic is on topic by provenance (the final gate trusts the
        # same: it looks up the topic of what a task cites, of the bank question a quiz question shows — 055)
        vouched = topic is not None and c.topic in _requested(topic) and (
            not isinstance(c, QuizCandidate) or filed_under_parts(c.unterthema, thema, unterthemen))
        bad = task_findings(views, thema=thema, unterthemen=unterthemen, topic=None if vouched else topic,
                            operators=operators, check_criteria=exam)
        if topic is not None and not vouched and c.herkunft != "generator" and filed_elsewhere(
                " ".join(x for v in views for x in (v.text, *v.kriterien)),
                c.topic or home_topic(topic.index, c.unterthema), topic):
            continue
        if not bad and not any(to_avoid(" ".join([v.text, *v.kriterien]), avoid) for v in views):
            out.append(c)
    return out


def filed_under_parts(unterthema: str, thema: str, unterthemen: Sequence[str]) -> bool:
    """A quiz question vouched for by its filing is about the named parts only when filed under one of them: a
    question filed under „type 3“ says nothing for „if-clauses type 2“ by provenance (decisions 043, 050, 055)."""
    return not unterthemen or (any(filed_as(unterthema, u, thema) for u in unterthemen)
                               and not series_member(unterthema, unterthemen))


def filed_apart(cands: Sequence[TaskCandidate], topic: TopicContext | None) -> set[str]:
    """Keys of bank tasks filed under another topic of the Fach than the requested ones (or, without a topic id,
    whose own topic name means another): a Sachaufgabe on an LGS for „Terme und Gleichungen“. Never her own."""
    if topic is None or not topic.resolved:
        return set()
    ids = _requested(topic)
    served = {g: t.id for t in topic.index.topics.values() for g in t.generatoren}
    return {c.key for c in cands if c.herkunft != "eigene" and (home := c.topic or served.get(c.generator or "")
                                                                 or home_topic(topic.index, c.unterthema))
            is not None and home not in ids}


def wish_only(cands: Sequence[TaskCandidate], topic: TopicContext | None) -> set[str]:
    """Keys of tasks that are about a wished topic, not the requested one: they may fill a wish slot only."""
    if topic is None or not topic.wishes:
        return set()
    return {c.key for c in cands if main_off_topic_reason(task_view(c), topic) is not None}


def _texts(c: TaskCandidate | QuizCandidate | DiffCandidate) -> tuple[list[str], str]:
    """All words of a candidate, and what it asks of the pupils."""
    if isinstance(c, TaskCandidate):
        v = task_view(c)
        return [v.titel, v.text, *v.kriterien, v.material], v.text
    views = [quiz_view(c)] if isinstance(c, QuizCandidate) else diff_views(c)
    return [x for v in views for x in (v.titel, v.text, *v.kriterien)], " ".join(v.text for v in views)


def _filed_for(c: TaskCandidate | QuizCandidate | DiffCandidate, topic: TopicContext | None) -> bool:
    """A bank item belongs to the request by its filing, not by a shared word (core.composition.relevance)."""
    return c.herkunft not in ("bank", "kuratiert") or belongs(c_topic=c.topic, unterthema=c.unterthema,
                                                               text=" ".join(_texts(c)[0]), topic=topic)


def about_request(c: C, thema: str, unterthemen: Sequence[str], topic: TopicContext | None) -> bool:
    """Whether an item is about what was asked (decision 044): filed under it — or, filed elsewhere, its filing
    names it and it is set in its era — and not about a sub-topic the request leaves out (a sonnet for
    „Shakespeare's Macbeth“). What `passing` and the siblings rule together keep, before level and gate."""
    return _filed_for(c, topic) and bool(unnamed_siblings([c], thema, unterthemen, topic)[0])


def focused(cands: Sequence[C], topic: TopicContext | None, unterthemen: Sequence[str] = ()
            ) -> tuple[list[C], Focus, int]:
    """The candidates about the part of the topic the teacher named (see core.checks.focus), the focus, and how
    many passing candidates were left out for being about another part. A task for a wished topic stays."""
    focus = request_focus(topic)
    if not focus or topic is None:
        return list(cands), focus, 0
    wished = wish_only([c for c in cands if isinstance(c, TaskCandidate)], topic)
    kept = [c for c in cands if c.key in wished or serves(*_texts(c), focus, topic)
            or any(covers([TaskView(ref=c.key, text=_texts(c)[1], titel=c.unterthema)], u) for u in unterthemen)]
    return kept, focus, len(cands) - len(kept)


def _title_split(title: str) -> tuple[set[str], list[set[str]]]:
    """The words of a topic title's head and of each of its parts („Weimarer Klassik und Romantik“)."""
    head, _, tail = title.rpartition(":")  # „Neurobiologie: Erregung und Synapse“: the head names it all
    tail = re.sub(r"\([^)]*\)", " ", tail)  # „Funktionsuntersuchung (Kurvendiskussion)“: another name, no part
    parts = [p for p in map(name_stems, re.split(r"\s+(?:und|and|vs\.?|versus|oder|or)\s+|[,;+/]", tail)) if p]
    return name_stems(head), parts


def _other_parts(t: TopicInfo, thema: str) -> tuple[set[str], set[str]]:
    """When the request names one part of the topic's title („Romantik“ of „Weimarer Klassik und Romantik“): the
    words of that part and those only the other parts have; else two empty sets."""
    part = name_stems(thema)
    head, parts = _title_split(t.thema)
    if not part or part <= head or not any(part <= p for p in parts) or all(part <= p for p in parts):
        return set(), set()
    return part, {w for p in parts if not part <= p for w in p} - part


def _within(words: set[str], other: set[str]) -> bool:
    """Every word is in `other`, as itself or as one of its family („Vulkane“ names „Vulkanismus“)."""
    return all(any(x == y or (min(len(x), len(y)) >= 5 and (x.startswith(y) or y.startswith(x))) for y in other)
               for x in words)


def _named_siblings(t: TopicInfo, thema: str, unterthemen: Sequence[str], *, single: bool = False) -> list[str]:
    """The sub-topics of `t` a request does not name although it names others (see unnamed_siblings)."""
    wanted = [w for w in map(name_stems, unterthemen) if w]
    head, _ = _title_split(t.thema)
    if head and any(_within(w, head) for w in wanted):
        return []  # „Halbleiter und Dioden“ names the head of „Halbleiter: Diode, LED und Sensoren“: all of it
    if not single and any(_within(w, name_stems(t.thema)) for w in wanted):
        return []  # „Atmung und Blutkreislauf“ names two topics („Atmung und Gasaustausch“, „Herz und …“)
    if all(w <= name_stems(thema) and _within(w, name_stems(t.thema)) for w in wanted):
        wanted = []  # „Ionenbindung und Salze“ read as two sub-topics names the topic, not a part of it
    if wanted:
        if any(_names_whole(t, w) for w in wanted):
            return []  # „Prozentrechnung und Zinsrechnung“ names two whole topics: neither has unnamed siblings
        named = [u for u in t.unterthemen if any(_within(w, name_stems(u)) or _compound_of(w, name_stems(u))
                                                 or _within(name_stems(u), w) for w in wanted)  # „Gleichungen lösen“
                 or any(in_other_words([TaskView(ref=u, text="", titel=u)], p, thema) for p in unterthemen)]
        if named:
            return [u for u in t.unterthemen if u not in named]
    part, other = _other_parts(t, thema)
    if other and not wanted:
        return [u for u in t.unterthemen if name_stems(u) & other and not part <= name_stems(u)]
    return _thema_siblings(t, thema) if single else []


def _compound_of(words: set[str], other: set[str]) -> bool:
    """Every word is in `other` as the tail of a compound („Landschaften“ names „Großlandschaften“)."""
    return all(any(len(x) >= 6 and y.endswith(x) for y in other) for x in words)


def _family(a: str, b: str) -> bool:
    """One word inside the other (compounds: „Massentourismus“) or a long shared start („Romantik“, „romantisch“)."""
    if term_matches(a, b):
        return True
    n = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return n >= max(5, min(len(a), len(b)) - 2)


def _names_whole(t: TopicInfo, said: set[str]) -> bool:
    """The teacher's words name the whole topic: every word of its title (its head aside, when it has one)."""
    head, parts = _title_split(t.thema)
    title = {w for w in set().union(set(), *parts) or head if len(w) > 3}
    return bool(title) and all(any(term_matches(s, w) for s in said) for w in title)


_COMPLEMENT = re.compile(r"\s(?:in|im|von|vom|der|des|bei|beim|auf|an|am|für|mit)\s", re.I)


def part_words(t: TopicInfo, thema: str) -> set[str]:
    """The words naming the thing a request's topic is about, beyond the head of the resolved topic's title and
    its other name in parentheses: „Tourismus“ of „Tourismus in den Alpen“ for „Die Alpen: Hochgebirge,
    Höhenstufen und Tourismus“; empty when it names the whole topic."""
    head, _ = _title_split(t.thema)
    head |= set().union(set(), *map(name_stems, re.findall(r"\(([^)]*)\)", t.thema)))
    if _names_whole(t, name_stems(thema) | head):
        return _work_named(t, thema)  # „Satz des Pythagoras“: the title itself; „Shakespeare's Macbeth“: a work
    said = {w for w in name_stems(_COMPLEMENT.split(thema)[0])
            if not w.isdigit() and len(w) > 2 and not any(term_matches(w, h) for h in head)}
    return set() if not said or _names_whole(t, said | head) else said


def _work_named(t: TopicInfo, thema: str) -> set[str]:
    """The words a request adds to the whole title of its topic when each names a sub-topic of it: the work in
    „Shakespeare's Macbeth“ (decision 044) — a must-have, so the sonnets and Romeo and Juliet are its siblings."""
    head, parts = _title_split(t.thema)
    title = head.union(*parts, *map(name_stems, re.findall(r"\(([^)]*)\)", t.thema)))
    if not _names_whole(t, name_stems(thema)):
        return set()  # the request itself says the title („Shakespeare“), not only another name of it
    extra = {w for w in name_stems(_COMPLEMENT.split(thema)[0]) if not w.isdigit() and len(w) > 2
             and not any(term_matches(w, x) for x in title)}
    subs = [name_stems(u) for u in t.unterthemen]
    return extra if extra and all(any(_family(x, w) for n in subs for w in n) for x in extra) else set()


def _thema_siblings(t: TopicInfo, thema: str) -> list[str]:
    """A request naming one sub-topic of its only topic in its own words („Tourismus in den Alpen“, „Auftrieb in
    Flüssigkeiten“): the sub-topics its words do not name are siblings — the Höhenstufen or the Schweredruck are
    not what was asked. Only when every such word names a sub-topic („Säuren und Basen“ names no sub-topic
    „Basen“: it is the topic in other words, not a part of it)."""
    said = part_words(t, thema)
    names = [name_stems(u) for u in t.unterthemen]
    if not said or not all(any(_family(s, w) for n in names for w in n) for s in said):
        return []
    named = {u for s in said for u in _named_by(s, t.unterthemen, names)}
    return [u for u in t.unterthemen if u not in named]


def _named_by(word: str, unterthemen: Sequence[str], names: Sequence[set[str]]) -> list[str]:
    """The sub-topics one request word names. A compound names the sub-topic it starts with before one it merely
    ends in: „Hebelgesetz“ is the Hebel, not the Hookesches Gesetz; „Massentourismus“ still names „Tourismus“."""
    def starts(w: str) -> bool:
        return word == w or (min(len(word), len(w)) >= 4 and (word.startswith(w) or w.startswith(word)))
    head = [u for u, n in zip(unterthemen, names, strict=True) if any(starts(w) for w in n)]
    return head or [u for u, n in zip(unterthemen, names, strict=True) if any(_family(word, w) for w in n)]


def _about_other_part(c: TaskCandidate | QuizCandidate | DiffCandidate, parts: list[tuple[set[str], set[str]]]
                      ) -> bool:
    """The task speaks of another part of the title and not of the requested one (the Blackout story asks for the
    simple past and past progressive in a „present perfect“ test)."""
    said = name_stems(" ".join(_texts(c)[0]))
    return any(other & said and not part & said for part, other in parts)


def _title_parts(thema: str, unterthemen: Sequence[str], topic: TopicContext) -> list[tuple[set[str], set[str]]]:
    return [(p, o) for t in topic.resolved if not unterthemen for p, o in [_other_parts(t, thema)] if o]


def unnamed_siblings(cands: Sequence[C], thema: str, unterthemen: Sequence[str], topic: TopicContext | None
                     ) -> tuple[list[C], list[str]]:
    """Without the tasks on a sibling of the sub-topics the teacher named: „if-clauses Typ 1 und 2“ names two of
    the topic's sub-topics, so a task its authors filed under „type 3“ is not what was asked (even when it also
    asks for one type-1 sentence). A request naming one part of a topic's title („Romantik“ of „Weimarer Klassik
    und Romantik“) leaves out the sub-topics that name another part of it („Weimarer Klassik“) — not those that
    name neither („Erweitern und Kürzen“ stays in „Brüche“ of „Brüche und Dezimalzahlen“).
    Returns the kept candidates and the left-out siblings' names."""
    if topic is None:
        return list(cands), []
    single = len(topic.resolved) == 1
    siblings = {fold(u): u for t in topic.resolved for u in _named_siblings(t, thema, unterthemen, single=single)}
    parts = _title_parts(thema, unterthemen, topic)
    kept, out = [], []
    for c in cands:
        sib = siblings.get(fold(c.unterthema))
        if sib is not None or (c.topic in {t.id for t in topic.resolved} and _about_other_part(c, parts)):
            out.append(sib or c.unterthema)
            continue
        kept.append(c)
    return kept, sorted(set(out))


def named_part_only(cands: Sequence[C], befund: Befund, thema: str, unterthemen: Sequence[str],
                    topic: TopicContext | None) -> tuple[list[C], list[C]]:
    """A quiz or worksheet holds the items on the part of the topic the teacher named („Auftrieb in
    Flüssigkeiten“ gets no Schweredruck task). Returns those and the left-out items on the topic's other parts
    (what a list of named parts may be filled up with, decision 027); they are counted for the option „das ganze
    Thema nehmen“, and when nothing is left the teacher hears that the named part has no reviewed item."""
    kept, siblings = unnamed_siblings(cands, thema, unterthemen, topic)
    if topic is None or not siblings or len(kept) == len(cands):
        return kept, []
    if not kept:
        befund.fehlende_unterthemen.append(thema)
    befund.schwerpunkt = befund.schwerpunkt or (thema,)
    befund.schwerpunkt_thema = befund.schwerpunkt_thema or topic.resolved[0].thema
    befund.ausserhalb += len(cands) - len(kept)
    inside = {c.key for c in kept}
    return kept, [c for c in cands if c.key not in inside]


def fill_ups(usable: Sequence[TaskCandidate], kept: Sequence[TaskCandidate], thema: str, unterthemen: Sequence[str],
             topic: TopicContext | None) -> list[TaskCandidate]:
    """The reviewed tasks of the requested topic that are about its parts the teacher did not name: what an exam
    may be filled up with when the named parts do not fill the time (decision 027). Never a task filed under
    another topic, never one about another part of the topic's title („Weimarer Klassik“ for „Romantik“)."""
    if topic is None or any(_work_named(t, thema) for t in topic.resolved):
        return []  # a work named in the request („Romeo and Juliet“) is never filled up with another (decision 044)
    ids = {t.id for t in topic.resolved}
    inside = {c.key for c in kept}
    parts = _title_parts(thema, unterthemen, topic)
    untouched = _untouched_parts(topic, kept)
    narrow = _thema_sub_topics(thema, topic)
    return [c for c in usable if c.key not in inside and c.topic in ids and not _about_other_part(c, parts)
            and not name_stems(c.unterthema) & untouched and not series_member(c.unterthema, unterthemen)
            and (not narrow or fold(c.unterthema) in narrow)]


def _thema_sub_topics(thema: str, topic: TopicContext) -> set[str]:
    """The sub-topics of a resolved topic that the request's own topic names, when she did not name the topic
    itself: „Expressionismus (Großstadtlyrik)“ is filed under „Vom Realismus zum Expressionismus“, and only its
    Expressionismus tasks may fill up the exam — never Storm's poetischer Realismus or the Novelle."""
    want = name_stems(thema)
    return {fold(u) for t in topic.resolved if not name_stems(t.thema) <= want
            for u in t.unterthemen if name_stems(u) and name_stems(u) <= want}


def series_member(unterthema: str, named: Sequence[str]) -> bool:
    """An unnamed member of a series the teacher enumerated: „if-clauses type 3“ when she named „Typ 1“ and „Typ 2“.
    She left it out on purpose (the class has not had it), so it never fills up an exam."""
    own = name_stems(unterthema)
    numbers = {w for w in own if w.isdigit()}
    said = [name_stems(u) for u in named]
    said_numbers = {w for n in said for w in n if w.isdigit()}
    return bool(numbers - said_numbers) and bool(said_numbers) and any(
        _within({w for w in n if not w.isdigit()}, own) for n in said if n - said_numbers)


def _untouched_parts(topic: TopicContext, kept: Sequence[TaskCandidate]) -> set[str]:
    """Words of the parts of a resolved topic's title none of the tasks on the named parts speak of: „Holocaust“ of
    „NS-Herrschaftssystem und Holocaust“ for an exam on Machtergreifung und Gleichschaltung. A fill-up task filed
    under a sub-topic naming such a part („Weg zum Holocaust“) is about another matter sharing the file."""
    said = [name_stems(" ".join(_texts(c)[0])) for c in kept]
    out: set[str] = set()
    for t in topic.resolved:
        _, parts = _title_split(t.thema)
        touched = [p for p in parts if any(p & s for s in said)]
        if len(parts) >= 2:
            out |= set().union(*(p for p in parts if p not in touched)) - set().union(set(), *touched)
    return out
