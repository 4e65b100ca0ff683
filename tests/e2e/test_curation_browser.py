"""Curator and product-team acceptance chain in a real browser (Debian Chromium via Playwright): every demo scenario
played in its sandbox (the real demo teacher's rows counted in every table before and after), a quiz question and a
three-level task edited, a conflict between two browser windows merged field by field, an old version restored, a
duplicate from page 2 of the queue merged, and the Physik operator list edited until the next Wissenskarte shows it.
What is asserted is what the page shows — saved values are read back from a reloaded page. Screenshots of the
curation desk go to docs/screenshots/curation_*.png (referenced from the README).
"""

from __future__ import annotations

import re
import tempfile
import uuid
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from db import models as m
from db.session import Identity, unit_of_work
from tests.e2e.test_browser import ARGS, CHROMIUM, _shot, idle, pw
from tests.pages.conftest import fresh_person
from tests.pages.test_good_practices import load, make_entry, twins_on_two_pages

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM, reason="no system chromium")]
DEMO_TEACHER = "steffen.keller@demo-gymnasium.de"
WAIT = 120_000
FAILURE_SHOT = str(Path(tempfile.gettempdir()) / "werkbank-e2e-curation-failure.png")


# --- browser helpers ---------------------------------------------------------------------------------------------


def email_of(person: uuid.UUID) -> str:
    with unit_of_work(Identity.system()) as db:
        return db.get(m.Teacher, person).email


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
    box.scroll_into_view_if_needed()
    options = page.get_by_role("option")
    for attempt in range(10):  # a click during a rerun can be swallowed: click again until the list is open
        box.locator("input").click()
        if attempt % 2:
            page.keyboard.press("ArrowDown")  # the list opens on a click or, after a rerun moved the box, on ↓
        try:
            options.first.wait_for(state="visible", timeout=3_000)
            break
        except pw.TimeoutError:
            page.keyboard.press("Escape")
            idle(page)
    wanted = page.get_by_role("option").filter(has_text=option).first
    try:
        wanted.wait_for(state="visible", timeout=30_000)
        wanted.click(timeout=30_000)
    except pw.TimeoutError:
        page.screenshot(path=FAILURE_SHOT, full_page=True)
        raise AssertionError(f"no option „{option}“ in „{label}“: {page.get_by_role('option').all_inner_texts()}") \
            from None
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


def says(page, kind: str, text: str) -> None:  # noqa: ANN001
    """An alert of this kind shows `text` (waits: the rerun that shows it may still be on its way)."""
    try:
        page.locator(f"[data-testid=stAlertContent{kind.capitalize()}]", has_text=text).first.wait_for(
            timeout=30_000)
    except pw.TimeoutError:
        page.screenshot(path=FAILURE_SHOT, full_page=True)
        raise AssertionError(f"no {kind} „{text}“; success: {alerts(page, 'success')!r}; "
                             f"error: {alerts(page, 'error')!r}") from None


def open_desk(page, url: str, curator: uuid.UUID, tag: str, *, view: str = "Alle aktiven") -> None:  # noqa: ANN001
    open_page(page, url, "good-practices", curator, "Good Practices")
    choose(page, "Fach", "Physik")
    choose(page, "Ansicht", view)
    type_into(page, "Suche (Thema, Aufgabentext)", tag)


def open_entry(page, entry: uuid.UUID) -> None:  # noqa: ANN001
    choose(page, "Eintrag öffnen", str(entry)[:8])
    no_failure_on(page)


def grid(page, header: str):  # noqa: ANN001, ANN201
    """The data editor / table whose columns include `header`."""
    return page.get_by_test_id("stDataFrame").filter(has=page.locator("th[role=columnheader]", has_text=header))


def grid_text(table, row: int, column: str) -> str:  # noqa: ANN001
    """A cell's text from the grid's accessible table (the drawing itself is a canvas); `row` counts from 0."""
    headers = table.locator("th[role=columnheader]")
    try:  # the grid draws its accessible table (headers, then rows) after the element itself appears
        headers.filter(has_text=column).first.wait_for(state="attached", timeout=30_000)
        table.locator(f"tr[aria-rowindex='{row + 2}']").first.wait_for(state="attached", timeout=30_000)
    except pw.TimeoutError:
        pass  # the assertion below says what was there
    names = headers.all_inner_texts()
    if column not in names:
        table.page.screenshot(path=FAILURE_SHOT, full_page=True)
    assert column in names, (column, names, table.count())
    index = headers.nth(names.index(column)).get_attribute("aria-colindex")
    return table.locator(f"tr[aria-rowindex='{row + 2}'] td[aria-colindex='{index}']").inner_text()


