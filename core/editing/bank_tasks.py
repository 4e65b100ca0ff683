"""Bank tasks for an edit: the topic and sub-topic a sub-task belongs to (from the bank task or generator it was
made from) and the reviewed bank tasks of that topic at a wanted AFB, ready to stand in for the sub-task."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.deps import TurnContext
from core.editing.operators import canonical_operator, operator_fits
from core.knowledge.embeddings import words
from core.language.text import fold
from core.materials.blocks import MaterialBlock, Quelle
from core.materials.faecher import normalize_fach
from core.materials.klausur import Aufgabe, Klausur, Kriterium, Teilaufgabe
from db.repos import knowledge as knowledge_repo


def stems(text: str) -> set[str]:
    """Content words cut to six letters: 'Kennlinie' and 'Kennlinien' meet, 'Blitz' and 'Widerstand' do not."""
    return {w[:6] for w in words(text) if len(w) >= 5}


def used_in(k: Klausur) -> set[str]:
    """Task texts and cited bank tasks of the exam (a replacement must be neither)."""
    texte = {" ".join(t.text.split()).casefold() for t in k.teilaufgaben()}
    return texte | {q.ref for t in k.teilaufgaben() for q in t.quellen if q.art == "good_practice"}


def cited_bank_ids(teile: Sequence[Teilaufgabe]) -> list[uuid.UUID]:
    """The bank tasks (good practices) these sub-tasks cite."""
    ids = []
    for t in teile:
        for q in t.quellen:
            if q.art == "good_practice":
                try:
                    ids.append(uuid.UUID(q.ref))
                except ValueError:
                    continue
    return ids


@dataclass(frozen=True)
class Home:
    """Where a sub-task belongs in the Fach's coverage map."""

    topic: str | None
    unterthema: str | None


def _topic_words(entry: dict[str, Any]) -> set[str]:
    words = [entry.get("id") or "", entry.get("thema") or "", *(entry.get("schlagworte") or []),
             *(entry.get("unterthemen") or [])]
    return stems(" ".join(str(w).replace("-", " ") for w in words))


def topics_named(coverage: Sequence[dict[str, Any]], thema: str) -> list[Home]:
    """The coverage topics (and the sub-topic) the teacher's words name, best first. Whole words count before
    six-letter stems: „Kriegsbegeisterung“ names „Kriegsbegeisterung und Burgfrieden“, not „Kriegsziele“."""
    wanted = stems(thema)
    if not wanted:
        return []
    whole = {fold(w) for w in words(thema) if len(w) >= 5}
    scored = []
    for entry in coverage:
        said = [str(u) for u in entry.get("unterthemen") or []]
        unter = next((u for u in said if whole <= set(words(fold(u)))), None) or next(
            (u for u in said if wanted <= stems(u)), None)
        text = fold(" ".join([str(entry.get("thema") or ""), *said, *map(str, entry.get("schlagworte") or [])]))
        exact = sum(1 for w in whole if w in text)
        hits = len(wanted & _topic_words(entry)) + (2 if wanted & stems(str(entry.get("thema") or "")) else 0)
        if hits:
            scored.append((-exact, -hits, 0 if unter else 1, str(entry["id"]), unter))
    return [Home(topic, unter) for *_, topic, unter in sorted(scored)]


_GENERIC = frozenset({"aufgab", "vokabe", "thema", "themen", "frage", "fragen", "uebung", "bitte", "kapite", "bereic"})


def _prefixes(text: str) -> set[str]:
    return {w[:5] for w in words(text) if len(w) >= 5}


def wanted_words(entry: dict[str, Any], thema: str) -> set[str]:
    """The stems of the teacher's words a task must carry when they name no sub-topic of `entry`: all but generic
    words and — when she names the whole topic („zum Ersten Weltkrieg“) — its title's words. Naming one part of a
    title („Ireland“ in „Scotland and Ireland“) keeps that word: a Scottish task is no Irish one."""
    wanted = stems(thema) - _GENERIC
    title = _prefixes(f"{entry.get('thema') or ''} {str(entry.get('id') or '').replace('-', ' ')}")
    in_title = {x for x in wanted if x[:5] in title}
    return wanted - in_title if title <= {x[:5] for x in wanted} else wanted


def carries_words(task: BankTask, wanted: set[str]) -> bool:
    """Does the task (its sub-topic and text) carry every wanted stem (its first five letters start one of its
    words: „Ersten“ and „Erster“ meet)?"""
    own = _prefixes(f"{task.unterthema} {task.teil.text}")
    return all(x[:5] in own for x in wanted)


@dataclass(frozen=True)
class BankTask:
    """A reviewed bank task as a sub-task of the exam (its own points and Erwartungshorizont)."""

    teil: Teilaufgabe
    unterthema: str
    materialien: list[MaterialBlock]
    ref: str
    material_key: str | None = None  # tasks with one key work on one material (the bank's 'topic/m1+m2')


