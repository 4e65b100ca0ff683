"""Safety and scope check before the main agent acts, and detection of personal data (pupil names, contacts,
diagnoses, grades) so that it never reaches knowledge or memories. Rule-based and deterministic offline.

Where the lines are (the labelled set `seeds/eval/safety.yaml` shows them by example):

- Teaching work is never refused: materials on any subject and topic, including sensitive curriculum topics
  (Nationalsozialismus, Sexualkunde, Drogen, Krieg, Suizidprävention, Rassismus) and analysing propaganda.
  Harmful rules fire on *instructions to do harm* (build, make, obtain; methods of self-harm; writing new hate
  speech; sexual content with minors), never on a topic word alone.
- Out of scope (recipes, travel, money, private letters, unrelated coding, personal medical/legal advice) is
  refused only when the message has no teaching signal: "Quiz zu Aktien für Wirtschaft 10" is teaching.
- Homework and cheating need the pupil's perspective ("ich bin in der 9b", "meinen Aufsatz", "mein Lehrer",
  "ohne dass die Aufsicht es merkt"); a teacher asking for a Musteraufsatz or the Lösungen of their own exam is
  teaching, and "wie verhindere ich Schummeln" is too.
- Personal data: a teaching request that mentions a named pupil is allowed; names, contacts, diagnoses and grades
  next to a name are replaced in `redacted_text`, and that is what may be stored. Refused (Datenschutz) are
  requests whose *subject* is a named person's record: Gutachten, Förderplan, Zeugnisbemerkung, "merk dir …",
  "was weißt du über …". Anonymous descriptions ("ein Schüler mit LRS") are not personal data.
- A first name alone (word problems: "Lisa kauft 3 Äpfel") is not personal data; it becomes one next to a
  surname, a class ("Tim aus der 7b"), a pupil word ("meine Schülerin Aylin") or a diagnosis/grade. Famous
  people of the curriculum (Goethe, Marie Curie, Anne Frank, …) are never pupils.
- Prompt injection never has an effect (tools and agents do not take instructions from content); it is flagged,
  and refused only when nothing else is asked.

Callers store `redacted_text` (never the raw text) and show `message` to the teacher. The cost is linear: regex
windows are bounded, rule families sit behind cheap substring gates (`_Rules`), and 50 000 characters take a
fraction of a second. A model-based checker can be added through `Checker`; it never weakens the rules'
redaction and cannot overturn a refusal of harmful content.
"""

from __future__ import annotations

import html
import logging
import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal, Protocol

from core.language.fold import fold_for_rules

log = logging.getLogger(__name__)

Category = Literal["ok", "out_of_scope", "homework_for_pupil", "personal_data", "harmful", "cheating", "injection"]
FindingKind = Literal["name", "email", "phone", "address", "birthdate", "iban", "health", "grade_of_pupil"]

# Classification reads at most this much; personal-data detection always reads everything (it is linear).
MAX_CHARS = 200_000


@dataclass(frozen=True)
class Verdict:
    """The outcome of the check. `redacted_text` is what may be stored, whatever the verdict."""

    allowed: bool
    category: Category
    message: str | None
    redacted_text: str


@dataclass(frozen=True)
class Finding:
    """One piece of personal data: `text == original[start:end]`."""

    kind: FindingKind
    start: int
    end: int
    text: str


class Checker(Protocol):
    """A second opinion on a request (e.g. a small LLM classifier when a real model is configured).

    It sees the text and the rules' verdict and returns its own verdict, or None to agree. See `check_request`
    for how the two are merged.
    """

    def __call__(self, text: str, rules: Verdict) -> Verdict | None: ...


# ---------------------------------------------------------------------------------------------------------------
# Messages (German, Sie-form, polite; each refusal says what the workbench can do instead)

CAN_DO = ("Die Werkbank ist für Ihren Unterricht da: Ich erstelle Klausuren mit Erwartungshorizont und "
          "Notenschlüssel, differenzierte Arbeitsblätter in drei Niveaus und interaktive H5P-Übungen – zu jedem "
          "Fach und Thema.")

_OOS_TOPICS: dict[str, tuple[str, str]] = {
    # key: (what it is, a teaching angle on the same topic)
    "cooking": ("Kochrezepte und Essensplanung", "ein Arbeitsblatt zur Textsorte Rezept oder zu gesunder Ernährung"),
    "travel": ("private Reiseplanung", "eine Exkursion, eine Klassenfahrt oder ein Quiz zu einem Reiseland"),
    "finance": ("Geldanlage, Steuern und Finanztipps",
                "eine Unterrichtsstunde zu Aktien, Zinsen oder Inflation für Wirtschaft oder Mathematik"),
    "private_writing": ("private Texte wie Briefe, Glückwünsche oder Bewerbungen",
                        "ein Arbeitsblatt zum Schreiben von Briefen oder Bewerbungen für Ihre Klasse"),
    "coding": ("Programmierhilfe außerhalb des Unterrichts",
               "Übungsaufgaben oder ein Quiz zu Python, Algorithmen oder HTML für den Informatikunterricht"),
    "medical": ("persönliche medizinische Fragen – bitte wenden Sie sich dafür an eine Ärztin oder einen Arzt",
                "ein Arbeitsblatt zu Krankheiten, Immunsystem oder Erster Hilfe für Biologie"),
    "legal": ("persönliche Rechtsfragen – verbindlich beraten Sie z. B. Ihr Personalrat, Ihre Gewerkschaft oder "
              "eine Anwältin bzw. ein Anwalt", "eine Stunde zu Grundrechten oder zum Rechtsstaat für Politik"),
    "erotic": ("erotische Inhalte", "altersgerechtes Material zur Sexualerziehung"),
    "shopping": ("Kaufberatung und Produktvergleiche", "eine Stunde zu Verbraucherbildung oder Werbung"),
    "everyday": ("Alltagsfragen außerhalb der Schule", "Material zu genau diesem Thema für Ihren Unterricht"),
}


def _oos_message(topic: str) -> str:
    what, angle = _OOS_TOPICS[topic]
    return (f"Dabei kann ich Ihnen leider nicht helfen – {what} gehört nicht zu den Aufgaben der Werkbank. "
            f"{CAN_DO} Wenn Sie das Thema im Unterricht aufgreifen möchten, erstelle ich gern z. B. {angle}.")


MSG_HOMEWORK = (
    "Hausaufgaben, Aufsätze oder Referate, die Schülerinnen und Schüler selbst abgeben sollen, schreibt die "
    "Werkbank nicht. Sie ist ein Werkzeug für Lehrkräfte: Ich erstelle z. B. Übungsaufgaben mit Lösungen, "
    "Hilfekarten in drei Niveaus oder eine Checkliste zum Aufsatzschreiben. Wenn du Schülerin oder Schüler bist: "
    "Frag gern deine Lehrkraft nach Übungsmaterial – selbst geschrieben lernst du am meisten."
)
MSG_CHEATING = (
    "Beim Schummeln, beim Umgehen von Prüfungsregeln oder beim Beschaffen von Prüfungslösungen helfe ich nicht. "
    "Gern erstelle ich stattdessen Übungsaufgaben mit Lösungen zur Vorbereitung auf eine Klausur oder Ideen, wie "
    "Sie Täuschungsversuchen in Prüfungen vorbeugen. " + CAN_DO
)
MSG_HARMFUL = (
    "Anleitungen zu Waffen, Sprengstoffen, Giften, Drogen oder Angriffen auf Menschen und Computersysteme gebe "
    "ich nicht. Für den Unterricht erstelle ich gern Material zu den Themen selbst – z. B. zu "
    "Verbrennungsreaktionen in Chemie, zur Drogen- und Gewaltprävention oder zu IT-Sicherheit in Informatik."
)
MSG_SELF_HARM = (
    "Das klingt, als ginge es Ihnen oder jemandem in Ihrem Umfeld gerade sehr schlecht. Bei Methoden, sich selbst "
    "zu verletzen, helfe ich nicht – aber niemand muss damit allein bleiben: Die TelefonSeelsorge ist rund um die "
    "Uhr kostenlos und anonym erreichbar unter 0800 111 0 111 oder 0800 111 0 222 (auch online unter "
    "telefonseelsorge.de); Kinder und Jugendliche erreichen die Nummer gegen Kummer unter 116 111. In akuter "
    "Gefahr wählen Sie bitte den Notruf 112. Für den Unterricht erstelle ich gern Material zur Suizidprävention "
    "und zu Hilfsangeboten."
)
MSG_HATE = (
    "Hetze, Propaganda oder herabwürdigende Inhalte gegen Menschengruppen erstelle ich nicht. Für den Unterricht "
    "helfe ich gern, solche Inhalte zu analysieren und zu entlarven – z. B. mit einem Arbeitsblatt zur Analyse "
    "von NS-Propaganda oder zu Strategien gegen Hassrede im Netz."
)
MSG_MINORS = (
    "Sexualisierte Inhalte mit Kindern oder Jugendlichen erstelle ich unter keinen Umständen. Für den Unterricht "
    "erstelle ich gern altersgerechtes Material zur Sexualerziehung oder zur Prävention sexualisierter Gewalt. "
    "Bei einem Verdacht auf sexualisierte Gewalt berät das Hilfe-Telefon Sexueller Missbrauch kostenlos und "
    "anonym unter 0800 22 55 530."
)
MSG_PERSONAL_REFUSED = (
    "Aus Datenschutzgründen erstelle ich keine Gutachten, Berichte oder Einschätzungen zu namentlich genannten "
    "Schülerinnen und Schülern und speichere keine Angaben zu ihnen (Namen, Noten, Diagnosen, Kontaktdaten). Gern "
    "erstelle ich eine anonymisierte Vorlage – z. B. „Förderplan für einen Schüler der Klasse 7 mit LRS“ – oder "
    "passendes Fördermaterial für Ihre Klasse."
)
MSG_INJECTION_REFUSED = (
    "Ihre Nachricht enthält nur eine Anweisung an das System (z. B. „ignoriere alle vorherigen Anweisungen“). "
    "Solchen Anweisungen folge ich nicht, und meine internen Vorgaben gebe ich nicht heraus. Sagen Sie mir gern, "
    "welches Material Sie brauchen – z. B. „Klausur Physik Klasse 9, Optik, 45 Minuten“. " + CAN_DO
)
MSG_INJECTION_NOTE = (
    "Hinweis: Der Text enthält eine eingebettete Anweisung an das System (etwa „ignoriere alle Anweisungen“). Sie "
    "wird nicht befolgt – ich bearbeite nur Ihre eigentliche Anfrage."
)
MSG_CHECKER_REFUSED = "Bei dieser Anfrage kann ich leider nicht helfen. " + CAN_DO

_KIND_LABELS: dict[str, str] = {
    "name": "Namen", "email": "E-Mail-Adressen", "phone": "Telefonnummern", "address": "Adressen",
    "birthdate": "Geburtsdaten", "iban": "Bankverbindungen", "health": "Gesundheitsangaben",
    "grade_of_pupil": "Noten",
}
REPLACEMENTS: dict[str, str] = {
    "name": "[Name entfernt]", "email": "[E-Mail entfernt]", "phone": "[Telefonnummer entfernt]",
    "address": "[Adresse entfernt]", "birthdate": "[Geburtsdatum entfernt]", "iban": "[IBAN entfernt]",
    "health": "[Gesundheitsangabe entfernt]", "grade_of_pupil": "[Note entfernt]",
}


def _personal_hint(findings: Iterable[Finding]) -> str:
    kinds = list(dict.fromkeys(_KIND_LABELS[f.kind] for f in findings))
    listed = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " und " + kinds[-1]
    return (f"Hinweis zum Datenschutz: Ihre Nachricht enthält personenbezogene Angaben ({listed}). Ich habe sie "
            "entfernt und speichere sie nicht – für das Material sind sie auch nicht nötig. Beschreiben Sie den "
            "Bedarf am besten anonym, z. B. „ein Schüler mit LRS in Klasse 7“.")


# ---------------------------------------------------------------------------------------------------------------
# Text preparation: HTML out, German folding (lower case, ä -> ae, ß -> ss, accents dropped), spaces collapsed.
# Rule patterns are written against the folded text, so "für" and "fuer", "SCHÜLER" and "Schüler" match alike.

_TAG = re.compile(r"<[a-zA-Z/!][^<>]{0,1000}>")


def _prepare(text: str) -> str:
    raw = text[:MAX_CHARS]
    return fold_for_rules(html.unescape(_TAG.sub(" ", raw)))


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@lru_cache(maxsize=32)
def _has(pattern: re.Pattern[str], folded: str) -> bool:
    """A shared signal of one text; several rules ask for the same ones."""
    return pattern.search(folded) is not None


class _Rules:
    """Patterns behind a cheap gate: none of them can match unless one of `keys` occurs in the text, and a
    substring test is much faster than a regex over 50 000 characters."""

    def __init__(self, keys: str, *patterns: re.Pattern[str]) -> None:
        self.keys = tuple(keys.split("|"))
        self.patterns = patterns

    def search(self, folded: str) -> bool:
        return any(k in folded for k in self.keys) and any(p.search(folded) for p in self.patterns)


def _words(*alternatives: str) -> str:
    return "(?:" + "|".join(alternatives) + ")"


# A clause: no sentence end inside. Windows are always bounded.
def _gap(n: int) -> str:
    return r"[^.?!\n]{0," + str(n) + "}?"


# ---------------------------------------------------------------------------------------------------------------
# Signals shared by several rules

_MATERIAL = _rx(
    r"\b(?:(?:klausur\w*|klassenarbeit\w*|kursarbeit\w*|schulaufgabe\w*|lernkontroll\w*|leistungskontroll\w*|"
    r"lernstandserhebung\w*|vokabeltest\w*|kurztest\w*|wissenstest\w*|arbeitsbl\w*|uebungsbl\w*|"
    r"uebungsaufgabe\w*|uebungsmaterial\w*|aufgabenbl\w*|aufgabenstellung\w*|textaufgabe\w*|sachaufgabe\w*|quiz\w*|"
    r"h5p|lueckentext\w*|kreuzwortraetsel\w*|zuordnungsaufgabe\w*|multiple[- ]choice|differenzier\w*|"
    r"niveaustufe\w*|erwartungshorizont\w*|notenschluessel\w*|bewertungs\w*|punkteverteilung|afb|"
    r"anforderungsbereich\w*|operatoren|unterricht\w*|doppelstunde\w*|stundenentwurf\w*|stundenverlauf\w*|"
    r"stundeneinstieg|verlaufsplan\w*|tafelbild\w*|lernziel\w*|kompetenz\w*|lehrplan\w*|rahmenlehrplan\w*|"
    r"bildungsplan\w*|kerncurriculum|lernzirkel\w*|stationenlernen|lernstation\w*|stationsarbeit|wochenplanarbeit|"
    r"lerntheke\w*|lernpfad\w*|hilfekarte\w*|musterloesung\w*|foerdermaterial\w*|sus|lerngruppe\w*|"
    r"leistungskurs\w*|grundkurs\w*|klassenfahrt\w*|exkursion\w*|wandertag\w*|schullandheim\w*|projekttag\w*|"
    r"projektwoche\w*|elternabend\w*|jahrgangsstufe\w*|oberstufe|sekundarstufe|abitur\w*|informatik\w*|"
    r"im fach|vertretungsstunde\w*|schulstunde\w*|klassenleiterstunde\w*|klassenrat|\w+praevention)\b"
    r"|(?:eine|die|meine|unsere|naechste|letzte|erste|ganze) (?:\w+ )?stunde (?:zu|zum|zur|ueber|vor|in|mit|fuer)\b"
    r"|sek ?(?:i|ii|1|2)\b|klasse ?\d|\d{1,2}\. ?klasse|jahrgang ?\d"
    r"|(?:fuer|mit|in) (?:die|der|meine|meiner|unsere|unserer) \d{1,2} ?[a-z]\b"
    r"|(?:meine|meinen|meiner|unsere|unseren|den|die|der) schueler(?:innen|n)?\b|meiner klasse\b)"
)
_SUBJECT = _rx(
    r"\b(?:mathe\w*|deutsch\w*|englisch\w*|franzoesisch\w*|spanisch\w*|latein\w*|physik\w*|chemie\w*|biologie\w*|"
    r"bio|geschichte|geschichts\w+|geografie|geographie|erdkunde|politik\w*|sozialkunde|gemeinschaftskunde|"
    r"wirtschaft\w*|religion\w*|ethik\w*|philosophie\w*|kunst\w*|musik\w*|sport\w*|sachunterricht|"
    r"naturwissenschaft\w*|nawi|gesellschaftslehre|hauswirtschaft|technik)\b"
)
_PREVENT = _rx(
    r"(?<!nicht )\b(?:erkennen|erkenne ich|erkennt man|verhinder\w*|vorbeug\w*|vermeid\w*|unterbind\w*|aufdeck\w*|"
    r"aufdecken|entdecken|ertappen|erwischen|erwische ich|umgang mit|reagieren|reagiere ich|massnahme\w*|"
    r"taeuschungsversuch\w*|sanktion\w*|konsequenz\w*|praevention\w*|\w+praevention|sorge ich dafuer|schuetzen|"
    r"merke ich|bemerke ich|feststellen|nachweisen|nachweise ich|ueberpruefen|ueberpruefe ich|"
    r"schuetze ich|aufklaer\w*|damit um|gehe ich (?:\w+ ){0,4}?um)\b"
)
_ANALYSIS = _rx(
    r"\b(?:analys\w*|analysier\w*|untersuch\w*|erkennen|erkenne|entlarv\w*|vergleich\w*|einordn\w*|quelle\w*|"
    r"quellenkritik|interpretier\w*|interpretation\w*|widerleg\w*|gegenrede|gegenargument\w*|aufklaer\w*|"
    r"praevention\w*|zivilcourage|courage|diskutier\w*|reflektier\w*|thematisier\w*|besprech\w*|wirkung\w*|"
    r"umgang|gegen (?:rassismus|antisemitismus|hass|hetze|rechts|diskriminierung)|menschenrechte|demokratie\w*|"
    r"vorurteil\w*|stereotyp\w*|klischee\w*|fakten\w*|faktencheck|dargestellt|darstellung\w*)\b"
)


