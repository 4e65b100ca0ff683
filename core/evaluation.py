"""Evaluation suites (seeds/eval/*.yaml), pydantic-evals evaluators, the runner (each case played as the evaluation
teacher in a rolled-back transaction), stored runs in eval_runs/llm_calls and their comparison."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import re
import time
import uuid
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_evals import Case, Dataset
from pydantic_evals.evaluators import EvaluationReason, Evaluator, EvaluatorContext, LLMJudge, OutputConfig
from pydantic_evals.lifecycle import CaseLifecycle
from pydantic_evals.reporting import ReportCase, ReportCaseFailure
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from agents.models import override_models
from agents.prompts import override_prompts
from core.app.acting import acting
from core.app.config import ROOT
from core.app.errors import NotFoundError, UserError
from core.composition.generators.registry import all_generators
from core.evaluation_content import content_evaluators, content_figures, content_lines
from core.exports.h5p import build_package
from core.exports.xml_text import ExportError
from core.faecher import FAECHER, fach_name, normalize_fach
from core.llm import CallLog
from core.materials import AFB_STUFEN, NIVEAU_NAMEN, DifferenziertesMaterial, H5PSet, Klausur, MaterialType
from core.materials_service import SCHOOL_TZ, local_time
from core.prompt_lab import agent_label, agent_names, resolve_version
from core.validation import validate_klausur
from db.models import Teacher
from db.repos import evals as eval_repo
from db.repos import knowledge as knowledge_repo
from db.repos import materials as material_repo
from db.repos import memory as memory_repo
from db.repos.teachers import find_teacher, identity_for
from db.session import Identity, get_engine, unit_of_work

log = logging.getLogger(__name__)

SUITE_DIR = ROOT / "seeds" / "eval"
EVAL_EMAIL = "evaluation@werkbank.intern"
EVAL_SCHOOL = "Werkbank-Evaluation"
EVAL_NAME = "Evaluation (automatisch)"
MAX_TURNS = 6
DEFAULT_MIN_PASS = 0.95
TYP_NAMEN = {"klausur": "Klausur", "differenzierung": "Differenzierung", "h5p": "H5P"}
STATUS_NAMEN = {"running": "läuft", "completed": "abgeschlossen", "interrupted": "unterbrochen",
                "failed": "fehlgeschlagen"}
JUDGE_RUBRIC = ("Das Material ist fachlich korrekt, altersgerecht für die angegebene Klassenstufe und eindeutig "
                "formuliert (jede Aufgabe ist ohne Rückfrage verständlich).")

# --------------------------------------------------------------------------------------------------------------------
# Suite files
# --------------------------------------------------------------------------------------------------------------------

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


_YAML_HINTS = {
    "mapping values are not allowed here": "Doppelpunkt an unerwarteter Stelle – Text mit „:“ bitte in "
                                           "Anführungszeichen setzen",
    "found character '\\t' that cannot start any token": "Tabulator gefunden – bitte mit Leerzeichen einrücken",
    "could not find expected ':'": "es fehlt ein Doppelpunkt nach dem Feldnamen",
    "found unexpected end of stream": "Anführungszeichen oder Klammer nicht geschlossen",
    "did not find expected key": "Einrückung passt nicht zu den Zeilen darüber",
    "did not find expected '-' indicator": "Einrückung der Liste passt nicht",
    "expected <block end>, but found": "Einrückung passt nicht zu den Zeilen darüber",
    "found duplicate anchor": "doppelter Anker",
}
_PYDANTIC_DE = {
    "missing": "fehlt",
    "extra_forbidden": "ist kein bekanntes Feld (Tippfehler?)",
    "int_parsing": "muss eine ganze Zahl sein",
    "int_type": "muss eine ganze Zahl sein",
    "float_parsing": "muss eine Zahl sein",
    "bool_parsing": "muss true oder false sein",
    "bool_type": "muss true oder false sein",
    "string_type": "muss ein Text sein",
    "list_type": "muss eine Liste sein",
    "model_type": "muss ein Block mit Feldern sein",
    "dict_type": "muss ein Block mit Feldern sein",
    "too_short": "ist zu kurz bzw. leer",
    "string_too_short": "ist zu kurz",
    "string_too_long": "ist zu lang",
}


def _yaml_message(exc: yaml.YAMLError, filename: str) -> str:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = str(getattr(exc, "problem", None) or exc).strip()
    hint = next((de for en, de in _YAML_HINTS.items() if problem.startswith(en)), problem)
    where = f" in Zeile {mark.line + 1}, Spalte {mark.column + 1}" if mark is not None else ""
    return f"Die Suite-Datei {filename} ist kein gültiges YAML{where}: {hint}."


def _node_line(node: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """The 1-based line of the value at `loc` (as deep as the file has it), read from the composed YAML nodes."""
    if node is None:
        return None
    line = node.start_mark.line + 1
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            hit = next(((k, v) for k, v in node.value if getattr(k, "value", None) == key), None)
            if hit is None:
                break
            line, node = hit[0].start_mark.line + 1, hit[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line + 1
        else:
            break
    return line


def _pydantic_message(error: dict[str, Any]) -> str:
    kind = error.get("type", "")
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        limit = next(iter((error.get("ctx") or {}).values()), "")
        op = {"greater_than_equal": "≥", "less_than_equal": "≤", "greater_than": ">", "less_than": "<"}[kind]
        return f"muss {op} {limit} sein"
    if kind == "literal_error":
        expected = str((error.get("ctx") or {}).get("expected", "")).replace(" or ", " oder ")
        return f"muss einer dieser Werte sein: {expected}"
    if kind == "value_error":
        return str(error.get("msg", "")).removeprefix("Value error, ")
    return _PYDANTIC_DE.get(kind, str(error.get("msg", "ungültig")))


def _validation_message(exc: ValidationError, data: Any, root: yaml.Node | None, filename: str) -> str:
    lines = []
    for error in exc.errors()[:5]:
        loc = tuple(error.get("loc") or ())
        line = _node_line(root, loc)
        where = f"Zeile {line}" if line else "Datei"
        if len(loc) >= 2 and loc[0] == "faelle" and isinstance(loc[1], int):
            name = ""
            with contextlib.suppress(Exception):
                name = str(data["faelle"][loc[1]].get("name") or "")
            where += f", Fall {loc[1] + 1}" + (f" „{name}“" if name else "")
            loc = loc[2:]
        field_name = ".".join(str(p) for p in loc) or "faelle"
        lines.append(f"{where}: Feld {field_name}: {_pydantic_message(error)}")
    more = len(exc.errors()) - len(lines)
    tail = f" (und {more} weitere Fehler)" if more > 0 else ""
    return f"Die Suite-Datei {filename} enthält Fehler{tail}:\n- " + "\n- ".join(lines)


def parse_suite(text: str, *, path: Path) -> Suite:
    """Read a scenario file; every mistake is a German UserError naming the line (and the case)."""
    filename = path.name
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise UserError(_yaml_message(exc, filename)) from None
    if data is None:
        raise UserError(f"Die Suite-Datei {filename} ist leer. Sie braucht mindestens einen Fall unter „faelle:“.")
    if not isinstance(data, dict):
        raise UserError(f"Die Suite-Datei {filename} muss mit Feldern beginnen (name, beschreibung, faelle).")
    try:
        parsed = SuiteFile.model_validate(data)
    except ValidationError as exc:
        raise UserError(_validation_message(exc, data, root, filename)) from None
    seen: dict[str, int] = {}
    for i, case in enumerate(parsed.faelle):
        if case.name in seen:
            line = _node_line(root, ("faelle", i, "name"))
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


# --------------------------------------------------------------------------------------------------------------------
# The task: one case, played as the evaluation teacher in a rolled-back transaction
# --------------------------------------------------------------------------------------------------------------------


class CaseInputs(BaseModel):
    anfrage: str
    nachrichten: list[str] = Field(default_factory=list)
    rueckfrage_antwort: str | None = None  # None: the first suggestion of the Rückfrage


class Turn(BaseModel):
    lehrkraft: str
    antwort: str
    art: Literal["material", "rueckfrage", "schaerfungsfrage", "text", "fehler"]
    frage: str | None = None
    vorschlaege: list[str] = Field(default_factory=list)


class CallRow(BaseModel):
    role: str
    model: str
    input_tokens: int
    output_tokens: int
    tokens_estimated: bool
    cost_usd: float | None
    latency_ms: int
    outcome: str


class CaseOutput(BaseModel):
    """What a case produced; the evaluators read only this (the transaction is gone by then)."""

    verlauf: list[Turn] = Field(default_factory=list)
    rueckfragen: int = 0
    schaerfungsfragen: int = 0
    material_type: str | None = None
    material: dict[str, Any] | None = None
    validation: list[str] = Field(default_factory=list)
    afb_ziel_verwendet: dict[str, int] | None = None
    operatoren: dict[str, str] = Field(default_factory=dict)
    quellen_gefunden: dict[str, bool] = Field(default_factory=dict)
    quellen_stufen: dict[str, int] = Field(default_factory=dict)  # good-practice ref -> its Klassenstufe
    antwort_ohne_material: str | None = None  # the last reply when no material was made
    calls: list[CallRow] = Field(default_factory=list)
    fehler: str | None = None


def _schuljahr(today: date | None = None) -> str:
    today = today or date.today()
    start = today.year if today.month >= 8 else today.year - 1
    return f"{start}/{(start + 1) % 100:02d}"


def ensure_eval_teacher() -> uuid.UUID:
    """The evaluation teacher (created on first use): Sachsen, school „Werkbank-Evaluation“, classes 5a..13a, all
    subjects. Their cases are always rolled back, so the account stays empty."""
    with unit_of_work(Identity.system()) as db:
        found = find_teacher(db=db, ref=EVAL_EMAIL)
        if found is not None:
            return found.id
    try:
        with unit_of_work(Identity.system()) as db:
            teacher = eval_repo.create_school_teacher(
                db=db, school_name=EVAL_SCHOOL, bundesland="Sachsen", teacher_name=EVAL_NAME, email=EVAL_EMAIL,
                faecher=list(FAECHER), classes=[(f"{n}a", n) for n in range(5, 14)], schuljahr=_schuljahr())
            return teacher.id
    except IntegrityError:  # a concurrent run created it first (unique e-mail)
        with unit_of_work(Identity.system()) as db:
            found = find_teacher(db=db, ref=EVAL_EMAIL)
            if found is None:
                raise
            return found.id


@contextlib.contextmanager
def rolled_back(identity: Identity) -> Iterator[Session]:
    """A session acting as `identity` inside a transaction that is always rolled back (commits become savepoints)."""
    conn = get_engine().connect()
    outer = conn.begin()
    db = Session(bind=conn, join_transaction_mode="create_savepoint", info={"identity": identity},
                 expire_on_commit=False)
    try:
        yield db
    finally:
        db.close()
        outer.rollback()
        conn.close()


def _refs(material_type: str, content: dict[str, Any]) -> list[tuple[str, str]]:
    if material_type == "klausur":
        quellen = [q for a in content.get("aufgaben", []) for t in a.get("teilaufgaben", [])
                   for q in t.get("quellen", [])]
    else:
        quellen = list(content.get("quellen", []))
    return [(q.get("art", ""), str(q.get("ref", ""))) for q in quellen]


def _found_refs(db: Session, identity: Identity, refs: list[tuple[str, str]]) -> dict[str, bool]:
    """Which cited refs exist and are visible to the teacher (checked in the DB before the rollback)."""
    ids: dict[str, list[uuid.UUID]] = {"good_practice": [], "curriculum": []}
    out: dict[str, bool] = {}
    for art, ref in refs:
        if art not in ids:
            continue
        try:
            ids[art].append(uuid.UUID(ref))
        except ValueError:
            out[ref] = False
    found = {str(k) for k in knowledge_repo.knowledge_by_ids(db=db, identity=identity, ids=ids["good_practice"])}
    found |= {str(k) for k in knowledge_repo.curriculum_by_ids(db=db, identity=identity, ids=ids["curriculum"])}
    for key in ids["good_practice"] + ids["curriculum"]:
        out[str(key)] = str(key) in found
    return out


def _ref_grades(db: Session, identity: Identity, refs: list[tuple[str, str]]) -> dict[str, int]:
    """The Klassenstufe each cited good practice was written for (to judge the level fit)."""
    ids = []
    for art, ref in refs:
        with contextlib.suppress(ValueError):
            if art == "good_practice":
                ids.append(uuid.UUID(ref))
    rows = knowledge_repo.knowledge_by_ids(db=db, identity=identity, ids=ids)
    return {str(k): int(r.content["klassenstufe"]) for k, r in rows.items()
            if isinstance((r.content or {}).get("klassenstufe"), int)}


def play_case(inputs: CaseInputs, *, teacher_id: uuid.UUID) -> CaseOutput:
    """Play the request (and the answers to Schärfungsfragen/Rückfragen) through the chat, snapshot the result."""
    from core.chat import chat_turn  # the chat pulls in every agent; import it when a case actually runs

    with unit_of_work(Identity.system()) as sysdb:
        teacher_row = sysdb.get(Teacher, teacher_id)
        if teacher_row is None:
            raise NotFoundError("Die Evaluations-Lehrkraft fehlt. Bitte den Lauf neu starten.")
        identity = identity_for(db=sysdb, teacher=teacher_row)
    out = CaseOutput()
    with rolled_back(identity) as db:
        teacher = db.get(Teacher, teacher_id)
        assert teacher is not None
        pending = list(inputs.nachrichten)
        message, conversation_id, material_id = inputs.anfrage, None, None
        for _ in range(MAX_TURNS):
            try:
                r = chat_turn(db=db, identity=identity, teacher=teacher, message=message,
                              conversation_id=conversation_id)
            except UserError as exc:
                out.verlauf.append(Turn(lehrkraft=message, antwort=exc.message, art="fehler"))
                out.fehler = exc.message
                break
            conversation_id = r.conversation_id
            if r.material_id:
                out.verlauf.append(Turn(lehrkraft=message, antwort=r.reply, art="material"))
                material_id = uuid.UUID(r.material_id)
                break
            if r.question:
                vorschlaege = list(r.question.get("vorschlaege") or [])
                out.verlauf.append(Turn(lehrkraft=message, antwort=r.reply, art="rueckfrage",
                                        frage=r.question.get("frage"), vorschlaege=vorschlaege))
                out.rueckfragen += 1
                message = inputs.rueckfrage_antwort or (vorschlaege[0] if vorschlaege else "Wie vorgeschlagen.")
                continue
            asks = "?" in r.reply
            out.verlauf.append(Turn(lehrkraft=message, antwort=r.reply, art="schaerfungsfrage" if asks else "text"))
            if asks and pending:
                out.schaerfungsfragen += 1
                message = pending.pop(0)
                continue
            out.schaerfungsfragen += int(asks)
            break
        if material_id is not None:
            row = material_repo.get_material(db=db, material_id=material_id)
            if row is not None:
                out.material_type, out.material = row.material_type, dict(row.content or {})
                out.validation = [str(v) for v in row.validation or []]
                used = (row.request or {}).get("afb_ziel_verwendet")
                out.afb_ziel_verwendet = {k: int(v) for k, v in used.items()} if isinstance(used, dict) else None
                out.operatoren = {o["operator"]: o["afb"] for o in knowledge_repo.operator_list(db=db, fach=row.fach)}
                out.quellen_gefunden = _found_refs(db, identity, _refs(row.material_type, out.material))
                out.quellen_stufen = _ref_grades(db, identity, _refs(row.material_type, out.material))
        elif out.verlauf:
            out.antwort_ohne_material = out.verlauf[-1].antwort
        if conversation_id is not None:
            out.calls = [CallRow(role=c.role, model=c.model, input_tokens=c.input_tokens, output_tokens=c.output_tokens,
                                 tokens_estimated=c.tokens_estimated, latency_ms=c.latency_ms, outcome=c.outcome,
                                 cost_usd=float(c.cost_usd) if (c.detail or {}).get("cost_known", True) else None)
                         for c in memory_repo.calls_of_conversation(db=db, conversation_id=conversation_id)]
    return out


# --------------------------------------------------------------------------------------------------------------------
# Evaluators (bool -> assertion with a German reason, number -> score; {} = not applicable to this case)
# --------------------------------------------------------------------------------------------------------------------

Ctx = EvaluatorContext[CaseInputs, CaseOutput, Expectation]


def _klausur(ctx: Ctx) -> Klausur | None:
    if ctx.output.material_type != "klausur" or ctx.output.material is None:
        return None
    try:
        return Klausur.model_validate(ctx.output.material)
    except ValidationError:
        return None


def _ok(value: bool, reason: str) -> EvaluationReason:
    return EvaluationReason(value=bool(value), reason=reason[:600])


def _last_reply(out: CaseOutput) -> str:
    return " ".join(out.verlauf[-1].antwort.split())[:200] if out.verlauf else "keine Antwort"


MODELS: dict[str, type[BaseModel]] = {"klausur": Klausur, "differenzierung": DifferenziertesMaterial, "h5p": H5PSet}


@dataclass
class SchemaValid(Evaluator[CaseInputs, CaseOutput, Expectation]):
    """A material of the expected type was made and its stored structure validates."""

    def evaluate(self, ctx: Ctx) -> dict[str, EvaluationReason]:
        out, want = ctx.output, ctx.metadata
        if out.material is None or out.material_type is None:
            why = out.fehler or f"Kein Material erzeugt; letzte Antwort: „{_last_reply(out)}“"
            return {"schema": _ok(False, why)}
        if out.material_type != want.typ:
            return {"schema": _ok(False, f"{TYP_NAMEN.get(out.material_type)} statt {TYP_NAMEN[want.typ]} erzeugt")}
        try:
            MODELS[out.material_type].model_validate(out.material)
        except ValidationError as exc:
            first = exc.errors()[0]
            return {"schema": _ok(False, f"{'.'.join(map(str, first['loc']))}: {first['msg']}")}
        return {"schema": _ok(True, f"{TYP_NAMEN[want.typ]} mit gültiger Struktur")}


@dataclass
class KeyFacts(Evaluator[CaseInputs, CaseOutput, Expectation]):
    """Fach, Klassenstufe and (for exams) Dauer as the teacher asked."""

    def evaluate(self, ctx: Ctx) -> dict[str, EvaluationReason]:
        m, want = ctx.output.material, ctx.metadata
        if m is None:
            return {}
        try:
            fach = normalize_fach(str(m.get("fach", "")))
        except UserError:
            fach = str(m.get("fach"))
        result = {
            "fach": _ok(fach == want.fach, f"Fach {m.get('fach')} (erwartet {fach_name(want.fach)})"),
            "klassenstufe": _ok(m.get("klassenstufe") == want.klassenstufe,
                                f"Klassenstufe {m.get('klassenstufe')} (erwartet {want.klassenstufe})"),
        }
        if want.typ == "klausur" and want.dauer:
            result["dauer"] = _ok(m.get("dauer_minuten") == want.dauer,
                                  f"{m.get('dauer_minuten')} Minuten (erwartet {want.dauer})")
        return result


@dataclass
class AskedBack(Evaluator[CaseInputs, CaseOutput, Expectation]):
    """A specialist's Rückfrage exactly when expected (and the main agent's Schärfungsfrage, where specified)."""

    def evaluate(self, ctx: Ctx) -> dict[str, EvaluationReason]:
        out, want = ctx.output, ctx.metadata
        fragen = [t.frage for t in out.verlauf if t.art == "rueckfrage" and t.frage]
        asked = out.rueckfragen > 0
        if asked:
            why = f"Rückfrage gestellt: „{fragen[0]}“" + ("" if want.rueckfrage else " – nicht erwartet")
        else:
            why = "keine Rückfrage" + (" – erwartet war eine" if want.rueckfrage else " (wie erwartet)")
        result = {"rueckfrage": _ok(asked == want.rueckfrage, why)}
        if want.schaerfungsfrage is not None:
            got = out.schaerfungsfragen > 0
            first = next((t.antwort for t in out.verlauf if t.art == "schaerfungsfrage"), "")
            why = (f"Schärfungsfrage: „{' '.join(first.split())[:160]}“" if got else "keine Schärfungsfrage")
            result["schaerfungsfrage"] = _ok(got == want.schaerfungsfrage,
                                             why + ("" if got == want.schaerfungsfrage else " – anders erwartet"))
        return result


@dataclass
class PointsAddUp(Evaluator[CaseInputs, CaseOutput, Expectation]):
    """Erwartungshorizont criteria add up to each sub-task's points."""

    def evaluate(self, ctx: Ctx) -> dict[str, EvaluationReason | int]:
        k = _klausur(ctx)
        if k is None:
            return {}
        wrong = [f"{a.nummer}{t.kennung}: Kriterien {sum(c.punkte for c in t.erwartung)} ≠ {t.punkte} P."
                 for a in k.aufgaben for t in a.teilaufgaben if sum(c.punkte for c in t.erwartung) != t.punkte]
        n = len(k.teilaufgaben())
        why = "; ".join(wrong) if wrong else f"alle {n} Teilaufgaben stimmen, {k.gesamtpunkte} Punkte gesamt"
        return {"punkte": _ok(not wrong, why), "gesamtpunkte": k.gesamtpunkte}


