"""The composed exam draft as the Klausur specialist reads it: compact text instead of JSON (decision 015).

Everything a model needs to judge and refer to the draft ('2b' = Aufgabe 2, Teilaufgabe b): tasks, materials,
operators, AFB, points and the Erwartungshorizont. Sources are left out: kept sub-tasks keep them on the server.
"""

from __future__ import annotations

from core.materials.blocks import MaterialBlock
from core.materials.klausur import Klausur


def _block(m: MaterialBlock) -> list[str]:
    lines = [f"{m.titel} ({m.art})"]
    if m.tabelle is not None:
        lines += [" | ".join(m.tabelle.spalten), *(" | ".join(z) for z in m.tabelle.zeilen)]
    if m.text:
        lines.append(m.text)
    return lines


def draft_text(k: Klausur) -> str:
    """'Aufgabe 1: …', its material, then one line per sub-task ('1a Berechnen, AFB I, 4 P.: …') and its criteria."""
    lines = [f"{k.titel} · {k.dauer_minuten} Min. · {k.niveau} · Hilfsmittel: {', '.join(k.hilfsmittel) or 'keine'}",
             *(f"Hinweis: {h}" for h in k.hinweise)]
    for a in k.aufgaben:
        lines.append(f"Aufgabe {a.nummer}: {a.titel}")
        if a.material:
            lines.append(f"Material: {a.material}")
        for m in a.materialien:
            lines += _block(m)
        for t in a.teilaufgaben:
            lines.append(f"{a.nummer}{t.kennung} {t.operator}, AFB {t.afb}, {t.punkte} P.: {t.text}")
            lines += [f"- {c.text} ({c.punkte})" for c in t.erwartung]
    return "\n".join(lines)