# Words that are teaching words only next to a subject: "Übungen" for the back, "Test" for Corona, "Niveau" of a hotel.
_MATERIAL_WEAK = _rx(r"(?<!-)\b(?:uebung|uebungen|tests?|niveaus?|vokabel\w*|moodle|docx|material\w*)\b")


def _teaching(folded: str) -> bool:
    """A clear teaching signal (a material, a class, the classroom) — enough to outweigh an out-of-scope word."""
    return _has(_MATERIAL, folded) or (_has(_MATERIAL_WEAK, folded) and _has(_SUBJECT, folded))


# ---------------------------------------------------------------------------------------------------------------
# Harmful: instructions to do harm. Topic words alone never fire.

_WEAPON = _words(
    r"bomben?", r"\w*bombe", r"\w*bomben", r"sprengstoff\w*", r"sprengs[aä]tz\w*", r"sprengkoerper\w*",
    r"sprengladung\w*", r"molotow\w*", r"brandsatz\w*", r"napalm", r"tatp", r"acetonperoxid", r"nitroglyc?z?erin",
    r"schusswaffe\w*", r"waffen?", r"pistole\w*", r"gewehr\w*", r"revolver", r"munition", r"schalldaempfer\w*",
    r"nervengas\w*", r"giftgas\w*", r"sarin", r"rizin", r"ricin", r"anthrax", r"milzbrand\w*", r"biowaffe\w*",
    r"chemiewaffe\w*", r"chemische waffe\w*", r"sprengfalle\w*", r"boeller\w*", r"polenboeller\w*", r"kugelbombe\w*",
    r"rauchbombe\w*", r"brandbeschleuniger",
)
_HARMLESS_BOMB = _rx(r"\b(?:wasserbombe\w*|kalorienbombe\w*|vitaminbombe\w*|saftbombe\w*|badebombe\w*|"
                     r"zeitbombe\w*|farbbombe\w*|glitzerbombe\w*|samenbombe\w*|seedbomb\w*)\b")
_SUBJ = r"(?:ich|man|wir)"
_MODAL = r"(?:kann|koennte|kannst|soll|sollte|muss|koennen|sollen|muessen)"
_HARM_WEAPON = _Rules(
    "bomb|spreng|molotow|brandsatz|napalm|tatp|acetonperoxid|nitrogl|waffe|pistol|gewehr|revolver|munition|"
    "schalldaempfer|gas|sarin|rizin|ricin|anthrax|milzbrand|boeller|brandbeschleuniger",
    _rx(rf"\bwie (?:baue|bastle|bastel|mische|mixe|baut|bastelt|mischt|baust|bastelst) {_SUBJ}\b{_gap(40)}"
        rf"\b{_WEAPON}\b"),
    _rx(rf"\bwie (?:stelle|stellt|stellst) {_SUBJ}\b{_gap(40)}\b{_WEAPON}\b{_gap(25)}\bher\b"),
    _rx(rf"\bwie (?:mache|macht|machst) {_SUBJ} (?:selbst |selber |zu hause )?eine?n? (?:\w+ )?{_WEAPON}\b"),
    _rx(rf"\bwie {_SUBJ}\b{_gap(40)}\b{_WEAPON}\b{_gap(25)}\b(?:baut|baue|bauen kann|herstellt|herstelle|"
        rf"herstellen kann|bastelt|bastle|zuendet|zuende|mischt|mische|druckt|drucke)\b"),
    _rx(rf"\b(?:um|damit) (?:\w+ ){{0,3}}?{_WEAPON} (?:zu bauen|zu basteln|herzustellen|zu zuenden|zu mischen|"
        rf"zu zuenden|bauen|basteln|herstellen|zuenden)\b"),
    _rx(rf"\b(?:ich|wir) (?:will|moechte|wollen|moechten|werde|werden)\b{_gap(30)}\b{_WEAPON}\b{_gap(20)}"
        rf"\b(?:bauen|basteln|herstellen|zuenden|zur explosion bringen|besorgen|kaufen)\b"),
    _rx(rf"\b(?:wie {_MODAL} {_SUBJ}|wie {_MODAL}|anleitung\w*|bauanleitung\w*|bauplan|baupl[aä]ene|rezept\w*|"
        rf"tutorial|schritt fuer schritt|zeig mir|erklaer mir|sag mir|gib mir|beschreib\w* mir|schreib\w* mir)\b"
        rf"{_gap(60)}\b{_WEAPON}\b{_gap(40)}\b(?:bauen|basteln|herstellen|herzustellen|zu bauen|mischen|mixen|"
        rf"zuenden|zur explosion bringen|detonieren|drucken|3d-?drucken|besorgen|beschaffen|kaufen|selber|selbst)\b"),
    _rx(rf"\b(?:anleitung|bauanleitung|bauplan|rezept|tutorial)\w* (?:zum|zur|fuer|fuers)(?: den| die| das| eine?n?)? "
        rf"(?:(?:bau|herstellung|bauen|herstellen|mischen|basteln)\b{_gap(30)}\b)?{_WEAPON}\b"),
    _rx(rf"(?:^|[.!?\n\"] ?)(?:bitte )?(?:bau|baue|bastle|bastel|mische|mix) (?:mir |uns )?(?:eine?n? |die |den |das )?"
        rf"(?:\w+ )?{_WEAPON}\b"),
    _rx(r"\b(?:bombenbau|bombenbauanleitung|sprengstoffherstellung|waffenbau)\w*\b"),
    _rx(rf"\bwo (?:kaufe|bekomme|kriege|bestelle|finde) (?:ich|man)\b{_gap(30)}\b(?:schusswaffe\w*|waffen?|pistole\w*|"
        rf"gewehr\w*|munition|sprengstoff\w*|revolver)\b|\bdarknet\b{_gap(40)}\b{_WEAPON}\b"),
    _rx(r"\bwie (?:komme ich|kommt man|kann ich|bekomme ich|kriege ich) (?:illegal |ohne \w+ )?an (?:eine?n? )?"
        r"(?:scharfe )?(?:schusswaffe|waffe|pistole|gewehr|munition|sprengstoff)\b"),
)
_DRUG = _words(r"crystal(?: meth)?", r"meth", r"methamphetamin", r"lsd", r"mdma", r"ecstasy", r"kokain", r"koks",
               r"crack", r"heroin", r"amphetamin\w*", r"ghb", r"k\.? ?o\.?-?tropfen", r"fentanyl", r"cannabis",
               r"marihuana", r"haschisch", r"hasch", r"drogen", r"ketamin", r"opium")
_HARM_DRUGS = _Rules(
    "crystal|meth|lsd|mdma|ecstasy|kokain|koks|crack|heroin|amphetamin|ghb|tropfen|fentanyl|cannabis|marihuana|"
    "hasch|drogen|ketamin|opium",
    _rx(rf"\bwie {_MODAL} {_SUBJ}\b{_gap(40)}\b{_DRUG}\b{_gap(30)}\b(?:herstellen|kochen|synthetisieren|anbauen|"
        rf"strecken|kaufen|besorgen|bestellen|verkaufen|dealen|schmuggeln|verabreichen|unbemerkt geben)\b"),
    _rx(rf"\bwie (?:stelle|koche|synthetisiere|kaufe|bestelle|besorge|verkaufe|schmuggle|stellt|kocht|kauft) "
        rf"{_SUBJ}\b{_gap(30)}\b{_DRUG}\b"),
    _rx(rf"\bwie {_SUBJ}\b{_gap(30)}\b{_DRUG}\b{_gap(20)}\b(?:herstellt|herstelle|herstellen kann|kocht|koche|"
        rf"synthetisiert|anbaut|anbaue|kauft|kaufe|bekommt|bekomme|besorgt|besorge|streckt|strecke)\b"),
    _rx(rf"\bwo (?:kann ich|kaufe ich|bekomme ich|bestelle ich|kriege ich|kann man|kauft man|bekommt man)\b"
        rf"{_gap(30)}\b{_DRUG}\b"),
    _rx(rf"\b(?:anleitung|rezept|syntheseweg)\w*\b{_gap(30)}\b{_DRUG}\b"),
    _rx(r"\bk\.? ?o\.?-?tropfen\b" + _gap(40) + r"\b(?:jemandem|ins getraenk|verabreichen|geben|untermischen)\b"),
)
_PERSON = (r"(?:jemanden|jemandem|ihn|sie|einen menschen|menschen|leute|meine?n?|meiner|den lehrer|die lehrerin|"
           r"einen schueler|eine schuelerin|mitschueler\w*|kollegen|kollegin|nachbarn?|nachbarin|chef\w*|frau|mann)\b")
_HARM_VIOLENCE = _Rules(
    "vergift|toet|ermord|erschiess|erstech|erwuerg|verletz|verpruegl|verpruegel|umbring|abstech|bring|gift|amok|"
    "schaden|weh zu tun|angst machen|droh|einschuechter|erpress|"
    "anschlag|attentat|massaker",
    _rx(rf"\bwie (?:vergifte|toete|ermorde|erschiesse|ersteche|erwuerge|verletze|verpruegle|verpruegel) "
        rf"{_SUBJ} {_PERSON}"),
    _rx(rf"\b(?:wie|womit) {_MODAL} {_SUBJ} (?:\w+ ){{0,2}}?{_PERSON} (?:\w+ ){{0,2}}?(?:vergiften|umbringen|toeten|"
        rf"ermorden|erschiessen|erstechen|erwuergen|verpruegeln|abstechen)\b"),
    _rx(r"\bwie (?:bringe|bring) (?:ich|man) (?:\w+ ){1,3}?um\b(?! (?:den|die|das|ihre?n?|seine?n?|\d))"),
    _rx(r"\b(?:nicht nachweisbar\w*|unauffaellig\w*) (?:gift\w*|vergift\w*)|\bgift\w*,? (?:das|der|die|den) "
        r"(?:man )?nicht nachweis\w*"),
    _rx(r"\b(?:amoklauf|amok|anschlag|attentat|massaker|terroranschlag)\w* (?:planen|plane|vorbereiten|verueben|"
        r"durchfuehren)\b|\b(?:plane|planen|vorbereiten|verueben) (?:\w+ ){0,3}?(?:amoklauf|anschlag|attentat|"
        r"massaker)\b"),
    _rx(r"\bich (?:bringe|bring|werde) (?:ihn|sie|dich|euch|alle) (?:noch )?(?:um|umbringen|abstechen|"
        r"erschiessen)\b(?! (?:den|die|das|ihre?n?|seine?n?|\d))"),
    _rx(rf"\bich (?:will|werde|moechte) {_PERSON} (?:\w+ ){{0,2}}?(?:umbringen|toeten|abstechen|erschiessen|"
        rf"vergiften|ermorden)\b"),
    _rx(r"\bwie (?:kann|koennte) (?:ich|man) (?:einem|einer|meinem|meiner|jemandem|ihm|ihr)\b" + _gap(40)
        + r"\b(?:angst machen|drohen|einschuechtern|erpressen|bedrohen)\b|\b(?:drohungen|drohen|erpress\w*|"
          r"einschuechter\w*)\b" + _gap(40) + r"\bdamit (?:er|sie|es)\b"),
    _rx(r"\bum (?:jemanden|jemandem|ihn|ihm|sie|ihr|einen menschen|meine?[nm]? \w+|den \w+|die \w+) (?:\w+ ){0,2}?"
        r"(?:zu schaden|zu verletzen|zu toeten|umzubringen|zu vergiften|weh zu tun|zu ermorden)\b"),
)
_HACK_TARGET = (r"(?:wlan|w-lan|account|konto|server|schulserver|schulnetz\w*|netzwerk|notenportal|iserv|webuntis|"
                r"untis|moodle|lernplattform|instagram|whatsapp|facebook|tiktok|snapchat|handy|smartphone|computer|"
                r"rechner|laptop|pc|e-?mail\w*|passwort\w*|website|webseite|datenbank|kamera\w*|webcam\w*|"
                r"router|smart-?tv|alexa|cloud|icloud|tablet)")