@dataclass
class AfbShares(Evaluator[CaseInputs, CaseOutput, Expectation]):
    """AFB shares within the tolerance of the case's target (else the target the router used)."""

    def evaluate(self, ctx: Ctx) -> dict[str, EvaluationReason | float]:
        k = _klausur(ctx)
        if k is None:
            return {}
        want = ctx.metadata
        target = want.afb_ziel or ctx.output.afb_ziel_verwendet
        if not target:
            return {"afb": _ok(False, "kein AFB-Ziel bekannt (weder im Fall noch im Material)")}
        shares = k.afb_anteile
        deviation = max(abs(shares[a] - target.get(a, 0)) for a in AFB_STUFEN)
        ist = "/".join(f"{shares[a]:.0f}" for a in AFB_STUFEN)
        ziel = "/".join(str(target.get(a, 0)) for a in AFB_STUFEN)
        why = f"Ist {ist}, Ziel {ziel}, größte Abweichung {deviation:.1f} Prozentpunkte (erlaubt {want.afb_toleranz:g})"
        return {"afb": _ok(deviation <= want.afb_toleranz, why), "afb_abweichung": round(deviation, 1)}


@dataclass
class OperatorsFit(Evaluator[CaseInputs, CaseOutput, Expectation]):
    """Every operator is known for the subject and fits the sub-task's AFB (core.validation's rule)."""

    def evaluate(self, ctx: Ctx) -> dict[str, EvaluationReason]:
        k = _klausur(ctx)
        if k is None:
            return {}
        if not ctx.output.operatoren:
            return {"operatoren": _ok(False, f"keine Operatorenliste für {k.fach} – nicht prüfbar")}
        faults = [f for f in validate_klausur(k, afb_ziel={}, operatoren=ctx.output.operatoren,
                                              punkte_pro_minute=(0.0, float("inf"))) if "Operator" in f]
        used = sorted({t.operator for t in k.teilaufgaben()})
        return {"operatoren": _ok(not faults, "; ".join(faults) if faults else f"passend: {', '.join(used)}")}


