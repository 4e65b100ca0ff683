"""What a finished material is, in numbers: the summary the main agent presents and the CLI prints.

`MATERIAL_FERTIG [material:<id>]` opens it; the lines below name title, shares, tasks, levels or questions, files.
"""

from __future__ import annotations

import uuid

from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from core.materials.wording import anzahl, for_teacher

HINWEIS = "Hinweis für Sie: "  # a teacher note (what is missing, a shortfall, a changed duration) in the reply


def short(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + " …"


def _pct(v: float) -> str:
    return f"{v:.0f}"


def material_summary(material: Klausur | DifferenziertesMaterial | H5PSet, *, material_id: uuid.UUID,
                     afb_ziel: dict[str, int] | None, files: list[str]) -> str:
    """The tool return the main agent presents (and the CLI prints): what was made, in numbers."""
    lines = [f"MATERIAL_FERTIG [material:{material_id}]"]
    if isinstance(material, Klausur):
        wer = f"Klasse {material.klasse}" if material.klasse else f"Klassenstufe {material.klassenstufe}"
        lines.append(f"{material.titel} — {material.fach}, {wer}, {material.dauer_minuten} Min., "
                     f"{material.gesamtpunkte} Punkte")
        shares = material.afb_anteile
        ziel = "/".join(str(afb_ziel.get(k, 0)) for k in ("I", "II", "III")) if afb_ziel else ""
        lines.append("AFB-Anteile: " + " · ".join(f"{k} {_pct(shares.get(k, 0))} %" for k in ("I", "II", "III"))
                     + (f" (Ziel {ziel})" if ziel else ""))
        lines.append("Aufgaben: " + "; ".join(f"{a.nummer}. {a.titel} ({a.punkte} P.)" for a in material.aufgaben))
        lines.append(f"Notenschlüssel: berechnet ({material.notenschema.bezeichnung})")
    elif isinstance(material, DifferenziertesMaterial):
        lines.append(f"{material.titel} — {material.fach}, Klassenstufe {material.klassenstufe}")
        lines.append(f"Lernziel: {material.lernziel}")
        lines.append("Niveaus: " + "; ".join(f"{n.name} ({anzahl(len(n.aufgaben), 'Aufgabe')}, "
                                             f"{anzahl(len(n.hilfekarten), 'Hilfekarte')})" for n in material.niveaus))
    else:
        kinds: dict[str, int] = {}
        for f in material.fragen:
            kinds[f.typ] = kinds.get(f.typ, 0) + 1
        lines.append(f"{material.titel} — {material.fach}, Klassenstufe {material.klassenstufe}, "
                     f"{anzahl(len(material.fragen), 'Frage')} ({', '.join(f'{n}× {k}' for k, n in kinds.items())})")
    lines += [f"{HINWEIS}{short(h)}" for h in material.hinweise_lehrkraft if h.strip()]
    lines.append("Dateien: " + ", ".join(files))
    return "\n".join(lines)


def version_summary(material: Klausur | DifferenziertesMaterial | H5PSet, *, material_id: uuid.UUID, version: int,
                    afb_ziel: dict[str, int] | None, files: list[str], changes: list[str], faults: list[str],
                    parent_version: int) -> str:
    """The summary of a new version: which version of what, what changed, what the check says, the old one stays."""
    lines = material_summary(material, material_id=material_id, afb_ziel=afb_ziel, files=files).split("\n")
    lines[1] = f"Version {version} von „{material.titel}“ — " + lines[1].split(" — ", 1)[-1]
    extra = [f"Geändert: {c}" for c in changes]
    if isinstance(material, Klausur):
        lines = [line.replace("Notenschlüssel: berechnet", "Notenschlüssel: neu berechnet") for line in lines]
    tail = [f"Prüfhinweis: {for_teacher(f)}" for f in faults]
    tail.append(f"Version {parent_version} bleibt unverändert unter „Meine Materialien“ abrufbar.")
    return "\n".join([*lines[:2], *extra, *lines[2:-1], *tail, lines[-1]])
