"""Export of an H5PSet as a real .h5p package (h5p.json + content/content.json) and a text summary for previews.

Content only, no library code: the target platform (Moodle, WordPress, Lumi …) must have the pinned libraries.
"""

from __future__ import annotations

import html
import io
import json
import re
import uuid
import zipfile
from collections import Counter
from typing import Any

from core.checks.structure import validate_h5p
from core.exports.xml_text import ExportError, xml_safe
from core.materials.h5p import (
    FRAGETYP_NAMEN,
    BlanksFrage,
    DragTextFrage,
    H5PFrage,
    H5PSet,
    MultiChoiceFrage,
    TrueFalseFrage,
    zerlege_lueckentext,
)
from core.materials.wording import anzahl

# Pinned library versions (machineName, major, minor). The content.json parameter names below follow each library's
# semantics.json at these versions (h5p/h5p-multi-choice, -true-false, -blanks, -drag-text, -question-set):
#   MultiChoice 1.16: question, answers[].{text, correct, tipsAndFeedback.{tip, chosenFeedback, notChosenFeedback}},
#                     overallFeedback[], behaviour.{type single|multi, singlePoint, randomAnswers, …}, UI.*
#   TrueFalse 1.8:    question, correct ("true"/"false" as *strings*), behaviour.*, l10n.*
#   Blanks 1.14:      text (task description), questions[] (HTML lines with *gap/alt:tip*), behaviour.caseSensitive, …
#   DragText 1.10:    taskDescription, textField (plain textarea with *draggable:tip*), distractors, behaviour.*
#   QuestionSet 1.20: introPage, progressType, passPercentage, questions[] of {library, params, subContentId,
#                     metadata}, texts.*, endGame.*, override.*
LIBRARIES: dict[str, tuple[str, int, int]] = {
    "multichoice": ("H5P.MultiChoice", 1, 16),
    "truefalse": ("H5P.TrueFalse", 1, 8),
    "blanks": ("H5P.Blanks", 1, 14),
    "dragtext": ("H5P.DragText", 1, 10),
}
QUESTION_SET: tuple[str, int, int] = ("H5P.QuestionSet", 1, 20)

_ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # fixed timestamps: the same set always gives the same bytes
_SUBCONTENT_NAMESPACE = uuid.UUID("6f1f3c5e-4b0a-4d8e-9a57-5e2b8f0c7a11")

_CONFIRM_CHECK = {
    "header": "Beenden?",
    "body": "Bist du sicher, dass du beenden möchtest?",
    "cancelLabel": "Abbrechen",
    "confirmLabel": "Beenden",
}
_CONFIRM_RETRY = {
    "header": "Wiederholen?",
    "body": "Bist du sicher, dass du es noch einmal versuchen möchtest?",
    "cancelLabel": "Abbrechen",
    "confirmLabel": "Bestätigen",
}
_A11Y = {
    "a11yCheck": "Die Antworten überprüfen. Sie werden als richtig, falsch oder unbeantwortet markiert.",
    "a11yShowSolution": "Die Lösung anzeigen. Die richtigen Antworten werden markiert.",
    "a11yRetry": "Die Aufgabe wiederholen. Alle Antworten werden zurückgesetzt.",
}
_SCORE_BAR = "Du hast :num von :total Punkten erreicht."


def library_string(library: tuple[str, int, int]) -> str:
    name, major, minor = library
    return f"{name} {major}.{minor}"


def _text(text: str) -> str:
    """Plain text for an H5P text field: XML-safe and HTML-escaped, so '<script>' shows as text, not markup."""
    return html.escape(xml_safe(text).strip(), quote=False)


def _paragraphs(text: str) -> str:
    """Plain text as <p> paragraphs (one per line): 'p' is allowed in every field whose enterMode is 'p'."""
    lines = [line for line in xml_safe(text).splitlines() if line.strip()] or [""]
    return "".join(f"<p>{html.escape(line.strip(), quote=False)}</p>" for line in lines)


_VERDICT = re.compile(r"^\s*(richtig|falsch|stimmt( nicht)?|wahr|korrekt|true|false|right|wrong)\b\s*[:!.,–-]*\s*",
                      re.I)


def explanation(erklaerung: str | None) -> str:
    """The explanation without a leading verdict ('Falsch: Die Sonne …' -> 'Die Sonne …'): the feedback says
    itself whether the answer was right, so 'Richtig! Falsch: …' cannot happen."""
    text = (erklaerung or "").strip()
    rest = _VERDICT.sub("", text, count=1).strip()
    return (rest[:1].upper() + rest[1:]) if rest else text


