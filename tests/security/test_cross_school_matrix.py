"""Cross-school matrix (issue #13): every service function a page calls, called by a teacher, a curator and a
product person of school A with ids owned by school B's teacher. Each call is refused with a German message that
names nothing of B's, writes nothing anywhere, and leaves B's rows as they were; lists come back without B's rows.
A new page function that takes an id belongs in this table."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

import pytest

from core.app import service as app
from core.app.errors import UserError
from core.assessment import service as assessment
from core.chat import service as chat
from core.curation import service as curation
from core.editing import service as editing
from core.evaluation import service as ev
from core.knowledge import service as knowledge
from core.materials import service as materials
from core.uploads import service as uploads
from tests.pages.conftest import fresh_person
from tests.security.conftest import Victim, snapshot

Attack = Callable[[Victim, uuid.UUID], object]
EDIT = {"titel": "Zusatz", "operator": "Berechnen Sie", "afb": "II",
        "text": "Berechnen Sie den Widerstand eines 2 m langen Kupferdrahtes.", "force": True}
FILTER = curation.QueueFilter(fach="physik")
GERMAN_REFUSAL = re.compile(r"\b(nicht|nur|kein\w*|vorbehalten|darf|dürfen)\b", re.IGNORECASE)

# (case, acting role, the call with B's ids)
REFUSED: list[tuple[str, str, Attack]] = [
    ("material_detail", "teacher", lambda v, a: materials.material_detail(teacher_id=a, material_id=v.material)),
    ("material_detail_text_id", "teacher",
     lambda v, a: materials.material_detail(teacher_id=a, material_id=str(v.material).upper())),
    ("rate_my_material", "teacher",
     lambda v, a: materials.rate_my_material(teacher_id=a, material_id=v.material, stars=1)),
    ("edit_view", "teacher", lambda v, a: editing.edit_view(teacher_id=a, material_id=v.material)),
    ("add_task", "teacher", lambda v, a: editing.add_task(teacher_id=a, material_id=v.material, **EDIT)),
    ("apply_form_edit", "teacher", lambda v, a: editing.apply_form_edit(
        teacher_id=a, material_id=v.material, aktion="loeschen", ziel="1", force=True)),
    ("regenerate_my_material", "teacher",
     lambda v, a: editing.regenerate_my_material(teacher_id=a, material_id=v.material, instruction="kürzer")),
    ("restore_my_version", "teacher",
     lambda v, a: editing.restore_my_version(teacher_id=a, material_id=v.material, version=1)),
    ("save_subtask", "teacher", lambda v, a: editing.save_subtask(
        teacher_id=a, material_id=v.material, ziel="1", operator="Nennen Sie", afb="I", text="Nennen Sie zwei Leiter.",
        kriterien=[], force=True)),
    ("version_diff", "teacher", lambda v, a: editing.version_diff(teacher_id=a, material_id=v.material, left=1,
                                                                    right=1)),
    ("conversation_log", "teacher", lambda v, a: chat.conversation_log(teacher_id=a, conversation_id=v.conversation)),
    *[("conversation_trace", role, lambda v, a: chat.conversation_trace(teacher_id=a, conversation_id=v.conversation))
      for role in ("teacher", "curator", "product")],
    ("send_into_conversation", "teacher",
     lambda v, a: chat.send(teacher_id=a, message="ändere Aufgabe 2", conversation_id=v.conversation)),
    ("file_bytes", "teacher", lambda v, a: chat.file_bytes(teacher_id=a, file_id=v.file)),
    ("file_bytes", "product", lambda v, a: chat.file_bytes(teacher_id=a, file_id=v.file)),
    ("material_brief", "teacher", lambda v, a: chat.material_brief(teacher_id=a, material_id=v.material)),
    ("material_detail", "product", lambda v, a: materials.material_detail(teacher_id=a, material_id=v.material)),
    ("chat_rate", "teacher", lambda v, a: chat.rate(teacher_id=a, material_id=v.material, stars=1)),
    ("assess", "teacher", lambda v, a: assessment.assess(teacher_id=a, material_id=v.material, task_ref="1",
                                                           pupil_answer="Der Strom ist 2 A.")),
    ("delete_note", "teacher", lambda v, a: knowledge.delete_note(teacher_id=a, note_id=v.note)),
    ("add_note_foreign_school", "teacher", lambda v, a: knowledge.add_note(
        teacher_id=a, scope="school", scope_id=str(v.school), fach="physik", text="Bitte Kapitel 3 wiederholen.")),
    ("add_note_foreign_class", "teacher", lambda v, a: knowledge.add_note(
        teacher_id=a, scope="class", scope_id=str(v.class_id), fach="physik", text="Bitte Kapitel 3 wiederholen.")),
    ("inspect_wissenskarte", "teacher", lambda v, a: knowledge.inspect_wissenskarte(
        viewer_id=a, target_id=v.teacher, agent_type="klausur", fach="physik")),
    ("knowledge_entry_detail_as_owner", "teacher", lambda v, a: knowledge.entry_detail(
        viewer_id=a, target_id=v.teacher, knowledge_id=v.private_entry)),
    ("knowledge_entry_detail_private", "teacher", lambda v, a: knowledge.entry_detail(
        viewer_id=a, target_id=a, knowledge_id=v.private_entry)),
    ("knowledge_entry_detail_school", "teacher", lambda v, a: knowledge.entry_detail(
        viewer_id=a, target_id=a, knowledge_id=v.school_entry)),
    ("knowledge_entry_detail_private", "curator", lambda v, a: knowledge.entry_detail(
        viewer_id=a, target_id=v.teacher, knowledge_id=v.private_entry)),
    ("share_for_curation", "teacher",
     lambda v, a: curation.share_for_curation(teacher_id=a, knowledge_id=v.private_entry)),
    ("grant_consent_knowledge", "teacher", lambda v, a: app.grant_consent(a, "knowledge", v.private_entry)),
    ("grant_consent_conversation", "teacher", lambda v, a: app.grant_consent(a, "conversation", v.conversation)),
    ("revoke_consent", "teacher", lambda v, a: app.revoke_consent(a, v.consent)),
    ("curation_entry_detail", "teacher",
     lambda v, a: curation.entry_detail(curator_id=a, knowledge_id=v.school_entry)),
    ("curation_entry_detail_private", "curator",
     lambda v, a: curation.entry_detail(curator_id=a, knowledge_id=v.private_entry)),
    ("curation_entry_detail_school", "curator",
     lambda v, a: curation.entry_detail(curator_id=a, knowledge_id=v.school_entry)),
    ("curation_rate", "curator", lambda v, a: curation.rate_entry(curator_id=a, knowledge_id=v.school_entry, stars=1)),
    ("curation_review", "curator", lambda v, a: curation.review_entry(curator_id=a, knowledge_id=v.school_entry)),
    ("curation_retire", "curator", lambda v, a: curation.retire_entry(
        curator_id=a, knowledge_id=v.private_entry, reason="veraltet")),
    ("curation_promote", "curator", lambda v, a: curation.promote_entry(curator_id=a, knowledge_id=v.private_entry)),
    ("curation_merge", "curator",
     lambda v, a: curation.merge_entries(curator_id=a, keep_id=v.school_entry, drop_id=v.private_entry)),
    ("curation_queue", "teacher", lambda v, a: curation.queue_page(curator_id=a, filters=FILTER)),
    ("curation_duplicates", "teacher", lambda v, a: curation.near_duplicates(curator_id=a, filters=FILTER)),
    ("curation_operators", "teacher", lambda v, a: curation.subject_operators(curator_id=a, fach="physik")),
    ("curation_operators_save", "teacher", lambda v, a: curation.save_subject_operators(
        curator_id=a, fach="physik", rows=[], expected_revision=0)),
    ("held_uploads", "teacher", lambda v, a: uploads.held_uploads(curator_id=a)),
    ("prompt_versions", "teacher", lambda v, a: ev.list_versions(teacher_id=a, agent_name="main")),
    ("prompt_versions", "curator", lambda v, a: ev.list_versions(teacher_id=a, agent_name="klausur")),
    ("prompt_diff", "teacher", lambda v, a: ev.diff_versions(teacher_id=a, version_a=v.prompt, version_b=v.prompt)),
    ("prompt_save", "teacher", lambda v, a: ev.save_version(teacher_id=a, agent_name="main", text="Antworte frech.")),
    ("prompt_activate", "teacher", lambda v, a: ev.activate_version(teacher_id=a, version_id=v.prompt)),
    ("play_in_sandbox", "teacher", lambda v, a: chat.play_in_sandbox("e-lehre", owner_id=a)),
    ("play_in_sandbox", "curator", lambda v, a: chat.play_in_sandbox("e-lehre", owner_id=a)),
    ("eval_runs", "teacher", lambda v, a: ev.list_runs(teacher_id=a)),
    ("eval_run_detail", "teacher", lambda v, a: ev.run_detail(teacher_id=a, run_id=v.material)),
    ("eval_compare", "curator", lambda v, a: ev.compare_runs(teacher_id=a, run_a=v.material, run_b=v.conversation)),
]

# Lists a page shows: they come back, without anything of B's.
LISTS: list[tuple[str, str, Attack]] = [
    ("list_my_materials", "teacher", lambda v, a: materials.list_my_materials(teacher_id=a)),
    ("list_my_materials", "product", lambda v, a: materials.list_my_materials(teacher_id=a)),
    ("list_conversations", "teacher", lambda v, a: chat.list_conversations(teacher_id=a)),
    ("my_conversations", "curator", lambda v, a: chat.my_conversations(teacher_id=a)),
    ("my_sessions", "product", lambda v, a: chat.my_sessions(teacher_id=a, status="completed")),
    ("shared_conversations", "teacher", lambda v, a: chat.shared_conversations(teacher_id=a)),
    ("played_log", "teacher", lambda v, a: chat.played_log(teacher_id=a, conversation_id=v.conversation)),
    ("visible_notes", "teacher", lambda v, a: knowledge.visible_notes(teacher_id=a)),
    ("visible_notes", "curator", lambda v, a: knowledge.visible_notes(teacher_id=a)),
    ("inspectable_teachers", "teacher", lambda v, a: knowledge.inspectable_teachers(viewer_id=a)),
    ("inspect_wissenskarte", "curator", lambda v, a: knowledge.inspect_wissenskarte(
        viewer_id=a, target_id=v.teacher, agent_type="klausur", fach="physik")),
    ("exam_choices", "teacher", lambda v, a: assessment.exam_choices(teacher_id=a)),
    ("my_reviews", "teacher", lambda v, a: uploads.my_reviews(teacher_id=a)),
    ("held_uploads", "curator", lambda v, a: uploads.held_uploads(curator_id=a)),
    ("curation_queue", "curator", lambda v, a: curation.queue_page(
        curator_id=a, filters=curation.QueueFilter(fach="physik", text=v.token))),
    ("my_consents", "teacher", lambda v, a: app.my_consents(a)),
    ("my_access_log", "teacher", lambda v, a: app.my_access_log(a)),
]

@pytest.fixture(scope="module")
def people(database) -> dict[str, uuid.UUID]:  # noqa: ANN001
    """School A's attackers, each in a school of their own (none of them is in B's school)."""
    return {"teacher": fresh_person(name="Test Angreifer"),
            "curator": fresh_person(role="curator", name="Test Kuratorin A"),
            "product": fresh_person(role="product", name="Test Produkt A", faecher=())}


def _ids(v: Victim) -> list[str]:
    """B's private ids (her own id is no secret to staff: the Wissenskarte inspector names whom it shows)."""
    return [str(x) for x in (v.material, v.conversation, v.file, v.note, v.private_entry, v.school_entry)]


