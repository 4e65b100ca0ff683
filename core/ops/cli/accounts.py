"""Commands for administrators: local accounts (create, password, disable, enable, list). Passwords come from
standard input (`--password-stdin`) or are generated and printed once; they never appear in the process list."""

from __future__ import annotations

import argparse
import json
import sys

from core.app.accounts import accounts, create_account, set_disabled, set_password
from core.app.errors import UserError
from core.app.privacy import delete_my_data
from core.ops.cli.teachers import as_teacher
from core.ops.service import ensure_ready


def _password(args: argparse.Namespace) -> str | None:
    if not args.password_stdin:
        return None
    line = sys.stdin.readline().rstrip("\r\n")
    if not line:
        raise UserError("Auf der Standardeingabe kam kein Passwort an.")
    return line


def _show(email: str, password: str, generated: bool) -> None:
    if generated:
        print(f"Passwort für {email}: {password}")
        print("Bitte sicher weitergeben; es wird nicht noch einmal angezeigt.")


def cmd_account(args: argparse.Namespace) -> int:
    ensure_ready()
    if args.action == "list":
        rows = accounts()
        if args.json:
            print(json.dumps([{**r.__dict__, "last_login": r.last_login.isoformat() if r.last_login else None}
                              for r in rows], ensure_ascii=False))
            return 0
        for r in rows:
            state = "gesperrt" if r.disabled else ("aktiv" if r.has_password else "ohne Passwort")
            print(f"{r.email:<40} {r.role:<8} {state:<14} {r.name}")
        if not rows:
            print("Noch keine lokalen Konten.")
        return 0
    if not args.email:
        raise UserError("Bitte die E-Mail-Adresse des Kontos angeben.")
    if args.action == "create":
        given = _password(args)
        faecher = tuple(f.strip() for f in (args.faecher or "").split(",") if f.strip())
        password = create_account(email=args.email, password=given, name=args.name, role=args.role,
                                  school=args.school, faecher=faecher, bundesland=args.bundesland)
        email = args.email.strip().lower()
        role = next((r.role for r in accounts() if r.email == email), args.role)
        print(f"Konto {email} angelegt ({role}).")
        _show(args.email, password, given is None)
    elif args.action == "password":
        given = _password(args)
        password = set_password(email=args.email, password=given)
        print(f"Neues Passwort für {args.email} gesetzt.")
        _show(args.email, password, given is None)
    else:
        set_disabled(email=args.email, disabled=args.action == "disable")
        print(f"Konto {args.email} {'gesperrt' if args.action == 'disable' else 'wieder freigegeben'}.")
    return 0


def cmd_delete_data(args: argparse.Namespace) -> int:
    """All data of one teacher, deleted in one transaction (the person and their account stay)."""
    teacher_id, label = as_teacher(args.teacher, lambda _db, t, _i: (t.id, f"{t.name} <{t.email}>"))
    if not args.yes:
        if not sys.stdin.isatty():
            raise UserError("Zum Löschen ohne Rückfrage bitte --yes angeben.")
        if input(f"Alle Daten von {label} endgültig löschen? Bitte „löschen“ eingeben: ").strip() != "löschen":
            print("Nichts gelöscht.")
            return 0
    counts = delete_my_data(teacher_id, by="Betrieb (Kommandozeile)")
    print(f"Gelöscht für {label}: " + (", ".join(f"{n} {what}" for what, n in counts.items()) or "es gab nichts."))
    return 0
