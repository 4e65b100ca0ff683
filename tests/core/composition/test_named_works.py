"""A named literary work (decision 056): the exam is on that work; another work's tasks come in only when the teacher
chose that offer; an Inhaltsangabe or Interpretation is one main task on the text with a few preparation tasks — or
the plain reason and the options. Requests written for these tests (in no eval suite), composed from the real seeded
bank; recognition from bank-like materials."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy.orm import Session

from core.composition import works
from core.composition.candidates import TaskCandidate
from core.composition.fill_up import CONSENT, SHORT_OK
from core.composition.klausur import Composition
from core.materials.blocks import MaterialBlock, Quelle
from core.materials.klausur import Klausur
from core.materials.request import MaterialRequest
from db.repos.materials import get_material
from tests.core.chat.test_request_chat import chat
from tests.core.composition.exam_requests import exam_for

KAFKA_LK = "Klausur Deutsch LK 12: Interpretation von Kafkas „Die Verwandlung“, 180 Minuten"
# what only the other Kafka texts of the bank say: the Türhüter parable and the Odradek piece
OTHER_KAFKA = ("Türhüter", "Mann vom Lande", "Odradek", "Hausvater")


def _task(key: str, text: str, *blocks: MaterialBlock, topic: str = "kafka") -> TaskCandidate:
    return TaskCandidate(
        key=key,
        herkunft="bank",
        topic=topic,
        unterthema="",
        klassenstufe=12,
        niveau="eA",
        operator="Analysieren",
        afb="II",
        text=text,
        erwartung=(("Kriterium", 10),),
        minuten=10,
        quelle=Quelle(art="good_practice", ref=key, titel=key),
        materialien=blocks,
        material_key=blocks[0].titel if blocks else None,
    )


def _prosa(titel: str, quelle: str) -> MaterialBlock:
    return MaterialBlock(titel=titel, art="prosa", text="Ein Text.", quelle=quelle)


VERWANDLUNG = _prosa("Franz Kafka: Die Verwandlung – Anfang der Erzählung", "Franz Kafka: Die Verwandlung (1915)")
GESETZ = _prosa("Franz Kafka: Vor dem Gesetz", "Franz Kafka: Vor dem Gesetz (1915)")
FAUST = MaterialBlock(
    titel="Goethe: Faust I, Szene „Nacht“ – Fausts Eingangsmonolog",
    art="drama",
    text="Habe nun",
    quelle="Johann Wolfgang Goethe: Faust. Der Tragödie erster Teil (1808)",
)
SEHNSUCHT = MaterialBlock(
    titel="Joseph von Eichendorff: Sehnsucht",
    art="gedicht",
    text="Es schienen so golden",
    quelle="Joseph von Eichendorff: Sehnsucht (1834)",
)
STADT = MaterialBlock(
    titel="Theodor Storm: Die Stadt", art="gedicht", text="Am grauen Strand", quelle="Theodor Storm: Die Stadt (1852)"
)
OWN = MaterialBlock(titel="Kurzgeschichte: Funkloch", art="prosa", text="…", quelle="selbst verfasst")
POOL = [
    _task("v", "Analysiere M1.", VERWANDLUNG),
    _task("g", "Analysiere M1.", GESETZ),
    _task("f", "…", FAUST),
    _task("s", "…", SEHNSUCHT),
    _task("st", "…", STADT),
    _task("o", "…", OWN),
]


def _named(text: str) -> str | None:
    request = MaterialRequest(fach="deutsch", thema=text, klassenstufe=12, material_type="klausur", zusatz=text)
    found = works.named_work(request, POOL)
    return found[0].title if found else None


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Klausur zu Kafkas Verwandlung", "Die Verwandlung"),
        ("Interpretation von „Die Verwandlung“", "Die Verwandlung"),
        ("Klausur Deutsch 12: Die Verwandlung, 90 Minuten", "Die Verwandlung"),
        ("Goethes Faust", "Faust I"),
        ("Eichendorffs Gedicht Sehnsucht", "Sehnsucht"),
        ("Interpretation von Fontanes „Effi Briest“", "Effi Briest"),  # not in the bank: still a named work
        ("Interpretation der Erzählung „Der Sandmann“ von E.T.A. Hoffmann", "Der Sandmann"),
        ("Romantik: Sehnsucht und Fernweh in der Lyrik", None),  # a motif, not Eichendorff's poem
        ("Die Stadt als Motiv der Großstadtlyrik", None),  # a topic, not Storm's poem
        ("Kafka: Erzählungen und Parabeln", None),  # an author names no one work
        ("Expressionismus", None),
        ("Vergleich von „Die Verwandlung“ und „Vor dem Gesetz“", None),  # a comparison is no exam on one work
        ("Erörterung zum Thema „Handyverbot“", None),  # a quoted issue is no work
        ("Kurzgeschichte „Funkloch“ analysieren", "Funkloch"),  # self-written: no work of the bank, but named as one
    ],
)
def test_a_request_names_a_work_by_title_author_or_quotes(text: str, title: str | None) -> None:
    assert _named(text) == title


def test_a_task_is_on_the_work_by_its_material_or_its_own_text() -> None:
    known = works.catalogue(POOL)
    verwandlung = next(w for w in known if w.title == "Die Verwandlung")
    on = [
        _task("a", "Beschreibe Gregor in M1.", VERWANDLUNG),
        _task("b", "Fasse die Handlung der Erzählung „Die Verwandlung“ zusammen."),
        _task(
            "c",
            "Erläutere zwei Deutungsansätze und wende sie auf „Die Verwandlung“ an.",
            MaterialBlock(titel="Wie liest man Kafka?", art="sachtext", text="…", quelle="selbst verfasst"),
        ),
    ]
    off = [
        _task("d", "Interpretiere M1.", GESETZ),
        _task("e", "Vergleiche M1 und M2.", VERWANDLUNG, GESETZ),
        _task("f", "Vergleiche „Die Verwandlung“ mit „Vor dem Gesetz“."),
        _task("g", "Setze dich mit der These auseinander, Kafkas Texte ließen mehrere Deutungen zu."),
        _task(
            "h", "Erkläre die Bilder: a) „Verwandlung“ (Kafka, „Die Verwandlung“) b) „Wie Sterne“ (Goethe, „Gefunden“)"
        ),
    ]
    assert [c.key for c in on if works.on_work(c, verwandlung, known)] == ["a", "b", "c"]
    assert [c.key for c in off if works.on_work(c, verwandlung, known)] == []


def _printed(k: Klausur) -> str:
    """What the exam sets: its Aufgaben, the texts it prints (by title) and its tasks — a Sachtext on Kafka's readings
    may mention the Türhüter without setting that parable."""
    return " ".join(
        [
            *(a.titel for a in k.aufgaben),
            *(b.titel for a in k.aufgaben for b in a.materialien),
            *(b.text or "" for a in k.aufgaben for b in a.materialien if b.art != "sachtext"),
            *(t.text for a in k.aufgaben for t in a.teilaufgaben),
        ]
    )


def _all_on(comp: Composition, title: str) -> None:
    chosen = comp.selection.chosen
    known = works.catalogue(chosen)
    work = works.Work(title=title)
    assert chosen and all(works.on_work(c, work, known) for c in chosen), [c.text[:60] for c in chosen]


def test_the_kafka_exam_puts_no_other_work_in_without_a_word(db, as_teacher) -> None:  # noqa: ANN001
    """The lead's case: tasks on „Vor dem Gesetz“ carried 49 of 126 points with no note."""
    results, _ = chat(db, as_teacher, KAFKA_LK, "Standard passt")  # the answer, if she is asked for the AFB split
    last = next(r for r in results if r.material_id or "Möglichkeiten" in r.reply)
    if last.material_id is None:  # the options first: what exists for the work, the other works by name
        assert "„Die Verwandlung“" in last.reply and "nicht stillschweigend" in last.reply, last.reply
        assert "„Vor dem Gesetz“" in last.reply and "Hochladen" in last.reply, last.reply
        return
    k = Klausur.model_validate(get_material(db=db, material_id=uuid.UUID(str(last.material_id))).content)
    printed = _printed(k)
    assert "Verwandlung" in printed
    assert not any(w in printed for w in OTHER_KAFKA), printed


