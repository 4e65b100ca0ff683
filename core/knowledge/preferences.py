"""A teacher's own preferences per Fach and agent: a typed form, validated with German messages, saved through the
learning store (`upsert_preferences`) — plus where each stored value came from (`content["quellen"]`)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator
from sqlalchemy.orm import Session

from core.app.acting import acting
from core.app.errors import UserError
from core.knowledge.learning import upsert_preferences
from core.knowledge.wissenskarte import AGENT_TYPES, PREFERENCE_LABELS, format_value
from core.materials.faecher import fach_name, normalize_fach
from core.materials.notenschluessel import SEK1_SCHWELLEN
from db.models import Teacher
from db.repos import knowledge as knowledge_repo

SETTINGS_KEY = "notenschluessel_sek1"  # teacher.settings key the router's grading_scheme() reads first
MAX_ITEMS = {"dinge_vermeiden": 10, "frei": 5}
MAX_ITEM_CHARS = {"dinge_vermeiden": 80, "frei": 120}
STIL_MAX = 300

FIELD_LABELS: dict[str, str] = {
    "aufgaben_anzahl": "Aufgabenanzahl", "teilaufgaben": "Teilaufgaben", "bonusaufgabe": "Bonusaufgabe",
    "rechnung_theorie": "Rechnung:Theorie", "notenschluessel": "Notenschlüssel", "stil": "Stil",
    "dinge_vermeiden": "Dinge vermeiden", "afb_ziel": "AFB-Zielverteilung", "punkte_pro_minute": "Punkte pro Minute",
    "frei": "Weitere Wünsche",
}
FIELD_RANGES = {"aufgaben_anzahl": ("1", "12"), "punkte_pro_minute": ("0,5", "2,0")}
_FORM_FIELD = {"rechnung_theorie_ratio": "rechnung_theorie"}  # stored key -> form field, where they differ


def _today() -> str:
    return datetime.now(UTC).strftime("%d.%m.%Y")


def _lines(value: Any) -> Any:
    """A text area's content as a list of entries (one per non-empty line); lists pass through unchanged."""
    if isinstance(value, str):
        return [line.strip() for line in value.splitlines() if line.strip()]
    return value


def _shares(values: list[int | None] | None, names: tuple[str, ...], what: str) -> list[int] | None:
    """All empty -> None; otherwise every share given, each 0–100, summing to 100."""
    if values is None or all(v is None for v in values):
        return None
    if len(values) != len(names):
        raise ValueError(f"Bitte genau {len(names)} Anteile angeben ({', '.join(names)}).")
    missing = [n for n, v in zip(names, values, strict=True) if v is None]
    if missing:
        raise ValueError(f"Bitte auch {', '.join(missing)} ausfüllen — oder alle {what}-Felder leer lassen.")
    for n, v in zip(names, values, strict=True):
        if not 0 <= v <= 100:
            raise ValueError(f"{n} muss zwischen 0 und 100 % liegen (jetzt {v} %).")
    if sum(values) != 100:
        raise ValueError(f"Die Anteile ergeben zusammen {sum(values)} %, nötig sind genau 100 %.")
    return [int(v) for v in values]


