"""Uploads as an attacker or a careless colleague would send them: pupils' personal data in every kind of upload
is stored nowhere and sent to no model; a PDF bomb and a zip bomb end with a German message and no row written
(CLI and page)."""

from __future__ import annotations

import io
import time
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa

from agents.models.registry import offline_rules, override_models, rules_model
from core.app.config import get_settings
from core.chat.service import Attachment, send
from core.ops.cli.main import main
from core.uploads.service import import_file
from db import models as m
from db.session import Identity, unit_of_work
from tests import fixtures_docs as docs
from tests.core.uploads import bombs
from tests.pages.conftest import ROOT, fresh_person
from tests.stored import rows_containing

PUPIL = "Max Mustermann"
PHONE = "0351 1234567"
SECRETS = (PUPIL, "Mustermann", "1234567", "Özlem", "Yılmaz", "Nowak")
PII_LINES = [f"Hinweis zur Lerngruppe: {PUPIL} (ADHS) braucht Pausen, Mutter unter {PHONE}.",
             "Özlem Yılmaz hat Diabetes Typ 1. Schülerin A. Nowak: Epilepsie."]


@pytest.fixture
def person(database) -> uuid.UUID:  # noqa: ANN001
    return fresh_person()


@pytest.fixture
def limits(monkeypatch):  # noqa: ANN001, ANN201
    def apply(**env: str) -> None:
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        get_settings.cache_clear()

    yield apply
    get_settings.cache_clear()


def _uploads_of(teacher_id: uuid.UUID) -> tuple[int, int, int]:
    with unit_of_work(Identity.system()) as db:
        def count(model: type, **where: object) -> int:
            q = sa.select(sa.func.count()).select_from(model)
            for k, v in where.items():
                q = q.where(getattr(model, k) == v)
            return int(db.scalar(q) or 0)

        return (count(m.Upload, teacher_id=teacher_id), count(m.AgentKnowledge, owner_id=teacher_id),
                count(m.CurriculumChunk, owner_id=teacher_id))


def _curriculum_with_pupils() -> bytes:
    return docs.docx_bytes([("Title", "Lehrplan Physik (Auszug)"), ("Heading 1", "Klassenstufe 10"),
                            ("Heading 2", "Lernbereich 3: Festkörperphysik"), ("Heading 3", "3.1 Supraleitung"),
                            "Die Schülerinnen und Schüler beschreiben das Phänomen der Supraleitung an Beispielen "
                            "aus Forschung und Technik und stellen Messreihen in Diagrammen dar.", *PII_LINES])


def _exam_with_pupils() -> bytes:
    return docs.docx_bytes([("Title", "Klassenarbeit Nr. 2 – Elektrizitätslehre"), *PII_LINES,
                            ("Heading 2", "Aufgabe 1 (6 P.)"),
                            "a) Nennen Sie zwei Eigenschaften einer Reihenschaltung. (2 P., AFB I)",
                            "b) Berechne den Gesamtwiderstand der Schaltung.\t4 P.",
                            ("Heading 2", "Aufgabe 2 (4 P.)"),
                            "Erläutere, warum der Strom in allen Bauteilen gleich groß ist. (4 Punkte)"])


