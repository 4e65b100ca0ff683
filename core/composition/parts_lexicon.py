"""A named part in other words (issue #10, decision 038): the school terms a teacher uses for a part of a topic
that the bank files or words differently. „Textaufgaben“ are the bank's „Sachaufgaben“, „Stoffeigenschaften“ are
Dichte, Siedetemperatur and Löslichkeit, the „Ursachen“ of the Klimawandel are the Treibhauseffekt.

Each entry: the teacher's term (`teil`), the bank's words for it or for what it comprises (`umfasst`), and — for
an aspect word such as „Ursachen“ that means something only about a topic — the topic words (`kontext`) the part
or the request's topic must name. A test checks that every `umfasst` word occurs in the bank of its Fach.

An aspect part („Ursachen“, „Folgen“, „Aufbau“) is covered literally only where one text names the aspect and the
request's topic together: „Ursachen für den Anstieg des Meeresspiegels“ are no „Ursachen des Klimawandels“.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from core.checks.topics import term_matches, text_stems
from core.checks.views import TaskView
from core.language.text import STOPWORDS, fold, stem, words

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n")


@dataclass(frozen=True)
class Eintrag:
    teil: str
    umfasst: tuple[str, ...]
    kontext: tuple[str, ...] = ()


def _e(teil: str, umfasst: str, kontext: str = "") -> Eintrag:
    return Eintrag(teil, tuple(x.strip() for x in umfasst.split(";")), tuple(x for x in kontext.split(";") if x))


def _syn(*gruppe: str) -> tuple[Eintrag, ...]:
    """Words for the same thing: each stands for the others."""
    return tuple(Eintrag(w, tuple(x for x in gruppe if x != w)) for w in gruppe)


LEXIKON: dict[str, tuple[Eintrag, ...]] = {
    "mathematik": (
        *_syn("Textaufgabe", "Sachaufgabe", "Anwendungsaufgabe"),
        *_syn("Flächenberechnung", "Flächeninhalt"),
        _e("Termumformung", "ausmultiplizieren; ausklammern; binomische Formel"),
        _e("Prozentrechnung", "Grundwert; Prozentwert; Prozentsatz"),
        _e("Bruchrechnung", "Bruch; Brüche"),
        _e("Wahrscheinlichkeitsrechnung", "Zufallsexperiment; Baumdiagramm; Wahrscheinlichkeit"),
        _e("Körperberechnung", "Prisma; Zylinder; Pyramide; Kegel; Kugel"),
        _e("Kurvendiskussion", "Funktionsuntersuchung; Extrempunkt; Wendepunkt"),
        _e("Dreisatz", "proportional; antiproportional"),
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
        _e("Alltag", "Schützengraben; Stellungskrieg", "Weltkrieg;Krieg;Front"),
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
        _e("Aufbau", "Atomkern; Kernbausteine; Nukleonen", "Atom;Atomkern;Atommodell;Kern"),
    ),
    "biologie": (
        _e("Aufbau", "Zellkern; Zellmembran; Mitochondrien; Chloroplasten; Zellwand", "Zelle;Zellen"),
        _e("Aufbau", "Vorhof; Herzkammer; Herzklappe", "Herz"),
        _e("Aufbau", "Netzhaut; Hornhaut; Iris", "Auge"),
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


# An aspect in other words: „den Bau einer Kirschblüte“ is its Aufbau, „Eigenschaften einer Fabel“ its Merkmale.
_ASPEKT_GLEICH = {stem("Bau"): stem("Aufbau"), stem("Eigenschaften"): stem("Merkmale"),
                  stem("Kennzeichen"): stem("Merkmale")}


def _stems(text: str) -> set[str]:
    """Every word's stem, generic words included („Ursachen“ has no content stem for the topic checks)."""
    return {stem(w) for w in words(text) if len(w) > 2 and fold(w) not in STOPWORDS}


def _within(a: set[str], b: set[str]) -> bool:
    return bool(a) and all(any(x == y or term_matches(x, y) for y in b) for x in a)


def is_aspect(part: str) -> bool:
    return _within(_stems(part), set(ASPEKTE))


@lru_cache(maxsize=4096)
def alternatives(part: str, thema: str = "") -> tuple[str, ...]:
    """The bank's words for a named part: those of the entries whose term the part names (a context entry only when
    the part or the request's topic names its context). Each word alone: with the part's further words the half-rule
    of `names_literally` would let „Klimawandel“ alone carry „Ursachen des Klimawandels“."""
    said = _stems(part)
    around = said | _stems(thema)
    out: list[str] = []
    for eintraege in LEXIKON.values():
        for e in eintraege:
            teil = _stems(e.teil)
            if not _within(teil, said):
                continue
            if e.kontext and not any(_within(_stems(k), around) for k in e.kontext):
                continue
            out += e.umfasst
    return tuple(dict.fromkeys(out))


