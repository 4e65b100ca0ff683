"""Visibility matrix: teacher A vs B (same school) vs C (other school) × own/other class × own/other school × global,
for agent_knowledge, curriculum_chunks and every teacher-owned table — plain queries without WHERE (RLS alone),
repository queries, hybrid search and the Wissenskarte."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.retrieval import search
from core.knowledge.wissenskarte import build_wissenskarte
from db import models as m
from db.session import Identity, act_as

WORD = "Zauberkreisel"  # a made-up word only the matrix rows contain


@dataclass
class World:
    teachers: dict[str, m.Teacher]
    classes: dict[str, m.SchoolClass]
    schools: dict[str, m.School]

    def identity(self, who: str, role: str = "teacher") -> Identity:
        t = self.teachers[who]
        own_class = {"A": "C1", "B": "C2", "C": "C3"}[who]
        return Identity(teacher_id=t.id, school_id=t.school_id, class_ids=(self.classes[own_class].id,), role=role)


# Which matrix rows each teacher may see: own, own class, own school, global.
EXPECTED = {
    "A": {"teacher:A", "class:C1", "school:S1", "global"},
    "B": {"teacher:B", "class:C2", "school:S1", "global"},
    "C": {"teacher:C", "class:C3", "school:S2", "global"},
}
ALL_LABELS = {"teacher:A", "teacher:B", "teacher:C", "class:C1", "class:C2", "class:C3", "school:S1", "school:S2",
              "global"}


def _owned_rows(db: Session, teacher: m.Teacher) -> None:
    """One row in every teacher-owned table."""
    conv = m.Conversation(teacher_id=teacher.id, title=f"Gespräch {teacher.name}")
    db.add(conv)
    db.flush()
    mat = m.GeneratedMaterial(teacher_id=teacher.id, conversation_id=conv.id, material_type="klausur", fach="physik",
                              titel="Probe", content={"x": 1})
    db.add(mat)
    db.flush()
    db.add_all([
        m.ConversationMessage(conversation_id=conv.id, teacher_id=teacher.id, role="user", content="Hallo"),
        m.AgentSession(teacher_id=teacher.id, conversation_id=conv.id, agent_type="klausur",
                       expires_at=datetime.now(UTC) + timedelta(hours=1)),
        m.MaterialFile(material_id=mat.id, teacher_id=teacher.id, kind="docx", filename="a.docx", mime="x", data=b"1"),
        m.Rating(teacher_id=teacher.id, material_id=mat.id, stars=4),
        m.UserMemory(teacher_id=teacher.id, content="mag kurze Aufgaben"),
        m.SessionLog(teacher_id=teacher.id, conversation_id=conv.id, summary="kurz"),
        m.Upload(teacher_id=teacher.id, filename="x.txt", mime="text/plain", size_bytes=1, data=b"x"),
        m.LlmCall(teacher_id=teacher.id, conversation_id=conv.id, role="main", model="offline"),
    ])
    db.flush()


@pytest.fixture
def world(db: Session) -> World:
    act_as(db, Identity.system())
    s1 = m.School(name=f"Schule S1 {uuid.uuid4().hex[:6]}", bundesland="Sachsen", schulform="Gymnasium")
    s2 = m.School(name=f"Schule S2 {uuid.uuid4().hex[:6]}", bundesland="Bayern", schulform="Gymnasium")
    db.add_all([s1, s2])
    db.flush()
    classes = {
        "C1": m.SchoolClass(school_id=s1.id, name="7a", klassenstufe=7, schuljahr="2026/27"),
        "C2": m.SchoolClass(school_id=s1.id, name="7b", klassenstufe=7, schuljahr="2026/27"),
        "C3": m.SchoolClass(school_id=s2.id, name="7a", klassenstufe=7, schuljahr="2026/27"),
    }
    db.add_all(classes.values())
    db.flush()
    teachers = {
        who: m.Teacher(name=f"Lehrkraft {who}", email=f"{who.lower()}-{uuid.uuid4().hex[:8]}@test.de",
                       bundesland="Sachsen", faecher=["physik"], school_id=school.id)
        for who, school in (("A", s1), ("B", s1), ("C", s2))
    }
    db.add_all(teachers.values())
    db.flush()
    for who, cl in (("A", "C1"), ("B", "C2"), ("C", "C3")):
        db.add(m.TeacherClass(teacher_id=teachers[who].id, class_id=classes[cl].id, fach="physik"))
    scopes = {
        "teacher:A": ("teacher", teachers["A"].id), "teacher:B": ("teacher", teachers["B"].id),
        "teacher:C": ("teacher", teachers["C"].id), "class:C1": ("class", classes["C1"].id),
        "class:C2": ("class", classes["C2"].id), "class:C3": ("class", classes["C3"].id),
        "school:S1": ("school", s1.id), "school:S2": ("school", s2.id), "global": ("global", None),
    }
    texts = [f"{WORD}: Berechnen Sie den Strom im {WORD}-Stromkreis ({label})." for label in scopes]
    vectors = embed_documents(texts)
    for (label, (scope_type, scope_id)), text, vec in zip(scopes.items(), texts, vectors, strict=True):
        for kt in ("good_practice", "example"):
            db.add(m.AgentKnowledge(
                agent_type="klausur", scope_type=scope_type, scope_id=scope_id, owner_id=None, fach="physik",
                thema=WORD, knowledge_type=kt, content={"aufgabe": text}, description=f"{WORD} {label}",
                source="system", external_id=f"vis:{kt}:{label}", search_text=text, embedding=vec,
                embedding_model=embedding_model_name(),
            ))
        db.add(m.CurriculumChunk(
            scope_type=scope_type, scope_id=scope_id, bundesland="Sachsen", schulform="Gymnasium", fach="physik",
            klassenstufen=[7], themenfeld="Elektrizitätslehre", thema=WORD, kompetenz=text, quelle="Test",
            external_id=f"vis:lp:{label}", embedding=vec, embedding_model=embedding_model_name(),
        ))
    for t in teachers.values():
        _owned_rows(db, t)
    db.flush()
    return World(teachers=teachers, classes=classes, schools={"S1": s1, "S2": s2})


def _labels(values, prefix: str) -> set[str]:  # noqa: ANN001
    return {v[len(prefix):] for v in values if v and v.startswith(prefix)}


@pytest.mark.parametrize("who", ["A", "B", "C"])
def test_unfiltered_knowledge_query_under_rls_returns_no_foreign_rows(db: Session, world: World, who: str) -> None:
    act_as(db, world.identity(who))
    # No WHERE clause at all: only the policies stand between the teacher and foreign rows.
    ext = db.execute(sa.text("SELECT external_id FROM agent_knowledge")).scalars().all()
    assert _labels(ext, "vis:good_practice:") == EXPECTED[who]
    assert _labels(ext, "vis:example:") == EXPECTED[who]
    chunks = db.execute(sa.text("SELECT external_id FROM curriculum_chunks")).scalars().all()
    assert _labels(chunks, "vis:lp:") == EXPECTED[who]


@pytest.mark.parametrize("table", m.TEACHER_OWNED)
@pytest.mark.parametrize("who", ["A", "B", "C"])
def test_unfiltered_teacher_owned_table_shows_only_own_rows(db: Session, world: World, who: str, table: str) -> None:
    act_as(db, world.identity(who))
    owners = db.execute(sa.text(f"SELECT teacher_id FROM {table}")).scalars().all()  # noqa: S608 - fixed names
    assert owners, f"{table}: the teacher's own row must be visible"
    assert set(owners) == {world.teachers[who].id}


@pytest.mark.parametrize("who", ["A", "B", "C"])
def test_organisation_tables_show_own_school_only(db: Session, world: World, who: str) -> None:
    act_as(db, world.identity(who))
    me = world.teachers[who]
    schools = set(db.execute(sa.text("SELECT id FROM schools")).scalars())
    assert schools == {me.school_id}
    teacher_schools = set(db.execute(sa.text("SELECT school_id FROM teachers")).scalars())
    assert teacher_schools == {me.school_id}
    class_schools = set(db.execute(sa.text("SELECT school_id FROM classes")).scalars())
    assert class_schools == {me.school_id}
    links = set(db.execute(sa.text("SELECT teacher_id FROM teacher_classes")).scalars())
    assert links == {me.id}


@pytest.mark.parametrize("who", ["A", "B", "C"])
def test_hybrid_search_never_returns_foreign_rows(db: Session, world: World, who: str) -> None:
    ident = world.identity(who)
    act_as(db, ident)
    hits = search(db=db, identity=ident, query=f"{WORD} Stromkreis", fach="physik", limit=50)
    assert _labels([h.external_id for h in hits], "vis:good_practice:") == EXPECTED[who]
    chunks = search(db=db, identity=ident, query=f"{WORD} Stromkreis", fach="physik", kind="curriculum", limit=50)
    assert _labels([h.external_id for h in chunks], "vis:lp:") == EXPECTED[who]


def test_search_filters_by_visibility_even_when_rls_would_allow(db: Session, world: World) -> None:
    """Defence in depth: the repository filter alone (acting as system at the DB level) keeps A's view."""
    act_as(db, Identity.system())
    hits = search(db=db, identity=world.identity("A"), query=f"{WORD} Stromkreis", fach="physik", limit=50)
    assert _labels([h.external_id for h in hits], "vis:good_practice:") == EXPECTED["A"]


