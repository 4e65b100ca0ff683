"""The Bearbeiten form on Meine Materialien: its actions and the patch one submit stands for.

The form names a sub-task ('2b'), an action and a value; the patch is the same the chat would make.
"""

from __future__ import annotations

import re

from core.editing.addresses import ADRESSE
from core.editing.errors import PatchError
from core.materials import patch_ops as ops
from core.materials.klausur import Klausur

FORM_ACTIONS: dict[str, str] = {
    "punkte": "Punkte setzen", "afb": "AFB ändern (I, II, III)", "operator": "Operator ändern",
    "text": "Aufgabentext ersetzen", "entfernen": "Teilaufgabe entfernen", "vor": "Teilaufgabe nach vorn",
    "zurueck": "Teilaufgabe nach hinten", "aufgabe_streichen": "Ganze Aufgabe streichen",
    "aufgabe_vor": "Ganze Aufgabe nach vorn", "aufgabe_zurueck": "Ganze Aufgabe nach hinten",
}


def form_operations(aktion: str, ziel: str, wert: str, k: Klausur) -> list[ops.PatchOp]:
    """The patch for one submit of the Bearbeiten form (ziel is a sub-task like '2b')."""
    adresse = ADRESSE.match(ziel or "")
    if adresse is None:
        raise PatchError("Bitte eine Teilaufgabe aus der Liste wählen.")
    nummer, label = int(adresse.group(1)), (adresse.group(2) or "a").casefold()
    wert = (wert or "").strip()
    aufgabe = next((a for a in k.aufgaben if a.nummer == nummer), None)
    if aufgabe is None:
        raise PatchError(f"Aufgabe {nummer} gibt es nicht (mehr). Bitte die Seite neu laden.")
    if aktion == "punkte":
        if not re.fullmatch(r"-?\d{1,4}", wert):
            raise PatchError("Bitte die Punkte als ganze Zahl eintragen, z. B. 4.")
        return [ops.SetPoints(ziel=ziel, punkte=int(wert))]
    if aktion in ("afb", "operator", "text") and not wert:
        raise PatchError("Bitte im Feld „Neuer Wert“ angeben, was gelten soll (AFB, Operator oder Text).")
    if aktion == "afb":
        return [ops.SetAfb(ziel=ziel, afb=wert)]
    if aktion == "operator":
        return [ops.SetOperator(ziel=ziel, operator=wert)]
    if aktion == "text":
        return [ops.ReplaceText(ziel=ziel, text=wert)]
    if aktion == "entfernen":
        return [ops.RemoveSubtask(ziel=ziel)]
    if aktion in ("vor", "zurueck"):
        labels = [t.kennung.casefold() for t in aufgabe.teilaufgaben]
        if label not in labels:
            raise PatchError(f"Teilaufgabe {ziel} gibt es nicht (mehr). Bitte die Seite neu laden.")
        i = labels.index(label) + (0 if aktion == "vor" else 2)
        if not 1 <= i <= len(labels):
            raise PatchError(f"{ziel} steht schon an {'erster' if aktion == 'vor' else 'letzter'} Stelle.")
        return [ops.MoveSubtask(ziel=ziel, position=i)]
    if aktion == "aufgabe_streichen":
        return [ops.RemoveTask(ziel=str(nummer))]
    if aktion in ("aufgabe_vor", "aufgabe_zurueck"):
        i = nummer + (-1 if aktion == "aufgabe_vor" else 1)
        if not 1 <= i <= len(k.aufgaben):
            raise PatchError(f"Aufgabe {nummer} steht schon an {'erster' if i < 1 else 'letzter'} Stelle.")
        return [ops.MoveTask(ziel=str(nummer), position=i)]
    raise PatchError(f"Unbekannte Änderung „{aktion}“. Bitte eine aus der Liste wählen.")
