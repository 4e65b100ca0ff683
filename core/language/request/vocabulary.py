"""The request reader's vocabulary: built-in and seeded terms indexed by stem, prefix and spelling (built once per
profile), and what the scan of one message found in it (Analysis)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from core.language.document import CHUNK_RE
from core.language.fold import prepare
from core.language.lexicon import seeded_words
from core.language.request.builtin_topics import BUILTIN_TOPICS
from core.language.request.extraction import FACH_KEYS, TopicTerms
from core.language.request.inflection import plural_adjectives
from core.language.request.subjects import AREA_ALIASES
from core.language.spelling import TermSpeller
from core.language.text import fold, stem

_LETTERS = re.compile(r"[^\W\d_]+")
FACH_TWO_EDITS = 9  # within one Fach's vocabulary, a word of nine letters may be two edits off ("Pythagros")


@dataclass(frozen=True, slots=True)
class Entry:
    display: str
    fach: str
    feld: str
    kind: Literal["area", "topic"]
    from_profile: bool
    words: tuple[str, ...]  # stems


@dataclass
class Vocab:
    stem_idx: dict[str, list[Entry]] = field(default_factory=dict)
    prefix_idx: dict[str, list[Entry]] = field(default_factory=dict)
    hyphen_words: set[str] = field(default_factory=set)
    display: dict[str, str] = field(default_factory=dict)  # folded term -> its spelling
    by_stems: dict[tuple[str, ...], list[Entry]] = field(default_factory=dict)
    felder: dict[str, list[str]] = field(default_factory=dict)  # fach -> profile area names
    speller: TermSpeller = field(default_factory=TermSpeller)  # the long words of all terms, for typos
    # per Fach, the long words of its terms: a topic word two edits off ("Pythagros") is read against these only
    fach_spellers: dict[str, TermSpeller] = field(default_factory=dict)

    def add(self, term: str, fach: str, feld: str, kind: Literal["area", "topic"], from_profile: bool) -> None:
        folded = fold(prepare(term))
        chunks = [m.group() for m in CHUNK_RE.finditer(folded)]
        if not chunks:
            return
        self.hyphen_words.update(c for c in chunks if "-" in c)
        words = tuple(stem(c) for c in chunks)
        entry = Entry(display=term.strip(), fach=fach, feld=feld, kind=kind, from_profile=from_profile, words=words)
        self.stem_idx.setdefault(words[0], []).append(entry)
        self.by_stems.setdefault(words, []).append(entry)
        if kind == "topic" and len(words) == 1 and len(words[0]) >= 5:
            self.prefix_idx.setdefault(words[0], []).append(entry)
        if from_profile or " ".join(chunks) not in self.display:
            self.display[" ".join(chunks)] = term.strip()


def _build_vocab(profile: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...]) -> Vocab:
    vocab = Vocab()
    for alias, (fach, feld) in AREA_ALIASES.items():
        vocab.add(alias, fach, feld, "area", False)
    for fach, felder in BUILTIN_TOPICS.items():
        for feld, terms in felder.items():
            for term in terms.split(","):
                if term.strip():
                    vocab.add(term, fach, feld, "topic", False)
    for fach, felder in profile:
        for feld, terms in felder:
            vocab.felder.setdefault(fach, []).append(feld)
            vocab.add(feld, fach, feld, "area", True)
            for term in terms:
                vocab.add(term, fach, feld, "topic", True)
    vocab.speller = TermSpeller.of((w for term in vocab.display.values() for w in _LETTERS.findall(term)),
                                   real_words=seeded_words)
    per_fach: dict[str, set[str]] = {}
    for entries in vocab.by_stems.values():
        for e in entries:
            per_fach.setdefault(e.fach, set()).update(_LETTERS.findall(e.display))
    vocab.fach_spellers = {fach: TermSpeller.of(sorted(words), real_words=seeded_words, two_edits_from=FACH_TWO_EDITS)
                           for fach, words in per_fach.items()}
    return vocab


@lru_cache(maxsize=16)
def _cached_vocab(profile: tuple) -> tuple[Vocab, frozenset[str]]:
    vocab = _build_vocab(profile)
    return vocab, frozenset(vocab.hyphen_words)


def vocab_for(topic_terms: TopicTerms | None) -> tuple[Vocab, frozenset[str]]:
    profile: list = []
    for fach, felder in (topic_terms or {}).items():
        fach_key = fold(str(fach)).strip()
        if fach_key not in FACH_KEYS or not isinstance(felder, Mapping):
            continue
        items = []
        for feld, terms in felder.items():
            if isinstance(terms, str):
                terms = [terms]
            items.append((str(feld), tuple(str(t) for t in terms if str(t).strip())))
        profile.append((fach_key, tuple(items)))
    return _cached_vocab(tuple(profile))


@dataclass
class Analysis:
    subjects: list[tuple[int, str]] = field(default_factory=list)  # token index, fach
    areas: list[tuple[int, list[Entry]]] = field(default_factory=list)
    topics: list[tuple[int, int, list[Entry]]] = field(default_factory=list)  # start, end, entries
    guessed: set[int] = field(default_factory=set)  # starts of topics known only as a compound's first part
    unsupported: list[str] = field(default_factory=list)
    exam_word: str | None = None  # the teacher's word for an exam ("Test", "Klassenarbeit")


def profile_feld(vocab: Vocab, fach: str, hint: str) -> str:
    """Map a built-in area name onto the seeded profile's own name for it, when there is one."""
    felder = vocab.felder.get(fach, [])
    folded = fold(hint)
    for feld in felder:
        if fold(feld) == folded:
            return feld
    for feld in felder:
        other = fold(feld)
        if min(len(other), len(folded)) >= 4 and (folded in other or other in folded):
            return feld
    return hint


def _plural_of(own: str, known: str) -> bool:
    """The teacher's word is the plural of the known one ("Regenwälder" of "Regenwald", "Zellen" of "Zelle")."""
    f, k = fold(own), fold(known)
    return len(f) > len(k) and f[:3] == k[:3] and f.endswith(("e", "er", "en", "n", "s"))


def known_term_in(vocab: Vocab, term: str) -> str | None:
    chunks = [m.group() for m in CHUNK_RE.finditer(fold(prepare(term)))]
    if not chunks:
        return None
    found = vocab.display.get(" ".join(chunks))
    if found:
        return found
    if len(chunks) > 1:
        entries = vocab.by_stems.get(tuple(stem(c) for c in chunks))
        if entries:
            best = min(entries, key=lambda e: (not e.from_profile, abs(len(e.display) - len(term)))).display
            head, _, last = best.rpartition(" ")
            own_last = term.split()[-1].strip(".,;:!?")
            if head and fold(own_last) != fold(last):  # the known spelling, the teacher's number ("Zellen")
                own = last[:1] + own_last[1:] if last[:1].isupper() else own_last
                return f"{plural_adjectives(head) if _plural_of(own, last) else head} {own}"
            return best
    return None
