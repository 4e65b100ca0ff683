"""The composer on hand-made candidates: it fills the time towards the AFB targets, never pads, never repeats,
keeps to the level, covers named sub-topics first and says plainly what is missing."""

from __future__ import annotations

from core.checks.gate import check_material
from core.composition import fill_up
from core.composition.candidates import TaskCandidate
from core.composition.klausur import KlausurAuftrag, compose_klausur
from core.composition.report import Nachbar
from core.materials.blocks import Quelle
from core.materials.request import MaterialRequest

AFB_OPS = {"I": "Nennen", "II": "Erklären", "III": "Beurteilen"}


def _task(key: str, afb: str, text: str, kriterien: list[str], *, minuten: int = 5, unterthema: str = "Ohmsches Gesetz",
          klassenstufe: int = 8, herkunft: str = "bank") -> TaskCandidate:
    punkte = len(kriterien)
    return TaskCandidate(
        key=key, herkunft=herkunft, topic="ohm", unterthema=unterthema, klassenstufe=klassenstufe, niveau="Sek I",
        operator=AFB_OPS[afb], afb=afb, text=text, erwartung=tuple((k, 1) for k in kriterien),
        minuten=minuten or punkte,
        quelle=Quelle(art="good_practice", ref=key, titel=key))


POOL = [
    _task("a1", "I", "Nenne die Einheit des elektrischen Widerstands und das Formelzeichen.",
          ["Einheit Ohm (Ω)", "Formelzeichen R"], minuten=3),
    _task("a2", "I", "Nenne das Ohmsche Gesetz als Formel und gib an, unter welcher Bedingung es gilt.",
          ["R = U / I", "bei konstanter Temperatur des Leiters", "I ~ U"], minuten=4),
    _task("a3", "II", "Erkläre mit dem Teilchenmodell, warum der Widerstand eines Glühdrahts mit der Temperatur "
                      "steigt.", ["Atomrümpfe schwingen stärker", "Elektronen werden häufiger gestoßen",
                                  "Stromstärke sinkt bei gleicher Spannung", "Widerstand steigt"], minuten=6),
    _task("a4", "II", "Erkläre an der Kennlinie einer Glühlampe, warum sie kein ohmscher Widerstand ist.",
          ["Kennlinie ist gekrümmt", "R = U / I wächst mit der Spannung", "Glühdraht erwärmt sich",
           "Proportionalität gilt nicht"], minuten=6),
    _task("a5", "III", "Beurteile die Aussage: „Ein dickerer Draht leitet schlechter, weil mehr Material im Weg ist.“",
          ["Querschnitt größer → Widerstand kleiner", "Aussage falsch", "Begründung mit R = ρ · l / A",
           "Urteil begründet"], minuten=7),
    _task("a6", "II", "Erkläre, warum man beim Messen der Stromstärke das Amperemeter in Reihe schaltet.",
          ["Gesamter Strom fließt durch das Messgerät", "Innenwiderstand klein", "Parallel: Kurzschluss"], minuten=5),
    _task("dup", "II", "Erläutere mit dem Teilchenmodell, warum der Widerstand eines Glühdrahts mit der Temperatur "
                       "steigt.", ["Atomrümpfe schwingen stärker", "Elektronen werden häufiger gestoßen",
                                   "Stromstärke sinkt bei gleicher Spannung", "Widerstand steigt"], minuten=6),
    _task("k12", "II", "Erkläre den Hall-Effekt mit der Lorentzkraft auf bewegte Ladungsträger im Leiter.",
          ["Lorentzkraft senkrecht zu v und B", "Ladungstrennung", "Hallspannung"], klassenstufe=12),
]


def _auftrag(dauer: int, *, unterthemen: tuple[str, ...] = (), afb: dict[str, int] | None = None,
             pool: list[TaskCandidate] = POOL, zusatz: str = "") -> KlausurAuftrag:
    request = MaterialRequest(fach="physik", thema="Ohmsches Gesetz", material_type="klausur", klassenstufe=8,
                              dauer_minuten=dauer, unterthemen=list(unterthemen), zusatz=zusatz)
    return KlausurAuftrag(request=request, fach="physik", fach_name="Physik", klassenstufe=8,
                          afb_ziel=afb or {"I": 30, "II": 40, "III": 30}, candidates=pool,
                          operators=list(AFB_OPS.values()),
                          nachbarn=[Nachbar("Reihen- und Parallelschaltung", 9), Nachbar("Elektrische Leistung", 7)])


