"""The Wissenskarte: a ~100–200-token map of what a specialist knows for this teacher and subject.

Built from one SQL aggregate (`wissenskarte_facts`) and rendered as the exact text block the specialist sees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from core.app.errors import UserError
from core.language.tokens import estimate_tokens
from core.materials.faecher import fach_name, normalize_fach
from core.materials.wording import anzahl
from core.safety.service import quoted
from db.repos import wissenskarte as wissenskarte_repo
from db.session import Identity

AGENT_TYPES = {"klausur": "Klausur", "differenzierung": "Differenzierung", "h5p": "H5P"}

# Preference keys in the order and wording the specialist reads them.
PREFERENCE_LABELS: dict[str, str] = {
    "aufgaben_anzahl": "Aufgaben",
    "teilaufgaben": "Teilaufgaben",
    "bonusaufgabe": "Bonusaufgabe",
    "rechnung_theorie_ratio": "Rechnung:Theorie",
    "afb_ziel": "AFB-Ziel",
    "punkte_pro_minute": "Punkte/Min.",
    "notenschluessel": "Notenschlüssel",
    "stil": "Stil",
    "dinge_vermeiden": "Vermeiden",
}


@dataclass(frozen=True)
class Wissenskarte:
    agent_type: str
    fach: str
    text: str
    tokens: int
    facts: dict[str, Any]


def _first_sentence(text: str, limit: int = 110, *, clause: bool = False) -> str:
    """The first sentence (with `clause`, up to a colon), cut at a word boundary when still too long."""
    ends = r"(?<=[.!?:;])\s" if clause else r"(?<=[.!?])\s"
    sentence = re.split(ends, text.strip(), maxsplit=1)[0].rstrip(":;")
    if len(sentence) <= limit:
        return sentence
    return sentence[: limit - 1].rsplit(" ", 1)[0].rstrip(",;") + " …"


def format_value(value: Any) -> str:
    """A preference value in the Wissenskarte's words: ja/nein, '1,5', '30/40/30', 'a, b'."""
    if isinstance(value, bool):
        return "ja" if value else "nein"
    if isinstance(value, float):
        return f"{value:.1f}".replace(".", ",")
    if isinstance(value, dict):
        return "/".join(str(v) for v in value.values())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def format_preferences(prefs: dict[str, Any] | None, *, limit: int = 6) -> str:
    """At most `limit` preferences in the card's words; what does not fit is counted, never silently dropped — the
    specialist loads it with get_context('preferences')."""
    if not prefs:
        return ""
    items = []
    for key, label in PREFERENCE_LABELS.items():
        if key in prefs and prefs[key] not in (None, "", []):
            value = format_value(prefs[key])
            if key in ("stil", "dinge_vermeiden") and len(value) > 36:
                value = value[:36].rsplit(" ", 1)[0].rstrip(",;") + " …"
            items.append(f"{label} {value}" if key not in ("stil", "dinge_vermeiden") else f"{label}: {value}")
    items += [str(x) for x in prefs.get("frei") or [] if str(x).strip()]
    shown = "; ".join(items[:limit])
    if len(items) > limit:
        more = len(items) - limit
        shown += f" (+{anzahl(more, 'weitere Präferenz')} → get_context('preferences'))"
    return shown


def render(agent_type: str, fach: str, facts: dict[str, Any]) -> str:
    counts: dict[tuple[str, str], int] = {(c["type"], c["scope"]): c["n"] for c in facts["counts"]}
    lines = [f"### Wissenskarte {fach_name(fach)} · {AGENT_TYPES.get(agent_type, agent_type)}"]
    profile = facts.get("profile") or {}
    if profile:
        lines.append(f"Fach-Profil: {_first_sentence(profile.get('beschreibung', ''), 80, clause=True)}")
        formats = profile.get("aufgabenformate") or []
        if formats:
            lines.append(f"Formate: {', '.join(formats[:3])}")
        dist = profile.get("typische_verteilung") or {}
        if dist:
            lines.append("AFB üblich: " + " · ".join(f"{k} {v} %" for k, v in dist.items()))
    else:
        lines.append("Fach-Profil: keines hinterlegt")

    own_examples = counts.get(("example", "teacher"), 0)
    lines.append(
        f"Eigene Beispiele: {own_examples} → get_example()" if own_examples else "Eigene Beispiele: keine"
    )
    personal = counts.get(("good_practice", "teacher"), 0)
    shared = counts.get(("good_practice", "class"), 0) + counts.get(("good_practice", "school"), 0)
    general = counts.get(("good_practice", "global"), 0)
    parts = [f"{personal} persönlich"]
    if shared:
        parts.append(f"{shared} aus Klasse/Schule")
    parts.append(f"{general} allgemein")
    lines.append(f"Bewährte Aufgaben: {', '.join(parts)} → get_good_practices()")
    notes = facts.get("notes") or []
    if notes:
        lines.append("Klasse/Schule (zitiert): " + " | ".join(quoted(_first_sentence(n["text"], 64))
                                                              for n in notes[:2]))
    prefs = format_preferences(facts.get("preferences"))
    lines.append(f"Präferenzen: {prefs}" if prefs else "Präferenzen: noch keine — ggf. nachfragen")
    return "\n".join(lines)


def build_wissenskarte(*, db: Session, identity: Identity, agent_type: str, fach: str) -> Wissenskarte:
    """The exact text block a specialist sees, for the acting teacher (visibility applies)."""
    if agent_type not in AGENT_TYPES:
        raise UserError(f"Unbekannter Agent „{agent_type[:30]}“. Möglich: {', '.join(AGENT_TYPES)}.")
    key = normalize_fach(fach)
    facts = wissenskarte_repo.wissenskarte_facts(db=db, identity=identity, agent_type=agent_type, fach=key)
    text = render(agent_type, key, facts)
    return Wissenskarte(agent_type=agent_type, fach=key, text=text, tokens=estimate_tokens(text), facts=facts)
