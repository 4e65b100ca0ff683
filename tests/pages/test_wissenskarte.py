"""The Wissenskarte inspector: the exact text, the graph, entry details, tables — and that a rating changes the map."""

from __future__ import annotations

import json
import re
import uuid

import pytest
import sqlalchemy as sa

from core.app.acting import acting
from core.app.errors import NotFoundError, UserError
from core.chat.turn import chat_turn
from core.knowledge.inspector import entry_detail, inspect_wissenskarte
from core.knowledge.learning import rate_material
from core.knowledge.own_entries import forget_good_practice
from core.knowledge.wissenskarte import build_wissenskarte
from db import models as m
from db.session import Identity, unit_of_work
from tests.pages.conftest import app_as, fresh_person

PAGE = "views/wissenskarte.py"
EXAM = "Klausur Physik für die 10a zu Stromkreisen, 45 Minuten, AFB 30/40/30"


def _personal(text: str) -> int:
    found = re.search(r"Bewährte Aufgaben: (\d+) persönlich", text)
    assert found, text
    return int(found.group(1))


def _name(person_id: uuid.UUID) -> str:
    with unit_of_work(Identity.system()) as db:
        return db.get(m.Teacher, person_id).name


def _own_good_practice(teacher_id: uuid.UUID, *, aufgabe: str = "Berechne den Gesamtwiderstand.") -> uuid.UUID:
    with unit_of_work(Identity.system()) as db:
        row = m.AgentKnowledge(
            agent_type="klausur", scope_type="teacher", scope_id=teacher_id, owner_id=teacher_id, fach="physik",
            thema="Reihenschaltung", knowledge_type="good_practice", description="Widerstände in Reihe",
            content={"aufgabe": aufgabe, "operator": "Berechnen", "afb": "II", "punkte": 4,
                     "erwartung": [{"kriterium": "R = R1 + R2 angesetzt", "punkte": 2},
                                   {"kriterium": "Ergebnis 30 Ω", "punkte": 2}]},
            quality_score=0.9, source="generated",
        )
        db.add(row)
        db.flush()
        return row.id


def test_a_rating_changes_the_next_wissenskarte(teacher_id) -> None:  # noqa: ANN001
    with acting(teacher_id) as (db, teacher, identity):
        result = chat_turn(db=db, identity=identity, teacher=teacher, message=EXAM)
    assert result.material_id, result.reply

    at = app_as(teacher_id, PAGE)
    assert not at.exception
    before = _personal(at.code[0].value)
    assert "AFB-Ziel" not in at.code[0].value

    with acting(teacher_id) as (db, teacher, identity):
        rate_material(db=db, identity=identity, teacher=teacher, material_id=uuid.UUID(result.material_id), stars=5)
    at.run()
    assert not at.exception
    assert _personal(at.code[0].value) > before
    assert "AFB-Ziel 30/40/30" in at.code[0].value

    at.switch_page("views/praeferenzen.py").run()
    assert not at.exception
    shown = "\n".join(md.value for md in at.markdown)
    assert "AFB-Ziel 30/40/30" in shown
    assert re.search(r"AFB-Ziel 30/40/30 · _Bewertung 5★ von „.+“ am \d\d\.\d\d\.\d{4}_", shown), shown


def test_page_shows_the_exact_text_the_specialist_sees_and_the_graph(teacher_id) -> None:  # noqa: ANN001
    _own_good_practice(teacher_id)
    at = app_as(teacher_id, PAGE)
    assert not at.exception
    with acting(teacher_id) as (db, _, identity):
        expected = build_wissenskarte(db=db, identity=identity, agent_type="klausur", fach="physik")
    assert at.code[0].value == expected.text
    assert any(f"{expected.tokens} Tokens" in c.value for c in at.caption)
    graph = at.get("echarts_chart")
    assert len(graph) == 1 and graph[0].type == "echarts_chart"
    # tables per knowledge type, with their totals in the tab labels
    visible_gps = sum(c["n"] for c in expected.facts["counts"] if c["type"] == "good_practice")
    assert any(t.label.startswith(f"Bewährte Aufgaben ({visible_gps})") for t in at.tabs)
    assert any("Widerstände in Reihe" in set(df.value["Eintrag"]) for df in at.dataframe)


