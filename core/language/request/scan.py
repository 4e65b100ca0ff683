"""Subjects, topic areas and topic terms in a request, found by dictionary look-ups per token, and the Fach they
decide: named, implied by a topic area, or guessed from topic words."""

from __future__ import annotations

import re

from core.language.document import Doc
from core.language.request.extraction import FACH_KEYS, FachSource
from core.language.request.material import MATERIAL_WORDS
from core.language.request.phrases import joined_to_topic
from core.language.request.subjects import (
    LANGUAGE_SUBJECTS,
    NOT_ENGLISCH_BEFORE,
    SUBJECT_COMPOUND_TAILS,
    SUBJECT_HEADS,
    SUBJECT_WORDS,
    UNSUPPORTED_SUBJECTS,
)
from core.language.request.vocabulary import Analysis, Entry, Vocab
from core.language.stopwords import FILLER_WORDS, META_WORDS
from core.language.text import stem


def _subject_counts(doc: Doc, i: int) -> bool:
    tok = doc.tokens[i]
    f = tok.fold
    if len(f) <= 2:
        if not tok.cap:
            return False
        if tok.in_compound:  # "Ph-Klausur" counts, the "E" of "E-Kurs" does not
            nxt = doc.tokens[i + 1] if i + 1 < len(doc.tokens) else None
            return f != "e" and nxt is not None and nxt.in_compound and nxt.brk == 0 and (
                nxt.fold in MATERIAL_WORDS or nxt.fold == "arbeit")
        if f == "e":
            prev = doc.tokens[i - 1].fold if i > 0 else ""
            return tok.orig == "E" and prev not in NOT_ENGLISCH_BEFORE
    # "Anweisungen auf Deutsch" is the language, not the subject.
    return not (f in ("deutsch", "englisch") and i > 0 and doc.tokens[i - 1].fold in ("auf", "ins") and tok.brk == 0)


# Words that join a subject word to the rest of its topic: "Kunst der Renaissance", "Physik im Straßenverkehr"
_PHRASE_LINKS = frozenset(("der", "des", "im", "in", "auf", "zwischen", "nach", "vor", "unter", "und", "als"))


def _topic_word(doc: Doc, i: int, named: list[int]) -> bool:
    """A subject word that is part of the topic (decision 052): another word names the Fach („Geschichte 8 Test
    Kunst der Renaissance“, „Chemie 9 … Chemie im Alltag“, „Geschichte … Weimarer Republik: Wirtschaft und
    Politik“). A supported subject word counts so only when it heads a phrase after the Fach was named; a subject
    the workbench does not teach also in a list of topics. Never next to another subject („Geschichte/Politik“)."""
    toks = doc.tokens
    if not named or all(k == i for k in named) or (named[0] >= i and toks[i].fold in SUBJECT_WORDS):
        return False
    for k in (i - 1, i + 1):
        if 0 <= k < len(toks) and (toks[k].fold in SUBJECT_WORDS or toks[k].fold in UNSUPPORTED_SUBJECTS):
            lo, hi = min(k, i), max(k, i)
            if doc.fold[toks[lo].end:toks[hi].start].strip() in ("", "/", "-", "+", "&"):
                return False
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    heads = nxt is not None and nxt.brk == 0 and nxt.fold in _PHRASE_LINKS and i + 2 < len(toks) and \
        toks[i + 2].brk == 0 and not toks[i + 2].fold.isdigit() and toks[i + 2].fold not in META_WORDS
    return heads or tok_unsupported(doc, i)


def tok_unsupported(doc: Doc, i: int) -> bool:
    return doc.tokens[i].fold in UNSUPPORTED_SUBJECTS and doc.tokens[i].cap


