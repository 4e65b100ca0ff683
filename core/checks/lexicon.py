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
_OPERATORS = (
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
OPERATOR_WORDS = _stems(_OPERATORS)
OPERATOR_FORMS = frozenset(_OPERATORS.split())  # the operators as written (folded), not stemmed

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
    setze auseinander halte fest festhalten schriftlich erkenntnis erkenntnisse notiere notieren stichpunkt
    stichpunkte stichwort stichworte stichpunktartig faellt einfallen beschaeftige beschaeftigen bearbeite bearbeiten
    folgende folgenden aufgabe frage fragen antwort antworten beantworte schreibe text texte beruecksichtige
    beruecksichtigen dabei worum geht gehen uebersichtlich uebersicht darlegen zusammenhaengend alles wissenswerte
    biologie chemie physik mathematik mathe geschichte geographie geografie erdkunde deutsch englisch fach faches
    schulfach interessant interessante spannend spannende
    short text texts include most points everything know learned learnt think about something things write
    importance important meaning example examples own chosen features feature main key topic topics aspects
    aspect role significance young people today life everyday term terms concept concepts idea ideas nowadays
    modern society world words
    """
)

# Operator classes: operators that ask for the same kind of work ('Nenne' ~ 'Gib … an', 'Erkläre' ~ 'Begründe').
# Two tasks of one class on the same thing are the same demand, whatever synonym they use.
_CLASSES = {
    "nennen": "nennen nenne nenn angeben benennen benenne bezeichnen bezeichne aufzaehlen zaehle name state list "
              "give identify",
    "beschreiben": "beschreiben beschreibe darstellen wiedergeben zusammenfassen fasse verfolge verfolgen describe "
                   "outline summarise summarize",
    "berechnen": "berechnen berechne bestimmen bestimme ermitteln ermittle ermittele loesen loese addiere addieren "
                 "subtrahiere subtrahieren multipliziere multiplizieren dividiere dividieren rechne calculate "
                 "determine",
    "erklaeren": "erklaeren erklaere erklaer erlaeutern erlaeutere begruenden begruende explain",
    "aufstellen": "aufstellen formulieren formuliere",
    "zuordnen": "zuordnen ordne einordnen match assign",
    "analysieren": "analysieren analysiere untersuchen untersuche auswerten werte herausarbeiten arbeite analyse "
                   "analyze examine",
    "vergleichen": "vergleichen vergleiche compare contrast",
    "interpretieren": "interpretieren interpretiere deuten deute interpret",
    "beurteilen": "beurteilen beurteile bewerten bewerte eroertern eroertere diskutieren diskutiere pruefen pruefe "
                  "ueberpruefen ueberpruefe evaluate assess discuss comment",
    "gestalten": "entwickeln entwickle entwickele planen plane gestalten gestalte verfassen verfasse schreiben "
                 "schreibe write create design",
    "skizzieren": "skizzieren skizziere zeichnen zeichne draw sketch",
    "uebertragen": "uebersetzen uebersetze uebertragen uebertrage translate put",
}
OPERATOR_CLASSES = {w: c for c, words in _CLASSES.items() for w in words.split()}
# Separable operators: 'Stelle … dar' describes, 'Stelle … auf' formulates, 'Gib … an' names, 'Gib … wieder' retells.
SEPARABLE = {("stelle", "dar"): "beschreiben", ("stell", "dar"): "beschreiben", ("stelle", "auf"): "aufstellen",
             ("gib", "an"): "nennen", ("gib", "wieder"): "beschreiben", ("ordne", "zu"): "zuordnen",
             ("ordne", "ein"): "zuordnen", ("werte", "aus"): "analysieren", ("arbeite", "heraus"): "analysieren",
             ("fasse", "zusammen"): "beschreiben", ("nimm", "stellung"): "beurteilen"}
# Words of task language that mean the same in a demand ('Ursachen' ~ 'Gründe'), one group a line, the first word
# names the group. About how tasks ask, in any subject — never a subject's content.
_DEMAND_GROUPS = """
ursache grund gruende ursachen ausloeser anlass
folgen auswirkungen konsequenzen wirkungen
durchschnitt mittlere mittleren mittel durchschnittlich
summe addieren addiere
differenz subtrahieren subtrahiere
produkt multiplizieren multipliziere
quotient dividieren dividiere
friend pal
aufgabe funktion funktionen aufgaben
entstehung entstehen entsteht entstanden bildung
publikum zuhoerer zuhoererinnen adressaten leser audience
rhetorische sprachliche stilmittel stilistische
komma kommas kommata
reduziert gesenkt reduzierung senkung preisnachlass rabatt ermaessigt
stoffmenge mol
landesinnere binnenland inland
lebensbedingungen lebensverhaeltnisse lebten lebensweise
veraenderung wandel aenderung
vorteile nutzen
nachteile risiken
unterschiede unterscheiden unterscheidet
gemeinsamkeiten gemeinsam
nachkommen tochtergeneration f1 f1-generation
genotyp erbbild genotypen
phaenotyp erscheinungsbild phaenotypen
kosten preis
neu neuen neuer jetzt aktuell
artikel art
reihenfolge nacheinander abfolge order
bevoelkerung menschen leute einwohner population people
significant important importance significance
reasons why
"""
DEMAND_SYNONYMS = {stem(w): stem(line.split()[0]) for line in _DEMAND_GROUPS.strip().splitlines() for w in line.split()}
# Words that add nothing to what a task demands ('in der richtigen Reihenfolge', 'the following sentences').
_FILLERS = """richtig richtige richtigen folgend folgende folgenden following genau genaue kurz kurze knapp jeweils
    einzeln einzelnen"""
DEMAND_FILLERS = frozenset(stem(w) for w in _FILLERS.split())
# Question words that carry a task's operator when it has none: 'Warum …?' explains, 'Wie viel …?' calculates.
QUESTION_CLASSES = {"warum": "erklaeren", "weshalb": "erklaeren", "wieso": "erklaeren", "why": "erklaeren",
                    "viel": "berechnen", "viele": "berechnen", "gross": "berechnen", "lange": "berechnen",
                    "weit": "berechnen", "much": "berechnen", "many": "berechnen", "welche": "nennen",
                    "welcher": "nennen", "welches": "nennen", "which": "nennen", "what": "nennen"}

# Frame words that name subject matter where a topic is titled with them ("Lineare Funktionen", "Terme und
# Gleichungen"): kept for that Fach's topic matching, still frame words for the filler check.
SUBJECT_FRAME_WORDS = _stems("funktion funktionen term terme kuerzen")

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
