"""The compact built-in topic vocabulary (fach -> Themenfeld -> terms) the request reader knows without any seeded
subject profile; the seeded profiles win where both know a word."""

from __future__ import annotations

# Compact built-in topic vocabulary: fach -> area -> comma-separated terms. Seeded profiles (topic_terms) win.
BUILTIN_TOPICS: dict[str, dict[str, str]] = {
    "physik": {
        "Elektrizitätslehre": "Stromkreis, Stromkreise, Stromstärke, Spannung, Widerstand, Ohmsches Gesetz, "
        "Reihenschaltung, Parallelschaltung, Kirchhoffsche Regeln, elektrische Ladung, elektrisches Feld, E-Feld, "
        "Kondensator, Induktion, elektromagnetische Induktion, Elektromagnet, Elektromotor, Transformator, "
        "Generator, Magnetfeld, Lorentzkraft, elektrische Leistung, Elektronen, Strom",
        "Mechanik": "Geschwindigkeit, Beschleunigung, Kraft, Kräfte, Newtonsche Gesetze, Impuls, Energieerhaltung, "
        "Reibung, Hebel, Hebelgesetz, freier Fall, waagerechter Wurf, Kreisbewegung, mechanische Arbeit, "
        "Auftrieb, Dichte, Schwerkraft, Gravitation, Energie, Leistung, Energieumwandlung, Wirkungsgrad, Kraftwerk, "
        "Kraftwerke, Solarzelle, Dynamo, Generator",
        "Optik": "Linse, Linsen, Brechung, Lichtbrechung, Reflexion, Spiegel, Lichtausbreitung, Schatten, "
        "Totalreflexion, Beugung, Interferenz, Sammellinse, Zerstreuungslinse, Licht, geometrische Optik",
        "Wärmelehre": "Temperatur, Wärme, Wärmeleitung, Wärmestrahlung, innere Energie, Hauptsätze der "
        "Thermodynamik, Wärmekraftmaschine, Wärmekapazität",
        "Atom- und Kernphysik": "Radioaktivität, Kernspaltung, Kernfusion, Halbwertszeit, radioaktive Strahlung, "
        "Atommodell, Atommodelle, Atomkern, Zerfallsreihe",
        "Akustik": "Schall, Frequenz, Schwingung, Schwingungen, Welle, Wellen, Tonhöhe, Lautstärke",
    },
    "mathematik": {
        "Arithmetik": "Bruchrechnung, Brüche, Bruch, Dezimalzahlen, Prozentrechnung, Zinsrechnung, negative "
        "Zahlen, ganze Zahlen, rationale Zahlen, Potenzen, Wurzeln, Dreisatz, Teilbarkeit, Primzahlen, "
        "Grundrechenarten, schriftliche Division",
        "Algebra": "Terme, Termumformung, Gleichungen, lineare Gleichungen, Gleichungssysteme, lineare "
        "Gleichungssysteme, binomische Formeln, quadratische Gleichungen, pq-Formel, lineare Funktionen, "
        "quadratische Funktionen, Exponentialfunktionen, Logarithmus, Parabeln, Funktionen",
        "Geometrie": "Dreiecke, Satz des Pythagoras, Pythagoras, Kreis, Kreisberechnung, Flächeninhalt, Umfang, "
        "Volumen, Winkel, Strahlensätze, Trigonometrie, Kongruenz, Prisma, Zylinder, Pyramide, Vierecke, "
        "Symmetrie",
        "Analysis": "Ableitung, Ableitungen, Differentialrechnung, Integral, Integralrechnung, Kurvendiskussion, "
        "Extrempunkte, Wendepunkte, Grenzwert, Steigung, Stammfunktion",
        "Stochastik": "Wahrscheinlichkeit, Wahrscheinlichkeiten, Zufallsexperiment, Baumdiagramm, Baumdiagramme, "
        "Binomialverteilung, Erwartungswert, Kombinatorik, Hypothesentest, Normalverteilung, Vierfeldertafel",
        "Lineare Algebra": "Vektoren, Vektorrechnung, Matrizen, Geraden, Ebenen, Skalarprodukt",
    },
    "biologie": {
        "Zellbiologie": "Zelle, Zellen, Zellorganellen, Mitose, Meiose, Zellteilung, Zellmembran, Mikroskopieren, "
        "Mikroskop, Osmose, Diffusion, Pflanzenzelle, Tierzelle",
        "Genetik": "DNA, DNS, Vererbung, Mendelsche Regeln, Mendel, Mutation, Mutationen, Proteinbiosynthese, "
        "Gentechnik, Chromosomen, Erbgang, Erbgänge, Stammbaumanalyse",
        "Ökologie": "Ökosystem, Ökosysteme, Ökosystem Wald, Ökosystem See, Nahrungskette, Nahrungsnetz, "
        "Symbiose, Räuber-Beute-Beziehung, Population, Stoffkreislauf, Biotop, Nahrungsbeziehungen, "
        "Nahrungspyramide, Energiefluss",
        "Evolution": "Selektion, Artbildung, Darwin, Homologie, Analogie, Fossilien, Stammbaum, Evolutionstheorie",
        "Stoffwechsel": "Photosynthese, Fotosynthese, Zellatmung, Enzyme, Verdauung, Ernährung, Gärung",
        "Humanbiologie": "Nervenzelle, Nervensystem, Synapse, Aktionspotential, Hormone, Immunsystem, Herz, "
        "Blutkreislauf, Atmung, Skelett, Sinnesorgane, Auge, Ohr, Pubertät, Sexualerziehung",
        "Pflanzen und Tiere": "Pflanzen, Blüte, Blütenpflanzen, Wirbeltiere, Säugetiere, Vögel, Fische, Amphibien, "
        "Reptilien, Insekten, Haustiere, Nutztiere",
    },
    "deutsch": {
        "Lyrik": "Gedichtanalyse, Gedichtinterpretation, Gedicht, Gedichte, Metrum, Reimschema, Ballade, Balladen, "
        "Sonett, Stilmittel, rhetorische Mittel, Naturlyrik, Liebeslyrik",
        "Epik": "Kurzgeschichte, Kurzgeschichten, Novelle, Roman, Fabel, Fabeln, Märchen, Erzählung, "
        "Erzähltextanalyse, Parabel, Sage, Sagen, Jugendbuch",
        "Drama": "Drama, Dramenanalyse, Szenenanalyse, Tragödie, Komödie, Faust, Woyzeck",
        "Sprache und Grammatik": "Wortarten, Satzglieder, Kommasetzung, Zeitformen, Konjunktiv, Aktiv und Passiv, "
        "Nebensätze, Satzarten, das und dass",
        "Schreiben": "Erörterung, Argumentation, Inhaltsangabe, Bericht, Beschreibung, Personenbeschreibung, "
        "Sachtextanalyse, textgebundene Erörterung, Charakterisierung, Leserbrief, Protokoll, Zusammenfassung",
    },
    "geschichte": {
        "Antike": "Ägypten, Römer, Römisches Reich, Griechenland, Polis, Athen, Rom, Pharaonen, Demokratie in Athen",
        "Mittelalter": "Lehnswesen, Ständegesellschaft, Ritter, Burg, Kreuzzüge, Klöster, Stadt im Mittelalter, "
        "Hanse",
        "Frühe Neuzeit": "Reformation, Entdeckungen, Absolutismus, Aufklärung, Dreißigjähriger Krieg, Renaissance, "
        "Humanismus, Entdeckungsfahrten",
        "19. Jahrhundert": "Französische Revolution, Industrialisierung, industrielle Revolution, Revolution 1848, "
        "Kaiserreich, Reichsgründung, Imperialismus, Kolonialismus, Soziale Frage",
        "Zeitgeschichte": "Erster Weltkrieg, Weimarer Republik, Nationalsozialismus, Holocaust, Zweiter Weltkrieg, "
        "Kalter Krieg, DDR, Mauerfall, Wiedervereinigung, Teilung Deutschlands, Machtergreifung",
        "Methoden": "Quellenanalyse, Quelleninterpretation, Karikaturanalyse, Karikatur, Quellen",
    },
    "geographie": {
        "Physische Geographie": "Plattentektonik, Vulkane, Vulkanismus, Erdbeben, Gesteine, Gletscher, Wüste, "
        "Wüsten, Flüsse, Küsten, Erosion",
        "Klima": "Klima, Klimazonen, Klimadiagramm, Klimadiagramme, Wetter, Landschaftszonen, Vegetationszonen, "
        "tropischer Regenwald, Regenwald, Klimawandel, Treibhauseffekt, Passatkreislauf, Wasserkreislauf, Verdunstung, "
        "Niederschlag",
        "Humangeographie": "Stadtentwicklung, Verstädterung, Migration, Bevölkerungsentwicklung, "
        "Bevölkerungspyramide, Landwirtschaft, Tourismus, Globalisierung, Entwicklungsländer, Nachhaltigkeit, "
        "Strukturwandel, Ruhrgebiet",
        "Topographie": "Atlas, Maßstab, Kontinente, Ozeane, Gradnetz, Kartenarbeit, Himmelsrichtungen",
    },
    "chemie": {
        "Stoffe und Teilchen": "Stoffeigenschaften, Stoffgemische, Trennverfahren, Aggregatzustände, Teilchenmodell, "
        "Reinstoffe, Lösemittel",
        "Chemische Reaktion": "chemische Reaktion, chemische Reaktionen, Reaktionsgleichung, Reaktionsgleichungen, "
        "Verbrennung, Oxidation, Redoxreaktion, Redoxreaktionen, Katalysator, Energieumsatz",
        "Atombau und PSE": "Atombau, Periodensystem, PSE, Elektronenkonfiguration, Ionen, Ionenbindung, "
        "Atombindung, Elektronenpaarbindung, Metallbindung, Schalenmodell, Isotope, Elektronegativität",
        "Säuren und Basen": "Säuren und Basen, Säuren, Säure, Basen, Laugen, pH-Wert, Neutralisation, Titration, "
        "Salze",
        "Organische Chemie": "Alkane, Alkene, Alkine, Alkohole, Alkanole, Carbonsäuren, Ester, Kohlenwasserstoffe, "
        "Kunststoffe, Fette, homologe Reihe",
        "Elektrochemie": "galvanische Zelle, Elektrolyse, Batterien, Akkus, Korrosion, Brennstoffzelle",
        "Stöchiometrie": "Stoffmenge, molare Masse, Mol, Konzentration",
    },
    "englisch": {
        "Grammar": "Simple Past, Simple Present, Present Perfect, Past Perfect, Present Progressive, Past "
        "Progressive, will-future, going-to-future, If-Clauses, Conditional Sentences, Reported Speech, Indirect "
        "Speech, Passive Voice, Relative Clauses, Gerund, Question Tags, Adverbs, Tenses",
        "Vocabulary": "Vocabulary, Vokabeln, Phrasal Verbs",
        "Writing": "Summary, Comment, Letter of Application, Email, Mediation, Creative Writing, Short Story, "
        "Text Analysis",
        "Landeskunde": "USA, Great Britain, London, New York, Australia, Ireland, India, Commonwealth, Civil Rights "
        "Movement, American Dream",
        "Literature": "Shakespeare, Romeo and Juliet, Macbeth, Poetry",
    },
}