@pytest.mark.parametrize("who", ["A", "B", "C"])
def test_wissenskarte_counts_only_visible_rows(db: Session, world: World, who: str) -> None:
    ident = world.identity(who)
    act_as(db, ident)
    wk = build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="physik")
    counts = {(c["type"], c["scope"]): c["n"] for c in wk.facts["counts"]}
    assert counts[("good_practice", "teacher")] == 1
    assert counts[("good_practice", "class")] == 1
    assert counts[("good_practice", "school")] == 1
    assert counts[("example", "teacher")] == 1
    assert "1 persönlich, 2 aus Klasse/Schule" in wk.text


def test_teacher_cannot_write_into_another_teachers_scope(db: Session, world: World) -> None:
    act_as(db, world.identity("A"))
    with pytest.raises(sa.exc.ProgrammingError, match="row-level security"), db.begin_nested():
        db.execute(sa.text(
            "INSERT INTO agent_knowledge (agent_type, scope_type, scope_id, owner_id, fach, knowledge_type, content, "
            "source) VALUES ('klausur', 'teacher', :b, :b, 'physik', 'good_practice', '{}', 'generated')"
        ), {"b": world.teachers["B"].id})
    changed = db.execute(sa.text(
        "UPDATE agent_knowledge SET description = 'übernommen' WHERE external_id = 'vis:good_practice:teacher:B'"
    )).rowcount
    assert changed == 0
    deleted = db.execute(sa.text("DELETE FROM conversations")).rowcount
    assert deleted == 1  # only A's own conversation
    act_as(db, Identity.system())
    assert db.scalar(sa.text("SELECT count(*) FROM conversations WHERE teacher_id = :b"),
                     {"b": world.teachers["B"].id}) == 1


