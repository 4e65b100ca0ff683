"""Knowledge import: all or nothing, German messages for every kind of bad file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.knowledge.retrieval import search
from core.uploads.json_import import import_knowledge, parse_import_file
from db.session import Identity


def _write(tmp_path: Path, payload: object | str) -> Path:
    p = tmp_path / "wissen.json"
    p.write_text(payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    return p


def _count(db: Session) -> int:
    return db.scalar(sa.text("SELECT count(*) FROM agent_knowledge WHERE source = 'import'"))


def test_import_writes_items_and_search_echoes_external_ids(db: Session, tmp_path: Path) -> None:
    items = parse_import_file(_write(tmp_path, [
        {"fach": "Physik", "content": {"aufgabe": "Berechnen Sie die Fallzeit eines Steins aus 20 m Höhe."},
         "external_id": "imp-1", "thema": "Freier Fall"},
        {"fach": "chemie", "content": {"aufgabe": "Benennen Sie die Edelgase."}, "external_id": "imp-2"},
    ]))
    assert import_knowledge(db=db, items=items) == {"inserted": 2, "updated": 0}
    hits = search(db=db, identity=Identity.system(), query="Fallzeit Stein aus 20 m Höhe", fach="physik", limit=5)
    # found among the bank's own free-fall tasks, with the id the importing system gave it
    assert "imp-1" in [h.external_id for h in hits[:3]]
    # Importing the same file again updates instead of duplicating.
    assert import_knowledge(db=db, items=items) == {"inserted": 0, "updated": 2}


@pytest.mark.parametrize("payload, message", [
    ("{nicht json", "Ungültiges JSON in Zeile 1"),
    ('{"fach": "physik"}', "JSON-Liste"),
    ("[]", "keine Einträge"),
    ('[{"fach": "physik"}, 7]', "Eintrag 2 ist kein JSON-Objekt"),
    ('[{"content": {}}]', "Eintrag 1, Feld „fach“"),
    ('[{"fach": "physik", "scope_type": "planet"}]', "Feld „scope_type“"),
    ('[{"fach": "physik", "farbe": "blau"}]', "Feld „farbe“"),
])
def test_bad_files_are_refused_with_a_german_message(tmp_path: Path, payload: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        parse_import_file(_write(tmp_path, payload))


def test_one_bad_item_means_nothing_is_written(db: Session, tmp_path: Path) -> None:
    before = _count(db)
    items = parse_import_file(_write(tmp_path, [
        {"fach": "physik", "content": {"aufgabe": "gut"}},
        {"fach": "physik", "content": {"aufgabe": "auch gut"}},
        {"fach": "Alchemie", "content": {"aufgabe": "schlecht"}},
    ]))
    with pytest.raises(UserError, match="Eintrag 3: Unbekanntes Fach"):
        import_knowledge(db=db, items=items)
    assert _count(db) == before


def test_scope_id_must_exist(db: Session, tmp_path: Path) -> None:
    items = parse_import_file(_write(tmp_path, [
        {"fach": "physik", "scope_type": "teacher", "scope_id": "00000000-0000-0000-0000-000000000001",
         "content": {"aufgabe": "x"}},
    ]))
    with pytest.raises(UserError, match="existiert nicht"):
        import_knowledge(db=db, items=items)


def test_binary_file_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "bild.json"
    p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    with pytest.raises(UserError, match="kein UTF-8"):
        parse_import_file(p)
