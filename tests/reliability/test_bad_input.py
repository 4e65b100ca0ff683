"""The bad-input catalogue as one table-driven test: every row of bad_input_cases.CASES goes through its channel's
adapter, and for every row: a German message that says what to do (refused) or safe handling (accepted, stored and
shown unchanged); never a traceback in anything shown or printed; refused input leaves every main table as it was.

Adapters call what the pages and the CLI call (core services acting as fresh persons, `core.ops.cli.main`); a few rows
run the real page in AppTest. Prompt-injection rows drive the offline rule models through recording wrappers and
compare the tool calls of main agent and specialist with and without the injected text.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from markdown_it import MarkdownIt
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo
from streamlit.testing.v1 import AppTest

from agents.models.registry import offline_rules, override_models, rules_model
from core.app.errors import UserError
from core.chat.service import Attachment, conversation_log, material_brief, send
from core.curation.service import entry_detail, save_entry
from core.evaluation.service import agent_names, get_version, save_version
from core.knowledge.embeddings import embed_documents, embedding_model_name
from core.knowledge.entries import knowledge_text
from core.knowledge.notes import add_note, visible_notes
from core.knowledge.preferences import load_preferences, save_preferences
from core.knowledge.retrieval import search
from core.materials.klausur import Klausur
from core.materials.service import rate_my_material
from core.ops.cli.main import main as cli_main
from core.uploads.service import import_file
from db.models import AgentKnowledge, Teacher, TeacherClass
from db.session import Identity, unit_of_work
from tests.pages.conftest import app_as, fresh_person
from tests.reliability.bad_input_cases import CASES, EMOJI, HEBREW, REQUEST, SCRIPT, SQL, Case, Lazy
from views.widgets import safe

# --- snapshots: row counts and fingerprints of the main tables, read as the system ------------------------------

TABLES = ("schools", "teachers", "classes", "teacher_classes", "agent_knowledge", "knowledge_changes",
          "curriculum_chunks", "conversations", "conversation_messages", "agent_sessions", "generated_materials",
          "material_files", "ratings", "user_memories", "session_logs", "uploads", "prompt_versions", "eval_runs",
          "llm_calls")
FINGERPRINTS = {  # edits that keep the row count: revisions, settings, ratings, the active prompt
    "agent_knowledge.revisions": "SELECT coalesce(sum(revision), 0) FROM agent_knowledge",
    "agent_knowledge.updated": "SELECT max(updated_at)::text FROM agent_knowledge",
    "conversations.revisions": "SELECT coalesce(sum(revision), 0) FROM conversations",
    "teachers.settings": "SELECT md5(string_agg(coalesce(settings::text, ''), '|' ORDER BY id)) FROM teachers",
    "generated_materials.ratings": "SELECT coalesce(sum(rating), 0) FROM generated_materials",
    "prompt_versions.active": "SELECT md5(string_agg(id::text, '|' ORDER BY id)) FROM prompt_versions "
                              "WHERE is_active",
}
READ_ONLY = ("search", "markdown")  # entry points that must not write anything, even when they accept
_SNAPSHOT = sa.text("SELECT " + ", ".join(
    [f"(SELECT count(*) FROM {t}) AS {t}" for t in TABLES]
    + [f"({sql}) AS \"{name}\"" for name, sql in FINGERPRINTS.items()]))


def snapshot() -> dict[str, Any]:
    with unit_of_work(Identity.system()) as db:
        return dict(db.execute(_SNAPSHOT).mappings().one())


# --- the people and things the rows refer to ($NAME in the table) ---------------------------------------------------


@dataclass
class World:
    teacher: uuid.UUID
    email: str
    class_id: str
    material: str
    other: uuid.UUID
    other_class: str
    other_material: str
    other_conversation: str
    curator: uuid.UUID
    product: uuid.UUID
    entry: uuid.UUID  # a global good practice the curator edits
    baseline: list[tuple[str, str]]  # tool calls of an exam request without any injected text
    clean_upload: list[tuple[str, str]] = field(default_factory=list)

    def fill(self, value: Any) -> Any:
        names = {"$TEACHER_EMAIL": self.email, "$TEACHER_ID": str(self.teacher), "$MATERIAL": self.material,
                 "$OTHER_MATERIAL": self.other_material, "$OTHER_CONVERSATION": self.other_conversation,
                 "$CLASS": self.class_id, "$OTHER_CLASS": self.other_class}
        if isinstance(value, Lazy):
            return value()
        if isinstance(value, str):
            return names.get(value, value)
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        if isinstance(value, dict):
            return {k: self.fill(v) for k, v in value.items()}
        return value


@contextlib.contextmanager
def recording() -> Iterator[list[tuple[str, str]]]:
    """The offline rule models of main agent and specialists, recording every tool call (role, tool name)."""
    calls: list[tuple[str, str]] = []

    def recorder(role: str):  # noqa: ANN202
        rules = offline_rules(role)

        def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
            response = rules(messages, info)
            calls.extend((role, p.tool_name) for p in response.parts if isinstance(p, ToolCallPart))
            return response

        return rules_model(respond)

    with override_models(**{role: recorder(role) for role in ("main", "klausur", "differenzierung", "h5p")}):
        yield calls


def _class_of(person: uuid.UUID) -> str:
    with unit_of_work(Identity.system()) as db:
        return str(db.scalar(sa.select(TeacherClass.class_id).where(TeacherClass.teacher_id == person)))


def _email_of(person: uuid.UUID) -> str:
    with unit_of_work(Identity.system()) as db:
        return db.get(Teacher, person).email


def good_practice(*, owner: uuid.UUID | None, tag: str, aufgabe: str | None = None) -> uuid.UUID:
    """A committed good practice (global when owner is None), embedded like the seeds do it."""
    content = {"themenfeld": "Elektrizitätslehre", "klassenstufe": 10, "operator": "Beschreiben", "afb": "I",
               "punkte": 3, "aufgabe": aufgabe or f"Beschreibe, wie man im Stromkreis {tag} die Stromstärke misst.",
               "erwartung": [{"kriterium": "Amperemeter in Reihe schalten", "punkte": 2},
                             {"kriterium": "Einheit Ampere angeben", "punkte": 1}],
               "kontext": "Erprobt in Klasse 10.", "material": None}
    thema, description = f"Stromkreise {tag}", f"Stromstärke messen im Stromkreis {tag}"
    text = knowledge_text(content=content, thema=thema, description=description)
    with unit_of_work(Identity.system()) as db:
        row = AgentKnowledge(
            agent_type="klausur", scope_type="teacher" if owner else "global", scope_id=owner, owner_id=owner,
            fach="physik", thema=thema, knowledge_type="good_practice", content=content, description=description,
            quality_score=0.9, rating_count=1, source="generated" if owner else "curator", search_text=text,
            embedding=embed_documents([text])[0], embedding_model=embedding_model_name())
        db.add(row)
        db.flush()
        return row.id


@pytest.fixture(scope="module")
def world(database) -> World:  # noqa: ANN001
    teacher = fresh_person(name="Test Eingabe")
    other = fresh_person(name="Test Kollegin")
    mine = send(teacher_id=teacher, message=REQUEST, conversation_id=None)
    with recording() as baseline:
        theirs = send(teacher_id=other, message=REQUEST, conversation_id=None)
    assert mine.material_id and theirs.material_id, (mine.reply, theirs.reply)
    return World(
        teacher=teacher, email=_email_of(teacher), class_id=_class_of(teacher), material=mine.material_id,
        other=other, other_class=_class_of(other), other_material=theirs.material_id,
        other_conversation=str(theirs.conversation_id),
        curator=fresh_person(role="curator", name="Test Kuratorin"),
        product=fresh_person(role="product", name="Test Produkt", faecher=()),
        entry=good_practice(owner=None, tag=uuid.uuid4().hex[:8]), baseline=list(baseline))


# --- adapters: one per entry point ---------------------------------------------------------------------------------


@dataclass
class Outcome:
    message: str | None = None  # the German message shown for refused input
    shown: list[str] = field(default_factory=list)  # everything shown or printed
    stored: dict[str, Any] = field(default_factory=dict)  # what came back from storage (accepted input)


@dataclass
class Env:
    world: World
    capsys: pytest.CaptureFixture[str]
    tmp_path: Path
    state: Any = None  # what the row's setup prepared (before the snapshot)


def refused(exc: UserError) -> Outcome:
    return Outcome(message=exc.message, shown=[exc.message])


def _last_user_message(teacher_id: uuid.UUID) -> str | None:
    with unit_of_work(Identity.system()) as db:
        return db.scalar(sa.text(
            "SELECT content FROM conversation_messages WHERE teacher_id = :t AND role = 'user' "
            "ORDER BY created_at DESC, id DESC LIMIT 1"), {"t": teacher_id})


def chat_adapter(case: Case, env: Env) -> Outcome:
    w = env.world
    conv = w.fill(case.input["conversation_id"])
    try:
        result = send(teacher_id=w.teacher, message=case.input["message"],
                      conversation_id=uuid.UUID(conv) if conv else None)
    except UserError as exc:
        return refused(exc)
    log = conversation_log(teacher_id=w.teacher, conversation_id=result.conversation_id)
    user = [m["content"] for m in log["messages"] if m["role"] == "user"][-1]
    if not any(mark in user for mark in ("<", ">", "![")):  # plain text is shown exactly as typed
        assert safe(user) == user
    return Outcome(shown=[safe(m["content"]) for m in log["messages"]] + result.steps, stored={"text": user})


def attachment_adapter(case: Case, env: Env) -> Outcome:
    w = env.world
    data = w.fill(case.input["data"])
    try:
        result = send(teacher_id=w.teacher, message="Bitte die angehängte Datei beachten.", conversation_id=None,
                      attachments=[Attachment(case.input["filename"], "application/octet-stream", data)])
    except UserError as exc:
        return refused(exc)
    with unit_of_work(Identity.system()) as db:
        row = db.execute(sa.text("SELECT filename, data, extracted_text FROM uploads WHERE teacher_id = :t "
                                 "ORDER BY created_at DESC LIMIT 1"), {"t": w.teacher}).one()
    # the raw file is dropped after parsing (retention, WERKBANK_UPLOAD_KEEP_DAYS); if kept, then byte for byte
    assert row.data is None or bytes(row.data) == data, "the stored file is the uploaded file, byte for byte"
    return Outcome(shown=[result.reply, *result.steps],
                   stored={"filename": row.filename, "text": row.extracted_text or ""})


def _contains(expected: str, haystack: str) -> str:
    return expected if expected in haystack else haystack[:500]


def import_adapter(case: Case, env: Env) -> Outcome:
    w = env.world
    args = {"kind": "example", "fach": "physik", "agent_type": "klausur"}
    args.update({k: v for k, v in case.input.items() if k not in ("filename", "data")})
    try:
        result = import_file(teacher_id=w.teacher, filename=case.input["filename"], data=w.fill(case.input["data"]),
                             **args)
    except UserError as exc:
        return refused(exc)
    with unit_of_work(Identity.system()) as db:
        content = db.get(AgentKnowledge, result.knowledge_id).content if result.knowledge_id else {}
        text = db.scalar(sa.text("SELECT extracted_text FROM uploads WHERE id = :u"), {"u": result.upload_id})
    haystack = json.dumps(content, ensure_ascii=False) + "\n" + (text or "")
    stored = {"filename": result.filename}
    if case.stored and "text_contains" in case.stored:
        stored["text_contains"] = _contains(case.stored["text_contains"], haystack)
    return Outcome(shown=[result.message, *result.hinweise], stored=stored)


def search_adapter(case: Case, env: Env) -> Outcome:
    from core.app.acting import acting

    try:
        with acting(env.world.teacher) as (db, _, identity):
            hits = search(db=db, identity=identity, query=case.input["query"], fach=case.input.get("fach"))
    except UserError as exc:
        return refused(exc)
    return Outcome(shown=[f"{h.title} {h.text}" for h in hits])


def _import_json(world: World, external_id: str) -> bytes:
    return json.dumps([{"fach": "physik", "scope_type": "teacher", "scope_id": str(world.teacher),
                        "external_id": external_id, "description": SQL,
                        "content": {"aufgabe": f"{EMOJI} {HEBREW} {SCRIPT}"}}], ensure_ascii=False).encode("utf-8")


def cli_adapter(case: Case, env: Env) -> Outcome:
    w = env.world
    argv = [w.fill(a) for a in case.input["argv"]]
    if "$FILE" in argv:
        raw = case.input["file"]
        data = _import_json(w, case.input["external_id"]) if raw == "$IMPORT_JSON" else w.fill(raw)
        path = env.tmp_path / "import.json"
        path.write_bytes(data)
        argv[argv.index("$FILE")] = str(path)
    env.capsys.readouterr()
    try:
        code = cli_main(argv)
    except SystemExit as exc:  # argparse errors exit directly
        code = exc.code
    out = env.capsys.readouterr()
    shown = [out.out, out.err]
    if code != 0:
        assert code == 2, f"exit {code}: {out.err}"
        assert out.err.startswith("Fehler:") and len(out.err.strip().splitlines()) == 1, out.err
        return Outcome(message=out.err, shown=shown)
    stored: dict[str, Any] = {}
    if argv[0] == "chat":
        stored["text"] = _last_user_message(w.teacher)
    if argv[0] == "import-knowledge":
        with unit_of_work(Identity.system()) as db:
            row = db.scalar(sa.select(AgentKnowledge).where(AgentKnowledge.external_id == case.input["external_id"]))
            stored = {"description": row.description, "aufgabe": row.content.get("aufgabe")}
    return Outcome(shown=shown, stored=stored)


def preferences_adapter(case: Case, env: Env) -> Outcome:
    w = env.world
    agent, fach = case.input.get("agent_type", "klausur"), case.input.get("fach", "physik")
    try:
        result = save_preferences(teacher_id=w.teacher, agent_type=agent, fach=fach, form=case.input["form"])
    except UserError as exc:
        return refused(exc)
    state = load_preferences(teacher_id=w.teacher, agent_type=agent, fach=fach)
    return Outcome(shown=[result.message, *(f"{v.label} {safe(v.value)} {v.quelle}" for v in state.stored)],
                   stored=state.form.model_dump())


def curation_adapter(case: Case, env: Env) -> Outcome:
    w = env.world
    who = uuid.UUID(w.fill(case.input["as"])) if "as" in case.input else w.curator
    view = entry_detail(curator_id=w.curator, knowledge_id=w.entry)
    edit = dataclasses.replace(view.edit, **case.input["edit"])
    try:
        saved = save_entry(curator_id=who, knowledge_id=w.entry, expected_revision=view.revision, edit=edit)
    except UserError as exc:
        return refused(exc)
    after = entry_detail(curator_id=w.curator, knowledge_id=w.entry)
    return Outcome(shown=[saved.message, after.summary], stored={"aufgabe": after.edit.aufgabe,
                                                                   "thema": after.edit.thema})


def notes_adapter(case: Case, env: Env) -> Outcome:
    w = env.world
    try:
        note = add_note(teacher_id=w.teacher, scope="class", scope_id=w.fill(case.input.get("scope_id", "$CLASS")),
                        fach=case.input.get("fach", "physik"), text=case.input["text"])
    except UserError as exc:
        return refused(exc)
    stored = next(n for n in visible_notes(teacher_id=w.teacher) if n.id == note.id)
    return Outcome(shown=[safe(stored.text)], stored={"text": stored.text})


def rating_adapter(case: Case, env: Env) -> Outcome:
    w = env.world
    try:
        outcome = rate_my_material(teacher_id=w.teacher, material_id=uuid.UUID(w.fill(case.input.get(
            "material_id", "$MATERIAL"))), stars=case.input["stars"])
    except UserError as exc:
        return refused(exc)
    return Outcome(shown=[str(outcome)])


def prompt_adapter(case: Case, env: Env) -> Outcome:
    w = env.world
    who = uuid.UUID(w.fill(case.input["as"])) if "as" in case.input else w.product
    try:
        version = save_version(teacher_id=who, agent_name=case.input.get("agent_name", "klausur"),
                               text=case.input["text"], note="Katalog schlechter Eingaben", activate=False)
    except UserError as exc:
        return refused(exc)
    return Outcome(shown=[version.label], stored={"text": get_version(teacher_id=who, version_id=version.id).text})


_MD = MarkdownIt("commonmark")


def rendered(text: str) -> dict[str, list[str]]:
    """Images and raw HTML that Markdown would render from `text` (CommonMark, as Streamlit's renderer)."""
    found: dict[str, list[str]] = {"images": [], "html": []}

    def walk(tokens: list[Any]) -> None:
        for t in tokens:
            if t.type == "image":
                found["images"].append(str(t.attrs.get("src")))
            elif t.type in ("html_inline", "html_block"):
                found["html"].append(t.content)
            if t.children:
                walk(t.children)

    walk(_MD.parse(text))
    return found


def markdown_adapter(case: Case, env: Env) -> Outcome:
    shown = safe(case.input["text"])
    return Outcome(shown=[shown], stored=rendered(shown))


def inject_upload_adapter(case: Case, env: Env) -> Outcome:
    """The same exam request with an attached file: neutral text vs. instructions to the model."""
    w = env.world
    neutral, person = env.state
    text = case.input["text"]
    if not w.clean_upload:
        with recording() as clean:
            done = send(teacher_id=neutral, message=REQUEST, conversation_id=None,
                        attachments=[Attachment("hinweise.txt", "text/plain", b"Die Klasse experimentiert gern.")])
        assert done.material_id, done.reply
        w.clean_upload = list(clean)
    with recording() as calls:
        result = send(teacher_id=person, message=REQUEST, conversation_id=None,
                      attachments=[Attachment("hinweise.txt", "text/plain", text.encode())])
    assert calls == w.clean_upload, "instructions inside an upload changed the tool calls"
    assert result.material_id, result.reply
    with unit_of_work(Identity.system()) as db:
        stored = db.scalar(sa.text("SELECT extracted_text FROM uploads WHERE teacher_id = :t"), {"t": person})
        memories = db.scalar(sa.text("SELECT count(*) FROM user_memories WHERE teacher_id = :t"), {"t": person})
    assert memories == 0, "no remember() because a file said so"
    return Outcome(shown=[result.reply, *result.steps], stored={"text": stored})


def inject_good_practice_adapter(case: Case, env: Env) -> Outcome:
    """An exam from a teacher whose own good practice carries instructions: same tool calls, a valid exam."""
    w = env.world
    person, entry = env.state
    with recording() as calls:
        result = send(teacher_id=person, message=REQUEST, conversation_id=None)
    assert calls == w.baseline, "an injected good practice changed the tool calls"
    assert result.material_id, result.reply
    view = material_brief(teacher_id=person, material_id=uuid.UUID(result.material_id))
    Klausur.model_validate(view["content"])
    assert str(entry) in json.dumps(view["content"]), "the injected good practice was really read and used"
    assert view["validation"] == [], view["validation"]
    with unit_of_work(Identity.system()) as db:
        aufgabe = db.get(AgentKnowledge, entry).content["aufgabe"]
    return Outcome(shown=[result.reply, *result.steps], stored={"text": aufgabe})


# --- pages (AppTest) ---------------------------------------------------------------------------------------------

MARKDOWN_ELEMENTS = ("markdown", "caption", "info", "error", "success", "warning", "title", "subheader")


def page_texts(at: AppTest) -> list[str]:
    texts = [str(el.value) for kind in (*MARKDOWN_ELEMENTS, "text", "exception") for el in getattr(at, kind)]
    return texts + [b.label for b in at.button]


def page_outcome(at: AppTest, stored: dict[str, Any] | None = None) -> Outcome:
    assert not at.exception, [e.value for e in at.exception]
    for text in [str(el.value) for kind in MARKDOWN_ELEMENTS for el in getattr(at, kind)] + [
            b.label for b in at.button]:  # button labels render Markdown (and images) too
        assert rendered(text) == {"images": [], "html": []}, text
    errors = [e.value for e in at.error]
    return Outcome(message=errors[0] if errors else None, shown=page_texts(at), stored=stored or {})


def page_chat_adapter(case: Case, env: Env) -> Outcome:
    person = env.state
    at = app_as(person, "views/chat.py")
    at.chat_input(key="chat_input").set_value(case.input["message"]).run()
    stored = _last_user_message(person)
    outcome = page_outcome(at, {"text": stored} if stored is not None else {})
    if stored is not None:
        assert any(safe(stored) in t for t in outcome.shown), "the message is shown (escaped, never rendered)"
    return outcome


def page_praeferenzen_adapter(case: Case, env: Env) -> Outcome:
    at = app_as(env.state, "views/praeferenzen.py")
    for i, share in enumerate(case.input["afb"], 1):
        at.number_input(key=f"pf_physik_klausur_afb{i}").set_value(share)
    next(b for b in at.button if b.label == "Speichern").click().run()
    return page_outcome(at)


def page_notizen_adapter(case: Case, env: Env) -> Outcome:
    at = app_as(env.state, "views/notizen.py")
    at.text_area(key="note_text").set_value(case.input["text"])
    next(b for b in at.button if b.label == "Speichern").click().run()
    notes = visible_notes(teacher_id=env.state)
    return page_outcome(at, {"text": notes[0].text} if notes else {})


def page_good_practices_adapter(case: Case, env: Env) -> Outcome:
    curator, entry, tag = env.state
    at = app_as(curator, "views/good_practices.py")
    at.selectbox(key="gp_fach").set_value("physik")
    at.selectbox(key="gp_view").set_value("active")
    at.text_input(key="gp_text").set_value(tag).run()
    at.selectbox(key="gp_entry").set_value(str(entry)).run()
    at.text_area(key=f"gp_{entry}_1_aufgabe").set_value(case.input["aufgabe"])
    at.button(key=f"gp_{entry}_1_save").click().run()
    return page_outcome(at)


def page_prompt_labor_adapter(case: Case, env: Env) -> Outcome:
    at = app_as(env.state, "views/prompt_labor.py", timeout=120)
    at.text_area(key=f"pl_text_{agent_names()[0]}").set_value(case.input["text"])
    at.button(key="pl_save").click().run()
    return page_outcome(at)


def _gp_setup(case: Case, world: World) -> tuple[uuid.UUID, uuid.UUID, str]:
    tag = "bad" + uuid.uuid4().hex[:8]
    return fresh_person(role="curator", name="Test Kuratorin"), good_practice(owner=None, tag=tag), tag


def _injected_gp_setup(case: Case, world: World) -> tuple[uuid.UUID, uuid.UUID]:
    person = fresh_person(name="Test Injektion")
    aufgabe = f"Beschreibe den Stromkreis mit Reihenschaltung. {case.input['text']}"
    return person, good_practice(owner=person, tag="inj", aufgabe=aufgabe)


ADAPTERS: dict[str, Callable[[Case, Env], Outcome]] = {
    "chat": chat_adapter, "attachment": attachment_adapter, "import": import_adapter, "search": search_adapter,
    "cli": cli_adapter, "preferences": preferences_adapter, "curation": curation_adapter, "notes": notes_adapter,
    "rating": rating_adapter, "prompt": prompt_adapter, "markdown": markdown_adapter,
    "inject_upload": inject_upload_adapter, "inject_good_practice": inject_good_practice_adapter,
    "page_chat": page_chat_adapter, "page_praeferenzen": page_praeferenzen_adapter,
    "page_notizen": page_notizen_adapter, "page_good_practices": page_good_practices_adapter,
    "page_prompt_labor": page_prompt_labor_adapter,
}
SETUP: dict[str, Callable[[Case, World], Any]] = {  # fresh persons and entries, made before the snapshot
    "page_chat": lambda case, world: fresh_person(),
    "page_praeferenzen": lambda case, world: fresh_person(),
    "page_notizen": lambda case, world: fresh_person(),
    "page_good_practices": _gp_setup,
    "page_prompt_labor": lambda case, world: fresh_person(role="product", name="Test Produkt", faecher=()),
    "inject_upload": lambda case, world: (fresh_person(), fresh_person()),
    "inject_good_practice": _injected_gp_setup,
}


def _param(case: Case) -> Any:
    marks = [pytest.mark.xfail(reason=case.bug, strict=False)] if case.bug else []
    return pytest.param(case, id=case.id, marks=marks)


def test_catalogue_has_at_least_70_unique_cases_and_few_page_runs() -> None:
    assert len(CASES) >= 70
    assert len({c.id for c in CASES}) == len(CASES)
    assert sum(c.entry.startswith("page_") for c in CASES) <= 10
    assert all(c.bug is None or c.bug.startswith("BUG:") for c in CASES)
    assert {c.entry for c in CASES} == set(ADAPTERS)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_bad_input_gets_a_german_message_or_is_handled_safely(case: Case, world: World,
                                                              capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    setup = SETUP.get(case.entry)
    env = Env(world=world, capsys=capsys, tmp_path=tmp_path, state=setup(case, world) if setup else None)
    before = snapshot()
    outcome = ADAPTERS[case.entry](case, env)
    after = snapshot()

    for text in outcome.shown:
        assert "Traceback" not in text and 'File "' not in text, text
    if case.refused is not None:
        assert outcome.message is not None, f"accepted, but should say: {case.refused}"
        assert case.refused in outcome.message, outcome.message
        assert after == before, {k: (before[k], after[k]) for k in before if before[k] != after[k]}
        return
    assert outcome.message is None, outcome.message
    assert all(after[t] >= before[t] for t in TABLES), "accepted input never removes rows"
    if case.entry in READ_ONLY or case.input.get("argv", [""])[0] == "search":
        assert after == before, "searching and rendering write nothing"
    text = case.input.get("message", case.input.get("text"))
    expected = case.stored if case.stored is not None else ({"text": text} if isinstance(text, str) else {})
    for key, value in expected.items():
        assert outcome.stored.get(key) == value, (key, outcome.stored.get(key))
