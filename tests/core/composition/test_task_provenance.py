"""Exam tasks and worksheet tasks are vouched for by their filing only as the bank items they show (decision 065, as
055 for quiz questions): the final gate trusts a cited bank item's topic when the task shows that item's text and key
unchanged — white space and the exam's own material numbers („M1“ for the bank's „M2“) aside. A real model could
cite a real item beside a task of its own; that task is judged by its words. Requests written for these tests,
composed offline from the real seeded bank."""

from __future__ import annotations

import re
import uuid

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo
from sqlalchemy.orm import Session

from agents.models.registry import offline_rules, override_models, rules_model
from agents.offline.messages import json_returns
from core.chat.turn import chat_turn
from core.checks.gate import check_material
from core.composition import service as svc
from core.composition.provenance import vouched_sheet, vouched_tasks
from core.language.lexicon import seeded_lexicon
from core.language.request.extract import extract
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.klausur import Klausur, Kriterium
from core.materials.request import MaterialRequest
from core.materials.service import material_view
from db.repos import knowledge as knowledge_repo
from db.repos.teachers import find_teacher
from db.session import Identity
from tests.conftest import DEMO_TEACHER

EXAM = "Klassenarbeit Chemie Klasse 9 Säuren und Basen, 45 Minuten, AFB 30/40/30"
SHEET = "Arbeitsblatt in drei Niveaus Physik Klasse 7 zur Dichte"
OWN_TASK = "Nenne drei Hauptstädte europäischer Staaten und ordne sie ihren Ländern zu."
OWN_KEY = "nennt Paris – Frankreich, Rom – Italien, Madrid – Spanien"


def _request(text: str, material_type: str) -> MaterialRequest:
    e = extract(text, topic_terms=seeded_lexicon().terms)
    return MaterialRequest(
        fach=e.fach,
        thema=e.thema,
        klassenstufe=e.klassenstufe,
        material_type=material_type,
        unterthemen=list(e.unterthemen),
        zusatz=text,
        niveau=e.niveau,
    )


def _exam(db: Session) -> tuple[MaterialRequest, Klausur]:
    r = _request(EXAM, "klausur")
    comp = svc.compose_exam(
        db=db,
        identity=Identity.system(),
        teacher_id=None,
        fach=r.fach,
        themenfelder={},
        request=r,
        afb_ziel={"I": 30, "II": 40, "III": 30},
        operators=[],
    )
    assert isinstance(comp.material, Klausur)
    return r, comp.material


def _wanted(db: Session, r: MaterialRequest) -> set[str]:
    return {t.id for t in svc.topic_context_for(db=db, fach=r.fach, themenfelder={}, request=r).resolved}


def _filed(db: Session, refs: set[str], wanted: set[str]) -> set[str]:
    """The cited refs whose bank items are filed under a requested topic (what the gate trusted before 065)."""
    ids = [uuid.UUID(ref) for ref in refs if ref.count("-") == 4]
    found = knowledge_repo.topics_of(db=db, identity=Identity.system(), ids=ids)
    return {str(i) for i, t in found.items() if t in wanted}


def _bank_refs(k: Klausur) -> set[str]:
    return {q.ref for t in k.teilaufgaben() for q in t.quellen if q.art == "good_practice"}


def _gate(db: Session, r: MaterialRequest, material: object, vouched: set[str]) -> list[str]:
    """The final gate's findings; generated tasks trusted as the specialists' checks trust them (by their generator)."""
    topic = svc.topic_context_for(db=db, fach=r.fach, themenfelder={}, request=r)
    generators = {g for t in topic.resolved for g in t.generatoren}
    if isinstance(material, Klausur):
        vouched = vouched | {
            q.ref
            for t in material.teilaufgaben()
            for q in t.quellen
            if q.art == "generator" and q.ref.partition("#")[0] in generators
        }
    return [f.line() for f in check_material(material, request=r, topic=topic, vouched=vouched)]  # type: ignore[arg-type]


def test_an_offline_exam_is_vouched_for_as_before(db: Session) -> None:
    """Every bank task the composer put in the exam shows its item as it is: all stay trusted, nothing is flagged."""
    r, k = _exam(db)
    wanted = _wanted(db, r)
    filed = _filed(db, _bank_refs(k), wanted)
    assert filed  # the exam is made of bank tasks filed under Säuren und Basen
    vouched = vouched_tasks(db=db, identity=Identity.system(), klausur=k, wanted=wanted)
    assert vouched == filed
    assert _gate(db, r, k, vouched) == []


def test_a_task_of_its_own_under_a_real_ref_is_judged_by_its_words(db: Session) -> None:
    r, k = _exam(db)
    wanted = _wanted(db, r)
    teil = k.aufgaben[0].teilaufgaben[0]
    ref = next(q.ref for q in teil.quellen if q.art == "good_practice")
    label = f"{k.aufgaben[0].nummer}{teil.kennung}"
    # the bank text with other line breaks and another material number is still the bank task
    moved = k.model_copy(deep=True)
    moved.aufgaben[0].teilaufgaben[0].text = teil.text.replace(" ", "\n", 1).replace("M1", "M3")
    assert ref in vouched_tasks(db=db, identity=Identity.system(), klausur=moved, wanted=wanted)
    # a task of the model's own beside the ref is not
    forged = k.model_copy(deep=True)
    own = forged.aufgaben[0].teilaufgaben[0]
    own.text, own.erwartung = OWN_TASK, [Kriterium(text=OWN_KEY, punkte=own.punkte)]
    assert ref not in vouched_tasks(db=db, identity=Identity.system(), klausur=forged, wanted=wanted)
    faults = _gate(db, r, forged, vouched_tasks(db=db, identity=Identity.system(), klausur=forged, wanted=wanted))
    assert [x for x in faults if x.startswith(f"{label} – ")], faults
    # nor a bank task whose key was changed
    rekeyed = k.model_copy(deep=True)
    rekeyed.aufgaben[0].teilaufgaben[0].erwartung[0].text = "Die Antwort ist richtig."
    assert ref not in vouched_tasks(db=db, identity=Identity.system(), klausur=rekeyed, wanted=wanted)


