"""A named part in other words (issue #10, decision 038): the school terms a teacher uses for a part of a topic
that the bank files or words differently. „Textaufgaben“ are the bank's „Sachaufgaben“, „Stoffeigenschaften“ are
Dichte, Siedetemperatur and Löslichkeit, the „Ursachen“ of the Klimawandel are the Treibhauseffekt.

Each entry: the teacher's term (`teil`), the bank's words for it or for what it comprises (`umfasst`), and — for
an aspect word such as „Ursachen“ that means something only about a topic — the topic words (`kontext`) the part
or the request's topic must name. A test checks that every `umfasst` word occurs in the bank of its Fach.

An aspect part („Ursachen“, „Folgen“, „Aufbau“) is covered literally only where one text names the aspect and the
request's topic together: „Ursachen für den Anstieg des Meeresspiegels“ are no „Ursachen des Klimawandels“.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from core.checks.topics import term_matches, text_stems
from core.checks.views import TaskView
from core.composition.asking import READING, Asked, asked, skill
from core.composition.parts_words import ASPEKTE, LEXIKON
from core.language.text import STOPWORDS, fold, stem, words

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n")


# An aspect in other words: „den Bau einer Kirschblüte“ is its Aufbau, „Eigenschaften einer Fabel“ its Merkmale, „die
# Motive … für die Teilnahme an den Kreuzzügen“ their Ursachen (decision 066; an „Anlass“ is no Ursache).
_ASPEKT_GLEICH = {stem("Bau"): stem("Aufbau"), stem("Eigenschaften"): stem("Merkmale"),
                  stem("Kennzeichen"): stem("Merkmale"), stem("Motive"): stem("Ursachen"),
                  stem("Gründe"): stem("Ursachen"), stem("Auswirkungen"): stem("Folgen"),
                  stem("Ablauf"): stem("Verlauf")}


def _stems(text: str) -> set[str]:
    """Every word's stem, generic words included („Ursachen“ has no content stem for the topic checks)."""
    return {stem(w) for w in words(text) if len(w) > 2 and fold(w) not in STOPWORDS}


def _within(a: set[str], b: set[str]) -> bool:
    return bool(a) and all(any(x == y or term_matches(x, y) for y in b) for x in a)


def is_aspect(part: str) -> bool:
    return _within(_stems(part), set(ASPEKTE))


@lru_cache(maxsize=4096)
def alternatives(part: str, thema: str = "") -> tuple[str, ...]:
    """The bank's words for a named part: those of the entries whose term the part names (a context entry only when
    the part or the request's topic names its context). Each word alone: with the part's further words the half-rule
    of `names_literally` would let „Klimawandel“ alone carry „Ursachen des Klimawandels“."""
    said = _stems(part)
    around = said | _stems(thema)
    out: list[str] = []
    for eintraege in LEXIKON.values():
        for e in eintraege:
            teil = _stems(e.teil)
            if not _within(teil, said):
                continue
            if e.kontext and not any(_within(_stems(k), around) for k in e.kontext):
                continue
            out += e.umfasst
    return tuple(dict.fromkeys(out))


def _aspect_named(tasks: Sequence[TaskView], part: str, thema: str) -> bool:
    """An aspect part is named where one title or sentence names the aspect and the topic together: „Folgen des
    Klimawandels“ over a Tuvalu task, not „Ursachen für den Anstieg des Meeresspiegels“ on a Klimawandel sheet."""
    aspect, topic = _stems(part), text_stems(thema)
    for t in tasks:
        for field in (t.titel, *(s for x in (t.text, *t.kriterien) for s in _SENTENCE.split(x))):
            have = _stems(field)
            have |= {same for word, same in _ASPEKT_GLEICH.items() if word in have}
            named = not topic or any(term_matches(w, h) or _head(h, w) for w in topic for h in have)
            if _within(aspect, have) and named:
                return True
    return False


# „Parallelschaltung von Lampen“: what follows such a word is the thing the part is about, what precedes it the part
_GOVERNING = re.compile(r"\s(?:von|bei|mit|für|an|in|im|aus|zu|zum|zur|nach|of|in|with|for)\s", re.I)
# an activity before it names no part of its own: „Rechnen mit …“, „Umgang mit …“, „Arbeiten mit …“
_ACTIVITY = text_stems("Rechnen Umgang Arbeiten Arbeit Üben Übungen Aufgaben")