def type_in_cell(page, table, row: int, col: int, text: str) -> None:  # noqa: ANN001
    """Open a cell's editor with a double click (35 px rows under a 35 px header; `col` counts from 1, the first
    column's left edge is found by moving right from the row marker), type, and confirm with Enter."""
    table.scroll_into_view_if_needed()
    idle(page)
    box = table.bounding_box()
    y = box["y"] + 35 * (row + 1) + 17
    page.mouse.click(box["x"] + 70, y)
    for _ in range(col - 1):
        page.keyboard.press("ArrowRight")
    editor = page.locator("textarea.gdg-input")
    open_editor(page, editor, lambda: page.mouse.click(box["x"] + 70, y), col - 1)
    editor.fill(text)
    page.keyboard.press("Enter")
    editor.wait_for(state="detached", timeout=10_000)
    idle(page)


def open_editor(page, editor, select, right: int) -> None:  # noqa: ANN001
    """Open the selected cell's editor with Enter; a key pressed while a rerun redraws the grid can be lost, so the
    cell is selected again (`select`, then `right` × →) and Enter pressed again until the editor is visible."""
    page.keyboard.press("Enter")
    for _ in range(5):
        try:
            editor.wait_for(state="visible", timeout=10_000)
            return
        except pw.TimeoutError:
            idle(page)
            select()
            for _ in range(right):
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
    editor.wait_for(state="visible", timeout=10_000)


def add_operator_row(page, table, operator: str, afb: str, description: str) -> None:  # noqa: ANN001
    """Add a row with the grid's own "+" (it scrolls to the new, last row) and fill it with the keyboard: Enter opens
    a cell's editor, Tab confirms and moves right; the AFB select is confirmed with Enter."""
    table.scroll_into_view_if_needed()
    table.hover()
    page.get_by_role("button", name="Add row").click()
    idle(page)
    box = table.bounding_box()
    page.mouse.click(box["x"] + 70, box["y"] + box["height"] - 17)  # the new row's first cell
    editor = page.locator("textarea.gdg-input")
    for step, text in enumerate((operator, None, description)):
        if text is not None:
            open_editor(page, editor, lambda: page.mouse.click(box["x"] + 70, box["y"] + box["height"] - 17), step)
            editor.fill(text)
        page.keyboard.press("Tab")
        idle(page)
    page.keyboard.press("ArrowLeft")  # back to the AFB cell
    page.keyboard.press("Enter")
    page.keyboard.type(afb)
    page.keyboard.press("Enter")
    idle(page)


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
        _shot(page, "curation_demo")
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


def test_curator_edits_a_quiz_question_and_a_three_level_task(app_url: str) -> None:
    curator = fresh_person(role="curator", name="Browser Kuratorin")
    tag = tag_()
    quiz, levels = quiz_entry(tag), levels_entry(tag)
    with pw.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        open_desk(page, app_url, curator, tag)
        open_entry(page, quiz)
        question = f"Wann leuchtet eine Glühlampe im Stromkreis {tag}?"
        type_into(page, "Frage", question, commit=False)
        type_into(page, "Erklärung", "Nur ein geschlossener Stromkreis lässt Strom fließen.", commit=False)
        answers = grid(page, "Rückmeldung")
        type_in_cell(page, answers, 1, 3, "Ein offener Schalter unterbricht den Stromkreis.")
        click(page, "Inhalt speichern")
        says(page, "success", "Gespeichert (Version 2): Frage, Erklärung, Antworten.")
        _shot(page, "curation_quiz")

        open_desk(page, app_url, curator, tag)  # a new session: the form shows what is stored
        open_entry(page, quiz)
        assert value_of(page, "Frage") == question
        assert value_of(page, "Erklärung") == "Nur ein geschlossener Stromkreis lässt Strom fließen."
        answers = grid(page, "Rückmeldung")
        assert grid_text(answers, 1, "Rückmeldung") == "Ein offener Schalter unterbricht den Stromkreis."
        assert grid_text(answers, 1, "Antwort") == "Wenn der Schalter offen ist"
        assert grid_text(answers, 0, "richtig") == "true"

        open_entry(page, levels)
        type_into(page, "Aufgaben (erweitert)", "Berechne die Dichte.\nBegründe, ob der Körper in Wasser schwimmt.",
                  commit=False)
        click(page, "Inhalt speichern")
        says(page, "error", "Niveau erweitert: 2 Aufgaben, aber 1 Lösung")  # validated, not saved
        type_into(page, "Lösungen (erweitert)", "ρ = 0,5 g/cm³\nJa: 0,5 g/cm³ < 1 g/cm³.", commit=False)
        click(page, "Inhalt speichern")
        says(page, "success", "Gespeichert (Version 2): Niveau erweitert.")
        _shot(page, "curation_niveaus")

        page.reload()
        open_desk(page, app_url, curator, tag)
        open_entry(page, levels)
        assert value_of(page, "Lösungen (erweitert)") == "ρ = 0,5 g/cm³\nJa: 0,5 g/cm³ < 1 g/cm³."
        assert value_of(page, "Aufgaben (grundlegend)").startswith("Berechne die Dichte eines Körpers")
        no_failure_on(page)
        browser.close()


