"""Quiz questions its authors filed under the requested topic are on topic by their filing (decision 055), as exam
tasks are (044): each composed question names the bank item it shows, and the final gate trusts that item's topic
only when the item exists and holds exactly this question. Requests written for these tests, composed from the real
seeded bank; the counts come from the bank itself, not from a run."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo
from sqlalchemy.orm import Session

from agents.models.registry import offline_rules, override_models, rules_model
from core.chat.turn import chat_turn
from core.checks.gate import check_material
from core.composition import service as svc
from core.composition.candidates import quiz_from_row
from core.composition.filters import level_ok
from core.composition.h5p import QuizComposition
from core.composition.provenance import vouched_questions
from core.exports.h5p import build_package
from core.exports.moodle import to_moodle_xml
from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract
from core.materials.h5p import H5PSet
from core.materials.request import MaterialRequest
from core.materials.service import material_view
from db.models import AgentKnowledge
from db.repos.teachers import find_teacher
from db.session import Identity
from tests.conftest import DEMO_TEACHER

IF_CLAUSES = "H5P-Quiz Englisch Klasse 8 zu if-clauses, 10 Fragen"


def _request(text: str) -> MaterialRequest:
    e = extract(text, topic_terms=seeded_lexicon().terms)
    return MaterialRequest(fach=e.fach, thema=e.thema, klassenstufe=e.klassenstufe, material_type="h5p",
                           unterthemen=list(e.unterthemen), zusatz=text, niveau=e.niveau)


def _quiz(db: Session, r: MaterialRequest) -> QuizComposition:
    return svc.compose_quiz(db=db, identity=Identity.system(), fach=r.fach, themenfelder={}, request=r)


def _bank_questions(db: Session, topic: str, klassenstufe: int) -> dict[str, object]:
    """The bank's usable quiz questions filed under `topic` for this class, by ref (what a teacher could be given)."""
    rows = db.scalars(sa.select(AgentKnowledge).where(AgentKnowledge.agent_type == "h5p",
                                                      AgentKnowledge.scope_type == "global",
                                                      AgentKnowledge.content["topic"].astext == topic))
    out = {}
    for row in rows:
        c = quiz_from_row(ref=str(row.id), titel=row.description or "", content=row.content or {},
                          scope_type=row.scope_type, source=row.source, quality=0.5, thema=row.thema)
        if c is not None and level_ok(c.klassenstufe, None, wanted=klassenstufe, kurs=None):
            out[c.key] = c
    return out


def _gate(db: Session, r: MaterialRequest, quiz: H5PSet, *, trusted: bool) -> list[str]:
    topic = svc.topic_context_for(db=db, fach=r.fach, themenfelder={}, request=r)
    vouched = vouched_questions(db=db, identity=Identity.system(), quiz=quiz, wanted={t.id for t in topic.resolved},
                                thema=r.thema, unterthemen=r.unterthemen, klassenstufe=r.klassenstufe,
                                kurs=r.niveau) if trusted else set()
    return [f.line() for f in check_material(quiz, request=r, topic=topic, vouched=vouched)]


def test_if_clause_quiz_has_ten_questions_all_from_if_clause_items(db: Session) -> None:
    """The teachers' trial: „If it rains tomorrow, we ___ at home.“ does not name its topic, so the word checks gave
    5 to 8 questions and said there were no more, while the bank has over 20 reviewed if-clause questions."""
    r = _request(IF_CLAUSES)
    bank = _bank_questions(db, "if-clauses", 8)
    assert len(bank) >= 10  # what makes a full quiz possible at all
    quiz = _quiz(db, r).material
    assert quiz is not None
    assert len(quiz.fragen) == 10
    assert all(f.quelle in bank for f in quiz.fragen), [f.quelle for f in quiz.fragen]
    for f in quiz.fragen:  # each shows its item's question as it is
        item = bank[f.quelle].frage
        assert (getattr(f, "frage", None) or f.text) == (item.get("frage") or item.get("text")), f
    assert not [n for n in quiz.hinweise_lehrkraft if "gibt es" in n], quiz.hinweise_lehrkraft
    # the final gate vouches for the same questions; their words alone would not carry them
    assert _gate(db, r, quiz, trusted=True) == []
    assert [x for x in _gate(db, r, quiz, trusted=False) if "nicht zum Thema" in x]


def test_a_quiz_asking_for_more_than_the_bank_has_says_how_many_there_are(db: Session) -> None:
    """Fewer on-topic questions than asked: the quiz holds all of them, and its note's count is the bank's."""
    r = _request("Quiz Englisch Klasse 8 if-clauses, 40 Fragen")
    bank = _bank_questions(db, "if-clauses", 8)
    assert 10 <= len(bank) < 40
    quiz = _quiz(db, r).material
    assert quiz is not None
    n = len(quiz.fragen)
    used = {f.quelle for f in quiz.fragen} & set(bank)
    assert len(used) >= len(bank) - 2, (len(used), len(bank))  # near-repeats aside (core.checks.duplicates)
    assert quiz.hinweise_lehrkraft[0].startswith(f"Nur {n} statt 40 Fragen"), quiz.hinweise_lehrkraft