def test_a_ref_reused_on_a_second_task_vouches_for_neither(db: Session) -> None:
    r, k = _exam(db)
    wanted = _wanted(db, r)
    first = k.aufgaben[0].teilaufgaben[0]
    ref = next(q.ref for q in first.quellen if q.art == "good_practice")
    reused = k.model_copy(deep=True)
    second = reused.aufgaben[-1].teilaufgaben[-1]
    second.text, second.quellen = OWN_TASK, [*second.quellen, *first.quellen]
    second.erwartung = [Kriterium(text=OWN_KEY, punkte=second.punkte)]
    vouched = vouched_tasks(db=db, identity=Identity.system(), klausur=reused, wanted=wanted)
    assert ref not in vouched
    assert vouched == _filed(db, _bank_refs(k), wanted) - {ref} - {
        q.ref for q in k.aufgaben[-1].teilaufgaben[-1].quellen
    }


def test_a_worksheet_is_vouched_for_only_while_all_its_tasks_are_its_items(db: Session) -> None:
    r = _request(SHEET, "differenzierung")
    sheet = svc.compose_worksheet(db=db, identity=Identity.system(), fach=r.fach, themenfelder={}, request=r).material
    assert isinstance(sheet, DifferenziertesMaterial)
    wanted = _wanted(db, r)
    refs = {q.ref for q in sheet.quellen if q.art == "good_practice"}
    assert refs and vouched_sheet(db=db, identity=Identity.system(), sheet=sheet, wanted=wanted) == refs
    assert _gate(db, r, sheet, refs) == []
    added = sheet.model_copy(deep=True)
    added.niveaus[1].aufgaben.append(OWN_TASK)
    added.niveaus[1].loesungen.append(OWN_KEY)
    assert vouched_sheet(db=db, identity=Identity.system(), sheet=added, wanted=wanted) == set()
    changed = sheet.model_copy(deep=True)
    changed.niveaus[0].loesungen[0] = "Siehe Tafelbild."
    assert vouched_sheet(db=db, identity=Identity.system(), sheet=changed, wanted=wanted) == set()


def _own_first_task(draft: str) -> dict[str, object]:
    """The plan (agents/klausur_plan.py) a model sends when it rewrites draft task 1a in words of its own: 1a keeps
    the draft's sources — its bank item's ref — and every other task stays as drafted."""
    nummern = [int(n) for n in re.findall(r"^Aufgabe (\d+):", draft, re.M)]
    teile = re.findall(r"^1([a-z]) .*?, (\d+) P\.:", draft, re.M)
    punkte = int(teile[0][1])
    first = [
        {"aus": "1a", "text": OWN_TASK, "erwartung": [{"text": OWN_KEY, "punkte": punkte}]},
        *({"aus": f"1{k}"} for k, _ in teile[1:]),
    ]
    return {"aufgaben": [{"aus": 1, "teile": first}, *({"aus": n} for n in nummern[1:])]}


def test_a_model_that_puts_its_own_task_under_a_bank_ref_is_sent_back(db: Session, as_teacher) -> None:  # noqa: ANN001
    """A scripted Klausur specialist rewrites task 1a in words of its own, keeping the draft's bank ref: the gate
    judges it by its words and sends the exam back; the exam the teacher gets has no such task."""
    ident, teacher = as_teacher(DEMO_TEACHER), find_teacher(db=db, ref=DEMO_TEACHER)
    rules = offline_rules("klausur")
    sent: list[dict[str, object]] = []
    faults: list[str] = []

    def forger(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1] if messages else None
        if sent and isinstance(last, ModelRequest):
            faults.extend(
                p.model_response() if isinstance(p, RetryPromptPart) else str(p.content)
                for p in last.parts
                if isinstance(p, RetryPromptPart | ToolReturnPart) and str(p.tool_name).startswith("final_result")
            )
        response = rules(messages, info)
        call = response.parts[-1]
        if sent or not (isinstance(call, ToolCallPart) and call.tool_name.startswith("final_result")):
            return response
        drafts = [d for d in json_returns(messages, "compose_draft") if isinstance(d.get("entwurf"), str)]
        if call.args_as_dict() or not drafts:
            return response
        sent.append(_own_first_task(drafts[-1]["entwurf"]))
        return ModelResponse(parts=[ToolCallPart(call.tool_name, sent[0])])

    with override_models(klausur=rules_model(forger)):
        reply = chat_turn(db=db, identity=ident, teacher=teacher, message=EXAM)
    assert sent and reply.material_id, reply.reply
    assert any("1a – nicht zum Thema" in f for f in faults), (faults, reply.steps)
    view = material_view(db=db, teacher=teacher, material_id=uuid.UUID(reply.material_id))
    stored = Klausur.model_validate(view["content"])
    assert not [t for t in stored.teilaufgaben() if "Hauptstädte" in t.text]