def test_the_short_kafka_exam_she_chose_is_all_on_the_work(db: Session) -> None:
    comp = exam_for(db, f"{KAFKA_LK} {SHORT_OK}.")
    assert comp.material is not None, comp.befund.grund
    _all_on(comp, "Die Verwandlung")
    assert not any(w in _printed(comp.material) for w in OTHER_KAFKA)


def test_an_exam_on_a_work_is_shorter_and_offers_the_other_works_by_name(db: Session) -> None:
    # the bank now fills 180 minutes on the Verwandlung (stop 25); „Vor dem Gesetz“ is the work it cannot fill
    comp = exam_for(db, "Klausur Deutsch LK 12 zu Kafkas „Vor dem Gesetz“, 180 Minuten")
    k = comp.material
    assert k is not None, comp.befund.grund
    _all_on(comp, "Vor dem Gesetz")
    assert k.dauer_minuten < 180 and "Vor dem Gesetz" in k.titel
    note = " ".join(k.hinweise_lehrkraft)
    assert "Kürzer als gewünscht" in note and "„Die Verwandlung“" in note and "Einverständnis" in note, note
    assert any(o.startswith("mit Aufgaben zu „Die Verwandlung“") for o in comp.befund.optionen())


def test_after_her_consent_the_other_work_fills_it_and_the_note_names_its_tasks(db: Session) -> None:
    comp = exam_for(db, f"Klausur Deutsch LK 12 zu Kafkas „Vor dem Gesetz“, 180 Minuten {CONSENT}.")
    k = comp.material
    assert k is not None, comp.befund.grund
    note = next(h for h in k.hinweise_lehrkraft if h.startswith("Ergänzt um Aufgaben zu"))
    assert "wie gewünscht" in note and "nicht zu „Vor dem Gesetz“" in note, note
    assert "Gregor" in _printed(k) or "Odradek" in _printed(k) or "Hausvater" in _printed(k)