def _overall(erklaerung: str | None) -> list[dict[str, Any]]:
    """Score-range feedback: the explanation after every answer, with a word on whether it was all right."""
    if not erklaerung or not explanation(erklaerung):
        return [{"from": 0, "to": 100}]
    text = _text(explanation(erklaerung))
    return [{"from": 0, "to": 99, "feedback": f"Noch nicht ganz. {text}"},
            {"from": 100, "to": 100, "feedback": f"Richtig! {text}"}]


def _multichoice(frage: MultiChoiceFrage) -> dict[str, Any]:
    return {
        "media": {"disableImageZooming": False},
        "question": _paragraphs(frage.frage),
        "answers": [
            {
                "text": _text(antwort.text),
                "correct": antwort.korrekt,
                "tipsAndFeedback": {
                    "tip": "",
                    "chosenFeedback": _text(antwort.feedback) if antwort.feedback else "",
                    "notChosenFeedback": "",
                },
            }
            for antwort in frage.antworten
        ],
        "overallFeedback": _overall(frage.erklaerung),
        "behaviour": {
            "enableRetry": True,
            "enableSolutionsButton": True,
            "enableCheckButton": True,
            "type": "multi" if frage.mehrfach else "single",
            "singlePoint": False,
            "randomAnswers": True,
            "showSolutionsRequiresInput": True,
            "confirmCheckDialog": False,
            "confirmRetryDialog": False,
            "autoCheck": False,
            "passPercentage": 100,
            "showScorePoints": True,
        },
        "UI": {
            "checkAnswerButton": "Überprüfen",
            "submitAnswerButton": "Absenden",
            "showSolutionButton": "Lösung anzeigen",
            "tryAgainButton": "Wiederholen",
            "tipsLabel": "Tipp anzeigen",
            "scoreBarLabel": _SCORE_BAR,
            "tipAvailable": "Tipp verfügbar",
            "feedbackAvailable": "Rückmeldung verfügbar",
            "readFeedback": "Rückmeldung vorlesen",
            "wrongAnswer": "Falsche Antwort",
            "correctAnswer": "Richtige Antwort",
            "shouldCheck": "Hätte ausgewählt werden müssen",
            "shouldNotCheck": "Hätte nicht ausgewählt werden dürfen",
            "noInput": "Bitte antworte, bevor du dir die Lösung ansiehst.",
            **_A11Y,
        },
        "confirmCheck": _CONFIRM_CHECK,
        "confirmRetry": _CONFIRM_RETRY,
    }


def _truefalse(frage: TrueFalseFrage) -> dict[str, Any]:
    return {
        "media": {"disableImageZooming": False},
        "question": _paragraphs(frage.frage),
        "correct": "true" if frage.wahr else "false",
        "behaviour": {
            "enableRetry": True,
            "enableSolutionsButton": True,
            "enableCheckButton": True,
            "confirmCheckDialog": False,
            "confirmRetryDialog": False,
            "autoCheck": False,
            "feedbackOnCorrect": _text(f"Richtig! {explanation(frage.erklaerung)}") if frage.erklaerung else "",
            "feedbackOnWrong": _text(f"Leider nicht. {explanation(frage.erklaerung)}") if frage.erklaerung else "",
        },
        "l10n": {
            "trueText": "Richtig",
            "falseText": "Falsch",
            "score": "Du hast @score von @total Punkten erreicht.",
            "checkAnswer": "Überprüfen",
            "submitAnswer": "Absenden",
            "showSolutionButton": "Lösung anzeigen",
            "tryAgain": "Wiederholen",
            "wrongAnswerMessage": "Falsche Antwort",
            "correctAnswerMessage": "Richtige Antwort",
            "scoreBarLabel": _SCORE_BAR,
            **_A11Y,
        },
        "confirmCheck": _CONFIRM_CHECK,
        "confirmRetry": _CONFIRM_RETRY,
    }


