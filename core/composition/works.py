"""Named literary works (decision 056): which work a request names — a title the bank's materials carry, or a quoted
title of a work the bank lacks — and which tasks are on that work, read from their material or their own text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.checks.topicality import TopicContext, name_stems
from core.composition.candidates import TaskCandidate
from core.language.text import STOPWORDS, fold
from core.materials.blocks import MaterialBlock
from core.materials.request import MaterialRequest

_LITERARY = frozenset({"gedicht", "prosa", "drama"})
LITERARY_FAECHER = frozenset({"deutsch", "englisch"})  # the Fächer whose bank prints literary works by name
# „Franz Kafka: Die Verwandlung – Anfang der Erzählung“, „Schiller: Kabale und Liebe, I. Akt …“, first line of a text
_AUTHOR_TITLE = re.compile(r"^(?P<a>[A-ZÄÖÜ][\w.'’-]*(?:\s+(?:von|van|de|[A-ZÄÖÜ][\w.'’-]*)){0,3}):\s+(?P<t>.+)$")
_TITLE_END = re.compile(r"\s+[–—-]\s+|[,;]\s|\s\(|\.\s|\.$")  # the title ends before the excerpt's description
# a text written for the bank says so first; „…; Annotations selbst verfasst“ is a real work with own notes
_OWN = re.compile(r"^\s*(?:selbst verfasst|selbst zusammengestellt|erfunden|fiktiv)", re.I)

# words, quoted phrases and the parts of a request between punctuation (on folded text)
_WORD = re.compile(r"[a-z0-9ß]+(?:'s)?")
# German „…“, ‚…‘, »…«, English “…”, "…", ‘…’ and '…' — an apostrophe inside („world's“, „world’s“) is no quote mark
_QUOTED = re.compile(r"[„\"»«“]([^„“”\"»«\n]{2,60})[“”\"«»]|(?<!\w)[‚‘']((?:[^‚‘’'\n]|['’](?=\w)){2,60})[‘’'](?!\w)")
_CITED = re.compile(
    r"[A-ZÄÖÜ][\w'’-]+,\s*[„\"]([^“\"\n]{2,60})[“\"]"
)  # a line cited with its poem („Mörike, „Er ist's““)
_SEGMENT = re.compile(r"[,;:()\n„“\"‚‘»«]")

# a quoted title is a work when the request says so: a genre, an author („von Fontane“, „Fontanes“), an analysis
_WORK_SIGNAL = re.compile(
    r"gedicht|erzaehlung|roman|novelle|drama|parabel|kurzgeschichte|ballade|maerchen|fabel|"
    r"kalendergeschichte|tragoedie|komoedie|lektuere|ganzschrift|interpret|inhaltsangabe|"
    r"\bwerk\b|\bvon [a-z]|"
    r"\bpoem|\bnovel|\bplay\b|short story|\bsonnet|\bspeech|soliloquy|monologue|\bextract|analysis|\bby [a-z]"
)
_GENITIVE = re.compile(r"\b[A-ZÄÖÜ][a-zäöüß]+(?:s|['’]s)\s+[„\"‚‘“']")


@dataclass(frozen=True)
class Work:
    """A literary work as the bank's materials name it: its title and (when known) its author's name."""

    title: str
    author: str = ""
    aliases: tuple[str, ...] = ()  # a quoted name in the material's title: Jaques' „All the world's a stage“

    @property
    def key(self) -> str:
        return " ".join(significant(self.title)) or fold(self.title)

    @property
    def surname(self) -> str:
        return fold(self.author.split()[-1]) if self.author else ""


def significant(text: str) -> list[str]:
    """The words of a title that name it („verwandlung“ of „Die Verwandlung“), without roman numerals („Faust I“)."""
    return [w for w in _WORD.findall(fold(text)) if w not in STOPWORDS and not re.fullmatch(r"[ivx]+", w)]


def _parsed(line: str) -> Work | None:
    found = _AUTHOR_TITLE.match(line.strip())
    if found is None or "/" in found.group("a"):
        return None
    title, *rest = _TITLE_END.split(found.group("t"), maxsplit=1)
    title = title.strip(' „“"')
    aliases = tuple(q for q in quoted(" ".join(rest)) if len(significant(q)) >= 2)
    return Work(title=title, author=found.group("a").strip(), aliases=aliases) if significant(title) else None


def work_of(block: MaterialBlock) -> Work | None:
    """The work a material prints: a poem, prose or drama text by its author (a self-written one without); a material
    of another kind only when its dated first line names it („Joseph von Eichendorff: Mondnacht (1837)“)."""
    text = (block.text or "").strip()
    first = text.splitlines()[0] if text else ""
    if _OWN.match(block.quelle or ""):  # a story written for the bank („Kurzgeschichte: Funkloch“) has no author
        own = _parsed(block.titel) if block.art in _LITERARY else None
        return Work(title=own.title) if own is not None else None
    if block.art in _LITERARY:
        return _parsed(block.titel) or (_parsed(first) if first else None)
    return _parsed(first) if re.search(r"\(\D*\d{4}", first) else None


def works_of(c: TaskCandidate) -> list[Work]:
    """The works a task's materials print, each once."""
    out: dict[str, Work] = {}
    for b in c.materialien:
        if (w := work_of(b)) is not None:
            out.setdefault(w.key, w)
    return list(out.values())


