"""Forms of a topic that are not a list of sub-topics (decision 046): words contrasted („das“ oder „dass“,
gerund or infinitive, some/any), fixed pairs (Jäger und Sammler, Ebbe und Flut), a work reference (Kurzgeschichte
(Borchert, Das Brot)), a verb saying what pupils do with the topic (Satzglieder bestimmen), and a year range that
qualifies a topic (die deutsche Frage 1945–1990).

Pure string functions on bounded windows; what counts as a known term is passed in by the caller."""

from __future__ import annotations

import re
from collections.abc import Callable

from core.language.document import MARK
from core.language.text import fold

Known = Callable[[str], str | None]

# What pupils do with a topic, not the topic: "Satzglieder bestimmen" is about "Satzglieder". Verbs that name an
# operation of the subject itself ("Brüche kürzen", "Adjektive steigern", "Terme vereinfachen") are not here.
ACTIVITY_VERBS = frozenset(
    fold(w)
    for w in str.split("""
    bestimmen erkennen benennen unterscheiden berechnen lösen bilden ermitteln identifizieren zuordnen üben
    analysieren untersuchen beschreiben erklären erläutern verstehen wiederholen nennen markieren unterstreichen
    finden anwenden einsetzen verwenden gebrauchen interpretieren deuten vergleichen darstellen zeichnen lernen
    wiederholen auswerten""")
)

# Pairs that are one thing, not two topics: a reader does not ask for "Jäger" and "Sammler" separately. The
# vocabulary cannot tell them from two topics ("Auge und Ohr"), so they are listed; folded, in either order.
# "Licht und Schatten" is not here: both are topics of Physik on their own.
_FIXED_PAIRS = (
    "jäger und sammler",
    "länder und hauptstädte",
    "staaten und hauptstädte",
    "bundesländer und hauptstädte",
    "angebot und nachfrage",
    "ebbe und flut",
    "arm und reich",
    "räuber und beute",
    "tag und nacht",
    "krieg und frieden",
    "ursache und wirkung",
    "stadt und land",
    "ost und west",
    "nord und süd",
    "kaiser und papst",
    "herr und knecht",
    "sender und empfänger",
    "leben und werk",
    "leben und tod",
    "zeit und raum",
    "soll und haben",
    "frage und antwort",
    "hunger und durst",
    "sonne und mond",
    "wirt und parasit",
    "jagd und beute",
    "fürsten und untertanen",
    "adel und klerus",
    "bürger und bauern",
    "mann und frau",
    "alt und jung",
    "fest und flüssig",
    "reiz und reaktion",
    "schloss und schlüssel",
)
FIXED_PAIRS = frozenset(fold(p) for p in _FIXED_PAIRS)
_PAIR = re.compile(r"^\s*([^\W\d_]+)\s*(?:\bund\b|\+|&)\s*([^\W\d_]+)\s*$")


def fixed_pair(text: str, known: Known) -> bool:
    """A listed pair ("Jäger und Sammler", "Länder und Hauptstädte") is one term, not two parts — unless the
    vocabulary knows one of its words as a topic of its own ("Licht und Schatten", "Bundesländer und Hauptstädte"
    stay two parts)."""
    m = _PAIR.match(text)
    if m is None or not {fold(f"{m.group(1)} und {m.group(2)}"), fold(f"{m.group(2)} und {m.group(1)}")} & FIXED_PAIRS:
        return False
    return not (known(m.group(1)) or known(m.group(2)))


def without_activity(text: str) -> str:
    """The topic without the verbs after it that say what pupils do ("Stilmittel erkennen und benennen" ->
    "Stilmittel"); a text that is only such verbs stays."""
    words = text.split()
    end = len(words)
    while end > 1 and (
        fold(words[end - 1]) in ACTIVITY_VERBS
        or (fold(words[end - 1]) in ("und", "oder", "sowie") and end < len(words))
    ):
        if fold(words[end - 1]) in ACTIVITY_VERBS and words[end - 1][:1].isupper():
            break  # "das Bestimmen" is a noun
        end -= 1
    return " ".join(words[:end]) if end < len(words) else text


# --- words contrasted ----------------------------------------------------------------------------------------

_QUOTE = r"(?:„([^“”\"\n]{1,40})[“”\"]|\"([^\"\n]{1,40})\"|'([^'\n]{1,40})'|»([^«\n]{1,40})«|‚([^‘’\n]{1,40})[‘’])"
_QUOTE_JOIN = rf"\s*(?:,|/|\boder\b|\bor\b|\bund\b|\band\b|\bvs[.{MARK}]?|\bversus\b|\bbzw[.{MARK}]?)\s*"
_QUOTED_RUN = re.compile(rf"{_QUOTE}(?:{_QUOTE_JOIN}{_QUOTE}){{1,5}}")
_ONE_QUOTE = re.compile(_QUOTE)
_JOINER = re.compile(_QUOTE_JOIN)