def _blanks(frage: BlanksFrage) -> dict[str, Any]:
    return {
        "media": {"disableImageZooming": False},
        "text": "<p>Ergänze die fehlenden Wörter.</p>",
        "questions": [_paragraphs(frage.text)],
        "overallFeedback": _overall(frage.erklaerung),
        "showSolutions": "Lösung anzeigen",
        "tryAgain": "Wiederholen",
        "checkAnswer": "Überprüfen",
        "submitAnswer": "Absenden",
        "notFilledOut": "Bitte fülle alle Lücken aus, um die Lösung zu sehen.",
        "answerIsCorrect": "„:ans“ ist richtig.",
        "answerIsWrong": "„:ans“ ist falsch.",
        "answeredCorrectly": "Richtig beantwortet",
        "answeredIncorrectly": "Falsch beantwortet",
        "solutionLabel": "Richtige Antwort:",
        "inputLabel": "Lücke @num von @total",
        "inputHasTipLabel": "Tipp verfügbar",
        "tipLabel": "Tipp",
        "behaviour": {
            "enableRetry": True,
            "enableSolutionsButton": True,
            "enableCheckButton": True,
            "autoCheck": False,
            # Moodle's SHORTANSWER export is case-insensitive too; both exports grade the same answers as right.
            "caseSensitive": False,
            "showSolutionsRequiresInput": True,
            "separateLines": False,
            "confirmCheckDialog": False,
            "confirmRetryDialog": False,
            "acceptSpellingErrors": False,
        },
        "scoreBarLabel": _SCORE_BAR,
        **_A11Y,
        "confirmCheck": _CONFIRM_CHECK,
        "confirmRetry": _CONFIRM_RETRY,
    }


def _dragtext(frage: DragTextFrage) -> dict[str, Any]:
    return {
        "taskDescription": "<p>Ziehe die Wörter in die passenden Lücken.</p>",
        # textarea field: H5P stores it HTML-escaped itself (htmlspecialchars), so escaping here matches its format.
        "textField": html.escape(xml_safe(frage.text).strip(), quote=False),
        "distractors": "",
        "overallFeedback": _overall(frage.erklaerung),
        "checkAnswer": "Überprüfen",
        "submitAnswer": "Absenden",
        "tryAgain": "Wiederholen",
        "showSolution": "Lösung anzeigen",
        "dropZoneIndex": "Ablagefeld @index.",
        "empty": "Ablagefeld @index ist leer.",
        "contains": "Ablagefeld @index enthält @draggable.",
        "ariaDraggableIndex": "@index von @count verschiebbaren Elementen.",
        "tipLabel": "Tipp anzeigen",
        "correctText": "Richtig!",
        "incorrectText": "Falsch!",
        "resetDropTitle": "Ablagefeld leeren",
        "resetDropDescription": "Möchtest du dieses Ablagefeld wirklich leeren?",
        "grabbed": "Element aufgenommen.",
        "cancelledDragging": "Verschieben abgebrochen.",
        "correctAnswer": "Richtige Antwort:",
        "feedbackHeader": "Rückmeldung",
        "behaviour": {
            "enableRetry": True,
            "enableSolutionsButton": True,
            "enableCheckButton": True,
            "instantFeedback": False,
        },
        "scoreBarLabel": _SCORE_BAR,
        **_A11Y,
    }


def _params(frage: H5PFrage) -> dict[str, Any]:
    if isinstance(frage, MultiChoiceFrage):
        return _multichoice(frage)
    if isinstance(frage, TrueFalseFrage):
        return _truefalse(frage)
    if isinstance(frage, BlanksFrage):
        return _blanks(frage)
    return _dragtext(frage)


def _question_set(s: H5PSet) -> dict[str, Any]:
    questions = []
    for index, frage in enumerate(s.fragen, start=1):
        seed = f"{s.titel}\n{index}\n{frage.model_dump_json(exclude={'quelle'})}"  # ids as before 055
        questions.append(
            {
                "library": library_string(LIBRARIES[frage.typ]),
                "params": _params(frage),
                "subContentId": str(uuid.uuid5(_SUBCONTENT_NAMESPACE, seed)),
                "metadata": {"contentType": FRAGETYP_NAMEN[frage.typ], "license": "U", "title": f"Frage {index}"},
            }
        )
    return {
        "introPage": {"showIntroPage": False, "title": _text(s.titel), "startButtonText": "Quiz starten"},
        "progressType": "textual",
        "passPercentage": 50,
        "questions": questions,
        "texts": {
            "prevButton": "Zurück",
            "nextButton": "Weiter",
            "finishButton": "Beenden",
            "submitButton": "Absenden",
            "textualProgress": "Frage @current von @total",
            "jumpToQuestion": "Frage %d von %total",
            "questionLabel": "Frage",
            "readSpeakerProgress": "Frage @current von @total",
            "unansweredText": "Unbeantwortet",
            "answeredText": "Beantwortet",
            "currentQuestionText": "Aktuelle Frage",
            "navigationLabel": "Fragen",
        },
        "disableBackwardsNavigation": False,
        "randomQuestions": False,
        "endGame": {
            "showResultPage": True,
            "showSolutionButton": True,
            "showRetryButton": True,
            "noResultMessage": "Fertig",
            "message": "Dein Ergebnis:",
            "scoreBarLabel": _SCORE_BAR,
            "overallFeedback": [{"from": 0, "to": 100}],
            "solutionButtonText": "Lösung anzeigen",
            "retryButtonText": "Wiederholen",
            "finishButtonText": "Beenden",
            "submitButtonText": "Absenden",
            "showAnimations": False,
            "skippable": False,
            "skipButtonText": "Video überspringen",
        },
        "override": {"checkButton": True},
    }


