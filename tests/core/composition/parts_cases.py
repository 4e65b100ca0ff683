"""Labelled named parts (issue #10): a part as a teacher names it, in one Fach and Klasse, within the bank topic her
request resolves to — and the bank sub-topics that really are about it (empty: the bank has nothing on it).
Written from the bank's sub-topic list and school knowledge before the matcher was run on them."""

from __future__ import annotations

from typing import NamedTuple


class Case(NamedTuple):
    teil: str
    fach: str
    klasse: int
    topic: str
    erwartet: frozenset[str]
    thema: str = ""


def _c(teil: str, fach: str, klasse: int, topic: str, erwartet: str = "", thema: str = "") -> Case:
    return Case(teil, fach, klasse, topic, frozenset(x.strip() for x in erwartet.split(";") if x.strip()), thema)


CASES: tuple[Case, ...] = (
    # Mathematik
    _c("Textaufgaben", "mathematik", 8, "terme-gleichungen", "Sachaufgaben mit Gleichungen"),
    _c("Anwendungsaufgaben", "mathematik", 9, "lineare-gleichungssysteme", "Sachaufgaben mit Gleichungssystemen"),
    _c("Termumformungen", "mathematik", 8, "terme-gleichungen", "Terme umformen; Binomische Formeln"),
    _c("Prozentwert", "mathematik", 7, "prozentrechnung", "Prozentwert berechnen; Grundbegriffe der Prozentrechnung"),
    _c(
        "Körperberechnung",
        "mathematik",
        9,
        "koerper",
        "Prisma und Quader; Zylinder; Pyramide und Kegel; Kugel; Zusammengesetzte Körper",
    ),
    _c("Wendepunkte", "mathematik", 12, "kurvendiskussion", "Krümmung und Wendepunkte"),
    _c(
        "Wahrscheinlichkeitsrechnung",
        "mathematik",
        7,
        "wahrscheinlichkeit-laplace",
        "Zufallsexperimente und Ereignisse; Laplace-Wahrscheinlichkeit; Gegenereignis und Summenregel; "
        "Relative Häufigkeit als Schätzwert",
    ),
    _c(
        "Vektorrechnung",
        "mathematik",
        11,
        "vektoren-geraden",
        "Vektoren im Raum; Rechnen mit Vektoren; Skalarprodukt und Winkel",
    ),
    _c("Kombinatorik", "mathematik", 7, "wahrscheinlichkeit-laplace"),
    _c(
        "Dreisatz", "mathematik", 7, "zuordnungen", "Dreisatz; Proportionale Zuordnungen; Antiproportionale Zuordnungen"
    ),
    # Deutsch
    _c(
        "Argumentation",
        "deutsch",
        9,
        "argumentieren-eroertern",
        "Argumente aufbauen; Stellungnahme und Leserbrief; Lineare Erörterung; Dialektische Erörterung; "
        "Textgebundene Erörterung",
    ),
    _c(
        "Stilmittel",
        "deutsch",
        9,
        "rhetorische-mittel",
        "Bildliche Mittel; Klangliche Mittel; Satzbau und Wiederholung; Argumentative und appellative Mittel; "
        "Wirkung rhetorischer Mittel",
    ),
    _c(
        "Gedichtinterpretation",
        "deutsch",
        10,
        "gedichtanalyse",
        "Aufbau einer Gedichtanalyse; Form und Inhalt; Sprachliche Mittel und ihre Wirkung; "
        "Deutungshypothese und Interpretation; Liebeslyrik",
    ),
    _c("das/dass", "deutsch", 6, "rechtschreibung", "das oder dass"),
    _c("Satzglieder", "deutsch", 7, "satzglieder", "Satzglieder ermitteln; Objekte; Adverbiale Bestimmungen"),
    _c("Zeitformen", "deutsch", 6, "wortarten", "Verben und Tempus"),
    _c("Semikolon", "deutsch", 8, "kommasetzung"),
    _c(
        "Wortarten",
        "deutsch",
        6,
        "wortarten",
        "Nomen und Artikel; Verben und Tempus; Adjektive; Pronomen; Präpositionen und Konjunktionen; Aktiv und Passiv",
    ),
    # Englisch
    _c(
        "indirect speech",
        "englisch",
        9,
        "reported-speech",
        "reported statements; backshift and changes of pronouns; reported questions; reported commands and requests",
    ),
    _c(
        "conditional sentences",
        "englisch",
        8,
        "if-clauses",
        "if-clauses type 1; if-clauses type 2; if-clauses type 3; mixed practice and wishes",
    ),
    _c(
        "Passiv",
        "englisch",
        9,
        "passive-voice",
        "forming the passive; passive in different tenses; by-agent and active/passive choice; "
        "using the passive in reports",
    ),
    _c(
        "tenses",
        "englisch",
        7,
        "simple-past-present-perfect",
        "simple past; present perfect; past progressive; simple past vs present perfect",
    ),
    _c(
        "Bedingungssätze",
        "englisch",
        8,
        "if-clauses",
        "if-clauses type 1; if-clauses type 2; if-clauses type 3; mixed practice and wishes",
    ),
    _c("phrasal verbs", "englisch", 7, "future-forms"),
    _c(
        "Zeitformen",
        "englisch",
        7,
        "future-forms",
        "will-future; going to-future; present progressive for arrangements; choosing the right future form",
    ),
    _c(
        "relative pronouns",
        "englisch",
        8,
        "relative-clauses",
        "who, which, that, whose; contact clauses; defining relative clauses; non-defining relative clauses",
    ),
    # Geschichte
    _c("Thesenanschlag", "geschichte", 7, "reformation", "Ablass und 95 Thesen"),
    _c("Ursachen", "geschichte", 9, "erster-weltkrieg", "Julikrise und Kriegsbeginn", thema="Erster Weltkrieg"),
    _c("Alltag an der Front", "geschichte", 9, "erster-weltkrieg", "Stellungskrieg und Materialschlacht"),
    _c("Machtergreifung", "geschichte", 9, "ns-diktatur", "Errichtung der Diktatur 1933/34"),
    _c("Feudalismus", "geschichte", 7, "herrschaft-im-mittelalter", "Lehnswesen; Grundherrschaft"),
    _c("Kubakrise", "geschichte", 10, "kalter-krieg", "Kubakrise"),
    _c("Hexenverfolgung", "geschichte", 7, "reformation"),
    _c("Inflation", "geschichte", 9, "weimarer-republik", "Krisenjahr 1923"),
    _c(
        "Ursachen",
        "geschichte",
        11,
        "ursachen-erster-weltkrieg",
        "Bündnissysteme und Rüstung; Julikrise 1914",
        thema="Erster Weltkrieg",
    ),
    _c(
        "Soziale Frage",
        "geschichte",
        8,
        "industrialisierung-soziale-frage",
        "Lebens- und Arbeitsbedingungen; Lösungsansätze der sozialen Frage",
    ),
    # Geographie
    _c(
        "Ursachen", "geographie", 9, "klimawandel", "Natürlicher und anthropogener Treibhauseffekt", thema="Klimawandel"
    ),
    _c("Folgen", "geographie", 9, "klimawandel", "Folgen des Klimawandels", thema="Klimawandel"),
    _c("Treibhauseffekt", "geographie", 9, "klimawandel", "Natürlicher und anthropogener Treibhauseffekt"),
    _c(
        "Erderwärmung",
        "geographie",
        9,
        "klimawandel",
        "Belege für den Klimawandel; Folgen des Klimawandels; Natürlicher und anthropogener Treibhauseffekt; "
        "Klimaschutz; Klimaanpassung",
    ),
    _c("Folgen", "geographie", 7, "alpen-tourismus", "Massentourismus und Folgen", thema="Massentourismus"),
    _c("Sanfter Tourismus", "geographie", 7, "alpen-tourismus", "Sanfter Tourismus"),
    _c("Ozonloch", "geographie", 9, "klimawandel"),
    _c(
        "Ursachen",
        "geographie",
        9,
        "entwicklung-disparitaeten",
        "Ursachen von Unterentwicklung",
        thema="Unterentwicklung",
    ),
    # Chemie
    _c(
        "Stoffeigenschaften",
        "chemie",
        7,
        "stoffe-eigenschaften",
        "Stoffeigenschaften; Dichte; Schmelz- und Siedetemperatur; Löslichkeit und Leitfähigkeit",
    ),
    _c(
        "Trennverfahren",
        "chemie",
        7,
        "gemische-stofftrennung",
        "Filtrieren, Sedimentieren, Eindampfen; Destillation; Chromatografie und Extraktion",
    ),
    _c(
        "Stofftrennung",
        "chemie",
        7,
        "gemische-stofftrennung",
        "Filtrieren, Sedimentieren, Eindampfen; Destillation; Chromatografie und Extraktion",
    ),
    _c("Siedepunkt", "chemie", 7, "stoffe-eigenschaften", "Schmelz- und Siedetemperatur"),
    _c("Nachweisreaktionen", "chemie", 8, "wasser-wasserstoff", "Wasserstoff und Knallgasprobe; Nachweis von Wasser"),
    _c(
        "Atombau",
        "chemie",
        8,
        "atombau-periodensystem",
        "Kern-Hülle-Modell; Elementarteilchen und Isotope; Schalenmodell und Valenzelektronen",
    ),
    _c("Kernfusion", "chemie", 8, "atombau-periodensystem"),
    _c(
        "Redoxreaktionen",
        "chemie",
        9,
        "metalle-redoxreaktionen",
        "Reduktion von Metalloxiden; Redoxreihe der Metalle; Metallgewinnung; Elektronenübergänge; "
        "Korrosion und Korrosionsschutz",
    ),
    _c("Neutralisation", "chemie", 9, "saeuren-basen-neutralisation", "Neutralisation; Titration"),
    # Physik
    _c(
        "Stromkreise",
        "physik",
        9,
        "reihen-parallelschaltung",
        "Reihenschaltung; Parallelschaltung; Gemischte Schaltungen",
    ),
    _c(
        "Energieformen",
        "physik",
        8,
        "energie-arbeit-leistung",
        "Energieformen und Energieumwandlung; Lageenergie und Bewegungsenergie",
    ),
    _c("Aufbau", "physik", 9, "radioaktivitaet-kernenergie", "Atomkern und Isotope", thema="Atomkern"),
    _c(
        "Kräfte",
        "physik",
        8,
        "kraefte",
        "Kraft und Kraftwirkungen; Gewichtskraft und Masse; Hookesches Gesetz; Kräfteaddition; Hebel",
    ),
    _c(
        "Wärmelehre",
        "physik",
        9,
        "waermeenergie",
        "Spezifische Wärmekapazität; Innere Energie und Wärme; Schmelz- und Verdampfungswärme; Wärmekraftmaschinen",
    ),
    _c("Halbwertzeit", "physik", 10, "radioaktivitaet-kernenergie", "Halbwertszeit"),
    _c("Supraleitung", "physik", 9, "ohmsches-gesetz"),
    _c(
        "Induktion",
        "physik",
        10,
        "induktion-transformator",
        "Elektromagnetische Induktion; Transformator; Generator und Wechselspannung",
    ),
    # Biologie
    _c(
        "Aufbau", "biologie", 6, "zelle-mikroskopieren", "Tierzelle; Pflanzenzelle; Zelle, Gewebe, Organ", thema="Zelle"
    ),
    _c("Aufbau", "biologie", 8, "herz-blutkreislauf", "Bau und Funktion des Herzens", thema="Herz"),
    _c(
        "Photosynthese",
        "biologie",
        8,
        "fotosynthese-zellatmung",
        "Fotosynthese; Einflussfaktoren der Fotosynthese; Fotosynthese und Zellatmung im Zusammenhang; Blattbau",
    ),
    _c(
        "Vererbung",
        "biologie",
        10,
        "genetik-mendel",
        "Mendelsche Regeln; Rückkreuzung; Intermediärer Erbgang; Dihybrider Erbgang",
    ),
    _c("Nahrungsketten", "biologie", 7, "nahrungsbeziehungen", "Nahrungskette; Nahrungsnetz"),
    _c("Impfung", "biologie", 9, "immunsystem-infektionen", "Impfung"),
    _c("Allergien", "biologie", 9, "immunsystem-infektionen"),
    _c("Synapse", "biologie", 12, "neurobiologie", "Synapse; Verrechnung an Synapsen; Synapsengifte und Drogen"),
)