_HACK = _Rules(
    "hack|knack|ausspion|ausspaeh|lahmleg|einbrech|eindring|keylogger|trojaner|ransomware|ddos|schadsoftware|"
    "malware|virus|phishing|passwort|passwoert|zugangsdaten|login|account|konto|handy|mail|chat|nachrichten|"
    "webcam|kamera",
    _rx(rf"\b{_HACK_TARGET}\b{_gap(40)}\b(?:hacken|hacke|hackt|knacken|knacke|ausspionieren|ausspaehen|lahmlegen|"
        rf"einbrechen|eindringen)\b"),
    _rx(rf"\b(?:hacken|hacke ich|hackt man|einbrechen in|eindringen in|lahmlegen)\b{_gap(40)}\b{_HACK_TARGET}\b"),
    _rx(r"\b(?:wie|anleitung|schreib\w*|erstell\w*|programmier\w*|bau\w*|zeig\w*|gib mir)\b" + _gap(60)
        + r"\b(?:keylogger|trojaner|ransomware|ddos\w*|schadsoftware|malware|virus (?:programmieren|schreiben)|"
          r"phishing-?(?:mail|seite|nachricht|link|e-mail)\w*)\b"),
    _rx(r"\b(?:passwort|passwoerter|zugangsdaten|login|account|konto|handy|e-?mails?|chats?|nachrichten)\w* "
        r"(?:meines|meiner|von meinem|von meiner|des|der|eines|einer) (?:\w+ )?(?:kolleg\w*|schueler\w*|chef\w*|ex\w*|"
        r"freund\w*|nachbar\w*|mann|frau|partner\w*|lehrer\w*|schulleit\w*|mitschueler\w*|tochter|sohn)\b"),
    _rx(r"\b(?:passwort|passwoerter|zugangsdaten|login)\w*" + _gap(40) + r"\b(?:herausfinden|rausfinden|knacken|"
        r"auslesen|stehlen|klauen|abgreifen|ausspionieren)\b"),
)
_HARM_SELF = _Rules(
    "mich|mir|sich|suizid|selbstmord|sterb|leben",
    _rx(r"\b(?:wie|womit|auf welche (?:art|weise)|welche (?:methode|art)|am besten)\b" + _gap(40)
        + r"\b(?:bringe ich mich um|mich (?:\w+ ){0,2}?(?:umbringen|toeten|umzubringen|zu toeten|erhaengen|"
          r"vergiften|ritzen)|mir (?:\w+ ){0,2}?das leben (?:nehmen|zu nehmen)|suizid begehen|selbstmord begehen|"
          r"mich ritzen|mich (?:selbst )?"
          r"(?:verletzen|zu verletzen)|schmerzlos sterben)\b"),
    _rx(r"\bich (?:will|moechte|werde|wuerde am liebsten|muss) (?:mich (?:umbringen|toeten|ritzen)|mir das leben "
        r"nehmen|nicht mehr leben|sterben)\b|\bich (?:bringe|bring) mich um\b"),
    _rx(r"\bum mich (?:\w+ ){0,2}?(?:umzubringen|zu toeten|zu verletzen|zu ritzen|zu erhaengen|zu vergiften)\b"
        r"|\bum mir (?:\w+ ){0,2}?das leben zu nehmen\b"),
    _rx(r"\bwie (?:ritze|verletze|toete|erhaenge|vergifte|ritzt|verletzt|toetet|erhaengt|vergiftet) (?:ich|man) "
        r"(?:mich|sich)\b"),
)
_HARM_SELF_SOFT = _Rules(  # suppressed by a prevention/teaching context
    "suizid|selbstmord|selbsttoet|ritz|sterb|verletz|umzubringen|toeten|leben zu nehmen|tablett|pille|paracetamol|"
    "ibuprofen|insulin|medikament|toedlich",
    _rx(r"\b(?:methode\w*|wege?|moeglichkeiten|arten|tipps?|tricks?)\b" + _gap(30)
        + r"\bsich (?:selbst )?(?:zu verletzen|zu ritzen|umzubringen|zu toeten|das leben zu nehmen)\b"),
    _rx(r"\b(?:suizid|selbstmord|selbsttoetung)(?:methode|anleitung)\w*|\b(?:methoden?|wege?|anleitung|"
        r"moeglichkeiten) (?:zum|zur|fuer den|fuer einen|fuer) (?:suizid|selbstmord|selbsttoetung|ritzen|sterben)\b"),
    _rx(r"\b(?:wie ?viele?|welche\w*|welche menge|wie viel|wieviel)\b" + _gap(40) + r"\b(?:tabletten|pillen|"
        r"schlaftabletten|paracetamol|ibuprofen|insulin|medikamente)\b" + _gap(50)
        + r"\b(?:toedlich\w*|sterben|zu sterben|umbringen|umzubringen|nicht mehr (?:aufwachen|aufzuwachen)|"
          r"nie wieder (?:aufwachen|aufzuwachen)|ueberdosis)\b"),
    _rx(r"\b(?:ich|mich|mir)\b" + _gap(40) + r"\btoedliche dosis\b|\btoedliche dosis\b" + _gap(40)
        + r"\b(?:ich|mich|mir)\b"),
)
_CREATE = (r"(?:schreib\w*|verfass\w*|formulier\w*|erstell\w*|entwirf|entwerf\w*|generier\w*|dicht\w*|mach\w*|"
           r"gib mir|sammle|sammel\w*|erfinde\w*|komponier\w*|texte|reim\w*|denk dir)")
_HATE_ADJ = (r"(?:antisemitisch\w*|rassistisch\w*|volksverhetzend\w*|menschenverachtend\w*|hetzerisch\w*|"
             r"fremdenfeindlich\w*|auslaenderfeindlich\w*|homophob\w*|transfeindlich\w*|islamfeindlich\w*|"
             r"muslimfeindlich\w*|judenfeindlich\w*|frauenfeindlich\w*|behindertenfeindlich\w*|neonazi\w*|"
             r"voelkisch\w*|hasserfuellt\w*|herabwuerdigend\w*)")
_HATE_NOUN = (r"(?:hetz\w*|hass\w*|propaganda\w*|parole\w*|witz\w*|beleidigung\w*|schimpfw\w*|beschimpfung\w*|post|"
    r"posts|"
              r"kommentar\w*|tweet\w*|rede|reden|text|texte|lied\w*|song\w*|gedicht\w*|rap\w*|manifest\w*|"
              r"flugbla\w*|plakat\w*|slogan\w*|meme\w*|spruch|sprueche|aufruf\w*|pamphlet\w*)")
_GROUP = (r"(?:juden|juedinnen|jued\w*|muslim\w*|moslem\w*|auslaender\w*|fluechtling\w*|gefluechtete\w*|migrant\w*|"
          r"asylanten|asylbewerber\w*|schwarze\w*|sinti|roma|tuerken|araber\w*|afrikaner\w*|polen|russen|"
          r"ukrainer\w*|homosexuell\w*|schwule\w*|lesben|queere?n?|transmenschen|transpersonen|behinderte\w*|frauen|"
          r"christen|deutsche)")
# Hateful words next to a creating verb ("erstelle rassistische Witze"); a material or analysis context lifts these.
_HARM_HATE_NEAR = _Rules(
    "antisemit|rassist|volksverhetz|menschenverachtend|hetzerisch|feindlich|homophob|neonazi|voelkisch|"
    "hasserfuell|herabwuerdig|propaganda",
    _rx(rf"\b{_CREATE}\b{_gap(12)}\b(?:eine?n? |mir |uns )?(?:\w+ )?propaganda\w*"),
    _rx(rf"\b{_CREATE}\b{_gap(60)}\b{_HATE_ADJ}\b{_gap(30)}\b{_HATE_NOUN}\b"),
    _rx(rf"\b{_CREATE}\b{_gap(40)}\b{_HATE_NOUN}\b{_gap(40)}\b{_HATE_ADJ}\b"),
)
# Hate against a named group, or dehumanising statements: only an analysis context lifts these.
_HARM_HATE = _Rules(
    "gegen|propaganda|minderwertig|untermensch|ungeziefer|parasit|schaedling|abschaum|tiere|schuld|kriminell|"
    "vertreiben|"
    "unglueck|vergasen|ausrotten|vernichten|abschlachten|holocaust",
    _rx(rf"\b{_CREATE}\b{_gap(60)}\b{_HATE_NOUN}\b{_gap(40)}\bgegen (?:die |alle )?{_GROUP}\b"),
    _rx(rf"\b{_CREATE}\b{_gap(60)}\b{_GROUP}\b{_gap(30)}\b(?:schuld|minderwertig\w*|kriminell\w*|parasit\w*|"
        rf"untermensch\w*|ungeziefer|abschaum|ausrotten|vertreiben|vernichten)\b"),
    _rx(rf"\b{_CREATE}\b{_gap(30)}\b(?:eine?n?|mir eine?n?) (?:\w+ )?(?:nazi|ns)-?propaganda\w*"),
    _rx(rf"\b{_GROUP} (?:sind|als|waren)\b{_gap(20)}\b(?:minderwertig\w*|untermensch\w*|ungeziefer|parasit\w*|"
        rf"schaedling\w*|abschaum|tiere|schuld an allem|unser unglueck)\b"),
    _rx(rf"\b{_GROUP}\b{_gap(20)}\b(?:minderwertig\w*|untermenschen|ungeziefer|parasiten|abschaum) (?:sind|seien|"
        rf"waren)\b"),
    _rx(rf"\b{_GROUP} (?:vergasen|ausrotten|vernichten|abschlachten)\b|\bholocaust (?:hat es nie gegeben|ist eine "
        rf"luege|war eine luege|hat nie stattgefunden|leugn\w*)|\bden holocaust leugn\w*"),
)
_EROTIC_HARD = r"(?:erotisch\w*|sexgeschicht\w*|sexszene\w*|sexstor\w*|sexuelle? fantasie\w*|sexuelle? phantasie\w*)"
_EROTIC_SOFT = (r"(?:porno\w*|nackt\w*|sexuelle?n? (?:bilder|fotos|videos|handlung\w*|darstellung\w*|inhalte)|"
                r"intime? (?:bilder|fotos|videos)|sex mit|sex\b|anzueglich\w*|lolita|loli)")
_MINOR = (r"(?:kind\w*|minderjaehrig\w*|schueler\w*|maedchen|jungen?|\d{1,2}-?jaehrig\w*|(?:zwoelf|dreizehn|"
          r"vierzehn|fuenfzehn|sechzehn|siebzehn|zehn|elf|neun|acht)jaehrig\w*|teen\w*|jugendlich\w*|"
          r"grundschueler\w*|unter (?:14|16|18))")
# Erotic content *about* a minor ("über eine Schülerin") is refused whatever else the text says; mere co-occurrence
# ("erotische Lyrik des Barock mit Schülern der Q2 besprechen") only without a teaching or analysis context.
_HARM_MINORS_HARD = _Rules(
    "erot|sex|fantasie|phantasie",
    _rx(rf"\b{_EROTIC_HARD}\b{_gap(40)}\b(?:ueber|zwischen|von|mit) (?:eine?[mnr]? |zwei |die |den |dem |der )?"
        rf"(?:\w+ )?{_MINOR}\b"),
)
_HARM_MINORS_NEAR = _Rules(
    "erot|sex|fantasie|phantasie",
    _rx(rf"\b{_EROTIC_HARD}\b{_gap(80)}\b{_MINOR}\b"),
    _rx(rf"\b{_MINOR}\b{_gap(80)}\b{_EROTIC_HARD}\b"),
)
_HARM_MINORS_SOFT = _Rules(
    "porno|nackt|sex|intim|anzueglich|loli",
    _rx(rf"\b{_EROTIC_SOFT}{_gap(60)}\b{_MINOR}\b"),
    _rx(rf"\b{_MINOR}\b{_gap(60)}\b{_EROTIC_SOFT}"),
)
_SEX_ED = _rx(r"\b(?:sexualkunde|sexualerziehung|sexualpaedagog\w*|aufklaerung\w*|praevention\w*|schutz\w*|"
              r"schuetz\w*|missbrauch\w*|grooming|cybergrooming|sexting|strafbar\w*|risiken|gefahren|verdacht\w*|"
              r"melden|hilfe\w*|warnsignal\w*|medienkompetenz|jugendschutz|pubertaet|verhuetung)\b")
_DRUG_PREVENTION = _rx(r"\b(?:praevention\w*|drogenpraevention|suchtpraevention|aufklaer\w*|sucht\w*|gefahren|"
                       r"risiken|unterricht\w*|arbeitsbl\w*|quiz\w*|klausur\w*|roman\w*|film\w*|serie\w*)\b")
_SELF_HARM_CONTEXT = _rx(r"\b(?:praevention\w*|suizidpraevention|werther\w*|vorbeug\w*|hilfsangebot\w*|"
                         r"erkennen|anzeichen|warnsignal\w*|unterricht\w*|arbeitsbl\w*|klausur\w*|roman\w*|"
                         r"figur\w*|gedicht\w*|novelle\w*|drama\w*|interpretation\w*|ethik\w*|pharmakolog\w*)\b")
_VIOLENCE_CONTEXT = _rx(r"\b(?:verhinder\w*|vorbeug\w*|schuetz\w*|praevention\w*|gewaltpraevention|roman\w*|umgang|"
                        r"reagier\w*|gehe ich damit um|hilfe holen|"
                        r"figur\w*|drama\w*|novelle\w*|szene\w*|interpretation\w*|krimi\w*|spiel\w*|film\w*)\b")


def _harmful(folded: str) -> str | None:
    """The refusal message when the text asks for harm, else None."""
    if _HARM_SELF.search(folded):
        return MSG_SELF_HARM
    if _HARM_SELF_SOFT.search(folded) and not _has(_SELF_HARM_CONTEXT, folded):
        return MSG_SELF_HARM
    if _HARM_MINORS_HARD.search(folded):
        return MSG_MINORS
    teaching = _teaching(folded) or _has(_ANALYSIS, folded)
    if not teaching and _HARM_MINORS_NEAR.search(folded):
        return MSG_MINORS
    if not teaching and _HARM_MINORS_SOFT.search(folded) and not _has(_SEX_ED, folded):
        return MSG_MINORS
    if _HARM_WEAPON.search(_HARMLESS_BOMB.sub(" ", folded)):
        return MSG_HARMFUL
    if _HARM_DRUGS.search(folded) and not _has(_DRUG_PREVENTION, folded):
        return MSG_HARMFUL
    if _HARM_VIOLENCE.search(folded) and not _has(_VIOLENCE_CONTEXT, folded):
        return MSG_HARMFUL
    if _HACK.search(folded) and not _has(_PREVENT, folded) and not _teaching(folded):
        return MSG_HARMFUL
    if not _has(_ANALYSIS, folded):
        if _HARM_HATE.search(folded):
            return MSG_HATE
        if _HARM_HATE_NEAR.search(folded) and not _teaching(folded):
            return MSG_HATE
    return None


# ---------------------------------------------------------------------------------------------------------------
# Cheating and homework: the pupil's perspective is what makes them so.

_EXAM = (r"(?:klausur\w*|klassenarbeit\w*|kursarbeit\w*|schulaufgabe\w*|\w*tests?|ex|stegreifaufgabe\w*|"
         r"pruefung\w*|abi|abitur\w*|abipruefung\w*|zentralabitur|vergleichsarbeit\w*|vera|lernkontrolle\w*|"
         r"leistungskontrolle\w*|mathearbeit|deutscharbeit|englischarbeit|lateinarbeit|physikarbeit|chemiearbeit)")
