"""The Klausur specialist: builds a checked exam (or asks one Rückfrage) from the teacher's knowledge.

Validation is code: points, AFB shares, operators, time budget, wishes and sources are checked in the output
validator, and every fault goes back to the model as a ModelRetry naming it.
"""

from __future__ import annotations

from pydantic_ai import Agent, ModelRetry, RunContext

from agents.deps import SpecialistDeps
from agents.specialist import specialist_agent
from agents.specialist_checks import check_sources, gate_faults
from core.checks.structure import validate_klausur
from core.checks.verification import Flag, calculations_checked, verification_retry_message, verify_klausur
from core.materials.klausur import Klausur
from core.materials.replies import Absage, ClarificationRequest
from core.materials.wording import anzahl

VERIFY_RETRIES = 2  # after that, remaining verification flags are shown to the teacher instead of failing

klausur_agent: Agent[SpecialistDeps, Klausur | ClarificationRequest | Absage] = specialist_agent("klausur", Klausur)


def klausur_faults(deps: SpecialistDeps, k: Klausur) -> list[str]:
    ppm = float(deps.preferences.get("punkte_pro_minute") or 1.0)
    # Honest working times: a Sek-I exam has about 0.5-1.5 points a minute, an Oberstufe Klausur fewer (Abitur: ~0.4).
    low = 0.25 if k.niveau != "Sek I" else 0.35
    faults = validate_klausur(
        k, afb_ziel=deps.afb_ziel, toleranz=10.0,
        operatoren=deps.operators, punkte_pro_minute=(min(low, ppm * low), max(1.6, ppm * 1.6)),
        afb_wuensche=deps.request.afb_wuensche, erklaert=k.hinweise_lehrkraft,
    )
    return faults + check_sources(deps, [q for t in k.teilaufgaben() for q in t.quellen]) + gate_faults(deps, k)


def klausur_flags(deps: SpecialistDeps, k: Klausur) -> list[Flag]:
    """Grounding and arithmetic: sub-tasks without a source, calculations in the Erwartungshorizont that are off.
    (Invented refs are already faults via check_sources, so refs are not checked a second time here.)"""
    return verify_klausur(k)


@klausur_agent.output_validator
async def _verify(ctx: RunContext[SpecialistDeps], output: Klausur | ClarificationRequest | Absage
                  ) -> Klausur | ClarificationRequest | Absage:
    if isinstance(output, Absage):
        return output
    if isinstance(output, ClarificationRequest):
        if ctx.deps.final:
            raise ModelRetry("Keine Rückfragen mehr möglich: Erstelle die Klausur jetzt mit den bekannten Angaben.")
        return output
    faults = klausur_faults(ctx.deps, output)
    if faults:
        ctx.deps.turn.step(f"klausur: Prüfung fand {len(faults)} Fehler → Überarbeitung")
        raise ModelRetry("Die Prüfung der Klausur hat Fehler gefunden. Behebe genau diese:\n- " + "\n- ".join(faults))
    flags = klausur_flags(ctx.deps, output)
    if flags and ctx.retry < VERIFY_RETRIES:
        found = anzahl(len(flags), "Auffälligkeit")
        ctx.deps.turn.step(f"klausur: Verifikation fand {found} (Quellen/Rechnungen) → Reparatur")
        raise ModelRetry(verification_retry_message(flags))
    if flags:  # kept, and shown to the teacher as open hints (router stores them with the material)
        one = len(flags) == 1
        ctx.deps.turn.step(f"klausur: {anzahl(len(flags), 'Hinweis')} {'bleibt' if one else 'bleiben'} offen und "
                           f"{'wird' if one else 'werden'} angezeigt")
    ctx.deps.turn.step(f"klausur: Prüfung bestanden (Punkte, AFB, Operatoren, Zeit, Quellen; "
                       f"{calculations_checked(output)} Rechenschritte nachgerechnet)")
    return output