@dataclass
class TimeBudget(Evaluator[CaseInputs, CaseOutput, Expectation]):
    """Points fit the time: 0.6 to 1.6 points per minute (the Klausur specialist's standard budget)."""

    low: float = 0.6
    high: float = 1.6

    def evaluate(self, ctx: Ctx) -> dict[str, EvaluationReason | float]:
        k = _klausur(ctx)
        if k is None:
            return {}
        rate = k.gesamtpunkte / k.dauer_minuten
        why = (f"{k.gesamtpunkte} Punkte in {k.dauer_minuten} Minuten = {rate:.2f} P./min "
               f"(passend {self.low}–{self.high})")
        return {"zeit": _ok(self.low <= rate <= self.high, why), "punkte_pro_minute": round(rate, 2)}


_NOT_CONTENT = frozenset({"quellen", "titel", "thema", "fach"})


def _texts(value: Any) -> Iterator[str]:
    """The material's content texts: not its title/topic (they echo the request) nor its cited sources."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in _NOT_CONTENT:
                yield from _texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v)


@dataclass
class TopicsPresent(Evaluator[CaseInputs, CaseOutput, Expectation]):
    """Every required topic occurs in the material's tasks, texts or solutions ('Induktion|induziert' = either)."""

    def evaluate(self, ctx: Ctx) -> dict[str, EvaluationReason]:
        m, want = ctx.output.material, ctx.metadata
        if m is None or not want.themen:
            return {}
        haystack = " ".join(_texts(m)).casefold()
        missing = [t for t in want.themen if not any(alt.strip().casefold() in haystack for alt in t.split("|"))]
        why = (f"es fehlt: {', '.join(missing)}" if missing else f"alle {len(want.themen)} Themen kommen vor")
        return {"themen": _ok(not missing, why)}


