"""Curation of good practices: teachers share their tasks for curation; curators rate, edit, merge, promote,
retire. Every change is recorded in `knowledge_changes` (who, when, before/after).

Services take a Session acting as the curator (`db`, `curator`); the `*_entry`/`queue_page`/… functions below them
are what the Good-Practices page calls with a person id — each is one unit of work via `core.app.acting.acting`.
Rules of the desk: global rows are the curators' to edit, retire and merge; a row a teacher shared stays the
teacher's (rate it, mark it reviewed, or promote an anonymised global copy — the teacher keeps the original).
`revision` versions the editable content: edits are optimistic (`UPDATE … WHERE revision = :expected`); ratings are
counters under a row lock and do not bump it, so a rating never makes a colleague's open edit stale.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.app.acting import acting
from core.app.errors import ConflictError, NotFoundError, UserError
from core.embeddings import embed_documents, embedding_model_name
from core.faecher import FAECHER, fach_name
from core.knowledge import knowledge_text, quality_from_stars
from core.validation import afb_passt
from db.models import AgentKnowledge, KnowledgeChange, School, SchoolClass, Teacher, TeacherClass
from db.repos import curation as repo
from db.repos import knowledge as knowledge_repo
from db.session import Identity, act_as

T = TypeVar("T")

PAGE_SIZE = 20
DUPLICATE_SIMILARITY = 0.92  # cosine similarity from which two tasks count as near-duplicates
DUPLICATE_WINDOW = 5  # nearest neighbours looked at per listed entry
AGENT_TYPES: dict[str, str] = {"klausur": "Klausur", "differenzierung": "Differenzierung", "h5p": "H5P"}
AGENT_FILTER: dict[str, str] = {"": "Alle Typen", **AGENT_TYPES}
VIEWS: dict[str, str] = {"queue": "Warteschlange (neu/unbewertet)", "active": "Alle aktiven",
                         "retired": "Ausgemustert"}
AFB_STUFEN = ("I", "II", "III")
MAX_PUNKTE = 30
LIMITS: dict[str, tuple[str, int]] = {  # field -> (German label, max characters)
    "thema": ("Das Thema", 200), "description": ("Die Kurzbeschreibung", 500), "aufgabe": ("Der Aufgabentext", 3000),
    "kontext": ("Der Kontext", 1000), "material": ("Das Material", 6000), "themenfeld": ("Das Themenfeld", 200),
}
MAX_KRITERIUM = 500
ACTION_LABELS: dict[str, str] = {
    "share": "zur Kuration geteilt", "curate.rate": "bewertet", "curate.edit": "bearbeitet",
    "curate.review": "als geprüft markiert", "curate.promote": "befördert (allgemeine Kopie angelegt)",
    "curate.create": "als anonymisierte allgemeine Kopie angelegt", "curate.retire": "ausgemustert",
    "curate.restore": "wieder aktiviert", "curate.merge": "zusammengeführt",
}
FIELD_LABELS: dict[str, str] = {
    "thema": "Thema", "description": "Kurzbeschreibung", "aufgabe": "Aufgabe", "operator": "Operator", "afb": "AFB",
    "punkte": "Punkte", "erwartung": "Erwartung", "kontext": "Kontext", "material": "Material",
    "themenfeld": "Themenfeld", "klassenstufe": "Klassenstufe",
}
TASK_FIELDS = ("aufgabe", "operator", "afb", "punkte", "erwartung", "material", "themenfeld", "klassenstufe")
SCHOOL_TZ = ZoneInfo("Europe/Berlin")
# Small multiples of the quality histogram, one panel per Fach, as a single chart (one spec renders faster than
# eight charts). Fields are those of HistogramBar.
HISTOGRAM_SPEC: dict[str, Any] = {
    "facet": {"field": "fach", "type": "nominal", "title": None, "columns": 4},
    "spec": {"mark": "bar", "width": 150, "height": 110, "encoding": {
        "x": {"field": "bereich", "type": "ordinal", "title": "Qualität", "sort": None},
        "y": {"field": "anzahl", "type": "quantitative", "title": "Anzahl"},
        "tooltip": [{"field": "fach", "title": "Fach"}, {"field": "bereich", "title": "Qualität"},
                    {"field": "anzahl", "title": "Anzahl"}]}},
    "resolve": {"scale": {"y": "independent"}},
}
# Content keys that point into a teacher's private data; a promoted copy drops them.
PRIVATE_KEYS = ("material_id", "lehrer_rating")


# --- view models -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class QueueFilter:
    fach: str
    agent_type: str | None = None  # None: all three specialists
    view: str = "queue"
    text: str = ""


@dataclass(frozen=True)
class EntryCard:
    """One line of the list."""

    id: uuid.UUID
    thema: str
    beschreibung: str
    typ: str
    herkunft: str
    qualitaet: float
    bewertungen: int
    genutzt: int
    status: str
    geaendert: str

    @property
    def label(self) -> str:
        return f"{self.thema} · {self.typ} · {self.herkunft} · {str(self.id)[:8]}"

    @property
    def summary(self) -> str:
        quality = f"{self.qualitaet:.2f}".replace(".", ",")
        return (f"**{self.thema}** · {self.herkunft} · Qualität {quality} ({self.bewertungen} Bew.) · "
                f"{self.genutzt}× genutzt · `{str(self.id)[:8]}`")

    def row(self) -> dict[str, Any]:
        return {"Thema": self.thema, "Kurzbeschreibung": self.beschreibung, "Typ": self.typ,
                "Herkunft": self.herkunft, "Qualität": self.qualitaet, "Bewertungen": self.bewertungen,
                "Genutzt": self.genutzt, "Status": self.status, "Geändert": self.geaendert}


@dataclass(frozen=True)
class QueuePage:
    entries: list[EntryCard]
    total: int
    page: int
    pages: int

    @property
    def caption(self) -> str:
        count = f"{self.total} {'Eintrag' if self.total == 1 else 'Einträge'}"
        return f"{count} · Seite {self.page} von {self.pages} · neueste zuerst"


@dataclass
class EntryEdit:
    """The editable fields of an entry. `aufgabe is None` means the entry is not a single exam task (an H5P quiz or
    a differentiated worksheet): then only thema, description and kontext are edited."""

    thema: str = ""
    description: str = ""
    kontext: str = ""
    aufgabe: str | None = None
    operator: str | None = None
    afb: str | None = None
    punkte: int | float | None = None
    erwartung: list[dict[str, Any]] = field(default_factory=list)
    material: str = ""
    themenfeld: str = ""
    klassenstufe: int | float | None = None

    @property
    def is_task(self) -> bool:
        return self.aufgabe is not None


@dataclass(frozen=True)
class Change:
    wann: str
    wer: str
    aktion: str
    vorher: str
    nachher: str

    def row(self) -> dict[str, str]:
        return {"Wann": self.wann, "Wer": self.wer, "Aktion": self.aktion, "Vorher": self.vorher,
                "Nachher": self.nachher}


@dataclass(frozen=True)
class EntryView:
    card: EntryCard
    revision: int
    fach: str
    agent_type: str
    edit: EntryEdit
    content: dict[str, Any]
    operators: dict[str, str]  # operator -> usual AFB, from the subject's operator list
    editable: bool  # global rows; a teacher's shared row stays theirs
    shared: bool
    retired: bool
    promoted_to: uuid.UUID | None
    history: list[Change]

    @property
    def summary(self) -> str:
        c = self.card
        quality = f"{c.qualitaet:.2f}".replace(".", ",")
        return (f"{c.typ} · {c.herkunft} · Qualität {quality} aus {c.bewertungen} Bewertung(en) · {c.genutzt}× "
                f"genutzt · {c.status} · Version {self.revision}")

    @property
    def operator_options(self) -> list[str]:
        """The subject's operators, plus the stored one when it is not on the list (so the form can show it)."""
        current = self.edit.operator
        return list(self.operators) + ([current] if current and current not in self.operators else [])

    @property
    def hint(self) -> str:
        """Why the form is not shown."""
        if self.shared:
            return ("Geteilte Aufgaben bleiben Eigentum der Lehrkraft: bewerten, als geprüft markieren oder befördern "
                    "und dann die allgemeine Kopie bearbeiten.")
        return "Ausgemustert – zum Bearbeiten zuerst wieder aktivieren."

    def operator_label(self, operator: str) -> str:
        afb = self.operators.get(operator)
        return f"{operator} (AFB {afb})" if afb else f"{operator} (nicht in der Operatorenliste)"