def scan_vocab(doc: Doc, vocab: Vocab, analysis: Analysis) -> None:
    toks = doc.tokens
    n = len(toks)
    named = [k for k, t in enumerate(toks) if t.fold in SUBJECT_WORDS and len(t.fold) > 2 and _subject_counts(doc, k)]
    i = 0
    while i < n:
        tok = toks[i]
        if tok.consumed:
            i += 1
            continue
        subject = SUBJECT_WORDS.get(tok.fold)
        if (subject is not None or tok.fold in UNSUPPORTED_SUBJECTS) and _topic_word(doc, i, named):
            subject = None
        elif tok.fold in UNSUPPORTED_SUBJECTS:
            analysis.unsupported.append(UNSUPPORTED_SUBJECTS[tok.fold])
            tok.consumed = True
            i += 1
            continue
        if subject is not None:
            if _subject_counts(doc, i):
                analysis.subjects.append((i, subject))
                tok.consumed = True
            elif len(tok.fold) > 2:
                tok.consumed = True
            i += 1
            continue
        if tok.fold in LANGUAGE_SUBJECTS and i > 0 and toks[i - 1].fold == "im" and (
                i + 1 >= n or toks[i + 1].brk or not toks[i + 1].cap):  # "Zeitformen im Englischen"
            analysis.subjects.append((i, LANGUAGE_SUBJECTS[tok.fold]))
            tok.consumed = toks[i - 1].consumed = True
            i += 1
            continue
        compound = None
        for tail in SUBJECT_COMPOUND_TAILS if tok.fold.endswith(SUBJECT_COMPOUND_TAILS) else ():
            if tok.fold.endswith(tail) and tok.fold[: -len(tail)].rstrip("-") in SUBJECT_HEADS:
                compound = SUBJECT_HEADS[tok.fold[: -len(tail)].rstrip("-")]
                break
        if compound is not None:
            analysis.subjects.append((i, compound))
            tok.consumed = True
            i += 1
            continue
        if (tok.fold in FILLER_WORDS and not _starts_term(doc, i, vocab)) or len(tok.fold) < 2 \
                or (tok.fold in META_WORDS and not joined_to_topic(doc, i)):
            i += 1
            continue
        cands, guessed = _candidates(doc, i, vocab)
        if not cands:
            i += 1
            continue
        longest = max(length for length, _ in cands)
        chosen = [e for length, e in cands if length == longest]
        if tok.fold in META_WORDS and not _same_fach(analysis, i, chosen):  # "Gleichungen und Lösungen"
            i += 1
            continue
        if any(e.from_profile for e in chosen):
            chosen = [e for e in chosen if e.from_profile]
        areas = [e for e in chosen if e.kind == "area"]
        for k in range(i, i + longest):
            if areas:
                toks[k].consumed = True
                toks[k].area = True
            else:
                toks[k].vocab = True
        if areas:
            analysis.areas.append((i, areas))
        else:
            analysis.topics.append((i, i + longest, chosen))
            if guessed:
                analysis.guessed.add(i)
        i += longest


def _candidates(doc: Doc, i: int, vocab: Vocab) -> tuple[list[tuple[int, Entry]], bool]:
    """The known terms starting at token i, as (number of tokens, entry): written in full, cut short, or as a
    compound whose first part is a known word (a guess: "Verdunstung" is no "Verdun"), and whether they are that
    guess."""
    toks = doc.tokens
    tok = toks[i]
    n = len(toks)
    cands: list[tuple[int, Entry]] = []
    for entry in vocab.stem_idx.get(tok.stem, ()):
        length = len(entry.words)
        if i + length > n:
            continue
        if all(
            toks[i + k].stem == entry.words[k] and not toks[i + k].consumed and toks[i + k].brk == 0
            for k in range(1, length)
        ) and (length == 1 or toks[i + length - 1].fold not in FILLER_WORDS or tok.fold in FILLER_WORDS):
            cands.append((length, entry))
    if not cands:
        cands = _cut_short(doc, i, vocab)
    if not cands and (m := _RECHEN_COMPOUND.match(tok.key)):  # „Bruchrechenregeln“: „Bruchrechnung“
        single = [e for e in vocab.stem_idx.get(stem(m.group(1) + "rechnung"), ()) if len(e.words) == 1]
        if single:
            return [(1, e) for e in single], not _names_its_head("", single)
    if not cands and len(tok.key) <= 40:
        for cut in range(len(tok.key) - 1, 4, -1):
            hits = vocab.prefix_idx.get(tok.key[:cut])
            if hits:
                return [(1, e) for e in hits], not _names_its_head(tok.key[cut:], hits)
    return cands, False


# Tails of a compound that only say what is done with its head: „Teilbarkeitsregeln“, „Dreisatzaufgaben“ are the
# head's topic, not a guess from a first part like „Energiesparlampen“ or „Bewegungsapparat“ (decision 068).
_GENERIC_TAILS = ("regeln", "regel", "aufgaben", "aufgabe", "uebungen", "uebung", "beispiele", "training", "test",
                  "tests", "quiz", "grundlagen", "fragen", "wissen", "begriffe")
