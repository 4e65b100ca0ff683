"""The shape of a task a teacher asks for, which is no topic (decision 061): „analysis of a newspaper article plus
comment“, „Analyse eines Materials plus Stellungnahme“, „Quelleninterpretation mit Darstellungsteil“, „mit Sätzen
aus einem Märchen“. The reader takes them out before it looks for the topic; the request's Zusatz keeps them."""

from __future__ import annotations

import re

_SHAPE = (r"(?:analysis|analyse|interpretation|comment|kommentar|stellungnahme|mediation|sprachmittlung|"
          r"creative\s+writing|summary|zusammenfassung|evaluation|discussion|characteri[sz]ation|charakterisierung|"
          r"quelleninterpretation|quellenanalyse|quellenarbeit|textanalyse|sachtextanalyse|darstellungsteil|"
          r"re-creation\s+of\s+text|letter\s+to\s+the\s+editor|leserbrief)")
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
    r"\s+[\w-]+", re.I)
_SEPARATOR = re.compile(r"(\s*(?:[–—;:,(]|\s-\s|\.(?=\s|$))\s*)")
_MAX_CLAUSES = 24


def split(text: str) -> tuple[str, bool]:
    """The text without its task shapes, and whether a shape named two kinds of task („… plus comment“): such a
    clause is a shape even when nothing else names a topic."""
    rest = _SOURCE_OF_SENTENCES.sub("", text)
    pieces = _SEPARATOR.split(rest)
    if len(pieces) > 2 * _MAX_CLAUSES:
        return rest, False
    out: list[str] = []
    combined = False
    for n in range(0, len(pieces), 2):
        clause = pieces[n]
        m = _CLAUSE.fullmatch(clause.strip().rstrip("."))
        if m is not None and (m.group("of") or m.group("second")):  # „Analysis“ alone is a topic of Mathematik
            combined = combined or (m.group("second") is not None and _two_kinds(m.group("second")))
            continue  # the clause goes, with the separator before it
        out += [pieces[n - 1] if n else "", clause]
    return "".join(out).strip(" ,;:–—-"), combined


_KIND = re.compile(rf"{_JOIN}(?:{_ARTICLE}\s+)?{_SHAPE}\b", re.I)


def _two_kinds(second: str) -> bool:
    return _KIND.match(second) is not None
