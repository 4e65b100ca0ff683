"""Standing wishes in teacher text as the preference store keeps them: number of tasks, things to avoid ("keine
Multiple Choice"), a Bonusaufgabe, the ratio of calculation to theory, an AFB split."""

from __future__ import annotations

import re

from core.language.afb import parse_afb
from core.language.dauer import NUMBER_WORDS, non_overlapping
from core.language.document import Doc
from core.language.request.vocabulary import vocab_for
from core.language.stopwords import CONNECTORS, FILLER_WORDS, word_set

AUFGABEN_MIN, AUFGABEN_MAX = 1, 30

_COUNT_DIGITS = re.compile(
    r"(?<![\d.,/])(\d{1,3})\s(?:[a-z]{2,20}(?:e|en|er)\s)?(?:teilaufgaben|aufgaben|quizfragen|fragen|items|questions|tasks)(?![a-z])"
)
_COUNT_ONE = re.compile(r"(?<![\d.,/])(1)\s(?:aufgabe|frage)(?![a-z])")
_COUNT_WORDS = re.compile(
    r"(?<![a-z])(zwei|drei|vier|fuenf|sechs|sieben|acht|neun|zehn|elf|zwoelf|fuenfzehn|zwanzig)\s"
    r"(?:[a-z]{2,20}(?:e|en|er)\s)?(?:teilaufgaben|aufgaben|quizfragen|fragen|items)(?![a-z])"
)
_COUNT_LABEL = re.compile(r"(?<![a-z])(?:aufgabenanzahl|anzahl\s(?:der\s)?aufgaben)\s?:?\s?(\d{1,3})(?!\d)")


def parse_count(fold: str) -> tuple[int | None, list[tuple[int, int]]]:
    cands: list[tuple[int, int, int]] = []
    for rx in (_COUNT_DIGITS, _COUNT_ONE, _COUNT_LABEL):
        cands.extend((m.start(), m.end(), int(m.group(1))) for m in rx.finditer(fold))
    cands.extend((m.start(), m.end(), NUMBER_WORDS[m.group(1)]) for m in _COUNT_WORDS.finditer(fold))
    cands = non_overlapping(cands)
    return (cands[0][2] if cands else None), [(s, e) for s, e, _ in cands]


_RATIO_WORD = r"(rech(?:n|en)[a-z]*|theorie[a-z]*|theoretisch[a-z]*)"
_RATIO_NUMBERS_FIRST = re.compile(
    rf"(?<![\d.,])(\d{{1,3}})\s?%?\s?[:/]\s?(\d{{1,3}})(?!\d)\s?%?\s?(?:(?:fuer|bei|zwischen)\s)?{_RATIO_WORD}"
    rf"\s?(?:zu|:|/|und|vs\.?|gegen)\s?{_RATIO_WORD}"
)
_RATIO_WORDS_FIRST = re.compile(
    rf"{_RATIO_WORD}\s?(?:zu|:|/|und|vs\.?|gegen)\s?{_RATIO_WORD}\s?(?:(?:im\s)?verhaeltnis\s?)?:?\s?"
    r"(\d{1,3})\s?[:/]\s?(\d{1,3})(?!\d)"
)
_RATIO_PERCENT = re.compile(
    rf"(?<![\d.,])(\d{{1,3}})\s?(?:%|prozent)\s{_RATIO_WORD}[\s,;]{{1,3}}(?:und\s)?(\d{{1,3}})\s?(?:%|prozent)\s"
    rf"{_RATIO_WORD}"
)


def parse_ratio(fold: str) -> tuple[str | None, list[tuple[int, int]]]:
    m = _RATIO_NUMBERS_FIRST.search(fold)
    if m:
        a, b, first, second = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
    else:
        m = _RATIO_WORDS_FIRST.search(fold)
        if m:
            first, second, a, b = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
        else:
            m = _RATIO_PERCENT.search(fold)
            if not m:
                return None, []
            a, first, b, second = int(m.group(1)), m.group(2), int(m.group(3)), m.group(4)
    first_is_rechnung, second_is_rechnung = first.startswith("rech"), second.startswith("rech")
    if first_is_rechnung == second_is_rechnung:
        return None, []
    if not first_is_rechnung:
        a, b = b, a
    return f"{a}:{b}", [m.span()]


