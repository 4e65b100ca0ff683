"""Labelled (task, part) pairs for `parts_lexicon.treats` (issue #10, decision 050): is the part what the task asks
about? Written before the matcher of decision 050 was built, from school knowledge, on tasks written for this set in
the shapes of the lead's blind review of stop 23 (a part only in a negation or a side clause of the scenario, a
hyponym of the part, an aspect part, a skill named as a part) and plain positives and negatives, in every Fach.

Each case: the task as printed (its title: the Aufgabe's title or the sheet's Lernziel; its text; its expected
answer; its material), the part and the request's topic, and whether the task treats the part."""

from __future__ import annotations

from typing import NamedTuple


class Pair(NamedTuple):
    text: str
    teil: str
    thema: str
    behandelt: bool
    titel: str = ""
    kriterien: tuple[str, ...] = ()
    material: str = ""
    operator: str | None = None
    fach: str = ""


def _p(fach: str, text: str, teil: str, thema: str, behandelt: bool, *, titel: str = "", kriterien: str = "",
       material: str = "", operator: str | None = None) -> Pair:
    return Pair(text, teil, thema, behandelt, titel, tuple(k for k in kriterien.split(" | ") if k), material,
                operator, fach)


PAIRS: tuple[Pair, ...] = (
    # --- Biologie -------------------------------------------------------------------------------------------------
    _p("biologie", "In einem Weiher ohne Hechte überleben viel mehr junge Molche als in einem Weiher mit Hechten. "
       "Erkläre.", "Fische", "Wirbeltiere", False,
       titel="Die Schülerinnen und Schüler erklären die Entwicklung der Amphibien im Wasser.",
       kriterien="Hechte fressen Molchlarven; ohne diese Fressfeinde überleben mehr Larven."),
    _p("biologie", "Beschreibe, wie sich die Atmung vom Laich über die Kaulquappe bis zum Frosch verändert.",
       "Amphibien", "Wirbeltiere", True, kriterien="Kaulquappe: Kiemen; Frosch: Lunge und Haut."),
    _p("biologie", "Erkläre, wie eine Forelle mit ihren Kiemen Sauerstoff aus dem Wasser aufnimmt.", "Fische",
       "Wirbeltiere", True),
    _p("biologie", "Erkläre, warum der Körper eines Karpfens stromlinienförmig ist und wozu die Schwimmblase dient.",
       "Fische", "Wirbeltiere", True),
    _p("biologie", "Nenne drei Merkmale, an denen du einen Vogel erkennst.", "Säugetiere", "Wirbeltiere", False),
    _p("biologie", "Ein Fuchs jagt im Winter Mäuse unter dem Schnee. Beschreibe, wie sein Fell ihn vor Kälte "
       "schützt.", "Säugetiere", "Wirbeltiere", True, kriterien="Dichtes Winterfell mit Unterwolle hält warm."),
    _p("biologie", "Beschrifte in der Abbildung Kelchblatt, Kronblatt, Staubblatt und Fruchtknoten.", "Aufbau",
       "Blütenpflanzen", True, titel="Bau einer Blüte"),
    _p("biologie", "Erkläre, warum der Puls beim Treppensteigen schneller wird.", "Aufbau des Herzens", "Herz", False),
    _p("biologie", "Mikroskopiere ein Zwiebelhäutchen und zeichne eine Zelle mit Zellwand und Zellkern.",
       "Zellen zeichnen", "Zelle", True, operator="Zeichnen"),
    _p("biologie", "Nenne die Bestandteile einer Pflanzenzelle, die eine Tierzelle nicht hat.", "Zellen zeichnen",
       "Zelle", False, operator="Nennen"),
    # --- Geschichte -----------------------------------------------------------------------------------------------
    _p("geschichte", "Beschreibe, welche Dienste ein höriger Bauer auf dem Fronhof seines Herrn leisten musste.",
       "Grundherrschaft", "Mittelalter", True, kriterien="Frondienst: Arbeit auf dem Herrenland | Abgaben"),
    _p("geschichte", "Welche Pflicht hatte ein Höriger gegenüber seinem Grundherrn?", "Grundherrschaft",
       "Mittelalter", True, kriterien="Er musste Frondienste leisten und Abgaben zahlen."),
    _p("geschichte", "Erkläre, warum sich Lübeck, Hamburg und Bremen zur Hanse zusammenschlossen.", "Grundherrschaft",
       "Mittelalter", False),
    _p("geschichte", "Erläutere, was ein Vasall seinem Lehnsherrn schuldete und was er dafür erhielt.",
       "Lehnswesen", "Mittelalter", True),
    _p("geschichte", "Beschreibe mithilfe von M1 die Verteilung von Grundbesitz und Steuerlast auf die drei Stände "
       "vor 1789.", "Ursachen", "Französische Revolution", True, titel="Ständegesellschaft im Ancien Régime"),
    _p("geschichte", "Analysiere die Flugschrift „Was ist der Dritte Stand?“ (M3): Verfasser, Zeitpunkt, Aussage und "
       "Absicht.", "Ursachen", "Französische Revolution", True, titel="Sieyès: Was ist der Dritte Stand? (1789)",
       kriterien="Der Dritte Stand leistet alles, hat aber politisch nichts zu sagen und verlangt Mitsprache."),
    _p("geschichte", "Napoleon gilt als „Vollender und Zerstörer der Revolution“. Beurteile diese Einschätzung.",
       "Ursachen", "Französische Revolution", False, titel="Napoleon"),
    _p("geschichte", "Skizziere die Ereignisse vom Zusammentreten der Generalstände bis zum Sturm auf die Bastille.",
       "Verlauf", "Französische Revolution", True, titel="Revolution 1789"),
    _p("geschichte", "Erkläre, warum der Ablasshandel viele Gläubige empörte.", "Ursachen", "Reformation", True),
    _p("geschichte", "Beschreibe das Leben der Soldaten im Schützengraben an der Westfront.", "Ursachen",
       "Erster Weltkrieg", False),
    _p("geschichte", "Erläutere, wie das Bündnissystem der Großmächte 1914 aus einem regionalen Konflikt einen "
       "europäischen Krieg machte.", "Ursachen", "Erster Weltkrieg", True),
    _p("geschichte", "Beschreibe die Wohnverhältnisse einer Arbeiterfamilie in Berlin um 1880.", "Folgen",
       "Industrialisierung", True, titel="Die soziale Frage"),
    _p("geschichte", "Auf dem Weg zur Hansestadt Lübeck wurde ein Kaufmannszug überfallen. Erkläre, warum "
       "mittelalterliche Städte Mauern bauten.", "Hanse", "Stadt im Mittelalter", False,
       kriterien="Schutz vor Angreifern und Räubern | Zeichen der Freiheit der Bürger"),
    _p("geschichte", "Stelle die Aufgaben einer Zunft dar.", "Zünfte", "Stadt im Mittelalter", True),
    # --- Deutsch --------------------------------------------------------------------------------------------------
    _p("deutsch", "Setze die Kommas: Der Ball den Tim verloren hatte lag im Gebüsch.", "Nebensätze", "Kommasetzung",
       True, titel="Die Schülerinnen und Schüler setzen Kommas bei Relativsätzen.",
       kriterien="Der Ball, den Tim verloren hatte, lag im Gebüsch."),
    _p("deutsch", "Unterstreiche das Relativpronomen und setze die Kommas: Die Jacke die an der Tür hängt gehört "
       "mir.", "Nebensätze", "Kommasetzung", True),
    _p("deutsch", "Verbinde die Sätze mit „weil“ und setze das Komma: Wir bleiben drinnen. Es regnet.", "Nebensätze",
       "Kommasetzung", True, kriterien="Wir bleiben drinnen, weil es regnet."),
    _p("deutsch", "Setze die fehlenden Kommas: Auf dem Markt kaufte Oma Äpfel Birnen Trauben und Nüsse.",
       "Aufzählungen", "Kommasetzung", True, kriterien="Äpfel, Birnen, Trauben und Nüsse"),
    _p("deutsch", "Setze die Kommas: Das Haus das am Ende der Straße steht ist alt.", "Aufzählungen",
       "Kommasetzung", False, titel="Die Schülerinnen und Schüler setzen Kommas bei Relativsätzen."),
    _p("deutsch", "Schreibe die Geschichte zu Ende, ohne wörtliche Rede zu verwenden.", "wörtliche Rede",
       "Erzählen", False),
    _p("deutsch", "Setze in den Sätzen die Anführungszeichen und Satzzeichen der wörtlichen Rede.",
       "wörtliche Rede", "Zeichensetzung", True),
    _p("deutsch", "Nenne vier typische Merkmale einer Fabel und belege sie am Text.", "Merkmale", "Fabeln", True),
    _p("deutsch", "Schreibe die Fabel vom Fuchs und dem Storch zu Ende.", "Merkmale", "Fabeln", False),
    _p("deutsch", "Bestimme das Reimschema und das Metrum der ersten Strophe und deute die Wirkung.",
       "Gedichte analysieren", "Lyrik", True, operator="Analysieren"),
    _p("deutsch", "Schreibe ein eigenes Gedicht über den Herbst mit Kreuzreim.", "Gedichte analysieren", "Lyrik",
       False, operator="Verfassen"),
    # --- Geographie -----------------------------------------------------------------------------------------------
    _p("geographie", "Werte das Klimadiagramm von Manaus (M1) aus: Beschreibe Temperatur- und Niederschlagsverlauf "
       "und ordne es einer Klimazone zu.", "Klimadiagramme", "Klimazonen", True),
    _p("geographie", "Charakterisiere mithilfe von M1 das Klima von Irkutsk und erkläre die große Jahresschwankung.",
       "Klimadiagramme", "Klimazonen", False, material="Klimadaten Irkutsk: Monat, Temperatur, Niederschlag",
       kriterien="Kontinentalklima: kalte Winter, warme Sommer"),
    _p("geographie", "Beschreibe die Lage der Beleuchtungszonen der Erde und nenne die begrenzenden Breitenkreise.",
       "Klimadiagramme", "Klimazonen", False),
    _p("geographie", "Zeichne aus den Werten der Tabelle ein Klimadiagramm von Kairo.", "Klimadiagramme auswerten",
       "Klimazonen", False, operator="Zeichnen"),
    _p("geographie", "Zeichne aus den Werten der Tabelle ein Klimadiagramm von Kairo.", "Klimadiagramm zeichnen",
       "Klimazonen", True, operator="Zeichnen"),
    _p("geographie", "Erkläre den natürlichen Treibhauseffekt.", "Ursachen", "Klimawandel", True),
    _p("geographie", "Erkläre den natürlichen Treibhauseffekt.", "Folgen", "Klimawandel", False),
    _p("geographie", "Erläutere, warum die Malediven durch den steigenden Meeresspiegel bedroht sind.", "Folgen",
       "Klimawandel", True),
    _p("geographie", "Nenne zwei Anbauprodukte der Mongolei, eines Landes ohne Küste.", "Küsten",
       "Landwirtschaft", False),
    _p("geographie", "Erkläre die Entstehung von Ebbe und Flut an der Nordseeküste.", "Gezeiten", "Küsten", True),
    # --- Mathematik -----------------------------------------------------------------------------------------------
    _p("mathematik", "Berechne 15 % von 240 € ohne Dreisatz mit der Formel W = G · p %.", "Dreisatz",
       "Prozentrechnung", False),
    _p("mathematik", "Ein Fahrrad kostet 480 €, es wird um 15 % reduziert. Berechne den neuen Preis.", "Prozentwert",
       "Prozentrechnung", True, kriterien="Prozentwert: 72 € | Neuer Preis: 408 €"),
    _p("mathematik", "Bestimme die Steigung der Geraden durch P(1|2) und Q(3|6).", "lineare Funktionen",
       "Funktionen", True),
    _p("mathematik", "Zeichne den Graphen der Funktion f(x) = 2x − 1 in ein Koordinatensystem.", "Graphen zeichnen",
       "lineare Funktionen", True, operator="Zeichnen"),
    _p("mathematik", "Lies aus dem Graphen ab, wann der Tank leer ist.", "Graphen zeichnen", "lineare Funktionen",
       False, operator="Ablesen"),
    _p("mathematik", "Ein Rechteck ist 5 cm lang und 3 cm breit. Berechne seinen Flächeninhalt.", "Umfang",
       "Rechteck", False, kriterien="A = 5 cm · 3 cm = 15 cm²"),
    _p("mathematik", "Vereinfache den Term 3a + 5b − a + 2b.", "Terme vereinfachen", "Terme", True,
       kriterien="2a + 7b"),
    # --- Physik ---------------------------------------------------------------------------------------------------
    _p("physik", "Berechne die Kraft, die am langen Hebelarm (60 cm) nötig ist, um 200 N am kurzen (15 cm) zu "
       "heben.", "einfache Maschinen", "Mechanik", True),
    _p("physik", "Berechne den Widerstand eines Lämpchens bei U = 6 V und I = 0,3 A.", "Widerstand berechnen",
       "Elektrizität", True, operator="Berechnen"),
    _p("physik", "Erkläre, wovon der Widerstand eines Drahtes abhängt.", "Widerstand berechnen", "Elektrizität",
       False, operator="Erklären"),
    _p("physik", "Ein Schlitten gleitet einen Hang hinab. Berechne seine Geschwindigkeit nach 4 s bei a = 2 m/s².",
       "Reibung", "Bewegungen", False, material="Auf dem Schnee ist die Reibung gering."),
    _p("physik", "Erkläre, wie ein Kernschatten und ein Halbschatten entstehen, wenn zwei Lampen einen Ball "
       "beleuchten.", "Schatten", "Optik", True),
    _p("physik", "Eine Taschenlampe ohne Batterie leuchtet nicht. Erkläre, wie Licht an einem Spiegel reflektiert "
       "wird.", "Stromkreise", "Optik", False),
    # --- Chemie ---------------------------------------------------------------------------------------------------
    _p("chemie", "Stelle die Reaktionsgleichung für die Verbrennung von Magnesium auf.",
       "Reaktionsgleichungen aufstellen", "chemische Reaktion", True, operator="Aufstellen"),
    _p("chemie", "Weise nach, dass beim Ausatmen Kohlenstoffdioxid entsteht.", "Nachweisreaktionen",
       "Gase", True, kriterien="Kalkwasser trübt sich."),
    _p("chemie", "Erkläre, warum Eisen an feuchter Luft rostet, in trockener Luft aber nicht.", "Ursachen",
       "Korrosion", True),
    _p("chemie", "Eine Kerze unter einem Glas erlischt. Erkläre mit dem Branddreieck.", "Löschen",
       "Verbrennung", True, kriterien="Sauerstoff fehlt: Die Verbrennung erlischt, eine Bedingung ist entzogen."),
    _p("chemie", "Berechne die Masse von 2 mol Wasser.", "Säuren", "Stoffmenge", False),
    _p("chemie", "Beschreibe den Aufbau eines Natriumatoms nach dem Schalenmodell.", "Atombau", "Atome", True),
    # --- Englisch -------------------------------------------------------------------------------------------------
    _p("englisch", "Complete: If it rains tomorrow, we ___ (stay) at home.", "conditional sentences",
       "grammar", True, kriterien="will stay"),
    _p("englisch", "Put the verbs into the simple past: Yesterday Tom (go) to school and (meet) his friends.",
       "irregular verbs", "simple past", True, kriterien="went | met"),
    _p("englisch", "Put the verbs into the simple past: Yesterday we (play) football and (watch) a film.",
       "irregular verbs", "simple past", False, kriterien="played | watched"),
    _p("englisch", "Write an email of about 100 words to your pen friend about your last holiday.",
       "writing an email", "writing", True, operator="Write"),
    _p("englisch", "Read the email from Sarah and answer the questions in full sentences.", "writing an email",
       "writing", False, operator="Answer"),
    _p("englisch", "Rewrite the sentences in the passive: They built the bridge in 1890.", "passive",
       "grammar", True, kriterien="The bridge was built in 1890."),
)
