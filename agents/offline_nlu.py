"""German language understanding for the offline rule model: what exactly does the teacher ask for?
Pure, deterministic, linear-time functions — no database, no network, no pydantic_ai."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal, cast

from agents import offline_english as english
from agents import offline_topics as topics
from core.language import spelling
from core.language.dauer import DAUER_MAX, DAUER_MIN, NUMBER_WORDS, SCHULSTUNDE_MINUTEN, non_overlapping, parse_dauer
from core.language.fold import fold, fold_with_map
from core.language.fold import key as fold_key
from core.language.fold import prepare as fold_prepare
from core.language.fold import stem as fold_stem
from core.language.klasse import (
    CARDINAL_WORDS,
    KLASSENSTUFE_MAX,
    KLASSENSTUFE_MIN,
    OBERSTUFE_DEFAULT,
    ORDINAL_WORDS,
    Niveau,
    parse_klasse,
)

# How it works, in short: the text is cleaned (HTML, dashes, whitespace), folded (lower case, ä -> ae, ß -> ss,
# accents dropped) with a map back to the original characters, and tokenised. Numeric facts (Klasse, Dauer, AFB,
# Aufgabenanzahl) come from small anchored regexes on the folded text; subjects, topic areas, material words and
# topic terms come from dictionary look-ups per token. Whatever is left — minus filler words — is the Thema.
# Every regex is anchored on a literal or bounded, and every token loop looks at most a fixed window around
# a token, so a 50 000-character paste costs milliseconds, never a catastrophic backtrack.

FACH_KEYS = ("physik", "biologie", "deutsch", "mathematik", "geschichte", "geographie", "englisch", "chemie")

FACH_NAMEN = {
    "physik": "Physik", "biologie": "Biologie", "deutsch": "Deutsch", "mathematik": "Mathematik",
    "geschichte": "Geschichte", "geographie": "Geographie", "englisch": "Englisch", "chemie": "Chemie",
}

AfbLevel = Literal["I", "II", "III"]
MaterialType = Literal["klausur", "differenzierung", "h5p"]
FachSource = Literal["explicit", "area", "topic"]
FeedbackKind = Literal["positive", "negative"]
FeedbackAspect = Literal[
    "gesamt", "schwierigkeit_zu_hoch", "schwierigkeit_zu_niedrig", "laenge_zu_lang", "laenge_zu_kurz", "format"
]
TopicTerms = Mapping[str, Mapping[str, Sequence[str]]]

AUFGABEN_MIN, AUFGABEN_MAX = 1, 30
THEMA_MAX_CHARS = 80

FIELDS_IN_ASKING_ORDER = ("fach", "klassenstufe", "thema", "dauer_minuten", "material_type")


@dataclass(frozen=True)
class AfbWish:
    """One task the teacher wants on a given Anforderungsbereich ("eine Aufgabe Induktion als AFB III")."""

    thema: str
    afb: AfbLevel


@dataclass(frozen=True)
class Extraction:
    """What one message (or, after `merge`, a whole conversation) says about the requested material."""

    fach: str | None = None
    fach_hint: str | None = None
    klassenstufe: int | None = None
    klasse: str | None = None
    thema: str | None = None
    dauer_minuten: int | None = None
    material_type: MaterialType | None = None
    afb_verteilung: tuple[int, int, int] | None = None
    afb_wishes: tuple[AfbWish, ...] = ()
    aufgaben_anzahl: int | None = None
    problems: tuple[str, ...] = ()
    unterthemen: tuple[str, ...] = ()
    niveau: Niveau | None = None
    # How sure the Fach is: named ("Physik"), implied by a topic area ("E-Lehre") or guessed from topic words
    # ("Stromkreise"). `merge` lets a guess never overwrite a named Fach. Not part of equality.
    fach_source: FachSource | None = field(default=None, compare=False)
    # The teacher's words for a named topic area ("Optik") and whether it is a broad subject area that still needs
    # a Schwerpunkt ("Optik", "E-Lehre") rather than a unit that is a topic ("Atombau und Periodensystem").
    area_text: str | None = field(default=None, compare=False)
    area_broad: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Feedback:
    """A teacher's reaction to a generated material. `negative` means "change something"."""

    kind: FeedbackKind
    aspect: FeedbackAspect
    text: str


def _words(text: str) -> frozenset[str]:
    """A word list written as one string (easier to read and extend than a list of quoted words)."""
    return frozenset(text.split())


# ---------------------------------------------------------------------------------------------------------------
# Text preparation and folding
# ---------------------------------------------------------------------------------------------------------------

def _prepare(text: str | None) -> str:
    return fold_prepare(text)


_fold = fold
_fold_with_map = fold_with_map
_key = fold_key
_stem = fold_stem


_CHUNK_RE = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
_PART_RE = re.compile(r"[^\W_]+")
_HARD_GAP_RE = re.compile(r"[.!?;:\n()\[\]{}\"]|[^\x00-\x7f\s]")  # sentence punctuation, emoji and symbols


@dataclass(slots=True)
class _Tok:
    fold: str
    key: str
    stem: str
    start: int  # in folded coordinates
    end: int
    orig: str
    ostart: int  # in original coordinates
    oend: int
    cap: bool
    in_compound: bool  # a part of a split hyphen word ("H5P-Quiz" -> "H5P", "Quiz")
    brk: int = 0  # what separates it from the previous token: 0 nothing, 1 comma-like, 2 sentence-like
    consumed: bool = False  # already explained by another extractor (class, duration, material, subject …)
    area: bool = False  # a topic-area word ("Optik"): not a Thema unless named with "Thema …"
    vocab: bool = False  # a known topic term


class _Doc:
    def __init__(self, text: str | None, hyphen_words: frozenset[str]) -> None:
        self.text = _prepare(text)
        self.fold, self._index = _fold_with_map(self.text)
        has_upper = any(c.isupper() for c in self.text)
        has_lower = any(c.islower() for c in self.text)
        self.mixed_case = has_upper and has_lower
        self.all_upper = has_upper and not has_lower
        self.tokens: list[_Tok] = []
        self._tokenize(hyphen_words)

    def ospan(self, start: int, end: int) -> tuple[int, int]:
        if self._index is None:
            return start, end
        return self._index[start], self._index[end - 1] + 1

    def _add(self, start: int, end: int, in_compound: bool) -> None:
        os_, oe = self.ospan(start, end)
        orig = self.text[os_:oe]
        fold = self.fold[start:end]
        self.tokens.append(
            _Tok(fold=fold, key=_key(fold), stem=_stem(fold), start=start, end=end, orig=orig, ostart=os_, oend=oe,
                 cap=orig[:1].isupper(), in_compound=in_compound)
        )

    def _tokenize(self, hyphen_words: frozenset[str]) -> None:
        for m in _CHUNK_RE.finditer(self.fold):
            chunk = m.group()
            if "-" not in chunk or chunk in hyphen_words:
                self._add(m.start(), m.end(), False)
                continue
            parts = [(p.start() + m.start(), p.end() + m.start()) for p in _PART_RE.finditer(chunk)][:12]
            i = 0
            while i < len(parts):
                for j in range(len(parts), i + 1, -1):  # keep known hyphen words whole: "E-Lehre-Klausur"
                    if self.fold[parts[i][0]:parts[j - 1][1]] in hyphen_words:
                        self._add(parts[i][0], parts[j - 1][1], False)
                        i = j
                        break
                else:
                    self._add(parts[i][0], parts[i][1], True)
                    i += 1
        prev_end = 0
        for tok in self.tokens:
            gap = self.fold[prev_end:tok.start]
            if gap and gap != " ":
                if _HARD_GAP_RE.search(gap):
                    tok.brk = 2
                elif "," in gap or " - " in gap or "/" in gap:
                    tok.brk = 1
            prev_end = tok.end

    def consume_spans(self, spans: list[tuple[int, int]]) -> None:
        if not spans:
            return
        spans = sorted(spans)
        k = 0
        for tok in self.tokens:
            while k < len(spans) and spans[k][1] <= tok.start:
                k += 1
            j = k
            while j < len(spans) and spans[j][0] < tok.end:
                if spans[j][1] > tok.start:
                    tok.consumed = True
                    break
                j += 1


# ---------------------------------------------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------------------------------------------

# Subject words (exact, folded). Abbreviations of one or two letters additionally need a capital letter and must
# stand alone ("Ma", "E"), so "ma" for "mal" and the "E" in "E-Lehre"/"E-Kurs" do not count.
_SUBJECTS: dict[str, str] = {
    "physik": "physik", "phy": "physik", "phys": "physik", "ph": "physik",
    "mathematik": "mathematik", "mathe": "mathematik", "math": "mathematik", "ma": "mathematik",
    "biologie": "biologie", "bio": "biologie", "bi": "biologie",
    "deutsch": "deutsch", "deu": "deutsch",
    "englisch": "englisch", "engl": "englisch", "english": "englisch", "e": "englisch",
    "chemie": "chemie", "ch": "chemie",
    "geschichte": "geschichte", "gesch": "geschichte", "ge": "geschichte",
    "geographie": "geographie", "geografie": "geographie", "erdkunde": "geographie", "geo": "geographie",
    "ek": "geographie",
}
# Heads of compounds like "Physikklausur", "Mathearbeit", "Geschichtstest", "Physiklehrerin".
_SUBJECT_HEADS: dict[str, str] = {
    "physik": "physik", "mathe": "mathematik", "mathematik": "mathematik", "bio": "biologie",
    "biologie": "biologie", "deutsch": "deutsch", "englisch": "englisch", "chemie": "chemie",
    "geschichts": "geschichte", "geschichte": "geschichte", "erdkunde": "geographie", "geo": "geographie",
    "geographie": "geographie", "geografie": "geographie",
}
_SUBJECT_COMPOUND_TAILS = (
    "klassenarbeiten", "klassenarbeit", "klausuren", "klausur", "arbeiten", "arbeit", "tests", "test", "quiz",
    "lehrerin", "lehrer", "unterricht", "stunden", "stunde", "kurs", "buch", "heft", "aufgaben",
)
_LANGUAGE_SUBJECTS = {"englischen": "englisch", "deutschen": "deutsch"}
_NOT_ENGLISCH_BEFORE = _words("vitamin note kurs niveau typ gruppe punkt seite anlage teil stufe abb abbildung tabelle")
_UNSUPPORTED_SUBJECTS: dict[str, str] = {
    "informatik": "Informatik", "kunst": "Kunst", "musik": "Musik", "sport": "Sport", "religion": "Religion",
    "ethik": "Ethik", "politik": "Politik", "sozialkunde": "Sozialkunde", "franzoesisch": "Französisch",
    "latein": "Latein", "spanisch": "Spanisch", "italienisch": "Italienisch", "russisch": "Russisch",
    "wirtschaft": "Wirtschaft", "philosophie": "Philosophie", "sachunterricht": "Sachunterricht",
    "sachkunde": "Sachkunde", "gesellschaftslehre": "Gesellschaftslehre", "sowi": "Sozialwissenschaften",
    "sozialwissenschaften": "Sozialwissenschaften", "paedagogik": "Pädagogik", "psychologie": "Psychologie",
    "werken": "Werken", "technik": "Technik",
}