@dataclass(frozen=True)
class Saved:
    revision: int
    message: str
    changed: bool


@dataclass(frozen=True)
class Promoted:
    new_id: uuid.UUID
    message: str


@dataclass(frozen=True)
class DuplicatePair:
    a: EntryCard
    b: EntryCard
    text_a: str
    text_b: str
    similarity: float
    mergeable: bool  # both global: a teacher's shared row is never retired by a merge

    @property
    def key(self) -> str:
        return f"{self.a.id}_{self.b.id}"

    @property
    def heading(self) -> str:
        return f"**Ähnlichkeit {self.similarity:.3f}**".replace(".", ",")

    def choice_label(self, entry_id: uuid.UUID) -> str:
        card = self.a if entry_id == self.a.id else self.b
        return f"{card.thema} ({str(entry_id)[:8]})"

    def other(self, entry_id: uuid.UUID) -> uuid.UUID:
        return self.b.id if entry_id == self.a.id else self.a.id


@dataclass(frozen=True)
class HistogramBar:
    fach: str
    bereich: str
    anzahl: int


# --- helpers -----------------------------------------------------------------------------------------------------


def _local(value: datetime | None) -> str:
    return value.astimezone(SCHOOL_TZ).strftime("%d.%m.%Y %H:%M") if value else ""


def _card(row: AgentKnowledge) -> EntryCard:
    return EntryCard(
        id=row.id, thema=row.thema or "(ohne Thema)", beschreibung=(row.description or "")[:120],
        typ=AGENT_TYPES.get(row.agent_type, row.agent_type),
        herkunft="allgemein" if row.scope_type == "global" else "geteilt von einer Lehrkraft",
        qualitaet=round(row.quality_score, 3), bewertungen=row.rating_count, genutzt=row.times_used,
        status="aktiv" if row.status == "active" else "ausgemustert", geaendert=_local(row.updated_at),
    )


def _task_text(content: Mapping[str, Any]) -> str:
    return str(content.get("aufgabe") or content.get("frage") or content.get("lernziel") or "")


