"""The lexicon of named parts (decision 038, extended by 050): per Fach, a teacher's term for a part (`teil`), the
bank's words for it or for what it comprises (`umfasst`: synonyms, members, hyponyms — a Relativsatz is a Nebensatz,
a Frondienst is part of the Grundherrschaft), and for an aspect word such as „Ursachen“ the topic words (`kontext`)
the part or the request's topic must name. A test checks that every `umfasst` word occurs in the bank of its Fach.
Members of one entry are siblings: a task whose title or question names one of them is that one's task (decision
050), whatever it mentions of the others in its scenario or answer."""

from __future__ import annotations

from dataclasses import dataclass

from core.language.text import stem


@dataclass(frozen=True)
class Eintrag:
    teil: str
    umfasst: tuple[str, ...]
    kontext: tuple[str, ...] = ()
    gleich: bool = False  # a synonym group: the words are one thing, not siblings


def _e(teil: str, umfasst: str, kontext: str = "") -> Eintrag:
    return Eintrag(teil, tuple(x.strip() for x in umfasst.split(";")), tuple(x for x in kontext.split(";") if x))


def _syn(*gruppe: str) -> tuple[Eintrag, ...]:
    """Words for the same thing: each stands for the others."""
    return tuple(Eintrag(w, tuple(x for x in gruppe if x != w), gleich=True) for w in gruppe)