def test_curator_sees_global_and_shared_rows_but_not_private_ones(db: Session, world: World) -> None:
    act_as(db, Identity.system())
    db.execute(sa.text(
        "UPDATE agent_knowledge SET shared_for_curation = true WHERE external_id = 'vis:good_practice:teacher:B'"
    ))
    curator = Identity(teacher_id=uuid.uuid4(), role="curator")
    act_as(db, curator)
    ext = db.execute(sa.text("SELECT external_id FROM agent_knowledge")).scalars().all()
    assert _labels(ext, "vis:good_practice:") == {"global", "teacher:B"}


def test_runtime_connection_is_not_owner_and_cannot_bypass_rls(db: Session) -> None:
    row = db.execute(sa.text(
        "SELECT current_user AS me, r.rolsuper, r.rolbypassrls, "
        "(SELECT tableowner FROM pg_tables WHERE tablename = 'agent_knowledge') AS owner "
        "FROM pg_roles r WHERE r.rolname = current_user"
    )).one()
    assert row.me == "werkbank_app"
    assert not row.rolsuper and not row.rolbypassrls
    assert row.owner != row.me


def test_no_identity_sees_only_global_rows(db: Session, world: World) -> None:
    act_as(db, Identity(role="none"))
    ext = db.execute(sa.text("SELECT external_id FROM agent_knowledge")).scalars().all()
    assert _labels(ext, "vis:good_practice:") == {"global"}
    assert db.execute(sa.text("SELECT count(*) FROM conversations")).scalar() == 0
