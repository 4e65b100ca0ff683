"""Wishes for single tasks on an Anforderungsbereich: "eine Aufgabe Induktion als AFB III", "AFB-III-Aufgabe zu
Induktion" -> (topic, level)."""

from __future__ import annotations

import re

from core.language.afb import AFB_LEVELS, AfbLevel
from core.language.document import Doc
from core.language.request.phrases import content_runs, topic_phrase
from core.language.request.thema import THEMA_PREPS, prep_candidates
from core.language.request.vocabulary import Vocab
from core.language.stopwords import word_set

_AFB_WORDS = frozenset({"afb", "anforderungsbereich", "anforderungsbereiche", "anforderungsbereichs"})
_AFB_GLUED = re.compile(r"afb(iii|ii|i|[123])")
_TASK_WORDS = word_set("""
    aufgabe aufgaben teilaufgabe teilaufgaben transferaufgabe frage fragen rechenaufgabe textaufgabe""")
_TASK_DETERMINERS = word_set("""
    eine einer einen ein mit bitte noch auch davon mindestens zumindest wenigstens 1 nur genau dazu""")
_SOFT_BOUNDARIES = word_set("mit und sowie aber plus sondern davon")
_DISTRIBUTION_AFTER = re.compile(r"\s?(?:[:=/]\s?)?\d")


def extract_afb_wishes(doc: Doc, vocab: Vocab) -> list[tuple[str | None, AfbLevel]]:
    toks = doc.tokens
    n = len(toks)
    wishes: list[tuple[str | None, AfbLevel]] = []
    i = 0
    while i < n:
        tok = toks[i]
        level: AfbLevel | None = None
        j = i
        if not tok.consumed and tok.fold in _AFB_WORDS and i + 1 < n and toks[i + 1].brk == 0 and (
            toks[i + 1].fold in AFB_LEVELS and not toks[i + 1].consumed
        ):
            level, j = AFB_LEVELS[toks[i + 1].fold], i + 1
        elif not tok.consumed and (glued := _AFB_GLUED.fullmatch(tok.fold)):
            level = AFB_LEVELS[glued.group(1)]
        if level is None:
            i += 1
            continue
        percent_before = doc.fold[max(0, tok.start - 2):tok.start].strip() == "%"
        if _DISTRIBUTION_AFTER.match(doc.fold, toks[j].end) or percent_before:
            i = j + 1
            continue
        # The wish region: back to the task word ("eine Aufgabe Induktion als AFB III") or a soft boundary,
        # forward to the end of the clause ("AFB-III-Aufgabe zu Induktion"), each at most 12 tokens.
        lo = i
        k = i - 1
        while k >= 0 and i - k <= 12 and toks[k + 1].brk == 0:
            f = toks[k].fold
            if f in _SOFT_BOUNDARIES:
                lo = k
                break
            lo = k
            if f in _TASK_WORDS:
                while lo > 0 and i - lo <= 12 and toks[lo].brk == 0 and toks[lo - 1].fold in _TASK_DETERMINERS:
                    lo -= 1
                break
            k -= 1
        hi = j + 1
        while hi < n and hi - j <= 12 and toks[hi].brk == 0 and toks[hi].fold not in _SOFT_BOUNDARIES:
            hi += 1
        for k in (i, j):
            toks[k].consumed = True
        task_after = j + 1 < n and toks[j + 1].fold in _TASK_WORDS and toks[j + 1].brk == 0
        before = content_runs(doc, lo, i, allow_area=True)
        after = prep_candidates(doc, vocab, j + 1, hi) if task_after else []
        thema: str | None = None
        if after:
            thema = after[0][0]
        else:
            after_runs = content_runs(doc, j + 1, hi, allow_area=True)
            ordered = (after_runs + before[::-1]) if task_after else (before[::-1] + after_runs)
            if ordered:
                s, e = ordered[0]
                prep = THEMA_PREPS.get(toks[s - 1].fold) if s > 0 else None
                thema = topic_phrase(doc, vocab, s, e, prep)
        for k in range(lo, hi):
            toks[k].consumed = True
        wishes.append((thema, level))
        i = hi
    return wishes
