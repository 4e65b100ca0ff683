"""Word lists of the content checks: operator verbs, the generic frames of content-free tasks, generic criteria.

A task's substance is what is left after removing these, stopwords and the topic's own name. The lists are about
how tasks are phrased in any subject; they never name a subject's content.
"""

from __future__ import annotations

from functools import cache

from core.language.text import stem


def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in text.split())


# Operators (German infinitive and imperative forms, English) and the verbs that carry a task's frame.
OPERATOR_WORDS = _stems(
    """
    nennen nenne nenn angeben gib gebe an benennen benenne bezeichnen bezeichne beschreiben beschreibe darstellen
    stelle stell dar wiedergeben gib wieder zusammenfassen fasse zusammen skizzieren skizziere zeichnen zeichne
    berechnen berechne bestimmen bestimme ermitteln ermittle ermittele loesen loese erklaeren erklaere erlaeutern
    erlaeutere analysieren analysiere untersuchen untersuche vergleichen vergleiche einordnen ordne ein zuordnen
    ordne zu herausarbeiten arbeite heraus charakterisieren charakterisiere auswerten werte aus deuten deute
    interpretieren interpretiere begruenden begruende beurteilen beurteile bewerten bewerte eroertern eroertere
    diskutieren diskutiere pruefen pruefe ueberpruefen ueberpruefe entwickeln entwickle entwickele planen plane
    gestalten gestalte verfassen verfasse schreiben schreibe formulieren formuliere nehmen nimm stellung
    auseinandersetzen setze auseinander herleiten leite her nachweisen weise nach beweisen beweise widerlegen
    widerlege zeigen zeige gehen gehe ein eingehen beachte beachten belege belegen erstelle erstellen fuehre durch
    verwende verwenden nutze nutzen stelle dar beantworte beantworten erkläre ergänze ergaenze ergaenzen
    name state describe outline summarise summarize complete explain analyse analyze examine compare contrast
    characterise characterize illustrate point out comment discuss evaluate assess justify interpret write
    give list identify define present consider
    """
)

# The frames of content-free tasks: what remains when a template only wraps the topic name.
FRAME_WORDS = _stems(
    """
    was man unter versteht verstehen verstanden bedeutet bedeutung beispiel beispiele beispielen selbst gewaehlten
    gewaehltes gewaehlt eigenes eigenen eigene merkmal merkmale merkmalen wesentlich wesentliche wesentlichen
    thema themas themen thematik zum zur bereich aspekt aspekte aspekten begriff begriffe definition
    definieren definiere rolle zusammenhang zusammenhaenge wichtig wichtige wichtigen wichtigsten zentral zentrale
    zentralen grundlagen grundlage ueberblick kernaussage kernaussagen sachproblem sachproblemen probleme problem
    loesen alltag alltags alltaeglich heute heutige heutigen gesellschaft menschen leben vorteile nachteile
    chancen risiken kurz knapp ausfuehrlich moeglichst einfach eigenen worten worte funktion anwendung anwendungen
    relevanz nutzen spielt spielen welt ein einen einer eines zwei drei vier fuenf sechs mindestens jeweils
    fachlich fachbegriffe
    fachbegriff sachverhalt sachverhalte inhalt inhalte hinblick bezug unterricht gelernt gelernten kenntnisse
    wissen
    importance important meaning example examples own chosen features feature main key topic topics aspects
    aspect role significance young people today life everyday term terms concept concepts idea ideas nowadays
    modern society world words
    """
)

# Words of generic Erwartungshorizont criteria that fit any task in any subject.
RUBRIC_WORDS = FRAME_WORDS | _stems(
    """
    fachsprache fachlich zutreffend zutreffende korrekt korrekte richtig richtige sachlich sachgerecht angemessen
    angemessene nachvollziehbar schluessig schluessige begruendet begruendete begruendung urteil urteils eigenes
    abwaegung abwaegen waegt gesichtspunkte gesichtspunkt argument argumente gegenargument gegenargumente
    grenze grenzen regel gesetzmaessigkeit ursache ursachen passend passende passendes konkret konkretes konkrete
    darstellung stellt dar verwendet verwendung vollstaendig vollstaendige strukturiert struktur gegliedert
    gliederung sprachlich sprachliche schluss folgt folgerung ergebnis ergebnisse ausgewogen dargestellt
    werten wertet ohne bzw beziehungsweise wendet erklaerung schlues benennt ausdruecklich zugrunde liegende
    mindestens nennt beschreibt erlaeutert erklaert beurteilt bewertet formuliert waehlt gibt stellt nimmt
    kommt vergleicht ordnet zeigt darauf anhand veranschaulichen veranschaulicht belegen belegt fuehrt aus
    ziehen zieht fazit legt fest festlegen kriteriengeleitet kriteriengeleitetes gemeinsamkeiten unterschiede
    vergleichskriterien geeignete bezeichnet position sprachliche leistung verstaendlich formuliert weitgehend
    wortschatz fakten zusammenhaengen haengen erkennbar erkennt sinnvoll sinnvolle treffend treffende plausibel
    plausible darlegung legt dar aussage aussagen genannt genannten beide folgen
    einleitung hauptteil hinfuehrung fuehrt hin entfaltet entfalten ueberleitung aufbau argumentation argumentiert
    uses correct correctly appropriate appropriately coherent clear clearly structured language relevant
    argument arguments opinion conclusion reasons reasoned well
    """
)


@cache
def operator_stems(extra: tuple[str, ...] = ()) -> frozenset[str]:
    """OPERATOR_WORDS plus the stems of a Fach's own operator list (which may hold multi-word operators)."""
    return OPERATOR_WORDS | frozenset(stem(w) for op in extra for w in op.split())
