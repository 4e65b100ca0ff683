"""The shape of a task a teacher asks for, which is no topic (decision 061): „analysis of a newspaper article plus
comment“, „Analyse eines Materials plus Stellungnahme“, „Quelleninterpretation mit Darstellungsteil“, „mit Sätzen
aus einem Märchen“. The reader takes them out before it looks for the topic; the request's Zusatz keeps them."""

from __future__ import annotations

import re

_SHAPE = (
    r"(?:analysis|analyse|interpretation|comment|kommentar|stellungnahme|mediation|sprachmittlung|"
    r"creative\s+writing|summary|zusammenfassung|evaluation|discussion|characteri[sz]ation|charakterisierung|"
    r"quelleninterpretation|quellenanalyse|quellenarbeit|textanalyse|sachtextanalyse|darstellungsteil|"
    r"re-creation\s+of\s+text|letter\s+to\s+the\s+editor|leserbrief)"
)
_ARTICLE = r"(?:an?|the|eine[mrs]?|einem|des|der|dem)"
_OF = rf"(?:\s+(?:of|eines|einer|des|der)\s+(?:{_ARTICLE}\s+)?[\w-]+(?:\s+[\w-]+)?)"
_JOIN = r"(?:\s+(?:plus|and|und|\+|&|with|mit)\s+)"
# a clause that is only a task shape: one kind of task and what it is done on, or two kinds joined
_SECOND = rf"{_JOIN}(?:{_ARTICLE}\s+)?[\w-]+(?:\s+[\w-]+)?{_OF}?"
_CLAUSE = re.compile(rf"(?:{_ARTICLE}\s+)?{_SHAPE}(?P<of>{_OF})?(?P<second>{_SECOND})?", re.I)
# material for a grammar task: „mit Sätzen aus einem Märchen“, „with sentences from a fairy tale“
_SOURCE_OF_SENTENCES = re.compile(
    r"\s*\b(?:mit\s+(?:[\w-]+\s+)?(?:sätzen|saetzen|texten|beispielen|beispielsätzen|textstellen)\s+aus\s+"
    r"(?:einem|einer|dem|der|den)|with\s+(?:[\w-]+\s+)?(?:sentences|texts|examples)\s+from\s+(?:an?|the))"
    r"\s+[\w-]+",
    re.I,
)
# a task named as a feature of the material: „Klausur mit Auswertung eines Experiments“, „with an analysis of a cartoon“
_WITH_SHAPE = re.compile(
    rf"\s*\b(?:mit|with)\s+(?:{_ARTICLE}\s+)?(?:{_SHAPE}|auswertung|beschreibung|deutung|untersuchung)"
    rf"\s+(?:of|eines|einer|des|der)\s+(?:{_ARTICLE}\s+)?(?:[\w-]+e[nmrs]?\s+)?[\w-]+",
    re.I,
)
# a kind of task named as a feature at the end of a clause: „Klimazonen mit Kartenarbeit“, „mit einer Textaufgabe“
_WITH_KIND = re.compile(
    r"\s*\b(?:mit|with|plus)\s+(?:(?:einer|einem|a|an|one)\s+)?(?:kartenarbeit|kartenauswertung|textaufgaben?|"
    r"sachaufgaben?|erörterung|eroerterung|quellenarbeit|map\s+work|word\s+problems?)(?=\s*(?:[,;:)\n–—]|\.\s|\.?$))",
    re.I,
)
_SEPARATOR = re.compile(r"(\s*(?:[–—;:,(]|\s-\s|\.(?=\s|$))\s*)")
_MAX_CLAUSES = 24