def test_uploads_of_every_kind_store_no_pupil_data_and_send_none_to_the_model(person: uuid.UUID) -> None:
    before = rows_containing(*SECRETS)  # the seeded task bank may use a common name; nothing may be added
    school = import_file(teacher_id=person, filename="Lehrplan_Max_Mustermann.docx", data=_curriculum_with_pupils(),
                         kind="curriculum", fach="physik", scope="school")
    assert any("personenbezogene Angaben entfernt" in h and "Namen" in h for h in school.hinweise), school.hinweise
    example = import_file(teacher_id=person, filename="ka.docx", data=_exam_with_pupils(), kind="example",
                          fach="physik")
    assert any("Telefonnummern" in h for h in example.hinweise)
    pdf = docs.pdf_bytes([(12, "Lehrplan Physik"), (10, "Die Schülerinnen und Schüler erklären Stromkreise."),
                          (10, PII_LINES[0]), (10, "Schülerin A. Nowak: Epilepsie.")])  # latin-1 only
    import_file(teacher_id=person, filename="lp.pdf", data=pdf, kind="curriculum", fach="physik")

    seen: list[str] = []

    def recording(role: str):  # noqa: ANN202 — the offline rules, recording every request they are sent
        rules = offline_rules(role)

        def run(messages, info):  # noqa: ANN001, ANN202
            seen.append(repr(messages))
            return rules(messages, info)

        return rules_model(run)

    with override_models(main=recording("main"), klausur=recording("klausur")):
        result = send(teacher_id=person, message="Özlem Yılmaz hat Diabetes. Klausur Physik Klasse 10 zu "
                      "Stromkreisen, 45 Minuten, nutze den Anhang.", conversation_id=None,
                      attachments=[Attachment("notizen.txt", "text/plain", "\n".join(PII_LINES).encode())])
    assert result.conversation_id is not None and seen
    assert not [s for s in SECRETS if any(s in text for text in seen)]
    assert rows_containing(*SECRETS) == before  # every table, read as the owner
    with unit_of_work(Identity.system()) as db:
        uploads = db.scalars(sa.select(m.Upload).where(m.Upload.teacher_id == person)).all()
    assert len(uploads) == 4 and all(u.data is None and u.removed for u in uploads)  # raw files gone
    assert any("[Name entfernt]" in (u.extracted_text or "") for u in uploads)


def _write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize(("name", "make"), [("bombe.pdf", bombs.pdf_bomb), ("bombe.docx", bombs.zip_bomb)])
def test_bombs_through_the_cli_end_with_a_german_message_and_no_row(  # noqa: PLR0913
        person, limits, tmp_path, capsys, name, make) -> None:  # noqa: ANN001
    limits(WERKBANK_UPLOAD_CPU_SECONDS="3")  # the CPU limit stops the PDF long before pypdf's own token limit
    with unit_of_work(Identity.system()) as db:
        email = db.get(m.Teacher, person).email
    started = time.monotonic()
    code = main(["upload", _write(tmp_path, name, make()), "--kind", "curriculum", "--fach", "physik",
                 "--teacher", email])
    took = time.monotonic() - started
    err = capsys.readouterr().err
    print(f"\n{name} über die CLI: {took:.1f} s")
    assert code == 2 and "Traceback" not in err
    assert ("zu aufwendig zu lesen" in err) if name.endswith(".pdf") else ("entpackt ungewöhnlich groß" in err)
    assert _uploads_of(person) == (0, 0, 0)


def test_cli_upload_imports_lehrplaene_in_bulk_and_refuses_bad_input_with_exit_2(
        person, tmp_path, capsys) -> None:  # noqa: ANN001
    with unit_of_work(Identity.system()) as db:
        email = db.get(m.Teacher, person).email
    a = _write(tmp_path, "lp1.docx", docs.curriculum_docx("Supraleitung"))
    b = _write(tmp_path, "lp2.docx", docs.curriculum_docx("Halbleiter"))
    assert main(["upload", a, b, "--kind", "curriculum", "--fach", "physik", "--teacher", email]) == 0
    assert "übernommen" in capsys.readouterr().out and _uploads_of(person)[0] == 2
    for argv in (["upload", str(tmp_path / "fehlt.docx"), "--kind", "curriculum", "--fach", "physik"],
                 ["upload", a, "--kind", "curriculum", "--teacher", email],  # no Fach
                 ["upload", a, "--kind", "curriculum", "--fach", "physik", "--teacher", "niemand@test.de"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("Fehler:") and "Traceback" not in err


def _hochladen(teacher_id: uuid.UUID, name: str, data: bytes):  # noqa: ANN202
    from streamlit.runtime.uploaded_file_manager import UploadedFile, UploadedFileRec
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "views" / "hochladen.py"), default_timeout=90)
    at.session_state["persona_id"] = str(teacher_id)
    at.run()
    at.selectbox(key="upload_fach").set_value("physik")
    at.session_state["upload_file"] = UploadedFile(UploadedFileRec(file_id="f1", name=name, type="application/pdf",
                                                                   data=data), None)
    at.run()
    at.button(key="upload_go").click().run()
    return at


