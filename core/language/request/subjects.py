"""The words for subjects and topic areas: subject names and abbreviations, compound heads ("Physikklausur"),
subjects the workbench does not support, and area words ("E-Lehre") that imply a Fach."""

from __future__ import annotations

from core.language.document import CHUNK_RE
from core.language.stopwords import word_set
from core.language.text import fold, stem

# Subject words (exact, folded). Abbreviations of one or two letters additionally need a capital letter and must
# stand alone ("Ma", "E"), so "ma" for "mal" and the "E" in "E-Lehre"/"E-Kurs" do not count.
SUBJECT_WORDS: dict[str, str] = {
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
SUBJECT_HEADS: dict[str, str] = {
    "physik": "physik", "mathe": "mathematik", "mathematik": "mathematik", "bio": "biologie",
    "biologie": "biologie", "deutsch": "deutsch", "englisch": "englisch", "chemie": "chemie",
    "geschichts": "geschichte", "geschichte": "geschichte", "erdkunde": "geographie", "geo": "geographie",
    "geographie": "geographie", "geografie": "geographie",
}
SUBJECT_COMPOUND_TAILS = (
    "klassenarbeiten", "klassenarbeit", "klausuren", "klausur", "arbeiten", "arbeit", "tests", "test", "quiz",
    "lehrerin", "lehrer", "unterricht", "stunden", "stunde", "kurs", "buch", "heft", "aufgaben",
)
LANGUAGE_SUBJECTS = {"englischen": "englisch", "deutschen": "deutsch"}
NOT_ENGLISCH_BEFORE = word_set("vitamin note kurs niveau typ gruppe punkt seite anlage teil stufe abb abbildung "
                               "tabelle")
UNSUPPORTED_SUBJECTS: dict[str, str] = {
    "informatik": "Informatik", "kunst": "Kunst", "musik": "Musik", "sport": "Sport", "religion": "Religion",
    "ethik": "Ethik", "politik": "Politik", "sozialkunde": "Sozialkunde", "franzoesisch": "Französisch",
    "latein": "Latein", "spanisch": "Spanisch", "italienisch": "Italienisch", "russisch": "Russisch",
    "wirtschaft": "Wirtschaft", "philosophie": "Philosophie", "sachunterricht": "Sachunterricht",
    "sachkunde": "Sachkunde", "gesellschaftslehre": "Gesellschaftslehre", "sowi": "Sozialwissenschaften",
    "sozialwissenschaften": "Sozialwissenschaften", "paedagogik": "Pädagogik", "psychologie": "Psychologie",
    "werken": "Werken", "technik": "Technik",
}

# Topic-area words: they imply Fach and area (fach_hint) but are no Schwerpunkt on their own.
AREA_ALIASES: dict[str, tuple[str, str]] = {
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
BROAD_AREAS = frozenset(
    tuple(stem(m.group()) for m in CHUNK_RE.finditer(fold(alias))) for alias in AREA_ALIASES
)