def _edit_of(row: AgentKnowledge) -> EntryEdit:
    c = row.content or {}
    base = EntryEdit(thema=row.thema or "", description=row.description or "", kontext=str(c.get("kontext") or ""))
    if not isinstance(c.get("aufgabe"), str):
        return base
    return replace(
        base, aufgabe=c["aufgabe"], operator=c.get("operator"), afb=c.get("afb"), punkte=c.get("punkte"),
        erwartung=[{"kriterium": str(k.get("kriterium", "")), "punkte": k.get("punkte")}
                   for k in c.get("erwartung") or [] if isinstance(k, dict)],
        material=str(c.get("material") or ""), themenfeld=str(c.get("themenfeld") or ""),
        klassenstufe=c.get("klassenstufe"),
    )


@contextlib.contextmanager
def _system_reads(db: Session) -> Iterator[None]:
    """Curators may not read teachers of other schools under RLS, but the audit trail must name who changed an entry
    and promotion must know the owner's name to remove it. Those reads run as system inside the same transaction;
    the curator's identity is restored before anything is written."""
    identity = db.info["identity"]
    act_as(db, Identity.system())
    try:
        yield
    finally:
        act_as(db, identity)


def _names(db: Session, ids: set[uuid.UUID]) -> dict[uuid.UUID, str]:
    if not ids:
        return {}
    with _system_reads(db):
        return {i: name for i, name in db.execute(sa.select(Teacher.id, Teacher.name).where(Teacher.id.in_(ids)))}


def _operators(db: Session, fach: str) -> dict[str, str]:
    return {str(o["operator"]): str(o["afb"]) for o in knowledge_repo.operator_list(db=db, fach=fach)
            if isinstance(o, dict) and o.get("operator")}


def _require(row: AgentKnowledge | None) -> AgentKnowledge:
    if row is None:
        raise NotFoundError("Diesen Eintrag gibt es nicht (mehr) oder er ist nicht zur Kuration freigegeben. "
                            "Bitte die Liste neu laden.")
    return row


def _require_global(row: AgentKnowledge, what: str) -> None:
    if row.scope_type != "global":
        raise UserError(f"Diese Aufgabe hat eine Lehrkraft zur Kuration geteilt; sie bleibt ihre eigene und lässt sich "
                        f"nicht {what}. Befördern Sie sie als anonymisierte allgemeine Kopie und bearbeiten Sie "
                        f"dann die Kopie — oder markieren Sie sie als geprüft.")


def _json(value: dict[str, Any] | None) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True) if value else ""


# --- list, detail ------------------------------------------------------------------------------------------------


def _agent_types(agent_type: str | None) -> list[str]:
    if agent_type and agent_type not in AGENT_TYPES:
        raise UserError(f"Unbekannter Typ „{agent_type}“. Möglich sind: {', '.join(AGENT_TYPES.values())}.")
    return [agent_type] if agent_type else list(AGENT_TYPES)


def _check_filter(filters: QueueFilter) -> None:
    if filters.fach not in FAECHER:
        raise UserError(f"Unbekanntes Fach „{filters.fach}“. Bekannte Fächer: {', '.join(FAECHER.values())}.")
    if filters.view not in VIEWS:
        raise UserError(f"Unbekannte Ansicht „{filters.view}“.")
    if len(filters.text) > 200:
        raise UserError("Der Suchtext ist zu lang (höchstens 200 Zeichen).")


def list_entries(*, db: Session, filters: QueueFilter, page: int = 1, page_size: int = PAGE_SIZE
                 ) -> tuple[QueuePage, list[AgentKnowledge]]:
    """One page of the pool for these filters (newest first), paged and counted in SQL."""
    _check_filter(filters)
    args = {"fach": filters.fach, "agent_types": _agent_types(filters.agent_type), "view": filters.view,
            "text": filters.text.strip() or None}
    total = repo.count_entries(db=db, **args)
    pages = max(1, math.ceil(total / page_size))
    page = min(max(1, page), pages)
    rows = repo.list_entries(db=db, **args, limit=page_size, offset=(page - 1) * page_size)
    return QueuePage(entries=[_card(r) for r in rows], total=total, page=page, pages=pages), rows


def entry_view(*, db: Session, knowledge_id: uuid.UUID) -> EntryView:
    row = _require(repo.get_entry(db=db, knowledge_id=knowledge_id))
    changes = repo.changes_of(db=db, knowledge_id=row.id)
    names = _names(db, {c.actor_id for c in changes if c.actor_id})
    history = [Change(wann=_local(c.created_at), wer=names.get(c.actor_id, "System") if c.actor_id else "System",
                      aktion=ACTION_LABELS.get(c.action, c.action), vorher=_json(c.before), nachher=_json(c.after))
               for c in changes]
    return EntryView(
        card=_card(row), revision=row.revision, fach=row.fach, agent_type=row.agent_type, edit=_edit_of(row),
        content=dict(row.content or {}), operators=_operators(db, row.fach), editable=row.scope_type == "global",
        shared=row.scope_type != "global", retired=row.status == "retired",
        promoted_to=repo.promoted_copy(db=db, knowledge_id=row.id), history=history,
    )


# --- validation and editing --------------------------------------------------------------------------------------


