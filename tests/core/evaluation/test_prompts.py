"""Prompt versions: new versions with a note, one active per agent, rollback by activation, diffs — and the text
an agent receives really is the active version."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo

from agents.models.registry import offline_rules, override_models, rules_model
from core.app.acting import acting
from core.app.errors import NotFoundError, UserError
from core.chat.turn import chat_turn
from core.evaluation import prompts as pl
from tests.pages.conftest import fresh_person

EXAM = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"


@pytest.fixture
def product(database) -> uuid.UUID:  # noqa: ANN001
    return fresh_person(role="product", faecher=(), name="Test Produkt")


@pytest.fixture
def teacher(database) -> uuid.UUID:  # noqa: ANN001
    return fresh_person()


@pytest.fixture
def restore_active(product: uuid.UUID) -> Iterator[None]:
    """Tests that activate versions put the previously active ones back (the test database is shared)."""
    before = {name: pl.resolve_version(agent_name=name, ref=None) for name in pl.agent_names()}
    yield
    for name, version in before.items():
        if pl.resolve_version(agent_name=name, ref=None).id != version.id:
            pl.activate_version(teacher_id=product, version_id=version.id)


def recording(role: str, seen: list[str]):  # noqa: ANN201
    """A scripted FunctionModel: remembers the instructions it was given, answers like the offline rules."""

    def fn(messages: list[ModelMessage], info: AgentInfo):  # noqa: ANN202
        seen.append(info.instructions or "")
        return offline_rules(role)(messages, info)

    return rules_model(fn)


@pytest.mark.parametrize("text", ["", "   \n\t  ", "\n\n"])
def test_an_empty_prompt_version_is_refused(product: uuid.UUID, text: str) -> None:
    count = len(pl.list_versions(teacher_id=product, agent_name="h5p"))
    with pytest.raises(UserError, match="Prompt-Text ist leer"):
        pl.save_version(teacher_id=product, agent_name="h5p", text=text, note="leer")
    assert len(pl.list_versions(teacher_id=product, agent_name="h5p")) == count


def test_unchanged_text_is_refused_and_names_the_version(product: uuid.UUID) -> None:
    active = pl.resolve_version(agent_name="h5p", ref="aktiv")
    with pytest.raises(UserError, match=f"identisch mit Version {active.version}"):
        pl.save_version(teacher_id=product, agent_name="h5p", text=active.text + "\n  \n", note="gleich")


def test_a_new_version_gets_the_next_number_and_stays_inactive(product: uuid.UUID) -> None:
    before = pl.list_versions(teacher_id=product, agent_name="differenzierung")
    text = before[0].text + f"\nAchte auf kurze Sätze ({uuid.uuid4().hex[:6]})."
    saved = pl.save_version(teacher_id=product, agent_name="differenzierung", text=text, note="  kürzere  Sätze ")
    assert saved.version == max(v.version for v in before) + 1
    assert not saved.is_active and saved.note == "kürzere Sätze"
    assert pl.resolve_version(agent_name="differenzierung", ref=None).id != saved.id
    assert pl.resolve_version(agent_name="differenzierung", ref=f"v{saved.version}").id == saved.id
    assert pl.resolve_version(agent_name="differenzierung", ref=str(saved.id)).text == text


def test_only_the_product_team_may_write_prompts(teacher: uuid.UUID) -> None:
    with pytest.raises(UserError, match="nur das Produktteam"):
        pl.save_version(teacher_id=teacher, agent_name="main", text="Neu", note="")
    active = pl.resolve_version(agent_name="main", ref=None)
    with pytest.raises(UserError, match="nur das Produktteam"):
        pl.activate_version(teacher_id=teacher, version_id=active.id)


def test_unknown_agent_and_version_are_named(product: uuid.UUID) -> None:
    with pytest.raises(UserError, match="Unbekannter Agent „referat“"):
        pl.list_versions(teacher_id=product, agent_name="referat")
    with pytest.raises(NotFoundError, match="keine Version „999“"):
        pl.resolve_version(agent_name="klausur", ref=999)
    with pytest.raises(UserError, match="keine Versionsangabe"):
        pl.resolve_version(agent_name="klausur", ref="neueste")


def test_rollback_activates_the_older_version_again(product: uuid.UUID, restore_active: None) -> None:
    old = pl.resolve_version(agent_name="h5p", ref=None)
    new = pl.save_version(teacher_id=product, agent_name="h5p", text=old.text + f"\nNeu {uuid.uuid4().hex[:6]}",
                          note="Test", activate=True)
    assert new.is_active and pl.resolve_version(agent_name="h5p", ref=None).id == new.id
    back = pl.activate_version(teacher_id=product, version_id=old.id)
    versions = pl.list_versions(teacher_id=product, agent_name="h5p")
    assert back.version == old.version and [v.version for v in versions if v.is_active] == [old.version]
    assert versions[0].version == new.version  # nothing copied: the newest version is still the tried one


def test_diff_shows_added_and_removed_lines_readably(product: uuid.UUID) -> None:
    diff = pl.diff_texts("Zeile eins\nZeile zwei\nZeile drei", "Zeile eins\nZeile 2\nZeile drei\nZeile vier",
                         title_a="klausur v1", title_b="klausur v2")
    assert diff.added == 2 and diff.removed == 1 and not diff.same
    assert "-Zeile zwei" in diff.unified and "+Zeile 2" in diff.unified and "+Zeile vier" in diff.unified
    assert diff.summary == "klausur v1 → klausur v2: 2 Zeilen neu, 1 Zeilen entfernt."
    same = pl.diff_texts("a", "a")
    assert same.same and same.unified == "" and "identisch" in same.summary
    versions = pl.list_versions(teacher_id=product, agent_name="main")
    stored = pl.diff_versions(teacher_id=product, version_a=versions[-1].id, version_b=versions[-1].id)
    assert stored.same


def test_an_activated_version_is_what_the_agent_receives(product: uuid.UUID, teacher: uuid.UUID,
                                                         restore_active: None) -> None:
    marker = f"PRUEFMARKE-{uuid.uuid4().hex[:8]}"
    old = pl.resolve_version(agent_name="klausur", ref=None)
    pl.save_version(teacher_id=product, agent_name="klausur", text=f"{old.text}\n{marker}", note="Test",
                    activate=True)
    seen: list[str] = []
    with override_models(klausur=recording("klausur", seen)), acting(teacher) as (db, t, identity):
        result = chat_turn(db=db, identity=identity, teacher=t, message=EXAM)
    assert result.material_id, result.reply
    assert seen and all(marker in text for text in seen)

    pl.activate_version(teacher_id=product, version_id=old.id)  # rollback: the next run gets the old text again
    seen.clear()
    with override_models(klausur=recording("klausur", seen)), acting(teacher) as (db, t, identity):
        chat_turn(db=db, identity=identity, teacher=t, message=EXAM)
    assert seen and not any(marker in text for text in seen) and all(old.text in text for text in seen)
