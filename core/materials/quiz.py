"""The H5P set as a pupil plays it on the page: each question as something to answer (choices, true/false, gaps),
checked with H5P's rules (every correct choice and no wrong one; a gap accepts its alternatives, case-insensitive),
with the question's feedback and a score."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.materials import h5p


@dataclass(frozen=True)
class QuizItem:
    kind: str  # "choice" (one answer), "choices" (several), "truefalse", "gaps"
    prompt: str  # the question; for gaps the text with "___ (1)", "___ (2)" …
    options: list[str] = field(default_factory=list)  # choices; for drag text the words to place
    solution: list[str] = field(default_factory=list)  # correct options, "richtig"/"falsch", or each gap's answers
    accepted: list[list[str]] = field(default_factory=list)  # per gap: every accepted answer
    feedback: str = ""


@dataclass(frozen=True)
class QuizResult:
    correct: list[bool]
    feedback: list[str]

    @property
    def score(self) -> str:
        return f"{sum(self.correct)} von {len(self.correct)} richtig"


def _gaps(text: str, alternativen: bool) -> tuple[str, list[h5p.Luecke]]:
    parts = h5p.zerlege_lueckentext(text, alternativen=alternativen)
    gaps = [p for p in parts if isinstance(p, h5p.Luecke)]
    numbered, n = [], 0
    for p in parts:
        if isinstance(p, h5p.Luecke):
            n += 1
            numbered.append(f"___ ({n})")
        else:
            numbered.append(p)
    return "".join(numbered), gaps


def quiz_items(quiz: h5p.H5PSet) -> list[QuizItem]:
    items = []
    for f in quiz.fragen:
        if isinstance(f, h5p.MultiChoiceFrage):
            items.append(QuizItem(kind="choices" if f.mehrfach else "choice", prompt=f.frage,
                                  options=[a.text for a in f.antworten],
                                  solution=[a.text for a in f.antworten if a.korrekt], feedback=f.erklaerung or ""))
        elif isinstance(f, h5p.TrueFalseFrage):
            items.append(QuizItem(kind="truefalse", prompt=f.frage, options=["richtig", "falsch"],
                                  solution=["richtig" if f.wahr else "falsch"], feedback=f.erklaerung or ""))
        elif isinstance(f, h5p.BlanksFrage | h5p.DragTextFrage):
            prompt, gaps = _gaps(f.text, alternativen=isinstance(f, h5p.BlanksFrage))
            words = sorted(g.antworten[0] for g in gaps) if isinstance(f, h5p.DragTextFrage) else []
            items.append(QuizItem(kind="gaps", prompt=prompt, options=words, solution=[g.antworten[0] for g in gaps],
                                  accepted=[list(g.antworten) for g in gaps], feedback=f.erklaerung or ""))
    return items


def _norm(text: str) -> str:
    return " ".join(str(text or "").split()).casefold()


def check_quiz(items: list[QuizItem], answers: list[object]) -> QuizResult:
    """Each answer checked: a choice (str), several choices (list), 'richtig'/'falsch', or the gaps' texts (list)."""
    correct, feedback = [], []
    for item, answer in zip(items, answers, strict=True):
        if item.kind == "gaps":
            given = list(answer or []) if isinstance(answer, list | tuple) else []
            ok = len(given) == len(item.accepted) and all(
                _norm(g) in {_norm(a) for a in acc} for g, acc in zip(given, item.accepted, strict=True))
        elif item.kind == "choices":
            ok = set(answer or []) == set(item.solution) if isinstance(answer, list | tuple) else False
        else:
            ok = answer == item.solution[0]
        correct.append(ok)
        lead = "Richtig." if ok else "Leider nicht richtig – Lösung: " + ", ".join(item.solution) + "."
        feedback.append(f"{lead} {item.feedback}".strip())
    return QuizResult(correct=correct, feedback=feedback)
