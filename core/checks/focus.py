"""The part of a topic the teacher asked for. A request often names less than the coverage topic it resolves to:
„Brüche addieren und subtrahieren“ resolves to „Brüche und Dezimalzahlen“, „die Hanse und der Fernhandel“ to „Die
Stadt im Mittelalter“. Every task of such a material must be about the named part — comparing fractions or the
Stadtrecht is on the topic, but not what was asked. The focus is the request's own words that neither the title nor
the Themenfeld of a resolved topic carries; a task serves it when it uses one of them (or, in arithmetic, writes it:
a fraction „3/4“ is about Brüche, „1/2 + 1/3“ about adding)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.checks.topicality import TopicContext, noun_stems
from core.checks.topics import term_matches
from core.language.text import stem, stems, words

MIN_PREFIX = 4
UMBRELLA = 3  # a word in the key phrases of this many topics is an umbrella term, not a part of one
# Arithmetic written in symbols names its operation without the word.
SIGNS: dict[str, re.Pattern[str]] = {
    "bruch": re.compile(r"\d\s*/\s*\d|[½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞]"),
    "addi": re.compile(r"[\d½⅓⅔¼¾)]\s*\+\s*[\d(]"),
    "subtrahi": re.compile(r"[\d½⅓⅔¼¾)]\s*[−–-]\s*[\d(]"),
    "multiplizi": re.compile(r"\d\s*[·×*]\s*\d"),
    "dividi": re.compile(r"\d\s*:\s*\d"),
}
# Words a task uses for a focus word it does not repeat.
_ALSO = {
    "Nomenklatur": ("Benennung", "Name", "IUPAC"),
    "irregular": ("unregelmäßig",),
    "addieren": ("Addition", "Summe"),
    "subtrahieren": ("Subtraktion", "Differenz"),
    "Kommasetzung": ("Komma",),
}
ALSO: dict[str, frozenset[str]] = {stem(k): frozenset(stem(w) for w in v) for k, v in _ALSO.items()}


@dataclass(frozen=True)
class Focus:
    """The stems a task must use, and the teacher's words they come from (to say so)."""

    stems: frozenset[str]
    words: tuple[str, ...]
    topic: str  # the title of the broader topic the request resolved to
    subject: frozenset[str] = frozenset()  # the request's nouns when the focus names only what to do with them

    def __bool__(self) -> bool:
        return bool(self.stems)


NO_FOCUS = Focus(frozenset(), (), "")


def _norm(s: str) -> str:
    return s.replace("ph", "f").replace("th", "t")


def _close(a: str, b: str) -> bool:
    """Same word family: equal, one inside the other (compounds), or a long shared start ('subtrahi' ~
    'subtraktio', 'addi' ~ 'additio'); 'Photosynthese' and 'Fotosynthese' alike."""
    a, b = _norm(a), _norm(b)
    if term_matches(a, b):
        return True
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= max(MIN_PREFIX, min(len(a), len(b)) - 2)


def request_focus(ctx: TopicContext | None) -> Focus:
    """The request's words the resolved topics do not carry in title or Themenfeld (nor in the key words of two of
    them: a word several topics share is broader than each, „Stromkreise“); NO_FOCUS when the request names whole
    topics (or resolved to none)."""
    if ctx is None or not ctx.resolved:
        return NO_FOCUS
    broad = set().union(*(stems(f"{t.thema} {t.themenfeld}") for t in ctx.resolved))
    # a word in the key phrases of several topics that titles none names a whole area („Analysis:
    # Extremwertprobleme“), never a narrower part
    spread = [stems(" ".join([*t.unterthemen, *t.schlagworte])) for t in ctx.index.topics.values()]
    titled = set().union(*(stems(t.thema) for t in ctx.index.topics.values()))  # „linear“ names topics: no umbrella
    keys = [stems(" ".join([*t.unterthemen, *t.schlagworte])) for t in ctx.resolved]
    broad |= {k for i, a in enumerate(keys) for k in a if any(k in b for b in keys[i + 1:])}
    named: dict[str, str] = {}
    for w in words(ctx.request.thema):
        s = stem(w)
        if s not in ctx.index.stems(w) or any(_close(s, b) for b in broad):
            continue
        if s not in titled and sum(1 for keys in spread if s in keys) >= UMBRELLA:
            continue
        if (w.isupper() and len(w) <= 5) or not ctx.index.ranked(w):
            continue  # an abbreviation („MWG“) or a word no topic of the Fach knows („voice“): no way to judge it
        named.setdefault(s, w)
    # a focus word that a topic's own key phrase joins with another word of the request is part of that topic's name
    # for the same thing („passive voice“, „school subjects“), not a narrower part
    rest = {stem(w) for w in words(ctx.request.thema)} - set(named)
    for t in ctx.resolved:
        for phrase in (*t.unterthemen, *t.schlagworte):
            ps = stems(phrase)
            if len(ps) > 1 and any(_close(r, p) for r in rest for p in ps):
                named = {f: w for f, w in named.items() if not any(_close(f, p) for p in ps)}
    if not named:
        return NO_FOCUS
    verbs_only = not any(w[:1].isupper() for w in named.values())
    subject = frozenset(noun_stems(ctx.index, ctx.request.thema)) if verbs_only else frozenset()
    return Focus(frozenset(named), tuple(named.values()), ctx.resolved[0].thema, subject)


def _uses(stems_: Iterable[str], asked: str, tokens: set[str], *, head: bool = False) -> bool:
    """One of the stems is used (with `head`, as a word or a compound's first part: a „Zehnerbruch“ is a decimal,
    not what „Brüche“ means)."""
    for f in stems_:
        close = (lambda t, f=f: _norm(t).startswith(_norm(f))) if head else (lambda t, f=f: _close(f, t))
        if any(close(t) for t in tokens) or ALSO.get(f, frozenset()) & tokens:
            return True
        sign = SIGNS.get(f)
        if sign is not None and sign.search(asked):
            return True
    return False


def serves(texts: Iterable[str], asked: str, focus: Focus, ctx: TopicContext) -> bool:
    """The task uses one of the focus words in any of its texts, or writes it in symbols in what it asks (`asked`;
    a solution's „14,4/6“ is no fraction task). When the focus names only what to do („addieren“), the task must
    also be about the request's subject: adding decimals or negative numbers is not „Brüche addieren“."""
    if not focus:
        return True
    tokens = ctx.index.stems(" ".join(texts))
    if not _uses(focus.stems, asked, tokens):
        return False
    return not focus.subject or _uses(focus.subject, asked, ctx.index.stems(asked), head=True)