def catalogue(cands: Sequence[TaskCandidate]) -> list[Work]:
    """The works the candidates' materials print, each once (the first spelling of its title and author)."""
    out: dict[str, Work] = {}
    for c in cands:
        for w in works_of(c):
            out.setdefault(w.key, w)
    return list(out.values())


def _words(text: str) -> list[str]:
    return _WORD.findall(fold(text).replace("’", "'"))


def quoted(text: str) -> list[str]:
    """The phrases the text sets in quotes, German or English."""
    return [m.group(1) or m.group(2) for m in _QUOTED.finditer(text)]


def _has(said: list[str], word: str) -> bool:
    """The request says the word, also in its genitive („Kafkas“, „Goethes“)."""
    return any(s == word or s in (word + "s", word + "'s") for s in said)


def _names(work: Work, said: list[str], marked: Sequence[str], text: str) -> bool:
    """The request names this work: its title quoted, its title beside its author („Kafkas Verwandlung“, „Mondnacht
    von Eichendorff“), or a title of two words or more as written („Die Verwandlung“, „Kabale und Liebe“)."""
    title = significant(work.title)
    if any(significant(q) in (title, *map(significant, work.aliases)) for q in marked):
        return True
    if any(_as_written(Work(title=a), said, text) for a in work.aliases):
        return True
    if work.surname and _has(said, work.surname) and all(_has(said, w) for w in title):
        return True
    return _as_written(work, said, text)


def _as_written(work: Work, said: list[str], text: str) -> bool:
    """The title as written, of two words or more; a title with one meaning word („Die Stadt“) only where it ends a
    part of the request („Klausur Deutsch 12: Die Verwandlung, 90 Minuten“), not inside a topic („Die Stadt als
    Motiv“)."""
    full = _words(work.title)
    if len(full) < 2 or not any(said[i : i + len(full)] == full for i in range(len(said))):
        return False
    return len(significant(work.title)) >= 2 or any(_words(seg)[-len(full) :] == full for seg in _SEGMENT.split(text))


def request_text(request: MaterialRequest) -> str:
    return " ".join(t for t in (request.thema, *request.unterthemen, request.zusatz) if t)


def named_work(request: MaterialRequest, cands: Sequence[TaskCandidate]) -> tuple[Work, bool] | None:
    """The one work the request names, and whether the bank's materials print it; None when it names none or
    several (a comparison of works is the usual composer's, decision 041)."""
    return named_among(request, catalogue(cands))


def named_among(request: MaterialRequest, known: Sequence[Work]) -> tuple[Work, bool] | None:
    """named_work() against a catalogue of works already gathered (a quiz's items print no texts of their own)."""
    text = request_text(request)
    said, marked = _words(text), quoted(text)
    named = [w for w in known if _names(w, said, marked, text)]
    if len({w.key for w in named}) == 1:
        return named[0], True
    if named:
        return None
    folded = fold(text)
    own = [
        q for q in dict.fromkeys(marked) if significant(q) and (_WORK_SIGNAL.search(folded) or _GENITIVE.search(text))
    ]
    return (Work(title=own[0].strip()), False) if len(own) == 1 else None


