"""Which topic a text is about: a small lexical index over a Fach's coverage topics (thema, sub-topics, key words).

Used to resolve a request to topics of the coverage map and to tell on-topic from off-topic tasks: a task is about
the requested topic when it shares its words and no unrelated topic fits it clearly better. German compounds match
by containment ('Stammbaumanalyse' ~ 'Stammbaum').
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from core.checks.lexicon import FRAME_WORDS, OPERATOR_FORMS, OPERATOR_WORDS, SUBJECT_FRAME_WORDS
from core.language.lexicon import attested_plain_words, attested_words
from core.language.text import STOPWORDS, content_words, fold, stem

_MIN_PART = 5  # shortest stem that may match inside a compound


@dataclass(frozen=True)
class TopicInfo:
    """A coverage-map topic (or the request itself, as a pseudo-topic)."""

    id: str
    thema: str
    themenfeld: str = ""
    klassenstufen: tuple[int, ...] = ()
    unterthemen: tuple[str, ...] = ()
    schlagworte: tuple[str, ...] = ()
    extra: tuple[str, ...] = field(default=(), compare=False)  # e.g. Themenfeld vocabulary, lower weight
    generatoren: tuple[str, ...] = field(default=(), compare=False)  # parametric generators serving the topic

    @property
    def oberstufe(self) -> bool:
        return bool(self.klassenstufen) and min(self.klassenstufen) >= 11


# Words that name no subject matter on their own: in "Aufbau des Periodensystems" the topic is the periodic table,
# and an experiment's "Aufbau" must not pull a task towards it.
_GENERIC = (
    "aufbau bau eigenschaft eigenschaften grundlage grundlagen einfuehrung anwendung anwendungen methode methoden "
    "form formen art arten typ typen teil teile beispiel fall faelle entwicklung verlauf vergleich ueberblick "
    "modell modelle prinzip prinzipien vorgang vorgaenge prozess prozesse wirkung wirkungen ursache ursachen "
    "folge folgen bedeutung rolle verfahren versuch versuche experiment experimente")
GENERIC_WORDS = frozenset(stem(w) for w in _GENERIC.split())


def text_stems(text: str, keep: frozenset[str] = frozenset()) -> set[str]:
    """The content stems of a text: without stopwords, operators, task frames and generic words — except the stems
    in `keep`, which a Fach's topics use as subject matter ('Terme', 'Funktionen', 'Leiter', 'Analysis'); those
    count unless written as an operator ('Leite … her' is not 'Leiter')."""
    out = set()
    for w in content_words(text):
        if w.isdigit() or len(s := stem(w)) <= 2 or s in STOPWORDS or s in GENERIC_WORDS:
            continue
        if (s in OPERATOR_WORDS or s in FRAME_WORDS) and (s not in keep or w in OPERATOR_FORMS):
            continue
        out.add(s)
    return out


def topic_words(topics: Iterable[TopicInfo]) -> frozenset[str]:
    """Stems the topics use as subject matter although they are operator or frame words elsewhere: nouns that only
    look like an operator ('Leiter', 'Nachweis', 'Analysis'), and the few frame words that name mathematical objects
    when a topic is titled with them ('Funktionen', 'Terme')."""
    out = set()
    for t in topics:
        titles = (t.thema, t.themenfeld, *t.unterthemen)
        for text in (*titles, *t.schlagworte):
            for n in text.split():
                if not n[:1].isupper():
                    continue
                for w in content_words(n):
                    s = stem(w)
                    looks_like_operator = len(s) > 3 and s in OPERATOR_WORDS and w not in OPERATOR_FORMS \
                        and s not in GENERIC_WORDS
                    if looks_like_operator or (s in SUBJECT_FRAME_WORDS and text in titles):
                        out.add(s)
    return frozenset(out)


def _weighted(topic: TopicInfo, keep: frozenset[str] = frozenset()) -> dict[str, float]:
    weights: dict[str, float] = {}
    groups = ((topic.extra, 0.5), ((topic.themenfeld,), 1.0), (topic.schlagworte, 2.0), (topic.unterthemen, 2.0),
              ((topic.thema,), 3.0))
    for texts, w in groups:
        for t in texts:
            for s in text_stems(t, keep):
                weights[s] = max(weights.get(s, 0.0), w)
    return weights


def term_matches(token: str, term: str) -> bool:
    if token == term:
        return True
    short, long_ = (token, term) if len(token) <= len(term) else (term, token)
    return len(short) >= _MIN_PART and (_compound_part(long_, short) or _linking_s(long_, short))


def _compound_part(long_: str, short: str) -> bool:
    """`short` is a part of the compound `long_`: its start, or after a first part that ends in a word of its own
    („Wärme|transport“ ~ „transport“, „Blut|kreislauf“ ~ „kreislauf“) — not letters inside a word („Tran|sport“ is
    no „Sport“, „Ver|gleich“ no „gleich“, decision 068)."""
    at = long_.find(short)
    while at > 0 and not _is_word(long_[:at]):
        at = long_.find(short, at + 1)
    return at >= 0


@lru_cache(maxsize=4096)
def _is_word(first: str) -> bool:
    """What comes before a compound's part ends in a word attested in the seed content, with or without its linking
    element or verb ending („Blut|kreislauf“, „Wärme|transport“, „Bewegungs|energie“, „Brenn|punkt“) — not
    „Tran|sport“, „Wärmetran|sport“, „Ver|gleich“."""
    return any((j == 0 or len(first) - j >= 4) and _attested(first[j:]) for j in range(len(first) - 2))


def _attested(piece: str) -> bool:
    """The piece is a word, or one with its linking element dropped („Bewegungs“); or, with an ending added, a word
    written without an umlaut („Brenn“ + „en“) — the umlaut merge would make „Tran“ + „en“ the „Tränen“ of a
    Kurzgeschichte and „Wärmetran|sport“ a compound on „Sport“ again."""
    own = {piece, piece.rstrip("-")}
    added = {f + end for f in own for end in ("e", "en")}
    own |= {f[: -len(end)] for f in tuple(own) for end in _LINKS if f.endswith(end)}
    added |= {f[: -len(end)] for f in tuple(added) for end in _LINKS if f.endswith(end)} - own
    words, plain = attested_words(), attested_plain_words()
    return any(len(f) >= 3 and f in words for f in own) or any(len(f) >= 3 and f in plain for f in added)


_LINKS = ("s", "es", "n", "en", "e", "er")


def _linking_s(long_: str, short: str) -> bool:
    """The same compound with and without the linking s („Halbwertszeit“, „Halbwertzeit“)."""
    if len(long_) != len(short) + 1:
        return False
    i = next((k for k, (a, b) in enumerate(zip(long_, short, strict=False)) if a != b), len(short))
    return long_[i] == "s" and 3 <= i <= len(short) - 3 and long_[i + 1:] == short[i:]


class TopicIndex:
    """Scores texts against a set of topics; idf-weighted so that words shared by many topics count less."""

    def __init__(self, topics: Sequence[TopicInfo]) -> None:
        self.topics = {t.id: t for t in topics}
        self.keep = topic_words(topics)
        self._terms = {t.id: _weighted(t, self.keep) for t in topics}
        df = Counter(s for terms in self._terms.values() for s in terms)
        n = max(len(topics), 1)
        self._idf = {s: math.log(1 + n / c) for s, c in df.items()}
        self._vocab = sorted({s for terms in self._terms.values() for s in terms})
        self._scope = frozenset(self._vocab)
        self._hits: dict[str, tuple[str, ...]] = {}  # token -> the vocabulary terms it matches (cached)
        self._named = named_frames(topics)
        self._names = {t.id: tuple(frozenset(text_stems(n, self.keep | self._named)) for n in _names_of(t))
                       for t in topics}
        self._name_df: dict[str, int] = {}

    def _matching(self, token: str) -> tuple[str, ...]:
        hits = self._hits.get(token)
        if hits is None:
            hits = tuple(t for t in self._vocab if term_matches(token, t))
            self._hits[token] = hits
        return hits

    def idf(self, term: str) -> float:
        return self._idf.get(term, math.log(1 + max(len(self.topics), 1)))

    def score_terms(self, tokens: Iterable[str], terms: Mapping[str, float]) -> float:
        """Each token counts once, for the best term it matches (so 'krieg' does not score for every compound of
        the topic: 'Koreakrieg', 'Vietnamkrieg' …); each term counts once."""
        best: dict[str, float] = {}
        for tok in set(tokens):
            hit, value = None, 0.0
            candidates = self._matching(tok) if terms.keys() <= self._scope else terms
            for term in candidates:
                w = terms.get(term)
                if w is None or not term_matches(tok, term):
                    continue
                v = w * self.idf(term) * (1.0 if tok == term else 0.8)
                if v > value:
                    hit, value = term, v
            if hit is not None:
                best[hit] = max(best.get(hit, 0.0), value)
        return sum(best.values())

    def stems(self, text: str) -> set[str]:
        """The content stems of a text as this Fach reads it (its topics' subject words kept)."""
        return text_stems(text, self.keep)

    def scores(self, text: str) -> dict[str, float]:
        tokens = self.stems(text)
        return {tid: self.score_terms(tokens, terms) for tid, terms in self._terms.items()}

    def ranked(self, text: str) -> list[tuple[str, float]]:
        return sorted(((t, s) for t, s in self.scores(text).items() if s > 0), key=lambda x: -x[1])

    def terms(self, tid: str) -> dict[str, float]:
        return self._terms[tid]

    def terms_match(self, tokens: set[str], tid: str) -> bool:
        """All given tokens occur among the topic's terms."""
        terms = self._terms[tid]
        return bool(tokens) and all(any(term_matches(tok, t) for t in terms) for tok in tokens)

    def request_stems(self, text: str) -> set[str]:
        """The words that carry a requested topic's meaning (decision 037): the content stems, with the filler
        check's frame words kept where this Fach's topics name subject matter with them („life“ of „School life“,
        „Leben“ of „Leben in der Steinzeit“) — a word that names part of a topic is never dropped from a request."""
        kept = text_stems(text, self.keep | self._named)
        return kept - ({stem(fold(m.group(1))) for m in _SETTING.finditer(text)} - text_stems(text, self.keep))

    def name_idf(self, word: str) -> float:
        """How rare the word is among the topics' own names: a word that names many topics tells little."""
        df = self._name_df.get(word)
        if df is None:
            df = sum(1 for names in self._names.values() if any(_in_name(word, n) for n in names))
            self._name_df[word] = df
        return math.log(1 + max(len(self.topics), 1) / (df + 1))

    def coverage(self, words: set[str], tid: str) -> float:
        """The idf-weighted share of the request's words the topic's own names carry (thema, Themenfeld,
        sub-topics, key words); a word only in the Themenfeld's vocabulary counts half."""
        if not words:
            return 1.0
        total = got = 0.0
        for w in words:
            weight = self.name_idf(w)
            total += weight
            if any(_in_name(w, n) for n in self._names[tid]):
                got += weight
            elif any(term_matches(w, t) for t in self._terms[tid]):
                got += weight / 2
        return got / total

    def one_name_covers(self, words: set[str], tid: str, *, title: bool = False) -> bool:
        """One of the topic's names (with `title`, its title) holds every word as a word of its own: „school life“
        is the key word „school life“ of School life in Britain, not „phone-free school“ and „digital life“ of
        Media and digital life; „Optik“ is no name of Wellenoptik, nor „Gleichung“ of „Gleichungssysteme“."""
        names = self._names[tid][:1] if title else self._names[tid][:-1]  # not the Themenfeld („Optik“)
        return bool(words) and any(words <= n for n in names)

    def pseudo(self, topic: TopicInfo) -> dict[str, float]:
        """Terms of a topic outside the index (the request itself)."""
        return _weighted(topic, self.keep)


# A frame word in the setting of a topic is no part of it: „Prozentrechnung im Alltag“, „Stoffe im Alltag“ (but
# „Leben in der Steinzeit“, „school life“).
_SETTING = re.compile(r"\b(?:im|in|am|beim|aus|fuer|für|of|in the|for)\s+(?:(?:der|dem|den|die|the|our)\s+)?"
                      r"([^\W\d_]+)", re.I)


def _names_of(topic: TopicInfo) -> tuple[str, ...]:
    return (topic.thema, *topic.unterthemen, *topic.schlagworte, topic.themenfeld)


def _in_name(word: str, name: frozenset[str]) -> bool:
    return word in name or any(term_matches(word, s) for s in name)


# Frame words that never name subject matter, even inside a topic's name („Drei Kennzeichen …“, „Was ist …“).
_NEVER_WORDS = """was man unter ein einen einer eines zwei drei vier fuenf sechs mindestens
    jeweils kurz knapp fest festhalten schriftlich selbst eigene eigenen eigenes frage fragen schreibe text texte
    point points key"""
_NEVER_NAMED = frozenset(stem(w) for w in _NEVER_WORDS.split())


def named_frames(topics: Iterable[TopicInfo]) -> frozenset[str]:
    """Frame words of the filler check that the topics use in their own names: subject matter in this Fach."""
    return frozenset(stem(w) for t in topics for n in _names_of(t) for w in content_words(n)
                     if stem(w) in FRAME_WORDS and stem(w) not in GENERIC_WORDS | _NEVER_NAMED)


def request_topic(thema: str, unterthemen: Sequence[str], resolved: Sequence[TopicInfo]) -> TopicInfo:
    """The request as one pseudo-topic: its own words, plus the words of the coverage topics it resolved to."""
    words = tuple(w for t in resolved for w in (t.thema, *t.unterthemen, *t.schlagworte))
    return TopicInfo(id="__request__", thema=thema, unterthemen=tuple(unterthemen), schlagworte=words,
                     klassenstufen=tuple(sorted({k for t in resolved for k in t.klassenstufen})),
                     themenfeld=resolved[0].themenfeld if resolved else "")