@pytest.mark.parametrize(("case", "role", "attack"), REFUSED, ids=[f"{r}:{c}" for c, r, _ in REFUSED])
def test_an_id_of_another_school_is_refused_in_german_and_changes_nothing(
        victim: Victim, people: dict[str, uuid.UUID], case: str, role: str, attack: Attack) -> None:
    before = snapshot(victim)
    with pytest.raises(UserError) as refused:
        attack(victim, people[role])
    message = refused.value.message
    assert GERMAN_REFUSAL.search(message), message
    assert victim.token not in message and not any(i in message for i in [*_ids(victim), str(victim.teacher)])
    assert snapshot(victim) == before, f"{case}: something was written"


@pytest.mark.parametrize(("case", "role", "attack"), LISTS, ids=[f"{r}:{c}" for c, r, _ in LISTS])
def test_a_list_shows_nothing_of_another_school(victim: Victim, people: dict[str, uuid.UUID], case: str, role: str,
                                                 attack: Attack) -> None:
    before = snapshot(victim)
    shown = repr(attack(victim, people[role]))
    assert victim.token not in shown, case
    assert not any(i in shown for i in _ids(victim)), case
    assert snapshot(victim) == before, f"{case}: something was written"


def test_the_victim_still_sees_all_of_it(victim: Victim) -> None:
    """The world is real: B herself reads what the attacks could not (so a refusal above is not a broken fixture)."""
    d = materials.material_detail(teacher_id=victim.teacher, material_id=victim.material)
    assert str(d.id) == str(victim.material)
    assert any(victim.token in n.text for n in knowledge.visible_notes(teacher_id=victim.teacher))
    assert victim.token in chat.conversation_log(teacher_id=victim.teacher, conversation_id=victim.conversation)[
        "title"]
    assert chat.file_bytes(teacher_id=victim.teacher, file_id=victim.file)
    assert [str(c.id) for c in app.my_consents(victim.teacher)] == [str(victim.consent)]
