"""The structural evaluators (pydantic-evals): schema, key facts, Rückfragen, points, AFB shares,
operators, time budget, topics, grounding, three Niveaus, the H5P package, the app's own checks."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_evals.evaluators import EvaluationReason, Evaluator, EvaluatorContext

from core.app.errors import UserError
from core.checks.structure import validate_klausur
from core.composition.generators.registry import all_generators
from core.evaluation.player import CaseInputs, CaseOutput
from core.evaluation.suites import TYP_NAMEN, Expectation
from core.exports.h5p import build_package
from core.exports.xml_text import ExportError
from core.materials.blocks import AFB_STUFEN
from core.materials.differenzierung import NIVEAU_NAMEN, DifferenziertesMaterial
from core.materials.faecher import fach_name, normalize_fach
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur

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


_NOT_CONTENT = frozenset({"quellen", "quelle", "titel", "thema", "fach"})  # quelle: a question's bank ref


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
