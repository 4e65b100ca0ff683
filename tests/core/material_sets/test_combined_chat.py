"""A combined request through the chat: three materials with their files, one ZIP, a named conflict."""

from __future__ import annotations

import io
import uuid
import zipfile

from sqlalchemy.orm import Session

from core.chat.turn import chat_turn
from core.material_sets.archive import combined_zip
from db.repos.materials import files_of
from db.repos.teachers import find_teacher
from tests.conftest import DEMO_TEACHER


def test_combined_request_end_to_end_in_chat(db: Session, as_teacher) -> None:
    ident = as_teacher(DEMO_TEACHER)
    teacher = find_teacher(db=db, ref=DEMO_TEACHER)
    r = chat_turn(db=db, identity=ident, teacher=teacher, message=(
        "Für die 10a: eine Klausur zu Stromkreisen, 45 Minuten, AFB 30/40/30, dazu ein differenziertes Übungsblatt "
        "zur Induktion zur Vorbereitung und ein H5P-Quiz"))
    assert any("generate_material_set" in s for s in r.steps)
    from db.repos.conversations import list_messages

    meta = list_messages(db=db, conversation_id=r.conversation_id)[-1].meta
    ids = [uuid.UUID(i) for i in meta["material_ids"]]
    assert len(ids) == 3
    kinds = {f.kind for mid in ids for f in files_of(db=db, material_id=mid)}
    assert {"schueler_docx", "lehrer_docx", "arbeitsblatt_docx", "h5p", "moodle_xml"} <= kinds
    assert "Induktion" in r.reply and ("nicht" in r.reply or "Widerspruch" in r.reply), r.reply  # the conflict
    with zipfile.ZipFile(io.BytesIO(combined_zip(db=db, material_ids=ids))) as z:
        stored = sum(len(files_of(db=db, material_id=mid)) for mid in ids)
        assert len([n for n in z.namelist() if not n.startswith("0_")]) == stored