def _number(value: Any) -> int | None:
    """A whole number from a widget value (int, float, numeric text); None for empty/NaN/fractions."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    if math.isnan(number) or not number.is_integer():
        return None
    return int(number)


def _thousands(n: int) -> str:
    return f"{n:,}".replace(",", ".")


_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None)


def _text(value: Any) -> str:
    """A form value as text; nothing printable (whitespace, zero-width characters) counts as empty."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = str(value).strip()
    return text if text.translate(_INVISIBLE).strip() else ""


def validate_edit(edit: EntryEdit, *, fach: str, operators: Mapping[str, str]) -> tuple[EntryEdit, list[str]]:
    """The cleaned edit and every fault, in German, saying what to fix. No faults: the edit may be saved."""
    faults: list[str] = []
    clean = EntryEdit(thema=_text(edit.thema), description=_text(edit.description), kontext=_text(edit.kontext))
    if not clean.thema:
        faults.append("Das Thema ist leer – bitte ein Thema eintragen.")
    if edit.is_task:
        clean = replace(clean, aufgabe=_text(edit.aufgabe), material=_text(edit.material),
                        themenfeld=_text(edit.themenfeld))
        faults += _task_faults(edit, clean, fach=fach, operators=operators)
    for name, (label, limit) in LIMITS.items():
        value = getattr(clean, name)
        if isinstance(value, str) and len(value) > limit:
            faults.append(f"{label} ist zu lang ({_thousands(len(value))} Zeichen, höchstens {_thousands(limit)}). "
                          f"Bitte kürzen.")
    return clean, faults


def _task_faults(edit: EntryEdit, clean: EntryEdit, *, fach: str, operators: Mapping[str, str]) -> list[str]:
    faults: list[str] = []
    if not clean.aufgabe:
        faults.append("Der Aufgabentext ist leer – bitte die Aufgabenstellung eintragen.")
    operator = _text(edit.operator)
    known = {name.casefold(): name for name in operators}
    if not operator:
        faults.append("Der Operator fehlt – bitte einen Operator aus der Operatorenliste wählen.")
    elif operators and operator.casefold() not in known:
        liste = ", ".join(sorted(operators, key=str.casefold))
        faults.append(f"Der Operator „{operator}“ steht nicht in der Operatorenliste für {fach_name(fach)}. "
                      f"Bitte einen dieser Operatoren wählen: {liste}.")
    else:
        operator = known.get(operator.casefold(), operator)
    afb = _text(edit.afb)
    if afb not in AFB_STUFEN:
        faults.append("Bitte einen Anforderungsbereich wählen: AFB I, II oder III.")
    elif operator in operators and not afb_passt(operators[operator], afb):
        passende = sorted((n for n, a in operators.items() if a == afb), key=str.casefold)[:5]
        faults.append(f"Der Operator „{operator}“ gehört üblicherweise zu AFB {operators[operator]} und passt nicht "
                      f"zu AFB {afb}. Bitte einen Operator für AFB {afb} wählen (z. B. {', '.join(passende)}) oder "
                      f"den AFB passend zum Operator einstufen.")
    punkte = _number(edit.punkte)
    if punkte is None or not 1 <= punkte <= MAX_PUNKTE:
        faults.append(f"Die Punktzahl muss eine ganze Zahl von 1 bis {MAX_PUNKTE} sein (eingetragen: "
                      f"{_text(edit.punkte) or 'nichts'}).")
    klassenstufe = _number(edit.klassenstufe)
    if edit.klassenstufe not in (None, "") and (klassenstufe is None or not 5 <= klassenstufe <= 13):
        faults.append("Die Klassenstufe muss zwischen 5 und 13 liegen.")
    kriterien, kf = _criteria(edit.erwartung)
    faults += kf
    summe = sum(k["punkte"] for k in kriterien)
    if kriterien and not kf and punkte is not None and summe != punkte:
        faults.append(f"Die Kriterien des Erwartungshorizonts ergeben {summe} Punkte, die Aufgabe hat {punkte}. "
                      f"Bitte die Punkte der Kriterien oder die Punktzahl der Aufgabe anpassen.")
    clean.operator, clean.afb, clean.punkte, clean.erwartung = operator, afb, punkte, kriterien
    clean.klassenstufe = klassenstufe
    return faults