class PreferenceForm(BaseModel):
    """What a teacher may set for one Fach × agent. Empty fields mean "keine Vorgabe"."""

    model_config = ConfigDict(strict=True, extra="forbid")

    aufgaben_anzahl: int | None = Field(None, ge=1, le=12)
    teilaufgaben: bool | None = None
    bonusaufgabe: bool | None = None
    rechnung_theorie: list[int | None] | None = None  # [Rechnung %, Theorie %]
    notenschluessel: list[int | None] | None = None  # Sek-I thresholds for Note 1..5 in %; None = Standard
    stil: str | None = Field(None, max_length=STIL_MAX)
    dinge_vermeiden: list[str] = Field(default_factory=list)
    afb_ziel: list[int | None] | None = None  # [I, II, III] in %
    punkte_pro_minute: float | None = Field(None, ge=0.5, le=2.0)
    frei: list[str] = Field(default_factory=list)

    @field_validator("dinge_vermeiden", "frei", mode="before")
    @classmethod
    def _split_lines(cls, value: Any) -> Any:
        return [] if value is None else _lines(value)

    @field_validator("stil", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        return (value.strip() or None) if isinstance(value, str) else value

    @field_validator("dinge_vermeiden", "frei")
    @classmethod
    def _entries(cls, items: list[str], info: ValidationInfo) -> list[str]:
        name, label = info.field_name, FIELD_LABELS[info.field_name]
        cleaned = [" ".join(item.split()) for item in items]
        for i, item in enumerate(cleaned, 1):
            if not item:
                raise ValueError(f"Eintrag {i} ist leer — bitte ausfüllen oder entfernen.")
            if len(item) > MAX_ITEM_CHARS[name]:
                raise ValueError(f"„{item[:30]}…“ ist zu lang ({len(item)} Zeichen, höchstens "
                                 f"{MAX_ITEM_CHARS[name]}). Bitte kürzer fassen.")
        seen: set[str] = set()
        for item in cleaned:
            if item.casefold() in seen:
                raise ValueError(f"„{item}“ steht doppelt in {label}. Bitte einen der Einträge entfernen.")
            seen.add(item.casefold())
        if len(cleaned) > MAX_ITEMS[name]:
            raise ValueError(f"Höchstens {MAX_ITEMS[name]} Einträge (jetzt {len(cleaned)}).")
        return cleaned

    @field_validator("rechnung_theorie")
    @classmethod
    def _ratio(cls, values: list[int | None] | None) -> list[int] | None:
        return _shares(values, ("Rechnung", "Theorie"), "Rechnung:Theorie")

    @field_validator("afb_ziel")
    @classmethod
    def _afb(cls, values: list[int | None] | None) -> list[int] | None:
        return _shares(values, ("AFB I", "AFB II", "AFB III"), "AFB")

    @field_validator("notenschluessel")
    @classmethod
    def _grades(cls, values: list[int | None] | None) -> list[int] | None:
        if values is None:
            return None
        if len(values) != 5 or any(v is None for v in values):
            raise ValueError("Bitte alle fünf Schwellen angeben (ab wie viel Prozent Note 1 bis Note 5 gelten) — "
                             "oder „Standard“ wählen.")
        for note, v in enumerate(values, 1):
            if not 1 <= v <= 100:
                raise ValueError(f"Note {note}: die Schwelle muss zwischen 1 und 100 % liegen (jetzt {v} %).")
        for note, (higher, lower) in enumerate(zip(values, values[1:], strict=False), 2):
            if not lower < higher:
                raise ValueError(f"Die Schwellen müssen von Note 1 bis Note 5 streng fallen: Note {note} ({lower} %) "
                                 f"ist nicht kleiner als Note {note - 1} ({higher} %).")
        return [int(v) for v in values]

    @model_validator(mode="after")
    def _round_rate(self) -> PreferenceForm:
        if self.punkte_pro_minute is not None:
            self.punkte_pro_minute = round(float(self.punkte_pro_minute), 2)
        return self

    def stored(self) -> dict[str, Any]:
        """The values in the shape the preference row keeps (what the Wissenskarte, router and builder read)."""
        return {
            "aufgaben_anzahl": self.aufgaben_anzahl,
            "teilaufgaben": self.teilaufgaben,
            "bonusaufgabe": self.bonusaufgabe,
            "rechnung_theorie_ratio": f"{self.rechnung_theorie[0]}:{self.rechnung_theorie[1]}"
            if self.rechnung_theorie else None,
            "afb_ziel": dict(zip(("I", "II", "III"), self.afb_ziel, strict=True)) if self.afb_ziel else None,
            "punkte_pro_minute": self.punkte_pro_minute,
            "notenschluessel": {str(n): v for n, v in enumerate(self.notenschluessel, 1)}
            if self.notenschluessel else None,
            "stil": self.stil,
            "dinge_vermeiden": list(self.dinge_vermeiden),
            "frei": list(self.frei),
        }


_TYPE_MESSAGES = {
    "int_type": "bitte eine ganze Zahl eingeben", "int_parsing": "bitte eine ganze Zahl eingeben",
    "float_type": "bitte eine Zahl eingeben (z. B. 1,0)", "float_parsing": "bitte eine Zahl eingeben (z. B. 1,0)",
    "bool_type": "bitte „ja“, „nein“ oder „keine Vorgabe“ wählen", "string_type": "bitte Text eingeben",
    "list_type": "bitte eine Liste angeben (ein Eintrag pro Zeile)",
}


def german_errors(exc: ValidationError) -> list[str]:
    """pydantic's errors as German sentences that name the field and say what to fix."""
    out: list[str] = []
    for err in exc.errors():
        field = str(err["loc"][0]) if err["loc"] else ""
        label = FIELD_LABELS.get(field, field)
        kind, ctx = err["type"], err.get("ctx") or {}
        if kind == "value_error":
            text = str(ctx.get("error", err["msg"])).removeprefix("Value error, ")
        elif kind in ("greater_than_equal", "less_than_equal"):
            text = (f"bitte einen Wert von {FIELD_RANGES[field][0]} bis {FIELD_RANGES[field][1]} eingeben"
                    if field in FIELD_RANGES else "Wert außerhalb des erlaubten Bereichs")
        elif kind == "string_too_long":
            text = f"höchstens {ctx.get('max_length')} Zeichen — bitte kürzen"
        elif kind == "extra_forbidden":
            text = "unbekanntes Feld — erlaubt sind: " + ", ".join(FIELD_LABELS.values())
        else:
            text = _TYPE_MESSAGES.get(kind.split(".")[0], "ungültiger Wert")
        out.append(f"{label}: {text}")
    return list(dict.fromkeys(out))



def validate_form(form: Mapping[str, Any]) -> PreferenceForm:
    try:
        return PreferenceForm.model_validate(dict(form))
    except ValidationError as exc:
        lines = "\n".join(f"- {e}" for e in german_errors(exc))
        raise UserError(f"Nichts gespeichert — bitte korrigieren:\n{lines}") from None
    except (TypeError, ValueError) as exc:  # form was not a mapping of field -> value at all
        raise UserError("Nichts gespeichert — die Eingaben konnten nicht gelesen werden.") from exc


def _check_target(agent_type: str, fach: str) -> str:
    if agent_type not in AGENT_TYPES:
        raise UserError(f"Unbekannte Material-Art „{agent_type[:30]}“. Möglich: {', '.join(AGENT_TYPES.values())}.")
    return normalize_fach(fach) or ""


# --- reading: the form's starting values and where each stored value came from ---------------------------------


@dataclass(frozen=True)
class StoredValue:
    key: str
    label: str
    value: str
    quelle: str


@dataclass(frozen=True)
class PreferenceState:
    agent_type: str
    fach: str
    form: PreferenceForm  # starting values for the widgets (stored values that still validate)
    stored: list[StoredValue]
    notenschluessel_gilt: str  # which Sek-I thresholds the next exam uses, in words
    schwellen: list[int]  # starting values of the five threshold fields (own ones, else the standard)


def _fmt(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "/".join(str(v) for v in value) if all(isinstance(v, int) for v in value) else "; ".join(
            str(v) for v in value)
    return format_value(value)


def _ratio_parts(raw: Any) -> list[int] | None:
    """'60:40' (the chat's form), {'rechnung': 60, 'theorie': 40} or nothing."""
    if raw is None:
        return None
    if isinstance(raw, Mapping):
        return [int(raw["rechnung"]), int(raw["theorie"])]
    left, right = str(raw).split(":", 1)
    return [int(float(left.replace(",", "."))), int(float(right.replace(",", ".")))]


def _form_from(prefs: Mapping[str, Any], settings: Mapping[str, Any]) -> PreferenceForm:
    """Stored values as form values; a value that cannot be read or no longer validates starts empty."""
    afb = prefs.get("afb_ziel") or prefs.get("afb_verteilung")  # the chat stores the same wish as a list
    grades = prefs.get("notenschluessel") or settings.get(SETTINGS_KEY)
    rate = prefs.get("punkte_pro_minute")
    readers: dict[str, Any] = {
        "aufgaben_anzahl": lambda: prefs.get("aufgaben_anzahl"),
        "teilaufgaben": lambda: prefs.get("teilaufgaben"),
        "bonusaufgabe": lambda: prefs.get("bonusaufgabe"),
        "stil": lambda: prefs.get("stil"),
        "punkte_pro_minute": lambda: None if rate is None or isinstance(rate, bool) else float(rate),
        "dinge_vermeiden": lambda: _lines(prefs.get("dinge_vermeiden") or []),
        "frei": lambda: _lines(prefs.get("frei") or []),
        "rechnung_theorie": lambda: _ratio_parts(prefs.get("rechnung_theorie_ratio")),
        "afb_ziel": lambda: None if not afb else [int(afb[k]) for k in ("I", "II", "III")] if isinstance(
            afb, Mapping) else [int(v) for v in afb],
        "notenschluessel": lambda: None if not grades else [int(float(grades[str(n)])) for n in range(1, 6)],
    }
    good: dict[str, Any] = {}
    for key, read in readers.items():
        try:
            value = read()
            PreferenceForm.model_validate({key: value})
        except (ValidationError, ValueError, TypeError, KeyError, AttributeError):
            continue
        good[key] = value
    return PreferenceForm.model_validate(good)


def _changes(current: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """What differs from the stored row; an empty field where nothing was stored is no change."""
    return {k: v for k, v in values.items() if current.get(k) != v and (v not in (None, []) or current.get(k))}


def load_preferences(*, teacher_id: uuid.UUID, agent_type: str, fach: str) -> PreferenceState:
    """The teacher's stored preferences for (agent, Fach): form values and each value's origin."""
    key = _check_target(agent_type, fach)
    with acting(teacher_id) as (db, teacher, _):
        row = knowledge_repo.preference_row(db=db, teacher_id=teacher.id, agent_type=agent_type, fach=key)
        prefs = dict(row.content) if row is not None else {}
        settings = dict(teacher.settings or {})
    quellen = prefs.pop("quellen", None) or {}
    labels = {**PREFERENCE_LABELS, "frei": "Weitere Wünsche", "afb_verteilung": "AFB-Verteilung (Chat)"}
    ordered = [k for k in labels if k in prefs] + sorted(k for k in prefs if k not in labels)
    stored = [StoredValue(key=k, label=labels.get(k, k), value=_fmt(prefs[k]),
                          quelle=str(quellen.get(k) or "Herkunft nicht vermerkt"))
              for k in ordered if prefs[k] not in (None, "", [], {})]
    custom = settings.get(SETTINGS_KEY)
    gilt = (f"eigene Schwellen {_fmt(custom)} (gilt für alle Ihre Sek-I-Klausuren)" if isinstance(custom, Mapping)
            else "Standard " + "/".join(f"{v:.0f}" for v in SEK1_SCHWELLEN) + " (oder die Vorgabe Ihrer Schule)")
    form = _form_from(prefs, settings)
    return PreferenceState(agent_type=agent_type, fach=key, form=form, stored=stored, notenschluessel_gilt=gilt,
                           schwellen=form.notenschluessel or [int(v) for v in SEK1_SCHWELLEN])


# --- saving -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SaveResult:
    changed: list[str]
    message: str


def save_preferences(*, teacher_id: uuid.UUID, agent_type: str, fach: str, form: Mapping[str, Any]) -> SaveResult:
    """Validate the form and store what changed (source "selbst eingetragen am …"); nothing is stored on bad input.

    Custom Sek-I thresholds also go to the teacher's settings, which the Notenschlüssel of every exam reads.
    """
    key = _check_target(agent_type, fach)
    values = validate_form(form).stored()
    with acting(teacher_id) as (db, teacher, _):
        row = knowledge_repo.preference_row(db=db, teacher_id=teacher.id, agent_type=agent_type, fach=key)
        current = dict(row.content) if row is not None else {}
        updates = _changes(current, values)
        if updates.get("dinge_vermeiden") is not None and row is not None:
            # upsert_preferences adds to this list (chat wishes accumulate); the form states the whole list.
            row.content = {**row.content, "dinge_vermeiden": []}
            db.flush()
        if updates:
            upsert_preferences(db=db, teacher=teacher, agent_type=agent_type, fach=key, updates=updates,
                               source=f"selbst eingetragen am {_today()}")
        settings = dict(teacher.settings or {})
        if agent_type == "klausur" and "notenschluessel" in form and settings.get(SETTINGS_KEY) != values[
                "notenschluessel"]:
            if values["notenschluessel"]:
                settings[SETTINGS_KEY] = values["notenschluessel"]
            else:
                settings.pop(SETTINGS_KEY, None)
            teacher.settings = settings  # teachers may update their own row (RLS teachers_update)
            db.flush()
            updates.setdefault("notenschluessel", values["notenschluessel"])
    changed = [FIELD_LABELS.get(_FORM_FIELD.get(k, k), k) for k in updates]
    if not changed:
        return SaveResult(changed=[], message="Keine Änderungen — alles war schon so gespeichert.")
    return SaveResult(changed=changed, message="Gespeichert: " + ", ".join(changed)
                      + ". Das gilt ab der nächsten Erstellung.")


def remember_afb_answer(*, db: Session, teacher: Teacher, agent_type: str, fach: str, afb: Mapping[str, int]
                        ) -> str | None:
    """The AFB split the teacher chose in a Rückfrage becomes their preference for (agent, Fach), so the next request
    in that Fach is not asked again. Returns the sentence that tells the teacher so (None: it was stored already)."""
    key = _check_target(agent_type, fach)
    split = {k: int(afb[k]) for k in ("I", "II", "III")}
    row = knowledge_repo.preference_row(db=db, teacher_id=teacher.id, agent_type=agent_type, fach=key)
    if row is not None and (row.content or {}).get("afb_ziel") == split:
        return None
    upsert_preferences(db=db, teacher=teacher, agent_type=agent_type, fach=key, updates={"afb_ziel": split},
                       source=f"im Chat gewählt am {_today()}")
    what = "Klausuren" if agent_type == "klausur" else f"{AGENT_TYPES[agent_type]}-Materialien"
    return (f"Gemerkt: AFB {'/'.join(str(v) for v in split.values())} gilt ab jetzt für Ihre {what} in "
            f"{fach_name(key)} – ich frage nicht mehr danach. Ändern können Sie das auf der Seite „Präferenzen“.")