# Topic-area words: they imply Fach and area (fach_hint) but are no Schwerpunkt on their own.
_AREA_ALIASES: dict[str, tuple[str, str]] = {
    "E-Lehre": ("physik", "Elektrizitätslehre"), "Elektrizitätslehre": ("physik", "Elektrizitätslehre"),
    "Elektrik": ("physik", "Elektrizitätslehre"), "Elektrizität": ("physik", "Elektrizitätslehre"),
    "Elektrostatik": ("physik", "Elektrizitätslehre"), "Elektrodynamik": ("physik", "Elektrizitätslehre"),
    "Elektronik": ("physik", "Elektrizitätslehre"), "Magnetismus": ("physik", "Magnetismus"),
    "Mechanik": ("physik", "Mechanik"), "Kinematik": ("physik", "Mechanik"), "Dynamik": ("physik", "Mechanik"),
    "Optik": ("physik", "Optik"), "Strahlenoptik": ("physik", "Optik"), "Wellenoptik": ("physik", "Optik"),
    "Thermodynamik": ("physik", "Wärmelehre"), "Wärmelehre": ("physik", "Wärmelehre"),
    "Akustik": ("physik", "Akustik"), "Kernphysik": ("physik", "Atom- und Kernphysik"),
    "Atomphysik": ("physik", "Atom- und Kernphysik"), "Quantenphysik": ("physik", "Quantenphysik"),
    "Astronomie": ("physik", "Astronomie"), "Astrophysik": ("physik", "Astronomie"),
    "Analysis": ("mathematik", "Analysis"), "Stochastik": ("mathematik", "Stochastik"),
    "Wahrscheinlichkeitsrechnung": ("mathematik", "Stochastik"), "Statistik": ("mathematik", "Stochastik"),
    "Geometrie": ("mathematik", "Geometrie"), "Algebra": ("mathematik", "Algebra"),
    "Lineare Algebra": ("mathematik", "Lineare Algebra"), "Analytische Geometrie": ("mathematik", "Lineare Algebra"),
    "Arithmetik": ("mathematik", "Arithmetik"),
    "Genetik": ("biologie", "Genetik"), "Ökologie": ("biologie", "Ökologie"), "Evolution": ("biologie", "Evolution"),
    "Evolutionsbiologie": ("biologie", "Evolution"), "Zellbiologie": ("biologie", "Zellbiologie"),
    "Cytologie": ("biologie", "Zellbiologie"), "Zytologie": ("biologie", "Zellbiologie"),
    "Neurobiologie": ("biologie", "Neurobiologie"), "Immunbiologie": ("biologie", "Humanbiologie"),
    "Stoffwechsel": ("biologie", "Stoffwechsel"), "Stoffwechselphysiologie": ("biologie", "Stoffwechsel"),
    "Humanbiologie": ("biologie", "Humanbiologie"), "Botanik": ("biologie", "Pflanzen und Tiere"),
    "Zoologie": ("biologie", "Pflanzen und Tiere"), "Verhaltensbiologie": ("biologie", "Verhaltensbiologie"),
    "Lyrik": ("deutsch", "Lyrik"), "Epik": ("deutsch", "Epik"), "Dramatik": ("deutsch", "Drama"),
    "Grammatik": ("deutsch", "Sprache und Grammatik"), "Sprachbetrachtung": ("deutsch", "Sprache und Grammatik"),
    "Rechtschreibung": ("deutsch", "Rechtschreibung"),
    "Antike": ("geschichte", "Antike"), "Mittelalter": ("geschichte", "Mittelalter"),
    "Neuzeit": ("geschichte", "Frühe Neuzeit"), "Frühe Neuzeit": ("geschichte", "Frühe Neuzeit"),
    "Zeitgeschichte": ("geschichte", "Zeitgeschichte"), "Urgeschichte": ("geschichte", "Urgeschichte"),
    "Physische Geographie": ("geographie", "Physische Geographie"),
    "Humangeographie": ("geographie", "Humangeographie"), "Klimageographie": ("geographie", "Klima"),
    "Stadtgeographie": ("geographie", "Stadt"), "Wirtschaftsgeographie": ("geographie", "Wirtschaft"),
    "Geomorphologie": ("geographie", "Physische Geographie"), "Topographie": ("geographie", "Topographie"),
    "Organische Chemie": ("chemie", "Organische Chemie"), "Anorganische Chemie": ("chemie", "Anorganische Chemie"),
    "Elektrochemie": ("chemie", "Elektrochemie"), "Stöchiometrie": ("chemie", "Stöchiometrie"),
    "Physikalische Chemie": ("chemie", "Physikalische Chemie"), "Analytische Chemie": ("chemie", "Analytik"),
    "Grammar": ("englisch", "Grammar"), "Literature": ("englisch", "Literature"),
}
# Broad subject areas (as stem tuples): named alone they are no Schwerpunkt yet ("Klausur Optik").
_BROAD_AREAS = frozenset(
    tuple(_stem(m.group()) for m in _CHUNK_RE.finditer(_fold(alias))) for alias in _AREA_ALIASES
)

