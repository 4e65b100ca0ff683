"""One material is printed once per exam: the bank keeps the same poem under two topics (Klassik and Romantik), and a
comparison task uses it beside another poem — the exam printed Goethe's „Das Göttliche“ as M1 and again as M4."""

from __future__ import annotations

import re

from core.composition.candidates import TaskCandidate
from core.composition.layout import aufgaben
from core.materials.blocks import MaterialBlock, Quelle

GOETHE = MaterialBlock(
    titel="M1 Johann Wolfgang Goethe: Das Göttliche",
    art="gedicht",
    text="Edel sei der Mensch,\nHülfreich und gut!\nDenn das allein\nUnterscheidet ihn\n"
    "Von allen Wesen,\nDie wir kennen.",
)
EICHENDORFF = MaterialBlock(
    titel="M2 Joseph von Eichendorff: Sehnsucht",
    art="gedicht",
    text="Es schienen so golden die Sterne,\nAm Fenster ich einsam stand\nUnd hörte aus weiter "
    "Ferne\nEin Posthorn im stillen Land.",
)


def _task(key: str, text: str, material_key: str, *blocks: MaterialBlock, afb: str = "II") -> TaskCandidate:
    return TaskCandidate(
        key=key,
        herkunft="bank",
        topic=material_key.split("/")[0],
        unterthema="Lyrik",
        klassenstufe=11,
        niveau="gA",
        operator="Analysiere",
        afb=afb,
        text=text,
        erwartung=(("Deutung am Text belegt", 6),),
        minuten=10,
        quelle=Quelle(art="good_practice", ref=key, titel=key),
        materialien=blocks,
        material_key=material_key,
    )


def test_the_same_poem_from_two_bank_topics_is_printed_once_and_both_tasks_refer_to_it() -> None:
    klassik = _task("k1", "Zeige an „Das Göttliche“ (M1) ein Merkmal der Klassik.", "klassik/m1", GOETHE, afb="I")
    romantik = _task("r1", "Analysiere Eichendorffs „Sehnsucht“ (M1).", "romantik/m1", EICHENDORFF)
    vergleich = _task(
        "r2",
        "Vergleiche Goethes „Das Göttliche“ (M2) und Eichendorffs „Sehnsucht“ (M1).",
        "romantik/m1+m2",
        EICHENDORFF,
        GOETHE.model_copy(update={"titel": "M2 Goethe: Das Göttliche"}),
        afb="III",
    )
    exam = aufgaben([klassik, romantik, vergleich])
    printed = [b for a in exam for b in a.materialien]
    assert sum("Edel sei der Mensch" in (b.text or "") for b in printed) == 1
    assert len(printed) == 2
    number = {b.text.split("\n")[0]: re.match(r"M(\d+)", b.titel).group(1) for b in printed}
    texts = {t.text[:12]: t.text for a in exam for t in a.teilaufgaben}
    goethe, eichendorff = number["Edel sei der Mensch,"], number["Es schienen so golden die Sterne,"]
    assert f"(M{goethe})" in texts["Zeige an „Da"]
    assert f"„Das Göttliche“ (M{goethe})" in texts["Vergleiche G"]
    assert f"„Sehnsucht“ (M{eichendorff})" in texts["Vergleiche G"]
    assert f"(M{eichendorff})" in texts["Analysiere E"]