def names_literally(tasks: Sequence[TaskView], unterthema: str, *, whole: bool = False) -> bool:
    """A task names the part in its words (compounds included) in its title, text or criteria: half of them at
    least, and, when the part is „X von Y“, a word of X (decision 066: a lamp is no „Parallelschaltung von Lampen“
    — the task must be on the circuit). `whole`: in the criteria (an expected answer) a piece of a compound counts
    only when it is half the word at least, as the promise check reads (core/evaluation/titles.names_word):
    „Hintereinander (in Reihe)“ is no „Reihenschaltung“, „Global Sourcing“ names the Globalisierung."""
    wanted = text_stems(unterthema)
    if not wanted:
        return True
    head = text_stems(_GOVERNING.split(f" {unterthema} ", maxsplit=1)[0]) - _ACTIVITY
    head = head if head and head != wanted else set()  # „Rechnen mit Dezimalzahlen“: the decimals are the part
    for t in tasks:
        said = text_stems(" ".join([t.titel, t.text, *(() if whole else t.kriterien)]))
        answer = text_stems(" ".join(t.kriterien)) if whole else set()
        tokens = said | answer
        hit = {w for w in wanted if any(_names_word(tok, w, tokens) for tok in said)
               or any(_names_word(tok, w, tokens, whole=True) for tok in answer)}
        if len(hit) >= max(1, (len(wanted) + 1) // 2) and (not head or hit & head):
            return True
    return False


def _names_word(token: str, word: str, tokens: set[str] = frozenset(), *, whole: bool = False) -> bool:
    """The task's word is the part's word, a compound of it, its compound head, or a whole word that starts it
    („Zelle“ in „Zellteilung“, „Scheitel“ in „Scheitelpunktform“) — not a cut-off stem a few letters short of it
    („Elektronen“, stem „elektro“, is no „Elektrolyse“), and not the compound's last element, which is the wider
    thing („Schaltung“ is no „Reihenschaltung“, decision 066). (Decision 050 tried to refuse the first half of a
    compound alone — „das Klima“ is no „Klimadiagramm“ — but it cost tasks that say „Scheitel“ for the
    Scheitelpunktform; not done.)"""
    short_by = len(word) - len(token)
    piece = short_by >= 4 and word.startswith(token) and (not whole or 2 * len(token) >= len(word))
    return (term_matches(token, word) and (short_by <= 1 or piece)) or _head(token, word)


def _head(token: str, word: str) -> bool:
    """The task's word is a compound whose last element is the part's word: a „Kirschblüte“ is a „Blüte“ (the
    compound's head; a short word such as „blut“ is matched only there, never inside a word)."""
    return len(word) >= 4 and len(token) >= len(word) + 3 and token.endswith(word)


def _names_all(tasks: Sequence[TaskView], term: str) -> bool:
    """A lexicon word is the bank's exact term: every one of its words must be there, whole („Bedingungen der
    Verbrennung“ is not any task on Verbrennung)."""
    wanted = text_stems(term)
    return bool(wanted) and any(
        all(any(_contains(tok, w) for tok in text_stems(" ".join([t.titel, t.text, *t.kriterien]))) for w in wanted)
        for t in tasks
    )


def _contains(token: str, word: str) -> bool:
    """The task's word is the lexicon word or a compound of it („Meeresspiegelanstieg“ for „Meeresspiegel“) — not a
    piece of it („schmelzen“ is no „Gletscherschmelze“)."""
    return len(token) >= len(word) - 1 and term_matches(token, word)


def _compact(text: str) -> str:
    """The stems of a name run together: „Termumformungen“ and „Terme umformen“ both begin „termumform“."""
    return "".join(stem(w) for w in words(text) if fold(w) not in STOPWORDS)


def _same_compound(a: str, b: str) -> bool:
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 8 and long_.startswith(short)


def in_other_words(tasks: Sequence[TaskView], part: str, thema: str = "") -> bool:
    """The tasks name the part in the bank's words for it (LEXIKON), as an aspect of the request's topic, or as one
    compound where the title has separate words („Termumformungen“ over „Terme umformen“)."""
    said = _compact(part)
    return (
        (is_aspect(part) and _aspect_named(tasks, part, thema))
        or any(_same_compound(said, _compact(t.titel)) for t in tasks)
        or any(_names_all(tasks, alt) for alt in alternatives(part, thema))
    )


def covers_part(tasks: Sequence[TaskView], part: str, thema: str = "", *, whole: bool = False) -> bool:
    """The tasks cover a part the teacher named: in her words, or in the bank's words for it (LEXIKON)."""
    return (not is_aspect(part) and names_literally(tasks, part, whole=whole)) or in_other_words(tasks, part, thema)


def filed_as(unterthema: str, part: str, thema: str = "") -> bool:
    """The bank files the item under a sub-topic that names the part: the item is about it, not merely mentioning
    it (every Reformation task may mention the 95 Thesen; the Thesenanschlag task is filed under „Ablass und 95
    Thesen“)."""
    return covers_part([TaskView(ref=unterthema, text="", titel=unterthema)], part, thema)


_SEVERAL = re.compile(r",|;|/| und | and | sowie ")


def is_filing_of(label: str, part: str, thema: str = "") -> bool:
    """A filing label (an item's sub-topic, a topic title or its head) *is* the part: it covers the part and names
    nothing else beside it. „Extremwertprobleme“ is the part „Extremwertprobleme“; „Kräfte, Hookesches Gesetz und
    Hebel“ is no „Hebel“ — a Gewichtskraft task filed there does not treat the lever (decision 045)."""
    label = label.strip()
    if not label or not filed_as(label, part, thema):
        return False
    pieces = [p for p in _SEVERAL.split(f" {label} ") if p.strip()]
    return len(pieces) == 1 or all(filed_as(p, part, thema) for p in pieces)


def treats(tasks: Sequence[TaskView], part: str, thema: str = "", filing: str = "") -> bool:
    """The one test of „these tasks are about that part“ (decisions 045, 050): a task asks about it — in its title
    or question, or in its answer or the scenario of a bare question when its title and question do not name a
    sibling of the part (a Kaulquappen task whose answer says „Fische fressen Laich“ is the Amphibien's) — or does
    the named skill to its object, or the item is filed under a label that is the part. Selection, every note to
    the teacher and the promise check use it. A part sharing words with the topic („Logistisches Wachstum“ of
    „Exponentielles Wachstum“) is treated only where its own words are (decision 067)."""
    own = beyond_topic(part, thema)
    return (not own or _treats(tasks, own, thema, filing)) and _treats(tasks, part, thema, filing)


@lru_cache(maxsize=4096)
def beyond_topic(part: str, thema: str) -> str:
    """The words of a part that its topic does not say, when it shares some with it: „Logistisches“ of
    „Logistisches Wachstum“ under „Exponentielles Wachstum“ (any Wachstum task names half of the part); empty
    when the part shares no word with the topic or says nothing beyond it."""
    mine, topic = text_stems(part) - _ACTIVITY, text_stems(thema)  # „Rechnen mit Dezimalzahlen“ is the topic's
    if not mine & topic or mine <= topic:
        return ""
    return " ".join(w for w in words(part) if text_stems(w) and not text_stems(w) & topic)


def _treats(tasks: Sequence[TaskView], part: str, thema: str, filing: str) -> bool:
    if is_filing_of(filing, part, thema):
        return True
    doing, named = skill(part), fold(part) != fold(thema)
    return any(_asks_about(asked(t), part, thema, doing, named) for t in tasks)


def _asks_about(a: Asked, part: str, thema: str, doing: tuple[str, str] | None, named: bool = True) -> bool:
    if doing:  # „Klimadiagramme auswerten“: a task that evaluates a Klimadiagramm, not one that names it
        verb, thing = doing
        does = a.operators & (READING if verb in READING else {verb})
        return bool(does) and covers_part([_together(a)], thing, thema)
    if covers_part([a.subject], part, thema):
        return True
    # an answer mentions a named part by its word, not a short piece: „Hintereinander (in Reihe)“ is no
    # „Reihenschaltung“; the request's topic keeps 050's reading („Global Sourcing“ in a Globalisierung exam)
    return covers_part([_together(a)], part, thema, whole=named) and not any(
        covers_part([a.subject], s, thema) for s in siblings(part))


def _together(a: Asked) -> TaskView:
    return replace(a.subject, text=f"{a.subject.text} {a.mention.text}", kriterien=a.mention.kriterien)


@lru_cache(maxsize=1024)
def siblings(part: str) -> tuple[str, ...]:
    """The other members of the lexicon entries the part is a member of: „Amphibien“ beside „Fische“ (Wirbeltiere),
    never a synonym."""
    said = _stems(part)
    out: list[str] = []
    for eintraege in LEXIKON.values():
        for e in eintraege:
            mine = [m for m in e.umfasst if _within(_stems(m), said) and _within(said, _stems(m))]
            if mine and not e.gleich:
                out += [m for m in e.umfasst if m not in mine]
    return tuple(dict.fromkeys(out))
