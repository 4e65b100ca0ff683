"""„Bitte die Fragen zum Gradnetz dazunehmen“: reviewed bank questions on a named sub-topic appended to the current
H5P quiz as its next version (the quiz's Klassenstufe or below, none it already has), and the quiz's notes that said
the sub-topic was missing dropped. When the bank has no such question, nothing is stored and the teacher is told so."""

from __future__ import annotations

from typing import Any

from agents.deps import TurnContext
from core.composition.candidates import QuizCandidate, quiz_from_row
from core.editing.bank_tasks import Home, stems, topics_named
from core.editing.errors import PatchError
from core.editing.patch import EditOutcome
from core.generation.outcomes import MaterialMade
from core.generation.store import NewVersion, store_material
from core.materials.faecher import normalize_fach
from core.materials.h5p import H5PSet
from core.materials.summaries import version_summary
from core.materials.wording import anzahl as counted
from db.models import GeneratedMaterial
from db.repos import knowledge as knowledge_repo

_FULL = 10  # a quiz of fewer questions is filled up to this many; a fuller one gets _MORE
_MORE = 4


def _candidates(turn: TurnContext, row: GeneratedMaterial, quiz: H5PSet, homes: list[Home]) -> list[QuizCandidate]:
    fach = normalize_fach(row.fach, required=False) or row.fach
    have = {q.ref for q in quiz.quellen} | {" ".join(str(getattr(f, "frage", "") or getattr(f, "text", "")).split())
                                            .casefold() for f in quiz.fragen}
    found: list[QuizCandidate] = []
    for topic in dict.fromkeys(h.topic for h in homes if h.topic):
        for r in knowledge_repo.composer_rows(db=turn.db, identity=turn.identity, fach=fach, agent_type="h5p",
                                              topics=[topic], ids=[]):
            c = quiz_from_row(ref=str(r.id), titel=r.description or r.thema or "", content=r.content or {},
                              scope_type=r.scope_type, source=r.source, quality=float(r.quality_score or 0.5),
                              thema=r.thema)
            text = " ".join(str(c.frage.get("frage") or c.frage.get("text") or "").split()).casefold() if c else ""
            if c is None or c.key in have or text in have or (c.klassenstufe or 0) > quiz.klassenstufe:
                continue
            found.append(c)
    return found


def _rank(c: QuizCandidate, wanted: set[str], unterthema: str | None) -> tuple[int, int, str]:
    text = " ".join(str(v) for v in c.frage.values())
    return (0 if unterthema and c.unterthema == unterthema else 1, -len(wanted & stems(f"{c.unterthema} {text}")),
            c.key)


def _notes(quiz: H5PSet, wanted: set[str]) -> list[str]:
    """The quiz's notes without those the added questions make untrue (the sub-topic missing, too few questions)."""
    return [n for n in quiz.hinweise_lehrkraft if not (wanted & stems(n) or n.startswith("Nur "))]


def add_questions(*, turn: TurnContext, row: GeneratedMaterial, thema: str, anzahl: int | None = None) -> EditOutcome:
    """Bank questions on `thema` (`anzahl` of them, else enough to fill the quiz) appended to the quiz `row` as its
    next version; PatchError (German) when none."""
    quiz = H5PSet.model_validate(row.content)
    coverage = list((knowledge_repo.coverage_for(db=turn.db, fach=normalize_fach(row.fach, required=False)
                                                 or row.fach) or {}).get("topics") or [])
    homes = topics_named(coverage, thema)
    homes = [h for h in homes if h.topic == homes[0].topic] if homes else []
    wanted = stems(thema)
    unterthema = homes[0].unterthema if homes else None
    found = sorted(_candidates(turn, row, quiz, homes), key=lambda c: _rank(c, wanted, unterthema))
    found = [c for c in found if _rank(c, wanted, unterthema)[1] < 0 or (unterthema and c.unterthema == unterthema)]
    n = max(1, min(anzahl, 20)) if anzahl else max(_MORE, _FULL - len(quiz.fragen))
    chosen = found[:n]
    if not chosen:
        raise PatchError(f"Zu „{thema}“ hat die geprüfte Aufgabensammlung für Klasse {quiz.klassenstufe} keine "
                         "weiteren Fragen, die noch nicht in der Übung stehen – es wurde nichts gespeichert. Sie "
                         "können mir Fragen im Chat vorgeben oder die Übung mit einem anderen Thema neu erzeugen "
                         "lassen.")
    data: dict[str, Any] = quiz.model_dump(mode="json")
    data["fragen"] += [c.gezeigt() for c in chosen]
    data["quellen"] += [c.quelle.model_dump(mode="json") for c in chosen]
    data["hinweise_lehrkraft"] = _notes(quiz, wanted)
    new = H5PSet.model_validate(data)
    said = (f"Ergänzt: {counted(len(chosen), 'geprüfte Frage')} zu „{thema}“ "
            f"(jetzt {counted(len(new.fragen), 'Frage')}).")
    if len(found) < n:
        said += f" Mehr passende Fragen zu „{thema}“ gibt es für Klasse {quiz.klassenstufe} nicht."
    outcome = store_quiz(turn, row, new, [f"{counted(len(chosen), 'geprüfte Frage')} zu „{thema}“ angefügt"])
    return outcome.said_first(said)


def store_quiz(turn: TurnContext, row: GeneratedMaterial, material: H5PSet, changes: list[str]) -> EditOutcome:
    """`material` stored as the next version of the quiz `row`, with fresh files and the version summary."""
    bearbeitung = {"art": "patch", "von_version": row.version, "von_material": str(row.id), "aenderungen": changes}
    request = {k: v for k, v in (row.request or {}).items() if k != "bearbeitung"}
    new_row, files = store_material(turn, material, material_type=row.material_type, fach=row.fach, request=request,
                                    faults=[], model_name=row.model_name, afb_ziel=None,
                                    version_of=NewVersion(parent=row, bearbeitung=bearbeitung))
    labels = [f.label for f in files]
    text = version_summary(material, material_id=new_row.id, version=new_row.version, afb_ziel=None, files=labels,
                           changes=changes, faults=[], parent_version=row.version)
    turn.outcomes.append(MaterialMade(material_id=new_row.id, titel=material.titel, material_type=row.material_type,
                                      files=[f.filename for f in files], validation=[], version=new_row.version,
                                      parent_id=row.id))
    turn.step(f"Bearbeitung: Version {new_row.version} von {material.titel} gespeichert")
    return EditOutcome(material_id=new_row.id, parent_id=row.id, version=new_row.version, titel=material.titel,
                       changes=changes, faults=[], files=labels, text=text)
