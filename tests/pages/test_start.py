"""The frame: the app starts, migrates, seeds; personas see only their pages; the system page shows the DB."""

from tests.pages.conftest import app_as


def test_system_page_shows_database_reachable(product_id) -> None:  # noqa: ANN001
    at = app_as(product_id, "views/start.py")
    assert not at.exception
    assert any("Datenbank erreichbar" in s.value and "pgvector 0.8" in s.value for s in at.success)
    assert at.metric[0].label == "Wissenseinträge" and int(at.metric[0].value.replace(".", "")) > 100


def test_sidebar_shows_the_persona_and_the_offline_badge(teacher_id) -> None:  # noqa: ANN001
    at = app_as(teacher_id)
    assert not at.exception
    assert at.sidebar.selectbox(key="persona_id").value == str(teacher_id)
    assert any("Offline-Modus (regelbasiert)" in md.value for md in at.sidebar.markdown)


def test_pages_a_persona_may_not_use_are_not_offered(teacher_id, curator_id) -> None:  # noqa: ANN001
    for who, forbidden in ((teacher_id, ("views/good_practices.py", "views/prompt_labor.py", "views/start.py")),
                           (curator_id, ("views/praeferenzen.py", "views/prompt_labor.py"))):
        at = app_as(who)
        assert not at.exception
        for page in forbidden:
            # hidden from the navigation but registered, so a deep link gets the German refusal, not "Page not found"
            at.switch_page(page)
            at.run()
            assert not at.exception
            assert any("nicht freigegeben" in w.value for w in at.warning), (who, page)


def test_a_forbidden_page_opened_directly_refuses(teacher_id) -> None:  # noqa: ANN001
    from streamlit.testing.v1 import AppTest

    from tests.pages.conftest import ROOT

    at = AppTest.from_file(str(ROOT / "views" / "good_practices.py"), default_timeout=60)
    at.session_state["persona_id"] = str(teacher_id)
    at.run()
    assert not at.exception
    assert any("nicht freigegeben" in w.value for w in at.warning)
