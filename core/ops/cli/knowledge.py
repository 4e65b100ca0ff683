"""Commands about knowledge: the Wissenskarte as a specialist sees it, the hybrid search, importing knowledge from
a JSON file (all or nothing)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.knowledge.retrieval import search
from core.knowledge.wissenskarte import build_wissenskarte
from core.ops.cli.teachers import as_teacher
from core.ops.service import ensure_ready
from core.uploads import service as uploads


def cmd_wissenskarte(args: argparse.Namespace) -> int:
    wk = as_teacher(
        args.teacher,
        lambda db, t, ident: build_wissenskarte(db=db, identity=ident, agent_type=args.agent, fach=args.fach),
    )
    if args.json:
        print(json.dumps({"text": wk.text, "tokens": wk.tokens, "facts": wk.facts}, ensure_ascii=False, default=str))
    else:
        print(wk.text)
        print(f"\n({wk.tokens} Tokens, geschätzt)")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    items = uploads.parse_import_file(Path(args.file))
    ensure_ready()
    result = uploads.import_knowledge_items(items)
    print(f"Importiert: {result['inserted']} neu, {result['updated']} aktualisiert.")
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    hits = as_teacher(
        args.teacher,
        lambda db, t, ident: search(db=db, identity=ident, query=args.query, fach=args.fach, kind=args.kind,
                                    agent_type=None if args.kind == "curriculum" else args.agent, limit=args.limit),
    )
    if args.json:
        print(json.dumps([h.as_dict() for h in hits], ensure_ascii=False, indent=1))
        return 0
    if not hits:
        print("Keine Treffer.")
    for i, h in enumerate(hits, 1):
        ext = f" [{h.external_id}]" if h.external_id else ""
        print(f"{i:>2}. {h.title}{ext} · {h.fach} · {h.scope_type} · Score {h.score:.4f}")
        print(f"    {h.text[:160]}")
    return 0