@pytest.mark.parametrize(("name", "make", "message"), [("bombe.pdf", bombs.pdf_bomb, "zu aufwendig zu lesen"),
                                                       ("bombe.docx", bombs.zip_bomb, "entpackt ungewöhnlich groß")])
def test_bombs_on_the_page_end_with_a_german_message_and_no_row(person, name, make, message) -> None:  # noqa: ANN001
    started = time.monotonic()  # default limits, as a school's server runs them
    at = _hochladen(person, name, make())
    print(f"\n{name} auf der Seite: {time.monotonic() - started:.1f} s")
    assert not at.exception
    assert any(message in e.value for e in at.error), [e.value for e in at.error]
    assert _uploads_of(person) == (0, 0, 0)


def test_stored_file_name_and_text_carry_no_pupil_name(person: uuid.UUID) -> None:
    result = import_file(teacher_id=person, filename="Klausur_Jonas_Weber_ADHS.txt",
                         data=io.BytesIO("Aufgabe 1: Berechne 3 + 4. (2 P.)\nAufgabe 2: Erkläre. (3 P.)".encode())
                         .getvalue(), kind="example", fach="mathematik")
    with unit_of_work(Identity.system()) as db:
        stored = db.get(m.Upload, result.upload_id)
    assert "Weber" not in stored.filename and "ADHS" not in stored.filename


def test_raw_files_are_kept_only_for_the_configured_days(person: uuid.UUID, limits) -> None:  # noqa: ANN001
    from datetime import UTC, datetime, timedelta

    from core.ops.service import retention

    limits(WERKBANK_UPLOAD_KEEP_DAYS="7")
    kept = import_file(teacher_id=person, filename="lp.docx", data=docs.curriculum_docx(), kind="curriculum",
                       fach="physik")
    with_pupil = import_file(teacher_id=person, filename="lp2.docx", data=_curriculum_with_pupils(),
                             kind="curriculum", fach="physik")
    with unit_of_work(Identity.system()) as db:
        assert db.get(m.Upload, kept.upload_id).data is not None  # no personal data: kept for the days configured
        assert db.get(m.Upload, with_pupil.upload_id).data is None  # with personal data: never kept raw
    retention(now=datetime.now(UTC) + timedelta(days=8))
    with unit_of_work(Identity.system()) as db:
        row = db.get(m.Upload, kept.upload_id)
        assert row.data is None and row.data_deleted_at is not None and "Supraleitung" in row.extracted_text


def _utf16_entity_docx() -> bytes:
    """The attack: document.xml with an entity declaration, saved as UTF-16 (the byte pattern check misses it)."""
    base = docs.entity_docx("external")

    def to_utf16(xml: bytes) -> bytes:
        return xml.decode("utf-8").replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")

    return docs._rewrite(base, "word/document.xml", to_utf16)  # noqa: SLF001 — the fixtures' own helper


@pytest.mark.parametrize("kind", ["example", "attachment"])
def test_a_utf16_docx_with_entities_is_refused(person: uuid.UUID, kind: str) -> None:
    from core.app.errors import UserError

    with pytest.raises(UserError, match="Kodierung, die Word nie schreibt"):
        if kind == "example":
            import_file(teacher_id=person, filename="k.docx", data=_utf16_entity_docx(), kind="example",
                        fach="physik")
        else:
            send(teacher_id=person, message="Bitte lesen", conversation_id=None,
                 attachments=[Attachment("k.docx", "application/octet-stream", _utf16_entity_docx())])
    assert _uploads_of(person) == (0, 0, 0)


def test_knowledge_import_refuses_deep_json_and_pupils_data_with_exit_2(database, tmp_path, capsys) -> None:  # noqa: ANN001
    deep = _write(tmp_path, "tief.json", b"[" * 100_000 + b"]" * 100_000)
    pii = _write(tmp_path, "pii.json", b'[{"fach": "physik", "description": "Jonas Weber (ADHS): Aufgabe", '
                                      b'"content": {"aufgabe": "Rechne."}}]')
    for path, message in ((deep, "zu tief verschachtelt"), (pii, "personenbezogene Daten")):
        assert main(["import-knowledge", path]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and "Error" not in err