def test_a_named_part_is_vouched_for_only_by_questions_filed_under_it(db: Session) -> None:
    """A question filed under the topic but under another part than the one named is not trusted for that part."""
    r = _request(IF_CLAUSES)
    quiz = _quiz(db, r).material
    assert quiz is not None
    typ1 = r.model_copy(update={"unterthemen": ["if-clauses type 1"]})
    bank = _bank_questions(db, "if-clauses", 8)
    vouched = vouched_questions(db=db, identity=Identity.system(), quiz=quiz, wanted={"if-clauses"},
                                thema=typ1.thema, unterthemen=typ1.unterthemen, klassenstufe=8, kurs=None)
    cited = {f.quelle for f in quiz.fragen}
    assert vouched == {ref for ref in cited if bank[ref].unterthema == "if-clauses type 1"}
    assert vouched and cited - vouched  # questions on the other types are judged by their words


def test_a_forged_ref_is_not_trusted(db: Session) -> None:
    """A real item's ref on a question of another text (or a second, other question) vouches for nothing."""
    r = _request(IF_CLAUSES)
    quiz = _quiz(db, r).material
    assert quiz is not None
    ref = quiz.fragen[0].quelle
    forged = {"typ": "truefalse", "frage": "Canberra is the capital of Australia.", "wahr": True, "quelle": ref}
    data = quiz.model_dump(mode="json")
    args = dict(db=db, identity=Identity.system(), wanted={"if-clauses"}, thema=r.thema, unterthemen=[],
                klassenstufe=8, kurs=None)
    for fragen in ([forged, *data["fragen"][1:]], [*data["fragen"], forged]):
        fake = H5PSet.model_validate({**data, "fragen": fragen})
        assert ref not in vouched_questions(quiz=fake, **args)
        assert [x for x in _gate(db, r, fake, trusted=True) if x.startswith(f"Frage {fragen.index(forged) + 1} – ")]
    made_up = H5PSet.model_validate({**data, "fragen": [{**forged, "quelle": str(uuid.uuid4())}]})
    assert vouched_questions(quiz=made_up, **args) == set()


def test_a_model_that_forges_a_ref_is_sent_back(db: Session, as_teacher) -> None:  # noqa: ANN001
    """A scripted H5P specialist puts its own question under a real if-clause item's ref: the gate sends it back
    (the question is judged by its words), and the quiz the teacher gets has no such question."""
    ident, teacher = as_teacher(DEMO_TEACHER), find_teacher(db=db, ref=DEMO_TEACHER)
    rules = offline_rules("h5p")
    forged: list[str] = []

    def forger(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        response = rules(messages, info)
        call = response.parts[-1]
        if forged or not (isinstance(call, ToolCallPart) and call.tool_name.startswith("final_result")):
            return response
        args = call.args_as_dict()
        if "fragen" not in args:
            return response
        forged.append(args["fragen"][0]["quelle"])
        args["fragen"][0] = {"typ": "truefalse", "frage": "Canberra is the capital of Australia.", "wahr": True,
                             "quelle": forged[0]}
        return ModelResponse(parts=[ToolCallPart(call.tool_name, args)])

    with override_models(h5p=rules_model(forger)):
        reply = chat_turn(db=db, identity=ident, teacher=teacher, message=IF_CLAUSES)
    assert forged and reply.material_id, reply.reply
    assert any("Prüfung fand" in s for s in reply.steps), reply.steps
    view = material_view(db=db, teacher=teacher, material_id=uuid.UUID(reply.material_id))
    stored = H5PSet.model_validate(view["content"])
    assert len(stored.fragen) == 10 and not [f for f in stored.fragen if "Canberra" in str(f)]


def test_old_stored_quizzes_without_refs_load_export_and_are_judged_by_their_words(db: Session) -> None:
    r = _request(IF_CLAUSES)
    quiz = _quiz(db, r).material
    assert quiz is not None
    old = quiz.model_dump(mode="json")
    for f in old["fragen"]:
        del f["quelle"]  # as stored before decision 055
    loaded = H5PSet.model_validate(old)
    assert [f.quelle for f in loaded.fragen] == [None] * 10
    assert build_package(loaded) == build_package(quiz)  # the pupils' package is the same with or without refs
    assert to_moodle_xml(loaded) == to_moodle_xml(quiz)
    assert _gate(db, r, loaded, trusted=True) == _gate(db, r, quiz, trusted=False)  # no refs: words only
