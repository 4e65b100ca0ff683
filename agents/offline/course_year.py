"""A course named without a year („Deutsch LK“) is taken for the first year of the Q-phase (decision 068): the reply
says so, and the teacher's answer naming another year („Jahrgangsstufe 12“, „Q2“, „12“) makes the material again
for that year — the reply promised exactly that."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agents.offline.dialog import Terms, understand
from agents.offline.messages import Turn
from core.language.fold import prepare
from core.language.klasse import G9, KLASSENSTUFE_MAX, Oberstufe, bare_klasse
from core.language.request.extract import extract
from core.language.text import fold


def assumed(args: Mapping[str, Any], turns: Sequence[Turn], terms: Terms, oberstufe: Oberstufe = G9) -> bool:
    """The generate_material call took the first Q year because the teacher named a course but no year."""
    return (
        bool(args.get("niveau"))
        and args.get("klassenstufe") == oberstufe.course_year()
        and not understand(turns, terms, oberstufe).klassenstufe
    )


def note(args: Mapping[str, Any], turns: Sequence[Turn], terms: Terms, oberstufe: Oberstufe = G9) -> str:
    """What the reply says when the first Q year was taken."""
    if not assumed(args, turns, terms, oberstufe):
        return ""
    return (
        f"Da kein Jahrgang genannt war, habe ich Jahrgangsstufe {args['klassenstufe']} angenommen (das erste Jahr "
        f"der Qualifikationsphase). Für Jahrgangsstufe {max(oberstufe.q.values())} sagen Sie einfach Bescheid."
    )


def other_year(text: str, args: Mapping[str, Any], terms: Terms, oberstufe: Oberstufe = G9) -> dict[str, Any] | None:
    """The last call's arguments with the Oberstufe year the teacher names now, when her message names only that."""
    e = extract(text, topic_terms=terms, oberstufe=oberstufe)
    stufe = e.klassenstufe
    if stufe is None and (bare := bare_klasse(fold(prepare(text)))) is not None:
        stufe = bare[0]
    if stufe is None or not 11 <= stufe <= KLASSENSTUFE_MAX or stufe == args.get("klassenstufe"):
        return None
    if e.thema or e.fach or e.material_type or e.dauer_minuten or e.problems:
        return None  # a new request, not the year of this one
    return {**args, "klassenstufe": stufe, "zusatz": f"{args.get('zusatz') or ''} {text.strip()}".strip()[:500]}
