"""Commands a teacher could give: one chat turn (files written to a folder), a stored material shown, a material
rated with 1–5 stars."""

from __future__ import annotations

import argparse
import json
import os
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.chat.turn import chat_turn
from core.knowledge.learning import rate_material
from core.material_sets.archive import combined_zip
from core.materials.service import material_view
from core.materials.wording import anzahl
from core.ops.cli.teachers import as_teacher, parse_uuid
from db.models import Teacher
from db.repos.materials import files_of
from db.session import Identity


def cmd_chat(args: argparse.Namespace) -> int:
    conversation_id = None if args.new or not args.conversation else parse_uuid(args.conversation, "Gesprächs")
    out_dir = _out_dir(args.out) if args.out else None

    def turn(db: Session, teacher: Teacher, identity: Identity) -> tuple[Any, list[str]]:
        result = chat_turn(db=db, identity=identity, teacher=teacher, message=args.message,
                           conversation_id=conversation_id)
        written = []
        if out_dir is not None and result.material_ids:
            written = _write_files(db, out_dir, [parse_uuid(i, "Material") for i in result.material_ids])
        return result, written

    result, written = as_teacher(args.teacher, turn)
    if args.json:
        data = result.as_json()
        data["files"] = written or data["files"]
        print(json.dumps(data, ensure_ascii=False))
        return 0
    for notice in result.notices:
        print(notice)
    print(result.reply)
    for path in written:
        print(f"  Datei: {path}")
    print(f"\n(Gespräch {result.conversation_id} · Modell {result.model})")
    return 0


def _out_dir(name: str) -> Path:
    """The folder for the files, made (and checked writable) before the turn runs: a typo must not cost the turn."""
    path = Path(name)
    if path.exists() and not path.is_dir():
        raise UserError(f"„{name[:200]}“ ist kein Ordner. Bitte für --out einen Ordner angeben.")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"Der Ordner „{name[:200]}“ lässt sich nicht anlegen ({exc.strerror}).") from exc
    if not os.access(path, os.W_OK | os.X_OK):
        raise UserError(f"In den Ordner „{name[:200]}“ darf nicht geschrieben werden. Bitte einen anderen angeben.")
    return path


def _write_files(db: Session, out_dir: Path, material_ids: list[uuid.UUID]) -> list[str]:
    """Every file of every material of the turn, and for several materials one ZIP of all of them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    names = [Path(f.filename).name for mid in material_ids for f in files_of(db=db, material_id=mid)]
    for n, mid in enumerate(material_ids, 1):
        for f in files_of(db=db, material_id=mid):
            name = Path(f.filename).name
            target = out_dir / (name if names.count(name) == 1 else f"{n}_{name}")  # never one file over another
            target.write_bytes(f.data)
            written.append(str(target))
    if len(material_ids) > 1:
        target = out_dir / "Materialpaket.zip"
        target.write_bytes(combined_zip(db=db, material_ids=material_ids))
        written.append(str(target))
    return written


def cmd_material(args: argparse.Namespace) -> int:
    view = as_teacher(args.teacher, lambda db, t, ident: material_view(
        db=db, teacher=t, material_id=parse_uuid(args.material_id, "Material")))
    if args.json:
        print(json.dumps(view, ensure_ascii=False, indent=1, default=str))
    else:
        print(f"{view['titel']} ({view['material_type']}, {view['fach']}) — {view.get('gesamtpunkte', '–')} Punkte")
        if view.get("afb_anteile"):
            print("AFB: " + " · ".join(f"{k} {v} %" for k, v in view["afb_anteile"].items()))
        print("Prüfung: " + ("ohne Fehler" if not view["validation"] else "; ".join(view["validation"])))
        for f in view["files"]:
            print(f"  Datei: {f['filename']}")
    return 0


def cmd_rate(args: argparse.Namespace) -> int:
    if not 1 <= args.stars <= 5:
        raise UserError("Bitte 1 bis 5 Sterne vergeben.")
    learned = as_teacher(args.teacher, lambda db, t, ident: rate_material(
        db=db, identity=ident, teacher=t, material_id=parse_uuid(args.material_id, "Material"), stars=args.stars,
        task_ref=args.task))
    print(f"Bewertung gespeichert ({anzahl(args.stars, 'Stern')}). Neue bewährte Aufgaben: {learned['good_practices']}"
          + (f"; Präferenzen: {learned['preferences']}" if learned["preferences"] else "") + ".")
    return 0