def test_two_curators_conflict_merge_field_by_field_and_an_old_version_is_restored(app_url: str) -> None:
    anna = fresh_person(role="curator", name="Anna Kuratorin")
    ben = fresh_person(role="curator", name="Ben Kurator")
    tag = tag_()
    entry = make_entry(tag)
    original = load(entry).content["aufgabe"]
    with pw.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        windows = [browser.new_context(viewport={"width": 1400, "height": 1000}).new_page() for _ in range(2)]
        for page, person in zip(windows, (anna, ben), strict=True):
            open_desk(page, app_url, person, tag)
            open_entry(page, entry)
        first, second = windows
        annas = f"Annas Fassung {tag}: Beschreibe die Strommessung mit dem Amperemeter genau."
        type_into(first, "Aufgabe", annas, commit=False)
        click(first, "Speichern")
        says(first, "success", "Gespeichert (Version 2): Aufgabe.")

        bens = f"Bens Fassung {tag}: Beschreibe, wie das Amperemeter in den Stromkreis geschaltet wird."
        type_into(second, "Aufgabe", bens, commit=False)
        type_into(second, "Kontext", "Bens Notiz: in Klasse 8 mit Steckbrett erprobt.", commit=False)
        click(second, "Speichern")
        says(second, "error", "Dieser Eintrag wurde inzwischen von Anna Kuratorin")
        refusal = alerts(second, "error")
        assert f"Aufgabe: jetzt „{annas}“, Ihre Fassung „{bens}“" in refusal and "Kontext" not in refusal, refusal
        assert value_of(second, "Aufgabe") == bens  # nothing typed is lost
        click(second, "Mit der aktuellen Version zusammenführen")
        says(second, "warning", "Diese Felder haben beide geändert")
        conflicts = second.locator("[class*=st-key-gp_][class*=_conflict_]")  # one box per field both changed
        assert conflicts.count() == 1, conflicts.all_inner_texts()
        box = conflicts.first.inner_text()
        assert box.startswith("Aufgabe") and all(t in box for t in (original, annas, bens)), box
        assert "Ihre Fassung (steht im Formular)" in box
        assert value_of(second, "Aufgabe") == bens
        assert value_of(second, "Kontext") == "Bens Notiz: in Klasse 8 mit Steckbrett erprobt."
        _shot(second, "curation_konflikt")
        merged = f"Gemeinsame Fassung {tag}: Beschreibe, wie man das Amperemeter schaltet und abliest."
        type_into(second, "Aufgabe", merged, commit=False)
        click(second, "Speichern")
        says(second, "success", "Gespeichert (Version 3)")

        first.reload()  # Anna's window, reloaded, shows the merged entry
        open_desk(first, app_url, anna, tag)
        open_entry(first, entry)
        assert value_of(first, "Aufgabe") == merged
        assert value_of(first, "Kontext") == "Bens Notiz: in Klasse 8 mit Steckbrett erprobt."
        assert "Version 3" in first.get_by_text("Klausur · allgemein").first.inner_text()

        first.get_by_text("Änderungsverlauf (2)").click()
        changes = first.locator("[class*=st-key-gp_change_]").all_inner_texts()  # newest first, field by field
        assert len(changes) == 2, changes
        assert "Anna Kuratorin" in changes[1] and f"Vorher: {original}" in changes[1] and f"Nachher: {annas}" in \
            changes[1] and "Kontext" not in changes[1], changes[1]
        assert "Ben Kurator" in changes[0] and f"Vorher: {annas}" in changes[0] and f"Nachher: {merged}" in \
            changes[0] and "Nachher: Bens Notiz: in Klasse 8 mit Steckbrett erprobt." in changes[0], changes[0]
        choose(first, "Fassung vor dieser Änderung wiederherstellen", "Anna Kuratorin")
        _shot(first, "curation_verlauf")
        click(first, "Wiederherstellen")
        says(first, "success", "Ältere Fassung wiederhergestellt (Version 4)")
        first.reload()
        open_desk(first, app_url, anna, tag)
        open_entry(first, entry)
        assert value_of(first, "Aufgabe") == original
        no_failure_on(first)
        browser.close()


