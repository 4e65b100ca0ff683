"""A table row that belongs to one task is printed only with that task (decision 051): the LGS exam printed a third
receipt (Familie Öztürk, 24 €) that no chosen task used — deliberately wrong for the unchosen task that checks it, so
a pupil who recomputed it found 23 €. The bank ties such rows to their task (`zeilen_aufgaben`); each task gets only
its rows, and when two tasks on one table are chosen, the exam prints one table with the rows of both."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from sqlalchemy.orm import Session

from core.composition.candidates import TaskCandidate
from core.composition.layout import aufgaben
from core.materials.blocks import MaterialBlock, Tabelle
from seeds.bank import BankMaterial, load_topic
from seeds.bank import Tabelle as BankTabelle
from seeds.bank_rows import material_block
from tests.core.composition.exam_requests import exam_for, lgs_task

LGS = "Klassenarbeit Mathe Klasse 9 Lineare Gleichungssysteme: Einsetzungs- und Additionsverfahren, 45 Minuten"
SPALTEN = ["Familie", "Erwachsene", "Kinder", "bezahlter Betrag"]
KAYA, BRAUN, OEZTUERK = ["Kaya", "2", "3", "23,50 €"], ["Braun", "1", "2", "13,50 €"], ["Öztürk", "3", "1", "24,00 €"]


def _bank_material(**extra: object) -> BankMaterial:
    return BankMaterial(
        id="m1",
        titel="Kassenbelege im Freibad",
        art="tabelle",
        quelle="selbst verfasst",
        lizenz="selbst verfasst",
        tabelle=BankTabelle(spalten=SPALTEN, zeilen=[KAYA, BRAUN, OEZTUERK]),
        **extra,
    )


def test_each_task_gets_only_its_rows_of_a_shared_table() -> None:
    m = _bank_material(zeilen_aufgaben={"Öztürk": ["a7"]})
    assert [z[0] for z in material_block(m, "a6")["tabelle"]["zeilen"]] == ["Kaya", "Braun"]
    assert [z[0] for z in material_block(m, "a7")["tabelle"]["zeilen"]] == ["Kaya", "Braun", "Öztürk"]
    assert [z[0] for z in material_block(_bank_material(), "a6")["tabelle"]["zeilen"]] == ["Kaya", "Braun", "Öztürk"]


def test_a_tie_to_a_row_the_table_does_not_have_is_refused() -> None:
    with pytest.raises(ValidationError, match="names no row"):
        _bank_material(zeilen_aufgaben={"Özdemir": ["a7"]})


def _task(key: str, text: str, *rows: list[str]) -> TaskCandidate:
    block = MaterialBlock(
        titel="M1 Kassenbelege im Freibad", art="tabelle", tabelle=Tabelle(spalten=SPALTEN, zeilen=list(rows))
    )
    return lgs_task(key, text, block, material_key="lineare-gleichungssysteme/m1")


def test_two_chosen_tasks_on_one_table_print_it_once_with_the_rows_of_both() -> None:
    a6 = _task("a6", "Bestimme mit den Belegen der Familien Kaya und Braun aus M1 die Preise.", KAYA, BRAUN)
    a7 = _task(
        "a7", "Familie Öztürk (M1) hat 24,00 € bezahlt. Beurteile, ob richtig kassiert wurde.", KAYA, BRAUN, OEZTUERK
    )
    [one] = aufgaben([a6])
    assert [[z[0] for z in b.tabelle.zeilen] for b in one.materialien if b.tabelle] == [["Kaya", "Braun"]]
    [both] = aufgaben([a6, a7])
    assert [[z[0] for z in b.tabelle.zeilen] for b in both.materialien if b.tabelle] == [["Kaya", "Braun", "Öztürk"]]
    assert all("(M1)" in t.text or "M1" in t.text for t in both.teilaufgaben)


def test_the_bank_ties_the_oeztuerk_receipt_to_the_task_that_checks_it() -> None:
    bank = load_topic("mathematik", "lineare-gleichungssysteme")
    assert bank is not None
    m1 = next(m for m in bank.materialien if m.id == "m1")
    checks = next(a for a in bank.aufgaben if "Öztürk" in a.aufgabe)
    assert m1.zeilen_aufgaben == {"Öztürk": [checks.id]}


def test_the_lgs_exam_prints_no_receipt_its_tasks_do_not_use(db: Session) -> None:
    k = exam_for(db, LGS).material
    assert k is not None
    tables = [b for a in k.aufgaben for b in a.materialien if b.tabelle and b.tabelle.zeilen[0][0] == "Kaya"]
    text = " ".join(f"{t.text} {' '.join(e.text for e in t.erwartung)}" for a in k.aufgaben for t in a.teilaufgaben)
    for table in tables:
        for row in table.tabelle.zeilen:
            assert row[0] in text, (row, text)  # every printed receipt is one a task works with


def test_a_generated_task_refers_to_its_own_material_by_the_number_the_exam_gives_it() -> None:
    """Blind review s24 (Exponentialfunktionen Kl. 10): the generated „Modell beurteilen“ task said „Die Tabelle (M1)“
    while its table was printed as M2 — M1 was another task's tea-cooling table."""
    tee = MaterialBlock(titel="M1 Abkühlung einer Tasse Tee", art="tabelle",
                        tabelle=Tabelle(spalten=["t in min", "T in °C"], zeilen=[["0", "90"], ["5", "69"]]))
    follower = MaterialBlock(titel="M1 Follower eines Schulkanals", art="tabelle",
                             tabelle=Tabelle(spalten=["Monat", "Follower"], zeilen=[["0", "800"], ["1", "1300"]]))
    bank = lgs_task("a3", "Untersuche mit M1, ob die Temperatur exponentiell abnimmt.", tee,
                    material_key="exponentialfunktionen/m1")
    generated = lgs_task("gen:modellwahl#7", "Die Tabelle (M1) zeigt Messwerte. Beurteile die Aussage.", follower,
                         material_key="gen:modellwahl#7")
    printed = {b.titel: t.text for a in aufgaben([bank, generated]) for b in a.materialien for t in a.teilaufgaben
               if t.quellen[0].ref == ("a3" if "Tee" in b.titel else "gen:modellwahl#7")}
    [(tee_title, tee_text)] = [(k, v) for k, v in printed.items() if "Tee" in k]
    [(follower_title, follower_text)] = [(k, v) for k, v in printed.items() if "Follower" in k]
    assert tee_title.split()[0] in tee_text and follower_title.split()[0] in follower_text, printed
    assert tee_title.split()[0] != follower_title.split()[0]