_RECHEN_COMPOUND = re.compile(rf"^([a-z]{{4,}}?)rechen(?:{'|'.join(_GENERIC_TAILS)})$")  # „Bruchrechenregeln“


def _names_its_head(tail: str, hits: list[Entry]) -> bool:
    """A compound whose known head names one Fach and whose tail is a generic word (or nothing)."""
    tail = tail.removeprefix("-").removeprefix("s") if tail not in _GENERIC_TAILS else tail
    return bool(hits) and len({e.fach for e in hits}) == 1 and (tail == "" or tail in _GENERIC_TAILS)


def _cut_short(doc: Doc, i: int, vocab: Vocab) -> list[tuple[int, Entry]]:
    """A known term of several words written without its last word or the end of a hyphenated last word, up to a
    comma or the end of the text ("going to" for "going to-future")."""
    toks = doc.tokens
    out = []
    for entry in vocab.stem_idx.get(toks[i].stem, ()):
        words = entry.words
        for k in range(len(words), 1, -1):
            end = i + k
            if end > len(toks) or (end < len(toks) and not toks[end].brk):
                continue
            typed = [toks[i + j] for j in range(1, k)]
            if any(t.consumed or t.brk for t in typed):
                continue
            last = typed[-1].stem
            same = all(t.stem == words[j] for j, t in enumerate(typed[:-1], 1))
            if same and ((k < len(words) and last == words[k - 1]) or words[k - 1].startswith(last + "-")):
                out.append((k, entry))
                break
    return out


def _same_fach(analysis: Analysis, i: int, chosen: list[Entry]) -> bool:
    """The topic term right before ("Wasser" in "Wasser und Lösungen") belongs to a Fach of the chosen entries."""
    before = next((entries for _, end, entries in reversed(analysis.topics) if end == i - 1), [])
    return bool({e.fach for e in before} & {e.fach for e in chosen})


def _starts_term(doc: Doc, i: int, vocab: Vocab) -> bool:
    """A stop word that begins a known term of several words ("das und dass")."""
    toks = doc.tokens
    for entry in vocab.stem_idx.get(toks[i].stem, ()):
        n = len(entry.words)
        if n > 1 and i + n <= len(toks) and all(toks[i + k].stem == entry.words[k] and toks[i + k].brk == 0
                                                 for k in range(1, n)):
            return True
    return False


def _topic_scores(analysis: Analysis) -> tuple[dict[str, float], set[str]]:
    """What the topic words say about the Fach (decision 064): the head topic (the first) counts twice, a compound
    read by its first part half; and the Fächer some word names in full (the others are only guessed)."""
    scores: dict[str, float] = {}
    sure: set[str] = set()
    for k, (start, _, entries) in enumerate(analysis.topics):
        fachs = {e.fach for e in entries}
        weight = (2.0 if k == 0 else 1.0) * (0.5 if start in analysis.guessed else 1.0)
        if start not in analysis.guessed:
            sure |= fachs
        for fach in fachs:
            scores[fach] = scores.get(fach, 0.0) + weight / len(fachs)
    return scores, sure


def fach_options(analysis: Analysis) -> tuple[str, ...]:
    """The Fächer the topic words point to equally (in FACH_KEYS order) when they decide none."""
    scores, sure = _topic_scores(analysis)
    best = max((scores[f] for f in sure), default=0.0)
    tied = tuple(f for f in FACH_KEYS if f in sure and scores[f] == best)
    return tied if len(tied) > 1 and not analysis.subjects and not analysis.areas else ()


def decide_fach(analysis: Analysis) -> tuple[str | None, FachSource | None]:
    """The Fach named, implied by a topic area, or what the topic words together are about; a Fach only guessed
    from a compound's first part, or tied, is none (the teacher is asked)."""
    if analysis.subjects:
        return min(analysis.subjects)[1], "explicit"
    scores, sure = _topic_scores(analysis)
    if analysis.areas:
        _, entries = min(analysis.areas, key=lambda a: a[0])
        fachs = sorted({e.fach for e in entries}, key=lambda f: (-scores.get(f, 0.0), FACH_KEYS.index(f)))
        return fachs[0], "area"
    if scores:
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        if (len(ranked) == 1 or ranked[0][1] > ranked[1][1]) and ranked[0][0] in sure:
            return ranked[0][0], "topic"
    return None, None
