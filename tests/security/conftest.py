"""Two schools with committed data: school B's teacher (the victim) owns a material with two versions, a
conversation with a trace, a rating, a school note, a private and a school-wide knowledge entry; the attackers act
from school A. Services commit for real, so the world is built once per module with fresh people."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass

import pytest
import sqlalchemy as sa

from core.app.acting import acting
from core.app.service import grant_consent, my_consents
from core.chat.turn import chat_turn
from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.service import add_note
from core.materials.service import rate_my_material
from db import access_models as am
from db import models as m
from db import ops_models as om
from db.session import Identity, unit_of_work
from tests.pages.conftest import fresh_person

ASK = "Klausur Physik für die 10a zu Optik, 45 Minuten"
EXAM = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"


@dataclass(frozen=True)
class Victim:
    token: str  # a made-up word only school B's rows contain
    teacher: uuid.UUID
    school: uuid.UUID
    class_id: uuid.UUID
    material: uuid.UUID
    conversation: uuid.UUID
    file: uuid.UUID
    note: uuid.UUID
    private_entry: uuid.UUID
    school_entry: uuid.UUID
    consent: uuid.UUID  # B let staff read a third entry of hers
    prompt: uuid.UUID  # a prompt version (product data, not B's)
    session: uuid.UUID  # B's Rückfrage, waiting for her answer


def knowledge_entry(teacher: uuid.UUID, scope_type: str, scope_id: uuid.UUID, text: str) -> uuid.UUID:
    with unit_of_work(Identity.system()) as db:
        row = m.AgentKnowledge(
            agent_type="klausur", scope_type=scope_type, scope_id=scope_id, owner_id=teacher, fach="physik",
            thema="Stromkreise", knowledge_type="good_practice", content={"aufgabe": text}, description=text,
            source="conversation", search_text=text, embedding=embed_documents([text])[0],
            embedding_model=embedding_model_name())
        db.add(row)
        db.flush()
        return row.id


@pytest.fixture(scope="module")
def victim(database) -> Victim:  # noqa: ANN001
    token = f"Geheimwort{secrets.token_hex(3)}"
    teacher = fresh_person(name="Test Opfer")
    with acting(teacher) as (db, t, identity):
        r = chat_turn(db=db, identity=identity, teacher=t, message=f"{EXAM} ({token})", conversation_id=None)
        school = t.school_id
    assert r.material_id and r.conversation_id, r.reply
    with acting(teacher) as (db, t, identity):
        waiting = chat_turn(db=db, identity=identity, teacher=t, message=ASK, conversation_id=None)
    assert waiting.session_id, waiting.reply
    rate_my_material(teacher_id=teacher, material_id=r.material_id, stars=4)
    note = add_note(teacher_id=teacher, scope="school", scope_id=str(school), fach="physik",
                    text=f"Die Fachschaft übt {token} im Januar.")
    with unit_of_work(Identity.system()) as db:
        file_id = db.scalar(sa.select(m.MaterialFile.id).where(m.MaterialFile.material_id == r.material_id).limit(1))
        class_id = db.scalar(sa.select(m.TeacherClass.class_id).where(m.TeacherClass.teacher_id == teacher))
        db.execute(sa.update(m.Conversation).where(m.Conversation.id == r.conversation_id)
                   .values(title=f"Stromkreise {token}"))
    consented = knowledge_entry(teacher, "teacher", teacher, "Freigegebene Aufgabe zum Ohmschen Gesetz")
    grant_consent(teacher, "knowledge", consented)
    with unit_of_work(Identity.system()) as db:
        prompt = db.scalar(sa.select(om.PromptVersion.id).where(om.PromptVersion.agent_name == "main").limit(1))
    return Victim(token=token, teacher=teacher, school=school, class_id=class_id, material=r.material_id,
                  conversation=r.conversation_id, file=file_id, note=note.id,
                  private_entry=knowledge_entry(teacher, "teacher", teacher, f"Private Aufgabe {token}"),
                  school_entry=knowledge_entry(teacher, "school", school, f"Schulaufgabe {token}"),
                  consent=my_consents(teacher)[0].id, prompt=prompt, session=uuid.UUID(waiting.session_id))


@pytest.fixture(scope="module")
def attacker(database) -> uuid.UUID:  # noqa: ANN001
    return fresh_person(name="Test Angreifer")


COUNTED = (m.School, m.Teacher, m.GeneratedMaterial, m.MaterialFile, m.Rating, m.AgentKnowledge, m.KnowledgeChange,
           m.Conversation, m.ConversationMessage, m.AgentSession, m.UserMemory, am.StaffConsent, om.PromptVersion)


def snapshot(v: Victim) -> dict[str, object]:
    """Row counts of every table an attack could write to, and a digest of B's own rows."""
    with unit_of_work(Identity.system()) as db:
        counts = {t.__tablename__: db.scalar(sa.select(sa.func.count()).select_from(t)) for t in COUNTED}
        mine = [
            db.execute(sa.select(m.GeneratedMaterial.id, m.GeneratedMaterial.content).where(
                m.GeneratedMaterial.teacher_id == v.teacher).order_by(m.GeneratedMaterial.id)).all(),
            db.execute(sa.select(m.AgentKnowledge.id, m.AgentKnowledge.status, m.AgentKnowledge.quality_score,
                                 m.AgentKnowledge.content, m.AgentKnowledge.scope_type).where(
                m.AgentKnowledge.owner_id == v.teacher).order_by(m.AgentKnowledge.id)).all(),
            db.execute(sa.select(m.Rating.material_id, m.Rating.stars).where(m.Rating.teacher_id == v.teacher)).all(),
            db.execute(sa.select(am.StaffConsent.id, am.StaffConsent.revoked_at).where(
                am.StaffConsent.teacher_id == v.teacher)).all(),
            db.execute(sa.select(om.PromptVersion.id, om.PromptVersion.is_active).order_by(om.PromptVersion.id)).all(),
        ]
    return {"counts": counts, "digest": hashlib.sha256(repr(mine).encode()).hexdigest()}