@dataclass
class Grounded(Evaluator[CaseInputs, CaseOutput, Expectation]):
    """Every task cites a curriculum chunk or good practice that exists (checked in the DB before the rollback)."""

    def evaluate(self, ctx: Ctx) -> dict[str, EvaluationReason]:
        out = ctx.output
        if out.material is None or out.material_type is None:
            return {}
        if out.material_type == "klausur":
            units = [(f"{a.get('nummer')}{str(t.get('label', '')).strip(') ')}", t.get("quellen", []))
                     for a in out.material.get("aufgaben", []) for t in a.get("teilaufgaben", [])]
        else:
            units = [(TYP_NAMEN[out.material_type], out.material.get("quellen", []))]
        faults = []
        for label, quellen in units:
            grounded = [q for q in quellen if q.get("art") in ("curriculum", "good_practice", "generator")]
            missing = [str(q.get("ref")) for q in grounded if q.get("art") != "generator"
                       and not out.quellen_gefunden.get(str(q.get("ref")), False)]
            missing += [str(q.get("ref")) for q in grounded if q.get("art") == "generator"
                        and str(q.get("ref")).split("#")[0] not in all_generators()]
            if not grounded:
                faults.append(f"{label} zitiert weder Lehrplan noch Good Practice")
            elif missing:
                faults.append(f"{label}: Quelle {', '.join(missing)} gibt es nicht")
        refs = sum(1 for _, qs in units for _ in qs)
        why = "; ".join(faults) if faults else f"{len(units)} Einheiten, {refs} Quellen, alle in der Datenbank"
        return {"grounding": _ok(not faults, why)}


@dataclass
class ThreeLevels(Evaluator[CaseInputs, CaseOutput, Expectation]):
    """A differentiated worksheet has exactly the three Niveaus, each with tasks, help cards and one solution each."""

    def evaluate(self, ctx: Ctx) -> dict[str, EvaluationReason]:
        out = ctx.output
        if out.material_type != "differenzierung" or out.material is None:
            return {}
        niveaus = out.material.get("niveaus", [])
        names = [n.get("name") for n in niveaus]
        faults = [] if sorted(names) == sorted(NIVEAU_NAMEN) else [f"Niveaus {names} statt {list(NIVEAU_NAMEN)}"]
        for n in niveaus:
            if not n.get("aufgaben") or not n.get("hilfekarten"):
                faults.append(f"{n.get('name')}: Aufgaben oder Hilfekarten fehlen")
            if len(n.get("loesungen", [])) != len(n.get("aufgaben", [])):
                faults.append(f"{n.get('name')}: {len(n.get('aufgaben', []))} Aufgaben, "
                              f"{len(n.get('loesungen', []))} Lösungen")
        why = "; ".join(faults) if faults else "grundlegend, mittel, erweitert – vollständig"
        return {"drei_niveaus": _ok(not faults, why)}


@dataclass
class H5PPackage(Evaluator[CaseInputs, CaseOutput, Expectation]):
    """The set exports as a .h5p whose h5p.json and content.json parse and name only declared libraries."""

    def evaluate(self, ctx: Ctx) -> dict[str, EvaluationReason | int]:
        out = ctx.output
        if out.material_type != "h5p" or out.material is None:
            return {}
        try:
            s = H5PSet.model_validate(out.material)
            with zipfile.ZipFile(io.BytesIO(build_package(s))) as z:
                manifest = json.loads(z.read("h5p.json"))
                content = json.loads(z.read("content/content.json"))
        except ExportError as exc:
            return {"h5p_paket": _ok(False, f"Export abgelehnt: {exc}")}
        except (ValidationError, KeyError, ValueError, zipfile.BadZipFile) as exc:
            return {"h5p_paket": _ok(False, f"Paket nicht lesbar: {type(exc).__name__}: {exc}")}
        deps = {d["machineName"]: f"{d['majorVersion']}.{d['minorVersion']}" for d in manifest["preloadedDependencies"]}
        used = {u.split()[0] for u in re.findall(r'"library":\s*"([^"]+)"', json.dumps(content))}
        faults = []
        if manifest.get("mainLibrary") not in deps:
            faults.append(f"mainLibrary {manifest.get('mainLibrary')} nicht in den Abhängigkeiten")
        if used - set(deps):
            faults.append(f"nicht deklariert: {', '.join(sorted(used - set(deps)))}")
        if "questions" in content and len(content["questions"]) != len(s.fragen):
            faults.append(f"{len(content['questions'])} Fragen im Paket, {len(s.fragen)} im Set")
        why = "; ".join(faults) if faults else f"{manifest['mainLibrary']} mit {len(s.fragen)} Fragen, lesbar"
        result: dict[str, EvaluationReason | int] = {"h5p_paket": _ok(not faults, why), "fragen": len(s.fragen)}
        if ctx.metadata.fragen:
            result["fragen_anzahl"] = _ok(len(s.fragen) >= ctx.metadata.fragen,
                                          f"{len(s.fragen)} von {ctx.metadata.fragen} gewünschten Fragen")
        return result


@dataclass
class AppChecks(Evaluator[CaseInputs, CaseOutput, Expectation]):
    """The app's own validation at storage time found nothing (what the teacher would see as faults)."""

    def evaluate(self, ctx: Ctx) -> dict[str, EvaluationReason]:
        if ctx.output.material is None:
            return {}
        faults = ctx.output.validation
        return {"pruefung": _ok(not faults, "; ".join(faults) if faults else "keine Befunde der App-Prüfung")}


@dataclass
class SubjectJudge(LLMJudge):
    """The LLM judge sees the teacher's request and the material only (not the run's bookkeeping)."""

    async def evaluate(self, ctx: EvaluatorContext[object, object, object]) -> Any:
        out = ctx.output
        if not isinstance(out, CaseOutput) or out.material is None:
            return {}
        inputs = ctx.inputs.anfrage if isinstance(ctx.inputs, CaseInputs) else ctx.inputs
        return await super().evaluate(replace(ctx, inputs=inputs, output=out.material))


def judge_model_name(run_model: str) -> str | None:
    """The judge's model: WERKBANK_MODEL_JUDGE/WERKBANK_MODEL when real, else the run's model when real, else None."""
    from core.llm import OFFLINE, model_name_for_role

    for name in (model_name_for_role("judge"), run_model):
        if name and name != OFFLINE:
            return name
    return None


def build_judge(run_model: str) -> SubjectJudge | None:
    """The LLM judge (rubric: fachlich korrekt, altersgerecht, eindeutig) — only with a real model, never offline."""
    from core.llm import LoggedModel, RetryingModel, construct_real_model

    name = judge_model_name(run_model)
    if name is None:
        return None
    model = LoggedModel(RetryingModel(construct_real_model(name)), role="judge")
    return SubjectJudge(rubric=JUDGE_RUBRIC, model=model, include_input=True,
                        assertion=OutputConfig(evaluation_name="urteil", include_reason=True),
                        score=OutputConfig(evaluation_name="urteil_wert", include_reason=False))


def evaluators(run_model: str = "offline") -> list[Evaluator[Any, Any, Any]]:
    found: list[Evaluator[Any, Any, Any]] = [SchemaValid(), KeyFacts(), AskedBack(), PointsAddUp(), AfbShares(),
                                             OperatorsFit(), TimeBudget(), TopicsPresent(), Grounded(), ThreeLevels(),
                                             H5PPackage(), AppChecks(), *content_evaluators()]
    judge = build_judge(run_model)
    return [*found, judge] if judge else found


def build_dataset(suite: Suite, cases: list[CaseSpec], *, run_model: str = "offline"
                  ) -> Dataset[CaseInputs, CaseOutput, Expectation]:
    return Dataset[CaseInputs, CaseOutput, Expectation](
        name=suite.name,
        cases=[Case(name=c.name, metadata=c.erwartet,
                    inputs=CaseInputs(anfrage=c.anfrage, nachrichten=c.nachrichten,
                                      rueckfrage_antwort=c.rueckfrage_antwort or c.erwartet.afb))
               for c in cases],
        evaluators=evaluators(run_model),
    )


# --------------------------------------------------------------------------------------------------------------------
# Stored results
# --------------------------------------------------------------------------------------------------------------------