def main_library(s: H5PSet) -> tuple[str, int, int]:
    """The content type the set exports as: a single question as its own type, several as a QuestionSet.

    (Several questions of one type still need a QuestionSet: MultiChoice and TrueFalse hold one question each.)
    """
    if len(s.fragen) == 1:
        return LIBRARIES[s.fragen[0].typ]
    return QUESTION_SET


def build_package(s: H5PSet) -> bytes:
    """The .h5p zip. Raises ExportError (German faults) when the set does not pass validate_h5p."""
    fehler = validate_h5p(s)
    if fehler:
        raise ExportError(fehler)
    main = main_library(s)
    content = _params(s.fragen[0]) if main != QUESTION_SET else _question_set(s)
    used = [main]
    if main == QUESTION_SET:
        used += [LIBRARIES[typ] for typ in sorted({f.typ for f in s.fragen})]
    manifest = {
        "title": xml_safe(s.titel).strip()[:255] or "H5P-Übung",
        "language": "de",
        "defaultLanguage": "de",
        "mainLibrary": main[0],
        "embedTypes": ["iframe"],
        "license": "U",
        "preloadedDependencies": [
            {"machineName": name, "majorVersion": major, "minorVersion": minor} for name, major, minor in used
        ],
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in (("h5p.json", manifest), ("content/content.json", content)):
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, json.dumps(data, ensure_ascii=False, indent=2))
    return buffer.getvalue()


def _lueckentext_vorschau(frage: BlanksFrage | DragTextFrage) -> str:
    teile = zerlege_lueckentext(frage.text, alternativen=isinstance(frage, BlanksFrage))
    text = "".join(t if isinstance(t, str) else "[" + " / ".join(t.antworten) + "]" for t in teile)
    return " ".join(text.split())


def summary(s: H5PSet) -> list[str]:
    """Plain-text lines describing the set with its solutions, for the in-app preview.

    The lines carry the raw texts (a question may contain "<" or "*"): show them as text (st.text, st.code or
    escaped markdown), never as HTML.
    """
    lines = [f"{s.titel} – {s.fach}, Klassenstufe {s.klassenstufe}, Thema: {s.thema}"]
    if not s.fragen:
        return [*lines, "Keine Fragen."]
    counts = Counter(FRAGETYP_NAMEN[f.typ] for f in s.fragen)
    fragen = anzahl(len(s.fragen), "Frage")
    typen = ", ".join(f"{n} × {typ}" for typ, n in counts.items())
    lines.append(f"Export als {library_string(main_library(s))} mit {fragen}: {typen}")
    for nummer, frage in enumerate(s.fragen, start=1):
        typ = FRAGETYP_NAMEN[frage.typ]
        if isinstance(frage, MultiChoiceFrage):
            art = " (mehrere Antworten richtig)" if frage.mehrfach else ""
            lines.append(f"{nummer}. [{typ}{art}] {' '.join(frage.frage.split())}")
            lines += [f"   {'✓' if a.korrekt else '✗'} {' '.join(a.text.split())}" for a in frage.antworten]
        elif isinstance(frage, TrueFalseFrage):
            lines.append(f"{nummer}. [{typ}] {' '.join(frage.frage.split())} → {'richtig' if frage.wahr else 'falsch'}")
        else:
            lines.append(f"{nummer}. [{typ}] {_lueckentext_vorschau(frage)}")
    return [xml_safe(line) for line in lines]
