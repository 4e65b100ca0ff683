"""Export of an H5PSet as Moodle XML (question bank import): multichoice, truefalse and cloze questions.

Texts are XML-escaped by the serializer (no CDATA, so ']]>' cannot end a section early) and HTML-escaped inside.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET

from core.checks.structure import validate_h5p
from core.exports.h5p import explanation
from core.exports.xml_text import ExportError, xml_safe
from core.materials import h5p

# Characters with a meaning inside a cloze sub-question {1:SHORTANSWER:=…}. Moodle parses the question HTML with a
# regex and html_entity_decode()s each answer afterwards, so numeric entities hide them from the parser and still
# arrive as the literal character. '&' becomes '&#38;' rather than '&amp;': Moodle's answer regex refuses to end an
# answer right after '&amp;', so an answer ending in '&' would swallow the closing brace.
_CLOZE_ANSWER_ESCAPES = {
    "&": "&#38;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "{": "&#123;",
    "}": "&#125;",
    "#": "&#35;",
    "~": "&#126;",
    "\\": "&#92;",
    "*": "&#42;",  # '*' is a wildcard in SHORTANSWER
}


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, attrs)
    if text is not None:
        element.text = xml_safe(text)
    return element


def _text_element(parent: ET.Element, tag: str, text: str, fmt: str = "html") -> None:
    _sub(_sub(parent, tag, format=fmt), "text", text)


def _html(text: str) -> str:
    lines = [line for line in xml_safe(text).splitlines() if line.strip()] or [""]
    return "".join(f"<p>{html.escape(line.strip(), quote=False)}</p>" for line in lines)


def _plain(text: str) -> str:
    """HTML-escaped text with braces as entities, so no text can be read as a cloze sub-question."""
    return html.escape(xml_safe(text), quote=False).replace("{", "&#123;").replace("}", "&#125;")


def _cloze_answer(answer: str) -> str:
    return "".join(_CLOZE_ANSWER_ESCAPES.get(ch, ch) for ch in xml_safe(answer).strip())


def _fraction(percent: float) -> str:
    """Moodle's notation of a grade fraction; it accepts only its fixed list (100/n for n <= 10 is on it)."""
    return f"{percent:.5f}".rstrip("0").rstrip(".")


def _name(parent: ET.Element, nummer: int, text: str) -> None:
    kurz = " ".join(xml_safe(text).split())
    kurz = kurz if len(kurz) <= 60 else kurz[:59] + "…"
    _sub(_sub(parent, "name"), "text", html.escape(f"Frage {nummer}: {kurz}", quote=False))


def _feedback(erklaerung: str | None) -> str:
    return html.escape(xml_safe(explanation(erklaerung)), quote=False)


def _common(question: ET.Element, defaultgrade: int, erklaerung: str | None = None) -> None:
    _text_element(question, "generalfeedback", _feedback(erklaerung))
    _sub(question, "defaultgrade", str(defaultgrade))
    _sub(question, "penalty", "0.3333333")
    _sub(question, "hidden", "0")


def _multichoice(quiz: ET.Element, nummer: int, frage: h5p.MultiChoiceFrage) -> None:
    question = _sub(quiz, "question", type="multichoice")
    _name(question, nummer, frage.frage)
    _text_element(question, "questiontext", _html(frage.frage))
    _common(question, 1, frage.erklaerung)
    _sub(question, "single", "false" if frage.mehrfach else "true")
    _sub(question, "shuffleanswers", "true")
    _sub(question, "answernumbering", "abc")
    _text_element(question, "correctfeedback", "Richtig!")
    _text_element(question, "partiallycorrectfeedback", "Teilweise richtig.")
    _text_element(question, "incorrectfeedback", "Leider falsch.")
    richtige = sum(a.korrekt for a in frage.antworten)
    falsche = len(frage.antworten) - richtige
    for antwort in frage.antworten:
        if not frage.mehrfach:
            fraction = "100" if antwort.korrekt else "0"
        elif antwort.korrekt:
            fraction = _fraction(100 / richtige)
        else:
            # Wrong ticks cost points, otherwise ticking every box earns full marks.
            fraction = _fraction(-100 / falsche)
        element = _sub(question, "answer", fraction=fraction, format="html")
        _sub(element, "text", html.escape(xml_safe(antwort.text).strip(), quote=False))
        _text_element(element, "feedback", html.escape(xml_safe(antwort.feedback or ""), quote=False))


