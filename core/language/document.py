"""Teacher text as tokens: prepared and folded with a map back to the original characters, split into words that
know what separates them from the previous one and whether an extractor has already explained them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.language.fold import fold_with_map, prepare
from core.language.text import key, stem

CHUNK_RE = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
_PART_RE = re.compile(r"[^\W_]+")
_HARD_GAP_RE = re.compile(r"[.!?;:\n()\[\]{}\"]|[^\x00-\x7f\s]")  # sentence punctuation, emoji and symbols
# Stands for a period that ends no sentence („17. Juni“, „z. B.“; core.language.request.periods puts it in).
MARK = "\x1a"
_ABBREVIATIONS = frozenset(("vs", "bzw", "ca", "evtl", "ggf", "inkl", "usw", "etc"))
# A capitalised word inside a sentence ("Mathe", not "EF", "Q1" or the first word): the writer capitalises nouns.
_INNER_CAPITAL_RE = re.compile(r"(?<![.!?:\n]\s)(?<![.!?:\n])(?<=\s|[(\"„/-])[^\W\d_a-z][^\W\d_A-Z]+\b")


@dataclass(slots=True)
class Token:
    fold: str
    key: str
    stem: str
    start: int  # in folded coordinates
    end: int
    orig: str
    ostart: int  # in original coordinates
    oend: int
    cap: bool
    in_compound: bool  # a part of a split hyphen word ("H5P-Quiz" -> "H5P", "Quiz")
    brk: int = 0  # what separates it from the previous token: 0 nothing, 1 comma-like, 2 sentence-like
    consumed: bool = False  # already explained by another extractor (class, duration, material, subject …)
    area: bool = False  # a topic-area word ("Optik"): not a Thema unless named with "Thema …"
    vocab: bool = False  # a known topic term


class Doc:
    def __init__(self, text: str | None, hyphen_words: frozenset[str]) -> None:
        self.text = prepare(text)
        self.fold, self._index = fold_with_map(self.text)
        has_upper = any(c.isupper() for c in self.text)
        has_lower = any(c.islower() for c in self.text)
        # "test mathe EF expontialfunktionen" is written in lower case: abbreviations and a capital at the start of
        # a sentence do not make it a text that capitalises its nouns.
        self.mixed_case = has_upper and has_lower and _INNER_CAPITAL_RE.search(self.text) is not None
        self.all_upper = has_upper and not has_lower
        self.tokens: list[Token] = []
        self._tokenize(hyphen_words)
        # a period that ends no sentence („17. Juni“, core.language.request.periods): no break above, a period for
        # the facts (Klasse, Dauer)
        self.fold = self.fold.replace(MARK, ".")

    def ospan(self, start: int, end: int) -> tuple[int, int]:
        if self._index is None:
            return start, end
        return self._index[start], self._index[end - 1] + 1

    def _add(self, start: int, end: int, in_compound: bool) -> None:
        os_, oe = self.ospan(start, end)
        orig = self.text[os_:oe]
        fold = self.fold[start:end]
        self.tokens.append(
            Token(fold=fold, key=key(fold), stem=stem(fold), start=start, end=end, orig=orig, ostart=os_, oend=oe,
                 cap=orig[:1].isupper(), in_compound=in_compound)
        )

    def _tokenize(self, hyphen_words: frozenset[str]) -> None:
        for m in CHUNK_RE.finditer(self.fold):
            chunk = m.group()
            if "-" not in chunk or chunk in hyphen_words:
                self._add(m.start(), m.end(), False)
                continue
            parts = [(p.start() + m.start(), p.end() + m.start()) for p in _PART_RE.finditer(chunk)][:12]
            i = 0
            while i < len(parts):
                for j in range(len(parts), i + 1, -1):  # keep known hyphen words whole: "E-Lehre-Klausur"
                    if self.fold[parts[i][0]:parts[j - 1][1]] in hyphen_words:
                        self._add(parts[i][0], parts[j - 1][1], False)
                        i = j
                        break
                else:
                    self._add(parts[i][0], parts[i][1], True)
                    i += 1
        prev_end = 0
        prev = ""
        for tok in self.tokens:
            gap = self.fold[prev_end:tok.start].replace(MARK, " ")
            if gap.strip() == "." and prev in _ABBREVIATIONS:  # "simple past vs. present perfect": no sentence end
                gap = " "
            prev = tok.fold
            if gap and gap != " ":
                if _HARD_GAP_RE.search(gap):
                    tok.brk = 2
                elif "," in gap or " - " in gap or "/" in gap:
                    tok.brk = 1
            prev_end = tok.end

    def consume_spans(self, spans: list[tuple[int, int]]) -> None:
        if not spans:
            return
        spans = sorted(spans)
        k = 0
        for tok in self.tokens:
            while k < len(spans) and spans[k][1] <= tok.start:
                k += 1
            j = k
            while j < len(spans) and spans[j][0] < tok.end:
                if spans[j][1] > tok.start:
                    tok.consumed = True
                    break
                j += 1
