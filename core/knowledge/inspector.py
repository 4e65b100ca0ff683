"""The Wissenskarte inspector: what a specialist sees for one teacher — the exact text, a graph of scopes → types →
entries, paginated tables and entries per month. A teacher inspects only themselves. Curators and the product team
pick any teacher; the map is then read acting as the VIEWER (row-level security: global rows, rows shared for
curation, and private rows only with the owner's consent), narrowed to what that teacher's specialist would see.
Every read of a consented private entry is written to the owner's access log."""

from __future__ import annotations

import contextlib
import math
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from core.app.acting import ROLE_LABELS, Persona, acting, personas
from core.app.errors import NotFoundError, UserError
from core.knowledge.graph import build as graph_option
from core.knowledge.wissenskarte import AGENT_TYPES, PREFERENCE_LABELS, Wissenskarte, build_wissenskarte
from core.materials.faecher import fach_name
from db.models import Teacher
from db.repos import inspector as repo
from db.repos.privacy import log_access
from db.repos.teachers import find_teacher, identity_for
from db.session import Identity, unit_of_work

SCOPES = {"teacher": "eigene", "class": "Klasse", "school": "Schule", "global": "allgemein"}
TYPES = {  # knowledge type -> (label, colour); the graph's legend and the tables use the same order
    "good_practice": ("Bewährte Aufgaben", "#2e7d32"),
    "example": ("Beispiele", "#1565c0"),
    "preference": ("Präferenzen", "#ef6c00"),
    "note": ("Notizen", "#6a1b9a"),
    "generic": ("Fach-Profil", "#546e7a"),
    "operator_list": ("Operatoren", "#8d6e63"),
}
SOURCES = {"system": "Grundausstattung", "upload": "Upload", "generated": "aus bewertetem Material",
           "conversation": "aus dem Chat", "curator": "Kuration", "import": "Import"}
PAGE_SIZE = 25
GRAPH_ENTRIES = 60
PER_GROUP = 15  # entries per (scope, type) in the graph, so one large group does not hide the others
MONTHS = 24

# Content keys shown in an entry's details, in this order and wording; the rest follows under its own name.
CONTENT_LABELS = {
    "aufgabe": "Aufgabe", "frage": "Frage", "operator": "Operator", "afb": "AFB", "punkte": "Punkte",
    "material": "Material", "lernziel": "Lernziel", "erklaerung": "Erklärung", "beschreibung": "Beschreibung",
    "themenfeld": "Themenfeld", "klassenstufe": "Klassenstufe", "kontext": "Kontext", "typ": "Typ",
    "aufgabenformate": "Aufgabenformate", "typische_verteilung": "AFB üblich", "lehrer_rating": "Bewertung",
}
HIDDEN = {"erwartung", "material_id", "quellen", "embedding"}


@dataclass(frozen=True)
class TablePage:
    knowledge_type: str
    label: str
    total: int
    page: int
    pages: int
    ids: list[str]
    rows: list[dict[str, Any]]


@dataclass(frozen=True)
class Inspection:
    teacher_id: uuid.UUID
    teacher_name: str
    agent_type: str
    fach: str
    wissenskarte: Wissenskarte
    scope_totals: dict[str, int]
    graph: dict[str, Any]  # an ECharts option (graph series, fixed radial layout: core.knowledge.graph)
    node_entries: list[str | None]  # per graph node: the knowledge id it opens, None for centre/scope/type nodes
    entries: dict[str, str]  # the graph's entries, best first: knowledge id -> short label
    tables: list[TablePage]
    monthly: dict[str, dict[str, int]]  # "2026-11" -> type label -> new entries


@dataclass(frozen=True)
class EntryDetail:
    id: uuid.UUID
    title: str
    art: str
    bereich: str
    thema: str | None
    description: str | None
    quelle: str
    quality: float
    times_used: int
    created: str
    fields: list[tuple[str, str]]
    erwartung: list[tuple[str, str]]
    shared: bool
    can_share: bool
    can_delete: bool = False  # the owner's own good practice, seen by herself


# --- who may inspect whom ----------------------------------------------------------------------------------------


