"""Upload page: an own exam becomes an example (the Wissenskarte counts it); a broken file gets a German message."""

from __future__ import annotations

import io

from docx import Document

from core.app.acting import acting
from core.knowledge.wissenskarte import build_wissenskarte
from tests.pages.conftest import ROOT


def _exam_docx() -> bytes:
    doc = Document()
    doc.add_heading("Klassenarbeit Physik – Elektrizitätslehre", 1)
    doc.add_paragraph("Klasse 10 · Bearbeitungszeit: 45 Minuten")
    doc.add_paragraph("Aufgabe 1: Nenne die Einheit der elektrischen Spannung. (2 P.)")
    doc.add_paragraph("Aufgabe 2: Berechne den Widerstand bei U = 12 V und I = 0,5 A. (4 P.)")
    doc.add_paragraph("Aufgabe 3: Beurteile, ob eine Reihenschaltung für eine Lichterkette sinnvoll ist. (6 P.)")
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def _upload(at, name: str, data: bytes, mime: str):  # noqa: ANN001, ANN202
    # AppTest has no file-uploader API: replace the widget's value through its session state key.
    from streamlit.runtime.uploaded_file_manager import UploadedFile, UploadedFileRec

    at.session_state["upload_file"] = UploadedFile(UploadedFileRec(file_id="f1", name=name, type=mime, data=data),
                                                   None)
    return at


def _examples(person) -> int:  # noqa: ANN001
    with acting(person) as (db, _, ident):
        wk = build_wissenskarte(db=db, identity=ident, agent_type="klausur", fach="physik")
        return {(c["type"], c["scope"]): c["n"] for c in wk.facts["counts"]}.get(("example", "teacher"), 0)


def test_upload_page_imports_an_own_exam(teacher_id) -> None:  # noqa: ANN001
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "views" / "hochladen.py"), default_timeout=60)
    at.session_state["persona_id"] = str(teacher_id)
    at.run()
    assert not at.exception and "Beispiele & Lehrplan hochladen" in at.title[0].value
    at.selectbox(key="upload_fach").set_value("physik")
    _upload(at, "ka_elektro.docx", _exam_docx(), "application/vnd.openxmlformats-officedocument."
                                                  "wordprocessingml.document").run()
    before = _examples(teacher_id)
    at.button(key="upload_go").click().run()
    assert not at.exception
    assert at.success and "3 Aufgaben" in at.success[0].value, [e.value for e in at.error]
    assert _examples(teacher_id) == before + 1


def test_upload_page_refuses_a_broken_file(teacher_id) -> None:  # noqa: ANN001
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "views" / "hochladen.py"), default_timeout=60)
    at.session_state["persona_id"] = str(teacher_id)
    at.run()
    _upload(at, "kaputt.docx", b"PK\x03\x04 nicht wirklich", "application/octet-stream").run()
    at.button(key="upload_go").click().run()
    assert not at.exception
    assert at.error and "DOCX" in at.error[0].value
    assert _examples(teacher_id) == 0