def quoted_words(text: str) -> str | None:
    """„das“ oder „dass“ -> 'das oder dass': quoted words joined by oder/und/or/„/“ are one topic, the words as
    written; None when no two quoted words are joined."""
    m = _QUOTED_RUN.search(text)
    if m is None:
        return None
    pieces = [next(g for g in q.groups() if g is not None).strip() for q in _ONE_QUOTE.finditer(m.group())]
    joins = [j.group().strip() for j in _JOINER.finditer(_ONE_QUOTE.sub("\0", m.group()))]
    joins = [j for j in joins if j]
    if len(joins) != len(pieces) - 1 or not all(pieces):
        return None
    out = pieces[0]
    for join, piece in zip(joins, pieces[1:], strict=True):
        out += ("/" if join == "/" else ", " if join == "," else f" {join} ") + piece
    return out


_WORD = r"[^\W\d_][\w'’-]*"
_NUMBERED = r"(?:\s+(?:\d{1,2}|[IVX]{1,4})\b)?"  # "type 1 or type 2", "Typ I oder Typ II"
_CONTRAST = re.compile(
    rf"\b({_WORD}(?:\s+{_WORD}){{0,3}}{_NUMBERED})\s+(or|oder)\s+({_WORD}(?:\s+{_WORD}){{0,3}}{_NUMBERED})", re.I
)
_WORD_PAIR = re.compile(rf"\b([^\W\d_]{{1,8}})\s+(and|or|und|oder|vs[.{MARK}]?)\s+([^\W\d_]{{1,8}})\b", re.I)
_SLASHED = re.compile(rf"(?<![\w-])({_WORD}(?:/{_WORD}){{1,5}})(?![\w/-])")
_STOP_AFTER = frozenset(str.split("for with in at please by bitte für fuer mit klasse year grade test quiz"))
_NOT_SLASHED = frozenset(str.split("in innen und oder or and er sie"))
# Words contrasted as words, not as topics: "much or many", "a/an", "das oder dass" name one topic, no parts.
_FUNCTION_WORDS = frozenset(
    str.split("""
    a an the some any much many few little this that these those who which whose whom what since for ago yet
    already still each every either neither both all no none other another its it's there their they're your
    you're to too two than then as like if whether in on at by must mustn't needn't can could may might
    das dass seit seid wenn wann wider wieder wie als ob weil denn ihr ihm ihn wen wem mal mahl""")
)


def _in_parentheses(text: str, pos: int) -> bool:
    before = text[max(0, pos - 80):pos]
    return "(" in before and ")" not in before[before.rfind("("):]


def contrast(text: str, thema: str | None, known: Known) -> tuple[str, tuple[str, ...]] | None:
    """The contrasted words the topic is part of: 'gerund or infinitive' for the topic 'Gerund', 'this/that/these/
    those' for 'These'; with parts when both sides are topics of their own ("present perfect or simple past"),
    without when they are words ("much or many", "a/an"). None when the topic is part of no contrast."""
    for m in _SLASHED.finditer(text[:2000]):
        items = m.group(1).split("/")
        if any(fold(i) in _NOT_SLASHED for i in items[1:]) or any(i.endswith("-") for i in items):
            continue
        if _in_parentheses(text, m.start()):  # „Atmung (Lunge/Gasaustausch)“: the parts of a header (decision 052)
            continue
        if (thema is None and all(fold(i) in _FUNCTION_WORDS for i in items)) or (
            thema is not None and any(fold(thema) == fold(i) for i in items)
        ):
            nouns = all(i[:1].isupper() and len(i) > 2 for i in items)  # „Nomen/Verben/Adjektive“: topics each
            return m.group(1), tuple(items) if nouns else ()
    if thema is None:  # "some and any": words contrasted are the topic even when nothing else names one
        pair = next(
            (
                m
                for m in _WORD_PAIR.finditer(text[:2000])
                if fold(m.group(1)) in _FUNCTION_WORDS and fold(m.group(3)) in _FUNCTION_WORDS
            ),
            None,
        )
        return (" ".join(pair.groups()), ()) if pair else None
    for m in _CONTRAST.finditer(text[:2000]):
        left, joiner, right = m.group(1), m.group(2), m.group(3)
        left_words, right_words = left.split(), right.split()
        cut = next((k for k, w in enumerate(right_words) if fold(w) in _STOP_AFTER), len(right_words))
        right_words = right_words[:cut]
        # the left side starts where the topic starts; when the topic is on the right, it is the longest known
        # term before the joiner, else its last word ("will or going to")
        suffixes = [fold(" ".join(left_words[k:])) for k in range(len(left_words))]
        # the shortest left side that holds the whole topic, else the longest one the topic holds
        pos = max((k for k, x in enumerate(suffixes) if fold(thema) in x), default=None)
        if pos is None:
            pos = min((k for k, x in enumerate(suffixes) if x in fold(thema)), default=None)
        if pos is None:
            pos = next((k for k in range(len(left_words)) if known(" ".join(left_words[k:]))), len(left_words) - 1)
        if not right_words:
            continue
        left = " ".join(left_words[pos:])
        right = " ".join(right_words)
        phrase = f"{left} {joiner} {right}"
        if fold(thema) not in fold(phrase) and fold(thema) not in fold(f"{left} {right}"):
            continue
        if fold(left) in _FUNCTION_WORDS or fold(right) in _FUNCTION_WORDS:
            return phrase, ()
        if len(left_words[pos:]) == 1 and len(right_words) >= 3:  # "defining or non-defining relative clauses"
            left = f"{left} {' '.join(right_words[1:])}"
        shared = [fold(w) for w in left_words[pos:]]
        if len(right_words) < len(shared) and fold(right_words[0]) in shared[1:]:  # "if-clauses type 1 or type 2"
            right = " ".join([*left_words[pos:][: shared.index(fold(right_words[0]))], *right_words])
        return phrase, (left, right)
    return None