# Strong signs that a teacher speaks; pupils do not talk like this.
_TEACHER_STRONG = _rx(
    r"\bich unterrichte\b|\bich bin (?:\w+ )?(?:lehrer|lehrerin|lehrkraft|referendar\w*|klassenlehrer\w*|"
    r"fachlehrer\w*|schulleiter\w*|lehramtsanwaerter\w*)\b|\beingesetzt\b|\b(?:meine|meinen|unsere|unseren) "
    r"(?:\w+ )?(?:schueler|schuelerinnen|schuelern|sus)\b|\bden schuelern\b|\b(?:fuer|mit) (?:der|die|meiner|meine|"
    r"unserer) \d{1,2} ?[a-z]\b|\b(?:erwartungshorizont|notenschluessel|musterloesung|bewertungsbogen|"
    r"unterrichtsentwurf|lehrprobe|fachleiter|fachleitung|fachkonferenz|fachschaft|schulleitung|kollegium|"
    r"elternabend|fortbildung|lehrerkonferenz|"
    r"zeugnisnoten|probeklausur|uebungsaufgaben|korrigier|korrektur)\w*\b|\bsus\b"
)
_PUPIL_SELF = _Rules(
    "ich bin|ich gehe|ich geh|lehrer|lehrkraft|wir |haben wir|hausaufgabe|mitschueler|meiner klasse|ich schreibe|"
    "ich sitze|frau|herr|ich hab|fuer die schule",
    _rx(
    r"\bich (?:bin|gehe|geh) (?:in (?:der|die) (?:klasse )?|in klasse )(?:\d{1,2} ?[a-z]?\b|\d{1,2}\.|fuenfte|"
    r"sechste|siebte|achte|neunte|zehnte|elfte|zwoelfte|dreizehnte|oberstufe|q ?[12]|e ?phase)"
    r"|\bich bin (?:in der )?\d{1,2}\. klasse\b"
    r"|\bich bin (?:ein |eine )?(?:schueler|schuelerin|oberstufenschueler\w*|abiturient\w*)\b"
    r"|\bich bin (?:1[0-9]|[6-9])(?: jahre alt)?(?: und|,|\.|!|$)"
    r"|\b(?:mein|meinem|meinen|meines|unser|unserem|unseren) (?!ausbildungs|kolleg)(?:\w+)?lehrer\b"
    r"|\b(?:meine|meiner|unsere|unserer) (?!ausbildungs|kolleg)(?:\w+)?lehrerin\b|\bunsere lehrkraft\b"
    r"|\bwir (?:haben|hatten|muessen|sollen) (?:\w+ ){0,6}?(?:aufbekommen|auf bekommen|aufgekriegt|abgeben|"
    r"einreichen)\b|\bhaben wir (?:\w+ ){0,3}?(?:auf|aufbekommen)\b|\bals hausaufgabe(?:n)? (?:auf|aufbekommen)\b"
    r"|\bmeine mitschueler\w*|\bin meiner klasse (?:sind|haben|muessen) wir\b"
    r"|\bich (?:hab|habe|hab ich|schreib) (?:morgen|uebermorgen|heute|naechste woche|am \w+) (?:ein |einen |eine |"
    r"die |den )?"
    r"(?:\w+ )?(?:referat|vortrag|praesentation|test|klausur|arbeit|klassenarbeit|ex|abfrage|deutsch|mathe|englisch|"
    r"bio|physik|chemie|geschichte|erdkunde|latein|franzoesisch)\b"
    r"|\bfuer die schule\b"
    r"|\bwir (?:sollen|muessen) (?:bis (?:morgen|montag|dienstag|mittwoch|donnerstag|freitag|naechste woche) )?"
    r"(?:\w+ ){0,4}?(?:interpretieren|analysieren|zusammenfassen|schreiben|loesen|berechnen|uebersetzen|"
    r"eroertern|beschreiben|ausarbeiten|vorbereiten)\b"
    r"|\bich schreibe (?:morgen|uebermorgen|naechste woche|am \w+|bald|heute|gleich) (?:eine?n? |die |den )?"
    rf"(?:\w+ )?{_EXAM}\b"
    r"|\bich sitze (?:gerade |grade )?in (?:der|einer|dem) " + _EXAM
    + r"|\b(?:schreiben wir|wir schreiben)\b" + _gap(25) + r"\b(?:morgen|uebermorgen|naechste woche|bald|gleich|"
      r"heute|am (?:montag|dienstag|mittwoch|donnerstag|freitag))\b"
      rf"|\b{_EXAM}\b (?:von|bei) (?:frau|herrn?|herr) \w+")
)
_DO_FOR_ME = _rx(
    r"\b(?:schreib\w*|mach\w*|loes\w*|erledig\w*|verfass\w*|formulier\w*|uebernimm|rechne\w*|beantworte\w*|"
    r"bearbeite\w*|uebersetz\w*|fertig\w*|uebernehm\w*)\b|\bfuer mich\b|\bkannst du (?:\w+ ){0,4}?(?:machen|"
    r"schreiben|loesen)\b"
)
_PUPIL_DOC = _Rules("mein|unser", _rx(
    r"\b(?:mein|meine|meinen|meiner|meinem|meines|unsere?[nmr]?|unser)\s+(?:\w+\s+)?(?:[\w-]*hausaufgabe\w*|"
    r"[\w-]*hausis?|aufsatz|referat|"
    r"facharbeit|hausarbeit|seminararbeit|projektarbeit|eroerterung|gedichtanalyse|gedichtinterpretation|"
    r"textanalyse|inhaltsangabe|buchvorstellung|buchbericht|lesetagebuch|praktikumsbericht|"
    r"bewerbung fuer (?:ein|das|mein) praktikum)\b")
)
_HOMEWORK_WORD = _rx(r"\b(?:\w*hausaufgabe\w*|hausis?|aufsatz|referat|facharbeit|hausarbeit|eroerterung|"
                     r"gedichtanalyse|inhaltsangabe|abgeben|abgabe|bis morgen|fuer morgen|loesungen?|aufgaben?|"
                     r"seite \d+|nummer \d+|nr\.? ?\d+)\b")
_HOMEWORK_DOC = (r"(?:[\w-]*hausaufgabe\w*|hausis?|aufsatz|referat|facharbeit|hausarbeit|seminararbeit|eroerterung|"
                 r"gedichtanalyse|gedichtinterpretation|inhaltsangabe|buchvorstellung|praktikumsbericht|praesentation|"
                 r"vortrag)")
_PARENT_HOMEWORK = _Rules(
    "sohn|tochter|kind",
    _rx(rf"\b(?:mein|meine|meinem|meiner|meines) (?:sohn\w*|tochter|kind\w*)\b{_gap(60)}"
        rf"\b{_HOMEWORK_DOC}\b|\b{_HOMEWORK_DOC}\b{_gap(30)}\b(?:meines|meiner|fuer meinen|fuer meine|"
        rf"von meinem|von meiner) (?:sohn\w*|tochter|kind\w*)\b"))
_FOR_ME_HOMEWORK = _Rules(
    "fuer mich|von mir|muss ich|soll ich|ich muss|ich soll",
    _rx(r"\b(?:\w*hausaufgabe\w*|aufsatz|referat) (?:fuer mich|von mir)\b|\bfuer mich (?:\w+ ){0,3}?"
        r"(?:\w*hausaufgabe\w*|aufsatz|referat)\b|\b(?:muss ich|soll ich)\b" + _gap(40)
        + r"\b(?:morgen|heute|bis \w+) (?:abgeben|einreichen|vorzeigen)\b"
          rf"|\bich (?:muss|soll)\b{_gap(50)}\b{_HOMEWORK_DOC}\b{_gap(40)}\b(?:abgeben|einreichen|"
          r"halten|vorzeigen|schreiben|fertig\w*|vorbereiten)\b")
)
# "… die ich morgen abgeben kann": the pupil hands it in.
_SUBMIT = _Rules("abgeben|einreichen|vortragen|abliefern|vorzeigen|halten", _rx(
    rf"\b(?:ich|wir)\b{_gap(40)}\b(?:abgeben|einreichen|vortragen|abliefern|vorzeigen|halten muss|halten soll)\b"))
_HOMEWORK_DOC_WORD = _rx(rf"\b{_HOMEWORK_DOC}\b")
_PUPIL_MATERIAL = _rx(r"\b(?:\w*aufgaben?|arbeitsheft\w*|arbeitsblatt|arbeitsblaetter|buch|seite \d+)\b")
# Textbook exercises with a page reference: "meine Matheaufgaben, Seite 78, Nr. 2".
_TEXTBOOK = _Rules("aufgabe", _rx(
    r"\b(?:mein|meine|meinen|unsere?n?)\s+(?:\w+\s+)?\w*aufgaben?\b" + _gap(40)
    + r"\b(?:seite|s\.|nr\.?|nummer|buch)\s?\d+"))
_EDIT = _rx(r"\b(?:einfacher|schwerer|kuerzer|laenger|ueberarbeit\w*|anpass\w*|umformulier\w*|differenzier\w*|"
            r"veraender\w*|aender\w*)\b")
_FIRST_PERSON = _rx(r"\b(?:ich|wir|man|mir|uns|mich)\b")
_CHEAT_VERB = (r"(?:schummel\w*|schumml\w*|spicken|spicke|spickt|abgucken|abgucke|abschauen|mogeln|mogle|"
               r"betruegen|betruege)")
# "Tipps zum Schummeln" — a teacher asks that about pupils ("welche Tricks nutzen Schüler"), a pupil for themselves.
_CHEAT_TIPS = _Rules("schumm|spick|abguck|abschau|mogel|mogl|betrueg|abschreib", _rx(
    rf"\b(?:tipps?|tricks?|ideen|wege|methoden|moeglichkeiten|anleitung|hilfe) (?:zum|fuer|fuers|beim) {_CHEAT_VERB}\b"
    r"|\b(?:schummel|spick|mogel)(?:tipps?|tricks?|ideen|methoden|anleitung\w*)\b"))
_ABOUT_PUPILS = _rx(r"\b(?:schueler\w*|jugendliche\w*|kinder|aufsicht\w*|lehrkraefte)\b")
# The cheating verb with a first-person actor in the same clause ("wie kann ich … schummeln").
_CHEAT = _Rules(
    "schumm|spick|abguck|abschau|mogel|mogl|betrueg|abschreib",
    _rx(rf"\b(?:ich|wir|man)\b{_gap(50)}\b{_CHEAT_VERB}\b|\b{_CHEAT_VERB}\b{_gap(30)}\b(?:ich|wir|man)\b"
        rf"|\b(?:ich|wir|man)\b{_gap(40)}\b(?:beim|bei der|bei dem|in der|im|waehrend der) (?:\w+ )?"
        rf"{_EXAM}\b{_gap(20)}\b(?:abschreiben|abschreibe|abgucken|abschauen)\b"))
_CONCEAL = _Rules("unbemerkt|heimlich|unauffaellig|ohne dass|damit|dass|erwischt|versteck|schmuggl|schmuggel", _rx(
    r"\b(?:ich|wir|man)\b" + _gap(40) + r"\b(?:unbemerkt|heimlich|unauffaellig)\b"
    r"|\bohne dass (?:es )?(?:mein|meine|der|die|unser|unsere|ein|eine|jemand|keiner)\b" + _gap(30)
    + r"\b(?:merkt|mitbekommt|sieht|bemerkt|erwischt|erkennt)\b"
    r"|\b(?:damit|dass|sodass) (?:es )?(?:mein|meine|der|die|unser|unsere|ein|eine)\b" + _gap(30)
    + r"\bnicht (?:\w+ )?(?:merkt|mitbekommt|auffaellt|erkennt|bemerkt|findet|sieht|erwischt)\b"
    r"|\b(?:damit|dass|sodass) (?:es )?(?:keiner|niemand)\b" + _gap(30)
    + r"\b(?:merkt|mitbekommt|erkennt|bemerkt|findet|sieht)\b"
    r"|\b(?:verstecke|versteck|verstecken|schmuggle|schmuggeln)\b" + _gap(40) + r"\b(?:spickzettel\w*|handy\w*|"
    r"smartwatch\w*|loesung\w*|kopfhoerer\w*)\b"
    r"|\bohne erwischt zu werden\b|\bnicht erwischt (?:werde|werden|wird)\b"
    r"|\bohne dass es (?:\w+ )?(?:auffaellt|bemerkt wird|jemand merkt|jemand sieht)\b")
)
_CONCEAL_OBJECT = _rx(rf"\b(?:{_EXAM}|handy\w*|smartwatch\w*|kopfhoerer\w*|ki|chatgpt|gpt|plagiat\w*|aufsatz|"
                      r"\w*hausaufgabe\w*|referat|facharbeit|spickzettel\w*|loesung\w*|unterschrift\w*|"
                      r"entschuldigung\w*|abschreiben|noten?)\b")
_GET = (r"(?:wie komme ich|wie kommt man|komme ich|gib|gebt|schick\w*|besorg\w*|verrat\w*|zeig\w*|sag\w* mir|"
        r"kennst du|weisst du|hast du|wo finde ich|wo bekomme ich|wo gibt es|an die|bekommen|besorgen|rankommen|"
        r"herausfinden|rausfinden)")
_LEAK = _Rules("leak|vorab|vorher|im voraus|schon jetzt|heute schon", _rx(
    r"\b(?:geleakt\w*|leak\w*)\b" + _gap(60) + rf"\b{_EXAM}\b|\b{_EXAM}\b" + _gap(60) + r"\b(?:geleakt\w*|leak\w*)\b"
    rf"|\b{_GET}\b{_gap(50)}\b(?:vorab|vorher|im voraus|schon jetzt|heute schon|vor der pruefung)\b{_gap(40)}"
    rf"\b(?:aufgaben|loesungen|antworten|fragen)\b{_gap(40)}\b{_EXAM}\b"
    rf"|\b(?:vorab|vorher|im voraus|schon jetzt|heute schon)\b{_gap(40)}\b(?:aufgaben|loesungen|antworten|fragen)\b"
    rf"{_gap(40)}\b{_EXAM}\b{_gap(40)}\b{_GET}\b"
    rf"|\b(?:aufgaben|loesungen|antworten|fragen)\b{_gap(30)}\b{_EXAM}\b{_gap(40)}\b(?:vorab|vorher|im voraus)\b"
    rf"{_gap(20)}\b{_GET}\b")
)
_EXAM_NOUN = (r"(?:klausur|klassenarbeit|kursarbeit|schulaufgabe|pruefung|abipruefung|abiturpruefung|test|"
              r"vokabeltest|mathearbeit|deutscharbeit|englischarbeit|ex)")
_IN_EXAM_NOW = _Rules(
    "sitze|waehrend|gerade|grade|jetzt|im moment",
    _rx(rf"\bich (?:sitze|bin|schreibe) (?:gerade |grade |jetzt |im moment )(?:in |an )?(?:der |einer |dem |"
        rf"meiner )?(?:\w+ )?{_EXAM_NOUN}\b|\bich sitze (?:in |an )(?:der |einer |dem |meiner )(?:\w+ )?"
        rf"{_EXAM_NOUN}\b|\bwaehrend (?:der|dem|meiner|einer|unserer) (?:\w+ )?{_EXAM_NOUN}\b{_gap(60)}"
        r"\b(?:mir|ich|uns|wir)\b|\b(?:mir|ich|uns|wir)\b" + _gap(60)
        + rf"\bwaehrend (?:der|dem|meiner|einer|unserer) (?:\w+ )?{_EXAM_NOUN}\b"))
_EXAM_WORD = _rx(rf"\b{_EXAM}\b")
_WHEN = r"(?:morgen|uebermorgen|naechste woche|bald|gleich|heute|am (?:montag|dienstag|mittwoch|donnerstag|freitag))"
# The class's own upcoming exam ("unseren Englischtest morgen", "was kommt morgen dran") — a pupil speaks.
_OUR_EXAM = _Rules("unser|dran|kommen|schreiben", _rx(
    rf"\bunsere?[nmr]? (?:\w+ )?{_EXAM}\b{_gap(20)}\b{_WHEN}\b"
    rf"|\b(?:loesung\w*|antwort\w*)\b{_gap(40)}\b(?:unsere?[nmr]?) (?:\w+ )?{_EXAM}\b{_gap(20)}\b{_WHEN}\b"
    rf"|\b(?:welche|was fuer) (?:aufgaben|fragen|themen)\b{_gap(40)}\b{_WHEN}\b{_gap(40)}\b(?:drankommen|dran|"
    rf"vorkommen|kommen)\b"
    rf"|\b{_EXAM}\b,? (?:den|die|das) (?:wir|ich) {_WHEN} schreiben\b"
    rf"|\bwas kommt\b{_gap(40)}\b{_WHEN}\b{_gap(40)}\bdran\b|\bwas kommt\b{_gap(40)}\bdran\b{_gap(30)}"
    rf"\b{_WHEN}\b"))
_EXAM_ANSWERS = _rx(r"\b(?:loesung\w*|antwort\w*|ergebnis\w*|was (?:kommt|drankommt)|welche aufgaben)\b")
_FORGERY = _Rules(
    "faelsch|nachmach|nachahm",
    _rx(r"\b(?:faelsch\w*|nachmach\w*|nachahm\w*)\b" + _gap(40) + r"\b(?:unterschrift\w*|zeugnis\w*|"
        r"entschuldigung\w*|attest\w*|krankmeldung\w*|krankschreibung\w*|noten?|klassenbuch|ausweis)\b"
        r"|\b(?:unterschrift\w*|zeugnis\w*|entschuldigung\w*|attest\w*|krankmeldung\w*|krankschreibung\w*|"
        r"noten?|klassenbuch)\b" + _gap(40) + r"\b(?:faelschen|faelsche|nachmachen|nachahmen)\b"))
_DETECTOR = (r"(?:ki-?detektor\w*|ki-?erkennung\w*|detektor\w*|turnitin|plagiats?pruefung\w*|plagiats?scanner\w*|"
             r"plagiats?erkennung\w*|plagiats?software|plagiats?check\w*|zerogpt|gptzero|ki-?check\w*|ki-?pruefung\w*)")
_EVASION = _Rules("detektor|erkennung|turnitin|plagiat|gpt|ki|umschreib|umformulier|paraphras|check|pruefung|schreib",
                  _rx(
    rf"\b{_DETECTOR}\b{_gap(50)}\b(?:umgeh\w*|austricks\w*|ueberlist\w*|bestehen|durchkommen|taeusch\w*)\b"
    rf"|\b(?:umgeh\w*|austricks\w*|ueberlist\w*|taeusch\w*)\b{_gap(30)}\b{_DETECTOR}\b"
    rf"|\b{_DETECTOR}\b{_gap(40)}\b(?:nicht|kaum|nie) (?:\w+ )?(?:erkennt|erkennen|bemerkt|anschlaegt|anschlagen|"
    r"findet|merkt)\b"
    r"|\b(?:ki|chatgpt|gpt)(?:-?\w+)?\b" + _gap(80) + r"\b(?:unerkannt|nicht (?:als \w+ )?(?:erkannt|erkennbar)|"
    r"nicht (?:\w+ )?(?:erkennt|auffaellt|auffallen|merkt|bemerkt)|menschlicher klingen|"
    r"wie von mir (?:selbst )?geschrieben)\b"
    rf"|\bkeine?[nr]? {_DETECTOR}\b{_gap(20)}\b(?:findet|erkennt|merkt|bemerkt|anschlaegt)\b"
    r"|\bschreib\w*\b" + _gap(30) + r"\bum,? (?:dass|damit|sodass|so dass)\b" + _gap(40)
    + r"\b(?:nicht|keine?[nr]?|niemand)\b" + _gap(30) + r"\b(?:merkt|erkennt|findet|auffaellt|bemerkt)\b"
    r"|\b(?:umschreib\w*|umformulier\w*|paraphrasier\w*)\b" + _gap(40) + r"\b(?:damit|sodass|so dass)\b" + _gap(40)
    + r"\b(?:nicht|keiner|niemand) (?:\w+ )?(?:merkt|erkennt|auffaellt|bemerkt)\b")
)