def test_an_interpretation_is_one_main_task_on_the_poem_with_its_preparation(db: Session) -> None:
    comp = exam_for(
        db, "Klassenarbeit Deutsch Klasse 10: Interpretation des Gedichts „Der Panther“ von Rilke, 90 Minuten"
    )
    k = comp.material
    assert k is not None, comp.befund.grund
    _all_on(comp, "Der Panther")
    chosen = comp.selection.chosen
    main = chosen[-1]
    assert main.afb == "III" and "Interpretiere" in main.text  # the interpretation comes last
    assert len(chosen) <= 4 and main.punkte >= 0.4 * k.gesamtpunkte
    assert not any("Einleitung" in c.text for c in chosen[:-1])  # no part of the interpretation written twice
    assert "Interpretation" in k.titel and "Panther" in k.titel
    assert any("Hauptaufgabe" in h for h in k.hinweise_lehrkraft)


def test_mondnacht_without_a_reviewed_interpretation_gets_the_reason_and_options(db: Session) -> None:
    text = "Interpretation des Gedichts „Mondnacht“ von Eichendorff, Klasse 9"
    comp = exam_for(db, text)
    if comp.material is not None:  # a reviewed interpretation of the poem exists by now: it is all on the poem
        _all_on(comp, "Mondnacht")
        return
    grund = comp.befund.grund
    assert "„Mondnacht“" in grund and "keine geprüfte Interpretationsaufgabe" in grund, grund
    assert "nicht stillschweigend" in grund, grund
    optionen = comp.befund.optionen()
    assert any("Hochladen" in o for o in optionen) and not any(o.endswith("so verwenden") for o in optionen)
    short = exam_for(db, f"{text} {SHORT_OK}.")  # the short exam she may choose: tasks on the poem only
    assert short.material is not None, short.befund.grund
    _all_on(short, "Mondnacht")


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Klausur Deutsch Klasse 12: Interpretation von Fontanes „Effi Briest“, 180 Minuten", "Effi Briest"),
        ("Englisch Klausur LK 12: Frost's ‘The Road Not Taken’ – analysis, 90 Minuten", "The Road Not Taken"),  # 070
    ],
)
def test_a_work_the_bank_lacks_gets_the_plain_reason_and_no_other_work(db: Session, text: str, title: str) -> None:
    comp = exam_for(db, text)
    assert comp.material is None
    grund = comp.befund.grund
    assert f"„{title}“" in grund and "keine geprüften Aufgaben" in grund and "nicht stillschweigend" in grund
    assert any("Hochladen" in o for o in comp.befund.optionen())


@pytest.mark.parametrize(
    ("text", "titel"),
    [
        ("Klausur Deutsch Expressionismus LK 12, 90 Minuten", "Expressionismus"),
        ("Klausur Deutsch Klasse 12: Kafka, 90 Minuten", "Kafka"),
        ("Klausur Deutsch Klasse 11: Goethes Faust, 135 Minuten", "Faust"),
    ],
)
def test_an_author_epoch_or_one_work_topic_is_composed_as_before(db: Session, text: str, titel: str) -> None:
    comp = exam_for(db, text)
    assert comp.material is not None and titel in comp.material.titel, comp.befund.grund
    assert not any("Hauptaufgabe" in h or "Einverständnis" in h for h in comp.material.hinweise_lehrkraft)