def test_other_agent_and_subject_show_their_own_map(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id, PAGE)
    at.selectbox(key="wk_agent").set_value("h5p").run()
    at.selectbox(key="wk_fach").set_value("biologie").run()
    assert not at.exception
    assert at.code[0].value.startswith("### Wissenskarte Biologie · H5P")


def test_opening_an_entry_shows_details_and_the_owner_can_share_it(teacher_id) -> None:  # noqa: ANN001
    gp = _own_good_practice(teacher_id)
    at = app_as(teacher_id, PAGE)
    pick = next(s for s in at.selectbox if s.label == "Eintrag öffnen")
    assert "Widerstände in Reihe" in pick.options  # the graph's entries, by label
    pick.set_value(str(gp)).run()
    assert not at.exception
    shown = "\n".join(md.value for md in at.markdown)
    assert "**Aufgabe:** Berechne den Gesamtwiderstand." in shown
    assert "**AFB:** II" in shown and "**Punkte:** 4" in shown
    assert "- Ergebnis 30 Ω (2 P.)" in shown
    assert any("Quelle: aus bewertetem Material · Qualität 0,90" in c.value for c in at.caption)

    at.button(key="wk_share").click().run()
    assert not at.exception
    assert any("Geteilt" in s.value for s in at.success)
    assert any("zur Kuration geteilt" in c.value for c in at.caption)
    assert not [b for b in at.button if b.key == "wk_share"]
    with unit_of_work(Identity.system()) as db:
        assert db.get(m.AgentKnowledge, gp).shared_for_curation is True


def test_the_owner_deletes_her_own_good_practice_and_the_map_no_longer_counts_it(teacher_id) -> None:  # noqa: ANN001
    """What a rating stored stays hers to undo (decision 071): one good practice deleted from the Wissenskarte."""
    gp = _own_good_practice(teacher_id)
    at = app_as(teacher_id, PAGE)
    before = _personal(at.code[0].value)
    next(s for s in at.selectbox if s.label == "Eintrag öffnen").set_value(str(gp)).run()
    at.button(key="wk_forget").click().run()
    assert not at.exception
    assert any("Gelöscht" in s.value for s in at.success)
    assert _personal(at.code[0].value) == before - 1
    assert not [b for b in at.button if b.key == "wk_forget"]
    with unit_of_work(Identity.system()) as db:
        assert db.get(m.AgentKnowledge, gp) is None


def test_a_curator_is_offered_no_delete_of_a_teachers_good_practice(teacher_id, curator_id) -> None:  # noqa: ANN001
    gp = _own_good_practice(teacher_id)
    detail = entry_detail(viewer_id=teacher_id, target_id=teacher_id, knowledge_id=gp)
    assert detail.can_delete
    with unit_of_work(Identity.system()) as db:
        db.get(m.AgentKnowledge, gp).shared_for_curation = True  # readable by curators, still hers
    assert not entry_detail(viewer_id=curator_id, target_id=teacher_id, knowledge_id=gp).can_delete
    with pytest.raises(NotFoundError, match="Nur eigene bewährte Aufgaben"):
        forget_good_practice(teacher_id=curator_id, knowledge_id=gp)
    with unit_of_work(Identity.system()) as db:
        assert db.get(m.AgentKnowledge, gp) is not None


def _select(at, element_id: str, state: dict):  # noqa: ANN001, ANN202
    """What the browser sends when a chart node or a table row is clicked. AppTest cannot click an ECharts chart
    (it is an UnknownElement), so this adds the widget state by hand — private AppTest API, kept in one place."""
    from streamlit.proto.WidgetStates_pb2 import WidgetStates

    states = WidgetStates()
    states.CopyFrom(at._tree.get_widget_states())
    ws = states.widgets.add()
    ws.id = element_id
    ws.string_value = json.dumps(state)  # both widgets send their selection as a JSON string
    return at._run(states)


