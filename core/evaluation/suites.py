"""Evaluation suites (seeds/eval/*.yaml): cases with their expectations, read and checked; every mistake
in a file is a German message naming the line and the case."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from core.app.config import ROOT
from core.app.errors import UserError
from core.evaluation.suite_errors import node_line, validation_message, yaml_message
from core.materials.blocks import AFB_STUFEN
from core.materials.faecher import normalize_fach
from core.materials.request import MaterialType

SUITE_DIR = ROOT / "seeds" / "eval"


TYP_NAMEN = {"klausur": "Klausur", "differenzierung": "Differenzierung", "h5p": "H5P"}


_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")
_AFB = re.compile(r"^\s*(\d{1,3})\s*/\s*(\d{1,3})\s*/\s*(\d{1,3})\s*$")


def parse_afb(text: str) -> dict[str, int]:
    """'30/40/30' -> {'I': 30, 'II': 40, 'III': 30}; a German ValueError unless it is three shares summing to 100."""
    m = _AFB.match(text or "")
    if not m:
        raise ValueError(f"„{text}“ ist keine AFB-Verteilung; erwartet wird z. B. „30/40/30“")
    values = [int(v) for v in m.groups()]
    if sum(values) != 100:
        raise ValueError(f"die AFB-Verteilung „{text}“ ergibt {sum(values)} statt 100 Prozent")
    return dict(zip(AFB_STUFEN, values, strict=True))


class Expectation(BaseModel):
    """What a case expects (the `erwartet` block of a scenario file)."""

    model_config = ConfigDict(extra="forbid")
    typ: MaterialType
    fach: str
    klassenstufe: int = Field(ge=5, le=13)
    dauer: int | None = Field(default=None, gt=0, le=600)
    rueckfrage: bool = False
    schaerfungsfrage: bool | None = None
    afb: str | None = None
    afb_toleranz: float = Field(default=10.0, gt=0, le=50)
    themen: list[str] = Field(default_factory=list)
    fragen: int | None = Field(default=None, ge=1, le=50)
    themenwoerter: list[str] = Field(default_factory=list)
    unterthemen: list[str] = Field(default_factory=list)

    @field_validator("fach")
    @classmethod
    def _fach(cls, value: str) -> str:
        try:
            return normalize_fach(value) or value
        except UserError as exc:
            raise ValueError(exc.message) from None

    @field_validator("afb")
    @classmethod
    def _afb(cls, value: str | None) -> str | None:
        if value is not None:
            parse_afb(value)
        return value

    @property
    def afb_ziel(self) -> dict[str, int] | None:
        return parse_afb(self.afb) if self.afb else None


class CaseSpec(BaseModel):
    """One teacher request with its follow-up answers and expectations."""

    model_config = ConfigDict(extra="forbid")
    name: str
    anfrage: str = Field(min_length=3, max_length=4000)
    nachrichten: list[str] = Field(default_factory=list)
    rueckfrage_antwort: str | None = None
    erwartet: Expectation

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not _NAME.match(value):
            raise ValueError("der Name darf nur Kleinbuchstaben, Ziffern, „-“ und „_“ enthalten (höchstens 80 Zeichen)")
        return value

    def involves(self, agent: str) -> bool:
        """Whether this case exercises `agent`: the main agent in every case, a specialist in its own type."""
        return agent not in TYP_NAMEN or self.erwartet.typ == agent


class SuiteFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = None
    beschreibung: str = ""
    faelle: list[CaseSpec] = Field(min_length=1)


@dataclass(frozen=True)
class Suite:
    name: str
    path: Path
    beschreibung: str
    faelle: list[CaseSpec]

    def cases_for(self, agent: str, limit: int | None = None) -> list[CaseSpec]:
        chosen = [c for c in self.faelle if c.involves(agent)]
        return chosen[:limit] if limit else chosen


@dataclass(frozen=True)
class SuiteInfo:
    name: str
    path: Path
    beschreibung: str
    faelle: int
    fehler: str | None = None

    @property
    def label(self) -> str:
        return f"{self.name} ({self.faelle} Fälle)" if not self.fehler else f"{self.name} (fehlerhaft)"


def parse_suite(text: str, *, path: Path) -> Suite:
    """Read a scenario file; every mistake is a German UserError naming the line (and the case)."""
    filename = path.name
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise UserError(yaml_message(exc, filename)) from None
    if data is None:
        raise UserError(f"Die Suite-Datei {filename} ist leer. Sie braucht mindestens einen Fall unter „faelle:“.")
    if not isinstance(data, dict):
        raise UserError(f"Die Suite-Datei {filename} muss mit Feldern beginnen (name, beschreibung, faelle).")
    try:
        parsed = SuiteFile.model_validate(data)
    except ValidationError as exc:
        raise UserError(validation_message(exc, data, root, filename)) from None
    seen: dict[str, int] = {}
    for i, case in enumerate(parsed.faelle):
        if case.name in seen:
            line = node_line(root, ("faelle", i, "name"))
            raise UserError(f"Die Suite-Datei {filename} enthält Fehler:\n- Zeile {line}, Fall {i + 1}: der Name "
                            f"„{case.name}“ kommt schon in Fall {seen[case.name] + 1} vor; Namen müssen eindeutig "
                            "sein.")
        seen[case.name] = i
    return Suite(name=parsed.name or path.stem, path=path, beschreibung=parsed.beschreibung, faelle=parsed.faelle)


def suite_path(ref: str | Path) -> Path:
    """A suite by name (a file in seeds/eval) or by path."""
    raw = str(ref).strip()
    if not raw:
        raise UserError("Bitte eine Suite angeben, z. B. „standard“.")
    path = Path(raw)
    if path.suffix in (".yaml", ".yml") or path.exists():
        if not path.is_file():
            raise UserError(f"Die Suite-Datei {raw} gibt es nicht.")
        return path
    candidate = SUITE_DIR / f"{raw}.yaml"
    if not candidate.is_file():
        names = ", ".join(s.name for s in list_suites()) or "keine"
        raise UserError(f"Die Suite „{raw[:60]}“ gibt es nicht. Vorhanden: {names}.")
    return candidate


def load_suite(ref: str | Path) -> Suite:
    path = suite_path(ref)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UserError(f"Die Suite-Datei {path.name} ist nicht UTF-8-kodiert. Bitte als UTF-8 speichern.") from None
    return parse_suite(text, path=path)


def list_suites(directory: Path = SUITE_DIR) -> list[SuiteInfo]:
    """The scenario files; a broken file is listed with its error instead of breaking the list."""
    out = []
    for path in sorted(directory.glob("*.yaml")):
        with contextlib.suppress(yaml.YAMLError, OSError, UnicodeDecodeError):
            head = yaml.safe_load(path.read_text(encoding="utf-8"))
            if isinstance(head, dict) and head and "faelle" not in head and "name" not in head:
                continue  # another tool's data in this folder (e.g. combined.yaml of the supervisor tests)
        try:
            s = load_suite(path)
            out.append(SuiteInfo(name=s.name, path=path, beschreibung=s.beschreibung, faelle=len(s.faelle)))
        except UserError as exc:
            out.append(SuiteInfo(name=path.stem, path=path, beschreibung="", faelle=0, fehler=exc.message))
    return out