class Check(BaseModel):
    ok: bool
    grund: str = ""


class CaseResult(BaseModel):
    """One case as stored in eval_runs.cases."""

    name: str
    anfrage: str
    typ: str
    fach: str
    status: Literal["ok", "fehler"] = "ok"
    fehler: str | None = None
    pruefungen: dict[str, Check] = Field(default_factory=dict)
    werte: dict[str, float] = Field(default_factory=dict)
    dauer_s: float = 0.0
    aufrufe: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    tokens_geschaetzt: bool = False
    kosten_usd: float = 0.0
    kosten_unbekannt: bool = False
    verlauf: list[Turn] = Field(default_factory=list)
    ausgabe: dict[str, Any] = Field(default_factory=dict)
    erwartung: dict[str, Any] = Field(default_factory=dict)

    @property
    def erwartung_text(self) -> str:
        """The expectation in one readable line."""
        e = self.erwartung
        parts = [TYP_NAMEN.get(self.typ, self.typ), fach_name(self.fach), f"Klasse {e.get('klassenstufe', '?')}"]
        if e.get("dauer"):
            parts.append(f"{e['dauer']} Min.")
        parts.append("Rückfrage erwartet" if e.get("rueckfrage") else "ohne Rückfrage")
        if "schaerfungsfrage" in e:
            parts.append("Schärfungsfrage erwartet" if e["schaerfungsfrage"] else "ohne Schärfungsfrage")
        if e.get("afb"):
            parts.append(f"AFB {e['afb']}")
        if e.get("themen"):
            parts.append("Themen: " + ", ".join(e["themen"]))
        if e.get("fragen"):
            parts.append(f"mind. {e['fragen']} Fragen")
        return " · ".join(parts)

    @property
    def checks(self) -> dict[str, Check]:
        """The assertions; a case that crashed counts as one failed check named 'lauf'."""
        if self.status == "fehler":
            return {"lauf": Check(ok=False, grund=self.fehler or "Fehler")}
        return self.pruefungen

    @property
    def passed(self) -> int:
        return sum(c.ok for c in self.checks.values())

    @property
    def total(self) -> int:
        return len(self.checks)

    @property
    def failed(self) -> dict[str, Check]:
        return {k: c for k, c in self.checks.items() if not c.ok}


def _material_summary(out: CaseOutput) -> dict[str, Any]:
    m = out.material
    if m is None:
        return {}
    summary: dict[str, Any] = {"titel": m.get("titel"), "typ": out.material_type, "fach": m.get("fach"),
                               "klassenstufe": m.get("klassenstufe"), "thema": m.get("thema"),
                               "befunde": out.validation}
    if out.material_type == "klausur":
        with contextlib.suppress(ValidationError):
            k = Klausur.model_validate(m)
            summary.update(dauer_minuten=k.dauer_minuten, gesamtpunkte=k.gesamtpunkte,
                           afb_anteile={a: round(v, 1) for a, v in k.afb_anteile.items()},
                           afb_ziel=out.afb_ziel_verwendet, aufgaben=[
                               f"{a.nummer}. {a.titel} ({a.punkte} P.): " + "; ".join(
                                   f"{a.nummer}{t.kennung}) {t.operator}, AFB {t.afb}, {t.punkte} P."
                                   for t in a.teilaufgaben) for a in k.aufgaben])
    elif out.material_type == "differenzierung":
        summary.update(lernziel=m.get("lernziel"), niveaus=[
            f"{n.get('name')}: {len(n.get('aufgaben', []))} Aufgaben, {len(n.get('hilfekarten', []))} Hilfekarten"
            for n in m.get("niveaus", [])])
    elif out.material_type == "h5p":
        summary.update(fragen=[f"{f.get('typ')}: {f.get('frage') or f.get('text')}" for f in m.get("fragen", [])])
    return summary


def case_result(spec: CaseSpec, result: ReportCase[Any, Any, Any] | ReportCaseFailure[Any, Any, Any]) -> CaseResult:
    base = CaseResult(name=spec.name, anfrage=spec.anfrage, typ=spec.erwartet.typ, fach=spec.erwartet.fach,
                      erwartung=spec.erwartet.model_dump(mode="json", exclude_defaults=True))
    if isinstance(result, ReportCaseFailure):
        log.warning("evaluation case %s failed: %s\n%s", spec.name, result.error_message, result.error_stacktrace)
        base.status, base.fehler = "fehler", f"Der Fall brach mit einem Fehler ab: {result.error_message}"[:600]
        return base
    out: CaseOutput = result.output
    base.pruefungen = {k: Check(ok=bool(r.value), grund=r.reason or "") for k, r in result.assertions.items()}
    for failure in result.evaluator_failures:
        base.pruefungen[f"fehler:{failure.name}"] = Check(ok=False, grund=failure.error_message[:600])
    base.werte = {k: float(r.value) for k, r in result.scores.items()}
    base.dauer_s = round(result.task_duration, 3)
    base.aufrufe = len(out.calls)
    base.input_tokens = sum(c.input_tokens for c in out.calls)
    base.output_tokens = sum(c.output_tokens for c in out.calls)
    base.tokens_geschaetzt = any(c.tokens_estimated for c in out.calls)
    base.kosten_usd = round(sum(c.cost_usd or 0.0 for c in out.calls), 6)
    base.kosten_unbekannt = any(c.cost_usd is None for c in out.calls)
    base.verlauf, base.ausgabe = out.verlauf, _material_summary(out)
    return base