def test_clicking_a_graph_node_or_a_table_row_opens_the_entry(teacher_id) -> None:  # noqa: ANN001
    gp = _own_good_practice(teacher_id)
    at = app_as(teacher_id, PAGE)
    ins = inspect_wissenskarte(viewer_id=teacher_id, target_id=teacher_id, agent_type="klausur", fach="physik")
    graph = at.get("echarts_chart")[0]
    _select(at, graph.proto.id, {"selection": {"selected": [
        {"series_index": 0, "series_id": None, "series_name": None, "data_type": "node",
         "data_indices": [ins.node_entries.index(str(gp))]}], "areas": []}})
    assert not at.exception
    assert any(md.value == "**Aufgabe:** Berechne den Gesamtwiderstand." for md in at.markdown)

    # the centre node opens nothing (the open entry stays); a table row opens its entry
    _select(at, graph.proto.id, {"selection": {"selected": [
        {"series_index": 0, "series_id": None, "series_name": None, "data_type": "node", "data_indices": [0]}],
        "areas": []}})
    assert any(md.value == "**Aufgabe:** Berechne den Gesamtwiderstand." for md in at.markdown)
    frame = next(df for df in at.dataframe if "Fach-Profil Physik" in set(df.value["Eintrag"]))
    _select(at, frame.proto.id, {"selection": {"rows": [0], "columns": [], "cells": []}})
    assert not at.exception
    assert any(md.value == "**Fach-Profil Physik**" for md in at.markdown)
    assert any(md.value.startswith("**Beschreibung:** Physik-Klausuren verbinden") for md in at.markdown)


def test_curator_sees_a_teachers_private_entry_only_with_consent_and_the_read_is_logged(teacher_id, curator_id
                                                                                         ) -> None:  # noqa: ANN001
    from core.app.privacy import grant_consent, my_access_log, my_consents, revoke_consent

    gp = _own_good_practice(teacher_id, aufgabe="Private Aufgabe: Berechne den Gesamtwiderstand.")
    at = app_as(curator_id, PAGE)
    assert not at.exception
    who = at.selectbox(key="wk_teacher")
    assert f"{_name(teacher_id)} · Lehrkraft" in who.options and not any(_name(curator_id) in o for o in who.options)
    who.set_value(str(teacher_id)).run()
    assert not at.exception
    assert _personal(at.code[0].value) == 0  # the teacher's private good practice is not in the curator's view
    assert str(gp) not in json.dumps([s.options for s in at.selectbox])
    assert "Private Aufgabe" not in at.code[0].value
    with pytest.raises(UserError, match="nicht sichtbar"):
        entry_detail(viewer_id=curator_id, target_id=teacher_id, knowledge_id=gp)
    assert my_access_log(teacher_id) == []

    grant_consent(teacher_id, "knowledge", gp)  # the teacher lets staff read this one entry
    detail = entry_detail(viewer_id=curator_id, target_id=teacher_id, knowledge_id=gp)
    assert any("Private Aufgabe" in v for _, v in detail.fields) and not detail.can_share
    log = my_access_log(teacher_id)
    assert len(log) == 1 and _name(curator_id) in log[0].viewer and "Widerstände in Reihe" in log[0].what

    consent = my_consents(teacher_id)[0]
    revoke_consent(teacher_id, consent.id)
    with pytest.raises(UserError, match="nicht sichtbar"):
        entry_detail(viewer_id=curator_id, target_id=teacher_id, knowledge_id=gp)


def test_product_team_does_not_read_a_teachers_private_uploads_through_the_inspector(teacher_id) -> None:  # noqa: ANN001
    product = fresh_person(role="product", name="Test Produkt", faecher=())
    with unit_of_work(Identity.system()) as db:
        row = m.AgentKnowledge(agent_type="klausur", scope_type="teacher", scope_id=teacher_id, owner_id=teacher_id,
                               fach="physik", thema="Privat", knowledge_type="example", source="upload",
                               description="Hochgeladene Klausur der Lehrkraft",
                               content={"aufgabe": "Nur für mich: Stromkreis der 10b"})
        db.add(row)
        db.flush()
        example = row.id
    view = inspect_wissenskarte(viewer_id=product, target_id=teacher_id, agent_type="klausur", fach="physik")
    assert str(example) not in view.entries and "Nur für mich" not in view.wissenskarte.text
    assert all(str(example) not in t.ids for t in view.tables)
    own = inspect_wissenskarte(viewer_id=teacher_id, target_id=teacher_id, agent_type="klausur", fach="physik")
    assert any(str(example) in t.ids for t in own.tables)  # the teacher herself still sees it