def _aspect_named(tasks: Sequence[TaskView], part: str, thema: str) -> bool:
    """An aspect part is named where one title or sentence names the aspect and the topic together: „Folgen des
    Klimawandels“ over a Tuvalu task, not „Ursachen für den Anstieg des Meeresspiegels“ on a Klimawandel sheet."""
    aspect, topic = _stems(part), text_stems(thema)
    for t in tasks:
        for field in (t.titel, *(s for x in (t.text, *t.kriterien) for s in _SENTENCE.split(x))):
            have = _stems(field)
            have |= {same for word, same in _ASPEKT_GLEICH.items() if word in have}
            named = not topic or any(term_matches(w, h) or _head(h, w) for w in topic for h in have)
            if _within(aspect, have) and named:
                return True
    return False


def names_literally(tasks: Sequence[TaskView], unterthema: str) -> bool:
    """A task names the part in its words (compounds included) in its title, text or criteria: half of them at
    least."""
    wanted = text_stems(unterthema)
    if not wanted:
        return True
    for t in tasks:
        tokens = text_stems(" ".join([t.titel, t.text, *t.kriterien]))
        hits = sum(1 for w in wanted if any(_names_word(tok, w) for tok in tokens))
        if hits >= max(1, (len(wanted) + 1) // 2):
            return True
    return False


def _names_word(token: str, word: str) -> bool:
    """The task's word is the part's word, a compound of it, its compound head, or a whole word inside it („Zelle“
    in „Zellteilung“) — not a cut-off stem a few letters short of it („Elektronen“, stem „elektro“, is no
    „Elektrolyse“)."""
    short_by = len(word) - len(token)
    return (term_matches(token, word) and (short_by <= 1 or short_by >= 4)) or _head(token, word)


def _head(token: str, word: str) -> bool:
    """The task's word is a compound whose last element is the part's word: a „Kirschblüte“ is a „Blüte“ (the
    compound's head; a short word such as „blut“ is matched only there, never inside a word)."""
    return len(word) >= 4 and len(token) >= len(word) + 3 and token.endswith(word)


def _names_all(tasks: Sequence[TaskView], term: str) -> bool:
    """A lexicon word is the bank's exact term: every one of its words must be there, whole („Bedingungen der
    Verbrennung“ is not any task on Verbrennung)."""
    wanted = text_stems(term)
    return bool(wanted) and any(
        all(any(_contains(tok, w) for tok in text_stems(" ".join([t.titel, t.text, *t.kriterien]))) for w in wanted)
        for t in tasks
    )


def _contains(token: str, word: str) -> bool:
    """The task's word is the lexicon word or a compound of it („Meeresspiegelanstieg“ for „Meeresspiegel“) — not a
    piece of it („schmelzen“ is no „Gletscherschmelze“)."""
    return len(token) >= len(word) - 1 and term_matches(token, word)


def _compact(text: str) -> str:
    """The stems of a name run together: „Termumformungen“ and „Terme umformen“ both begin „termumform“."""
    return "".join(stem(w) for w in words(text) if fold(w) not in STOPWORDS)


def _same_compound(a: str, b: str) -> bool:
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 8 and long_.startswith(short)


def in_other_words(tasks: Sequence[TaskView], part: str, thema: str = "") -> bool:
    """The tasks name the part in the bank's words for it (LEXIKON), as an aspect of the request's topic, or as one
    compound where the title has separate words („Termumformungen“ over „Terme umformen“)."""
    said = _compact(part)
    return (
        (is_aspect(part) and _aspect_named(tasks, part, thema))
        or any(_same_compound(said, _compact(t.titel)) for t in tasks)
        or any(_names_all(tasks, alt) for alt in alternatives(part, thema))
    )


def covers_part(tasks: Sequence[TaskView], part: str, thema: str = "") -> bool:
    """The tasks cover a part the teacher named: in her words, or in the bank's words for it (LEXIKON)."""
    return (not is_aspect(part) and names_literally(tasks, part)) or in_other_words(tasks, part, thema)


def filed_as(unterthema: str, part: str, thema: str = "") -> bool:
    """The bank files the item under a sub-topic that names the part: the item is about it, not merely mentioning
    it (every Reformation task may mention the 95 Thesen; the Thesenanschlag task is filed under „Ablass und 95
    Thesen“)."""
    return covers_part([TaskView(ref=unterthema, text="", titel=unterthema)], part, thema)


_SEVERAL = re.compile(r",|;|/| und | and | sowie ")


def is_filing_of(label: str, part: str, thema: str = "") -> bool:
    """A filing label (an item's sub-topic, a topic title or its head) *is* the part: it covers the part and names
    nothing else beside it. „Extremwertprobleme“ is the part „Extremwertprobleme“; „Kräfte, Hookesches Gesetz und
    Hebel“ is no „Hebel“ — a Gewichtskraft task filed there does not treat the lever (decision 045)."""
    label = label.strip()
    if not label or not filed_as(label, part, thema):
        return False
    pieces = [p for p in _SEVERAL.split(f" {label} ") if p.strip()]
    return len(pieces) == 1 or all(filed_as(p, part, thema) for p in pieces)


def treats(tasks: Sequence[TaskView], part: str, thema: str = "", filing: str = "") -> bool:
    """The one test of „these tasks are about that part“ (decision 045): their printed words cover it (her words or
    the bank's words for it, decision 038), or the item is filed under a label that is the part. Selection, every
    note to the teacher and the promise check use it."""
    return covers_part(tasks, part, thema) or is_filing_of(filing, part, thema)