def test_a_duplicate_on_page_two_of_the_queue_is_merged(app_url: str) -> None:
    curator = fresh_person(role="curator", name="Browser Kuratorin")
    tag = tag_()
    drop, keep = twins_on_two_pages(tag)
    with pw.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        open_desk(page, app_url, curator, tag)
        choose(page, "Sortierung", "Neueste zuerst")
        page.get_by_text("22 Einträge · Seite 1 von 2").wait_for(timeout=WAIT)  # the twins are on different pages
        page.get_by_role("tab", name="Dubletten").click()
        idle(page)
        page.get_by_text("1 Paar im ganzen Fach").wait_for(timeout=WAIT)
        compare = grid(page, "Rechts")
        compare.scroll_into_view_if_needed()
        compare.locator("td", has_text="Kontext").first.wait_for(state="attached", timeout=WAIT)  # rows drawn
        n = compare.locator("tbody tr").count()
        rows = {grid_text(compare, r, "Feld"): grid_text(compare, r, "") for r in range(n)}
        assert [rows.get(f) for f in ("Aufgabe", "Operator", "Punkte", "Kontext")] == ["", "", "", "≠"], rows
        page.get_by_test_id("stRadio").get_by_text(f"({str(keep)[:8]})").click()  # keep the better rated one
        idle(page)
        _shot(page, "curation_dubletten")
        click(page, "Zusammenführen")
        says(page, "success", "Zusammengeführt")
        page.get_by_text("Keine Dubletten").wait_for(timeout=WAIT)

        open_desk(page, app_url, curator, tag, view="Ausgemustert")
        open_entry(page, drop)
        says(page, "info", f"Zusammengeführt in Eintrag {str(keep)[:8]}")
        click(page, f"Zum Eintrag {str(keep)[:8]} (zusammengeführt)")
        page.get_by_text("Qualität 0,80 aus 4 Bewertung(en) · 6× genutzt · aktiv").wait_for(timeout=WAIT)
        no_failure_on(page)
        browser.close()


def test_curator_edits_the_physik_operator_list_and_the_next_wissenskarte_shows_it(app_url: str) -> None:
    curator = fresh_person(role="curator", name="Browser Kuratorin")
    teacher = fresh_person(name="Browser Physiklehrerin", faecher=("physik",))
    with unit_of_work(Identity.system()) as db:
        row = db.scalar(sa.select(m.AgentKnowledge).where(m.AgentKnowledge.external_id == "seed:physik:operatoren"))
        original, count = dict(row.content), len(row.content["operatoren"])
    try:
        with pw.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            open_page(page, app_url, "good-practices", curator, "Good Practices")
            choose(page, "Fach", "Physik")
            page.get_by_role("tab", name="Operatoren").click()
            idle(page)
            add_operator_row(page, grid(page, "Beschreibung"), "Abschätzen", "II",
                             "Größenordnungen begründet überschlagen.")
            click(page, "Operatorenliste speichern")
            says(page, "success", f"{count + 1} Operatoren; neu: Abschätzen")
            _shot(page, "curation_operatoren")

            open_page(page, app_url, "wissenskarte", teacher, "Wissenskarte")
            page.get_by_role("tab", name="Operatoren").click()
            idle(page)
            table = grid(page, "Thema")
            table.scroll_into_view_if_needed()
            box = table.bounding_box()
            page.mouse.click(box["x"] + 15, box["y"] + 35 + 17)  # select the row: its entry opens on the right
            idle(page)
            page.get_by_text("Abschätzen (AFB II)").first.wait_for(timeout=WAIT)
            no_failure_on(page)
            browser.close()
    finally:
        with unit_of_work(Identity.system()) as db:
            db.get(m.AgentKnowledge, row.id).content = original