def _truefalse(quiz: ET.Element, nummer: int, frage: h5p.TrueFalseFrage) -> None:
    question = _sub(quiz, "question", type="truefalse")
    _name(question, nummer, frage.frage)
    _text_element(question, "questiontext", _html(frage.frage))
    _common(question, 1, frage.erklaerung)
    for wert in (True, False):
        element = _sub(question, "answer", fraction="100" if wert == frage.wahr else "0", format="moodle_auto_format")
        _sub(element, "text", "true" if wert else "false")
        _text_element(element, "feedback", "Richtig!" if wert == frage.wahr else "Leider falsch.")


def _subquestion(luecke: h5p.Luecke) -> str:
    answers = "~".join(f"={_cloze_answer(a)}" for a in luecke.antworten if a.strip())
    return "{1:SHORTANSWER:" + answers + "}"


def _cloze(quiz: ET.Element, nummer: int, frage: h5p.BlanksFrage | h5p.DragTextFrage) -> None:
    ist_dragtext = isinstance(frage, h5p.DragTextFrage)
    teile = h5p.zerlege_lueckentext(frage.text, alternativen=not ist_dragtext)
    luecken = [t for t in teile if isinstance(t, h5p.Luecke)]
    body = "".join(_plain(t) if isinstance(t, str) else _subquestion(t) for t in teile)
    paragraphs = [line.strip() for line in body.splitlines() if line.strip()]
    aufgabe = "Ergänze die fehlenden Wörter."
    if ist_dragtext:
        # H5P DragText offers the words to drag; keep that recognition task by listing them (alphabetically).
        woerter = sorted({luecke.antworten[0] for luecke in luecken}, key=str.casefold)
        aufgabe = "Setze die passenden Wörter ein: " + " · ".join(_plain(w) for w in woerter)
    else:
        aufgabe = _plain(aufgabe)
    questiontext = f"<p>{aufgabe}</p>" + "".join(f"<p>{p}</p>" for p in paragraphs)

    question = _sub(quiz, "question", type="cloze")
    _name(question, nummer, " ".join(t if isinstance(t, str) else "___" for t in teile))
    _text_element(question, "questiontext", questiontext)
    _text_element(question, "generalfeedback", _feedback(frage.erklaerung))
    _sub(question, "penalty", "0.3333333")
    _sub(question, "hidden", "0")


def to_moodle_xml(s: h5p.H5PSet) -> bytes:
    """Moodle XML (UTF-8) with a category question and one question per Frage.

    Blanks and DragText become cloze questions with one SHORTANSWER per gap (case-insensitive; Blanks alternatives
    '*a/b*' become several correct answers; H5P tips after ':' are not carried over). Multiple-answer MC gives
    each correct option 100/n % and each wrong one -100/m %, so ticking everything scores 0.
    Raises ExportError (German faults) when the set does not pass validate_h5p.
    """
    fehler = validate_h5p(s)
    if fehler:
        raise ExportError(fehler)
    quiz = ET.Element("quiz")
    category = _sub(quiz, "question", type="category")
    # '/' separates levels in Moodle category paths; '//' is a literal slash inside a name.
    pfad = " ".join(xml_safe(s.titel).split()).replace("/", "//") or "H5P-Übung"
    _sub(_sub(category, "category"), "text", html.escape(f"$course$/top/Werkbank/{pfad}", quote=False))
    _text_element(category, "info", _plain(f"{s.fach}, Klassenstufe {s.klassenstufe}: {s.thema}"))
    for nummer, frage in enumerate(s.fragen, start=1):
        if isinstance(frage, h5p.MultiChoiceFrage):
            _multichoice(quiz, nummer, frage)
        elif isinstance(frage, h5p.TrueFalseFrage):
            _truefalse(quiz, nummer, frage)
        else:
            _cloze(quiz, nummer, frage)
    ET.indent(quiz)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(quiz, encoding="unicode") + "\n").encode()
