"""Reworking single tasks from the knowledge base: 'Aufgabe 3 leichter/schwerer' swaps sub-tasks for good practices
one AFB lower/higher on the same topic; 'mehr/weniger Rechenaufgaben' swaps up to two for (non-)calculations.

Replacements keep the points (criteria scaled) and the rest of the exam untouched; when no good practice fits, a
sub-task moves one AFB with a fitting operator instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agents.deps import TurnContext
from core.app.errors import UserError
from core.checks.operators import AFB_RANG
from core.editing.bank_tasks import cited_bank_ids, stems, used_in
from core.editing.errors import PatchError
from core.editing.operators import FAMILIEN, canonical_operator, operator_fits
from core.editing.values import scale_points, shorten
from core.editing.work import PatchWork
from core.knowledge.retrieval import search
from core.materials.blocks import AFB_STUFEN, Quelle
from core.materials.faecher import normalize_fach
from core.materials.klausur import Aufgabe, Klausur, Kriterium, Teilaufgabe
from core.materials.notenschluessel import format_punkte
from core.materials.patch_ops import RegenerateInstruction
from db.repos import knowledge as knowledge_repo


def _themenfelder(turn: TurnContext, aufgabe: Aufgabe) -> set[str]:
    """The Themenfelder of the good practices this task was built from."""
    rows = knowledge_repo.knowledge_by_ids(db=turn.db, identity=turn.identity, ids=cited_bank_ids(aufgabe.teilaufgaben))
    return {str(r.content.get("themenfeld")) for r in rows.values() if (r.content or {}).get("themenfeld")}


def _candidate(turn: TurnContext, k: Klausur, aufgabe: Aufgabe, teil: Teilaufgabe, afb: str, used: set[str],
               operatoren: Mapping[str, str], felder: set[str], want: Callable[[dict[str, Any]], bool] | None = None
               ) -> tuple[Teilaufgabe, str] | None:
    """The good practice at `afb` closest to this sub-task's topic that fits into its points, or None.

    On topic means: from the Themenfeld of the task's own good practices (when known), sharing content words with
    the task's title (when it has any) and with the sub-task; among those, the most shared words win, then the
    search rank."""
    try:
        hits = search(db=turn.db, identity=turn.identity, query=f"{aufgabe.titel} {k.thema} {teil.text}"[:900],
                      fach=normalize_fach(k.fach, required=False) or k.fach, agent_type="klausur", limit=40)
    except UserError:
        return None
    titel, thema = stems(aufgabe.titel), stems(f"{aufgabe.titel} {teil.text}")
    best: tuple[int, int, Teilaufgabe, str] | None = None
    for rank, hit in enumerate(hits):
        c = hit.content or {}
        text, operator = str(c.get("aufgabe") or "").strip(), str(c.get("operator") or "")
        kl = c.get("klassenstufe")
        if c.get("afb") != afb or not text or c.get("material") or str(hit.id) in used \
                or " ".join(text.split()).casefold() in used:
            continue
        if (isinstance(kl, int) and kl > k.klassenstufe + 1) or (felder and c.get("themenfeld") not in felder):
            continue
        own = stems(f"{hit.thema or ''} {hit.title} {text}")
        overlap = len(thema & own)  # its own sub-topic, title and text (the topic's name is shared by all of them)
        if not overlap or (titel and not titel & stems(f"{c.get('unterthema') or ''} {hit.title} {text}")) or (
                want is not None and not want(c)):
            continue  # on the task's own topic: a „Hebel“ task is not made easier with a Kräfteparallelogramm
        overlap += 2 * len(titel & stems(f"{hit.thema or ''} {hit.title}"))  # the task's topic weighs most
        name = canonical_operator(operator, operatoren)
        if name is None or not operator_fits(name, afb, operatoren):
            continue
        try:
            kriterien = [(str(x.get("kriterium") or x.get("text") or "").strip(), int(x.get("punkte") or 0))
                         for x in c.get("erwartung") or []]
        except (AttributeError, TypeError, ValueError):
            continue
        if not kriterien or any(not t or p < 1 for t, p in kriterien) or len(kriterien) > teil.punkte:
            continue
        if best is not None and (overlap, -rank) <= (best[0], best[1]):
            continue
        punkte = scale_points([p for _, p in kriterien], teil.punkte)
        quellen = [Quelle(art="good_practice", ref=str(hit.id))] + [q for q in teil.quellen if q.art == "curriculum"]
        neu = Teilaufgabe(label=teil.label, operator=name, text=text, afb=afb, punkte=teil.punkte, quellen=quellen,
                          erwartung=[Kriterium(text=t, punkte=p) for (t, _), p in zip(kriterien, punkte, strict=True)])
        best = (overlap, -rank, neu, hit.title)
    return (best[2], best[3]) if best else None



def rework_task(turn: TurnContext, k: Klausur, plan: RegenerateInstruction, operatoren: Mapping[str, str]
                ) -> tuple[Klausur, list[str]]:
    """Make one task (or one sub-task) easier/harder, leaving the rest of the exam as it is.

    Each sub-task not yet at the lowest (highest) AFB is replaced by a good practice on the same topic one AFB
    lower (higher) — real, different content with its own Erwartungshorizont, points kept — or, when none fits,
    moved one AFB down (up) with a fitting operator and the leading verb rewritten.
    """
    work = PatchWork(k, operatoren)
    ziel = f"{plan.aufgabe}{plan.teil or ''}"
    schritt = -1 if plan.richtung == "leichter" else 1
    used = used_in(k)
    wort = "leichtere" if schritt < 0 else "anspruchsvollere"
    felder = _themenfelder(turn, work.task(str(plan.aufgabe)))
    for a, teil, ref in work.sub(ziel, ganze_aufgabe=True):
        rang = AFB_RANG[teil.afb] + schritt
        if not 1 <= rang <= 3:
            continue
        afb = AFB_STUFEN[rang - 1]
        found = _candidate(turn, work.k, a, teil, afb, used, operatoren, felder)
        if found is None:
            work.change_afb(teil, ref, afb, note=" (keine passende bewährte Aufgabe gefunden)")
            continue
        neu, titel = found
        a.teilaufgaben[PatchWork.index_of(a.teilaufgaben, teil)] = neu
        used |= {" ".join(neu.text.split()).casefold(), neu.quellen[0].ref}
        work.changes.append(f"{ref}: durch eine {wort} bewährte Aufgabe ersetzt (AFB {teil.afb} → {afb}, "
                            f"{teil.operator} → {neu.operator}, {format_punkte(neu.punkte)} wie bisher): "
                            f"„{shorten(neu.text, 90)}“" + (f" – Vorlage: {shorten(titel, 60)}" if titel else ""))
    if not work.changes:
        stufe = "I" if schritt < 0 else "III"
        raise PatchError(f"{'Aufgabe ' + ziel if not plan.teil else ziel} steht schon ganz auf AFB {stufe}. "
                         + ("Leichter geht mit weniger Punkten (z. B. „Gib "
                            f"{ziel if plan.teil else str(plan.aufgabe) + 'a'} 2 Punkte“) oder einer einfacheren "
                            "Formulierung („Formulier … so: …“)." if schritt < 0 else
                            "Anspruchsvoller geht mit einer zusätzlichen Teilaufgabe oder einer neuen Formulierung."))
    return work.result(), work.changes


def is_calculation(operator: str, kriterien: Sequence[str]) -> bool:
    """A calculation task: a calculating operator, or at least two criteria with an equation and a number."""
    if " ".join(operator.split()).casefold() in FAMILIEN[1]:
        return True
    return sum(1 for text in kriterien if "=" in text and re.search(r"\d", text)) >= 2


def swap_for_calculation(turn: TurnContext, k: Klausur, *, mehr: bool, operatoren: Mapping[str, str],
                         limit: int = 2) -> tuple[Klausur, list[str]]:
    """More (or fewer) calculation tasks: up to `limit` sub-tasks without (with) calculation are replaced by good
    practices with (without) calculation on the same topic, at the same AFB and points — so the AFB shares and the
    total stay as they were."""
    work = PatchWork(k, operatoren)
    used = used_in(k)
    wort = "Rechenaufgabe" if mehr else "Aufgabe ohne Rechnung"

    def want(c: dict[str, Any]) -> bool:
        kriterien = [str(x.get("kriterium") or x.get("text") or "") for x in c.get("erwartung") or []
                     if isinstance(x, dict)]
        return is_calculation(str(c.get("operator") or ""), kriterien) == mehr

    for a in list(work.k.aufgaben):
        felder = _themenfelder(turn, a)
        for teil in list(a.teilaufgaben):
            if len(work.changes) >= limit or is_calculation(teil.operator, [c.text for c in teil.erwartung]) == mehr:
                continue
            found = _candidate(turn, work.k, a, teil, teil.afb, used, operatoren, felder, want)
            if found is None:
                continue
            neu, titel = found
            a.teilaufgaben[PatchWork.index_of(a.teilaufgaben, teil)] = neu
            used |= {" ".join(neu.text.split()).casefold(), neu.quellen[0].ref}
            work.changes.append(f"{a.nummer}{teil.kennung}: durch eine {wort} ersetzt (AFB {neu.afb}, "
                                f"{format_punkte(neu.punkte)} wie bisher): „{shorten(neu.text, 90)}“"
                                + (f" – Vorlage: {shorten(titel, 60)}" if titel else ""))
    if not work.changes:
        raise PatchError(f"Ich habe keine passende {wort} zu den Themen dieser Klausur gefunden – es wurde nichts "
                         f"gespeichert. Sie können eine Teilaufgabe gezielt ersetzen („Formulier 2a so: …“).")
    return work.result(), work.changes