_LEAK_TIME = _rx(r"\b(?:vorab|vorher|im voraus|schon jetzt|heute schon|schon vor|vor der (?:pruefung|klausur|arbeit)|"
                 r"bevor (?:wir|ich) (?:sie|es|die|den|das)? ?(?:schreiben|schreibe))\b")
_LEAK_THING = _rx(r"\b(?:\w*aufgaben|loesungen|antworten|fragen)\b")
_LEAK_GET = _rx(rf"\b{_GET}\b|\bwie (?:bekomme|kriege|komme|finde|erfahre) (?:ich|man)\b")
_ANSWERS_SENT = _Rules("antwort|loesung", _rx(
    rf"\b(?:in|waehrend) (?:der|dem|einer|meiner) (?:\w+ )?{_EXAM_NOUN}\b{_gap(60)}\b(?:antwort\w*|loesung\w*)\b"
    rf"|\b(?:antwort\w*|loesung\w*)\b{_gap(60)}\b(?:in|waehrend) (?:der|dem|einer|meiner) (?:\w+ )?{_EXAM_NOUN}\b"))
_OWN_GRADES = _Rules("note|zeugnis|zensur", _rx(
    r"\b(?:meine?n?|mein) (?:\w+ )?(?:noten?|zeugnis\w*|zensur\w*)\b" + _gap(40)
    + r"\b(?:aendern|veraendern|aendere|manipulier\w*|hochsetzen|faelsch\w*|verbessern lassen|bearbeiten)\b"))


_CREATING = _rx(r"\b(?:erstell\w*|entwirf|entwerf\w*|konzipier\w*|generier\w*)\b")


def _clauses(folded: str) -> list[str]:
    return re.split(r"[.!?\n]+", folded)


def _cheating(folded: str) -> bool:
    if _has(_PREVENT, folded):
        return False
    teacher = _has(_TEACHER_STRONG, folded)
    if _CHEAT.search(folded) or _EVASION.search(folded):
        return True
    if _CHEAT_TIPS.search(folded) and not teacher and not _has(_ABOUT_PUPILS, folded):
        return True
    if _IN_EXAM_NOW.search(folded) and "aufsicht" not in folded and "beaufsichtig" not in folded:
        return True
    if _CONCEAL.search(folded) and _CONCEAL_OBJECT.search(folded) and not teacher:
        return True
    if _FORGERY.search(folded) and _FIRST_PERSON.search(folded):
        return True
    if not teacher and (_LEAK.search(folded) or any(
            _LEAK_TIME.search(c) and _LEAK_THING.search(c) and _LEAK_GET.search(c) and _EXAM_WORD.search(c)
            for c in _clauses(folded) if len(c) < 400)):
        return True
    if not teacher and _ANSWERS_SENT.search(folded) and _FIRST_PERSON.search(folded):
        return True
    if _OWN_GRADES.search(folded) and not teacher:
        return True
    if _OUR_EXAM.search(folded) and not teacher and _has(_EXAM_WORD, folded) and not _has(_CREATING, folded) \
            and (_has(_EXAM_ANSWERS, folded) or "dran" in folded or "kommen" in folded):
        return True
    return not teacher and _PUPIL_SELF.search(folded) and _has(_EXAM_ANSWERS, folded) and _has(_EXAM_WORD, folded)


def _homework(folded: str) -> bool:
    if _has(_TEACHER_STRONG, folded):
        return False
    does = _has(_DO_FOR_ME, folded)
    if _PUPIL_SELF.search(folded) and (does or _has(_HOMEWORK_WORD, folded)):
        return True
    if not does:
        return False
    if _PARENT_HOMEWORK.search(folded) or _FOR_ME_HOMEWORK.search(folded) or _PUPIL_DOC.search(folded):
        return True
    if _SUBMIT.search(folded) and (_has(_HOMEWORK_DOC_WORD, folded) or (
            _has(_PUPIL_MATERIAL, folded) and not _has(_EXAM_WORD, folded))):
        return True
    return _TEXTBOOK.search(folded) and not _has(_EDIT, folded)
# ---------------------------------------------------------------------------------------------------------------
# Out of scope: only when no teaching signal is present.

_REQUEST_CUE = _rx(r"\?|\b(?:gib|schreib\w*|erstell\w*|mach\w*|plan\w*|empfiehl\w*|empfehl\w*|vorschl\w*|idee\w*|"
                   r"tipps?|hilf\w*|kannst du|koenntest du|wie|was|welche\w*|wo|brauche|suche|zeig\w*|nenn\w*|"
                   r"erklaer\w*|finde?|such\w*|bitte|soll|sollte|darf|muss|formulier\w*|verfass\w*|entwirf|"
                   r"ueberarbeit\w*|"
                   r"uebersetz\w*|buch|buche|reservier\w*|organisier\w*|besorg\w*|bestell\w*|lohnt|rate|rat)\b")
_FIRST_PERSON_SG = _rx(r"\b(?:ich|mir|mich|mein\w*)\b")
_TECH = (r"(?:python|javascript|typescript|c\+\+|php|golang|sql|django|vba|excel-?makro\w*|makros?|powershell|bash|"
         r"shell|regex|docker|kubernetes|wordpress|html|css|linux|windows|batch)")
_CODE_THING = (r"(?:code\w*|skript\w*|script\w*|programm\w*|funktion|makro\w*|abfrage\w*|query|bug\w*|"
               r"fehlermeldung\w*|error|exception|traceback|debug\w*|kompilier\w*|refaktor\w*|website|webseite|"
               r"homepage|app|bot|plugin|funktioniert nicht)")
# A personal medical question: the symptom or drug in one clause with the teacher ("ich habe …", "soll ich …").
_MED_TERM = (r"(?:kopfschmerz\w*|migraene|fieber|husten|schnupfen|halsschmerz\w*|heiserkeit|rueckenschmerz\w*|"
             r"bauchschmerz\w*|zahnschmerz\w*|schmerzen|ausschlag|schwindel\w*|uebelkeit|erkaeltung|erkaeltet|"
             r"grippe|corona|covid|blutdruck|schlafstoerung\w*|schlaflos\w*|burn-?out|erschoepf\w*|depression\w*|"
             r"tinnitus|heuschnupfen|verstopfung|durchfall|herzrasen|medikament\w*|tablette\w*|ibuprofen|"
             r"paracetamol|aspirin|antibiotik\w*|dosis|nebenwirkung\w*|symptom\w*|impfung|schwanger\w*|befund\w*|"
             r"blutwerte|hausarzt|krankschreibung|krankgeschrieben|arzttermin)")
_MED_SELF = (r"(?:ich habe|ich hab|habe ich|hab ich|mir ist|mir tut|bei mir|ich leide|ich nehme|nehme ich|ich bin|"
             r"bin ich|soll ich|sollte ich|muss ich|kann ich|darf ich|ist das|meine?m?r? (?:tochter|sohn|kind|mann|"
             r"frau|arzt|aerztin|hausarzt|kopf|ruecken|bauch|hals|zahn|knie))")