def is_topic(work: Work, topic: TopicContext | None) -> bool:
    """The quoted title is a topic of the bank („Interpretation „Lyrik der Romantik““), not a work it lacks."""
    return topic is not None and any(
        name_stems(work.title) <= name_stems(" ".join([t.thema, *t.unterthemen, *t.schlagworte]))
        for t in topic.resolved
    )


def names_work(text: str, work: Work) -> bool:
    """A task's own text names the work: its title (or a quoted name of it) as written, or its title's words beside
    its author's name."""
    said = _words(text)
    if any(_as_written(Work(title=t), said, text) for t in (work.title, *work.aliases)):
        return True
    title = significant(work.title)
    marked = [significant(q) for q in quoted(text)]
    return any(significant(t) in marked for t in (work.title, *work.aliases)) or bool(
        work.surname and _has(said, work.surname) and all(_has(said, w) for w in title)
    )


def said_name(work: Work, request: MaterialRequest) -> str:
    """The quoted name of the work the request uses („All the world's a stage“ of As You Like It), or ''."""
    text = request_text(request)
    return next((a for a in work.aliases if names_work(text, Work(title=a))), "")


def on_work(c: TaskCandidate, work: Work, others: Sequence[Work], homes: frozenset[str] = frozenset()) -> bool:
    """The task is on this work alone: its literary material is this work, or it has none and its own text names the
    work and no other work of the bank (a comparison with another work belongs to neither alone). Filed where the
    bank prints the work (`homes`), its title's words will do („Faust wendet sich …“ under Faust)."""
    printed = works_of(c)
    if printed:
        return [w.key for w in printed] == [work.key]
    said = _words(c.text)
    named = names_work(c.text, work) or (c.topic in homes and all(_has(said, w) for w in significant(work.title)))
    cited = {" ".join(significant(t)) for t in _CITED.findall(c.text)} - {work.key}  # („Goethe, „Gefunden““)
    return named and not cited and not any(names_work(c.text, o) for o in others if o.key != work.key)


def homes(cands: Sequence[TaskCandidate], work: Work) -> frozenset[str]:
    """The topics under which the bank prints the work."""
    return frozenset(c.topic for c in cands if c.topic and any(w.key == work.key for w in works_of(c)))


# --- what the request asks of the one text --------------------------------------------------------------------------

INTERPRETATION, INHALTSANGABE = "Interpretation", "Inhaltsangabe"
_KIND = ((INTERPRETATION, re.compile(r"interpret")), (INHALTSANGABE, re.compile(r"inhaltsangabe")))
_SUMMARY = re.compile(r"inhaltsangabe|zusammenfass|fasse .{0,80}zusammen|gib den inhalt|inhalt .{0,60}wieder")


def asked_kind(request: MaterialRequest) -> str | None:
    """„Interpretation“ or „Inhaltsangabe“ when the request asks for that text-based task on its work."""
    said = fold(request_text(request))
    return next((kind for kind, pattern in _KIND if pattern.search(said)), None)


def is_main(c: TaskCandidate, kind: str) -> bool:
    """The task is the exam's main text task of that kind: an interpretation of the text as a whole (AFB III, at
    least 15 minutes), or an Inhaltsangabe of it."""
    text = fold(f"{c.operator} {c.text}")
    if kind == INTERPRETATION:
        return c.afb == "III" and c.minuten >= 15 and bool(re.search(r"interpret|deut", text))
    return bool(_SUMMARY.search(text)) and c.afb == "I"


def writes_part(c: TaskCandidate) -> bool:
    """The task writes a part of the main text task (its Einleitung or Schluss): beside the whole, written twice."""
    return bool(re.search(r"\b(?:verfasse|schreibe|formuliere)\b.{0,20}\b(?:einleitung|schluss)", fold(c.text)))