# Compact built-in topic vocabulary: fach -> area -> comma-separated terms. Seeded profiles (topic_terms) win.
_BUILTIN_TOPICS: dict[str, dict[str, str]] = {
    "physik": {
        "Elektrizitätslehre": "Stromkreis, Stromkreise, Stromstärke, Spannung, Widerstand, Ohmsches Gesetz, "
        "Reihenschaltung, Parallelschaltung, Kirchhoffsche Regeln, elektrische Ladung, elektrisches Feld, E-Feld, "
        "Kondensator, Induktion, elektromagnetische Induktion, Elektromagnet, Elektromotor, Transformator, "
        "Generator, Magnetfeld, Lorentzkraft, elektrische Leistung, Elektronen, Strom",
        "Mechanik": "Geschwindigkeit, Beschleunigung, Kraft, Kräfte, Newtonsche Gesetze, Impuls, Energieerhaltung, "
        "Reibung, Hebel, Hebelgesetz, freier Fall, waagerechter Wurf, Kreisbewegung, mechanische Arbeit, "
        "Auftrieb, Dichte, Schwerkraft, Gravitation, Energie, Leistung",
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
        "Symbiose, Räuber-Beute-Beziehung, Population, Stoffkreislauf, Biotop",
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
        "tropischer Regenwald, Regenwald, Klimawandel, Treibhauseffekt, Passatkreislauf",
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


@dataclass(frozen=True, slots=True)
class _Entry:
    display: str
    fach: str
    feld: str
    kind: Literal["area", "topic"]
    from_profile: bool
    words: tuple[str, ...]  # stems


@dataclass
class _Vocab:
    stem_idx: dict[str, list[_Entry]] = field(default_factory=dict)
    prefix_idx: dict[str, list[_Entry]] = field(default_factory=dict)
    hyphen_words: set[str] = field(default_factory=set)
    display: dict[str, str] = field(default_factory=dict)  # folded term -> its spelling
    by_stems: dict[tuple[str, ...], list[_Entry]] = field(default_factory=dict)
    felder: dict[str, list[str]] = field(default_factory=dict)  # fach -> profile area names

    def add(self, term: str, fach: str, feld: str, kind: Literal["area", "topic"], from_profile: bool) -> None:
        folded = _fold(_prepare(term))
        chunks = [m.group() for m in _CHUNK_RE.finditer(folded)]
        if not chunks:
            return
        self.hyphen_words.update(c for c in chunks if "-" in c)
        words = tuple(_stem(c) for c in chunks)
        entry = _Entry(display=term.strip(), fach=fach, feld=feld, kind=kind, from_profile=from_profile, words=words)
        self.stem_idx.setdefault(words[0], []).append(entry)
        self.by_stems.setdefault(words, []).append(entry)
        if kind == "topic" and len(words) == 1 and len(words[0]) >= 5:
            self.prefix_idx.setdefault(words[0], []).append(entry)
        if from_profile or " ".join(chunks) not in self.display:
            self.display[" ".join(chunks)] = term.strip()


def _build_vocab(profile: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...]) -> _Vocab:
    vocab = _Vocab()
    for alias, (fach, feld) in _AREA_ALIASES.items():
        vocab.add(alias, fach, feld, "area", False)
    for fach, felder in _BUILTIN_TOPICS.items():
        for feld, terms in felder.items():
            for term in terms.split(","):
                if term.strip():
                    vocab.add(term, fach, feld, "topic", False)
    for fach, felder in profile:
        for feld, terms in felder:
            vocab.felder.setdefault(fach, []).append(feld)
            vocab.add(feld, fach, feld, "area", True)
            for term in terms:
                vocab.add(term, fach, feld, "topic", True)
    return vocab


@lru_cache(maxsize=16)
def _cached_vocab(profile: tuple) -> tuple[_Vocab, frozenset[str]]:
    vocab = _build_vocab(profile)
    return vocab, frozenset(vocab.hyphen_words)


def _vocab_for(topic_terms: TopicTerms | None) -> tuple[_Vocab, frozenset[str]]:
    profile: list = []
    for fach, felder in (topic_terms or {}).items():
        fach_key = _fold(str(fach)).strip()
        if fach_key not in FACH_KEYS or not isinstance(felder, Mapping):
            continue
        items = []
        for feld, terms in felder.items():
            if isinstance(terms, str):
                terms = [terms]
            items.append((str(feld), tuple(str(t) for t in terms if str(t).strip())))
        profile.append((fach_key, tuple(items)))
    return _cached_vocab(tuple(profile))


# ---------------------------------------------------------------------------------------------------------------
# Word lists for the Thema
# ---------------------------------------------------------------------------------------------------------------

_STOP = _words("""
    a ab aber all alle allem allen aller alles also als am an auch auf aus bei beim bis bitte bzw da dabei dafuer
    dann darf das dass dazu dein deine dem den denn der des dessen dich die dies diese diesem diesen dieser dieses
    diesmal doch dort du durch eben eher ein eine einem einen einer eines einfach einige einmal er es etwa etwas
    euch euer fuer gegen gern gerne gleich ganz gar genau hier ich ihm ihn ihnen ihr ihre im in ins irgendwie ist ja
    je jede jeden jeder jedes jetzt kein keine keinem keinen keiner man mal manchmal mehr mein meine meinem meinen
    meiner mich mir mit moeglichst n nach ne nen nein nicht noch nochmal nun nur ob oder ohne per pro schon sehr
    sein seine sich sie so sodass solch sondern sowie statt um und uns unser unsere unserem unseren unserer unter
    viel viele vom von vor vorher wann war waren warum was weil welche welchem welchen welcher welches wenn wer wie
    wieder wir wo wohl zu zum zur zwar zwischen
    brauche braeuchte brauchen brauchst benoetige benoetigen moechte moechten moechtest will willst wollen wuerde
    wuerden wuerdest haette haetten haettest habe haben hast hat hatte kannst kann koennen koenntest koennte
    muss muessen musst soll sollen sollte sollten wird werden wurde wirst mach mache machen machst macht erstelle
    erstellen erstellst erstell erstellt generiere generieren generier schreibe schreiben schreib schreibst
    entwirf entwerfen entwickle entwickeln plane planen gib geben gibst schick schicke schicken liefere liefern
    erzeuge erzeugen baue bauen bereite vorbereiten suche suchen helfen hilf hilfst geht gehen gehe lass lassen
    tun bekomme bekommen kriege kriegen waere sind bin bist seid nehmen nimm nutze nutzen verwenden verwende
    behandeln behandelt behandle durchnehmen durchgenommen wiederholen ueben lernen lernt unterrichte unterrichten
    unterrichtet danke dank hallo hi hey moin servus tag guten liebe lieber liebes gruss gruesse lg vg vielen
    bitteschoen okay ok prima super toll
    heute morgen gestern uebermorgen gerade bald demnaechst naechste naechsten naechster naechstes kommende
    letzte letzten letzter letztes vergangene vergangenen vergangenes
    kommenden anstehende anstehenden diese woche wochen montag dienstag mittwoch donnerstag freitag
    neue neuen neues neuer kurze kurzen kurzes kleine kleinen kleines einfache einfachen leichte leichten schwere
    schweren schwierige anspruchsvolle anspruchsvollen gute guten schoene schoenen passende passenden
    schwer leicht lang lange kurz schnell hoch niedrig wenig wenige weniger insgesamt ca circa ungefaehr maximal
    mindestens hoechstens zirka etwa immer grundsaetzlich generell stets
    eins zwei drei vier fuenf sechs sieben acht neun zehn elf zwoelf
    """)
_META = _words("""
    klasse klassen klassenstufe jahrgang jahrgangsstufe stufe lerngruppe gruppe kurs leistungskurs grundkurs lk gk
    schueler schuelerinnen schuelern sus lernende lernenden kinder jugendliche lehrer lehrerin lehrkraft kollege
    kollegin referendar referendarin frau herr
    aufgabe aufgaben teilaufgabe teilaufgaben frage fragen quizfragen item items material materialien unterricht
    unterrichtsstunde stunde stunden doppelstunde einzelstunde thema themen themenbereich themenfeld schwerpunkt
    schwerpunkte inhalt inhalte afb anforderungsbereich anforderungsbereiche niveau niveaus niveaustufen loesung
    loesungen musterloesung erwartungshorizont punkte punkten bewertung noten notenschluessel hilfe hilfen
    hilfekarten tipps vorschlag vorschlaege idee ideen entwurf version variante bereich fach faecher minuten min
    zeit dauer prozent bonusaufgabe zusatzaufgabe vorbereitung wiederholung einstieg einfuehrung uebung uebungen
    festigung sicherung vertiefung ueberblick grundlagen abschluss vorlage format layout beispiel beispiele
    schule gymnasium realschule gesamtschule hauptschule oberschule gemeinschaftsschule sekundarschule
    stadtteilschule mittelschule grundschule berufsschule schuljahr halbjahr semester abitur abi oberstufe
    jahr jahres vorjahr termin datum unterstufe mittelstufe sekundarstufe bayern hessen sachsen berlin hamburg
    bremen nrw niedersachsen thueringen
    brandenburg saarland bw i ii iii iv
    """)
_CONNECTORS = _words("und sowie der des von vom im am in mit oder bzw bei an um nach vor seit bis and of vs versus")
_ADJ_ENDINGS = ("e", "en", "er", "es", "em")
_THEMA_MARKERS = _words("""
    thema themen schwerpunkt schwerpunkte schwerpunktthema unterrichtsthema inhalt inhalte oberthema""")
_MARKER_FILLERS = _words("""
    ist sind lautet lauten soll sollen sollte sein liegt liegen auf der die das den dem waere wird werden heute
    diesmal dabei hier also bitte eher vor allem nur soll's""")
_THEMA_PREPS = {"zu": "plural", "zur": "fem", "zum": "masc", "ueber": "acc", "uber": "acc", "bezueglich": "gen"}
_ARTICLES = _words("den die das dem der einem einer einen eine ein")
_LEAD_META = _words("""
    wiederholung vorbereitung einfuehrung einstieg vertiefung festigung uebung sicherung grundlagen thema themen
    themenbereich bereich abschluss""")
_FEATURE_PREPS = _words("mit ohne inklusive inkl samt plus")
_NUMBERED = _words("unit units lektion kapitel chapter teil band")
# What a lesson does with a topic, not the topic: "Brüche vertiefen" is about "Brüche".
_DIDACTIC_VERBS = _words("""
    vertiefen festigen sichern einfuehren kennenlernen trainieren testen pruefen abfragen ueberpruefen abpruefen
    bearbeiten erarbeiten besprechen einueben anwenden vorbereiten liegen stehen dauern lauten kommen beinhalten
    enthalten umfassen abdecken drankommen vorkommen""")
_MODALS = _words("soll sollen sollte sollten muss muessen kann koennen wird werden will wollen moechte moechten darf")
_WEAK_PLURALS = ("ungen", "ionen", "heiten", "keiten", "schaften", "taeten", "innen", "ien", "eien")
# Plurals in -en whose dative is the same ("zu den Verben"): the -n is no dative ending.
_SAME_IN_DATIVE = (
    "verben", "nomen", "formen", "normen", "themen", "farben", "daten", "medien", "laengen", "kurven", "linsen",
    "zellen", "geraden", "ebenen", "groessen", "flaechen", "pflanzen", "sprachen", "regeln", "formeln", "tabellen",
    "kugeln", "quellen", "seiten", "strecken", "ecken", "kanten", "wellen", "saeulen", "schichten", "stufen",
)
_CONJUNCTIONS = _words("und sowie oder bzw")


# ---------------------------------------------------------------------------------------------------------------
# Klasse / Klassenstufe
# ---------------------------------------------------------------------------------------------------------------

_ORDINAL_WORDS = ORDINAL_WORDS
_CARDINAL_WORDS = CARDINAL_WORDS


def _extract_klasse(doc: _Doc, problems: list[str]) -> tuple[str | None, int | None, Niveau | None]:
    found = parse_klasse(doc.fold)
    doc.consume_spans(list(found.spans))
    if found.problem:
        problems.append(found.problem)
    return found.klasse, found.stufe, found.niveau


# ---------------------------------------------------------------------------------------------------------------
# Dauer
# ---------------------------------------------------------------------------------------------------------------
_NUMBER_WORDS = NUMBER_WORDS
_non_overlapping = non_overlapping


def _extract_dauer(doc: _Doc, problems: list[str]) -> int | None:
    found = parse_dauer(doc.fold)
    doc.consume_spans(list(found.spans))
    if found.problem:
        problems.append(found.problem)
    return found.minutes


# ---------------------------------------------------------------------------------------------------------------
# AFB distribution
# ---------------------------------------------------------------------------------------------------------------

_AFB_CONTEXT = re.compile(r"(?<![a-z])(?:afb|anforderungsbereich|verteilung|gewichtung|aufteilung)")
_AFB_TRIPLE = re.compile(
    r"(?<![\d.,/:|-])(\d{1,3})\s?%?\s?([/:|-])\s?(\d{1,3})\s?%?\s?\2\s?(\d{1,3})(?![\d])(?![.,]\d)"
    r"(?!\s?%?\s?[/:|-]\s?\d)(?:\s?%)?"
)
_AFB_LOOSE_SEP = r"\s?%?(?:\s?[,;/|:-]\s?|\sund\s|\s)"
_AFB_LOOSE = re.compile(
    rf"(?<![\d.,])(\d{{1,3}}){_AFB_LOOSE_SEP}(\d{{1,3}}){_AFB_LOOSE_SEP}(\d{{1,3}})(?![\d])(?![.,]\d)(?:\s?%)?"
)
_AFB_LEVEL = re.compile(r"(?<![a-z0-9])(?:(afb|anforderungsbereich(?:e|s)?)\s?-?\s?)?(iii|ii|i|[123])(?![a-z0-9])")
_AFB_VALUE_AFTER = re.compile(r"\s?(?:[:=]|mit|zu|->)?\s?(?:ca\.?\s)?(\d{1,3})(?!\d)(?![.,]\d)\s?(%|prozent)?")
_AFB_VALUE_BEFORE = re.compile(r"(\d{1,3})\s?(?:%|prozent)\s?(?:(?:fuer|im|in|auf|als)\s)?(?:den\s)?$")
_ROMAN: dict[str, AfbLevel] = {"i": "I", "ii": "II", "iii": "III", "1": "I", "2": "II", "3": "III"}


def _afb_problem(values: tuple[int, int, int]) -> str:
    shown = "/".join(str(v) for v in values)
    return (f"Die AFB-Verteilung {shown} ergibt zusammen {sum(values)} % — die drei Anteile müssen zusammen "
            f"100 % ergeben (z. B. 30/40/30).")


def _parse_afb(fold: str, *, context: bool) -> tuple[tuple[int, int, int] | None, str | None, list[tuple[int, int]]]:
    """The AFB shares in a text: (distribution, problem, consumed spans)."""
    context = context or bool(_AFB_CONTEXT.search(fold))
    spans: list[tuple[int, int]] = []
    levels: dict[str, int] = {}
    for m in _AFB_LEVEL.finditer(fold):
        prefix, level = m.group(1), m.group(2)
        if prefix is None and (level.isdigit() or not context):
            continue
        after = _AFB_VALUE_AFTER.match(fold, m.end())
        if after and (after.group(2) or context):
            levels.setdefault(_ROMAN[level], int(after.group(1)))
            spans.append((m.start(), after.end()))
            continue
        if prefix is not None:
            window = max(0, m.start() - 24)
            before = _AFB_VALUE_BEFORE.search(fold[window:m.start()])
            if before:
                levels.setdefault(_ROMAN[level], int(before.group(1)))
                spans.append((window + before.start(), m.end()))
    named: tuple[int, int, int] | None = None
    if len(levels) == 3:
        named = (levels["I"], levels["II"], levels["III"])
    elif len(levels) == 2 and sum(levels.values()) <= 100:
        missing = 100 - sum(levels.values())
        named = (levels.get("I", missing), levels.get("II", missing), levels.get("III", missing))
    if named is not None:
        if sum(named) == 100:
            return named, None, spans
        return None, _afb_problem(named), spans
    for rx in (_AFB_TRIPLE, _AFB_LOOSE) if context else (_AFB_TRIPLE,):
        for m in rx.finditer(fold):
            groups = [g for g in m.groups() if g and g.isdigit()]
            values = (int(groups[0]), int(groups[1]), int(groups[2]))
            if sum(values) == 100:
                return values, None, [*spans, m.span()]
            plausible = all(v % 5 == 0 for v in values) and 50 <= sum(values) <= 150
            if context or plausible:
                return None, _afb_problem(values), [*spans, m.span()]
    return None, None, spans


_AFB_CONTEXT_BEFORE = re.compile(r"(?:afb|anforderungsbereiche?|verteilung|gewichtung|aufteilung)\s?-?\s?:?\s?$")


def _extract_afb_distribution(doc: _Doc, problems: list[str]) -> tuple[int, int, int] | None:
    values, problem, spans = _parse_afb(doc.fold, context=False)
    for s, _ in list(spans):  # "Verteilung 40/40/20": the word that introduces the shares is no topic
        if m := _AFB_CONTEXT_BEFORE.search(doc.fold, max(0, s - 30), s):
            spans.append((m.start(), s))
    doc.consume_spans(spans)
    if problem:
        problems.append(problem)
    return values


# ---------------------------------------------------------------------------------------------------------------
# Aufgabenanzahl, preferences (phrases that must not become the Thema)
# ---------------------------------------------------------------------------------------------------------------

_COUNT_DIGITS = re.compile(
    r"(?<![\d.,/])(\d{1,3})\s(?:[a-z]{2,20}(?:e|en|er)\s)?(?:teilaufgaben|aufgaben|quizfragen|fragen|items|questions|tasks)(?![a-z])"
)
_COUNT_ONE = re.compile(r"(?<![\d.,/])(1)\s(?:aufgabe|frage)(?![a-z])")
_COUNT_WORDS = re.compile(
    r"(?<![a-z])(zwei|drei|vier|fuenf|sechs|sieben|acht|neun|zehn|elf|zwoelf|fuenfzehn|zwanzig)\s"
    r"(?:[a-z]{2,20}(?:e|en|er)\s)?(?:teilaufgaben|aufgaben|quizfragen|fragen|items)(?![a-z])"
)
_COUNT_LABEL = re.compile(r"(?<![a-z])(?:aufgabenanzahl|anzahl\s(?:der\s)?aufgaben)\s?:?\s?(\d{1,3})(?!\d)")


def _parse_count(fold: str) -> tuple[int | None, list[tuple[int, int]]]:
    cands: list[tuple[int, int, int]] = []
    for rx in (_COUNT_DIGITS, _COUNT_ONE, _COUNT_LABEL):
        cands.extend((m.start(), m.end(), int(m.group(1))) for m in rx.finditer(fold))
    cands.extend((m.start(), m.end(), _NUMBER_WORDS[m.group(1)]) for m in _COUNT_WORDS.finditer(fold))
    cands = _non_overlapping(cands)
    return (cands[0][2] if cands else None), [(s, e) for s, e, _ in cands]


def _extract_count(doc: _Doc, problems: list[str]) -> int | None:
    value, spans = _parse_count(doc.fold)
    doc.consume_spans(spans)
    if value is None:
        return None
    if not AUFGABEN_MIN <= value <= AUFGABEN_MAX:
        problems.append(f"{value} Aufgaben sind nicht möglich — bitte {AUFGABEN_MIN} bis {AUFGABEN_MAX} Aufgaben "
                        f"angeben.")
        return None
    return value


_RATIO_WORD = r"(rech(?:n|en)[a-z]*|theorie[a-z]*|theoretisch[a-z]*)"
_RATIO_NUMBERS_FIRST = re.compile(
    rf"(?<![\d.,])(\d{{1,3}})\s?%?\s?[:/]\s?(\d{{1,3}})(?!\d)\s?%?\s?(?:(?:fuer|bei|zwischen)\s)?{_RATIO_WORD}"
    rf"\s?(?:zu|:|/|und|vs\.?|gegen)\s?{_RATIO_WORD}"
)
_RATIO_WORDS_FIRST = re.compile(
    rf"{_RATIO_WORD}\s?(?:zu|:|/|und|vs\.?|gegen)\s?{_RATIO_WORD}\s?(?:(?:im\s)?verhaeltnis\s?)?:?\s?"
    r"(\d{1,3})\s?[:/]\s?(\d{1,3})(?!\d)"
)
_RATIO_PERCENT = re.compile(
    rf"(?<![\d.,])(\d{{1,3}})\s?(?:%|prozent)\s{_RATIO_WORD}[\s,;]{{1,3}}(?:und\s)?(\d{{1,3}})\s?(?:%|prozent)\s"
    rf"{_RATIO_WORD}"
)


def _parse_ratio(fold: str) -> tuple[str | None, list[tuple[int, int]]]:
    m = _RATIO_NUMBERS_FIRST.search(fold)
    if m:
        a, b, first, second = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
    else:
        m = _RATIO_WORDS_FIRST.search(fold)
        if m:
            first, second, a, b = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
        else:
            m = _RATIO_PERCENT.search(fold)
            if not m:
                return None, []
            a, first, b, second = int(m.group(1)), m.group(2), int(m.group(3)), m.group(4)
    first_is_rechnung, second_is_rechnung = first.startswith("rech"), second.startswith("rech")
    if first_is_rechnung == second_is_rechnung:
        return None, []
    if not first_is_rechnung:
        a, b = b, a
    return f"{a}:{b}", [m.span()]


_AVOID_START = re.compile(
    r"(?<![a-z])(?:bitte\s)?(?:keine[nrms]?|kein|ohne|nie(?:mals)?(?:\swieder)?|verzichte\sauf|"
    r"auf\skeinen\sfall)\s"
)
_AVOID_IGNORE = _words("""
    problem probleme ahnung sorge sorgen frage fragen zeit lust stress wunder thema ding dinge zu so mehr ganz sehr
    wirklich einzige einziges einzigen weiteren weitere anderen andere dass""")
_AVOID_STOP = _STOP | _CONNECTORS | _words("""
    und oder aber sondern mehr bitte verwenden nutzen benutzen einbauen machen nehmen geben sein haben mit fuer in
    im auf als""")
_BONUS = re.compile(r"(?<![a-z])(?:bonus|zusatz|sternchen|extra)-?aufgaben?(?![a-z])|(?<![a-z])mit\sbonus(?![a-z])")
_NEGATION_BEFORE = re.compile(r"(?:keine[nrms]?|kein|ohne|nie|niemals|nicht)\s(?:\w+\s)?$")
_MC_WORDS = frozenset({"multiple", "mc", "multiple-choice", "multiplechoice"})


def _parse_avoid(doc: _Doc) -> tuple[list[str], list[tuple[int, int]], bool | None]:
    """'keine Multiple Choice', 'ohne Taschenrechner' -> things to avoid; also reads Bonusaufgabe wishes."""
    things: list[str] = []
    spans: list[tuple[int, int]] = []
    bonus: bool | None = None
    toks = doc.tokens
    starts = {t.start: i for i, t in enumerate(toks)}
    for m in _AVOID_START.finditer(doc.fold):
        i = starts.get(m.end())
        if i is None or toks[i].fold in _AVOID_IGNORE or toks[i].fold.isdigit():
            continue
        j = i
        while j < len(toks) and j - i < 4 and (j == i or toks[j].brk == 0) and toks[j].fold not in _AVOID_STOP:
            j += 1
        if j == i:
            continue
        folds = [t.fold for t in toks[i:j]]
        spans.append((m.start(), toks[j - 1].end))
        if any(_BONUS.fullmatch(f) or f in ("bonus", "zusatzaufgabe", "bonusaufgabe") for f in folds):
            bonus = False
            continue
        if folds[0] in _MC_WORDS or folds[0].startswith(("multiple-choice", "mc-")):
            thing = "Multiple Choice"
        elif folds[0].startswith("lueckentext"):
            thing = "Lückentexte"
        else:
            thing = doc.text[toks[i].ostart:toks[j - 1].oend].strip(" .,;:!?")
        if thing and thing not in things:
            things.append(thing)
    for m in _BONUS.finditer(doc.fold):
        spans.append(m.span())
        if bonus is None:
            negated = _NEGATION_BEFORE.search(doc.fold[max(0, m.start() - 30):m.start()])
            bonus = not negated
    return things, spans, bonus


# ---------------------------------------------------------------------------------------------------------------
# Material type
# ---------------------------------------------------------------------------------------------------------------

_K, _D, _H = "klausur", "differenzierung", "h5p"
_MATERIAL_WORDS: dict[str, tuple[MaterialType, bool]] = {  # fold -> (type, strong)
    **{w: (_K, True) for w in _words("""klausur klausuren klassenarbeit klassenarbeiten test tests lernkontrolle
    lernkontrollen leistungskontrolle leistungskontrollen kurzkontrolle kurzkontrollen lernzielkontrolle
    lernzielkontrollen lernerfolgskontrolle leistungsnachweis leistungsueberpruefung kurztest vokabeltest
    stegreifaufgabe schulaufgabe abiturklausur vorabiklausur pruefung klassenarbeitsvorlage lek leks exam exams""")},
    **{w: (_D, True) for w in _words("""arbeitsblatt arbeitsblaetter uebungsblatt uebungsblaetter foerdermaterial
    differenzierungsmaterial foerderblatt foerderblaetter foerderaufgaben worksheet worksheets""")},
    **{w: (_D, False) for w in _words("""differenziert differenzierte differenzierten differenzierter differenziertes
    differenzierung binnendifferenzierung foerderung""")},
    **{w: (_H, True) for w in _words("h5p quiz quizze quizzes quizfragen")},
    **{w: (_H, False) for w in _words("""interaktiv interaktive interaktiven interaktiver interaktives lueckentext
    lueckentexte lueckentextuebung zuordnungsuebung learningapps""")},
}
_MATERIAL_TAILS: tuple[tuple[str, MaterialType, str], ...] = (  # suffix, type, which heads are allowed
    ("klassenarbeiten", _K, "any"), ("klassenarbeit", _K, "any"), ("klausuren", _K, "any"), ("klausur", _K, "any"),
    ("arbeitsblaetter", _D, "any"), ("arbeitsblatt", _D, "any"), ("uebungsblaetter", _D, "any"),
    ("uebungsblatt", _D, "any"), ("quizze", _H, "any"), ("quiz", _H, "any"), ("tests", _K, "known"),
    ("test", _K, "known"), ("arbeiten", _K, "subject"), ("arbeit", _K, "subject"),
)
_TEST_HEADS = _words("kurz vokabel wissens einstiegs abschluss lern lernstands zwischen eingangs diagnose")
_NIVEAU_WORDS = _words("niveaus niveaustufen anforderungsniveaus leistungsniveaus schwierigkeitsstufen")
_NIVEAU_COUNTS = _words("2 3 4 zwei drei vier verschiedenen mehreren unterschiedlichen verschiedene unterschiedliche")
_ARBEIT_DETERMINERS = _words("eine die der naechste naechsten meine unsere ne diese")
_MATERIAL_NEGATIONS = _words("kein keine keinen keiner ohne statt anstatt anstelle nicht")
_PURPOSE_WORDS = _words("auf vor nach fuer zur vorbereitung")
_SKIP_BEFORE_MATERIAL = _ARTICLES | _words(
    "kommende kommenden anstehende anstehenden bevorstehende bevorstehenden naechste naechsten"
)


_MATERIAL_TAIL_WORDS = tuple(tail for tail, _, _ in _MATERIAL_TAILS)


def _compound_parts(fold: str) -> tuple[str, MaterialType, str] | None:
    if not fold.endswith(_MATERIAL_TAIL_WORDS):
        return None
    for tail, mtype, heads in _MATERIAL_TAILS:
        if fold.endswith(tail) and len(fold) > len(tail) + 1:
            return fold[: -len(tail)].rstrip("-"), mtype, heads
    return None


@dataclass
class _Analysis:
    subjects: list[tuple[int, str]] = field(default_factory=list)  # token index, fach
    areas: list[tuple[int, list[_Entry]]] = field(default_factory=list)
    topics: list[tuple[int, int, list[_Entry]]] = field(default_factory=list)  # start, end, entries
    unsupported: list[str] = field(default_factory=list)


def _lookup_head(head: str, vocab: _Vocab) -> tuple[str | None, list[_Entry]]:
    """A compound head ('physik', 'optik', 'bruchrechnungs') as subject or vocabulary entries."""
    for candidate in (head, head[:-1] if head.endswith("s") else head):
        if candidate in _SUBJECT_HEADS:
            return _SUBJECT_HEADS[candidate], []
        entries = [e for e in vocab.stem_idx.get(_stem(candidate), []) if len(e.words) == 1]
        if entries:
            return None, entries
    return None, []


def _extract_material(doc: _Doc, vocab: _Vocab, analysis: _Analysis) -> MaterialType | None:
    toks = doc.tokens
    strong_free: list[MaterialType] = []
    strong_purpose: list[MaterialType] = []
    weak: list[MaterialType] = []
    for i, tok in enumerate(toks):
        if tok.consumed:
            continue
        f = tok.fold
        found = _MATERIAL_WORDS.get(f)
        if found is None:
            found = _special_material(doc, i, vocab, analysis)
        if found is None:
            continue
        mtype, strong = found
        tok.consumed = True
        prev = [toks[k].fold for k in range(max(0, i - 2), i) if toks[k + 1].brk < 2]
        if any(p in _MATERIAL_NEGATIONS for p in prev):
            continue
        if not strong:
            weak.append(mtype)
            continue
        # "Übungsblatt zur Vorbereitung auf die Klausur": the Klausur is the purpose, not the requested material.
        k = i - 1
        while k >= 0 and toks[k + 1].brk == 0 and toks[k].fold in _SKIP_BEFORE_MATERIAL:
            k -= 1
        purpose = k >= 0 and toks[k + 1].brk == 0 and toks[k].fold in _PURPOSE_WORDS
        (strong_purpose if purpose else strong_free).append(mtype)
    for bucket in (strong_free, strong_purpose, weak):
        if bucket:
            return bucket[0]
    return None


def _special_material(doc: _Doc, i: int, vocab: _Vocab, analysis: _Analysis) -> tuple[MaterialType, bool] | None:
    toks = doc.tokens
    tok = toks[i]
    f = tok.fold
    prev = toks[i - 1] if i > 0 and tok.brk == 0 else None
    nxt = toks[i + 1] if i + 1 < len(toks) and toks[i + 1].brk == 0 else None
    if f == "arbeit":
        if prev is not None and (prev.fold in _ARBEIT_DETERMINERS or prev.fold in _SUBJECTS):
            return _K, True
        return None
    if f == "ab" and tok.orig == "AB":
        return _D, True
    if f in _NIVEAU_WORDS:
        return (_D, False) if prev is not None and prev.fold in _NIVEAU_COUNTS else None
    if f in ("multiple", "single") and nxt is not None and nxt.fold.startswith("choice"):
        nxt.consumed = True
        return _H, False
    if f in ("multiple-choice", "multiplechoice"):
        return _H, False
    parts = _compound_parts(f)
    if parts is None:
        return None
    head, mtype, allowed = parts
    subject, entries = _lookup_head(head, vocab)
    if subject is not None:
        analysis.subjects.append((i, subject))
    elif entries:
        if any(e.kind == "area" for e in entries):
            analysis.areas.append((i, [e for e in entries if e.kind == "area"]))
        else:
            analysis.topics.append((i, i + 1, entries))
    known = subject is not None or bool(entries)
    if allowed == "any" or (allowed == "known" and (known or head in _TEST_HEADS)) or (
        allowed == "subject" and subject is not None
    ):
        return mtype, True
    return None


# ---------------------------------------------------------------------------------------------------------------
# Subjects, topic areas and topic terms
# ---------------------------------------------------------------------------------------------------------------


def _subject_counts(doc: _Doc, i: int) -> bool:
    tok = doc.tokens[i]
    f = tok.fold
    if len(f) <= 2:
        if not tok.cap:
            return False
        if tok.in_compound:  # "Ph-Klausur" counts, the "E" of "E-Kurs" does not
            nxt = doc.tokens[i + 1] if i + 1 < len(doc.tokens) else None
            return f != "e" and nxt is not None and nxt.in_compound and nxt.brk == 0 and (
                nxt.fold in _MATERIAL_WORDS or nxt.fold == "arbeit")
        if f == "e":
            prev = doc.tokens[i - 1].fold if i > 0 else ""
            return tok.orig == "E" and prev not in _NOT_ENGLISCH_BEFORE
    # "Anweisungen auf Deutsch" is the language, not the subject.
    return not (f in ("deutsch", "englisch") and i > 0 and doc.tokens[i - 1].fold in ("auf", "ins") and tok.brk == 0)


def _scan_vocab(doc: _Doc, vocab: _Vocab, analysis: _Analysis) -> None:
    toks = doc.tokens
    n = len(toks)
    i = 0
    while i < n:
        tok = toks[i]
        if tok.consumed:
            i += 1
            continue
        subject = _SUBJECTS.get(tok.fold)
        if subject is not None:
            if _subject_counts(doc, i):
                analysis.subjects.append((i, subject))
                tok.consumed = True
            elif len(tok.fold) > 2:
                tok.consumed = True
            i += 1
            continue
        if tok.fold in _LANGUAGE_SUBJECTS and i > 0 and toks[i - 1].fold == "im" and (
                i + 1 >= n or toks[i + 1].brk or not toks[i + 1].cap):  # "Zeitformen im Englischen"
            analysis.subjects.append((i, _LANGUAGE_SUBJECTS[tok.fold]))
            tok.consumed = toks[i - 1].consumed = True
            i += 1
            continue
        if tok.fold in _UNSUPPORTED_SUBJECTS:
            analysis.unsupported.append(_UNSUPPORTED_SUBJECTS[tok.fold])
            tok.consumed = True
            i += 1
            continue
        compound = None
        for tail in _SUBJECT_COMPOUND_TAILS if tok.fold.endswith(_SUBJECT_COMPOUND_TAILS) else ():
            if tok.fold.endswith(tail) and tok.fold[: -len(tail)].rstrip("-") in _SUBJECT_HEADS:
                compound = _SUBJECT_HEADS[tok.fold[: -len(tail)].rstrip("-")]
                break
        if compound is not None:
            analysis.subjects.append((i, compound))
            tok.consumed = True
            i += 1
            continue
        if (tok.fold in _STOP and not _starts_term(doc, i, vocab)) or tok.fold in _META or len(tok.fold) < 2:
            i += 1
            continue
        cands: list[tuple[int, _Entry]] = []
        for entry in vocab.stem_idx.get(tok.stem, ()):
            length = len(entry.words)
            if i + length > n:
                continue
            if all(
                toks[i + k].stem == entry.words[k] and not toks[i + k].consumed and toks[i + k].brk == 0
                for k in range(1, length)
            ) and (length == 1 or toks[i + length - 1].fold not in _STOP or tok.fold in _STOP):
                cands.append((length, entry))
        if not cands and len(tok.key) <= 40:
            for cut in range(len(tok.key) - 1, 4, -1):
                hits = vocab.prefix_idx.get(tok.key[:cut])
                if hits:
                    cands = [(1, e) for e in hits]
                    break
        if not cands:
            i += 1
            continue
        longest = max(length for length, _ in cands)
        chosen = [e for length, e in cands if length == longest]
        if any(e.from_profile for e in chosen):
            chosen = [e for e in chosen if e.from_profile]
        areas = [e for e in chosen if e.kind == "area"]
        for k in range(i, i + longest):
            if areas:
                toks[k].consumed = True
                toks[k].area = True
            else:
                toks[k].vocab = True
        if areas:
            analysis.areas.append((i, areas))
        else:
            analysis.topics.append((i, i + longest, chosen))
        i += longest


def _starts_term(doc: _Doc, i: int, vocab: _Vocab) -> bool:
    """A stop word that begins a known term of several words ("das und dass")."""
    toks = doc.tokens
    for entry in vocab.stem_idx.get(toks[i].stem, ()):
        n = len(entry.words)
        if n > 1 and i + n <= len(toks) and all(toks[i + k].stem == entry.words[k] and toks[i + k].brk == 0
                                                 for k in range(1, n)):
            return True
    return False


def _decide_fach(analysis: _Analysis) -> tuple[str | None, FachSource | None]:
    if analysis.subjects:
        return min(analysis.subjects)[1], "explicit"
    scores: dict[str, float] = {}
    for _, _, entries in analysis.topics:
        fachs = {e.fach for e in entries}
        for fach in fachs:
            scores[fach] = scores.get(fach, 0.0) + 1.0 / len(fachs)
    if analysis.areas:
        _, entries = min(analysis.areas, key=lambda a: a[0])
        fachs = sorted({e.fach for e in entries}, key=lambda f: (-scores.get(f, 0.0), FACH_KEYS.index(f)))
        return fachs[0], "area"
    if scores:
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        if len(ranked) == 1 or ranked[0][1] > ranked[1][1]:
            return ranked[0][0], "topic"
    return None, None


def _profile_feld(vocab: _Vocab, fach: str, hint: str) -> str:
    """Map a built-in area name onto the seeded profile's own name for it, when there is one."""
    felder = vocab.felder.get(fach, [])
    folded = _fold(hint)
    for feld in felder:
        if _fold(feld) == folded:
            return feld
    for feld in felder:
        other = _fold(feld)
        if min(len(other), len(folded)) >= 4 and (folded in other or other in folded):
            return feld
    return hint


# ---------------------------------------------------------------------------------------------------------------
# Thema and AFB wishes
# ---------------------------------------------------------------------------------------------------------------


def _blocked(tok: _Tok, allow_area: bool) -> bool:
    return tok.consumed and not (allow_area and tok.area)


def _is_content(doc: _Doc, i: int, allow_area: bool) -> bool:
    tok = doc.tokens[i]
    if _blocked(tok, allow_area):
        return False
    f = tok.fold
    if f.isdigit():  # a year ("Revolution 1848") or a unit number ("Unit 4") belongs to the topic
        prev = doc.tokens[i - 1].fold if i > 0 and tok.brk == 0 else ""
        return (len(f) == 4 and 1000 <= int(f) <= 2100) or prev in _NUMBERED
    if tok.vocab and f not in _META:  # part of a known term, even "das und dass"
        return True
    if f in _STOP or f in _META or f in _CONNECTORS:
        return False
    if len(f) < 3 and not tok.vocab:
        return False
    if doc.mixed_case and not tok.cap and not tok.vocab and not tok.area:
        if _is_topic_verb(doc, i, allow_area):  # "Brüche kürzen und erweitern", "Adjektive steigern"
            return True
        # A lower-case word counts only as an attributive adjective before a capitalised noun.
        if not f.endswith(_ADJ_ENDINGS) or i + 1 >= len(doc.tokens):
            return False
        nxt = doc.tokens[i + 1]
        return (nxt.brk == 0 and (nxt.cap or nxt.vocab) and nxt.fold not in _STOP and nxt.fold not in _META
                and not _blocked(nxt, allow_area))
    return True


def _is_topic_verb(doc: _Doc, i: int, allow_area: bool) -> bool:
    """An infinitive right after a topic noun names what is done with it ("Satzglieder bestimmen")."""
    toks = doc.tokens
    f = toks[i].fold
    if not f.endswith(("en", "ern", "eln")) or len(f) < 5 or f in _DIDACTIC_VERBS or toks[i].brk or i == 0:
        return False
    k = i
    while k > 0 and i - k < 12 and toks[k].brk < 2:  # "Schwerpunkt soll auf Induktion liegen": the main verb
        k -= 1
        if toks[k].fold in _MODALS:
            return False
    prev = toks[i - 1]
    if prev.fold in ("und", "oder") and i >= 2 and prev.brk == 0:
        return _is_topic_verb(doc, i - 2, allow_area)
    return (prev.cap or prev.vocab) and not prev.consumed and prev.fold not in _STOP and prev.fold not in _META


def _runs(doc: _Doc, lo: int, hi: int, *, allow_area: bool, allow_comma: bool = False,
          first_only: bool = False) -> list[tuple[int, int]]:
    """Maximal runs of content tokens in [lo, hi), joined by connectors ('Säuren und Basen')."""
    toks = doc.tokens
    runs: list[tuple[int, int]] = []
    start: int | None = None
    last = -1
    i = lo
    while i < hi:
        tok = toks[i]
        if start is not None and (tok.brk == 2 or (tok.brk == 1 and not allow_comma) or i - start >= 10):
            runs.append((start, last + 1))
            start = None
            if first_only:
                return runs
        if _is_content(doc, i, allow_area):
            if start is None:
                start = i
            last = i
            i += 1
            continue
        if start is not None and tok.fold in _CONNECTORS and not _blocked(tok, allow_area):
            k = i + 1
            while k < hi and k <= i + 2 and toks[k].brk == 0:  # "Tourismus in den Alpen"
                if _is_content(doc, k, allow_area):
                    break
                if toks[k].fold not in _CONNECTORS and toks[k].fold not in _ARTICLES:
                    k = hi
                    break
                k += 1
            if k < hi and k <= i + 2 and toks[k].brk == 0 and _is_content(doc, k, allow_area):
                i = k
                continue
        if start is not None:
            runs.append((start, last + 1))
            start = None
            if first_only:
                return runs
        i += 1
    if start is not None:
        runs.append((start, last + 1))
    return runs


def _undative(word: str) -> str:
    """'Stromkreisen' -> 'Stromkreise', 'Brüchen' -> 'Brüche', 'Wörtern' -> 'Wörter'; 'Zahlen' stays."""
    f = _fold(word)
    if f.endswith(_SAME_IN_DATIVE):
        return word
    if len(f) > 5 and f.endswith(("ern", "eln")):
        return word[:-1]
    if len(f) > 4 and f.endswith("en") and not f.endswith(_WEAK_PLURALS) and f[-3] in "szthkmfpgdbv":
        return word[:-1]
    return word


def _phrase(doc: _Doc, vocab: _Vocab, start: int, end: int, mode: str | None) -> str | None:
    toks = doc.tokens
    while end > start and toks[end - 1].fold in _CONNECTORS:
        end -= 1
    if end <= start:
        return None
    raw_words = [t.orig for t in toks[start:end]]
    words = list(raw_words)
    if mode in ("plural", "fem", "masc"):
        for k in range(start, end):
            tok = toks[k]
            is_last = k == end - 1 or toks[k + 1].fold in _CONNECTORS
            ends_conjunct = k == end - 1 or toks[k + 1].fold in _CONJUNCTIONS or toks[k + 1].brk == 1
            f = tok.fold
            if not is_last and f.endswith("en") and (not tok.cap or f.endswith(("ischen", "schen")) or not
                                                     doc.mixed_case):
                # "zur quadratischen Ergänzung" -> "quadratische", "zum radioaktiven Zerfall" -> "radioaktiver"
                head = next((toks[j].orig for j in range(k + 1, end) if toks[j].cap or j == end - 1), "")
                ending = ("es" if topics.is_neuter(head) else "er") if mode == "masc" else "e"
                words[k - start] = tok.orig[:-2] + ending
            elif ends_conjunct and mode == "plural" and vocab.display.get(tok.fold) is None:
                words[k - start] = _undative(tok.orig)  # a known word ("Linsen") is already nominative
    seps = []
    for k in range(start, end - 1):
        gap = doc.text[toks[k].oend:toks[k + 1].ostart]
        seps.append(re.sub(r"\s+", " ", gap) or " ")

    def join(parts: list[str]) -> str:
        out = parts[0]
        for sep, part in zip(seps, parts[1:], strict=True):
            out += sep + part
        return out

    raw, modified = join(raw_words), join(words)
    candidates = [raw, modified]
    if mode == "plural" and _fold(words[-1]).endswith("en") and not _fold(words[-1]).endswith(_SAME_IN_DATIVE):
        candidates.append(join([*words[:-1], words[-1][:-1]]))  # "Vulkanen" -> "Vulkane" if that is a known term
    for candidate in candidates:
        canonical = vocab.display.get(" ".join(m.group() for m in _CHUNK_RE.finditer(_fold(candidate))))
        if canonical:
            return canonical
    # Several words with the stems of a known term ("das Ohmsche Gesetz" ~ "Ohmsches Gesetz"): its spelling. Single
    # words keep the teacher's form ("Widerstände" stays plural even if only "Widerstand" is known).
    stems = tuple(_stem(m.group()) for m in _CHUNK_RE.finditer(_fold(raw)))
    known = vocab.by_stems.get(stems) if len(stems) > 1 else None
    if known:
        best = min(known, key=lambda e: (not e.from_profile, abs(len(e.display) - len(raw)))).display
        head, _, last = best.rpartition(" ")
        own_last = words[-1]
        # its spelling, but the teacher's number: "zu galvanischen Zellen" -> "galvanische Zellen"
        return f"{head} {own_last}" if head and _fold(own_last) != _fold(last) and own_last[:1].isupper() else best
    text = modified.strip(" \"'„“”‚‘’«»-,.;:!?()[]")
    if not text:
        return None
    if doc.all_upper:
        text = " ".join(w.capitalize() for w in text.split(" "))
    elif not doc.mixed_case:
        text = text[:1].upper() + text[1:]
    if len(text) > THEMA_MAX_CHARS:
        cut = text.rfind(" ", 0, THEMA_MAX_CHARS)
        text = text[: cut if cut > 0 else THEMA_MAX_CHARS]
    return text


def _is_area_only(doc: _Doc, start: int, end: int) -> bool:
    content = [t for t in doc.tokens[start:end] if t.fold not in _CONNECTORS]
    return bool(content) and all(t.area for t in content)


def _after_skipping(doc: _Doc, i: int, skip: frozenset[str], limit: int = 4) -> int:
    toks = doc.tokens
    j = i
    while j < len(toks) and j - i < limit and toks[j].fold in skip and (j == i or toks[j].brk == 0):
        j += 1
    return j


def _marker_candidates(doc: _Doc, vocab: _Vocab) -> list[tuple[str, bool, int, int]]:
    toks = doc.tokens
    out: list[tuple[str, bool, int, int]] = []
    for i, tok in enumerate(toks):
        if tok.consumed:
            continue
        is_marker = tok.fold in _THEMA_MARKERS or (
            tok.fold == "um" and i > 0 and toks[i - 1].fold in ("geht", "gehen", "dreht", "drehen", "handelt")
        )
        if not is_marker or i + 1 >= len(toks):
            continue
        colon = ":" in doc.fold[tok.end:toks[i + 1].start]
        if toks[i + 1].brk == 2 and not colon:
            continue
        j = _after_skipping(doc, i + 1, _MARKER_FILLERS)
        if j >= len(toks) or (j > i + 1 and toks[j].brk):
            continue
        runs = _runs(doc, j, min(len(toks), j + 24), allow_area=True, allow_comma=tok.fold in (
            "themen", "schwerpunkte", "inhalte") or colon, first_only=True)
        if runs and runs[0][0] == j:
            text = _phrase(doc, vocab, runs[0][0], runs[0][1], None)
            if text:
                out.append((text, _is_area_only(doc, *runs[0]), runs[0][0], runs[0][1]))
    return out


def _prep_candidates(doc: _Doc, vocab: _Vocab, lo: int = 0, hi: int | None = None) -> list[tuple[str, int, int]]:
    toks = doc.tokens
    hi = len(toks) if hi is None else hi
    out: list[tuple[str, int, int]] = []
    for i in range(lo, hi):
        tok = toks[i]
        mode = _THEMA_PREPS.get(tok.fold)
        if mode is None or tok.consumed or i + 1 >= hi or toks[i + 1].brk:
            continue
        j = i + 1
        if toks[j].fold in _ARTICLES:
            if toks[j].fold == "den":
                mode = "plural"
            j += 1
        k = _after_skipping(doc, j, _LEAD_META, limit=1)
        if k > j:  # "zur Wiederholung der Bruchrechnung": the topic follows the genitive
            j = _after_skipping(doc, k, frozenset({"der", "des", "von", "vom", "in", "im", "die", "zur", "zum"}), 2)
            mode = None
        if j >= hi or toks[j].brk:
            continue
        runs = _runs(doc, j, min(hi, j + 12), allow_area=True, first_only=True)
        if runs and _is_area_only(doc, *runs[0]):  # "zu Optik": an area alone is no topic yet
            runs = _runs(doc, j, min(hi, j + 12), allow_area=False, first_only=True)
        if runs and runs[0][0] == j:
            end = _enumeration_end(doc, j, runs[0][1])
            text = _phrase(doc, vocab, j, end, mode)
            if text:
                out.append((text, j, end))
    return out


def _enumeration_end(doc: _Doc, start: int, end: int) -> int:
    """Where an enumeration that starts with the run [start, end) ends: "Alkane, Alkene und Alkine" is one topic
    list only if it closes with "und"/"sowie"; a comma alone may also separate the topic from something else."""
    toks = doc.tokens
    pos = end
    while pos < len(toks) and toks[pos].brk == 1 and "," in doc.fold[toks[pos - 1].end:toks[pos].start]:
        nxt = _runs(doc, pos, min(len(toks), pos + 8), allow_area=False, first_only=True)
        if not nxt or nxt[0][0] != pos:
            break
        if any(toks[k].fold in _CONJUNCTIONS for k in range(nxt[0][0], nxt[0][1])):
            return nxt[0][1]
        pos = nxt[0][1]
    return end


def _extract_thema(doc: _Doc, vocab: _Vocab) -> tuple[str | None, tuple[int, int] | None]:
    markers = _marker_candidates(doc, vocab)
    for text, area_only, start, end in markers:
        if not area_only:
            return text, (start, end)
    if markers:
        return markers[0][0], (markers[0][2], markers[0][3])
    preps = _prep_candidates(doc, vocab)
    if preps:
        text, start, end = preps[0]
        return text, (start, end)
    toks = doc.tokens
    runs = []
    for start, end in _runs(doc, 0, len(toks), allow_area=False):
        has_vocab = any(t.vocab for t in toks[start:end])
        # "Quiz mit Anweisungen auf Deutsch": a "mit …" phrase describes the material, it is not its topic.
        if start > 0 and toks[start - 1].fold in _FEATURE_PREPS and toks[start].brk == 0 and not has_vocab:
            continue
        runs.append((start, end, has_vocab))
    if not runs:
        return None, None
    best = next((r for r in runs if r[2]), runs[0])
    end = _enumeration_end(doc, best[0], best[1])
    return _phrase(doc, vocab, best[0], end, None), (best[0], end)


_AFB_WORDS = frozenset({"afb", "anforderungsbereich", "anforderungsbereiche", "anforderungsbereichs"})
_AFB_GLUED = re.compile(r"afb(iii|ii|i|[123])")
_TASK_WORDS = _words("aufgabe aufgaben teilaufgabe teilaufgaben transferaufgabe frage fragen rechenaufgabe textaufgabe")
_TASK_DETERMINERS = _words("""
    eine einer einen ein mit bitte noch auch davon mindestens zumindest wenigstens 1 nur genau dazu""")
_SOFT_BOUNDARIES = _words("mit und sowie aber plus sondern davon")
_DISTRIBUTION_AFTER = re.compile(r"\s?(?:[:=/]\s?)?\d")


def _extract_afb_wishes(doc: _Doc, vocab: _Vocab) -> list[tuple[str | None, AfbLevel]]:
    toks = doc.tokens
    n = len(toks)
    wishes: list[tuple[str | None, AfbLevel]] = []
    i = 0
    while i < n:
        tok = toks[i]
        level: AfbLevel | None = None
        j = i
        if not tok.consumed and tok.fold in _AFB_WORDS and i + 1 < n and toks[i + 1].brk == 0 and (
            toks[i + 1].fold in _ROMAN and not toks[i + 1].consumed
        ):
            level, j = _ROMAN[toks[i + 1].fold], i + 1
        elif not tok.consumed and (glued := _AFB_GLUED.fullmatch(tok.fold)):
            level = _ROMAN[glued.group(1)]
        if level is None:
            i += 1
            continue
        percent_before = doc.fold[max(0, tok.start - 2):tok.start].strip() == "%"
        if _DISTRIBUTION_AFTER.match(doc.fold, toks[j].end) or percent_before:
            i = j + 1
            continue
        # The wish region: back to the task word ("eine Aufgabe Induktion als AFB III") or a soft boundary,
        # forward to the end of the clause ("AFB-III-Aufgabe zu Induktion"), each at most 12 tokens.
        lo = i
        k = i - 1
        while k >= 0 and i - k <= 12 and toks[k + 1].brk == 0:
            f = toks[k].fold
            if f in _SOFT_BOUNDARIES:
                lo = k
                break
            lo = k
            if f in _TASK_WORDS:
                while lo > 0 and i - lo <= 12 and toks[lo].brk == 0 and toks[lo - 1].fold in _TASK_DETERMINERS:
                    lo -= 1
                break
            k -= 1
        hi = j + 1
        while hi < n and hi - j <= 12 and toks[hi].brk == 0 and toks[hi].fold not in _SOFT_BOUNDARIES:
            hi += 1
        for k in (i, j):
            toks[k].consumed = True
        task_after = j + 1 < n and toks[j + 1].fold in _TASK_WORDS and toks[j + 1].brk == 0
        before = _runs(doc, lo, i, allow_area=True)
        after = _prep_candidates(doc, vocab, j + 1, hi) if task_after else []
        thema: str | None = None
        if after:
            thema = after[0][0]
        else:
            after_runs = _runs(doc, j + 1, hi, allow_area=True)
            ordered = (after_runs + before[::-1]) if task_after else (before[::-1] + after_runs)
            if ordered:
                s, e = ordered[0]
                prep = _THEMA_PREPS.get(toks[s - 1].fold) if s > 0 else None
                thema = _phrase(doc, vocab, s, e, prep)
        for k in range(lo, hi):
            toks[k].consumed = True
        wishes.append((thema, level))
        i = hi
    return wishes


# ---------------------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------------------


def extract(text: str, *, topic_terms: TopicTerms | None = None) -> Extraction:
    """Everything one teacher message says about the wanted material; impossible values become `problems`.

    `topic_terms` is the seeded subject vocabulary (fach -> themenfeld -> terms). It detects the Fach from topic
    words and wins over the small built-in vocabulary where both know a word.
    """
    vocab, hyphen_words = _vocab_for(topic_terms)
    return _extract(spelling.correct(text or ""), vocab, hyphen_words, nested=False)


def _extract(text: str, vocab: _Vocab, hyphen_words: frozenset[str], *, nested: bool) -> Extraction:
    doc = _Doc(text, hyphen_words)
    if not doc.tokens:
        return Extraction()
    problems: list[str] = []
    klasse, klassenstufe, niveau = _extract_klasse(doc, problems)
    dauer = _extract_dauer(doc, problems)
    afb = _extract_afb_distribution(doc, problems)
    anzahl = _extract_count(doc, problems)
    _, ratio_spans = _parse_ratio(doc.fold)
    _, avoid_spans, _ = _parse_avoid(doc)
    doc.consume_spans(ratio_spans + avoid_spans)

    analysis = _Analysis()
    material = _extract_material(doc, vocab, analysis)
    _scan_vocab(doc, vocab, analysis)
    fach, source = _decide_fach(analysis)
    in_english = english.is_english(doc.text)
    if in_english and source != "explicit":  # written in English: the English class, unless a subject is named
        fach, source = "englisch", "explicit"

    raw_wishes = _extract_afb_wishes(doc, vocab)
    thema, thema_span = _extract_thema(doc, vocab)
    if in_english and (named := english.english_topic(doc.text)):
        thema, thema_span = named, None
    wishes: list[AfbWish] = []
    for wish_thema, level in raw_wishes:
        chosen = wish_thema or thema
        if chosen and all(w.thema != chosen or w.afb != level for w in wishes):
            wishes.append(AfbWish(thema=chosen, afb=level))
    hint = _hint(vocab, analysis, fach, thema, thema_span)
    if fach is None and analysis.unsupported:
        names = ", ".join(FACH_NAMEN[k] for k in FACH_KEYS[:-1]) + " und " + FACH_NAMEN[FACH_KEYS[-1]]
        problems.append(f"Das Fach {analysis.unsupported[0]} wird noch nicht unterstützt — möglich sind {names}.")
    area_text, area_broad = _area(doc, analysis)
    unterthemen: tuple[str, ...] = ()
    if not nested:
        thema, unterthemen = _structure(doc.text, thema, area_text, area_broad, vocab, hyphen_words,
                                        german=not in_english)
    return Extraction(
        fach=fach, fach_hint=hint, klassenstufe=klassenstufe, klasse=klasse, thema=thema, dauer_minuten=dauer,
        material_type=material, afb_verteilung=afb, afb_wishes=tuple(wishes), aufgaben_anzahl=anzahl,
        problems=tuple(dict.fromkeys(problems)), unterthemen=unterthemen, niveau=niveau, fach_source=source,
        area_text=area_text, area_broad=area_broad,
    )


def _hint(vocab: _Vocab, analysis: _Analysis, fach: str | None, thema: str | None,
          thema_span: tuple[int, int] | None) -> str | None:
    """The topic area (Themenfeld) of the request, in the profile's own name for it."""
    if fach is None:
        return None
    hint = None
    for _, entries in sorted(analysis.areas, key=lambda a: a[0]):
        match = next((e for e in entries if e.fach == fach), None)
        if match is not None:
            hint = match.feld
            break
    if hint is None and thema_span is not None:
        for start, end, entries in analysis.topics:
            if start < thema_span[1] and end > thema_span[0]:
                match = next((e for e in entries if e.fach == fach), None)
                if match is not None:
                    hint = match.feld
                    break
    if hint is None and thema is not None:
        entries = [e for e in vocab.stem_idx.get(_stem(_fold(thema)), []) if e.fach == fach]
        if entries:
            hint = entries[0].feld
    return _profile_feld(vocab, fach, hint) if hint is not None else None


def _area(doc: _Doc, analysis: _Analysis) -> tuple[str | None, bool]:
    """The teacher's own words for the first topic area named ("Optik", "Atombau und Periodensystem") and whether
    it is a broad subject area that still needs a Schwerpunkt."""
    if not analysis.areas:
        return None, False
    i, entries = min(analysis.areas, key=lambda a: a[0])
    toks = doc.tokens
    if toks[i].area:
        j = i
        while j < len(toks) and toks[j].area and (j == i or toks[j].brk == 0):
            j += 1
        text = doc.text[toks[i].ostart:toks[j - 1].oend]
    else:  # named inside a compound ("Mechanikklausur")
        text = entries[0].display
    stems = tuple(_stem(m.group()) for m in _CHUNK_RE.finditer(_fold(text)))
    return text, stems in _BROAD_AREAS


@dataclass(frozen=True)
class _TopicTools:
    """The vocabulary and the nested extraction agents.offline_topics needs, as callbacks."""

    vocab: _Vocab
    hyphen_words: frozenset[str]

    def known(self, term: str) -> str | None:
        return _known_term(self.vocab, term)

    def head_topic(self, clause: str) -> str | None:
        e = _extract(clause, self.vocab, self.hyphen_words, nested=True)
        return e.thema or e.area_text

    def is_topic(self, piece: str) -> bool:
        e = _extract(piece, self.vocab, self.hyphen_words, nested=True)
        facts = (e.klassenstufe, e.dauer_minuten, e.afb_verteilung, e.aufgaben_anzahl, e.material_type, e.niveau)
        return bool(e.thema or e.area_text) and all(f is None for f in facts) and not e.problems


def _structure(text: str, thema: str | None, area_text: str | None, area_broad: bool, vocab: _Vocab,
               hyphen_words: frozenset[str], *, german: bool) -> tuple[str | None, tuple[str, ...]]:
    """Thema and Unterthemen from how the teacher wrote them: quoted, as a header with a list, as a peer list."""
    tools = _TopicTools(vocab, hyphen_words)
    known, head_topic, is_topic = tools.known, tools.head_topic, tools.is_topic
    quoted = topics.quoted_topic(text, known)
    if quoted:
        return quoted, ()
    header = topics.header_list(text, head_topic, known, is_topic)
    if header:
        return header
    if thema is None and area_text is not None and not area_broad:
        thema = area_text
    if thema is None:
        return None, ()
    thema, parts = topics.split_peers(thema, known, is_topic)
    if parts:  # already cleaned part by part
        return thema, parts
    return topics.clean_topic(thema, known, german=german) or thema, parts


def read_topic(text: str, *, topic_terms: TopicTerms | None = None) -> tuple[str | None, tuple[str, ...]]:
    """A message that only names a topic (the answer to "Welchen Schwerpunkt?"), read as a whole: its Thema as the
    teacher wrote it, cleaned, and its sub-topics."""
    vocab, hyphen_words = _vocab_for(topic_terms)
    text = _prepare(spelling.correct(text or ""))
    tools = _TopicTools(vocab, hyphen_words)
    german = not english.is_english(text)
    quoted = topics.quoted_topic(text, tools.known)
    if quoted:
        return quoted, ()
    header = topics.header_list(text, tools.head_topic, tools.known, tools.is_topic)
    if header:
        return header
    thema, parts = topics.split_peers(topics.clean_topic(text, tools.known, german=german), tools.known,
                                      tools.is_topic)
    return (thema or None), parts


def known_term(term: str, *, topic_terms: TopicTerms | None = None) -> str | None:
    """The usual spelling of a known topic term or Themenfeld ("ohmsches gesetz" -> "Ohmsches Gesetz"), else None."""
    return _known_term(_vocab_for(topic_terms)[0], term)


def _known_term(vocab: _Vocab, term: str) -> str | None:
    chunks = [m.group() for m in _CHUNK_RE.finditer(_fold(_prepare(term)))]
    if not chunks:
        return None
    found = vocab.display.get(" ".join(chunks))
    if found:
        return found
    if len(chunks) > 1:
        entries = vocab.by_stems.get(tuple(_stem(c) for c in chunks))
        if entries:
            best = min(entries, key=lambda e: (not e.from_profile, abs(len(e.display) - len(term)))).display
            head, _, last = best.rpartition(" ")
            own_last = term.split()[-1].strip(".,;:!?")
            if head and _fold(own_last) != _fold(last):  # the known spelling, the teacher's number ("Zellen")
                return f"{head} {last[:1] + own_last[1:] if last[:1].isupper() else own_last}"
            return best
    return None


def merge(previous: Extraction, new: Extraction) -> Extraction:
    """The state after another turn: what the new message says wins, what it leaves open is kept.

    A Fach only guessed from topic words never overrides a Fach the teacher named earlier; a new Klassenstufe
    drops an earlier class name that no longer fits ("10a", then "doch Klasse 9"); AFB wishes accumulate;
    `problems` are those of the newest message only (they describe what the teacher just wrote).
    """
    fach, source = previous.fach, previous.fach_source
    if new.fach is not None and not (
        previous.fach is not None and new.fach != previous.fach and new.fach_source == "topic"
        and previous.fach_source in ("explicit", "area")
    ):
        fach, source = new.fach, new.fach_source
    if new.fach_hint is not None and (fach == new.fach):
        hint = new.fach_hint
    elif fach == previous.fach:
        hint = previous.fach_hint
    else:
        hint = None
    if new.klasse is not None:
        klasse, stufe = new.klasse, new.klassenstufe
    elif new.klassenstufe is not None:
        stufe = new.klassenstufe
        keep = previous.klasse is not None and previous.klasse.rstrip("abcdefg") == str(stufe)
        klasse = previous.klasse if keep else None
    else:
        klasse, stufe = previous.klasse, previous.klassenstufe
    wishes = [w for w in previous.afb_wishes if all(_fold(w.thema) != _fold(x.thema) for x in new.afb_wishes)]
    wishes.extend(new.afb_wishes)

    filled = {
        name: getattr(new, name)
        for name in ("thema", "dauer_minuten", "material_type", "afb_verteilung", "aufgaben_anzahl", "niveau",
                     "area_text")
        if getattr(new, name) is not None
    }
    if new.thema is not None:  # a new topic brings its own sub-topics (or none)
        filled["unterthemen"] = new.unterthemen
    if new.area_text is not None:
        filled["area_broad"] = new.area_broad
    return replace(
        previous, **filled, fach=fach, fach_hint=hint, klassenstufe=stufe, klasse=klasse, afb_wishes=tuple(wishes),
        problems=new.problems, fach_source=source,
    )


def missing_fields(e: Extraction) -> list[str]:
    """Which of fach, klassenstufe, thema, dauer_minuten, material_type are still open — in asking order."""
    return [name for name in FIELDS_IN_ASKING_ORDER if getattr(e, name) is None]


def parse_afb_answer(text: str) -> tuple[int, int, int] | None:
    """Three AFB shares from an answer to the AFB Rückfrage ("30/40/30 bitte", "lieber 20 50 30").

    None when the answer names no complete distribution summing to 100 — "wie vorgeschlagen" or "den ersten
    Vorschlag" are for the caller, who knows the proposals.
    """
    fold = _fold(_prepare(text))
    if not fold:
        return None
    values, _, _ = _parse_afb(fold, context=True)
    return values


def extract_preferences(text: str) -> dict[str, object]:
    """Standing wishes in a feedback message, in the shape the preference store uses.

    Keys (only those found): aufgaben_anzahl (int), dinge_vermeiden (list[str]), bonusaufgabe (bool),
    rechnung_theorie_ratio ("60:40", Rechnung first), afb_verteilung ((I, II, III), summing to 100).
    """
    return _preferences(_Doc(text, _vocab_for(None)[1]))


def _preferences(doc: _Doc) -> dict[str, object]:
    prefs: dict[str, object] = {}
    if not doc.tokens:
        return prefs
    count, _ = _parse_count(doc.fold)
    if count is not None and AUFGABEN_MIN <= count <= AUFGABEN_MAX:
        prefs["aufgaben_anzahl"] = count
    things, _, bonus = _parse_avoid(doc)
    if things:
        prefs["dinge_vermeiden"] = things
    if bonus is not None:
        prefs["bonusaufgabe"] = bonus
    ratio, _ = _parse_ratio(doc.fold)
    if ratio is not None:
        prefs["rechnung_theorie_ratio"] = ratio
    afb, _, _ = _parse_afb(doc.fold, context=False)
    if afb is not None:
        prefs["afb_verteilung"] = afb
    return prefs


# ----- feedback ------------------------------------------------------------------------------------------------

_CUES: dict[str, str] = {
    **{p: "pos" for p in [
        "genau so", "genauso", "genau richtig", "genau das", "perfekt", "super", "toll", "top", "prima", "spitze",
        "hervorragend", "ausgezeichnet", "sehr gut", "richtig gut", "echt gut", "total gut", "gut gemacht",
        "gut so", "so ist es gut", "so passt es", "passt so", "passt perfekt", "passt", "gefaellt mir",
        "gelungen", "sehr schoen", "wunderbar", "grossartig", "genial", "exzellent", "stark", "mega", "bestens",
        "einwandfrei", "uebernehme ich", "nehme ich so", "so lassen", "das ist gut", "klasse gemacht",
    ]},
    **{p: "neg" for p in [
        "passt nicht", "passt so nicht", "passt gar nicht", "gefaellt mir nicht", "gefaellt mir gar nicht",
        "nicht gut", "nicht gelungen", "nicht brauchbar", "unbrauchbar", "schlecht", "mies", "falsch",
        "fehlerhaft", "fehler", "quatsch", "mist", "enttaeuschend", "daneben", "nicht das was ich wollte",
        "nicht was ich wollte", "nicht zufrieden", "unzufrieden", "so nicht", "nochmal neu", "noch mal neu",
        "komplett neu", "nicht so gut", "nicht so toll", "nicht perfekt", "nicht super",
    ]},
    **{p: "schwierigkeit_zu_hoch" for p in [
        "zu schwer", "zu schwierig", "zu anspruchsvoll", "zu komplex", "zu kompliziert", "zu hoch",
        "zu hohes niveau", "niveau zu hoch", "zu viel verlangt", "ueberfordert", "ueberfordern", "ueberforderung",
        "einfacher", "leichter", "nicht so schwer", "weniger anspruchsvoll", "zu heftig", "nicht einfach genug",
        "nicht leicht genug",
    ]},
    **{p: "schwierigkeit_zu_niedrig" for p in [
        "zu leicht", "zu einfach", "zu simpel", "zu niedrig", "zu banal", "zu trivial", "niveau zu niedrig",
        "zu wenig anspruchsvoll", "unterfordert", "unterfordern", "anspruchsvoller", "schwerer", "schwieriger",
        "nicht so leicht", "nicht so einfach", "mehr afb iii", "mehr transfer", "nicht schwer genug",
        "nicht anspruchsvoll genug", "nicht schwierig genug",
    ]},
    **{p: "laenge_zu_lang" for p in [
        "zu lang", "zu lange", "zu viel", "zu viele", "zu umfangreich", "kuerzer", "weniger aufgaben",
        "nicht zu schaffen", "nicht schaffbar", "schafft keiner", "schaffen die nicht", "zeit reicht nicht",
        "zu wenig zeit", "zu knapp", "dauert laenger", "laenger als", "zu viel text",
    ]},
    **{p: "laenge_zu_kurz" for p in [
        "zu kurz", "zu wenig", "zu wenige", "mehr aufgaben", "laenger", "umfangreicher", "ausfuehrlicher",
        "zu schnell fertig", "zu schnell", "nicht lang genug", "nicht umfangreich genug",
    ]},
    **{p: "format" for p in [
        "format", "formatierung", "layout", "schriftgroesse", "tabelle", "aufgabenformat", "aufgabenformate",
        "aufgabentyp", "aufgabentypen", "multiple choice", "multiple-choice", "lueckentext", "lueckentexte",
        "bonusaufgabe", "zusatzaufgabe", "punkteverteilung", "nummerierung", "ueberschrift", "darstellung",
        "erwartungshorizont", "musterloesung", "loesungsblatt",
    ]},
}
_CUE_RE = re.compile(
    r"(?<![a-z0-9])(" + "|".join(re.escape(p).replace(r"\ ", r"\s") for p in sorted(_CUES, key=len, reverse=True))
    + r")(?![a-z0-9])"
)
_STANDING_RULE = re.compile(
    r"(?<![a-z])(?:immer|grundsaetzlich|generell|kuenftig|zukunft|naechstes\smal|jedes\smal|standardmaessig|stets)"
    r"(?![a-z])"
)
_WEAK_POSITIVE = _words("gut schoen klasse cool nice fein gefaellt")
_CUE_NEGATED_BEFORE = re.compile(r"(?:nicht|kein|keine|nie|gar nicht)\s(?:so\s|ganz\s|wirklich\s|mehr\s)?$")
_EMOJI_POSITIVE = ("👍", "👌", "🙂", "😊", "😀", "😍", "👏", "🎉")
_EMOJI_NEGATIVE = ("👎", "🙁", "😞", "😕")
_INDEFINITE = _words("ein eine einen einem ne nen neue neuen neues neuer weitere weiteren weiteres andere "
                        "anderen anderes noch")
_REQUEST_MATERIALS = _words("""
    klausur klassenarbeit test quiz arbeitsblatt uebungsblatt h5p lernkontrolle material materialien""")


def _new_request_position(doc: _Doc) -> int | None:
    """Where a request for *another* material starts ("… jetzt noch ein Quiz"), as a folded offset."""
    toks = doc.tokens
    for i, tok in enumerate(toks):
        f = tok.fold
        is_material = f in _REQUEST_MATERIALS or any(f.endswith(m) for m in ("klausur", "quiz", "arbeitsblatt"))
        if not is_material:
            continue
        for k in range(i - 1, max(-1, i - 4), -1):
            if toks[k + 1].brk == 2:
                break
            if toks[k].fold in _INDEFINITE:
                return toks[k].start
    return None


def classify_feedback(text: str) -> Feedback | None:
    """The teacher's reaction to a generated material, or None for anything else (a new request, a question).

    The most specific signal wins: difficulty or length complaints, then format wishes, then overall praise or
    rejection. Negated complaints ("nicht zu schwer") do not count.
    """
    doc = _Doc(text, frozenset())
    if not doc.tokens and not any(e in doc.text for e in _EMOJI_POSITIVE + _EMOJI_NEGATIVE):
        return None
    fold = doc.fold
    limit = _new_request_position(doc)
    end = len(fold) if limit is None else limit
    found: dict[str, int] = {}
    for m in _CUE_RE.finditer(fold, 0, end):
        category = _CUES[" ".join(m.group(1).split())]
        negated = _CUE_NEGATED_BEFORE.search(fold[max(0, m.start() - 20):m.start()])
        if negated:  # "nicht gut" is a rejection, "nicht schlecht" praise, "nicht zu schwer" no complaint
            if category in ("pos", "neg"):
                category = "neg" if category == "pos" else "pos"
            else:
                continue
        found.setdefault(category, m.start())
    # A standing rule ("immer 5 Aufgaben", "keine Multiple Choice") is a format wish; a bare answer such as
    # "30/40/30 bitte" or "mit 5 Aufgaben" is not feedback.
    prefs = _preferences(doc if limit is None else _Doc(doc.text[: doc.ospan(0, end)[1]], frozenset())) if end else {}
    if prefs and ("dinge_vermeiden" in prefs or "bonusaufgabe" in prefs or "rechnung_theorie_ratio" in prefs
                  or _STANDING_RULE.search(fold, 0, end)):
        found.setdefault("format", 0)
    clean = (text or "").strip()
    aspects = [c for c in found if c.startswith(("schwierigkeit", "laenge"))]
    if aspects:
        aspect = cast(FeedbackAspect, min(aspects, key=lambda c: found[c]))
        return Feedback(kind="negative", aspect=aspect, text=clean)
    positive = "pos" in found or any(e in doc.text[: doc.ospan(0, end)[1] if end else 0] for e in _EMOJI_POSITIVE)
    negative = "neg" in found or any(e in doc.text for e in _EMOJI_NEGATIVE)
    if not positive and not negative and limit is None:
        words = [t.fold for t in doc.tokens]
        if 0 < len(words) <= 6 and not any(c.isdigit() for c in fold) and not fold.rstrip().endswith("?"):
            positive = any(w in _WEAK_POSITIVE for w in words) and "nicht" not in words
    if "format" in found:
        kind: FeedbackKind = "positive" if positive and not negative else "negative"
        return Feedback(kind=kind, aspect="format", text=clean)
    if negative:
        return Feedback(kind="negative", aspect="gesamt", text=clean)
    if positive:
        return Feedback(kind="positive", aspect="gesamt", text=clean)
    return None


__all__ = [
    "DAUER_MAX", "DAUER_MIN", "FACH_KEYS", "FACH_NAMEN", "KLASSENSTUFE_MAX", "KLASSENSTUFE_MIN", "OBERSTUFE_DEFAULT",
    "SCHULSTUNDE_MINUTEN", "AfbWish", "Extraction", "Feedback", "classify_feedback", "extract",
    "extract_preferences", "known_term", "merge", "read_topic", "missing_fields", "parse_afb_answer",
]