def contrasts_kept(thema: str, parts: list[str]) -> list[str]:
    """The parts as the thema lists them, two sides of a contrast as one item: „Mitose vs. Meiose, Chromosomen“ ->
    ['Mitose vs. Meiose', 'Chromosomen'], so the contrast the teacher asked for is still read from the thema."""
    items = [parts[0]]
    for prev, part in zip(parts, parts[1:], strict=False):
        left, right = re.escape(prev.split()[-1]), re.escape(part.split()[0])
        if re.search(rf"{left}\s+(?:vs[.{MARK}]?|versus)\s+{right}", thema, re.I):
            items[-1] = f"{items[-1]} vs. {part}"
        else:
            items.append(part)
    return items


# „Reihenschaltung im Vergleich zur Parallelschaltung“: a contrast as „vs.“ writes it (the left side was lost)
_COMPARED_TO = re.compile(r"(?<=\w)\s+im\s+Vergleich\s+(?:zu[rm]?|mit(?:\s+(?:der|dem|den))?)\s+(?=\w)", re.I)


def as_versus(text: str) -> str:
    """„A im Vergleich zu B“ written „A vs. B“, the form the reader knows as a contrast of two parts."""
    return _COMPARED_TO.sub(" vs. ", text)


# --- work references -----------------------------------------------------------------------------------------

_WORK_GENRES = (
    r"kurzgeschichte|novelle|ballade|drama|parabel|roman|jugendroman|gedicht|fabel|märchen|maerchen|"
    r"erzählung|erzaehlung|komödie|komoedie|tragödie|tragoedie|lektüre|lektuere|ganzschrift|"
    r"short\s+story|novel|play|poem"
)
_AUTHOR = r"(?:[A-ZÄÖÜ][\w.'’-]*\s+){0,2}[A-ZÄÖÜ][\w'’-]+"
_WORK_REF = re.compile(
    rf"\b({_WORK_GENRES})\s*(?:\(\s*({_AUTHOR})\s*[,:]\s*([^()\n]{{2,80}}?)\s*\)"
    rf"|:\s*({_AUTHOR})\s*[,:]\s*([^,;()\n]{{2,80}}?)\s*(?=[,;(\n]|$))",
    re.I,
)


def work_reference(text: str) -> str | None:
    """'Kurzgeschichte (Borchert, Das Brot)' -> 'Kurzgeschichte: Borchert, Das Brot': author and work are one
    reference to a text, never two sub-topics; the work keeps its title whole ("Kabale und Liebe")."""
    m = _WORK_REF.search(text[:2000])
    if m is None:
        return None
    genre = " ".join(m.group(1).split())
    author, work = (m.group(2), m.group(3)) if m.group(2) else (m.group(4), m.group(5))
    work = work.strip(" \"'„“”‚‘’«»")
    if not work or not work[:1].isupper():
        return None
    return f"{genre[:1].upper()}{genre[1:]}: {author.strip()}, {work}"


# „Great Britain and the Commonwealth / Brexit“: a spaced slash after the topic, then a second topic up to a separator
_SPACED_SLASH = re.compile(r"\s+/\s+([^\W\d_][^,;:.()\n/]{1,60}?)\s*(?=[,;:()\n]|\.\s|\.?$)")


def slashed_peer(text: str, thema: str | None, is_topic: Callable[[str], bool]) -> tuple[str, tuple[str, ...]] | None:
    """A topic and a second one after a spaced slash are one topic with both as parts, as „A/B“ of nouns is
    (decision 052); the second is never dropped (decision 061)."""
    if not thema:
        return None
    at = fold(text).find(fold(thema))
    m = _SPACED_SLASH.match(text, at + len(thema)) if at >= 0 else None
    if m is None or not is_topic(m.group(1)):
        return None
    second = m.group(1).strip()
    return f"{thema} / {second}", (thema, second)
