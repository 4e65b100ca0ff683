"""Sitzungen & Traces for curators and the product team: the conversations teachers released to them (consent per
conversation), opened one at a time, each read logged in the teacher's access log; a withdrawn consent makes the
conversation disappear from the list and from reach."""

from __future__ import annotations

import re

import pytest

from core.app.errors import NotFoundError
from core.app.service import grant_consent, my_access_log, my_consents, revoke_consent
from core.chat.service import conversation_trace
from tests.pages.conftest import app_as, fresh_person
from tests.pages.test_sitzungen import EXAM, turn

PAGE = "views/sitzungen.py"


def _released(at) -> int:  # noqa: ANN001
    """The number of released conversations the page's view switch names („Von Lehrkräften freigegeben (N)“)."""
    label = next(o for o in at.radio(key="trace_source").options if o.startswith("Von Lehrkräften freigegeben"))
    return int(re.search(r"\((\d+)\)", label).group(1))


@pytest.mark.usefixtures("database")
@pytest.mark.parametrize("role", ["curator", "product"])
def test_staff_see_a_released_conversation_the_read_is_logged_and_a_withdrawal_removes_it(role: str) -> None:
    teacher = fresh_person(name="Test Freigabe")
    other = turn(teacher, "Klausur Physik für die 10a zu Optik, 45 Minuten")  # not released: never listed
    r = turn(teacher, EXAM)
    assert r.material_id and other.conversation_id != r.conversation_id
    staff = fresh_person(role=role, name="Test Personal")
    before = _released(app_as(staff, PAGE))  # other tests' teachers may have released conversations as well
    grant_consent(teacher, "conversation", r.conversation_id)

    at = app_as(staff, PAGE)
    assert not at.exception, at.exception
    source = at.radio(key="trace_source")
    assert source.value == "shared" and _released(at) == before + 1  # hers, not the other conversation
    listed = at.dataframe[0].value["Freigabe"].tolist()
    assert len(listed) == before + 1 and "Stromkreisen" in listed[0]  # newest first
    assert at.selectbox(key="trace_shared").value == r.conversation_id
    assert any(md.value.startswith("**Nachrichten**") for md in at.markdown)  # the trace is open
    assert any("Stromkreisen" in e.label for e in at.expander)
    log = my_access_log(teacher)
    assert log and "Test Personal" in log[0].viewer and "Sitzungen & Traces" in log[0].what

    consent = next(c for c in my_consents(teacher) if c.object_type == "conversation")
    revoke_consent(teacher, consent.id)
    at = app_as(staff, PAGE)
    assert not at.exception
    assert _released(at) == before
    if before == 0:
        assert any("keine Lehrkraft ein Gespräch freigegeben" in i.value for i in at.info)
    else:
        assert at.selectbox(key="trace_shared").value != r.conversation_id
    with pytest.raises(NotFoundError):
        conversation_trace(teacher_id=staff, conversation_id=r.conversation_id)


@pytest.mark.usefixtures("database")
def test_a_teacher_sees_only_her_own_view_and_no_released_conversations_of_others() -> None:
    teacher, colleague = fresh_person(name="Test Freigabe"), fresh_person(name="Test Kollegin")
    r = turn(teacher, EXAM)
    grant_consent(teacher, "conversation", r.conversation_id)
    at = app_as(colleague, PAGE)
    assert not at.exception
    assert not [w for w in at.radio if w.key == "trace_source"]
    assert any("Noch keine Gespräche" in i.value for i in at.info)
    with pytest.raises(NotFoundError):
        conversation_trace(teacher_id=colleague, conversation_id=r.conversation_id)
    assert my_access_log(teacher) == []