_AVOID_START = re.compile(
    r"(?<![a-z])(?:bitte\s)?(?:keine[nrms]?|kein|ohne|nie(?:mals)?(?:\swieder)?|verzichte\sauf|"
    r"auf\skeinen\sfall)\s"
)
_AVOID_IGNORE = word_set("""
    problem probleme ahnung sorge sorgen frage fragen zeit lust stress wunder thema ding dinge zu so mehr ganz sehr
    wirklich einzige einziges einzigen weiteren weitere anderen andere dass""")
_AVOID_STOP = FILLER_WORDS | CONNECTORS | word_set("""
    und oder aber sondern mehr bitte verwenden nutzen benutzen einbauen machen nehmen geben sein haben mit fuer in
    im auf als""")
_BONUS = re.compile(r"(?<![a-z])(?:bonus|zusatz|sternchen|extra)-?aufgaben?(?![a-z])|(?<![a-z])mit\sbonus(?![a-z])")
_NEGATION_BEFORE = re.compile(r"(?:keine[nrms]?|kein|ohne|nie|niemals|nicht)\s(?:\w+\s)?$")
_MC_WORDS = frozenset({"multiple", "mc", "multiple-choice", "multiplechoice"})


def parse_avoid(doc: Doc) -> tuple[list[str], list[tuple[int, int]], bool | None]:
    """'keine Multiple Choice', 'ohne Taschenrechner' -> things to avoid; also reads Bonusaufgabe wishes."""
    things: list[str] = []
    spans: list[tuple[int, int]] = []
    bonus: bool | None = None
    toks = doc.tokens
    starts = {t.start: i for i, t in enumerate(toks)}
    for m in _AVOID_START.finditer(doc.fold):
        i = starts.get(m.end())
        if i is None or toks[i].fold in _AVOID_IGNORE or toks[i].fold.isdigit():
            continue
        j = i
        while j < len(toks) and j - i < 4 and (j == i or toks[j].brk == 0) and toks[j].fold not in _AVOID_STOP:
            j += 1
        if j == i:
            continue
        folds = [t.fold for t in toks[i:j]]
        spans.append((m.start(), toks[j - 1].end))
        if any(_BONUS.fullmatch(f) or f in ("bonus", "zusatzaufgabe", "bonusaufgabe") for f in folds):
            bonus = False
            continue
        if folds[0] in _MC_WORDS or folds[0].startswith(("multiple-choice", "mc-")):
            thing = "Multiple Choice"
        elif folds[0].startswith("lueckentext"):
            thing = "Lückentexte"
        else:
            thing = doc.text[toks[i].ostart:toks[j - 1].oend].strip(" .,;:!?")
        if thing and thing not in things:
            things.append(thing)
    for m in _BONUS.finditer(doc.fold):
        spans.append(m.span())
        if bonus is None:
            negated = _NEGATION_BEFORE.search(doc.fold[max(0, m.start() - 30):m.start()])
            bonus = not negated
    return things, spans, bonus


def extract_preferences(text: str) -> dict[str, object]:
    """Standing wishes in a feedback message, in the shape the preference store uses.

    Keys (only those found): aufgaben_anzahl (int), dinge_vermeiden (list[str]), bonusaufgabe (bool),
    rechnung_theorie_ratio ("60:40", Rechnung first), afb_verteilung ((I, II, III), summing to 100).
    """
    return preferences_of(Doc(text, vocab_for(None)[1]))


def preferences_of(doc: Doc) -> dict[str, object]:
    prefs: dict[str, object] = {}
    if not doc.tokens:
        return prefs
    count, _ = parse_count(doc.fold)
    if count is not None and AUFGABEN_MIN <= count <= AUFGABEN_MAX:
        prefs["aufgaben_anzahl"] = count
    things, _, bonus = parse_avoid(doc)
    if things:
        prefs["dinge_vermeiden"] = things
    if bonus is not None:
        prefs["bonusaufgabe"] = bonus
    ratio, _ = parse_ratio(doc.fold)
    if ratio is not None:
        prefs["rechnung_theorie_ratio"] = ratio
    afb, _, _ = parse_afb(doc.fold, context=False)
    if afb is not None:
        prefs["afb_verteilung"] = afb
    return prefs