_OOS: list[tuple[str, _Rules, bool]] = [
    # (topic, pattern, needs a request cue)
    ("erotic", _Rules(
        "erot|sexgeschicht|sexstor|porno|dirty talk|sexting",
        _rx(r"\berotisch\w* (?:geschichte|story|text|gedicht|roman|fantasie|chat|rollenspiel)\w*|"
            r"\bsexgeschicht\w*|\bsexstor\w*|\bporno\w*|\bdirty talk\b|\bsexting mit\b")), False),
    ("cooking", _Rules(
        "rezept|kochen|backen|essen|koche|backe|esse|grille|lasagne|pizza|kuchen|torte|suppe|spaghetti|steak|"
        "auflauf|brot|kekse|plaetzchen|"
        "salat|curry|risotto|gulasch",
        _rx(r"\b(?:koch|back)?rezept(?!or)\w*\b|\bwas (?:koche|backe|esse|grille) (?:ich|wir)\b"
            r"|\bwie (?:backe|koche|brate|grille|backt|kocht|bereite) (?:ich|man)\b"
            + _gap(30) + r"\b\w*(?:kuchen|torte|brot|suppe|salat|auflauf|braten|sosse|sauce|pizza|nudeln|reis|"
              r"kekse|muffins|fleisch|fisch|gemuese)\b|\bwas (?:soll|kann) ich (?:heute |morgen |am wochenende )?"
            r"(?:kochen|backen|essen)\b|\bwie (?:koche|backe|mache|bereite|kocht|backt|macht|brate|grille) "
            r"(?:ich|man) (?:eine?n? |die |den |das )?(?:\w+ )?(?:lasagne|pizza|kuchen|torte|suppe|"
            r"spaghetti|steak|auflauf|brot|kekse|plaetzchen|salat|curry|risotto|gulasch)\b")), False),
    ("cooking", _Rules(
        "abendessen|mittagessen|fruehstueck|brunch|lasagne|spaghetti|kuchen|torte|kekse|plaetzchen|dessert|nachtisch|"
        "pasta|nudeln|carbonara|bolognese|pizza|burger|pfannkuchen|waffeln|muffins|brownies|sushi|eintopf|schnitzel|"
        "smoothie|marmelade|anleitung|rezept|"
        "cocktail|essensplan|einkaufsliste|grillparty|gericht",
        _rx(r"\b(?:abendessen|mittagessen|fruehstueck\w*|brunch|lasagne|spaghetti|kuchen|torte|kekse|pasta|nudeln|"
            r"carbonara|bolognese|pizza|burger|pfannkuchen|waffeln|muffins|brownies|sushi|eintopf|schnitzel|"
            r"smoothie\w*|marmelade|\w+-(?:anleitung|rezept)|"
            r"plaetzchen|dessert|nachtisch|cocktail\w*|essensplan\w*|einkaufsliste\w*|grillparty|"
            r"vegane?s? gericht\w*)\b")), True),
    ("travel", _Rules(
        "urlaub|reise|trip|backpacking|flug|fluege|hotel|ferienwohnung|ferienhaus|airbnb|mietwagen|kreuzfahrt|"
        "inclusive|sehenswuerdig|plan|packliste",
        _rx(r"\b(?:\w*urlaub\w*|packliste\w*|reiseplan\w*|reiseroute\w*|reisetipp\w*|reiseziel\w*|rundreise\w*|"
            r"staedtereise\w*|staedtetrip\w*|roadtrip\w*|backpacking|flugticket\w*|fluege|hotel\w*|"
            r"ferienwohnung\w*|ferienhaus|airbnb|mietwagen|kreuzfahrt\w*|all-?inclusive|wochenendtrip\w*|"
            r"kurztrip\w*|flug (?:buchen|nach)|sehenswuerdigkeit\w*)\b"
            r"|\bplan\w* (?:mir |uns )?(?:ein|einen|eine|meinen|meine|unseren|unsere)? ?(?:\w+ )?(?:wochenende|"
            r"kurzurlaub|ausflug|tagesausflug|reise|trip|tour|aufenthalt|tag|tage) (?:in|nach|an)\b")), True),
    ("finance", _Rules(
        "aktientipp|depot|etf|krypto|bitcoin|ethereum|geldanlage|geld anlegen|anlagetipp|steuer|baufinanzierung|"
        "ratenkredit|tagesgeld|festgeld|bauspar|altersvorsorge|riester|lotto|sportwette|wettquote",
        _rx(r"\b(?:aktientipp\w*|depots?|(?:wertpapier|aktien|etf)depot\w*|etfs?|krypto(?:waehrung\w*|coins?|handel|"
            r"boerse\w*)?|bitcoin\w*|ethereum|geldanlage\w*|geld anlegen|anlagetipp\w*|steuererklaerung\w*|"
            r"baufinanzierung|ratenkredit|tagesgeld|festgeld|bausparvertrag|altersvorsorge|riester\w*|lottozahlen|"
            r"sportwette\w*|wettquote\w*|"
            r"steuern sparen)\b")), True),
    ("finance", _Rules(
        "aktie|kredit|rendite|boerse|investier|geld|versicherung|beihilfe|pkv|rente|altersvorsorge|sparen|"
        "zuruecklegen|sparplan",
        _rx(r"\b(?:aktie|aktien|kredit|rendite\w*|boerse\w*|investieren|investiere|geld|\w*versicherung\w*|rente|"
            r"altersvorsorge|sparen|zuruecklegen|sparplan|"
            r"beihilfe|pkv)\b" + _gap(60)
            + r"\b(?:soll ich|sollte ich|brauche ich|lohnt sich|lohnen sich|empfiehlst|tipps?|kaufen|"
              r"verkaufen|anlegen|investieren|abschliessen|besser|guenstiger|sinnvoller)\b"
              r"|\b(?:soll ich|sollte ich|lohnt sich|lohnen sich|empfiehlst)\b" + _gap(60)
            + r"\b(?:aktie|aktien|kredit|boerse\w*|investieren|anlegen|\w*versicherung\w*|rente|\w*sparen|"
              r"zuruecklegen|altersvorsorge)\b")), True),
    ("private_writing", _Rules(
        "liebes|heiratsantrag|hochzeit|trauzeugen|junggesell|dating|tinder|partnerboerse|parship|valentin|jahrestag|"
        "bewerbung|"
        "kondolenz|beileid|trauerrede|gute|geburtstag|glueckwunsch|muttertag|vatertag|weihnachtskarte|lebenslauf|"
        "bewerbungsschreiben|anschreiben|kuendigungsschreiben|privat",
        _rx(
        r"\b(?:liebesbrief\w*|liebesgedicht\w*|liebeserklaerung\w*|heiratsantrag\w*|hochzeitsrede\w*|valentins\w*|"
        r"bewerbung\w* (?:fuer mich|als \w+)|(?:meine|meiner) bewerbung\w*|(?:mein|meinen) (?:anschreiben|lebenslauf)|"
        r"trauzeugenrede\w*|junggesell\w*|dating-?profil\w*|tinder\w*|partnerboerse\w*|parship|valentinstag\w*|"
        r"hochzeitstag\w*|jahrestag\w*|kondolenz\w*|beileid\w*|trauerrede\w*|gute-?nacht-?geschichte\w*|"
        r"geburtstagskarte\w*|geburtstagsgedicht\w*|geburtstagsrede\w*|glueckwunschkarte\w*|muttertag\w*|"
        r"vatertag\w*|weihnachtskarte\w*|lebenslauf|bewerbungsschreiben|anschreiben fuer (?:meine|mich)|"
        r"kuendigungsschreiben|private?n? (?:e-?mail|mail|nachricht|brief)\w*)\b")), True),
    ("private_writing", _Rules("an mein|fuer mein|kuendigung|beschwerde|reklamation|widerruf", _rx(
        r"\b(?:an|fuer) (?:meinen|meine|meinem|meiner) (?:frau|mann|freundin|freund|partner\w*|ehemann|ehefrau|"
        r"verlobte\w*|ex|exfreund\w*|liebste\w*|schatz|schwieger\w*|vermieter\w*|nachbar\w*|hausverwaltung)\b|"
        r"\b(?:brief|e-?mail|mail|nachricht|gedicht|rede|text|karte|geschichte|sms|whatsapp)\w* (?:an|fuer) "
        r"(?:meine?n?|meinem) (?:frau|mann|freundin|freund|partner\w*|ehemann|ehefrau|verlobte\w*|ex\w*|mutter|"
        r"mama|vater|papa|eltern|oma|opa|schwester|bruder|tochter|sohn|kind|enkel\w*|nachbar\w*|vermieter\w*|"
        r"hausverwaltung|bank|versicherung|tante|onkel|schwieger\w*|hund|katze|familie|liebste\w*|schatz)\b"
        r"|\b(?:kuendigung|beschwerde|reklamation|widerruf)\w* (?:an|fuer|bei|meines|meiner|des|der|von|zu)\b"
        + _gap(30) + r"\b(?:\w*vertrag\w*|abo\w*|fitnessstudio\w*|handy\w*|airline|fluggesellschaft|vermieter\w*|"
          r"amazon|telekom|vodafone|versicherung\w*|bank|paket\w*|bestellung\w*|hotel\w*|mitgliedschaft)\b")), True),
    ("coding", _Rules(
        "python|javascript|typescript|c++|php|golang|sql|django|vba|makro|powershell|bash|regex|docker|kubernetes|"
        "wordpress|html|css|shell|linux|windows|batch",
        _rx(rf"\b{_TECH}\b{_gap(80)}\b{_CODE_THING}\b|\b{_CODE_THING}\b{_gap(60)}\b{_TECH}\b"
            rf"|\b{_TECH}-(?:seite|site|blog|theme|plugin|skript|script|code|programm|server|datenbank|abfrage)\w*")),
     False),
    ("medical", _Rules(
        "schmerz|migraene|fieber|husten|schnupfen|heiser|ausschlag|schwindel|uebelkeit|erkaelt|grippe|corona|"
        "covid|blutdruck|schlaf|burn|erschoepf|depression|tinnitus|heuschnupfen|verstopfung|durchfall|herzrasen|"
        "medikament|tablette|ibuprofen|paracetamol|aspirin|antibiotik|dosis|nebenwirkung|symptom|impfung|schwanger|"
        "befund|blutwerte|hausarzt|krank|arzttermin",
        _rx(rf"\b{_MED_SELF}\b{_gap(60)}\b{_MED_TERM}\b|\b{_MED_TERM}\b{_gap(60)}\b{_MED_SELF}\b")), True),
    ("legal", _Rules(
        "anwalt|anwaeltin|rechts|verklagen|klage|abmahnung|miet|nebenkosten|kuendigungsfrist|arbeitsrecht|"
        "dienstrecht|beamtenrecht|scheidung|sorgerecht|unterhalt|erb|strafanzeige|anzeige|bussgeld|blitzer|einspruch|"
        "schadenersatz|darf mein|kann mir mein|kann mein|muss mein|elternzeit|mutterschutz|teilzeitantrag|"
        "sonderurlaub|kuendigungsschutz|gez|rundfunkbeitrag|kindergeld|elterngeld|wohngeld|grundsteuer|"
        "zweitwohnung|steuerklasse|pension|besoldung",
        _rx(r"\b(?:anwalt|anwaeltin|rechtsanwalt\w*|rechtsberatung|rechtslage|rechtlich\w*|verklagen|klage einreichen|"
            r"abmahnung|mietrecht|mietvertrag|mieterhoehung|nebenkostenabrechnung|kuendigungsfrist|"
            r"arbeitsrecht\w*|dienstrecht\w*|beamtenrecht\w*|scheidung\w*|sorgerecht\w*|unterhalt|"
            r"unterhaltszahlung\w*|unterhaltspflicht\w*|erbrecht|erbschaft|strafanzeige|anzeige erstatten|"
            r"bussgeld\w*|blitzer\w*|"
            r"einspruch|schadenersatz|rechtsschutz\w*)\b|\bdarf (?:mein|meine) (?:schulleit\w*|chef\w*|"
            r"arbeitgeber\w*|dienstherr\w*|vermieter\w*|nachbar\w*)\b"
            r"|\b(?:kann|darf|muss) (?:mir )?(?:mein|meine) (?:arbeitgeber\w*|dienstherr\w*|schulleit\w*|chef\w*|"
            r"vermieter\w*)\b|\b(?:elternzeit|mutterschutz|teilzeitantrag|sonderurlaub|kuendigungsschutz|gez|"
            r"rundfunkbeitrag|kindergeld|elterngeld|wohngeld|grundsteuer|zweitwohnung\w*|steuerklasse|pension\w*|"
            r"besoldung\w*)\b")), True),
    ("shopping", _Rules(
        "welche|kaufempfehlung|produktvergleich|schnaeppchen",
        _rx(r"\bwelche\w* (?:fernseher|laptop|notebook|handy|smartphone|auto|e-?auto|staubsauger|"
            r"waschmaschine|kaffeemaschine|kamera|fahrrad|e-?bike|kopfhoerer|matratze|spielkonsole)\w* "
            r"(?:soll|sollte|kann|kaufen|empfiehlst|ist besser)\b|\bkaufempfehlung\w*|\bproduktvergleich\w*"
            r"|\bschnaeppchen\w*")), False),
    ("private_writing", _Rules(
        "hochzeit|taufe|beerdigung|trauerfeier|polterabend|junggesell|konfirmation|kommunion",
        _rx(r"\b(?:rede|gedicht|text|karte|spruch|glueckwunsch)\w* (?:fuer|zur|zu|auf) (?:die |der |dem |"
            r"meine?r? |meinem )?(?:hochzeit|taufe|beerdigung|trauerfeier|polterabend|"
            r"junggesell\w*|konfirmation|kommunion)\b")), True),
    ("everyday", _Rules(
        "arzt|aerzt|friseur|handwerker|steuerberater|physiotherap|psychotherap|heilprakti|makler|werkstatt",
        _rx(r"\b(?:gute?n?|einen|eine|empfiehl\w*|empfehl\w*|finde\w*|such\w*) (?:\w+ )?(?:zahnarzt|arzt|aerztin|"
            r"hausarzt|frauenarzt|hautarzt|friseur\w*|handwerker|steuerberater\w*|tierarzt|physiotherapeut\w*|"
            r"psychotherapeut\w*|heilpraktiker\w*|makler\w*|autowerkstatt|werkstatt)\b")), True),
    ("everyday", _Rules(
        "netflix|serie|film|podcast|spiel|buch|buecher",
        _rx(r"\b(?:welche\w*|was fuer eine?n?) (?:\w+ )?(?:serie|film|podcast|spiel|buch|roman)\w* (?:soll|sollte|"
            r"kann) "
            r"ich\b|\bnetflix\w*|\bamazon prime\b|\bdisney\+")), True),
    ("everyday", _Rules(
        "unternehmen|besichtigen|anschauen|ausgehen|unternimmt",
        _rx(r"\bwas (?:kann|koennte|soll|sollte) (?:ich|man|wir) (?:am wochenende|heute abend|in den ferien|im urlaub|"
            r"in \w+|am \w+)\b" + _gap(30) + r"\b(?:unternehmen|besichtigen|anschauen|ausgehen)\b")), True),
    ("everyday", _Rules(
        "schenk|geschenk",
        _rx(r"\b(?:was|welches geschenk|welche geschenke) (?:soll|kann|koennte|sollte) ich\b" + _gap(40)
            + r"\bschenken\b|\bgeschenkidee\w*|\bgeschenk\w* fuer (?:meine?n?|meinem)\b")), True),
    ("everyday", _Rules(
        "diaet|abnehm|kalorienzufuhr|trainingsplan|muskelaufbau|fitnessstudio",
        _rx(r"\b(?:diaet\w*|abnehm\w*|kalorienzufuhr|trainingsplan\w*|muskelaufbau|fitnessstudio\w*)\b")), True),
    ("everyday", _Rules(
        "fuer mich|wochenende|entspannen|heute abend|hamburg|berlin|muenchen|koeln|naehe",
        _rx(r"\b(?:netflix\w*|serie|serien|film|filme|buch|buecher|podcasts?|restaurants?|bars?|cafes?|"
            r"kneipen?|clubs?)\b" + _gap(40) + r"\b(?:fuer mich|fuers wochenende|am wochenende|zum "
            r"entspannen|heute abend|in (?:hamburg|berlin|muenchen|koeln|der naehe))\b")), True),
    ("everyday", _Rules(
        "wetter|regnet|horoskop|sternzeichen|bundesliga|mein|unser|reifenwechsel|oelwechsel|tapezier",
        _rx(r"\bwie wird das wetter\b|\bwetter(?:bericht|vorhersage)\b|\bregnet es (?:morgen|heute)\b|"
            r"\bhoroskop\w*|\bsternzeichen\b|\bbundesliga-?tipp\w*|\b(?:mein\w*|unser\w*) "
            r"(?:auto|wagen|garten|rasen|heizung|wohnung|haus|bad|kueche|waschmaschine|hund|katze)\b"
            + _gap(50) + r"\b(?:reparier\w*|renovier\w*|streich\w*|einricht\w*|anlegen|wechseln|tauschen|"
              r"plan\w*|gestalt\w*|"
              r"kaputt|defekt|springt nicht an|entkalk\w*|erzieh\w*|frisst|tierarzt)\b"
              r"|\b(?:reifenwechsel|oelwechsel|tapezier\w*)\b")), False),
]
# The teacher's private life ("mein Haus", "meine beste Freundin", "mein Rücken") with no classroom anywhere.
_PRIVATE_LIFE = _Rules("mein", _rx(
    r"\b(?:mein|meine|meinen|meinem|meiner|meines)\s(?:\w+\s)?(?:haus|hauses|wohnung|garten|auto|autos|wagen|fahrrad|"
    r"hund|katze|haustier\w*|ruecken|knie|nacken|zaehne|zahn|haut|haare|nachbar\w*|vermieter\w*|freundin|freund|"
    r"mann|frau|ehemann|ehefrau|partner\w*|familie|schwiegermutter|schwiegervater|hochzeit|urlaub|einfahrt|balkon|"
    r"heizung|kueche|badezimmer|keller|dach|router|internetanschluss|handyvertrag|stromvertrag|konto|rente|"
    r"steuern|geld|ersparnisse|geburtstagsparty|party|diaet|gewicht|schwaegerin|schwager|schwester|bruder|cousine|"
    r"cousin|tante|onkel|oma|opa|eltern|mutter|vater|download-?ordner|ordner|festplatte|fotos|urlaubsfotos|"
    r"lebensversicherung|versicherung|vertrag|abo|elternzeit|gehalt|besoldung|umzug|renovierung|moebel)\b"
    r"|\b(?:geburtstagsfeier|hochzeitsfeier|hochzeit|feier|party|grillfest|junggesellenabschied) (?:meiner|meines|"
    r"von meiner|von meinem)\b"))
_SCHOOL_STRICT = _rx(r"\b(?:lehrer\w*|lehrkr\w*|schueler\w*|schule\w*|unterricht\w*|klasse\w*|kurs\w*|"
                     r"thema|themen|lernen|paedagog\w*|didakt\w*)\b")
# Subjects that are unambiguous; "Musik" at a wedding or "Sport" after work is not a lesson.
_SUBJECT_STRICT = _rx(r"\b(?:mathe\w*|deutschunterricht|englischunterricht|physik\w*|chemie\w*|biologie\w*|"
                      r"erdkunde|geographie|geografie|latein\w*|franzoesisch\w*|informatik\w*|sachunterricht)\b")
_PRIVATE_MAX = 400
# Medical and legal questions are out of scope only when they are the teacher's own ("ich", "mein").
_PERSONAL_TOPICS = {"medical", "legal"}


def _out_of_scope(folded: str) -> str | None:
    if _teaching(folded):
        return None
    cue = _has(_REQUEST_CUE, folded)
    for topic, rules, needs_cue in _OOS:
        if (needs_cue and not cue) or not rules.search(folded):
            continue
        if topic in _PERSONAL_TOPICS and not _has(_FIRST_PERSON_SG, folded):
            continue
        return topic
    # Only short messages: a long text with "mein Vater …" is a source or an upload, not a private request.
    if cue and len(folded) <= _PRIVATE_MAX and _PRIVATE_LIFE.search(folded) and not _has(_SUBJECT_STRICT, folded) \
            and not _has(_SCHOOL_STRICT, folded):
        return "everyday"
    return None


# ---------------------------------------------------------------------------------------------------------------
# Prompt injection

# What the model must never reveal: its instructions.
_SECRET = (r"(?:system ?-?prompt\w*|systemnachricht\w*|systemanweisung\w*|systeminstruktion\w*|initial prompt|"
           r"developer message|interne?n? (?:anweisungen|instruktionen|regeln|vorgaben)|deine?n? (?:\w+ )?prompts?|"
           r"deine (?:\w+ )?(?:anweisungen|"
           r"instruktionen|vorgaben|regeln)|your (?:instructions|system prompt|rules))")