def summarize(cases: list[CaseResult], *, total: int, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Totals of a run (also of a partial one): pass rate over all checks, per-check rates, cost and tokens."""
    checks = [(name, c.ok) for case in cases for name, c in case.checks.items()]
    passed = sum(ok for _, ok in checks)
    rates: dict[str, list[int]] = {}
    for name, ok in checks:
        rates.setdefault(name, [0, 0])
        rates[name][0] += int(ok)
        rates[name][1] += 1
    scores: dict[str, list[float]] = {}
    for case in cases:
        for name, value in case.werte.items():
            scores.setdefault(name, []).append(value)
    durations = [c.dauer_s for c in cases if c.status == "ok"]
    return {
        **(extra or {}),
        "faelle_gesamt": total, "faelle_fertig": len(cases), "faelle_fehler": sum(c.status == "fehler" for c in cases),
        "pruefungen": len(checks), "bestanden": passed, "quote": round(passed / len(checks), 4) if checks else 0.0,
        "quoten": {k: round(v[0] / v[1], 4) for k, v in sorted(rates.items())},
        "werte": {k: round(sum(v) / len(v), 3) for k, v in sorted(scores.items())},
        "dauer_s_mittel": round(sum(durations) / len(durations), 3) if durations else 0.0,
        "dauer_s_summe": round(sum(c.dauer_s for c in cases), 3),
        "input_tokens": sum(c.input_tokens for c in cases), "output_tokens": sum(c.output_tokens for c in cases),
        "tokens_geschaetzt": any(c.tokens_geschaetzt for c in cases),
        "kosten_usd": round(sum(c.kosten_usd for c in cases), 6),
        "kosten_unbekannt": any(c.kosten_unbekannt for c in cases),
        "aktualisiert": datetime.now(UTC).isoformat(timespec="seconds"),
        **({"inhalt": inhalt} if (inhalt := content_figures(cases)) else {}),
    }


# --------------------------------------------------------------------------------------------------------------------
# The runner
# --------------------------------------------------------------------------------------------------------------------


class EvalInterrupted(UserError):
    """A run stopped midway; its finished cases are stored and the run is marked interrupted (or failed)."""

    def __init__(self, message: str, *, run_id: uuid.UUID, status: str, done: int, keyboard: bool):
        super().__init__(message)
        self.run_id, self.status, self.done, self.keyboard = run_id, status, done, keyboard


@dataclass
class RunReport:
    run_id: uuid.UUID
    suite: str
    agent: str
    prompt_version: int
    model: str
    status: str
    cases: list[CaseResult]
    summary: dict[str, Any]

    @property
    def pass_rate(self) -> float:
        return float(self.summary.get("quote", 0.0))


@dataclass
class _RunState:
    run_id: uuid.UUID
    teacher_id: uuid.UUID
    specs: dict[str, CaseSpec]
    total: int
    extra: dict[str, Any]
    judge_log: CallLog | None = None
    on_progress: Callable[[int, int], None] | None = None
    cases: list[CaseResult] = field(default_factory=list)


def _store_case(state: _RunState, result: CaseResult, calls: list[CallRow]) -> None:
    """Persist the finished case at once (a later interruption keeps it) with its model calls under the run id."""
    state.cases.append(result)
    with unit_of_work(Identity.system()) as db:
        eval_repo.update_run(db=db, run_id=state.run_id, cases=[c.model_dump(mode="json") for c in state.cases],
                             summary=summarize(state.cases, total=state.total, extra=state.extra))
        memory_repo.add_llm_calls(db=db, rows=[
            {"teacher_id": state.teacher_id, "eval_run_id": state.run_id, "request_id": result.name[:64],
             "role": c.role, "model": c.model, "input_tokens": c.input_tokens, "output_tokens": c.output_tokens,
             "tokens_estimated": c.tokens_estimated, "cost_usd": c.cost_usd or 0.0, "latency_ms": c.latency_ms,
             "outcome": c.outcome, "detail": {"case": result.name, "cost_known": c.cost_usd is not None}}
            for c in calls])


def _recorder(state: _RunState) -> Callable[[Case[Any, Any, Any]], CaseLifecycle[Any, Any, Any]]:
    """Per-case hooks: note where the judge's calls of this case begin; store the case when it is evaluated."""

    class Recorder(CaseLifecycle[CaseInputs, CaseOutput, Expectation]):
        judge_start = 0

        async def setup(self) -> None:
            self.judge_start = len(state.judge_log.records) if state.judge_log is not None else 0

        async def teardown(self, result: Any) -> None:
            if result is None:  # the run was cancelled while this case ran: nothing of it is finished
                return
            stored = case_result(state.specs[result.name], result)
            calls = list(result.output.calls) if isinstance(result, ReportCase) else []
            for r in state.judge_log.records[self.judge_start:] if state.judge_log is not None else []:
                calls.append(CallRow(role=r.role, model=r.model, input_tokens=r.input_tokens,
                                     output_tokens=r.output_tokens, tokens_estimated=r.tokens_estimated,
                                     cost_usd=r.cost_usd, latency_ms=r.latency_ms, outcome=r.outcome))
                stored.input_tokens += r.input_tokens
                stored.output_tokens += r.output_tokens
                stored.aufrufe += 1
                stored.kosten_usd = round(stored.kosten_usd + (r.cost_usd or 0.0), 6)
                stored.kosten_unbekannt = stored.kosten_unbekannt or r.cost_usd is None
            _store_case(state, stored, calls)
            if state.on_progress is not None:
                state.on_progress(len(state.cases), state.total)

    return Recorder


def _model_overrides(agent: str, model: str) -> dict[str, Any]:
    """The model under test for the agent's role when it differs from the configured one. A real model runs
    without the offline fallback here: an evaluation must measure that model, not the fallback."""
    from agents.offline import offline_model
    from core.llm import OFFLINE, RetryingModel, check_model_name, construct_real_model, model_name_for_role

    check_model_name(model)
    if model == model_name_for_role(agent):
        return {}
    if model == OFFLINE:
        return {agent: offline_model(agent)}
    return {agent: RetryingModel(construct_real_model(model))}


def _leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def run_suite(*, suite: str | Path | Suite, agent: str = "main", prompt_version: str | int | None = None,
              model: str | None = None, limit: int | None = None, created_by: uuid.UUID | None = None,
              on_progress: Callable[[int, int], None] | None = None, source: str = "cli") -> RunReport:
    """Run a suite for (agent, prompt version, model) and store it in eval_runs; returns the report.

    Cases run one after another as the evaluation teacher, each in a rolled-back transaction; every finished case
    is stored at once. A KeyboardInterrupt or an infrastructure error stops the run: it is marked „interrupted“
    („failed“ if no case had finished), the finished cases stay, and `EvalInterrupted` says so in German.
    """
    from core.llm import OFFLINE, collect_calls

    loaded = suite if isinstance(suite, Suite) else load_suite(suite)
    if agent not in agent_names():
        raise UserError(f"Unbekannter Agent „{agent[:40]}“. Bekannt sind: {', '.join(agent_names())}.")
    if limit is not None and limit < 1:
        raise UserError("--limit muss mindestens 1 sein.")
    cases = loaded.cases_for(agent, limit)
    if not cases:
        raise UserError(f"Die Suite „{loaded.name}“ hat keine Fälle für {agent_label(agent)}.")
    version = resolve_version(agent_name=agent, ref=prompt_version, teacher_id=created_by)
    model_name = (model or default_model(agent)).strip() or OFFLINE
    overrides = _model_overrides(agent, model_name)
    dataset = build_dataset(loaded, cases, run_model=model_name)
    judge = judge_model_name(model_name)
    teacher_id = ensure_eval_teacher()
    extra = {"prompt_version": version.version, "prompt_aktiv": version.is_active, "richter": judge,
             "quelle": source, "suite_datei": loaded.path.name}
    with unit_of_work(Identity.system()) as db:
        run_id = eval_repo.create_run(db=db, suite=loaded.name, agent_name=agent, prompt_version_id=version.id,
                                      model=model_name, created_by=created_by,
                                      summary=summarize([], total=len(cases), extra=extra)).id
    state = _RunState(run_id=run_id, teacher_id=teacher_id, specs={c.name: c for c in cases}, total=len(cases),
                      extra=extra, on_progress=on_progress)
    started = time.perf_counter()
    status, problem = "completed", None
    try:
        with override_prompts(**{agent: version.text}), override_models(**overrides), collect_calls() as judge_log:
            state.judge_log = judge_log
            dataset.evaluate_sync(lambda inputs: play_case(inputs, teacher_id=teacher_id), task_name="play_case",
                                  name=f"{agent}-v{version.version}", max_concurrency=1, progress=False,
                                  lifecycle=_recorder(state))
    except BaseException as exc:  # includes KeyboardInterrupt and a UI's stop/rerun: the run is marked either way
        problem = _leaf(exc)
        status = "interrupted" if state.cases else "failed"
    extra["dauer_s_lauf"] = round(time.perf_counter() - started, 2)
    summary = summarize(state.cases, total=len(cases), extra=extra)
    if problem is not None:
        if isinstance(problem, KeyboardInterrupt):
            reason = "abgebrochen (Strg+C)"
        elif not isinstance(problem, Exception):
            reason = "abgebrochen (Seite neu geladen oder Programm beendet)"
        elif isinstance(problem, UserError):
            reason = problem.message
        else:
            from core.app.observability import report_unexpected

            reason = f"interner Fehler (Fehler-ID {report_unexpected(problem, context=f'eval run {run_id}')})"
        summary["abbruch"] = reason
    with unit_of_work(Identity.system()) as db:
        eval_repo.finish_run(db=db, run_id=run_id, status=status, finished_at=datetime.now(UTC), summary=summary,
                             cases=[c.model_dump(mode="json") for c in state.cases])
    if problem is not None and not isinstance(problem, Exception | KeyboardInterrupt):
        raise problem  # control flow of the caller (e.g. Streamlit stopping the script): marked, then passed on
    if problem is not None:
        raise EvalInterrupted(
            f"Der Lauf wurde nach {len(state.cases)} von {len(cases)} Fällen unterbrochen: {summary['abbruch']}. "
            + (f"Die {len(state.cases)} fertigen Fälle sind gespeichert; der Lauf ist als „unterbrochen“ markiert "
               if state.cases else "Es ist kein Fall fertig geworden; der Lauf ist als „fehlgeschlagen“ markiert ")
            + f"(Lauf {run_id}).", run_id=run_id, status=status, done=len(state.cases),
            keyboard=isinstance(problem, KeyboardInterrupt)) from None
    return RunReport(run_id=run_id, suite=loaded.name, agent=agent, prompt_version=version.version, model=model_name,
                     status=status, cases=state.cases, summary=summary)


def start_run(*, teacher_id: uuid.UUID, suite: str, agent: str, prompt_version: str | int | None, model: str | None,
              limit: int | None = None, on_progress: Callable[[int, int], None] | None = None) -> RunReport:
    """A run started from the Prompt-Labor by a person of the product team (stored with them as its author)."""
    _require_product(teacher_id)
    return run_suite(suite=suite, agent=agent, prompt_version=prompt_version, model=model, limit=limit,
                     created_by=teacher_id, on_progress=on_progress, source="prompt-labor")


# --------------------------------------------------------------------------------------------------------------------
# Reading runs: list, detail, cost from llm_calls, comparison, the CLI table
# --------------------------------------------------------------------------------------------------------------------

STALE_AFTER_S = 15 * 60


def _require_product(teacher_id: uuid.UUID) -> None:
    with acting(teacher_id) as (_, teacher, _):
        if teacher.role != "product":
            raise UserError("Evaluationsläufe sind dem Produktteam vorbehalten. Bitte links eine Person aus dem "
                            "Produktteam wählen.")


def fmt_pct(value: float) -> str:
    return f"{value * 100:.1f} %".replace(".", ",")


def _fmt_num(value: float | int) -> str:
    return f"{value:,}".replace(",", ".")


def _fmt_usd(value: float) -> str:
    return f"{value:.4f}".replace(".", ",")


@dataclass(frozen=True)
class RunInfo:
    id: uuid.UUID
    suite: str
    agent: str
    prompt_version: int | None
    model: str
    status: str
    started_at: datetime
    finished_at: datetime | None
    summary: dict[str, Any]
    cases: list[CaseResult] = field(default_factory=list)

    @property
    def status_label(self) -> str:
        if self.status == "running":
            updated = self.summary.get("aktualisiert")
            with contextlib.suppress(TypeError, ValueError):
                if (datetime.now(UTC) - datetime.fromisoformat(updated)).total_seconds() > STALE_AFTER_S:
                    return "läuft nicht mehr (keine Rückmeldung)"
        return STATUS_NAMEN.get(self.status, self.status)

    @property
    def version_label(self) -> str:
        return f"v{self.prompt_version}" if self.prompt_version is not None else "v?"

    @property
    def short(self) -> str:
        return f"{self.agent} {self.version_label} · {self.model}"

    @property
    def label(self) -> str:
        done = f"{self.summary.get('faelle_fertig', 0)}/{self.summary.get('faelle_gesamt', 0)} Fälle"
        return (f"{local_time(self.started_at)} · {self.suite} · {self.short} · "
                f"{fmt_pct(float(self.summary.get('quote', 0.0)))} · {done} · {self.status_label}")


def _info(row: Any, version: int | None, cases: list[Any] | None = None) -> RunInfo:
    return RunInfo(id=row.id, suite=row.suite, agent=row.agent_name, prompt_version=version, model=row.model,
                   status=row.status, started_at=row.started_at, finished_at=row.finished_at,
                   summary=dict(row.summary or {}), cases=[CaseResult.model_validate(c) for c in cases or []])


def list_runs(*, teacher_id: uuid.UUID, limit: int = 50, suite: str | None = None) -> list[RunInfo]:
    """The latest runs (newest first), as the product person sees them (RLS: product team only)."""
    _require_product(teacher_id)
    with acting(teacher_id) as (db, _, _):
        return [_info(r, r.version) for r in eval_repo.list_runs(db=db, limit=limit, suite=suite)]


def _load_run(db: Session, run_id: uuid.UUID | str) -> RunInfo:
    try:
        key = run_id if isinstance(run_id, uuid.UUID) else uuid.UUID(str(run_id).strip())
    except ValueError:
        raise NotFoundError(f"„{str(run_id)[:40]}“ ist keine gültige Lauf-ID.") from None
    row = eval_repo.get_run(db=db, run_id=key)
    if row is None:
        raise NotFoundError("Diesen Evaluationslauf gibt es nicht (mehr).")
    return _info(row, eval_repo.version_number(db=db, prompt_version_id=row.prompt_version_id), row.cases)


def run_detail(*, teacher_id: uuid.UUID, run_id: uuid.UUID | str) -> RunInfo:
    _require_product(teacher_id)
    with acting(teacher_id) as (db, _, _):
        return _load_run(db, run_id)


def case_table(run: RunInfo) -> list[dict[str, Any]]:
    """One row per case: what passed, what failed (with the first reason), duration, tokens, cost."""
    rows = []
    for c in run.cases:
        failed = c.failed
        rows.append({"Fall": c.name, "Typ": TYP_NAMEN.get(c.typ, c.typ), "Fach": fach_name(c.fach),
                     "Bestanden": f"{c.passed}/{c.total}", "Quote": c.passed / c.total if c.total else 0.0,
                     "Nicht bestanden": "; ".join(f"{k}: {v.grund}" for k, v in failed.items())[:300] or "–",
                     "Dauer (s)": round(c.dauer_s, 2), "Tokens": c.input_tokens + c.output_tokens,
                     "Kosten (USD)": None if c.kosten_unbekannt else round(c.kosten_usd, 6)})
    return rows


def failures(run: RunInfo | RunReport) -> list[tuple[str, str, str]]:
    """Every failing check with its reason: (case, check, reason) — a report never hides a failure."""
    return [(c.name, k, v.grund) for c in run.cases for k, v in c.failed.items()]


@dataclass(frozen=True)
class RunCosts:
    rows: list[dict[str, Any]]  # per case, from llm_calls
    calls: int
    input_tokens: int
    output_tokens: int
    estimated: bool
    cost_usd: float
    cost_unknown: bool


def run_costs(*, teacher_id: uuid.UUID, run_id: uuid.UUID) -> RunCosts:
    """Tokens and cost per case and per run, read from llm_calls (eval_run_id). The rows belong to the evaluation
    teacher, so they are read as the system once the person is known to be on the product team."""
    _require_product(teacher_id)
    with unit_of_work(Identity.system()) as db:
        calls = eval_repo.calls_of_run(db=db, run_id=run_id)
        per_case: dict[str, dict[str, Any]] = {}
        for c in calls:
            row = per_case.setdefault(c.request_id or "?", {"Fall": c.request_id, "Aufrufe": 0, "Tokens ein": 0,
                                                             "Tokens aus": 0, "Zählung": "gemeldet",
                                                             "Kosten (USD)": 0.0, "Modelle": set()})
            row["Aufrufe"] += 1
            row["Tokens ein"] += c.input_tokens
            row["Tokens aus"] += c.output_tokens
            row["Modelle"].add(f"{c.role}: {c.model}")
            if c.tokens_estimated:
                row["Zählung"] = "geschätzt"
            if not (c.detail or {}).get("cost_known", True):
                row["Kosten (USD)"] = None
            elif row["Kosten (USD)"] is not None:
                row["Kosten (USD)"] = round(row["Kosten (USD)"] + float(c.cost_usd or 0), 6)
        rows = [{**r, "Modelle": ", ".join(sorted(r["Modelle"]))} for r in per_case.values()]
        return RunCosts(rows=rows, calls=len(calls), input_tokens=sum(c.input_tokens for c in calls),
                        output_tokens=sum(c.output_tokens for c in calls),
                        estimated=any(c.tokens_estimated for c in calls),
                        cost_usd=round(sum(float(c.cost_usd or 0) for c in calls), 6),
                        cost_unknown=any(not (c.detail or {}).get("cost_known", True) for c in calls))


def case_detail(*, teacher_id: uuid.UUID, run_id: uuid.UUID | str, case_name: str) -> tuple[RunInfo, CaseResult]:
    run = run_detail(teacher_id=teacher_id, run_id=run_id)
    case = next((c for c in run.cases if c.name == case_name), None)
    if case is None:
        raise NotFoundError(f"Den Fall „{case_name[:80]}“ gibt es in diesem Lauf nicht.")
    return run, case


def check_rows(case: CaseResult) -> list[dict[str, str]]:
    return [{"Prüfung": k, "Ergebnis": "✓" if v.ok else "✗", "Begründung": v.grund} for k, v in case.checks.items()]


@dataclass(frozen=True)
class Comparison:
    a: RunInfo
    b: RunInfo
    cases: list[dict[str, Any]]  # per case side by side
    flips: list[dict[str, str]]  # checks whose verdict changed from A to B
    totals: list[dict[str, Any]]  # Kennzahl | A | B | Δ
    chart: list[dict[str, Any]]  # pass rate per check and run (for a grouped bar chart)

    @property
    def verdict(self) -> str:
        qa, qb = float(self.a.summary.get("quote", 0)), float(self.b.summary.get("quote", 0))
        better = sum(1 for f in self.flips if f["B"] == "✓")
        worse = sum(1 for f in self.flips if f["B"] == "✗")
        trend = "besser" if qb > qa else "schlechter" if qb < qa else "gleich"
        return (f"B ist {trend}: {fmt_pct(qa)} → {fmt_pct(qb)} bestanden; {better} Prüfungen neu bestanden, "
                f"{worse} neu nicht bestanden.")


def compare_runs(*, teacher_id: uuid.UUID, run_a: uuid.UUID | str, run_b: uuid.UUID | str) -> Comparison:
    """Two runs side by side: per-case deltas, flipped checks with B's reason, averages, cost and latency."""
    _require_product(teacher_id)
    with acting(teacher_id) as (db, _, _):
        a, b = _load_run(db, run_a), _load_run(db, run_b)
    by_a, by_b = {c.name: c for c in a.cases}, {c.name: c for c in b.cases}
    names = list(by_a) + [n for n in by_b if n not in by_a]
    cases, flips = [], []
    for name in names:
        ca, cb = by_a.get(name), by_b.get(name)
        qa = ca.passed / ca.total if ca and ca.total else None
        qb = cb.passed / cb.total if cb and cb.total else None
        changed = []
        if ca and cb:
            for check in list(ca.checks) + [k for k in cb.checks if k not in ca.checks]:
                va, vb = ca.checks.get(check), cb.checks.get(check)
                if va is not None and vb is not None and va.ok == vb.ok:
                    continue
                sign = lambda v: "–" if v is None else "✓" if v.ok else "✗"  # noqa: E731
                changed.append(f"{check} {sign(va)}→{sign(vb)}")
                flips.append({"Fall": name, "Prüfung": check, "A": sign(va), "B": sign(vb),
                              "Grund in A": va.grund if va else "", "Grund in B": vb.grund if vb else ""})
        cases.append({"Fall": name, "Typ": TYP_NAMEN.get((ca or cb).typ, ""),  # type: ignore[union-attr]
                      "A": f"{ca.passed}/{ca.total}" if ca else "–", "B": f"{cb.passed}/{cb.total}" if cb else "–",
                      "Δ Quote": round(qb - qa, 3) if qa is not None and qb is not None else None,
                      "Umgeschlagen": ", ".join(changed) or "–",
                      "Dauer A (s)": ca.dauer_s if ca else None, "Dauer B (s)": cb.dauer_s if cb else None,
                      "Kosten A (USD)": ca.kosten_usd if ca else None, "Kosten B (USD)": cb.kosten_usd if cb else None})
    sa_, sb = a.summary, b.summary

    def metric(label: str, key: str, fmt: Callable[[Any], str]) -> dict[str, Any]:
        va, vb = sa_.get(key, 0) or 0, sb.get(key, 0) or 0
        delta = vb - va if isinstance(va, int | float) and isinstance(vb, int | float) else None
        return {"Kennzahl": label, "A": fmt(va), "B": fmt(vb),
                "Δ": ("+" if delta and delta > 0 else "") + fmt(delta) if delta is not None else "–"}

    totals = [metric("Bestanden (Quote)", "quote", lambda v: fmt_pct(float(v))),
              metric("Prüfungen bestanden", "bestanden", str), metric("Prüfungen gesamt", "pruefungen", str),
              metric("Fälle fertig", "faelle_fertig", str), metric("Fälle mit Fehler", "faelle_fehler", str),
              metric("Dauer je Fall (s, Mittel)", "dauer_s_mittel", lambda v: f"{float(v):.2f}".replace(".", ",")),
              metric("Tokens ein", "input_tokens", _fmt_num), metric("Tokens aus", "output_tokens", _fmt_num),
              metric("Kosten (USD)", "kosten_usd", lambda v: _fmt_usd(float(v)))]
    for key in sorted(set(sa_.get("werte", {})) | set(sb.get("werte", {}))):
        va, vb = sa_.get("werte", {}).get(key), sb.get("werte", {}).get(key)
        totals.append({"Kennzahl": f"Ø {key}", "A": "–" if va is None else f"{va:g}".replace(".", ","),
                       "B": "–" if vb is None else f"{vb:g}".replace(".", ","),
                       "Δ": "–" if va is None or vb is None else f"{vb - va:+.3g}".replace(".", ",")})
    chart = []
    for run, tag in ((a, "A"), (b, "B")):
        for check, rate in (run.summary.get("quoten") or {}).items():
            when = run.started_at.astimezone(SCHOOL_TZ).strftime("%d.%m. %H:%M")
            chart.append({"Prüfung": check, "Lauf": f"{tag}: {run.short} ({when})", "Quote": float(rate)})
    return Comparison(a=a, b=b, cases=cases, flips=flips, totals=totals, chart=chart)


def format_report(report: RunReport | RunInfo, *, min_pass: float | None = None) -> str:
    """The CLI's compact table: one line per case, the totals, and every failing check with its reason."""
    s = report.summary
    agent = report.agent
    version = report.prompt_version
    took = f"{float(s.get('dauer_s_lauf', 0)):.1f} s".replace(".", ",")
    lines = [f"Suite „{report.suite}“ · {agent_label(agent)} · Prompt v{version} · Modell {report.model} · "
             f"{s.get('faelle_fertig', 0)}/{s.get('faelle_gesamt', 0)} Fälle · {took}"]
    header = f"{'Fall':<44} {'Typ':<15} {'Fach':<11} {'Prüf.':>6} {'Dauer':>7} {'Tokens':>8} {'Kosten USD':>11}"
    lines += [header, "-" * len(header)]
    for c in report.cases:
        cost = "?" if c.kosten_unbekannt else _fmt_usd(c.kosten_usd)
        lines.append(f"{c.name[:44]:<44} {TYP_NAMEN.get(c.typ, c.typ):<15} {fach_name(c.fach)[:11]:<11} "
                     f"{f'{c.passed}/{c.total}':>6} {f'{c.dauer_s:.2f} s'.replace('.', ','):>7} "
                     f"{_fmt_num(c.input_tokens + c.output_tokens):>8} {cost:>11}")
    lines.append("-" * len(header))
    quote = float(s.get("quote", 0.0))
    verdict = ""
    if min_pass is not None:
        verdict = (" · Mindestquote " + fmt_pct(min_pass) + (" erreicht" if quote >= min_pass else " NICHT erreicht"))
    lines.append(f"Bestanden: {s.get('bestanden', 0)}/{s.get('pruefungen', 0)} Prüfungen ({fmt_pct(quote)}){verdict}")
    rates = s.get("quoten") or {}
    if rates:
        lines.append("Je Prüfung: " + " · ".join(f"{k} {fmt_pct(float(v))}" for k, v in sorted(rates.items())))
    if s.get("inhalt"):
        lines += content_lines(s["inhalt"])
    failed = failures(report)
    if failed:
        lines.append(f"Nicht bestanden ({len(failed)}):")
        lines += [f"  ✗ {case} · {check}: {reason}" for case, check, reason in failed]
    estimated = " (geschätzt)" if s.get("tokens_geschaetzt") else ""
    unknown = " + unbekannt" if s.get("kosten_unbekannt") else ""
    lines.append(f"Tokens: {_fmt_num(s.get('input_tokens', 0))} ein / {_fmt_num(s.get('output_tokens', 0))} aus"
                 f"{estimated} · Kosten: {_fmt_usd(float(s.get('kosten_usd', 0)))} USD{unknown} (aus llm_calls)")
    if s.get("richter"):
        lines.append(f"LLM-Richter: {s['richter']}")
    if s.get("abbruch"):
        lines.append(f"Abbruch: {s['abbruch']}")
    run_id = report.run_id if isinstance(report, RunReport) else report.id
    lines.append(f"Lauf {run_id} gespeichert (eval_runs).")
    return "\n".join(lines)


def report_json(report: RunReport) -> dict[str, Any]:
    return {"run_id": str(report.run_id), "suite": report.suite, "agent": report.agent,
            "prompt_version": report.prompt_version, "model": report.model, "status": report.status,
            "summary": report.summary, "cases": [c.model_dump(mode="json") for c in report.cases]}


def stored_run(run_id: uuid.UUID) -> RunInfo:
    """A run as stored, read as the system (the CLI has no acting person)."""
    with unit_of_work(Identity.system()) as db:
        return _load_run(db, run_id)


def default_model(agent: str) -> str:
    """The model an agent runs with today (what a run evaluates unless another model is named)."""
    from core.llm import model_name_for_role

    return model_name_for_role(agent) if agent in ("main", *TYP_NAMEN) else model_name_for_role("main")
