"""The content evaluators (#10) judge what a teacher would: the negatives are the quotes of the held-out review
(/work/scratch/s22/heldout_causes.md), the positives tasks of the bank as the composer delivered them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from core.checks.views import views
from core.evaluation.content import ContentQuality, PromisesKept, TitlesClean, content_figures, content_lines
from core.evaluation.player import CaseOutput, Turn
from core.evaluation.repeats import calibration, judged_repeat, reader_repeat
from core.evaluation.suites import Expectation
from core.evaluation.titles import material_title_faults
from core.evaluation.topic_match import names_topic, on_topic, topic_views
from core.materials.h5p import Antwort, H5PSet, MultiChoiceFrage
from core.materials.klausur import Aufgabe, Klausur, Kriterium, Teilaufgabe

PAIRS = Path(__file__).with_name("repeat_pairs.yaml")
KAISERREICH = ["kaiserreich", "bismarck", "1871", "reichsgründung", "wilhelm", "kulturkampf", "sozialistengesetz"]
KUNSTSTOFFE = ["kunststoff", "polymer", "monomer", "thermoplast", "duroplast", "elastomer", "polyethylen", "pvc"]


def klausur(aufgaben: list[tuple[str, list[str]]], *, hinweise: list[str] | None = None, dauer: int = 45,
            klasse: int = 9, fach: str = "Physik") -> Klausur:
    return Klausur(
        titel=f"Klassenarbeit {fach}", fach=fach, klassenstufe=klasse, thema="Thema", dauer_minuten=dauer,
        niveau="Sek I" if klasse <= 10 else "eA", hinweise_lehrkraft=hinweise or [],
        aufgaben=[Aufgabe(nummer=n, titel=titel, teilaufgaben=[
            Teilaufgabe(label=chr(ord("a") + i), operator="Erklären", text=text, afb="II", punkte=4,
                        erwartung=[Kriterium(text="fachlich richtige Erklärung", punkte=4)])
            for i, text in enumerate(texte)]) for n, (titel, texte) in enumerate(aufgaben, 1)])


def ctx(material: Any = None, *, reply: str = "", anfrage: str = "", **want: Any) -> SimpleNamespace:
    typ = {Klausur: "klausur", H5PSet: "h5p"}.get(type(material), "klausur")
    out = CaseOutput(material_type=typ if material is not None else None,
                     material=material.model_dump(mode="json") if material is not None else None,
                     antwort_ohne_material=reply if material is None else None,
                     verlauf=[Turn(lehrkraft="Anfrage", antwort=reply or "Hier ist das Material.", art="text")])
    want.setdefault("themenwoerter", ["thema"])
    metadata = Expectation(typ=typ, fach=want.pop("fach", "Physik"), klassenstufe=want.pop("klassenstufe", 9), **want)
    return SimpleNamespace(output=out, inputs=SimpleNamespace(anfrage=anfrage), metadata=metadata)


def verdict(scores: dict[str, Any]) -> str:
    return next(k.removeprefix("versprechen_") for k in ("versprechen_gehalten", "versprechen_erklaert",
                                                          "versprechen_abgelehnt", "versprechen_gebrochen")
                if scores[k] == 1.0)


# --- promises ---------------------------------------------------------------------------------------------------------

PROTEIN_NOTE = ("Kürzer als gewünscht: ausgelegt auf 110 statt 180 Minuten. Zu „Proteinbiosynthese und Genregulation“ "
                "liegen auch mit den übrigen Teilen des Themas nur 10 geprüfte Aufgaben in passender Klassenstufe vor; "
                "mit Füllaufgaben wird nicht aufgefüllt.")
OPERON = ["Beschreiben Sie den Bau des lac-Operons von Escherichia coli und die Regulation der Transkription in An- "
          "und Abwesenheit von Lactose.",
          "Vergleichen Sie mithilfe des Materials die Regulation des trp-Operons mit der des lac-Operons."]


def test_a_note_that_merely_names_a_sub_topic_does_not_explain_that_no_task_treats_it() -> None:
    k = klausur([("Proteinbiosynthese und Genregulation", OPERON)], hinweise=[PROTEIN_NOTE], dauer=110, klasse=13,
                fach="Biologie")
    scores = PromisesKept().evaluate(ctx(k, fach="Biologie", klassenstufe=13, dauer=180,
                                         unterthemen=["Proteinbiosynthese", "Genregulation"]))
    assert verdict(scores) == "gebrochen"
    assert scores["versprechen"] == 0.0
    assert "„Proteinbiosynthese“ fehlt ohne Hinweis" in scores["inhalt_versprechen"].reason


def test_a_note_that_says_the_part_is_missing_explains_it() -> None:
    k = klausur([("Kolumbus", ["Erkläre, warum Kolumbus 1492 nach Westen segelte, um Indien zu erreichen."])],
                hinweise=["Zu „Azteken“ habe ich keine geprüfte Aufgabe für Klasse 7 – dieser Teil fehlt."],
                klasse=7, fach="Geschichte")
    scores = PromisesKept().evaluate(ctx(k, fach="Geschichte", klassenstufe=7, unterthemen=["Kolumbus", "Azteken"]))
    assert verdict(scores) == "erklaert"
    assert scores["versprechen"] == 1.0


def test_a_sub_topic_in_the_composers_title_only_is_not_kept_but_one_in_the_task_is() -> None:
    titled = klausur([("Krisenjahr 1923", ["Beschreibe die Verfassung der Weimarer Republik."])], fach="Geschichte")
    treated = klausur([("Aufgabe", ["Erkläre die Ursachen der Hyperinflation von 1923 und ihre Folgen für "
                                    "verschiedene Bevölkerungsgruppen."])], fach="Geschichte")
    want = {"fach": "Geschichte", "unterthemen": ["Krisenjahr 1923"]}
    assert verdict(PromisesKept().evaluate(ctx(titled, **want))) == "gebrochen"
    assert verdict(PromisesKept().evaluate(ctx(treated, **want))) == "gehalten"


def test_a_refusal_with_options_is_declined_not_kept() -> None:
    reply = ("Zu „Macbeth“ gibt es in der Wissensbasis keine geprüften Aufgaben für Klasse 12. Möglichkeiten: ein "
             "anderes Drama wählen oder eigene Aufgaben hochladen.")
    scores = PromisesKept().evaluate(ctx(None, reply=reply, fach="Englisch", klassenstufe=12))
    assert verdict(scores) == "abgelehnt"
    assert scores["versprechen"] == 0.0
    silent = PromisesKept().evaluate(ctx(None, reply="Das geht leider nicht.", fach="Englisch", klassenstufe=12))
    assert verdict(silent) == "gebrochen"


def quiz(n: int, hinweise: list[str]) -> H5PSet:
    frage = MultiChoiceFrage(frage="Welcher Pol eines Magneten zeigt nach Norden?", antworten=[
        Antwort(text="der Nordpol", korrekt=True), Antwort(text="der Südpol", korrekt=False)])
    return H5PSet(titel="Magnete", fach="Physik", klassenstufe=6, thema="Magnetismus", fragen=[frage] * n,
                  hinweise_lehrkraft=hinweise)


def test_fewer_questions_are_explained_only_by_a_note_that_says_fewer() -> None:
    said = quiz(5, ["Nur 5 statt 10 Fragen: mehr geprüfte Fragen zu „Magnete“ gibt es in der Wissensbasis nicht."])
    vague = quiz(5, ["Die Fragen zu „Magnete“ stammen aus der Wissensbasis."])
    assert verdict(PromisesKept().evaluate(ctx(said, fragen=10, klassenstufe=6))) == "erklaert"
    assert verdict(PromisesKept().evaluate(ctx(vague, fragen=10, klassenstufe=6))) == "gebrochen"


# --- on topic ---------------------------------------------------------------------------------------------------------

def test_a_quiz_distractor_does_not_put_a_question_on_topic() -> None:
    metternich = MultiChoiceFrage(frage="Wer leitete den Wiener Kongress 1814/15?", antworten=[
        Antwort(text="Fürst Metternich", korrekt=True), Antwort(text="Otto von Bismarck", korrekt=False)])
    reichsgruendung = MultiChoiceFrage(frage="In welchem Jahr wurde das Deutsche Kaiserreich gegründet?", antworten=[
        Antwort(text="1871", korrekt=True), Antwort(text="1848", korrekt=False)])
    s = H5PSet(titel="Übung: Bismarck", fach="Geschichte", klassenstufe=8, thema="Kaiserreich",
               fragen=[metternich, reichsgruendung])
    assert on_topic(topic_views(s, views(s)), KAISERREICH) == [False, True]


def test_the_requested_topic_in_a_task_title_does_not_put_the_task_on_topic() -> None:
    k = klausur([("Kunststoffe: Licht, Absorption und Komplementärfarbe",
                  ["Erkläre, warum ein Blatt grün erscheint, wenn es weißes Licht absorbiert."]),
                 ("Kunststoffe im Alltag", ["Erkläre den Unterschied zwischen Thermoplasten und Duroplasten beim "
                                            "Erwärmen."])], fach="Chemie", klasse=10)
    scores = ContentQuality().evaluate(ctx(k, fach="Chemie", klassenstufe=10, themenwoerter=KUNSTSTOFFE))
    assert scores["am_thema"] == 1.0 and scores["aufgaben"] == 2.0
    assert scores["thema_voll"] == 0.0
    assert "nicht erkennbar: 1a" in scores["inhalt_am_thema"].reason


@pytest.mark.parametrize(("key", "text", "hit"), [
    ("ion", "Beschreibe die Reaktion von Natrium mit Chlor.", False),
    ("ion", "Erkläre, wie aus Natriumatomen Ionen entstehen.", True),
    ("if", "Explain the different uses of the passive.", False),
    ("if", "Complete the sentences: If it rains, we will stay at home.", True),
    ("pro", "Löse das Problem mit einer Skizze.", False),
    ("ph", "Bestimme den pH-Wert der Lösung.", True),
    ("1789", "Die Messreihe ergab 17890 Zählimpulse.", False),
    ("1789", "Erkläre, warum 1789 die Generalstände einberufen wurden.", True),
    ("katalys", "Erkläre die Wirkung der Enzymkatalyse.", True),
    ("%", "Berechne 15 % von 80 €.", True),
])
def test_topic_words_mean_what_the_case_authors_meant(key: str, text: str, hit: bool) -> None:
    assert names_topic(text, [key]) is hit


# --- repeats ----------------------------------------------------------------------------------------------------------

def test_the_repeat_judgement_on_the_labelled_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    every = yaml.safe_load(PAIRS.read_text(encoding="utf-8"))["paare"]
    pairs = [p for p in every if not str(p["quelle"]).startswith("bank")]  # n10g's calibration set (decision 039)
    repeats = sum(1 for p in pairs if p["wiederholung"])
    assert len(pairs) >= 30 and abs(2 * repeats - len(pairs)) <= 4  # about half repeats, half related tasks
    result = calibration(pairs)
    # the pairs found later in the bank (decision 047) are printed, not fitted: the rule was not changed for them
    bank = calibration([p for p in every if str(p["quelle"]).startswith("bank")])
    with capsys.disabled():
        print("\n" + result.line() + "\nneue Paare aus der Aufgabenbank: " + bank.line() + "\nalle: "
              + calibration(every).line())
    assert bank.pairs >= 10 and 0 < bank.repeats < bank.pairs
    assert result.precision >= 0.9
    assert result.recall >= 0.8


ASTRONAUTIN_120 = ("Eine Astronautin hat mit ihrem Raumanzug eine Masse von 120 kg. Berechne mit dem Material ihre "
                   "Gewichtskraft auf der Erde, auf dem Mond und auf dem Mars.")
ASTRONAUTIN_160 = ("Eine Astronautin hat zusammen mit ihrem Raumanzug die Masse 160 kg. Berechne die Gewichtskraft auf "
                   "der Erde (g = 9,81 N/kg) und auf dem Mars (g = 3,71 N/kg). Gib außerdem die Masse auf dem Mars an "
                   "und begründe kurz.")
HOOKE = ("In einem Schülerexperiment wird eine Feder mit verschiedenen Kräften F gedehnt und die Verlängerung s "
         "gemessen. Prüfe, ob die Feder dem Hookeschen Gesetz folgt, und bestimme die Federkonstante D.")


def test_the_same_task_with_other_numbers_in_another_aufgabe_is_a_repeat() -> None:
    k = klausur([("Gewichtskraft", [ASTRONAUTIN_120]), ("Masse und Gewicht", [ASTRONAUTIN_160]),
                 ("Hookesches Gesetz", [HOOKE])], klasse=8)
    scores = ContentQuality().evaluate(ctx(k, klassenstufe=8, themenwoerter=["gewichtskraft", "feder"]))
    assert scores["doppelungen"] + scores["wiederholungen"] == 1.0
    assert not scores["inhalt_keine_doppelungen"].value
    assert "1a~2a" in scores["inhalt_keine_doppelungen"].reason


def test_related_tasks_on_one_topic_are_not_repeats() -> None:
    assert not judged_repeat(ASTRONAUTIN_120, HOOKE)
    assert not reader_repeat("Nenne drei Ursachen der Französischen Revolution.",
                             "Nenne drei Folgen der Französischen Revolution.")
    assert not reader_repeat("Geben Sie mit eigenen Worten wieder, worüber Faust in seinem Eingangsmonolog (M1) klagt.",
                             "Geben Sie mit eigenen Worten wieder, was Faust in M3 anbietet und unter welchen "
                             "Bedingungen Mephisto die Wette gewinnen soll.")


# --- titles -----------------------------------------------------------------------------------------------------------

def test_a_title_that_names_another_topic_or_chains_und_is_not_clean() -> None:
    macbeth = ["macbeth", "duncan", "banquo", "ambition", "soliloquy", "murder", "witches"]
    want = {"fach": "Englisch", "klassenstufe": 12, "themenwoerter": macbeth,
            "anfrage": "Klausur Englisch LK 12 zu Macbeth, 180 Minuten"}
    task = [("Macbeth's soliloquy", ["Analyse Macbeth's soliloquy in Act 1, Scene 7."])]
    wrong = klausur(task, fach="Englisch", klasse=12).model_copy(update={"titel": "Klausur Englisch: Shakespeare"})
    right = klausur(task, fach="Englisch", klasse=12).model_copy(update={"titel": "Klausur Englisch: Macbeth"})
    chained = klausur([("Brandbekämpfung und Oxidation und Oxide", ["Erkläre, wie ein Feuerlöscher wirkt."])],
                      fach="Chemie", klasse=8)
    assert "Titel nennt das Thema nicht" in TitlesClean().evaluate(ctx(wrong, **want))["inhalt_titel"].reason
    assert TitlesClean().evaluate(ctx(right, **want))["titel"] == 1.0
    scores = TitlesClean().evaluate(ctx(chained, fach="Chemie", klassenstufe=8, themenwoerter=["oxid", "brand"],
                                        anfrage="Test Chemie 8 Verbrennung und Brandbekämpfung"))
    assert "doppeltes „und“" in scores["inhalt_titel"].reason


HEADS = [  # (title, request): stop 22's held-out titles that name a neighbour, a year range or drop the head noun
    ("Klausur Geschichte: 1945-1990", "Geschichte LK 12 Klausur: die deutsche Frage 1945–1990 – Teilung, Mauerfall, "
     "Wiedervereinigung, mit Quelleninterpretation, 180 min"),
    ("Klausur Englisch: Shakespeare", "Englisch Klausur LK 12 Shakespeare's Macbeth: analysis of a scene and comment, "
     "180 Minuten"),
    ("Übung: Sauerstoff, Wasserstoff und Kohlenstoffdioxid", "H5P-Quiz Chemie 9 Nachweisreaktionen für Sauerstoff, "
     "Wasserstoff und Kohlenstoffdioxid, 8 Fragen"),
    ("Übung: Energie", "H5P-Quiz Chemie Klasse 8: chemische Reaktion und Energie, 8 Fragen"),
    ("Übung: Bismarck", "H5P Geschichte Klasse 8 Deutsches Kaiserreich und Bismarck, 10 Fragen"),
]
GOOD_HEADS = [
    ("Klausur Geschichte: Die deutsche Frage 1945–1990", HEADS[0][1]),
    ("Klausur Englisch: Macbeth", HEADS[1][1]),
    ("Übung: Nachweisreaktionen für Sauerstoff, Wasserstoff und Kohlenstoffdioxid", HEADS[2][1]),
    ("Übung: Chemische Reaktion und Energie", HEADS[3][1]),
    ("Übung: Deutsches Kaiserreich und Bismarck", HEADS[4][1]),
    ("Klassenarbeit Physik: Kräfte", "Physik Klassenarbeit Klasse 8 Kräfte: Masse und Gewichtskraft, Hookesches "
     "Gesetz"),
    ("Arbeitsblatt Englisch: Question tags", "Differentiated worksheet English year 7 question tags, three levels "
     "please"),
    ("Arbeitsblatt Mathematik: Kreis", "Arbeitsblatt Mathematik Klasse 8 in drei Niveaus: Kreis – Umfang und Fläche"),
    # a request's frame in the teacher's own words is no head of her topic („Kannst“, „Could“, „Diff.“, „Jgst.“)
    ("Übung: Past progressive", "Could you make a quiz on the past progressive for year 7, 10 questions?"),
    ("Arbeitsblatt Deutsch: Kommasetzung", "Kannst du mir ein differenziertes AB Deutsch Klasse 7 zur Kommasetzung "
     "machen?"),
    ("Arbeitsblatt Chemie: Redoxreaktionen", "Diff. Arbeitsblatt Chemie Kl. 10 Redoxreaktionen"),
    ("Klausur Englisch: Globalisation", "Englisch Klausur Jgst. 12: Globalisation, 90 Minuten"),
]


@pytest.mark.parametrize(("titel", "anfrage"), HEADS)
def test_a_material_title_that_drops_what_was_asked_is_not_clean(titel: str, anfrage: str) -> None:
    assert material_title_faults(titel, [], anfrage), titel


@pytest.mark.parametrize(("titel", "anfrage"), GOOD_HEADS)
def test_a_material_title_that_names_what_was_asked_is_clean(titel: str, anfrage: str) -> None:
    assert material_title_faults(titel, ["deutsche frage", "macbeth"], anfrage) == []


def test_a_title_naming_only_the_head_of_a_longer_topic_is_not_clean() -> None:
    assert material_title_faults("Klassenarbeit Geschichte: Leben", ["mittelalter", "burg", "kloster"],
                                 "Klassenarbeit Geschichte Klasse 6 Leben im Mittelalter, 45 Minuten")


# --- figures ----------------------------------------------------------------------------------------------------------

def case(werte: dict[str, float], typ: str = "klausur") -> SimpleNamespace:
    return SimpleNamespace(fach="physik", typ=typ, werte=werte, erwartung={"themenwoerter": ["x"]})


def test_figures_count_a_refusal_against_every_figure_it_would_lower() -> None:
    made = case({"aufgaben": 4, "am_thema": 4, "thema_voll": 1, "versprechen": 1, "versprechen_gehalten": 1,
                 "niveau": 1, "rechnungen": 1, "titel": 1})
    refused = case({"versprechen": 0, "versprechen_abgelehnt": 1})
    g = content_figures([made, refused])["gesamt"]
    assert g["versprechen"] == [1, 2] and g["versprechen_arten"]["abgelehnt"] == 1
    assert (g["materialien"], g["faelle"], g["thema_voll"]) == (1, 2, 1)
    text = "\n".join(content_lines(content_figures([made, refused])))
    assert "Versprechen gehalten oder erklärt 1/2 (50%)" in text
    assert "ganz am Thema 1/1 Materialien, 1/2 (50%) der Fälle" in text
    assert "Niveau passend 1/1 Materialien, 1/2 (50%) der Fälle" in text
    assert "Rechnungen nachgerechnet 1/1 Klausuren, 1/2 (50%) der Klausur-Fälle" in text
