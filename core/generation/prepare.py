"""Preparing a specialist run: the Wissenskarte, the teacher's preferences, the subject's operators, the AFB target.

`prepare_deps` is the one place a specialist's dependencies are built — for new requests, resumed Rückfragen
and reworked materials alike.
"""

from __future__ import annotations

from typing import Any

from agents.deps import SpecialistDeps, TurnContext
from core.knowledge.wissenskarte import build_wissenskarte
from core.materials.faecher import normalize_fach
from core.materials.request import MaterialRequest
from db.repos import knowledge as knowledge_repo


def afb_target(request: MaterialRequest, prefs: dict[str, Any], profile: dict[str, Any]
               ) -> tuple[dict[str, int], str]:
    """The AFB split to aim for and where it comes from: the request, a stored preference, else the profile."""
    if request.afb_ziel:
        return dict(request.afb_ziel), "request"
    pref = prefs.get("afb_ziel")
    if isinstance(pref, dict) and sum(int(v) for v in pref.values()) == 100:
        return {k: int(pref.get(k, 0)) for k in ("I", "II", "III")}, "preference"
    dist = profile.get("typische_verteilung") or {"I": 30, "II": 40, "III": 30}
    return {k: int(dist.get(k, 0)) for k in ("I", "II", "III")}, "profile"


def subject_operators(turn: TurnContext, fach: str) -> dict[str, str]:
    """The subject's operator list: operator -> its usual AFB."""
    return {o["operator"]: o["afb"] for o in knowledge_repo.operator_list(db=turn.db, fach=fach)}


def prepare_deps(turn: TurnContext, request: MaterialRequest, *, snapshot: dict[str, Any] | None = None
                 ) -> SpecialistDeps:
    """What the specialist for `request` knows; `snapshot` restores a paused run's Rückfrage count and answer."""
    fach = normalize_fach(request.fach)
    agent_type = request.material_type
    wk = build_wissenskarte(db=turn.db, identity=turn.identity, agent_type=agent_type, fach=fach)
    prefs = dict(wk.facts.get("preferences") or {})
    prefs.pop("quellen", None)
    profile = dict(wk.facts.get("profile") or {})
    afb_ziel, quelle = afb_target(request, prefs, profile)
    deps = SpecialistDeps(turn=turn, agent_type=agent_type, fach=fach, request=request, wissenskarte=wk.text,
                          preferences=prefs, profile=profile, operators=subject_operators(turn, fach),
                          afb_ziel=afb_ziel, afb_quelle=quelle)
    if snapshot:
        deps.rueckfragen = int(snapshot.get("rueckfragen", 0))
        deps.entwurf = snapshot.get("entwurf")  # the draft a paused run's plan refers to (absent in older sessions)
        if snapshot.get("afb_quelle") == "answer":
            deps.afb_ziel, deps.afb_quelle = dict(snapshot["afb_ziel"]), "answer"
    return deps