def split(text: str) -> tuple[str, bool]:
    """The text without its task shapes, and whether a shape is never the topic, even when nothing else names one:
    two kinds of task („… plus comment“), or a task as a feature of the material („mit Analyse einer Karikatur“)."""
    rest, featured = _WITH_SHAPE.subn("", _SOURCE_OF_SENTENCES.sub("", text))
    rest, kinds = _WITH_KIND.subn("", rest)
    featured += kinds
    pieces = _SEPARATOR.split(rest)
    if len(pieces) > 2 * _MAX_CLAUSES:
        return rest, featured > 0
    out: list[str] = []
    never_topic = featured > 0
    dropped = False
    for n in range(0, len(pieces), 2):
        clause = pieces[n]
        m = _CLAUSE.fullmatch(clause.strip().rstrip("."))
        if m is not None and not m.group("of") and _WRITING.fullmatch(clause.strip().rstrip(".")):
            m = None  # „Stellungnahme und Leserbrief“: two kinds of text to write are what the unit is about
        if m is not None and (m.group("of") or m.group("second")):  # „Analysis“ alone is a topic of Mathematik
            never_topic = never_topic or (m.group("second") is not None and _two_kinds(m.group("second")))
            dropped = True
            continue  # the clause goes, with the separator before it
        out += [pieces[n - 1] if n else "", clause]
    if not dropped:
        return rest, never_topic  # the text as it was when no shape was found: read once, not twice
    return "".join(out).strip(" ,;:–—-"), never_topic


_GENRE = r"(?:stellungnahme|leserbrief|kommentar|comment|letter\s+to\s+the\s+editor|erörterung|essay)"
_WRITING = re.compile(rf"(?:{_ARTICLE}\s+)?{_GENRE}{_JOIN}(?:{_ARTICLE}\s+)?{_GENRE}", re.I)
_KIND = re.compile(rf"{_JOIN}(?:{_ARTICLE}\s+)?{_SHAPE}\b", re.I)


def _two_kinds(second: str) -> bool:
    return _KIND.match(second) is not None


# a writing form done on a kind of text is what the exam is about (decision 072): „Inhaltsangabe zu einer
# Kurzgeschichte“ is a Kurzgeschichte exam whose named part is the Inhaltsangabe, not an exam on any Kurzgeschichte
_FORMS = {"inhaltsangabe": "Inhaltsangabe", "charakterisierung": "Charakterisierung",
          "figurencharakterisierung": "Charakterisierung", "personenbeschreibung": "Personenbeschreibung"}
WRITING_FORMS = frozenset(f.casefold() for f in _FORMS.values())  # the parts they are read as
_TEXTS = {"kurzgeschichte": "Kurzgeschichte", "erzählung": "Erzählung", "fabel": "Fabel", "sage": "Sage",
          "märchen": "Märchen", "ballade": "Ballade", "gedicht": "Gedicht", "sachtext": "Sachtext",
          "zeitungsartikel": "Zeitungsartikel", "novelle": "Novelle", "parabel": "Parabel",
          "kalendergeschichte": "Kalendergeschichte", "jugendbuch": "Jugendbuch", "jugendroman": "Jugendroman",
          "szene": "Szene", "dramenszene": "Dramenszene", "reportage": "Reportage"}
_FORM_ON_TEXT = re.compile(
    rf"\b(?P<form>{'|'.join(_FORMS)})\s+(?:(?:zu|über|von|an)\s+)?(?:einer|eines|einem|der|des|dem)\s+"
    rf"(?:(?:figur|person|hauptfigur)\s+(?:aus|in)\s+(?:einer|einem|der|dem)\s+)?"
    rf"(?P<text>{'|'.join(_TEXTS)})(?:e?s|n)?\b(?!\s*[„“\"'‚‘(])",
    re.I,
)


_TEXT_WITH_FORM = re.compile(
    rf"\b(?P<text>(?:{'|'.join(_TEXTS)})(?:e?s|n)?)(?P<mid>(?:\s+[^\s,;:]+){{0,3}}?)\s+mit\s+(?:einer\s+)?"
    rf"(?P<form>{'|'.join(_FORMS)})\b", re.I)


def form_on_text(text: str) -> str:
    """„Inhaltsangabe zu einer Kurzgeschichte“, „Kurzgeschichten mit Inhaltsangabe“ -> „Kurzgeschichte:
    Inhaltsangabe“, so that the reader takes the form as the named part of the text's topic; a named work („… zu
    ‚Zwei Stationen‘“) is left to the work reader."""
    def part(m: re.Match[str]) -> str:
        return f"{_TEXTS[m['text'].lower()]}: {_FORMS[m['form'].lower()]}"

    def moved(m: re.Match[str]) -> str:  # „Kurzgeschichten Klasse 7 mit Inhaltsangabe“: the facts between stay
        return f"{m['text']} ({_FORMS[m['form'].lower()]}){m['mid']}"
    return _TEXT_WITH_FORM.sub(moved, _FORM_ON_TEXT.sub(part, text))