def _criteria(rows: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    faults, out = [], []
    rows = [r for r in rows if _text(r.get("kriterium")) or _text(r.get("punkte"))]  # skip rows left empty
    if not rows:
        return [], ["Der Erwartungshorizont braucht mindestens ein Kriterium mit Punkten."]
    for i, r in enumerate(rows, start=1):
        text, punkte = _text(r.get("kriterium")), _number(r.get("punkte"))
        if not text:
            faults.append(f"Kriterium {i}: Der Text fehlt – bitte beschreiben, was erwartet wird.")
        elif len(text) > MAX_KRITERIUM:
            faults.append(f"Kriterium {i}: Der Text ist zu lang ({len(text)} Zeichen, höchstens {MAX_KRITERIUM}).")
        if punkte is None or punkte < 1:
            faults.append(f"Kriterium {i}: Die Punkte müssen eine ganze Zahl ab 1 sein (eingetragen: "
                          f"{_text(r.get('punkte')) or 'nichts'}).")
        out.append({"kriterium": text, "punkte": punkte or 0})
    return out, faults


def _fields(edit: EntryEdit) -> dict[str, Any]:
    values = {"thema": edit.thema, "description": edit.description, "kontext": edit.kontext}
    if edit.is_task:
        values.update({name: getattr(edit, name) for name in TASK_FIELDS})
    return values


def _short(value: Any, limit: int = 300) -> str:
    if isinstance(value, list):
        return "; ".join(f"{k.get('kriterium', '')} ({k.get('punkte', '?')} P.)" for k in value if isinstance(k, dict))
    text = "" if value is None else str(value)
    return text if len(text) <= limit else text[:limit] + " …"


def _conflict(db: Session, row: AgentKnowledge, edit: EntryEdit, curator: Teacher) -> ConflictError:
    last = repo.last_change(db=db, knowledge_id=row.id)
    if last is not None and last.actor_id == curator.id:
        who = "Ihnen (in einem anderen Fenster)"
    elif last is not None and last.actor_id:
        who = _names(db, {last.actor_id}).get(last.actor_id, "einer anderen Person")
    else:
        who = "einer anderen Person"
    current = _fields(_edit_of(row))
    attempted, _ = validate_edit(edit, fach=row.fach, operators={})
    mine = {k: v for k, v in _fields(attempted).items() if v != current.get(k)}
    listed = "; ".join(f"{FIELD_LABELS[k]}: „{_short(v)}“" for k, v in mine.items()) or "keine abweichenden Werte"
    return ConflictError(f"Dieser Eintrag wurde inzwischen von {who} geändert. Bitte neu laden — Ihre Änderungen: "
                         f"{listed}")


def save(*, db: Session, curator: Teacher, knowledge_id: uuid.UUID, expected_revision: int,
         edit: EntryEdit) -> Saved:
    """Validate, then store with an optimistic revision check; re-embeds and records before/after of what changed."""
    row = _require(repo.get_entry(db=db, knowledge_id=knowledge_id))
    _require_global(row, "hier bearbeiten")
    if row.status != "active":
        raise UserError("Dieser Eintrag ist ausgemustert. Bitte zuerst wieder aktivieren, dann bearbeiten.")
    if row.revision != expected_revision:
        raise _conflict(db, row, edit, curator)
    if edit.is_task != _edit_of(row).is_task:
        raise UserError("Die Art des Eintrags passt nicht zum Formular. Bitte neu laden.")
    clean, faults = validate_edit(edit, fach=row.fach, operators=_operators(db, row.fach))
    if faults:
        raise UserError("Nicht gespeichert – bitte korrigieren:\n" + "\n".join(f"- {f}" for f in faults))
    old, new = _fields(_edit_of(row)), _fields(clean)
    changed = [k for k in new if new[k] != old.get(k)]
    if not changed:
        return Saved(revision=row.revision, message="Keine Änderungen – nichts gespeichert.", changed=False)
    content = dict(row.content or {})
    for key in changed:
        if key not in ("thema", "description"):
            if key == "material" and not new[key]:
                content[key] = None
            elif key == "klassenstufe" and new[key] is None:
                content.pop(key, None)
            else:
                content[key] = new[key]
    text = knowledge_text(content=content, thema=clean.thema, description=clean.description)
    revision = repo.update_if_revision(
        db=db, knowledge_id=row.id, expected_revision=expected_revision,
        values={"thema": clean.thema, "description": clean.description or None, "content": content,
                "search_text": text, "embedding": embed_documents([text])[0],
                "embedding_model": embedding_model_name()},
    )
    if revision is None:  # someone saved between our read and our write
        fresh = _require(repo.get_entry(db=db, knowledge_id=row.id))
        raise _conflict(db, fresh, edit, curator)
    repo.add_change(db=db, knowledge_id=row.id, actor_id=curator.id, action="curate.edit",
                    before={k: old.get(k) for k in changed}, after={k: new[k] for k in changed})
    names = ", ".join(FIELD_LABELS[k] for k in changed)
    return Saved(revision=revision, message=f"Gespeichert (Version {revision}): {names}.", changed=True)


# --- rating, review, retire --------------------------------------------------------------------------------------


def rate(*, db: Session, curator: Teacher, knowledge_id: uuid.UUID, stars: int) -> str:
    """1..5 stars -> quality_score as the running mean over all ratings (seed priors are replaced by the first)."""
    if isinstance(stars, bool) or not isinstance(stars, int) or not 1 <= stars <= 5:
        raise UserError("Bitte 1 bis 5 Sterne vergeben.")
    row = _require(repo.get_entry(db=db, knowledge_id=knowledge_id, lock=True))
    before = {"quality_score": row.quality_score, "rating_count": row.rating_count}
    row.quality_score = quality_from_stars(stars, previous=row.quality_score if row.rating_count else None,
                                           count=row.rating_count)
    row.rating_count += 1
    repo.add_change(db=db, knowledge_id=row.id, actor_id=curator.id, action="curate.rate", before=before,
                    after={"quality_score": row.quality_score, "rating_count": row.rating_count, "stars": stars})
    quality = f"{row.quality_score:.2f}".replace(".", ",")
    return (f"Bewertung gespeichert: {stars} {'Stern' if stars == 1 else 'Sterne'} · Qualität jetzt {quality} "
            f"aus {row.rating_count} Bewertung(en).")


def mark_reviewed(*, db: Session, curator: Teacher, knowledge_id: uuid.UUID) -> str:
    row = _require(repo.get_entry(db=db, knowledge_id=knowledge_id))
    repo.add_change(db=db, knowledge_id=row.id, actor_id=curator.id, action="curate.review", before=None,
                    after={"reviewed": True})
    return "Als geprüft markiert – der Eintrag verlässt die Warteschlange."


def set_retired(*, db: Session, curator: Teacher, knowledge_id: uuid.UUID, retired: bool) -> str:
    """Retire (drops out of retrieval and the Wissenskarte, which read only active rows) or bring back."""
    row = _require(repo.get_entry(db=db, knowledge_id=knowledge_id, lock=True))
    _require_global(row, "ausmustern" if retired else "reaktivieren")
    target = "retired" if retired else "active"
    if row.status == target:
        return "Der Eintrag ist bereits ausgemustert." if retired else "Der Eintrag ist bereits aktiv."
    before = {"status": row.status}
    row.status = target
    row.revision += 1
    repo.add_change(db=db, knowledge_id=row.id, actor_id=curator.id,
                    action="curate.retire" if retired else "curate.restore", before=before, after={"status": target})
    return ("Ausgemustert – der Eintrag erscheint nicht mehr in Suche und Wissenskarte." if retired
            else "Wieder aktiv – der Eintrag wird wieder gefunden.")


# --- promotion ---------------------------------------------------------------------------------------------------

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_ANREDE = r"(?:\b(?:Herrn?|Frau|Hr\.|Fr\.)\s+(?:(?:Dr|Prof)\.\s+)?)"
_SOMEONE = re.compile(_ANREDE + r"[A-ZÄÖÜ][\w\-ÄÖÜäöüß]*")
_MARK = "\x00"  # stands for the replacement until the end, so a name part never matches inside it
_LEHRKRAFT = "[Lehrkraft]"


@dataclass(frozen=True)
class PersonalData:
    """What identifies a teacher in a shared task: their name, e-mail, school and class names."""

    names: tuple[str, ...] = ()
    emails: tuple[str, ...] = ()
    classes: tuple[tuple[str, int], ...] = ()  # (class name, Klassenstufe)
    school: str | None = None


def anonymise(text: str, personal: PersonalData) -> tuple[str, int]:
    """The text without e-mail addresses, "Herr/Frau <Name>", the teacher's name, school and class names.
    Returns the text and how many passages were replaced."""
    count = 0

    def sub(pattern: str | re.Pattern[str], repl: str, flags: int = 0) -> None:
        nonlocal text, count
        text, n = re.subn(pattern, repl, text, flags=flags)
        count += n

    sub(_EMAIL, "[E-Mail entfernt]")
    names = [n.strip() for n in personal.names if n and n.strip()]
    parts = {p for n in names for p in n.split() if len(p) >= 3 and p[0].isalpha()}
    for value in sorted(set(names) | parts, key=len, reverse=True):  # the full name before its parts
        sub(rf"{_ANREDE}?(?<![\w-]){re.escape(value)}(?![\w-])", _MARK, re.IGNORECASE if value in names else 0)
    sub(_SOMEONE, _MARK)  # anyone else addressed by name
    if personal.school:
        sub(re.escape(personal.school), "[Schule]", re.IGNORECASE)
    for name, stufe in personal.classes:
        sub(rf"(?<!\w)(?:Klasse\s+)?{re.escape(name)}(?!\w)", f"Klassenstufe {stufe}", re.IGNORECASE)
    return text.replace(_MARK, _LEHRKRAFT), count


def _anonymise_value(value: Any, personal: PersonalData) -> tuple[Any, int]:
    if isinstance(value, str):
        return anonymise(value, personal)
    if isinstance(value, list):
        pairs = [_anonymise_value(v, personal) for v in value]
        return [v for v, _ in pairs], sum(n for _, n in pairs)
    if isinstance(value, dict):
        pairs = {k: _anonymise_value(v, personal) for k, v in value.items() if k not in PRIVATE_KEYS}
        return {k: v for k, (v, _) in pairs.items()}, sum(n for _, n in pairs.values())
    return value, 0


def _personal_data(db: Session, owner_id: uuid.UUID | None) -> PersonalData:
    if owner_id is None:
        return PersonalData()
    with _system_reads(db):
        teacher = db.get(Teacher, owner_id, populate_existing=True)
        if teacher is None:
            return PersonalData()
        school = db.scalar(sa.select(School.name).where(School.id == teacher.school_id)) if teacher.school_id else None
        classes = db.execute(
            sa.select(SchoolClass.name, SchoolClass.klassenstufe).join(TeacherClass, TeacherClass.class_id ==
                                                                       SchoolClass.id)
            .where(TeacherClass.teacher_id == owner_id).distinct()
        ).all()
        return PersonalData(names=(teacher.name,), emails=(teacher.email,), classes=tuple((n, k) for n, k in classes),
                            school=school)


def promote(*, db: Session, curator: Teacher, knowledge_id: uuid.UUID) -> Promoted:
    """A new global, anonymised copy of a shared task (source 'curator'); the teacher keeps the original."""
    row = _require(repo.get_entry(db=db, knowledge_id=knowledge_id, lock=True))
    if row.scope_type == "global":
        raise UserError("Dieser Eintrag ist bereits allgemein – befördern lassen sich nur geteilte Aufgaben.")
    if row.status != "active":
        raise UserError("Diese Aufgabe ist ausgemustert und lässt sich nicht befördern.")
    existing = repo.promoted_copy(db=db, knowledge_id=row.id)
    if existing is not None:
        raise UserError(f"Diese Aufgabe wurde bereits befördert (allgemeiner Eintrag {str(existing)[:8]}).")
    personal = _personal_data(db, row.owner_id or (row.scope_id if row.scope_type == "teacher" else None))
    content, n_content = _anonymise_value(dict(row.content or {}), personal)
    thema, n_thema = anonymise(row.thema or "", personal)
    description, n_desc = anonymise(row.description or "", personal)
    text = knowledge_text(content=content, thema=thema, description=description)
    copy = knowledge_repo.add_knowledge(
        db=db, agent_type=row.agent_type, scope_type="global", scope_id=None, owner_id=None, fach=row.fach,
        thema=thema[:200] or None, knowledge_type="good_practice", content=content, description=description or None,
        quality_score=row.quality_score, rating_count=row.rating_count, times_used=0, source="curator",
        status="active", shared_for_curation=False, external_id=f"curation:{row.id}", search_text=text,
        embedding=embed_documents([text])[0], embedding_model=embedding_model_name(),
    )
    replaced = n_content + n_thema + n_desc
    repo.add_change(db=db, knowledge_id=row.id, actor_id=curator.id, action="curate.promote", before=None,
                    after={"promoted_to": str(copy.id)})
    repo.add_change(db=db, knowledge_id=copy.id, actor_id=curator.id, action="curate.create", before=None,
                    after={"promoted_from": str(row.id), "anonymised_passages": replaced})
    return Promoted(new_id=copy.id, message=(
        f"Befördert: neuer allgemeiner Eintrag {str(copy.id)[:8]}, {replaced} personenbezogene Angabe(n) ersetzt. "
        f"Die Lehrkraft behält ihre eigene Fassung."))


# --- near-duplicates and merge -----------------------------------------------------------------------------------


def duplicates(*, db: Session, filters: QueueFilter, page: int = 1) -> list[DuplicatePair]:
    """Near-duplicate pairs (cosine similarity >= DUPLICATE_SIMILARITY, same Fach and agent) among each listed
    entry's DUPLICATE_WINDOW nearest pool entries."""
    _, rows = list_entries(db=db, filters=filters, page=page)
    pairs = repo.near_duplicates(db=db, ids=[r.id for r in rows], max_distance=1 - DUPLICATE_SIMILARITY,
                                 per_entry=DUPLICATE_WINDOW)
    full = repo.entries_by_ids(db=db, ids=list({i for p in pairs for i in (p.a, p.b)}))
    out = []
    for p in pairs:
        a, b = full.get(p.a), full.get(p.b)
        if a is None or b is None:
            continue
        out.append(DuplicatePair(a=_card(a), b=_card(b), text_a=_task_text(a.content or {}),
                                 text_b=_task_text(b.content or {}), similarity=round(1 - p.distance, 3),
                                 mergeable=a.scope_type == b.scope_type == "global"))
    return out


def merge(*, db: Session, curator: Teacher, keep_id: uuid.UUID, drop_id: uuid.UUID) -> str:
    """Keep one entry, fold the other's ratings (rating-weighted quality) and uses into it, retire the other with a
    note pointing to the kept one."""
    if keep_id == drop_id:
        raise UserError("Ein Eintrag lässt sich nicht mit sich selbst zusammenführen.")
    first, second = sorted((keep_id, drop_id), key=str)  # lock in a fixed order: two merges never deadlock
    rows = {i: repo.get_entry(db=db, knowledge_id=i, lock=True) for i in (first, second)}
    keep, drop = _require(rows[keep_id]), _require(rows[drop_id])
    for row in (keep, drop):
        _require_global(row, "zusammenführen")
        if row.status != "active":
            raise UserError("Einer der beiden Einträge ist inzwischen ausgemustert. Bitte die Liste neu laden.")
    if (keep.fach, keep.agent_type) != (drop.fach, drop.agent_type):
        raise UserError("Zusammenführen lassen sich nur Einträge desselben Fachs und Typs.")
    n_keep, n_drop = keep.rating_count, drop.rating_count
    before = {"quality_score": keep.quality_score, "rating_count": n_keep, "times_used": keep.times_used}
    if n_keep + n_drop:
        keep.quality_score = round((keep.quality_score * n_keep + drop.quality_score * n_drop) / (n_keep + n_drop), 3)
    else:
        keep.quality_score = round((keep.quality_score + drop.quality_score) / 2, 3)
    keep.rating_count = n_keep + n_drop
    keep.times_used += drop.times_used
    keep.revision += 1
    drop.status = "retired"
    drop.content = {**(drop.content or {}), "zusammengefuehrt_in": str(keep.id)}
    drop.revision += 1
    repo.add_change(db=db, knowledge_id=keep.id, actor_id=curator.id, action="curate.merge", before=before,
                    after={"quality_score": keep.quality_score, "rating_count": keep.rating_count,
                           "times_used": keep.times_used, "merged_from": str(drop.id)})
    repo.add_change(db=db, knowledge_id=drop.id, actor_id=curator.id, action="curate.merge",
                    before={"status": "active"}, after={"status": "retired", "merged_into": str(keep.id)})
    return (f"Zusammengeführt: „{keep.thema}“ ({str(keep.id)[:8]}) bleibt, der andere Eintrag ({str(drop.id)[:8]}) "
            f"ist ausgemustert und verweist darauf.")


# --- quality histogram -------------------------------------------------------------------------------------------


def histogram_caption(bars: Sequence[HistogramBar]) -> str:
    totals: dict[str, int] = {}
    for bar in bars:
        totals[bar.fach] = totals.get(bar.fach, 0) + bar.anzahl
    return "Qualität der aktiven Good Practices je Fach, in Klassen zu 0,1 · " + " · ".join(
        f"{fach}: {n}" for fach, n in totals.items())


def default_fach(faecher: Sequence[str]) -> str:
    """The Fach the list opens with: the curator's first known subject."""
    return next((f for f in faecher if f in FAECHER), next(iter(FAECHER)))


def histogram(*, db: Session, agent_type: str | None = None, bins: int = 10) -> list[HistogramBar]:
    """Quality scores of the active pool per Fach in bins of 1/bins (every bin present, empty ones with 0)."""
    counts = {(f, b): n for f, b, n in repo.quality_histogram(db=db, agent_types=_agent_types(agent_type), bins=bins)}
    faecher = sorted({f for f, _ in counts}, key=lambda f: fach_name(f))

    def label(b: int) -> str:
        return f"{b / bins:.1f}–{(b + 1) / bins:.1f}".replace(".", ",")

    return [HistogramBar(fach=fach_name(f), bereich=label(b), anzahl=counts.get((f, b), 0))
            for f in faecher for b in range(bins)]


# --- what the page calls (one unit of work each, acting as the curator) -------------------------------------------


def _as_curator(curator_id: uuid.UUID, service: Callable[..., T], **kwargs: Any) -> T:
    with acting(curator_id) as (db, teacher, _):
        if teacher.role != "curator":
            raise UserError("Kuratieren dürfen nur Kuratorinnen und Kuratoren. Bitte links eine passende Person "
                            "wählen.")
        return service(db=db, curator=teacher, **kwargs)


def queue_page(*, curator_id: uuid.UUID, filters: QueueFilter, page: int = 1) -> QueuePage:
    return _as_curator(curator_id, lambda db, curator: list_entries(db=db, filters=filters, page=page)[0])


def entry_detail(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID) -> EntryView:
    return _as_curator(curator_id, lambda db, curator: entry_view(db=db, knowledge_id=knowledge_id))


def save_entry(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID, expected_revision: int, edit: EntryEdit) -> Saved:
    return _as_curator(curator_id, save, knowledge_id=knowledge_id, expected_revision=expected_revision, edit=edit)


def rate_entry(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID, stars: int) -> str:
    return _as_curator(curator_id, rate, knowledge_id=knowledge_id, stars=stars)


def review_entry(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID) -> str:
    return _as_curator(curator_id, mark_reviewed, knowledge_id=knowledge_id)


def retire_entry(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID, retired: bool = True) -> str:
    return _as_curator(curator_id, set_retired, knowledge_id=knowledge_id, retired=retired)


def promote_entry(*, curator_id: uuid.UUID, knowledge_id: uuid.UUID) -> Promoted:
    return _as_curator(curator_id, promote, knowledge_id=knowledge_id)


def near_duplicates(*, curator_id: uuid.UUID, filters: QueueFilter, page: int = 1) -> list[DuplicatePair]:
    return _as_curator(curator_id, lambda db, curator: duplicates(db=db, filters=filters, page=page))


def merge_entries(*, curator_id: uuid.UUID, keep_id: uuid.UUID, drop_id: uuid.UUID) -> str:
    return _as_curator(curator_id, merge, keep_id=keep_id, drop_id=drop_id)


def quality_histogram(*, curator_id: uuid.UUID, agent_type: str | None = None) -> list[HistogramBar]:
    return _as_curator(curator_id, lambda db, curator: histogram(db=db, agent_type=agent_type))


# --- teachers ----------------------------------------------------------------------------------------------------


def share_for_curation(*, teacher_id: uuid.UUID, knowledge_id: uuid.UUID) -> str:
    """A teacher offers one of their own good practices to the curators (it stays theirs until promoted)."""
    with acting(teacher_id) as (db, teacher, _):
        row = db.get(AgentKnowledge, knowledge_id)
        if row is None or row.owner_id != teacher.id or row.scope_type != "teacher":
            raise NotFoundError("Nur eigene bewährte Aufgaben können zur Kuration geteilt werden.")
        if row.knowledge_type != "good_practice":
            raise UserError("Zur Kuration lassen sich nur bewährte Aufgaben teilen.")
        if row.shared_for_curation:
            return "Diese Aufgabe ist bereits zur Kuration geteilt."
        row.shared_for_curation = True
        row.revision += 1
        db.add(KnowledgeChange(knowledge_id=row.id, actor_id=teacher.id, action="share",
                               before={"shared_for_curation": False}, after={"shared_for_curation": True}))
        return "Geteilt: Die Kuratorinnen und Kuratoren prüfen die Aufgabe; sie bleibt bis dahin Ihre eigene."