_INJECTION = [  # each behind its gate (see _Rules)
    _Rules(
        "ignorier|vergiss|vergesst|vergessen sie|missacht",
        _rx(r"\b(?:ignorier\w*|vergiss|vergesst|vergessen sie|missacht\w*)\s+"
            r"(?:(?!meine?[nr]?\b)\w+[\s-]+){0,3}?(?:anweisung\w*|instruktion\w*|regeln|vorgaben|befehle|richtlinien|"
            r"einschraenkung\w*|systemprompt\w*|system-?prompt\w*|programmierung|prompts?)\b")),
    _Rules(
        "vergiss|zeile|nachricht",
        _rx(r"\bvergiss (?:alles|alle|saemtliche)\b" + _gap(40) + r"\b(?:gesagt|beigebracht|vorgegeben|gelernt)\b"
            r"|\b(?:alles|den text|den gesamten text|den inhalt|die nachricht)\b (?:ueber|vor|oberhalb) "
            r"(?:dieser|der) (?:zeile|nachricht)\b")),
    _Rules(
        "ignore|disregard|forget|override",
        _rx(r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*(?:previous\s+|prior\s+|"
            r"above\s+|earlier\s+|preceding\s+|system\s+)?(?:instructions|prompts?|rules|directions|guidelines)\b")),
    _Rules(
        "prompt|system|developer|intern|deine|your",
        _rx(rf"\b{_SECRET}\b{_gap(40)}\b(?:ausgeben|ausgabe|zeig\w*|nenn\w*|verrat\w*|gib|gebe|sag|print|reveal|"
            r"show|wiederhol\w*|kopier\w*|offenleg\w*|preisgeb\w*|lautet|lauten|anzeigen|auflisten|output|repeat)\b"),
        _rx(rf"\b(?:gib|zeig\w*|nenn\w*|verrat\w*|sag\w*|wiederhol\w*|print|reveal|show|repeat|wie lautet|"
            rf"was steht in)\b{_gap(30)}\b{_SECRET}\b"),
        _rx(r"\b(?:was|wie) (?:sind|ist|lautet|lauten|steht in) (?:dein|deine|deinen|your|der|die|das) (?:\w+ )?"
            r"(?:anweisungen|instruktionen|systemprompt\w*|system-?prompt\w*|prompt|instructions)\b")),
    _Rules(
        "du bist|bist du|you are|developer|entwickler|jailbreak|do anything|god|admin|keine |ohne |tu so|unzensiert|"
        "pretend|stell dir vor",
        _rx(r"\b(?:du bist|you are|(?:ab sofort|ab jetzt|jetzt|nun|von nun an) bist du) (?:jetzt |ab sofort |ab jetzt |"
            r"nun |now )?(?:dan\b|eine? (?:ki|bot|assistent\w*|"
            r"modell|ai) (?:ohne|without)|nicht mehr an (?:deine|die) (?:regeln|anweisungen|vorgaben)|frei von "
            r"(?:allen |deinen )?(?:regeln|einschraenkungen)|uneingeschraenkt|ohne (?:regeln|filter|einschraenkungen|"
            r"zensur))|\b(?:developer ?mode|entwicklermodus|jailbreak\w*|do anything now|god ?mode|admin-?modus)\b"
            r"|\bkeine (?:regeln|einschraenkungen|filter|zensur) mehr\b|\bohne (?:filter|zensur|einschraenkungen)\b|"
            r"\btu so,? als (?:waerst|seist|wuerdest) du\b" + _gap(40)
            + r"\b(?:unzensiert\w*|ohne (?:regeln|filter|einschraenkungen)|keine regeln|boese\w*|jailbroken)\b"
              r"|\bunzensierte?s? (?:modell|ki|version)\b|\bpretend (?:you are|to be|you're)\b"
            r"|\bstell dir vor,? du (?:haettest|hast|waerst|bist|wuerdest)\b" + _gap(30) + r"\b(?:keine (?:regeln|"
            r"einschraenkungen|grenzen|filter)|ohne (?:regeln|einschraenkungen|filter)|uneingeschraenkt|frei)\b")),
    _Rules(
        "anweisung|instruction|hinweis|an die ki|note to",
        _rx(r"\b(?:neue anweisung(?:en)?|new instructions?|hinweis (?:an|fuer) (?:die )?(?:ki|kuenstliche intelligenz|"
            r"das modell|chatgpt|das system)|an die ki|note to (?:the )?(?:ai|model|assistant)|"
            r"anweisung (?:an|fuer) (?:die )?(?:ki|das modell|das system))\s?:")),
    _Rules(
        "volle punkt|eine 1|eine eins|note 1|bestnote|15 punkte|full marks",
        _rx(r"\b(?:gib|vergib|bewerte) (?:allen|jedem|jeder|diesem|dieser|diesen|mir) (?:\w+ ){0,3}?(?:die )?"
            r"(?:volle punktzahl|volle punkte|volle punkte|eine 1|eine eins|die note 1|die bestnote|bestnote|"
            r"15 punkte|full marks)\b")),
]
_INJECTION_MARKUP = _rx(r"<\|?(?:im_start|im_end|system|endoftext)\|?>|\[/?(?:system|inst)\]|#{2,}\s*(?:system|"
                        r"instruction)|\bbegin (?:system|prompt)\b|\{\{\s*system")
_FILLER = _rx(r"\b(?:und|dann|bitte|danach|jetzt|sofort|stattdessen|aus|and|then|please|instead|now|du|dich|dir)\b")


def _injection_spans(text: str, folded: str) -> tuple[bool, str]:
    """(found, the folded text with the injection phrases cut out). Markup such as <|im_start|> is looked for in
    the raw text, because the HTML cleaning would take it for a tag."""
    found = _INJECTION_MARKUP.search(text[:MAX_CHARS].lower()) is not None
    rest = folded
    for rules in _INJECTION:
        if rules.search(rest):
            found = True
            for pattern in rules.patterns:
                rest = pattern.sub(" ", rest)
    return found, rest


def _is_request_left(rest: str) -> bool:
    rest = _FILLER.sub(" ", rest)
    school = _teaching(rest) or _SCHOOL_STRICT.search(rest) is not None or _MATERIAL_WEAK.search(rest) is not None
    return school and len(re.findall(r"\w{3,}", rest)) >= 2


# ---------------------------------------------------------------------------------------------------------------
# Personal data


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_FIRST_NAMES = _wordset("""
max paul leon luca lukas jonas tim tom felix noah elias finn ben julian niklas moritz jan david philipp alexander
simon henry emil anton jakob jonathan fabian florian tobias sebastian daniel kevin marcel dennis nico lennard
leonard mats matteo louis linus oskar karl hannes jannik justin marvin pascal robin timo vincent erik johannes
hans peter lasse malte ole till
lea lena leonie mia emma hannah hanna sophie sophia anna marie emily lina laura lara sarah julia lisa johanna clara
luisa amelie charlotte ella frieda mila nele paula greta jana katharina vanessa jessica michelle chantal jasmin
nina celine melina maja ida pia finja jule lotta marlene helena isabell annika carolin franziska svenja jolina
mehmet mustafa emre can deniz yusuf ali ahmet burak kerem cem arda eren berkay hueseyin hasan hakan oemer kaan
baran elif zeynep ayse aylin merve esra buesra selin emine fatma hatice melek defne ecrin azra irem sena dilara
mohammed muhammad mohamed ahmad ahmed omar karim hamza ibrahim khaled mahmoud amir bilal rami yasin jamal samir
tarek fatima aisha amira layla leyla mariam maryam noor nour yasmin salma rana hiba malak
nikola luka marko ivan dominik kacper jakub mateusz piotr filip milan dmitri artem maxim nikita daria katarzyna
zofia natalia anastasia milena alina polina olga ksenia aleksandra jovana kristina viktoria sofia valentina
""")
# Common surnames: a first name followed by one of these is a person even without any other context.
_SURNAMES = _wordset("""
mueller schmidt schneider fischer weber meyer wagner becker schulz hoffmann schaefer koch bauer richter klein wolf
schroeder neumann schwarz zimmermann braun krueger hofmann hartmann lange schmitt werner schmitz krause meier
lehmann schmid schulze maier koehler herrmann koenig walter mayer huber kaiser fuchs peters lang scholz moeller
weiss jung hahn schubert vogel friedrich keller guenther frank berger winkler roth beck lorenz baumann franke
albrecht schuster simon ludwig boehm winter kraus martin schumacher kraemer vogt stein jaeger otto sommer gross
seidel heinrich brandt haas schreiber graf schulte dietrich ziegler kuhn kuehn pohl engel horn busch bergmann
thomas voigt sauer arnold wolff pfeiffer mustermann musterfrau
yilmaz kaya demir sahin celik yildiz oeztuerk ozturk aydin oezdemir ozdemir arslan dogan kilic aslan cetin kara
koc kurt oezkan simsek polat erdogan
hassan hussein khalil haddad saleh nasser abdullah
nowak kowalski kowalska wisniewski wojcik kowalczyk kaminski lewandowski zielinski szymanski wozniak dabrowski
petrovic jovanovic popovic nikolic horvat novak ivanov petrov smirnov kuznetsov popov kovalenko
""")
# People of the curriculum. A surname here is never a pupil's; full names cover famous people with common surnames.
_FAMOUS_SURNAMES = _wordset("""
goethe schiller kafka heine lessing fontane buechner brecht hesse rilke kleist hoelderlin eichendorff mann storm
droste kaestner remarque boell grass duerrenmatt zweig celan borchert bachmann jandl suesskind herrndorf tucholsky
morgenstern ringelnatz hauptmann schnitzler trakl heym benn hauff grimm andersen shakespeare orwell golding
steinbeck hemingway salinger dickens austen rowling tolkien lindgren preussler funke ende pressler pausewang
noestlinger boie steinhoefel kehlmann wedekind zuckmayer seghers frisch woyzeck werther karenina stuart
newton einstein curie planck ohm bohr heisenberg schroedinger hawking faraday volta ampere coulomb joule kelvin
celsius fahrenheit watt hertz roentgen meitner kepler galilei kopernikus pythagoras thales euklid archimedes
euler gauss leibniz riemann noether darwin mendel pasteur fleming nobel lavoisier dalton rutherford thomson hooke
boyle bunsen liebig haber woehler kekule avogadro mendelejew humboldt goodall lovelace turing zuse babbage
diesel benz daimler gutenberg luther melanchthon zwingli calvin muentzer tetzel fugger barbarossa
bismarck hitler goebbels himmler goering eichmann speer mengele heydrich stauffenberg elser scholl
bonhoeffer niemoeller schindler adenauer merkel kohl steinmeier gauck weizsaecker genscher honecker
ulbricht mielke krenz schabowski biermann ebert stresemann hindenburg rathenau erzberger scheidemann noske bebel
lassalle marx engels luxemburg liebknecht metternich napoleon caesar augustus nero cicero kolumbus magellan
amundsen armstrong gagarin kennedy gorbatschow lincoln washington mandela gandhi obama trump putin selenskyj
churchill stalin lenin roosevelt thunberg yousafzai kahlo picasso monet gogh duerer beuys hundertwasser
mozart bach beethoven haydn brahms haendel vivaldi chopin verdi freud kant hegel nietzsche
sokrates platon aristoteles descartes rousseau voltaire locke hobbes montesquieu arendt adorno habermas
""")
_FAMOUS_FULL = frozenset({
    "helmut schmidt", "thomas mann", "heinrich mann", "klaus mann", "max frisch", "anne frank", "otto frank",
    "martin luther", "robert koch", "robert bosch", "carl bosch", "otto hahn", "michael ende", "gottfried keller",
    "willy brandt", "karl marx", "carl benz", "maria stuart", "anna karenina", "maria theresia", "sophie scholl",
    "hans scholl", "max planck", "rosa luxemburg", "friedrich engels", "albert schweitzer", "emil sinclair",
    "paul celan", "jakob grimm", "wilhelm grimm", "helmut kohl", "olaf scholz", "angela merkel", "gerhard schroeder",
    "christa wolf", "siegfried lenz", "martin walser", "robert walser", "wilhelm busch", "peter weiss",
    "joseph roth", "emil nolde", "franz marc", "paul klee", "marie curie", "lise meitner", "ada lovelace",
    "alan turing", "karl may", "daniel kehlmann", "juli zeh", "ernst jandl", "hannah arendt", "max weber",
    "anna seghers", "emil fischer", "hermann hesse", "richard wagner", "franz schubert", "ludwig erhard",
    "walter ulbricht", "jan hus", "rudolf hess", "james cook", "thomas mueller", "karl der", "max und",
})
_NAME_STOP = _wordset("""
der die das den dem des ein eine einen einem einer und oder aber mit bei fuer von vom zum zur im in am an auf aus
nach vor ueber unter hat ist war wird hatte sind kann soll muss braucht bekommt schreibt macht geht ich er sie es
wir ihr mein meine dein unser euer sein ihre bitte danke hallo montag dienstag mittwoch donnerstag freitag
samstag sonntag januar februar maerz april mai juni juli august september oktober november dezember heute morgen
klasse klassen note noten mathe mathematik deutsch englisch physik chemie biologie bio geschichte erdkunde
geographie politik sport kunst musik religion ethik latein franzoesisch informatik hausaufgaben hausaufgabe
aufgabe aufgaben probleme problem schwierigkeiten hilfe unterstuetzung foerderung angst zeit lust geld arbeit
punkte fehler test tests klausur klausuren arbeitsblatt arbeitsblaetter material schule unterricht stunde
stunden minuten frage fragen text texte buch buecher ferien pause lehrer lehrerin eltern mutter vater familie
freunde freund freundin spass aerger stress aepfel birnen bonbons euro cent meter kilometer liter gramm grad
adhs ads lrs autismus legasthenie dyskalkulie diabetes epilepsie asthma
""")
_NOUN_SUFFIX = ("ung", "ungen", "heit", "keit", "schaft", "tion", "taet", "ismus", "nis", "ment", "blatt",
                "blaetter", "aufgabe", "aufgaben", "arbeit", "material", "stunde", "test", "text", "plan")
_SURNAME_SUFFIX = ("mann", "ski", "ska", "vic", "wicz", "ov", "ova", "ow", "enko", "oglu", "zki", "sky")

_TOKEN = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*+")
_HEALTH_WORDS = (
    r"adhs|ads|autismus|autist\w*|asperger\w*|lrs|legasthen\w*|lese-?rechtschreib-?schw\w*|dyskalkulie|"
    r"rechenschw\w*|diabetes|diabetiker\w*|epilepsie|epileptiker\w*|asthma|allergi\w*|depression\w*|depressiv\w*|"
    r"angststörung\w*|angststoerung\w*|essstörung\w*|essstoerung\w*|magersucht|magersüchtig|bulimie|borderline|"
    r"trauma\w*|ptbs|krebs|leukämie|leukaemie|chronisch krank|behinderung\w*|förderbedarf\w*|foerderbedarf\w*|"
    r"förderschwerpunkt\w*|diagnose\w*|diagnostiziert|therapie\w*|therapeut\w*|psychiat\w*|medikament\w*|ritalin|"
    r"methylphenidat|insulin|schwanger\w*|suizidgedanken|selbstverletz\w*|ritzt sich|tourette|sehbehindert\w*|"
    r"hörgeschädigt\w*|gehörlos\w*|rollstuhl\w*|down-syndrom|trisomie\w*"
)
_BEHAVIOUR_WORDS = (
    r"stört|stoert|schwänzt|schwaenzt|gemobbt|mobbt|aggressiv\w*|verhaltensauffällig\w*|verhaltensauffaellig\w*|"
    r"prügelt|pruegelt|klaut|jugendamt\w*|kindeswohl\w*|pflegefamilie|heimkind|schulverweis|klassenkonferenz|"
    r"ordnungsmaßnahme\w*|sitzen ?geblieben|sitzenbleiben|versetzungsgefährdet|versetzungsgefaehrdet|"
    r"nicht versetzt|fehlt (?:oft|häufig|ständig|unentschuldigt)"
)
_HEALTH = re.compile(rf"\b(?:{_HEALTH_WORDS})\b")
_CONTEXT = re.compile(rf"\b(?:{_HEALTH_WORDS}|{_BEHAVIOUR_WORDS})\b")
_GRADE = re.compile(
    r"\b(?:eine?n?|die|der|seine|ihre|mit|auf|nur|glatte)\s+(?:glatte\s+)?(?:[1-6](?:[+-]|,\d)?|eins|zwei|drei|"
    r"vier|fünf|fuenf|sechs)(?:\s?(?:plus|minus))?\s+(?:in|im|auf|bei)\s+(?:der\s+|dem\s+)?[^\W\d_]+"
    r"|\bnote\s*:?\s*(?:[1-6][+-]?(?!\d)|sehr gut|gut|befriedigend|ausreichend|mangelhaft|ungenügend)"
    r"|\b\d{1,2}\s+(?:notenpunkte|punkte)\s+(?:in|im)\s+[^\W\d_]+"
    r"|\b(?:sitzen ?geblieben|sitzenbleiben|versetzungsgefährdet|versetzungsgefaehrdet|nicht versetzt)\b"
)
_PUPIL_CUE = re.compile(
    r"\b(?:schüler|schülerin|schuelerin|schueler|schülers|sohn|tochter|kind|neffe|nichte|enkel|enkelin|"
    r"mutter von|vater von|eltern von|bruder von|schwester von)\s*:?\s+(?=\S)"
)
_CLASS_AFTER = re.compile(
    r"\s*(?:,\s*|\(\s*|\s+(?:aus|in)\s+(?:der|meiner|unserer|die)\s+(?:Klasse\s+)?)\d{1,2}\s?[a-zA-Z]\b"
    r"|\s+aus\s+(?:der|meiner|unserer)\s+(?:Klasse|Parallelklasse|Lerngruppe|AG)\b"
)
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}+@[\w-]{1,63}+(?:\.[\w-]{1,63}+)+")
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}+(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])")
# IBAN lengths of Germany, its neighbours and the countries many families in German schools bank with.
_IBAN_LENGTHS = {"DE": 22, "AT": 20, "CH": 21, "NL": 18, "BE": 16, "LU": 20, "FR": 27, "IT": 27, "ES": 24, "PL": 28,
                 "CZ": 24, "DK": 18, "GB": 22, "TR": 26, "HR": 21, "RO": 24, "BG": 22, "GR": 27, "PT": 25, "SE": 24}
_PHONE = re.compile(
    r"(?<![\w+/.,-])(?:(?:\+|00)\s?49[\s/-]?(?:\(0\)\s?)?[1-9]\d{1,4}+|0[1-9]\d{1,4}+|\(0[1-9]\d{1,4}+\))"
    r"(?:[\s/-]?\d{2,}+){1,4}+(?![\d,.]\d)"
)
_MONTHS = r"(?:januar|jänner|februar|märz|maerz|april|mai|juni|juli|august|september|oktober|november|dezember)"
_DATE = rf"(?:\d{{1,2}}\.\s?\d{{1,2}}\.\s?(?:19|20)?\d{{2}}(?!\d)|\d{{1,2}}\.\s?{_MONTHS}\s+(?:19|20)\d{{2}})"
_BIRTHDATE = re.compile(
    rf"(?:\bgeb(?:oren)?\.?(?:\s+am)?|\bgeburtsdatum\s*:?|\bgeburtstag\s*:?|\bgeb\.-datum\s*:?|(?<![\w*])\*)\s*"
    rf"({_DATE})"
)
_DATE_AFTER_NAME = re.compile(rf"\s*(?:,\s*|\(\s*\*?\s*)({_DATE})")
_ADDRESS = re.compile(
    r"(?<![\w-])[A-ZÄÖÜ][\wäöüß-]{0,40}?(?:straße|strasse|str\.|weg|gasse|allee|platz|ring|damm|ufer|chaussee|"
    r"pfad|stieg|steig)\s?\d{1,4}\s?[a-zA-Z]?\b"
    r"(?!\s*(?:m|km|cm|mm|s|min|h|kg|g|%|°|Punkte|Prozent|Meter|Minuten|Sekunden|Uhr|Jahre|Aufgaben)\b)"
    r"(?:\s*,\s*\d{5}\s+[A-ZÄÖÜ][\wäöüß-]+)?"
)
_NOT_STREETS = ("lösungsweg", "loesungsweg", "rechenweg", "schulweg", "heimweg", "umweg", "ausweg", "fluchtweg",
                "lernweg", "bremsweg", "anhalteweg", "reaktionsweg", "denkweg", "sitzplatz", "arbeitsplatz",
                "parkplatz", "spielplatz", "sportplatz", "benzolring", "jahresring", "lösungsansatz")
