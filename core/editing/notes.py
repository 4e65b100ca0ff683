"""Teacher notes that describe the material, recomputed for an edited version: the AFB distribution and the working
time the tasks fill were true of the version they were written for, not of the one a strike or an addition made."""

from __future__ import annotations

import re

from core.checks.views import klausur_views
from core.composition.klausur import AFB_TOLERANZ
from core.composition.oberstufe import FULL
from core.composition.report import note_as_printed
from core.materials.blocks import AFB_STUFEN
from core.materials.klausur import Klausur

_AFB = re.compile(r"^AFB-Verteilung \d")
_COUNT = re.compile(r"^Für eine Oberstufenklausur sind es (\d+) Aufgaben, davon (\d+) ohne")
_SHARE = re.compile(r" \(\d+ von (\d+) Punkten\)")
_ADDED = re.compile(r"^Ergänzt um (?:Aufgaben|Fragen) zu (.+?)(?:,| um | damit |:)")
_TIME = re.compile(r"^Knapp bemessen: Die Aufgaben sind auf etwa (\d+) der (\d+) Minuten")


def _time_note(note: str, old: Klausur, new: Klausur) -> str | None:
    """„… etwa 108 der 128 Minuten …“ with the minutes the edited tasks take (in proportion to their points); gone
    once they fill the time."""
    found = _TIME.match(note)
    if found is None or not old.gesamtpunkte:
        return note
    budget = int(found.group(2))
    minuten = round(int(found.group(1)) * new.gesamtpunkte / old.gesamtpunkte)
    if minuten >= FULL * budget:
        return None
    return note.replace(found.group(0), f"Knapp bemessen: Die Aufgaben sind auf etwa {minuten} der {budget} Minuten",
                        1)


def _afb_note(k: Klausur, ziel: dict[str, int]) -> str | None:
    ist = k.afb_anteile
    if all(abs(ist[s] - ziel.get(s, 0)) <= AFB_TOLERANZ for s in AFB_STUFEN):
        return None
    text, soll = "/".join(f"{ist[s]:.0f}" for s in AFB_STUFEN), "/".join(str(ziel.get(s, 0)) for s in AFB_STUFEN)
    return f"AFB-Verteilung {text} statt {soll} % (nach der Änderung neu berechnet)."


def _count_note(note: str, new: Klausur) -> str | None:
    """„… sind es 5 Aufgaben, davon 3 ohne Teilaufgaben über mehrere Anforderungsbereiche …“ for the edited exam;
    gone once it is no patchwork any more."""
    found = _COUNT.match(note)
    if found is None:
        return note
    single = sum(len({t.afb for t in a.teilaufgaben}) == 1 for a in new.aufgaben)
    if len(new.aufgaben) <= 4 and not single:
        return None
    return note.replace(found.group(0), f"Für eine Oberstufenklausur sind es {len(new.aufgaben)} Aufgaben, davon "
                                        f"{single} ohne", 1)


def _share(note: str, new: Klausur) -> str:
    """„(7 von 41 Punkten)“ of another total than this version's goes (which of those points stayed is unknown)."""
    return _SHARE.sub(lambda m: "" if int(m.group(1)) != new.gesamtpunkte else m.group(0), note)


def _gone(note: str, new: Klausur) -> bool:
    """„Ergänzt um Aufgaben zu „Ebenengleichungen“ …“ once no task of the version is titled with any name it gives."""
    found = _ADDED.match(note)
    if found is None:
        return False
    names = [n.casefold() for n in re.findall(r"„([^“]+)“", found.group(1))]
    titles = " ".join(a.titel for a in new.aufgaben).casefold()
    return bool(names) and not any(n in titles for n in names)


def refreshed(old: Klausur, new: Klausur, afb_ziel: dict[str, int] | None) -> Klausur:
    """`new` with its AFB note and its working-time note recomputed from its own tasks (dropped when no longer
    true), its notes on named parts made true of its tasks (a part a task treats is neither „fehlt“ nor „nicht
    verwendet“, decision 045) and without a note on added sub-topics none of whose tasks is left; other notes stay."""
    notes: list[str] = []
    had_afb = False
    printed = klausur_views(new)
    for note in new.hinweise_lehrkraft:  # a part a task of this version treats is neither missing nor unused
        if (said := note_as_printed(note, printed, new.thema)) is None or _gone(said, new):
            continue
        note = said
        if _AFB.match(note):
            had_afb = True
            continue
        kept = _time_note(note, old, new)
        kept = _count_note(kept, new) if kept is not None else None
        if kept is not None:
            notes.append(_share(kept, new))
    if had_afb and (afb := _afb_note(new, afb_ziel or {"I": 30, "II": 40, "III": 30})) is not None:
        notes.insert(0, afb)
    return new.model_copy(update={"hinweise_lehrkraft": notes})