def inspectable_teachers(*, viewer_id: uuid.UUID) -> list[Persona]:
    """A teacher: only themselves. Curators and the product team: every teacher (by name)."""
    people = personas()
    viewer = next((p for p in people if p.teacher_id == viewer_id), None)
    if viewer is None:
        raise NotFoundError("Diese Person gibt es nicht (mehr). Bitte links eine andere Person wählen.")
    if viewer.role == "teacher":
        return [viewer]
    return sorted((p for p in people if p.role == "teacher"), key=lambda p: p.name.casefold())


@contextlib.contextmanager
def _reading(viewer_id: uuid.UUID, target_id: uuid.UUID) -> Iterator[tuple[Any, Teacher, Identity, Teacher | None]]:
    """(db, target teacher, the target's identity for the specialist's filters, the staff viewer or None).

    Own map: acting as oneself. Staff: acting as the viewer, so RLS hides every private row they have no consent
    for; the target's identity only narrows what is shown to what that teacher's specialist would see."""
    if viewer_id == target_id:
        with acting(target_id) as (db, teacher, identity):
            yield db, teacher, identity, None
        return
    with unit_of_work(Identity.system()) as sysdb:
        target = find_teacher(db=sysdb, ref=str(target_id))
        if target is None:
            raise NotFoundError("Diese Lehrkraft gibt es nicht (mehr).")
        target_identity = identity_for(db=sysdb, teacher=target)
        sysdb.expunge(target)
    with acting(viewer_id) as (db, viewer, _):
        if viewer.role == "teacher":
            raise UserError("Lehrkräfte sehen nur ihre eigene Wissenskarte.")
        yield db, target, target_identity, viewer


# --- the inspection ----------------------------------------------------------------------------------------------


