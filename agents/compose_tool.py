"""The specialists' compose_draft tool: a material composed from checked tasks (bank, own, generators), or an
honest account of what is missing. A real model refines the draft; the offline model hands it on as it is."""

from __future__ import annotations

import json

from pydantic_ai import RunContext
from pydantic_ai.toolsets import FunctionToolset

from agents.deps import SpecialistDeps
from agents.draft_text import draft_text
from core.composition.report import Befund
from core.composition.service import compose_exam, compose_quiz, compose_worksheet
from core.composition.wishes import avoid_list
from core.materials.klausur import Klausur
from core.safety.service import quoted_data

COMPOSE_TOOLS: FunctionToolset[SpecialistDeps] = FunctionToolset()
_COMPUTED = {"gesamtpunkte", "afb_punkte", "afb_anteile", "notenschluessel", "notenschema"}


def _absage(befund: Befund) -> str:
    grund = befund.grund  # the composer's own reason (too little on topic, decision 043)
    return quoted_data(json.dumps({"kein_material": True, "gefunden": befund.gefunden,
                       "grund": grund or (f"Zum Schwerpunkt „{befund.schwerpunkt_name}“ gibt es in der Wissensbasis "
                                 "keine geprüften Aufgaben in passender Klassenstufe." if befund.ausserhalb else
                                 f"Zu „{befund.thema}“ gibt es in der Wissensbasis keine geprüften Aufgaben in "
                                 "passender Klassenstufe."),
                       "hinweise": befund.hinweise(), "optionen": befund.optionen()}, ensure_ascii=False))


@COMPOSE_TOOLS.tool
async def compose_draft(ctx: RunContext[SpecialistDeps]) -> str:
    """Entwurf aus geprüften Aufgaben zusammenstellen: Aufgabenbank, eigene bewährte Aufgaben der Lehrkraft und
    Rechenaufgaben mit neu gewählten Werten und exakt berechnetem Erwartungshorizont — passend zu Thema,
    Unterthemen, Klassenstufe, Dauer und AFB-Ziel des Auftrags. Es wird nie aufgefüllt: Fehlt etwas, sagt der
    Entwurf in 'hinweise' genau, was, und nennt 'optionen'. Übernimm den Entwurf, ergänze fehlende Teile mit
    eigenen konkreten Aufgaben oder verbessere ihn.
    """
    return compose_for(ctx.deps)


def compose_for(d: SpecialistDeps) -> str:
    """The compose_draft result for `d` (also sent with the first request, decision 015). An exam draft is kept in
    the deps — the Klausur specialist's plan refers to it — and shown to the model as compact text."""
    themenfelder = d.profile.get("themenfelder") or {}
    d.turn.step(f"{d.agent_type}: Entwurf aus geprüften Aufgaben zusammenstellen")
    request = d.request
    wanted = d.preferences.get("aufgaben_anzahl")
    if d.agent_type == "klausur" and request.anzahl is None and isinstance(wanted, int) and wanted > 0:
        request = request.model_copy(update={"anzahl": wanted})  # the teacher's standing wish for the number
    common = dict(db=d.turn.db, identity=d.turn.identity, fach=d.fach, themenfelder=themenfelder,
                  request=request, avoid=avoid_list(d.preferences), bundesland=d.turn.teacher.bundesland)
    if d.agent_type == "klausur":
        comp = compose_exam(**common, teacher_id=d.turn.teacher.id, afb_ziel=d.afb_ziel,
                            operators=list(d.operators), afb_fest=d.afb_quelle != "profile")
        material = comp.material
    elif d.agent_type == "h5p":
        comp = compose_quiz(**common)
        material = comp.material
    else:
        comp = compose_worksheet(**common)
        material = comp.material
    if material is None:
        return _absage(comp.befund)
    d.turn.step(f"{d.agent_type}: Entwurf aus {comp.befund.gefunden} geprüften Kandidaten")
    d.optionen, d.knapp = comp.befund.optionen(), comp.befund.knapp()  # offered in the reply (store_generated)
    # Compact (decision 015): no nulls, no spaces after separators — the draft is the largest part of the request.
    entwurf: object = material.model_dump(mode="json", exclude=_COMPUTED, exclude_none=True)
    if isinstance(material, Klausur):
        d.entwurf = {"klausur": entwurf, "hinweise": comp.befund.hinweise()}
        entwurf = draft_text(material)
    # Bank and teacher texts: one quoted data block, like every tool result with others' texts.
    return quoted_data(json.dumps({"entwurf": entwurf, "hinweise": comp.befund.hinweise(),
                                   "optionen": comp.befund.optionen()}, ensure_ascii=False, separators=(",", ":")))