def test_a_short_exam_takes_the_best_tasks_without_repeats_or_the_wrong_level() -> None:
    comp = compose_klausur(_auftrag(30))
    k = comp.material
    assert k is not None
    keys = {q.ref for t in k.teilaufgaben() for q in t.quellen}
    assert "k12" not in keys, "an Oberstufe task in a Klasse 8 exam"
    assert not {"a3", "dup"} <= keys, "two versions of the same task"
    assert all(t.afb in ("I", "II", "III") for t in k.teilaufgaben())
    assert check_material(k) == []


def test_the_bank_too_small_for_the_time_gives_a_shorter_exam_and_says_why() -> None:
    stub = compose_klausur(_auftrag(90))  # under 40 % of the time: the options first, the short exam is one
    assert stub.material is None and stub.befund.stub, stub.befund.hinweise()
    assert stub.befund.optionen()[0].startswith("die kurze Fassung mit Aufgaben für ca.")
    comp = compose_klausur(_auftrag(90, zusatz=f"{fill_up.SHORT_OK}."))  # she chose it („1“, decision 057)
    k = comp.material
    assert k is not None and k.dauer_minuten < 90
    assert k.gesamtpunkte <= sum(c.punkte for c in POOL)
    notes = " ".join(k.hinweise_lehrkraft)
    assert f"{k.dauer_minuten} statt 90 Minuten" in notes and "aufgefüllt wird nicht" in notes
    options = comp.befund.optionen()
    assert any("kürzere" in o for o in options) and any("Reihen- und Parallelschaltung" in o for o in options)
    assert any("Hochladen" in o for o in options)


def test_nothing_on_the_topic_gives_no_material_but_options() -> None:
    comp = compose_klausur(_auftrag(45, pool=[]))
    assert comp.material is None
    assert comp.befund.gefunden == 0 and comp.befund.optionen()


def test_a_named_sub_topic_without_tasks_is_reported() -> None:
    comp = compose_klausur(_auftrag(30, unterthemen=("Supraleitung",)))
    assert comp.material is not None
    assert any("Supraleitung" in h for h in comp.material.hinweise_lehrkraft)


def test_the_afb_split_is_met_or_named() -> None:
    comp = compose_klausur(_auftrag(30, afb={"I": 20, "II": 60, "III": 20}))
    k = comp.material
    assert k is not None
    off = max(abs(k.afb_anteile[a] - t) for a, t in {"I": 20, "II": 60, "III": 20}.items())
    assert off <= 10 or any("AFB-Verteilung" in h for h in k.hinweise_lehrkraft)


def test_group_b_takes_a_parallel_task_of_the_same_demand_and_names_what_stays_the_same() -> None:
    parallel = _task("a1b", "I", "Nenne die Einheit der elektrischen Spannung und ihr Formelzeichen.",
                     ["Einheit Volt (V)", "Formelzeichen U"], minuten=3)
    auftrag = _auftrag(30, pool=[*POOL, parallel])
    auftrag.request = auftrag.request.model_copy(update={"zusatz": "bitte Gruppe A und B"})
    k = compose_klausur(auftrag).material
    assert k is not None and k.gruppe_b is not None
    a_texts = [t.text for t in k.teilaufgaben()]
    b_texts = [t.text for a in k.gruppe_b for t in a.teilaufgaben]
    assert len(a_texts) == len(b_texts)
    swapped = [(a, b) for a, b in zip(a_texts, b_texts, strict=True) if a != b]
    assert swapped and all(b not in a_texts for _, b in swapped)  # Gruppe B never repeats a task of Gruppe A
    for a, b in zip(k.aufgaben, k.gruppe_b, strict=True):
        assert [(t.afb, t.punkte) for t in a.teilaufgaben] == [(t.afb, t.punkte) for t in b.teilaufgaben]
    same = [f"{a.nummer}{t.kennung}" for a, b in zip(k.aufgaben, k.gruppe_b, strict=True)
            for t, u in zip(a.teilaufgaben, b.teilaufgaben, strict=True) if t.text == u.text]
    note = next(h for h in k.hinweise_lehrkraft if h.startswith("Gruppe B"))
    assert (f"in beiden Gruppen gleich: {', '.join(same)}" in note) if same else note.endswith(".")