_PLZ_CITY = re.compile(r"\b(?:[Ww]ohnt in|[Ww]ohnhaft in|[Aa]nschrift:?|[Aa]dresse:?)\s+(\d{5}\s+[A-ZÄÖÜ][\wäöüß-]+)")

_CONTEXT_WINDOW = 90
# The patterns above that are written in lower case run on `_lower(text)`: same offsets, and much faster than
# case-insensitive matching (re's IGNORECASE defeats its literal prefix search).


def _lower(text: str) -> str:
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


@lru_cache(maxsize=4096)
def _fold_word(word: str) -> str:
    return fold_for_rules(word)


def _capitalised(word: str) -> bool:
    return word[:1].isupper() and (len(word) == 1 or not word.isupper())


def _iban_valid(compact: str) -> bool:
    if not 15 <= len(compact) <= 34 or not compact.isalnum():
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def _near(positions: list[int], start: int, end: int, window: int = _CONTEXT_WINDOW) -> bool:
    i = bisect_left(positions, start - window)
    return i < len(positions) and positions[i] <= end + window


class _Names:
    """Finds pupil-like names among the capitalised tokens of one text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokens = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]
        self.spaced = [text[a[1]:b[0]] in (" ", "\u00a0") for a, b in zip(tokens, tokens[1:], strict=False)]
        self.low = low = _lower(text)
        self.context = sorted([m.start() for m in _CONTEXT.finditer(low)] + [m.start() for m in _GRADE.finditer(low)])
        cues = list(_PUPIL_CUE.finditer(low))
        self.cue_ends = {m.end() for m in cues}
        self.cue_starts = [m.start() for m in cues]

    def word(self, i: int) -> str:
        return self.tokens[i][2]

    def adjacent(self, i: int) -> bool:
        return i < len(self.spaced) and self.spaced[i]

    def plausible(self, word: str) -> bool:
        """Could be a name: capitalised, not a function word, subject or school noun, not famous."""
        folded = _fold_word(word)
        return (len(word) >= 2 and _capitalised(word) and folded not in _NAME_STOP
                and folded not in _FAMOUS_SURNAMES and not folded.endswith(_NOUN_SUFFIX))

    @staticmethod
    def first_name(word: str) -> bool:
        return _capitalised(word) and all(_fold_word(part) in _FIRST_NAMES for part in word.split("-"))

    def famous_at(self, i: int) -> bool:
        """Token i is part of a famous person's name ("Marie Curie", "Anne Frank")."""
        word = _fold_word(self.word(i))
        if self.adjacent(i):
            nxt = _fold_word(self.word(i + 1))
            if nxt in _FAMOUS_SURNAMES or f"{word} {nxt}" in _FAMOUS_FULL:
                return True
        if i > 0 and self.adjacent(i - 1):
            prev = _fold_word(self.word(i - 1))
            if word in _FAMOUS_SURNAMES or f"{prev} {word}" in _FAMOUS_FULL:
                return True
        return False

    def class_after(self, i: int) -> bool:
        return _CLASS_AFTER.match(self.text, self.tokens[i][1]) is not None

    def find(self) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        tokens, i = self.tokens, 0
        while i < len(tokens):
            start, end, word = tokens[i]
            if not word[0].isupper() or not _capitalised(word) or self.famous_at(i):
                i += 1
                continue
            after_cue = start in self.cue_ends
            if self.first_name(word):
                j = i
                while j + 1 < len(tokens) and j - i < 2 and self.adjacent(j) and self.first_name(self.word(j + 1)) \
                        and not self.famous_at(j + 1):
                    j += 1  # "Anna Lena"
                if self.adjacent(j) and self.plausible(self.word(j + 1)):
                    surname = _fold_word(self.word(j + 1))
                    evidence = after_cue or self.class_after(j + 1) or _near(self.context, start, tokens[j + 1][1], 60)
                    if surname in _SURNAMES or surname.endswith(_SURNAME_SUFFIX) or evidence:
                        spans.append((start, tokens[j + 1][1]))
                        i = j + 2
                        continue
                if after_cue or self.class_after(j) or _near(self.context, start, tokens[j][1]):
                    spans.append((start, tokens[j][1]))
                    i = j + 1
                    continue
            elif self.plausible(word):
                folded = _fold_word(word)
                if i > 0 and _fold_word(self.word(i - 1)) in ("herr", "herrn", "frau") and self.adjacent(i - 1) and (
                        _near(self.cue_starts, start, end, 60) or _near(self.context, start, end, 60)):
                    # "Frau Schmidt, die Mutter von Lukas" — not "Frau Meier legt 5000 Euro an" (a word problem)
                    spans.append((start, end))
                    i += 1
                    continue
                nxt_is_surname = self.adjacent(i) and _fold_word(self.word(i + 1)) in _SURNAMES
                if folded in _SURNAMES and i + 1 < len(tokens) and self.text[end:tokens[i + 1][0]].strip() == "," \
                        and self.first_name(self.word(i + 1)):
                    spans.append((start, tokens[i + 1][1]))  # "Müller, Max" (class lists)
                    i += 2
                    continue
                if after_cue and (self.class_after(i) or nxt_is_surname or _near(self.context, start, end, 60)):
                    stop = tokens[i + 1][1] if nxt_is_surname else end
                    spans.append((start, stop))
            i += 1
        # Every further mention of a found name ("Max Müller … Max braucht …") goes too.
        parts = {p for s, e in spans for p in _TOKEN.findall(self.text[s:e])
                 if _fold_word(p) not in _NAME_STOP and _fold_word(p) not in _FAMOUS_SURNAMES}
        if parts:
            spans += [(s, e) for idx, (s, e, w) in enumerate(tokens) if w in parts and not self.famous_at(idx)]
        return spans


def find_personal_data(text: str) -> list[Finding]:
    """Personal data in `text`, sorted by position and never overlapping.

    Contacts (e-mail, phone, IBAN, address, birthdate) are always found; a name needs evidence that it is a person
    of the school (surname, class, pupil word, diagnosis or grade nearby); diagnoses and grades count only next to
    a name. The module docstring says why.
    """
    if not text:
        return []
    found: list[tuple[int, Finding]] = []  # (priority, finding); the lower priority wins an overlap

    def add(kind: FindingKind, start: int, end: int, priority: int) -> None:
        if end > start:
            found.append((priority, Finding(kind=kind, start=start, end=end, text=text[start:end])))

    for m in _EMAIL.finditer(text):
        add("email", m.start(), m.end(), 0)
    for m in _IBAN.finditer(text):
        compact = m.group().replace(" ", "")
        length = _IBAN_LENGTHS.get(compact[:2], 0)
        candidate = compact[:length]
        if len(candidate) == length > 0 and (_iban_valid(candidate) or (length == 22 and candidate[2:].isdigit())):
            seen, end = 0, m.start()
            while seen < length:  # the compact length back onto the spaced original
                seen += text[end] != " "
                end += 1
            add("iban", m.start(), end, 0)
    low = _lower(text)
    for m in _BIRTHDATE.finditer(low):
        add("birthdate", m.start(1), m.end(1), 1)
    for m in _PHONE.finditer(text):
        if 7 <= sum(c.isdigit() for c in m.group()) <= 15:
            add("phone", m.start(), m.end(), 2)
    for m in _ADDRESS.finditer(text):
        if not m.group().casefold().startswith(_NOT_STREETS):
            add("address", m.start(), m.end(), 2)
    for m in _PLZ_CITY.finditer(text):
        add("address", m.start(1), m.end(1), 2)

    names = _Names(text).find()
    for start, end in names:
        add("name", start, end, 1)
        m = _DATE_AFTER_NAME.match(low, end)
        if m:
            add("birthdate", m.start(1), m.end(1), 1)
    name_starts = sorted(s for s, _ in names)
    for pattern, kind in ((_HEALTH, "health"), (_GRADE, "grade_of_pupil")):
        for m in pattern.finditer(low):
            if _near(name_starts, m.start(), m.end(), _CONTEXT_WINDOW + 30):
                add(kind, m.start(), m.end(), 3)

    taken = bytearray(len(text))
    kept: list[Finding] = []
    for _, f in sorted(found, key=lambda pf: (pf[0], pf[1].start - pf[1].end, pf[1].start)):
        if any(taken[f.start:f.end]):
            continue
        taken[f.start:f.end] = b"\x01" * (f.end - f.start)
        kept.append(f)
    # "Diagnose Autismus" is one finding, not two placeholders side by side
    result: list[Finding] = []
    for f in sorted(kept, key=lambda f: f.start):
        last = result[-1] if result else None
        if last and last.kind == f.kind and f.kind != "name" and not text[last.end:f.start].strip():
            result[-1] = Finding(kind=f.kind, start=last.start, end=f.end, text=text[last.start:f.end])
        else:
            result.append(f)
    return result


def _apply(text: str, findings: list[Finding]) -> str:
    out, pos = [], 0
    for f in findings:
        out += [text[pos:f.start], REPLACEMENTS[f.kind]]
        pos = f.end
    out.append(text[pos:])
    return "".join(out)


def redact(text: str) -> str:
    """`text` with every personal-data finding replaced by a German placeholder such as "[Name entfernt]"."""
    return _apply(text or "", find_personal_data(text or ""))


# Requests whose subject is a named person's record (checked in a window around each name).
_PERSON_DOC = _rx(
    r"\b(?:gutachten\w*|foerderplan\w*|foerderdiagnos\w*|entwicklungsbericht\w*|lernentwicklungsbericht\w*|"
    r"zeugnisbemerkung\w*|zeugnistext\w*|zeugnisbeurteilung\w*|verbalbeurteilung\w*|beurteilung|beurteilungen|"
    r"stellungnahme\w*|schuelerakte\w*|akte|dossier\w*|personalbogen|charakteristik|einschaetzung (?:ueber|zu|von)|"
    r"bericht (?:ueber|zu)|steckbrief (?:ueber|von|zu)|meldung an (?:das )?jugendamt|jugendamt\w*|"
    r"klassenkonferenz\w*|ordnungsmassnahme\w*|diagnosen (?:auflisten|liste|zusammenfass\w*)|elterngespraech\w*|"
    r"(?:brief|e-?mail|mail|nachricht|schreiben)\w* an (?:die )?eltern von|elternbrief\w*|\w*brief an familie|"
    r"(?:e-?mail|mail|nachricht) an familie)\b"
    r"|\b(?:fass\w*|liste\w*|sammle\w*|sortier\w*|auflist\w*|tabelle\w*|uebersicht\w*|vergleich\w*|speicher\w*|"
    r"merk\w*|notier\w*|vermerk\w*|dokumentier\w*|erfass\w*)\b" + _gap(80)
    + r"\b(?:diagnosen|krankheiten|befunde|foerderbedarfe?|auffaelligkeiten|noten|zensuren|migrationshintergrund|"
      r"herkunft|religion|staatsangehoerigkeit|aufenthaltsstatus)\b"
)
_STORE = _rx(r"\b(?:merk\w* (?:dir|euch|sie sich)|trag\w* (?:\w+ ){0,3}?ein\b|eintragen|notier\w* (?:dir|dass)|"
    r"speicher\w* (?:dir|dass|ab,? dass)|"
             r"vermerk\w* (?:dir|dass)|behalte? (?:\w+ ){0,3}?im (?:kopf|gedaechtnis)|erinner\w* dich|"
             r"fuer (?:spaeter|das naechste mal|die zukunft) (?:merken|speichern))\b")
_ASK_ABOUT = _rx(r"\b(?:was weisst du (?:ueber|von)|wer ist|infos? (?:ueber|zu)|alles ueber|was hat)\b")
_SENSITIVE = {"health", "grade_of_pupil", "birthdate", "address", "iban"}
_PROCESS = _rx(r"\b(?:sortier\w*|liste\w*|auflist\w*|fasse?\w* (?:\w+ )?zusammen|auswert\w*|tabelle\w*|"
               r"vergleich\w*|ranking)\b")
_PERSON_WINDOW = 160


def _personal_refusal(text: str, folded: str, findings: list[Finding]) -> bool:
    """True when the request is about a named person's record rather than about teaching."""
    names = [f for f in findings if f.kind == "name"]
    if not names:
        return False
    if _STORE.search(folded):
        return True
    for f in names[:200]:
        window = fold_for_rules(text[max(0, f.start - _PERSON_WINDOW):f.end + _PERSON_WINDOW])
        if _PERSON_DOC.search(window) or _ASK_ABOUT.search(window):
            return True
    sensitive = any(f.kind in _SENSITIVE for f in findings)
    return sensitive and not _teaching(folded) and _PROCESS.search(folded) is not None
# ---------------------------------------------------------------------------------------------------------------
# The check


def _rule_verdict(text: str) -> Verdict:
    """The offline verdict. Order matters: harm first, then cheating and homework, a named person's record,
    out of scope, injection; a teaching request with personal data is allowed with a hint."""
    text = text or ""
    findings = find_personal_data(text)
    redacted = _apply(text, findings)
    folded = _prepare(text)

    def refuse(category: Category, message: str) -> Verdict:
        return Verdict(allowed=False, category=category, message=message, redacted_text=redacted)

    if not folded:
        return Verdict(allowed=True, category="ok", message=None, redacted_text=redacted)
    message = _harmful(folded)
    if message:
        return refuse("harmful", message)
    if _cheating(folded):
        return refuse("cheating", MSG_CHEATING)
    if _homework(folded):
        return refuse("homework_for_pupil", MSG_HOMEWORK)
    if findings and _personal_refusal(text, folded, findings):
        return refuse("personal_data", MSG_PERSONAL_REFUSED)
    topic = _out_of_scope(folded)
    if topic:
        return refuse("out_of_scope", _oos_message(topic))
    injected, rest = _injection_spans(text, folded)
    if injected:
        if not _is_request_left(rest):
            return refuse("injection", MSG_INJECTION_REFUSED)
        note = MSG_INJECTION_NOTE + (" " + _personal_hint(findings) if findings else "")
        return Verdict(allowed=True, category="injection", message=note, redacted_text=redacted)
    if findings:
        return Verdict(allowed=True, category="personal_data", message=_personal_hint(findings),
                       redacted_text=redacted)
    return Verdict(allowed=True, category="ok", message=None, redacted_text=redacted)


def merge(rules: Verdict, other: Verdict | None) -> Verdict:
    """Combine the rules' verdict with a checker's: the checker decides, except that a refusal of harmful content
    by the rules stands, and the stored text is always the rules' redaction (a checker can never un-redact)."""
    if other is None or (not rules.allowed and rules.category == "harmful"):
        return rules
    message = other.message
    if not other.allowed and not message:
        message = rules.message if not rules.allowed else MSG_CHECKER_REFUSED
    if other.allowed and rules.allowed and rules.message and not message:
        message = rules.message
    return replace(other, message=message, redacted_text=rules.redacted_text)


def check_request(text: str, *, checker: Checker | None = None) -> Verdict:
    """Check a teacher's message (or an upload) before the main agent acts on it.

    Offline the rules decide alone. With a `checker` (e.g. a small model) its verdict is merged in (`merge`); a
    checker that fails is logged and ignored, so the check never breaks a turn.
    """
    rules = _rule_verdict(text)
    if checker is None:
        return rules
    try:
        other = checker(text, rules)
    except Exception:  # a broken second opinion must not break the turn; the rules still hold
        log.warning("safety checker failed; using the rules' verdict", exc_info=True)
        return rules
    return merge(rules, other)
