"""An uploaded exam or worksheet as the teacher's own `example` knowledge row (teacher scope), with the
message that says what was recognised."""

from __future__ import annotations

import uuid
from pathlib import PurePath

from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.entries import knowledge_text
from core.materials.faecher import fach_name, normalize_fach
from core.uploads.blocks import Block, blocks_text
from core.uploads.documents import stored_blocks
from core.uploads.exam import format_points
from core.uploads.exam_parser import parse_exam
from core.uploads.store import own_upload
from db.models import AgentKnowledge, Teacher, Upload
from db.repos import knowledge as knowledge_repo

EXAMPLE_AGENTS = ("klausur", "differenzierung")


MAX_UNSTRUCTURED_CHARS = 20_000


def check_agent(agent_type: str) -> str:
    if agent_type not in EXAMPLE_AGENTS:
        raise UserError(f"Beispiele gibt es für Klausur und Differenzierung, nicht für „{str(agent_type)[:30]}“.")
    return agent_type


def _no_tasks() -> UserError:
    return UserError(
        "Keine Aufgaben erkannt. Beispiele brauchen nummerierte Aufgaben („Aufgabe 1“, „1.“, „1)“, Teilaufgaben "
        "„a)“). Sie können das Dokument trotzdem als unstrukturiertes Beispiel speichern (dann liest der Assistent "
        "nur den Text) oder es als Lehrplan hochladen. Es wurde nichts gespeichert."
    )


def example_row(*, db: Session, teacher: Teacher, upload: Upload, blocks: list[Block], fach: str | None,
                 agent_type: str, keep_unstructured: bool) -> tuple[AgentKnowledge, list[str]]:
    check_agent(agent_type)
    given = normalize_fach(fach) if fach else None
    text = blocks_text(blocks)
    fach_key = given or parse_exam(text).fach_im_dokument
    if fach_key is None:
        raise UserError("Das Fach steht nicht im Dokument. Bitte das Fach angeben (z. B. Physik).")
    operators = {o["operator"]: o["afb"] for o in knowledge_repo.operator_list(db=db, fach=fach_key)
                 if isinstance(o, dict) and "operator" in o and "afb" in o}
    exam = parse_exam(text, fach_hint=fach_key, operators=operators)
    notes = list(exam.hinweise)
    if given and exam.fach_im_dokument and exam.fach_im_dokument != given:
        notes.append(f"Im Dokument steht {fach_name(exam.fach_im_dokument)}; gespeichert wird es unter "
                     f"{fach_name(given)}, wie angegeben.")
    if exam.aufgaben:
        content = exam.content(quelle_datei=upload.filename, upload_id=upload.id)
    elif keep_unstructured:
        content = {"titel": exam.titel or PurePath(upload.filename).stem, "aufgaben": [],
                   "unstrukturiert": True, "text": text[:MAX_UNSTRUCTURED_CHARS],
                   "quelle_datei": upload.filename, "upload_id": str(upload.id)}
        notes.append("Keine Aufgaben erkannt – als Text gespeichert.")
    else:
        raise _no_tasks()
    external_id = f"upload:{upload.id}"
    if knowledge_repo.find_by_external_id(db=db, external_id=external_id) is not None:
        raise UserError("Diese Datei ist bereits als Beispiel gespeichert.")
    titel = str(content["titel"])[:200]
    # The tasks' own words (sub-tasks included), not file names, ids or AFB labels, are what the example is found by.
    words = [content.get("text") or ""] + [t.text for t in exam.all_tasks()]
    search_text = knowledge_text(content={"text": "\n".join(w for w in words if w)}, description=titel)
    row = knowledge_repo.add_knowledge(
        db=db, agent_type=agent_type, scope_type="teacher", scope_id=teacher.id, owner_id=teacher.id,
        fach=fach_key, thema=None, knowledge_type="example", content=content, description=titel,
        source="upload", external_id=external_id, search_text=search_text,
        embedding=embed_documents([search_text])[0], embedding_model=embedding_model_name(),
    )
    return row, notes


def import_example(*, db: Session, teacher: Teacher, upload_id: uuid.UUID, fach: str | None = None,
                   agent_type: str = "klausur", keep_unstructured: bool = False) -> AgentKnowledge:
    """An uploaded exam/worksheet as the teacher's own `example` (teacher scope); nothing stored on any error.

    Without recognisable tasks this refuses ("Keine Aufgaben erkannt …") unless `keep_unstructured`, which stores
    the plain text as an example marked `unstrukturiert` (the teacher chose it explicitly)."""
    upload = own_upload(db, teacher, upload_id)
    blocks = stored_blocks(upload)
    if not blocks:
        raise UserError("Das Dokument enthält keinen Text. Bitte die richtige Datei wählen.")
    with db.begin_nested():
        row, _ = example_row(db=db, teacher=teacher, upload=upload, blocks=blocks, fach=fach,
                              agent_type=agent_type, keep_unstructured=keep_unstructured)
    return row


def example_message(row: AgentKnowledge, agent_type: str) -> str:
    c = row.content
    tasks = c.get("aufgaben") or []
    if c.get("unstrukturiert"):
        return (f"„{c['titel']}“ als unstrukturiertes Beispiel gespeichert ({fach_name(row.fach)}, "
                f"{agent_type.capitalize()}).")
    subs = sum(len(t.get("teilaufgaben") or []) for t in tasks)
    parts = [f"{len(tasks)} Aufgabe{'n' if len(tasks) != 1 else ''}"]
    if subs:
        parts.append(f"{subs} Teilaufgabe{'n' if subs != 1 else ''}")
    total = c.get("gesamtpunkte")
    if total is None:
        points = [t.get("punkte") if t.get("punkte") is not None
                  else sum(s.get("punkte") or 0 for s in t.get("teilaufgaben") or []) for t in tasks
                  if not t.get("bonus")]
        total = sum(points) if any(points) else None
    if total is not None:
        parts.append(f"{format_points(total)} Punkte")
    return (f"„{c['titel']}“ als eigenes Beispiel gespeichert ({fach_name(row.fach)}, {agent_type.capitalize()}): "
            + ", ".join(parts) + ".")