def test_the_fach_follows_the_chosen_teacher(curator_id) -> None:  # noqa: ANN001
    german = fresh_person(name="Deutsch Lehrkraft", faecher=("deutsch",))
    physics = fresh_person(name="Physik Lehrkraft", faecher=("physik", "mathematik"))
    at = app_as(curator_id, PAGE)
    at.selectbox(key="wk_teacher").set_value(str(german)).run()
    assert at.selectbox(key="wk_fach").value == "deutsch"
    at.selectbox(key="wk_teacher").set_value(str(physics)).run()
    assert not at.exception
    assert at.selectbox(key="wk_fach").value == "physik"
    assert at.code[0].value.startswith("### Wissenskarte Physik")
    at.selectbox(key="wk_fach").set_value("mathematik").run()  # a Fach chosen by hand stays while she is shown
    assert at.selectbox(key="wk_fach").value == "mathematik"


def test_a_teacher_cannot_pick_or_inspect_other_teachers(teacher_id) -> None:  # noqa: ANN001
    other = fresh_person(name="Andere Lehrkraft")
    gp = _own_good_practice(other)
    at = app_as(teacher_id, PAGE)
    who = at.selectbox(key="wk_teacher")
    assert who.options == [f"{_name(teacher_id)} · Lehrkraft"] and who.disabled
    with pytest.raises(UserError, match="nur ihre eigene Wissenskarte"):
        inspect_wissenskarte(viewer_id=teacher_id, target_id=other, agent_type="klausur", fach="physik")
    with pytest.raises(UserError):
        entry_detail(viewer_id=teacher_id, target_id=other, knowledge_id=gp)
    with pytest.raises(UserError, match="nicht sichtbar"):  # and through their own map: not visible
        entry_detail(viewer_id=teacher_id, target_id=teacher_id, knowledge_id=gp)


def test_large_tables_are_paged_in_sql(teacher_id) -> None:  # noqa: ANN001
    with unit_of_work(Identity.system()) as db:
        db.execute(sa.text(
            "INSERT INTO agent_knowledge (agent_type, scope_type, scope_id, owner_id, fach, thema, knowledge_type,"
            " content, description, quality_score, source, created_at)"
            " SELECT 'klausur', 'teacher', :t, :t, 'physik', 'Thema ' || i, 'example', '{}'::jsonb,"
            " 'Beispiel ' || i, (i % 100) / 100.0, 'upload', now() - (i % 3) * interval '40 days'"
            " FROM generate_series(1, 3000) AS i"), {"t": teacher_id})
    at = app_as(teacher_id, PAGE)
    assert not at.exception
    assert any(t.label == "Beispiele (3.000)" for t in at.tabs)
    assert "Eigene Beispiele: 3000" in at.code[0].value
    examples = next(df for df in at.dataframe if df.value["Eintrag"].str.startswith("Beispiel ").all())
    first_page = list(examples.value["Eintrag"])
    assert len(first_page) == 25
    pager = next(p for p in at.get("pagination") if p.key and p.key.endswith("_example"))
    pager.set_value(2).run()
    assert not at.exception
    examples = next(df for df in at.dataframe if df.value["Eintrag"].str.startswith("Beispiel ").all())
    assert len(examples.value) == 25 and not set(examples.value["Eintrag"]) & set(first_page)
    assert any("Seite 2 von 120" in c.value for c in at.caption)
    assert any(h.value == "Neue Einträge pro Monat" for h in at.subheader)
    assert len(at.get("vega_lite_chart")) == 1  # entries per month by type (the rows span three months)