@dataclass
class TaskBank:
    """The bank of one exam's Fach, loaded per topic on first use (one edit, one unit of work)."""

    turn: TurnContext
    k: Klausur
    operatoren: Mapping[str, str]
    _rows: dict[str, list[Any]] = field(default_factory=dict)
    _coverage: list[dict[str, Any]] | None = None
    _before: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._before = used_in(self.k)  # what the exam held before the edit never comes back in another place

    @property
    def _highest(self) -> int:
        """The highest grade of a fitting task: the exam's own; in the Oberstufe any of its years (Q1 is 11 or 12
        by Bundesland, the bank's Niveau gA/eA tells the course)."""
        return 13 if self.k.klassenstufe >= 11 else self.k.klassenstufe

    @property
    def fach(self) -> str:
        return normalize_fach(self.k.fach, required=False) or self.k.fach

    def coverage(self) -> list[dict[str, Any]]:
        if self._coverage is None:
            self._coverage = list((knowledge_repo.coverage_for(db=self.turn.db, fach=self.fach) or {})
                                  .get("topics") or [])
        return self._coverage

    def home(self, aufgabe: Aufgabe, teil: Teilaufgabe) -> Home:
        """The topic and sub-topic of the bank task the sub-task cites, else of the generator that made it (its
        sub-topic by the words of task title and text), else of a sibling sub-task."""
        for t in [teil, *(x for x in aufgabe.teilaufgaben if x is not teil)]:
            rows = knowledge_repo.knowledge_by_ids(db=self.turn.db, identity=self.turn.identity,
                                                   ids=cited_bank_ids([t]))
            for row in rows.values():
                c = row.content or {}
                if c.get("topic"):
                    unter = c.get("unterthema") if t is teil else self._unterthema(c["topic"], aufgabe, teil)
                    return Home(str(c["topic"]), unter)
            for q in t.quellen:
                if q.art == "generator":
                    key = q.ref.partition("#")[0]
                    topic = next((x for x in self.coverage() if key in (x.get("generatoren") or [])), None)
                    if topic:  # the generator's name ('physik.ohm.kennlinie') says most about its sub-topic
                        return Home(topic["id"], self._unterthema(topic["id"], aufgabe, teil, key.replace(".", " ")))
        return Home(None, None)

    def _unterthema(self, topic: str, aufgabe: Aufgabe, teil: Teilaufgabe, name: str = "") -> str | None:
        entry = next((x for x in self.coverage() if x.get("id") == topic), {})
        own, named = stems(f"{aufgabe.titel} {teil.text}"), stems(name)
        scored = sorted(((2 * len(named & stems(u)) + len(own & stems(u)), u) for u in entry.get("unterthemen") or []),
                        reverse=True)
        return scored[0][1] if scored and scored[0][0] and (len(scored) == 1 or scored[1][0] < scored[0][0]) else None

    def rows(self, topic: str) -> list[Any]:
        if topic not in self._rows:
            self._rows[topic] = knowledge_repo.composer_rows(
                db=self.turn.db, identity=self.turn.identity, fach=self.fach, agent_type="klausur", topics=[topic],
                ids=[])
        return self._rows[topic]

    def candidates(self, home: Home, afb: str, *, material_titles: set[str] | None, operator: str | None = None,
                   punkte: int = 0) -> list[BankTask]:
        """Bank tasks of the sub-task's topic at `afb`, best first: same sub-topic, the wished operator, points
        nearest to `punkte`, the nearest grade. Tasks above the exam's grade, of another Niveau, in the exam now or
        before the edit, or needing material the task does not have (`material_titles` None: any material may come
        along) are left out."""
        if home.topic is None:
            return []
        used = self._before | used_in(self.k)
        found: list[tuple[tuple[int, int, int, int, str], BankTask]] = []
        for row in self.rows(home.topic):
            task = self._as_task(row, afb, used, material_titles)
            if task is None:
                continue
            c = row.content or {}
            kl = c.get("klassenstufe") if isinstance(c.get("klassenstufe"), int) else self.k.klassenstufe
            rank = (0 if home.unterthema and c.get("unterthema") == home.unterthema else 1,
                    0 if operator is None or task.teil.operator == operator else 1,
                    abs(task.teil.punkte - punkte) if punkte else 0, self.k.klassenstufe - kl,
                    str(c.get("bank_id") or row.id))
            found.append((rank, task))
        return [t for _, t in sorted(found, key=lambda x: x[0])]

    def _as_task(self, row: Any, afb: str, used: set[str], material_titles: set[str] | None) -> BankTask | None:
        c = row.content or {}
        text = str(c.get("aufgabe") or "").strip()
        kl = c.get("klassenstufe")
        if c.get("afb") != afb or not text or str(row.id) in used or " ".join(text.split()).casefold() in used:
            return None
        if (isinstance(kl, int) and kl > self._highest) or (c.get("niveau") or "Sek I") != self.k.niveau:
            return None
        name = canonical_operator(str(c.get("operator") or ""), self.operatoren)
        if name is None or not operator_fits(name, afb, self.operatoren):
            return None
        try:
            materialien = [MaterialBlock.model_validate(m) for m in c.get("materialien") or []]
            erwartung = [Kriterium(text=str(x.get("kriterium") or x.get("text") or "").strip(),
                                   punkte=int(x.get("punkte") or 0)) for x in c.get("erwartung") or []]
        except (AttributeError, TypeError, ValueError):
            return None
        if not erwartung or any(not e.text for e in erwartung):
            return None
        if material_titles is not None and not {m.titel for m in materialien} <= material_titles:
            return None
        teil = Teilaufgabe(label="?", operator=name, text=text, afb=afb, punkte=sum(e.punkte for e in erwartung),
                           erwartung=erwartung, quellen=[Quelle(art="good_practice", ref=str(row.id))])
        return BankTask(teil=teil, unterthema=str(c.get("unterthema") or row.thema or ""), materialien=materialien,
                        ref=str(row.id), material_key=c.get("material_id") if materialien else None)