def _label(description: str | None, thema: str | None, limit: int = 60) -> str:
    text = " ".join((description or thema or "—").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _row(r: Any) -> dict[str, Any]:
    return {"Eintrag": _label(r.description, r.thema, 90), "Thema": r.thema or "", "Bereich": SCOPES.get(
        r.scope_type, r.scope_type), "Qualität": round(float(r.quality_score), 2), "Verwendet": r.times_used,
        "Quelle": SOURCES.get(r.source, r.source), "Angelegt": r.created_at.strftime("%d.%m.%Y"),
        "Zur Kuration geteilt": bool(r.shared_for_curation)}


def inspect_wissenskarte(*, viewer_id: uuid.UUID, target_id: uuid.UUID, agent_type: str, fach: str,
                         pages: Mapping[str, int] | None = None) -> Inspection:
    """Everything the inspector shows for (teacher, agent, Fach), read acting as that teacher; bounded queries only."""
    pages = pages or {}
    with _reading(viewer_id, target_id) as (db, teacher, identity, _viewer):
        wk = build_wissenskarte(db=db, identity=identity, agent_type=agent_type, fach=fach)
        key = dict(agent_type=agent_type, fach=wk.fach)
        since = (datetime.now(UTC).replace(day=1) - timedelta(days=31 * (MONTHS - 1))).replace(day=1)
        counts, months = repo.overview(db=db, identity=identity, since=since, **key)
        groups = [(scope, kind) for scope, kind, _ in counts if kind in TYPES]
        entries = repo.best_entries(db=db, identity=identity, groups=groups, per_group=PER_GROUP,
                                    limit=GRAPH_ENTRIES, **key)
        per_type = {kt: sum(n for _, t, n in counts if t == kt) for kt in TYPES}
        tables = []
        for kt, total in per_type.items():
            if not total:
                continue
            n_pages = max(1, math.ceil(total / PAGE_SIZE))
            page = min(max(1, int(pages.get(kt, 1))), n_pages)
            rows = repo.knowledge_page(db=db, identity=identity, knowledge_type=kt, offset=(page - 1) * PAGE_SIZE,
                                       limit=PAGE_SIZE, **key)
            tables.append(TablePage(knowledge_type=kt, label=TYPES[kt][0], total=total, page=page, pages=n_pages,
                                    ids=[str(r.id) for r in rows], rows=[_row(r) for r in rows]))
        monthly: dict[str, dict[str, int]] = {m: {} for m in _months(since)}  # empty months show as empty
        for month, kt, n in months:
            label = TYPES.get(kt, (kt, ""))[0]
            monthly.setdefault(month.strftime("%Y-%m"), {})[label] = n
        name = teacher.name
    title = f"{fach_name(wk.fach)} · {AGENT_TYPES[agent_type]}"
    graph, opens = graph_option(title, SCOPES, TYPES, counts, entries)
    return Inspection(teacher_id=target_id, teacher_name=name, agent_type=agent_type, fach=wk.fach, wissenskarte=wk,
                      scope_totals={s: sum(n for sc, _, n in counts if sc == s) for s in SCOPES}, graph=graph,
                      node_entries=opens, entries={str(e.id): _label(e.description, e.thema) for e in entries
                                                   if e.knowledge_type in TYPES},
                      tables=tables, monthly=monthly)


def _months(since: datetime) -> list[str]:
    now, out, y, m = datetime.now(UTC), [], since.year, since.month
    while (y, m) <= (now.year, now.month):
        out.append(f"{y:04d}-{m:02d}")
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


# --- one entry ---------------------------------------------------------------------------------------------------


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "ja" if value else "nein"
    if isinstance(value, float):
        return f"{value:g}".replace(".", ",")
    if isinstance(value, Mapping):
        return "; ".join(f"{k}: {_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "; ".join(_text(v) for v in value)
    return " ".join(str(value).split())


def _fields(content: Mapping[str, Any]) -> list[tuple[str, str]]:
    keys = [k for k in CONTENT_LABELS if k in content] + [k for k in content if k not in CONTENT_LABELS]
    out = []
    for k in keys:
        value = content[k]
        if k in HIDDEN or value in (None, "", [], {}):
            continue
        if k == "operatoren" and isinstance(value, list):
            value = [f"{o.get('operator')} (AFB {o.get('afb')})" for o in value if isinstance(o, Mapping)]
        label = CONTENT_LABELS.get(k) or PREFERENCE_LABELS.get(k) or k.replace("_", " ").capitalize()
        out.append((label, _text(value) + (" ★" if k == "lehrer_rating" else "")))
    return out


def _erwartung(content: Mapping[str, Any]) -> list[tuple[str, str]]:
    items = content.get("erwartung") or []
    if not isinstance(items, list):
        return [(_text(items), "")]
    return [(_text(i.get("kriterium") or i.get("text") or ""), _text(i.get("punkte", "")))
            if isinstance(i, Mapping) else (_text(i), "") for i in items]


def entry_detail(*, viewer_id: uuid.UUID, target_id: uuid.UUID, knowledge_id: uuid.UUID | str) -> EntryDetail:
    """One entry as the inspected teacher sees it; sharing is offered only to the owner for own good practices."""
    try:
        kid = knowledge_id if isinstance(knowledge_id, uuid.UUID) else uuid.UUID(str(knowledge_id))
    except ValueError as exc:
        raise NotFoundError("Diesen Eintrag gibt es nicht.") from exc
    with _reading(viewer_id, target_id) as (db, teacher, identity, viewer):
        row = repo.visible_entry(db=db, identity=identity, knowledge_id=kid)
        if row is None:
            raise NotFoundError("Diesen Eintrag gibt es nicht (mehr), oder er ist für diese Person nicht sichtbar.")
        if viewer is not None and row.scope_type != "global" and not row.shared_for_curation and row.owner_id:
            # a private entry, readable only by the owner's consent: the owner sees this read in their log
            log_access(db=db, teacher_id=row.owner_id, viewer_id=viewer.id,
                       viewer_label=f"{viewer.name} ({ROLE_LABELS.get(viewer.role, viewer.role)})",
                       object_type="knowledge", object_id=row.id,
                       what=f"Wissenskarte: {_label(row.description, row.thema, 200)}")
        content = dict(row.content or {})
        own_gp = row.knowledge_type == "good_practice" and row.scope_type == "teacher" and row.owner_id == teacher.id
        return EntryDetail(
            id=row.id, title=_label(row.description, row.thema, 120), art=TYPES.get(row.knowledge_type,
                                                                                    (row.knowledge_type,))[0],
            bereich=SCOPES.get(row.scope_type, row.scope_type), thema=row.thema, description=row.description,
            quelle=SOURCES.get(row.source, row.source), quality=float(row.quality_score), times_used=row.times_used,
            created=row.created_at.strftime("%d.%m.%Y"), fields=_fields(content), erwartung=_erwartung(content),
            shared=row.shared_for_curation, can_share=own_gp and viewer_id == target_id and
            not row.shared_for_curation, can_delete=own_gp and viewer_id == target_id,
        )
