"""What the Good-Practices page shows: filters, list cards, the entry with its history, the edit form's
fields, results of actions — and how a knowledge row becomes a card and a form."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from core.materials.dates import SCHOOL_TZ
from core.materials.wording import anzahl
from db.models import AgentKnowledge

AGENT_TYPES: dict[str, str] = {"klausur": "Klausur", "differenzierung": "Differenzierung", "h5p": "H5P"}
AGENT_FILTER: dict[str, str] = {"": "Alle Typen", **AGENT_TYPES}
VIEWS: dict[str, str] = {"queue": "Warteschlange (neu/unbewertet)", "active": "Alle aktiven",
                         "retired": "Ausgemustert"}
ORDERS: dict[str, str] = {"priority": "Priorität (geteilt, ungeprüft, oft genutzt, schlecht bewertet)",
                          "newest": "Neueste zuerst", "used": "Nutzung (am häufigsten in Materialien verwendet)"}
AFB_STUFEN = ("I", "II", "III")




@dataclass(frozen=True)
class QueueFilter:
    fach: str
    agent_type: str | None = None  # None: all three specialists
    view: str = "queue"
    text: str = ""
    order: str = "priority"


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
        count = anzahl(self.total, "Eintrag")
        return f"{count} · Seite {self.page} von {self.pages}"


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
class FieldChange:
    feld: str
    vorher: str
    nachher: str


@dataclass(frozen=True)
class Change:
    id: int
    wann: str
    wer: str
    aktion: str
    felder: list[FieldChange]
    restorable: bool  # an edit: the version before it can be restored

    @property
    def label(self) -> str:
        return f"{self.wann} · {self.wer} · {self.aktion}"

    def rows(self) -> list[dict[str, str]]:
        """One line per changed field, full values (no JSON, nothing cut off)."""
        head = {"Wann": self.wann, "Wer": self.wer, "Aktion": self.aktion}
        if not self.felder:
            return [{**head, "Feld": "", "Vorher": "", "Nachher": ""}]
        return [{**head, "Feld": f.feld, "Vorher": f.vorher, "Nachher": f.nachher} for f in self.felder]


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
    retired_reason: str = ""
    merged_into: uuid.UUID | None = None

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
        why = f" Grund: {self.retired_reason}." if self.retired_reason else ""
        merged = f" Zusammengeführt in Eintrag {str(self.merged_into)[:8]}." if self.merged_into else ""
        return f"Ausgemustert.{why}{merged} Zum Bearbeiten zuerst wieder aktivieren."

    def content_rows(self) -> list[tuple[str, str]]:
        """The whole stored content as readable lines (what the form does not show)."""
        labels = dict(COMPARE_FIELDS)
        return [(labels.get(k, k.capitalize()), field_text(v)) for k, v in self.content.items()
                if v not in (None, "", [], {})]

    def operator_label(self, operator: str) -> str:
        afb = self.operators.get(operator)
        return f"{operator} (AFB {afb})" if afb else f"{operator} (nicht in der Operatorenliste)"


@dataclass(frozen=True)
class FieldConflict:
    """One field both curators changed: the version the form started from, the stored one now, mine."""

    feld: str
    gespeichert: str
    aktuell: str
    ihre: str


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
    compare: list[tuple[str, str, str]] = field(default_factory=list)  # (field, left, right) side by side

    def compare_table(self) -> list[dict[str, str]]:
        return [{"Feld": f, "Links": a, "Rechts": b, "": "" if a == b else "≠"} for f, a, b in self.compare]

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
class DuplicatePage:
    pairs: list[DuplicatePair]
    total: int
    page: int
    pages: int

    @property
    def caption(self) -> str:
        count = anzahl(self.total, "Paar")
        return f"{count} im ganzen Fach · Seite {self.page} von {self.pages} · ähnlichste zuerst"


@dataclass(frozen=True)
class HistogramBar:
    fach: str
    bereich: str
    anzahl: int


def local_time(value: datetime | None) -> str:
    return value.astimezone(SCHOOL_TZ).strftime("%d.%m.%Y %H:%M") if value else ""


def card_of(row: AgentKnowledge) -> EntryCard:
    return EntryCard(
        id=row.id, thema=row.thema or "(ohne Thema)", beschreibung=(row.description or "")[:120],
        typ=AGENT_TYPES.get(row.agent_type, row.agent_type),
        herkunft="allgemein" if row.scope_type == "global" else "geteilt von einer Lehrkraft",
        qualitaet=round(row.quality_score, 3), bewertungen=row.rating_count, genutzt=row.times_used,
        status="aktiv" if row.status == "active" else "ausgemustert", geaendert=local_time(row.updated_at),
    )


def task_text(content: Mapping[str, Any]) -> str:
    return str(content.get("aufgabe") or content.get("frage") or content.get("lernziel") or "")


def edit_of(row: AgentKnowledge) -> EntryEdit:
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


COMPARE_FIELDS: tuple[tuple[str, str], ...] = (
    ("aufgabe", "Aufgabe"), ("frage", "Frage"), ("lernziel", "Lernziel"), ("operator", "Operator"), ("afb", "AFB"),
    ("punkte", "Punkte"), ("erwartung", "Erwartungshorizont"), ("material", "Material"),
    ("klassenstufe", "Klassenstufe"), ("themenfeld", "Themenfeld"), ("antworten", "Antworten"),
    ("niveaus", "Niveaus"), ("kontext", "Kontext"),
)


def field_text(value: Any) -> str:
    """A content value as one readable line (criteria as 'Kriterium (n P.)', lists joined)."""
    if value is None or value == "":
        return "—"
    if isinstance(value, list):
        parts = []
        for v in value:
            if isinstance(v, dict) and "kriterium" in v:
                parts.append(f"{v.get('kriterium', '')} ({v.get('punkte', '?')} P.)")
            elif isinstance(v, dict):
                parts.append(", ".join(f"{k}: {field_text(x)}" for k, x in v.items()))
            else:
                parts.append(str(v))
        return "; ".join(parts) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {field_text(v)}" for k, v in value.items()) or "—"
    return str(value)


def compare_rows(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """The fields two entries are compared on, side by side (only fields at least one of them has)."""
    return [(label, field_text(a.get(key)), field_text(b.get(key))) for key, label in COMPARE_FIELDS
            if a.get(key) not in (None, "", []) or b.get(key) not in (None, "", [])]