LEXIKON: dict[str, tuple[Eintrag, ...]] = {
    "mathematik": (
        *_syn("Textaufgabe", "Sachaufgabe"),
        _e("Anwendungsaufgabe", "Sachaufgabe; Textaufgabe"),
        *_syn("Flächenberechnung", "Flächeninhalt"),
        _e("Termumformung", "ausmultiplizieren; ausklammern; binomische Formel"),
        _e("Prozentrechnung", "Grundwert; Prozentwert; Prozentsatz"),
        _e("Bruchrechnung", "Bruch; Brüche"),
        _e("Wahrscheinlichkeitsrechnung", "Zufallsexperiment; Baumdiagramm; Wahrscheinlichkeit"),
        _e("Körperberechnung", "Prisma; Zylinder; Pyramide; Kegel; Kugel"),
        _e("Kurvendiskussion", "Funktionsuntersuchung; Extrempunkt; Wendepunkt"),
        _e("Dreisatz", "proportional; antiproportional"),
        _e("lineare Funktion", "Steigung; y-Achsenabschnitt; Steigungsdreieck"),
        _e("Zerfall", "exponentielle Abnahme; Halbwertszeit"),  # „Wachstum und Zerfall“: the bank says Abnahme
    ),
    "deutsch": (
        *_syn("Erörterung", "Argumentation"),
        *_syn("Gedichtanalyse", "Gedichtinterpretation"),
        *_syn("Stilmittel", "rhetorische Mittel", "sprachliche Mittel"),
        *_syn("Moral", "Lehre"),
        _e("Gedichtanalyse", "Metrum; Reimschema; Strophe"),
        _e("Rechtschreibung", "Kommasetzung; Großschreibung; Kleinschreibung"),
        _e("Wortarten", "Nomen; Verb; Adjektiv; Pronomen"),
        _e("Satzglieder", "Subjekt; Prädikat; Objekt; Adverbiale"),
        _e("Zeitformen", "Präteritum; Perfekt; Präsens; Plusquamperfekt"),
        _e("Sachtextanalyse", "Sachtext"),
        _e("Nebensatz", "Relativsatz; Relativpronomen; Konjunktionalsatz"),
        _e("Gedicht", "Strophe; Reimschema; Metrum"),
    ),
    "englisch": (
        *_syn("reported speech", "indirect speech", "indirekte Rede"),
        *_syn("if-clauses", "conditional sentences", "Bedingungssätze"),
        _e("Vokabeln", "vocabulary; Wortschatz"),
        *_syn("vocabulary", "Wortschatz"),
        _e("Leseverstehen", "reading comprehension"),
        _e("tenses", "simple past; present perfect; past progressive; simple present; will-future"),
        _e("Zeitformen", "simple past; present perfect; past progressive; simple present; will-future"),
        _e("Passiv", "passive"),
    ),
    "geschichte": (
        _e("Thesenanschlag", "Ablass; Ablasshandel"),
        _e("Ursachen", "Julikrise; Bündnissystem; Imperialismus; Wettrüsten; Sarajevo", "Weltkrieg;1914"),
        _e("Alltag", "Stellungskrieg", "Weltkrieg;Krieg;Front"),
        *_syn("Machtergreifung", "Machtübernahme", "Machtübertragung"),
        _e("Machtergreifung", "Gleichschaltung; Ermächtigungsgesetz; Reichstagsbrand"),
        _e("Krisenjahr 1923", "Inflation; Hitlerputsch; Ruhrbesetzung"),
        _e("Soziale Frage", "Kinderarbeit; Arbeiterschaft; Arbeiter"),
        _e("Kalter Krieg", "Kubakrise; Mauerbau; Blockade"),
        _e("Wiedervereinigung", "Zwei-plus-Vier; Einigungsvertrag; Deutsche Einheit; Währungsunion"),
        _e("Teilung", "Besatzungszonen; Gründung der DDR; Luftbrücke",
           "deutsche Frage;Deutschland;Deutschlands;DDR;Nachkriegszeit;Kalter Krieg"),
        _e("Kaiserreich", "Reichsgründung; Kaiserproklamation; Wilhelm II; Sozialistengesetz; Kulturkampf"),
        _e("Feudalismus", "Lehnswesen; Grundherrschaft"),
        _e("Französische Revolution", "Bastille; Generalstände; Menschenrechte"),
        _e("Grundherrschaft", "Fronhof; Frondienst; Grundherr; Höriger; Hörige; Leibeigene"),
        _e("Lehnswesen", "Vasall; Lehnsherr; Lehen"),
        _e("Ursachen", "Ancien Régime; Ständegesellschaft; Dritter Stand; Dritten Stand; Staatsbankrott; Privilegien",
           "Französische Revolution;Revolution 1789"),
        _e("Verlauf", "Generalstände; Ballhausschwur; Bastille; Nationalversammlung; Terreur; Jakobiner",
           "Französische Revolution;Revolution 1789"),
        _e("Ursachen", "Ablasshandel; Ablass", "Reformation"),
        _e("Folgen", "Soziale Frage; Kinderarbeit; Arbeiterfamilie", "Industrialisierung"),
        _e("Ursachen", "Versailler Vertrag; Weltwirtschaftskrise; Dolchstoßlegende; Hyperinflation",
           "Weimarer Republik"),
    ),
    "geographie": (
        _e("Ursachen", "Treibhauseffekt; Treibhausgase", "Klimawandel;Klima;Erderwärmung"),
        _e(
            "Folgen",
            "Meeresspiegelanstieg; Meeresspiegel; Gletscherschmelze; Extremwetter; Dürre",
            "Klimawandel;Klima;Erderwärmung",
        ),
        *_syn("Klimawandel", "Erderwärmung", "globale Erwärmung"),
        _e("Plattentektonik", "Kontinentaldrift; Subduktion; Plattengrenze"),
        _e("Naturgefahren", "Erdbeben; Vulkanausbruch; Tsunami"),
        _e("Kartenarbeit", "Maßstab; Gradnetz; Legende"),
        *_syn("Verstädterung", "Urbanisierung"),
        _e("Landwirtschaft", "Ackerbau; Viehhaltung"),
        _e("Gezeiten", "Ebbe; Flut; Tidenhub"),
        _e("Wetterelemente", "Lufttemperatur; Niederschlag; Luftdruck; Bewölkung"),
        _e("Entwicklungsindikator", "HDI; Human Development Index; BIP pro Kopf; Bruttonationaleinkommen"),
    ),
    "chemie": (
        _e(
            "Stoffeigenschaften",
            "Dichte; Schmelztemperatur; Siedetemperatur; Löslichkeit; Leitfähigkeit; Verformbarkeit; Brennbarkeit",
        ),
        *_syn("Trennverfahren", "Stofftrennung"),
        *_syn("Siedepunkt", "Siedetemperatur"),
        *_syn("Schmelzpunkt", "Schmelztemperatur"),
        _e("Trennverfahren", "Filtrieren; Filtrat; Destillation; Destillieren; Chromatografie; Eindampfen; "
                             "Sedimentieren; Dekantieren; Extraktion"),
        _e("Atombau", "Proton; Neutron; Elektron; Schalenmodell"),
        _e("chemische Bindung", "Ionenbindung; Elektronenpaarbindung; Metallbindung"),
        _e("Redoxreaktion", "Oxidation; Reduktion"),
        _e("Nachweisreaktion", "Glimmspanprobe; Knallgasprobe; Kalkwasser"),
        *_syn("Branddreieck", "Verbrennungsdreieck", "Bedingungen der Verbrennung"),
        _e("chemische Reaktion", "Edukt; Produkt; Reaktionsgleichung"),
    ),
    "physik": (
        _e("Stromkreise", "Reihenschaltung; Parallelschaltung"),
        _e("Bewegungen", "Geschwindigkeit; Beschleunigung"),
        _e("Kräfte", "Gewichtskraft; Reibungskraft; Federkraft"),
        _e("Optik", "Reflexion; Brechung; Linse"),
        _e("Energieformen", "kinetische Energie; Lageenergie; Bewegungsenergie; Spannenergie"),
        _e("Wärmelehre", "Wärme; Wärmekapazität"),
        _e("Thermodynamik", "Wärme; Wärmekapazität"),
        _e("Elektromagnetismus", "Induktion; Spule; Elektromagnet"),
        _e("Radioaktivität", "Alphastrahlung; Betastrahlung; Gammastrahlung; Halbwertszeit"),
        _e("einfache Maschinen", "Hebel; Flaschenzug; schiefe Ebene"),
        _e("Aufbau", "Atomkern; Kernbausteine; Nukleonen", "Atom;Atomkern;Atommodell;Kern"),
    ),
    "biologie": (
        _e("Aufbau", "Zellkern; Zellmembran; Mitochondrien; Chloroplasten; Zellwand", "Zelle;Zellen"),
        _e("Aufbau", "Vorhof; Herzkammer; Herzklappe", "Herz"),
        _e("Aufbau", "Netzhaut; Hornhaut; Iris", "Auge"),
        _e("Aufbau", "Kelchblatt; Kronblatt; Staubblatt; Fruchtknoten", "Blüte;Blüten;Blütenpflanzen"),
        _e("Wirbeltiere", "Fische; Amphibien; Reptilien; Vögel; Säugetiere"),
        _e("Fische", "Forelle; Karpfen; Hecht; Schwimmblase; Flossen"),
        _e("Amphibien", "Frosch; Kröte; Molch; Kaulquappe; Laich; Metamorphose; Lurche"),
        _e("Reptilien", "Eidechse; Schlange"),
        _e("Vögel", "Feder; Gefieder"),
        _e("Säugetiere", "Fell; säugen"),
        *_syn("Fotosynthese", "Photosynthese"),
        _e("Vererbung", "Mendel; Erbgang; Allel; dominant; rezessiv"),
        _e("Ökologie", "Nahrungskette; Nahrungsnetz; Räuber; Beute"),
        _e("Evolution", "Selektion; Mutation; Artbildung"),
        _e("Verdauung", "Nährstoffe; Enzym; Dünndarm"),
        _e("Immunsystem", "Antikörper; Impfung; Fresszelle"),
        _e("Atmung", "Einatmen; Ausatmen; Lunge; Zwerchfell; Gasaustausch; Atemwege"),
        _e("Blutkreislauf", "Körperkreislauf; Lungenkreislauf"),
        _e("Nervensystem", "Synapse; Aktionspotenzial; Nervenzelle"),
    ),
}

# Words naming an aspect of a topic, not a topic: „Ursachen und Folgen“, „Aufbau und Funktion“.
ASPEKTE = frozenset(
    stem(w)
    for w in (
        "Ursache",
        "Ursachen",
        "Folge",
        "Folgen",
        "Auswirkung",
        "Auswirkungen",
        "Aufbau",
        "Funktion",
        "Funktionen",
        "Merkmal",
        "Merkmale",
        "Entstehung",
        "Bedeutung",
        "Verlauf",
        "Ablauf",
        "Vorteile",
        "Nachteile",
        "Gründe",
        "Anlass",
        "Ergebnisse",
        "Eigenschaften",
    )
)
