"""Deterministic assembly of materials from retrieved knowledge, for the offline rule model.

The offline specialist retrieves good practices (ranked by hybrid search) and curriculum excerpts through its tools
and hands them here; these functions turn them into a real, valid Klausur, differentiated worksheet or H5P set.
Pure functions: no database, no network, no pydantic_ai; the same input always gives the same output.

How an exam is built, in short:
1. Good practices become candidate Teilaufgaben (operator known and plausible for the AFB, nothing the teacher wants
   avoided, not above the class level, on topic). Each gets a score: retrieval rank, quality, scope, topic fit.
2. Every AFB wish ("Induktion" at AFB III) is served first: a task that already mentions the topic at that AFB; else
   a task on that AFB from the topic's Themenfeld that is extended by a part on the topic (new sentence, new
   criterion); else a new task derived from the Lehrplan text or the subject's terms.
3. A small knapsack per AFB picks the candidate set whose points come closest to the AFB's share of the points
   budget with the highest total score. Where candidates run short, filler tasks derived from the Lehrplan
   excerpts (their own "beschreiben/erklären/beurteilen …" clauses) or from the subject's terms close the gap; their
   points are flexible, so the targets are met exactly whenever fillers are used.
4. Teilaufgaben are clustered into the wanted number of Aufgaben by Themenfeld and wording, ordered easy to hard.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import median

from core.materials import (
    AFB_STUFEN,
    NIVEAU_NAMEN,
    Antwort,
    Aufgabe,
    BlanksFrage,
    DifferenziertesMaterial,
    DragTextFrage,
    H5PFrage,
    H5PSet,
    Klausur,
    Kriterium,
    Luecke,
    MaterialRequest,
    MultiChoiceFrage,
    Niveau,
    Quelle,
    Teilaufgabe,
    TrueFalseFrage,
    zerlege_lueckentext,
)

# The validator's own matching rules, used on purpose so that "mentions the wish" and "operator fits the AFB" mean
# exactly what validate_klausur checks.
from core.validation import _erwaehnt, _usual_levels, afb_passt, validate_klausur

__all__ = [
    "Candidate",
    "ChunkRef",
    "build_differenzierung",
    "build_h5p",
    "build_klausur",
    "points_budget",
]

# --- public input types --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A retrieved good practice, in rank order (best first)."""

    ref: str
    titel: str
    thema: str | None
    content: dict
    scope_type: str = "global"
    quality: float = 0.5


@dataclass(frozen=True)
class ChunkRef:
    """A retrieved curriculum excerpt."""

    ref: str
    titel: str
    text: str
    themenfeld: str | None = None


# --- constants -----------------------------------------------------------------------------------------------------

# The validator accepts 0.6-1.6 points per minute; the budget stays inside with room for the ±10 % the search allows.
_RATE_MIN, _RATE_MAX = 0.7, 1.45
_DEFAULT_ZIEL: dict[str, int] = {"I": 30, "II": 40, "III": 30}
_RANG = {"I": 1, "II": 2, "III": 3}
_SCOPE_BONUS = {"teacher": 0.3, "class": 0.25, "school": 0.15, "global": 0.0}
_MAX_FILLERS_PER_AFB = 6
_MAX_ITEMS_PER_AFB = 40
_GP_GEWICHT = 2.0

_FACH_NAMEN = {
    "physik": "Physik", "biologie": "Biologie", "deutsch": "Deutsch", "mathematik": "Mathematik",
    "geschichte": "Geschichte", "geographie": "Geographie", "englisch": "Englisch", "chemie": "Chemie",
}

# What an AFB III judgement about a term refers to, per subject ("die Bedeutung von X <bezug>").
_BEZUG = {
    "physik": "für Alltag und Technik",
    "chemie": "für Alltag und Technik",
    "biologie": "für Mensch und Umwelt",
    "geographie": "für Mensch und Raum",
    "geschichte": "für die weitere historische Entwicklung",
    "mathematik": "für das Lösen von Sachproblemen",
    "deutsch": "für das Verstehen und Verfassen von Texten",
}

_STOP = frozenset([
    "aber", "alle", "allem", "allen", "aller", "alles", "also", "auch", "auf", "aus", "beim", "bei", "bis",
    "dabei", "damit", "dann", "darf", "dass", "dein", "deine", "dem", "den", "denen", "der", "deren", "des",
    "dessen", "die", "dies", "diese", "diesem", "diesen", "dieser", "dieses", "doch", "durch", "eine", "einem",
    "einen", "einer", "eines", "etwa", "für", "gegen", "gibt", "hier", "ihre", "ihrem", "ihren", "ihrer",
    "ihres", "immer", "indem", "jede", "jedem", "jeden", "jeder", "jedes", "kann", "keine", "mehr", "mit",
    "nach", "nicht", "noch", "oder", "ohne", "sehr", "sein", "seine", "sich", "sind", "soll", "sollen", "sowie",
    "über", "unter", "und", "viel", "vom", "von", "vor", "wann", "warum", "was", "weil", "welche", "welchem",
    "welchen", "welcher", "welches", "wenn", "werden", "wie", "wird", "wurde", "zum", "zur", "zwischen",
    "sowie", "thema", "themen", "klasse", "klassen", "klassenarbeit", "klausur", "test", "aufgabe", "aufgaben",
    "teil", "einheit", "reihe", "unterrichtsreihe", "schülerinnen", "schüler"
])

# Lower-case words that may follow ", " or "und" inside a clause object without starting a new clause.
_CLAUSE_CONTINUE = frozenset([
    "der", "die", "das", "dem", "den", "des", "denen", "deren", "dessen", "ein", "eine", "einem", "einen",
    "einer", "eines", "kein", "keine", "keinem", "keinen", "ihre", "ihren", "ihrem", "ihrer", "seine", "seinen",
    "seinem", "seiner", "diese", "diesen", "diesem", "dieser", "jeden", "jedem", "allen", "anderen", "wie",
    "wann", "warum", "weshalb", "wieso", "ob", "dass", "wenn", "weil", "indem", "inwiefern", "inwieweit",
    "welche", "welcher", "welches", "welchen", "welchem", "was", "wo", "wodurch", "womit", "wobei", "worin",
    "als", "auch", "etwa", "insbesondere", "zum", "zur", "zu", "in", "im", "an", "am", "auf", "aus", "bei",
    "mit", "nach", "von", "vom", "vor", "über", "unter", "um", "durch", "für", "gegen", "ohne", "bis", "sowie",
    "oder", "und", "zwischen"
])
_CLAUSE_LEAD = frozenset({"schüler", "sie", "und", "sowie", "oder", "dabei", "damit", "außerdem", "zudem", "ferner",
                          "anschließend", "hinaus", "zusätzlich", "schließlich"})
_OBJECT_STRIP = frozenset({"sie", "damit", "dabei", "dazu", "auch", "zudem", "außerdem", "so", "hierbei", "jeweils",
                           "schließlich", "zusätzlich"})
_OBJECT_REJECT_START = frozenset({"deren", "dessen", "denen", "ihn", "ihm", "ihr", "ihre", "ihren", "ihrem", "ihrer",
                                  "sich", "diese", "diesen", "dies", "es", "sie", "am", "im", "an", "in", "mit", "zu",
                                  "zum", "zur", "auf", "aus", "bei", "nach", "von", "vom", "für"})
# Head nouns of objects that need material the filler cannot supply (a poem, a table, measured data …).
_NEEDS_MATERIAL = (
    "text", "sachtext", "gedicht", "quelle", "karikatur", "diagramm", "material", "messwert", "messdat", "daten",
    "tabelle", "karte", "bild", "film", "statistik", "kennlinie", "schaubild", "klimadiagramm", "hörtext", "lesetext",
    "szene", "werbe", "roman", "drama", "ballade", "erzähltext", "kurzgeschichten", "ergebnis", "zeitzeugen",
    "oszilloskop", "versuchsergebnis", "fallbeispiel", "experimentergebnis", "präparat",
)
_SUBCLAUSE = re.compile(r"^,\s*(wie|wann|warum|weshalb|wieso|ob|dass|wenn|weil|inwiefern|inwieweit|welche\w*|was|wo\w*"
                        r"|in denen|in dem|in der|die|der|das|mit denen)\b")

# Operator families the fillers know how to phrase and to give criteria for (casefolded operator -> family).
_FAMILIE = {
    "nennen": "nennen", "angeben": "nennen", "benennen": "nennen", "bezeichnen": "nennen", "name": "nennen",
    "state": "nennen",
    "beschreiben": "beschreiben", "darstellen": "beschreiben", "describe": "beschreiben", "outline": "beschreiben",
    "erklären": "erklaeren", "erläutern": "erklaeren", "begründen": "erklaeren", "explain": "erklaeren",
    "illustrate": "erklaeren",
    "vergleichen": "vergleichen", "compare": "vergleichen", "contrast": "vergleichen",
    "beurteilen": "urteilen", "bewerten": "urteilen", "erörtern": "urteilen", "diskutieren": "urteilen",
    "comment": "urteilen", "discuss": "urteilen", "evaluate": "urteilen", "assess": "urteilen",
}
_FAMILIEN_JE_AFB = {"I": ("beschreiben", "nennen"), "II": ("erklaeren", "vergleichen"), "III": ("urteilen",)}
_DEFAULT_OPERATOREN = {
    "I": ("Nennen", "Beschreiben"), "II": ("Erklären", "Erläutern", "Vergleichen"),
    "III": ("Beurteilen", "Bewerten", "Diskutieren"),
}
_ENGLISCHE_OPERATOREN = frozenset({"name", "state", "describe", "outline", "explain", "compare", "contrast",
                                   "comment", "discuss", "evaluate", "assess", "analyse", "summarise"})

# German du-imperatives of the separable verbs among the operators ("Gib … an").
_TRENNBAR = {
    "angeben": ("Gib", "an"), "auswerten": ("Werte", "aus"), "darstellen": ("Stelle", "dar"),
    "einordnen": ("Ordne", "ein"), "herleiten": ("Leite", "her"), "herausarbeiten": ("Arbeite", "heraus"),
    "nachweisen": ("Weise", "nach"), "wiedergeben": ("Gib", "wieder"), "zusammenfassen": ("Fasse", "zusammen"),
    "zuordnen": ("Ordne", "zu"), "ableiten": ("Leite", "ab"), "aufstellen": ("Stelle", "auf"),
}
_UNREGELMAESSIG = {"geben": "Gib", "nehmen": "Nimm", "lesen": "Lies", "messen": "Miss", "sehen": "Sieh"}

# Synonyms of things teachers ask to avoid, matched against task texts (casefolded substrings).
_VERMEIDEN_SYNONYME = {
    "multiple choice": ("multiple choice", "multiple-choice", "ankreuz", "kreuze an", "kreuze die", "tick the",
                        "choose the correct"),
    "lückentext": ("lückentext", "lücken", "complete the", "fill in", "ergänze die fehlenden"),
    "richtig/falsch": ("richtig oder falsch", "true or false", "wahr oder falsch"),
    "zuordnung": ("ordne zu", "ordne … zu", "zuordnen", "match the"),
}

# Which H5P types a phrase in request.zusatz excludes ("keine Multiple-Choice-Fragen", "ohne Lückentext").
_H5P_TYP_WOERTER = {
    "multichoice": ("multiple choice", "multiple-choice", "multiplechoice", "mc-fragen", "mc fragen", "ankreuz"),
    "truefalse": ("richtig/falsch", "richtig-falsch", "richtig oder falsch", "wahr/falsch", "true/false",
                  "true or false", "wahr oder falsch"),
    "blanks": ("lückentext", "lückentexte", "lücken"),
    "dragtext": ("drag-text", "dragtext", "drag text", "drag and drop", "drag & drop", "ziehen"),
}
_NEGATION = re.compile(r"\b(kein|keine|keinen|keiner|ohne|nicht|bitte nicht|verzicht\w*)\b", re.IGNORECASE)

_WORT = re.compile(r"[^\W\d_]+", re.UNICODE)
_SATZENDE = re.compile(r"(?<=[^\s\d.][^\s.])[.!?;]\s+(?=[A-ZÄÖÜ„\"])")
_ABKUERZUNGEN = (("z. B.", "z.\u00a0B."), ("d. h.", "d.\u00a0h."), ("u. a.", "u.\u00a0a."), ("v. a.", "v.\u00a0a."),
                 ("bzw.", "bzw\u2024"), ("ca.", "ca\u2024"), ("usw.", "usw\u2024"), ("vgl.", "vgl\u2024"),
                 ("etc.", "etc\u2024"), ("Jh.", "Jh\u2024"))


# --- small text helpers --------------------------------------------------------------------------------------------


def _woerter(text: str | None) -> list[str]:
    """Content words (4+ letters, no function words), casefolded, in order, without repeats."""
    seen: dict[str, None] = {}
    for w in _WORT.findall(text or ""):
        f = w.casefold()
        if len(f) >= 4 and f not in _STOP:
            seen.setdefault(f, None)
    return list(seen)


def _passt_wort(a: str, b: str) -> bool:
    """Same word, or one a prefix of the other ('stromkreis' ~ 'stromkreise', 'induktion' ~ 'induktionsspannung')."""
    if a == b:
        return True
    kurz, lang = (a, b) if len(a) <= len(b) else (b, a)
    # 'strom' must not match 'stromkreise', but 'spule' matches 'spulen' and 'induktion' 'induktionsspannung'
    return len(kurz) >= 5 and (len(kurz) >= 6 or len(kurz) >= 0.7 * len(lang)) and lang.startswith(kurz)


def _ueberlappung(a: Sequence[str], b: Sequence[str]) -> int:
    """How many words of `a` have a match in `b`."""
    return sum(1 for w in a if any(_passt_wort(w, v) for v in b))


def _locker(a: str, b: str) -> bool:
    """Looser than _passt_wort, for finding a topic's Themenfeld: any shared prefix of 5+ letters that is a whole
    word ('sonne' ~ 'sonnensystem')."""
    kurz, lang = (a, b) if len(a) <= len(b) else (b, a)
    return a == b or (len(kurz) >= 5 and lang.startswith(kurz))


def _jaccard(a: Sequence[str], b: Sequence[str]) -> float:
    if not a or not b:
        return 0.0
    gemeinsam = _ueberlappung(a, b)
    return gemeinsam / max(1, len(a) + len(b) - gemeinsam)


def _kuerzen(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;:–-")
    return cut + " …"


def _fach_key(fach: str) -> str:
    f = fach.strip().casefold()
    for key in _FACH_NAMEN:
        if f.startswith(key[:4]):
            return key
    return f


def _fach_name(fach: str) -> str:
    return _FACH_NAMEN.get(_fach_key(fach), fach.strip() or "Fach")


def _klassenstufe(request: MaterialRequest, fallback: Sequence[int] = ()) -> int:
    if request.klassenstufe:
        return request.klassenstufe
    if request.klasse:
        m = re.match(r"\s*(\d{1,2})", request.klasse)
        if m and 5 <= int(m.group(1)) <= 13:
            return int(m.group(1))
    werte = [k for k in fallback if isinstance(k, int) and 5 <= k <= 13]
    return int(median(werte)) if werte else 9


def _saetze(text: str) -> list[str]:
    """Sentences of a German text; abbreviations like 'z. B.' and ordinals ('19. Jahrhundert') stay intact."""
    geschuetzt = " ".join((text or "").split())
    for original, ersatz in _ABKUERZUNGEN:
        geschuetzt = geschuetzt.replace(original, ersatz)
    teile = _SATZENDE.split(geschuetzt)
    ergebnis = []
    for teil in teile:
        for original, ersatz in _ABKUERZUNGEN:
            teil = teil.replace(ersatz, original)
        teil = teil.strip()
        if teil:
            ergebnis.append(teil if teil[-1] in ".!?" else teil + ".")
    return ergebnis


def _imperativ(operator: str) -> tuple[str, str]:
    """du-imperative of a German operator: 'Erklären' -> ('Erkläre', ''), 'Angeben' -> ('Gib', 'an');
    English operators stay as they are."""
    w = operator.strip().casefold()
    if w in _ENGLISCHE_OPERATOREN or not w.endswith("n"):
        return operator.strip(), ""
    if w in _TRENNBAR:
        return _TRENNBAR[w]
    if w in _UNREGELMAESSIG:
        return _UNREGELMAESSIG[w], ""
    if w.endswith("eln"):
        stamm = w[:-3] + "le"
    elif w.endswith("ern"):
        stamm = w[:-1] + "e"
    elif w.endswith("en"):
        stamm = w[:-2] + "e"
    else:
        stamm = w[:-1]
    return stamm[:1].upper() + stamm[1:], ""


def _aufforderung(operator: str, objekt: str) -> str:
    """'Erkläre <objekt>.' with separable particles in place ('Gib an, wann …', 'Ordne X ein.')."""
    verb, partikel = _imperativ(operator)
    objekt = objekt.strip().rstrip(".")
    if objekt.startswith(","):
        satz = f"{verb}{' ' + partikel if partikel else ''}{objekt}"
    elif partikel:
        kopf, komma, rest = objekt.partition(", ")
        satz = f"{verb} {kopf} {partikel}{komma}{rest}" if komma else f"{verb} {objekt} {partikel}"
    else:
        satz = f"{verb} {objekt}"
    return satz.rstrip() + "."


def _verteile(texte: Sequence[str], punkte: int) -> list[tuple[str, int]]:
    """Criteria texts (most important first) with `punkte` spread over them, each at least 1."""
    punkte = max(1, punkte)
    texte = [t for t in texte if t.strip()] or ["Fachlich zutreffende, vollständige Bearbeitung der Aufgabe."]
    n = min(len(texte), punkte)
    verteilt = [1] * n
    for i in range(punkte - n):
        verteilt[i % n] += 1
    return list(zip(texte[:n], verteilt, strict=True))


def _vermeiden_liste(preferences: Mapping) -> list[str]:
    raw = preferences.get("dinge_vermeiden") or []
    if isinstance(raw, str):
        raw = re.split(r"[,;\n]", raw)
    return [str(x).strip() for x in raw if str(x).strip()]


def _zu_vermeiden(text: str, vermeiden: Sequence[str]) -> bool:
    haystack = " ".join(text.split()).casefold()
    for phrase in vermeiden:
        p = " ".join(phrase.split()).casefold()
        if _erwaehnt(phrase, text):
            return True
        for key, synonyme in _VERMEIDEN_SYNONYME.items():
            if (key in p or any(s in p for s in synonyme)) and any(s in haystack for s in synonyme):
                return True
    return False


def _rechnung_anteil(preferences: Mapping) -> float | None:
    """preferences['rechnung_theorie_ratio'] as the share of calculation tasks in [0, 1], if given."""
    raw = preferences.get("rechnung_theorie_ratio")
    if raw is None:
        return None
    try:
        if isinstance(raw, Mapping):
            r = float(raw.get("rechnung", 0))
            t = float(raw.get("theorie", 0))
            return r / (r + t) if r + t > 0 else None
        if isinstance(raw, str):
            m = re.match(r"\s*(\d+(?:[.,]\d+)?)\s*[:/]\s*(\d+(?:[.,]\d+)?)", raw)
            if m:
                r, t = (float(g.replace(",", ".")) for g in m.groups())
                return r / (r + t) if r + t > 0 else None
            raw = float(raw.replace(",", "."))
        value = float(raw)
    except (TypeError, ValueError):
        return None
    if value > 1:
        value /= 100
    return min(1.0, max(0.0, value))


def _ist_rechnung(operator: str, kriterien: Sequence[str]) -> bool:
    if operator.casefold() in {"berechnen", "bestimmen", "ermitteln", "lösen", "herleiten", "calculate"}:
        return True
    return sum(1 for k in kriterien if "=" in k and re.search(r"\d", k)) >= 2


def points_budget(dauer_minuten: int, preferences: dict) -> int:
    """Points the exam should have: dauer × punkte_pro_minute (teacher preference, default 1.0), rounded."""
    try:
        rate = float(preferences.get("punkte_pro_minute") or 1.0)
    except (TypeError, ValueError):
        rate = 1.0
    if rate <= 0:
        rate = 1.0
    return int(math.floor(dauer_minuten * rate + 0.5))


# --- subject context -----------------------------------------------------------------------------------------------


@dataclass
class _Kontext:
    """Everything derived once per request: subject, topic, operators, terms, chunks."""

    request: MaterialRequest
    fach_key: str
    fach: str
    klassenstufe: int
    thema: str
    thema_woerter: list[str]
    profile: Mapping
    operators: Mapping[str, str]
    chunks: list[ChunkRef]
    felder: list[str]                       # Themenfelder of the topic, best first
    begriffe: list[str]                     # characteristic terms of those Themenfelder, topic-near first
    englisch: bool
    chunk_woerter: list[list[str]] = field(default_factory=list)

    def themenfeld_begriffe(self, themenfeld: str | None) -> list[str]:
        felder = self.profile.get("themenfelder") or {}
        return list(felder.get(themenfeld or "", []))

    def felder_von(self, text: str) -> list[str]:
        """Themenfelder whose name or terms the text mentions, best first: a word of the field's name counts three
        times, a term word once, a loose prefix match ('sonne' ~ 'sonnensystem') half; fields scoring less than
        60 % of the best are dropped ('Weimarer Republik' is not about the 'Römische Republik')."""
        woerter = _woerter(text)
        wertung: list[tuple[float, int, str]] = []
        for i, (name, begriffe) in enumerate((self.profile.get("themenfelder") or {}).items()):
            name_w = _woerter(name)
            term_w = _woerter(" ".join(begriffe))
            punkte = 0.0
            for w in woerter:
                if any(_passt_wort(w, v) for v in name_w):
                    punkte += 3
                elif any(_passt_wort(w, v) for v in term_w):
                    punkte += 1
                elif any(_locker(w, v) for v in name_w + term_w):
                    punkte += 0.5
            if punkte > 0:
                wertung.append((punkte, i, name))
        if not wertung:
            return []
        bester = max(p for p, _, _ in wertung)
        return [name for p, _, name in sorted(wertung, key=lambda x: (-x[0], x[1])) if p >= 0.6 * bester]

    def begriff_paare(self) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """Term pairs of the topic's Themenfelder, topic-near first: (comparable pairs, related pairs).

        Comparable: two terms with the same head ('Kreuzreim'/'Paarreim', 'Reihenschaltung'/'Parallelschaltung').
        Related: neighbours in the profile's list, which names related terms next to each other."""
        vergleichbar: list[tuple[str, str]] = []
        verwandt: list[tuple[str, str]] = []
        for feld in self.felder:
            liste = self.themenfeld_begriffe(feld)
            for i, a in enumerate(liste):
                for b in liste[i + 1:]:
                    ka, kb = a.split()[-1].casefold(), b.split()[-1].casefold()
                    if ka == kb:  # 'first-person narrator' / 'third-person narrator'
                        gleich = len(a.split()) > 1 and len(b.split()) > 1
                    elif self.englisch:
                        gleich = False
                    else:  # German compounds with the same head: 'Kreuzreim' / 'Paarreim'
                        gemeinsam = 0
                        while gemeinsam < min(len(ka), len(kb)) and ka[-1 - gemeinsam] == kb[-1 - gemeinsam]:
                            gemeinsam += 1
                        gleich = gemeinsam >= 4 and min(len(ka), len(kb)) > gemeinsam
                    if gleich and (a, b) not in vergleichbar:
                        vergleichbar.append((a, b))
            verwandt += [(liste[i], liste[i + 1]) for i in range(0, len(liste) - 1, 2)]
        rang = {b: i for i, b in enumerate(self.begriffe)}

        def key(p: tuple[str, str]) -> int:
            return min(rang.get(p[0], 99), rang.get(p[1], 99))

        return sorted(vergleichbar, key=key), sorted(verwandt, key=key)

    def bester_chunk(self, text: str, themenfeld: str | None = None) -> ChunkRef | None:
        woerter = _woerter(text)
        best: tuple[float, int] | None = None
        for i, chunk in enumerate(self.chunks):
            score = float(_ueberlappung(woerter, self.chunk_woerter[i]))
            if themenfeld and chunk.themenfeld == themenfeld:
                score += 2
            if score > 0 and (best is None or score > best[0]):
                best = (score, i)
        return self.chunks[best[1]] if best else None

    def operatoren_fuer(self, afb: str, familien: Sequence[str]) -> list[str]:
        """Operators of the subject usable for a filler on `afb`, from `familien` in that order (profile order)."""
        kandidaten: list[str] = list((self.profile.get("afb_operatoren") or {}).get(afb, []))
        kandidaten += [name for name, level in self.operators.items() if level == afb]
        if not kandidaten and not self.operators:
            kandidaten = list(_DEFAULT_OPERATOREN[afb])
        gefunden: list[str] = []
        for familie in familien:
            for name in kandidaten:
                name = name.strip()
                if " " in name or _FAMILIE.get(name.casefold()) != familie or name in gefunden:
                    continue
                if self.operators:
                    levels = _usual_levels(name, self.operators)
                    if not levels or afb not in levels:
                        continue
                gefunden.append(name)
        return gefunden

    def operator_fuer(self, afb: str, familien: Sequence[str]) -> str | None:
        ops = self.operatoren_fuer(afb, familien)
        return ops[0] if ops else None


def _kontext(request: MaterialRequest, profile: Mapping, operators: Mapping[str, str], chunks: Sequence[ChunkRef],
             candidates: Sequence[Candidate]) -> _Kontext:
    fach_key = _fach_key(request.fach)
    thema = " ".join((request.thema or "").split()) or _fach_name(request.fach)
    kl = _klassenstufe(request, [c.content.get("klassenstufe") for c in candidates if isinstance(c.content, dict)])
    ops = {str(k): str(v) for k, v in (operators or {}).items() if str(v) in _RANG}
    alle_ops = set(ops) | {o for v in (profile.get("afb_operatoren") or {}).values() for o in v}
    englisch = fach_key == "englisch" or (
        bool(alle_ops) and sum(o.casefold() in _ENGLISCHE_OPERATOREN for o in alle_ops) > len(alle_ops) / 2
    )
    ctx = _Kontext(
        request=request, fach_key=fach_key, fach=_fach_name(request.fach), klassenstufe=kl, thema=thema,
        thema_woerter=_woerter(thema), profile=profile or {}, operators=ops, chunks=list(chunks), felder=[],
        begriffe=[], englisch=englisch,
    )
    ctx.chunk_woerter = [_woerter(f"{c.titel} {c.themenfeld or ''} {c.text}") for c in ctx.chunks]
    felder = ctx.felder_von(thema)
    if not felder:
        # The topic words are not in the profile's vocabulary: trust retrieval (best chunk, then best candidate).
        for i, chunk in enumerate(ctx.chunks):
            if chunk.themenfeld and _ueberlappung(ctx.thema_woerter, ctx.chunk_woerter[i]):
                felder = [chunk.themenfeld]
                break
        if not felder and ctx.chunks and ctx.chunks[0].themenfeld:
            felder = [ctx.chunks[0].themenfeld]
        if not felder:
            for c in candidates:
                tf = c.content.get("themenfeld") if isinstance(c.content, dict) else None
                if tf:
                    felder = [tf]
                    break
    ctx.felder = felder
    begriffe: list[str] = []
    for feld in felder:
        for b in ctx.themenfeld_begriffe(feld):
            if b not in begriffe:
                begriffe.append(b)
    relevante_chunks = [w for i, w in enumerate(ctx.chunk_woerter) if ctx.chunks[i].themenfeld in felder]
    chunk_text = [w for ws in relevante_chunks for w in ws]

    def naehe(begriff: str) -> int:
        w = _woerter(begriff)
        if _ueberlappung(w, ctx.thema_woerter):
            return 0
        if chunk_text and _ueberlappung(w, chunk_text):
            return 1
        return 2

    ctx.begriffe = sorted(begriffe, key=naehe)
    return ctx


# --- items: Teilaufgaben before they are numbered ------------------------------------------------------------------


@dataclass
class _Item:
    key: str
    operator: str
    text: str
    afb: str
    kriterien: list[tuple[str, int]]
    thema: str
    themenfeld: str
    material: str | None
    quellen: list[Quelle]
    score: float
    order: int
    art: str                                # gp | anker | abgeleitet | fueller
    rechnung: bool = False
    wunsch: bool = False

    @property
    def punkte(self) -> int:
        return sum(p for _, p in self.kriterien)


@dataclass
class _GP:
    """A parsed klausur good practice."""

    cand: Candidate
    rank: int
    operator: str
    text: str
    afb: str
    kriterien: list[tuple[str, int]]
    thema: str
    themenfeld: str
    klassenstufe: int | None
    material: str | None
    kontext: str

    @property
    def volltext(self) -> str:
        return f"{self.thema} {self.cand.titel} {self.text}"


def _parse_gp(cand: Candidate, rank: int) -> _GP | None:
    c = cand.content if isinstance(cand.content, dict) else {}
    text = str(c.get("aufgabe") or "").strip()
    operator = str(c.get("operator") or "").strip()
    afb = str(c.get("afb") or "").strip()
    if not text or not operator or afb not in _RANG:
        return None
    kriterien: list[tuple[str, int]] = []
    for k in c.get("erwartung") or []:
        if not isinstance(k, Mapping):
            return None
        kt = str(k.get("kriterium") or k.get("text") or "").strip()
        try:
            kp = int(k.get("punkte") or 0)
        except (TypeError, ValueError):
            return None
        if not kt or kp < 1:
            return None
        kriterien.append((kt, kp))
    if not kriterien:
        return None
    kl = c.get("klassenstufe")
    material = c.get("material")
    return _GP(
        cand=cand, rank=rank, operator=operator, text=text, afb=afb, kriterien=kriterien,
        thema=(cand.thema or "").strip() or _kuerzen(cand.titel, 60) or operator,
        themenfeld=str(c.get("themenfeld") or ""), klassenstufe=kl if isinstance(kl, int) else None,
        material=material.strip() if isinstance(material, str) and material.strip() else None,
        kontext=str(c.get("kontext") or ""),
    )


def _operator_ok(ctx: _Kontext, operator: str, afb: str) -> bool:
    if not ctx.operators:
        return True
    levels = _usual_levels(operator, ctx.operators)
    return bool(levels) and any(afb_passt(level, afb) for level in levels)


def _gp_quellen(ctx: _Kontext, gp: _GP) -> list[Quelle]:
    """The good practice itself and the Lehrplan excerpt that shares the most words with it."""
    quellen = [Quelle(art="good_practice", ref=gp.cand.ref, titel=_kuerzen(gp.cand.titel or gp.thema, 200))]
    chunk = ctx.bester_chunk(f"{gp.volltext} {' '.join(t for t, _ in gp.kriterien)}", gp.themenfeld)
    if chunk:
        quellen.append(_chunk_quelle(chunk))
    return quellen


def _chunk_quelle(chunk: ChunkRef) -> Quelle:
    return Quelle(art="curriculum", ref=chunk.ref, titel=_kuerzen(chunk.titel or chunk.text, 200))


# --- Lehrplan clauses ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Klausel:
    """'Die Schülerinnen und Schüler erklären X' -> operator 'Erklären', objekt 'X'."""

    operator: str
    afb: str
    objekt: str
    chunk: ChunkRef


def _klauseln(ctx: _Kontext, chunk: ChunkRef) -> list[_Klausel]:
    """The competence clauses of a curriculum excerpt that can become a task without extra material."""
    verben: dict[str, str] = {}
    quellen_ops = list(ctx.operators) or [o for v in (ctx.profile.get("afb_operatoren") or {}).values() for o in v]
    for name in quellen_ops:
        n = name.strip()
        if " " not in n and n.casefold() in _FAMILIE:
            verben[n.casefold()] = n
    if not verben or ctx.englisch:
        return []
    ergebnis: list[_Klausel] = []
    for satz in _saetze(chunk.text):
        tokens = re.findall(r"[^\s,]+|,", satz)
        starts = []
        for i, tok in enumerate(tokens):
            wort = tok.strip("„“\"()")
            if wort in verben and wort == wort.lower() and i > 0:
                prev = tokens[i - 1]
                if prev == "," or prev.casefold() in _CLAUSE_LEAD:
                    starts.append(i)
        for n, start in enumerate(starts):
            ende = starts[n + 1] if n + 1 < len(starts) else len(tokens)
            objekt_tokens = tokens[start + 1 : ende]
            heuristisch = False
            for j in range(1, len(objekt_tokens)):
                tok = objekt_tokens[j]
                prev = objekt_tokens[j - 1]
                if (prev in (",",) or prev.casefold() in ("und", "sowie")) and tok == tok.lower() \
                        and len(tok) >= 4 and tok.endswith(("en", "ern", "eln")) and tok not in _CLAUSE_CONTINUE:
                    objekt_tokens = objekt_tokens[: j]
                    heuristisch = True
                    break
            while objekt_tokens and objekt_tokens[0].casefold() in _OBJECT_STRIP:
                objekt_tokens = objekt_tokens[1:]
            while objekt_tokens and (objekt_tokens[-1] == "," or objekt_tokens[-1].casefold() in ("und", "sowie",
                                                                                                  "oder")):
                objekt_tokens = objekt_tokens[:-1]
            klausel = _klausel_aus(ctx, verben[tokens[start].strip("„“\"()")], objekt_tokens, heuristisch, chunk)
            if klausel:
                ergebnis.append(klausel)
    return ergebnis


def _klausel_aus(ctx: _Kontext, operator: str, tokens: list[str], heuristisch: bool,
                 chunk: ChunkRef) -> _Klausel | None:
    woerter = [t for t in tokens if t != ","]
    if len(woerter) < 2 or len(woerter) > 24:
        return None
    if tokens[0] != "," and tokens[0].casefold() in _OBJECT_REJECT_START:
        return None
    objekt = " ".join(tokens).replace(" ,", ",").strip().rstrip(".")
    if len(objekt) > 170 or re.search(r"\b(eigene[nmrs]?|ihre[nmrs]?|ihr|selbst)\b", objekt, re.IGNORECASE):
        return None
    letzte = woerter[-1].strip("„“\"().")
    untersatz = bool(_SUBCLAUSE.match(objekt))
    if heuristisch and not untersatz and letzte[:1].islower() and not letzte[:1].isdigit():
        return None
    if tokens[0] == "," and not untersatz:
        return None
    kopf = next((w for w in woerter if w[:1].isupper()), "")
    if not untersatz and kopf.casefold().startswith(_NEEDS_MATERIAL):
        return None
    levels = _usual_levels(operator, ctx.operators) if ctx.operators else None
    if levels:
        afb = levels[0]
    else:
        afb = next((a for a, ops in (ctx.profile.get("afb_operatoren") or {}).items() if operator in ops), "")
    if afb not in _RANG:
        return None
    return _Klausel(operator=operator, afb=afb, objekt=objekt, chunk=chunk)


# --- filler tasks --------------------------------------------------------------------------------------------------


def _mit_objekt(verb3: str, objekt: str, adverb: str) -> str:
    """'Erklärt <objekt> fachlich zutreffend.' / 'Beschreibt fachlich zutreffend, wie …'."""
    if objekt.startswith(","):
        return f"{verb3} {adverb}{objekt}."
    return f"{verb3} {objekt} {adverb}."


def _objekt_kurz(objekt: str) -> str:
    return objekt if len(objekt) <= 80 else "den in der Aufgabe genannten Sachverhalt"


def _begriffe_im(ctx: _Kontext, text: str, themenfeld: str | None) -> list[str]:
    """Terms of the Themenfeld the text uses (the text's word may be an inflected or compound form of the term's
    word: 'Spulen' uses 'Spule', but 'Republik' does not use 'Republikfeinde')."""
    woerter = _woerter(text)
    pool = ctx.themenfeld_begriffe(themenfeld) + ctx.begriffe
    treffer: list[str] = []
    for b in pool:
        bw = _woerter(b)
        if bw and b not in treffer and all(any(t == w or (len(w) >= 5 and t.startswith(w)) for t in woerter)
                                           for w in bw):
            treffer.append(b)
    return treffer[:3]


def _fachbegriff_kriterium(begriffe: Sequence[str]) -> str:
    if begriffe:
        return f"Verwendet die Fachbegriffe {', '.join(begriffe)} korrekt."
    return "Verwendet die Fachsprache korrekt."


def _kriterien_klausel(ctx: _Kontext, operator: str, objekt: str, begriffe: Sequence[str]) -> list[str]:
    familie = _FAMILIE[operator.casefold()]
    o = _objekt_kurz(objekt)
    if familie == "nennen":
        nennt = (f"Nennt zutreffende Angaben dazu{o} (je Angabe 1 Punkt)." if o.startswith(",")
                 else f"Nennt {o} zutreffend (je Angabe 1 Punkt).")
        return [nennt, _fachbegriff_kriterium(begriffe)]
    if familie == "beschreiben":
        return [_mit_objekt("Beschreibt", o, "sachlich zutreffend in den wesentlichen Merkmalen bzw. Schritten"),
                _fachbegriff_kriterium(begriffe),
                "Stellt strukturiert und in sinnvoller Reihenfolge dar, ohne zu werten."]
    if familie == "erklaeren":
        verb3 = {"erläutern": "Erläutert", "begründen": "Begründet"}.get(operator.casefold(), "Erklärt")
        kriterien = [_mit_objekt(verb3, o, "fachlich zutreffend"),
                     "Benennt die zugrunde liegende Gesetzmäßigkeit, Regel bzw. Ursache ausdrücklich.",
                     "Verknüpft die Schritte zu einem schlüssigen Ursache-Wirkungs-Zusammenhang.",
                     _fachbegriff_kriterium(begriffe)]
        if operator.casefold() == "erläutern":
            kriterien.insert(2, "Veranschaulicht die Erläuterung an einem passenden Beispiel.")
        return kriterien
    if familie == "vergleichen":
        return ["Legt geeignete Vergleichskriterien fest.",
                "Arbeitet zutreffende Gemeinsamkeiten heraus.",
                "Arbeitet zutreffende Unterschiede heraus.",
                "Zieht ein kriteriengeleitetes Fazit."]
    urteil = ("Legt den Wertmaßstab offen und formuliert ein begründetes Werturteil."
              if operator.casefold() == "bewerten"
              else "Formuliert ein eigenes, begründetes Urteil, das aus der Abwägung folgt.")
    if o.startswith("„"):
        grundlage = f"Stellt die fachlichen Grundlagen zu {o} zutreffend dar."
    elif len(o) <= 80 and not o.startswith(","):
        grundlage = f"Stellt die fachlichen Grundlagen für das Urteil zutreffend dar (Gegenstand: {o})."
    else:
        grundlage = "Stellt die fachlichen Grundlagen für das Urteil zutreffend dar."
    return [grundlage,
            "Nennt mindestens zwei fachlich begründete Gesichtspunkte, darunter ein Gegenargument bzw. eine Grenze.",
            "Wägt die Gesichtspunkte nachvollziehbar gegeneinander ab.",
            urteil]


_ZAHLWORT = {2: "zwei", 3: "drei", 4: "vier", 5: "fünf"}
_NUMBER_WORD = {2: "two", 3: "three", 4: "four", 5: "five"}


def _generische_aufgabe(ctx: _Kontext, operator: str, begriffe: Sequence[str],
                        punkte: int) -> tuple[str, list[tuple[str, int]]]:
    """Task text and criteria (with points) for a filler on the subject's terms (no Lehrplan clause at hand).
    One term for naming, describing, explaining and judging tasks; two for relating and comparing tasks."""
    familie = _FAMILIE[operator.casefold()]
    t1 = begriffe[0]
    t2 = begriffe[1] if len(begriffe) > 1 and begriffe[1] != t1 else None
    if familie == "vergleichen" and t2 is None:
        familie = "erklaeren"
    if familie == "nennen":
        # "Nenne n Merkmale" with n points for the n aspects and the rest for the subject language
        n = max(2, min(5, punkte - 1))
        rest = punkte - n
        if ctx.englisch:
            text = f"{operator} {_NUMBER_WORD[n]} important aspects of the topic “{t1}”."
            kriterien = [(f"Nennt {_ZAHLWORT[n]} zutreffende Aspekte zum Thema „{t1}“ (je Aspekt 1 Punkt).", n)]
            schluss = "Sprachliche Leistung: verständlich und weitgehend korrekt formuliert."
        else:
            text = _aufforderung(operator, f"{_ZAHLWORT[n]} wesentliche Merkmale zum Thema „{t1}“")
            kriterien = [(f"Nennt {_ZAHLWORT[n]} zutreffende Merkmale zum Thema „{t1}“ (je Merkmal 1 Punkt).", n)]
            schluss = "Verwendet die Fachsprache korrekt."
        if rest > 0:
            kriterien.append((schluss, rest))
        return text, kriterien
    if ctx.englisch:
        sprache = "Sprachliche Leistung: verständlich, weitgehend korrekt und mit passendem Wortschatz formuliert."
        if familie == "beschreiben":
            text = f"{operator} what “{t1}” means and give an example."
            kriterien = [f"Beschreibt zutreffend, was „{t1}“ bedeutet.", "Nennt ein passendes Beispiel.", sprache]
        elif familie == "erklaeren" and t2:
            text = f"{operator} the connection between “{t1}” and “{t2}”. Give an example."
            kriterien = [f"Erklärt zutreffend, was „{t1}“ und „{t2}“ bedeuten.",
                         "Stellt den Zusammenhang schlüssig dar.",
                         "Veranschaulicht ihn an einem passenden Beispiel.", sprache]
        elif familie == "erklaeren":
            text = f"{operator} what “{t1}” means, using an example of your own."
            kriterien = [f"Erklärt zutreffend, was „{t1}“ bedeutet.", "Führt ein passendes eigenes Beispiel aus.",
                         "Stellt die Zusammenhänge schlüssig dar.", sprache]
        elif familie == "vergleichen":
            text = f"{operator} “{t1}” and “{t2}”."
            kriterien = ["Nennt zutreffende Gemeinsamkeiten.", "Nennt zutreffende Unterschiede.",
                         "Zieht ein begründetes Fazit.", sprache]
        else:
            praefix = {"comment": "Comment on", "discuss": "Discuss", "evaluate": "Evaluate", "assess": "Assess"}
            text = f"{praefix.get(operator.casefold(), operator)} the importance of “{t1}” for young people today."
            kriterien = [f"Stellt zutreffend dar, worum es bei „{t1}“ geht.",
                         "Nennt mindestens zwei begründete Argumente, auch ein Gegenargument.",
                         "Formuliert eine eigene, begründete Position.", sprache]
        return text, _verteile(kriterien, punkte)
    verb3 = {"erläutern": "Erläutert", "begründen": "Begründet"}.get(operator.casefold(), "Erklärt")
    if familie == "beschreiben":
        text = _aufforderung(operator, f", was man unter „{t1}“ versteht, und nenne ein Beispiel")
        kriterien = [f"Beschreibt „{t1}“ fachlich zutreffend (Kernaussage bzw. Definition).",
                     "Nennt ein passendes, konkretes Beispiel.",
                     "Verwendet die Fachsprache korrekt und stellt sachlich dar, ohne zu werten."]
    elif familie == "erklaeren" and t2:
        beispiel = ctx.fach_key in ("physik", "chemie", "biologie", "mathematik")
        text = _aufforderung(operator, f"den Zusammenhang zwischen „{t1}“ und „{t2}“"
                             + (" an einem Beispiel" if beispiel else ""))
        kriterien = [f"Gibt zutreffend an, was „{t1}“ bezeichnet.",
                     f"Gibt zutreffend an, was „{t2}“ bezeichnet.",
                     f"{verb3} schlüssig und fachlich korrekt, wie beide zusammenhängen.",
                     "Veranschaulicht den Zusammenhang an einem passenden Beispiel." if beispiel
                     else "Belegt die Darstellung mit zutreffenden Fakten bzw. Beispielen."]
    elif familie == "erklaeren" and t1 != ctx.thema and ctx.fach_key not in ("physik", "chemie", "biologie",
                                                                          "mathematik"):
        text = _aufforderung(operator, f", welche Rolle „{t1}“ im Zusammenhang mit dem Thema „{ctx.thema}“ spielt")
        kriterien = [f"Gibt zutreffend an, was „{t1}“ bezeichnet.",
                     f"{verb3} schlüssig, welche Rolle „{t1}“ für das Thema spielt (Ursachen, Folgen bzw. Funktion).",
                     "Belegt die Darstellung mit zutreffenden Fakten bzw. Beispielen.",
                     "Verwendet die Fachsprache korrekt."]
    elif familie == "erklaeren":
        text = _aufforderung(operator, f"„{t1}“ an einem selbst gewählten Beispiel")
        kriterien = [f"{verb3} „{t1}“ fachlich zutreffend.",
                     "Benennt die zugrunde liegende Regel, Gesetzmäßigkeit bzw. Ursache ausdrücklich.",
                     "Wählt ein passendes Beispiel und wendet die Erklärung schlüssig darauf an.",
                     "Verwendet die Fachsprache korrekt."]
    elif familie == "vergleichen":
        text = _aufforderung(operator, f"„{t1}“ und „{t2}“ miteinander")
        kriterien = ["Legt geeignete Vergleichskriterien fest.", "Arbeitet zutreffende Gemeinsamkeiten heraus.",
                     "Arbeitet zutreffende Unterschiede heraus.", "Zieht ein kriteriengeleitetes Fazit."]
    else:
        bezug = _BEZUG.get(ctx.fach_key, "im Alltag")
        text = _aufforderung(operator, f"die Bedeutung von „{t1}“ {bezug}")
        kriterien = _kriterien_klausel(ctx, operator, f"„{t1}“", [t1])
    return text, _verteile(kriterien, punkte)


@dataclass
class _Fueller:
    """A filler whose points are chosen by the search (lo..hi)."""

    key: str
    afb: str
    lo: int
    hi: int
    kosten: float
    bauen: Callable[[int], _Item]
    dehnbar: bool = True            # may carry more points when nothing else is left


def _item(key: str, operator: str, afb: str, text: str, kriterien: list[tuple[str, int]], thema: str,
          themenfeld: str, quellen: list[Quelle], order: int, art: str = "fueller") -> _Item:
    # "je Angabe 1 Punkt" criteria may carry fewer points than the aspects they count; keep the wording true.
    kriterien = [(re.sub(r"\(je (\w+) 1 Punkt\)", f"(je \\1 1 Punkt, höchstens {p})", t)
                  if p > 1 and not re.search(r"\b(zwei|drei|vier|fünf)\b", t) else
                  (re.sub(r" \(je \w+ 1 Punkt\)", "", t) if p == 1 else t), p) for t, p in kriterien]
    return _Item(key=key, operator=operator, text=text, afb=afb, kriterien=kriterien, thema=thema,
                 themenfeld=themenfeld, material=None, quellen=quellen, score=0.0, order=order, art=art)


def _fueller_item(key: str, operator: str, afb: str, text: str, kriterien: Sequence[str], punkte: int, thema: str,
                  themenfeld: str, quellen: list[Quelle], order: int, art: str = "fueller") -> _Item:
    return _item(key, operator, afb, text, _verteile(kriterien, punkte), thema, themenfeld, quellen, order, art)


def _nennt(text: str, woerter: Sequence[str]) -> bool:
    """Whether a text names one of the (wish) topics as a word, not as a substring ('Vers' is not 'verstehen')."""
    tw = _woerter(text)
    return any(_ueberlappung(_woerter(w), tw) == len(_woerter(w)) and _woerter(w) for w in woerter) or any(
        re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.IGNORECASE) for w in woerter if w.strip())


def _relevante_chunks(ctx: _Kontext) -> list[ChunkRef]:
    """Excerpts of the topic's Themenfelder; only if there are none, excerpts sharing a word with the topic."""
    im_feld = [c for c in ctx.chunks if c.themenfeld and c.themenfeld in ctx.felder]
    if im_feld:
        return im_feld
    return [c for i, c in enumerate(ctx.chunks) if _ueberlappung(ctx.thema_woerter, ctx.chunk_woerter[i])]


def _fueller(ctx: _Kontext, typisch: float, ausgeschlossen: Mapping[str, Sequence[str]],
             vermeiden: Sequence[str]) -> dict[str, list[_Fueller]]:
    """Filler tasks per AFB: Lehrplan clauses of the relevant excerpts first, then tasks on the subject's terms.
    `ausgeschlossen` maps an AFB to wish topics no other task on that AFB may name (one task per wish)."""
    hi_allgemein = int(max(6, min(16, round(typisch * 1.3))))
    ergebnis: dict[str, list[_Fueller]] = {a: [] for a in AFB_STUFEN}
    gesehen: set[str] = set()
    order = 10_000
    relevante = _relevante_chunks(ctx)

    def gesperrt(text: str, afb: str) -> bool:
        return _nennt(text, ausgeschlossen.get(afb, ())) or _zu_vermeiden(text, vermeiden)

    for chunk in relevante:
        for klausel in _klauseln(ctx, chunk):
            if len(ergebnis[klausel.afb]) >= _MAX_FILLERS_PER_AFB:
                continue
            text = _aufforderung(klausel.operator, klausel.objekt)
            if text.casefold() in gesehen or gesperrt(text, klausel.afb):
                continue
            gesehen.add(text.casefold())
            begriffe = _begriffe_im(ctx, klausel.objekt, chunk.themenfeld)
            kriterien = _kriterien_klausel(ctx, klausel.operator, klausel.objekt, begriffe)
            order += 1
            nennen = _FAMILIE[klausel.operator.casefold()] == "nennen"

            def bauen(p: int, k=klausel, t=text, kr=kriterien, o=order) -> _Item:
                return _fueller_item(f"lp:{k.chunk.ref}:{t}", k.operator, k.afb, t, kr, p,
                                     k.chunk.titel or ctx.thema, k.chunk.themenfeld or "", [_chunk_quelle(k.chunk)], o)

            ergebnis[klausel.afb].append(_Fueller(f"lp:{chunk.ref}:{text}", klausel.afb, 2, 5 if nennen else
                                                  hi_allgemein, 3.0, bauen, dehnbar=not nennen))

    # Tasks on the Themenfeld's terms: single terms go to AFB III and I in turn (topic-nearest first), term pairs
    # to AFB II; operators rotate so that the tasks differ in kind, not only in the term.
    # terms a Lehrplan task already asks about get no second, generic task ("Beschreibe den Schalenbau der Erde."
    # and "Beschreibe, was man unter „Schalenbau der Erde“ versteht" would be the same question)
    lp_texte = [f.key for fs in ergebnis.values() for f in fs]
    einzeln = [b for b in ctx.begriffe if not _zu_vermeiden(b, vermeiden)
               and not any(_erwaehnt(b, t) for t in lp_texte)] or [ctx.thema]
    vergleichbar, verwandt = ctx.begriff_paare()
    vergleichbar = [p for p in vergleichbar if not _zu_vermeiden(" ".join(p), vermeiden)]
    verwandt = [p for p in verwandt if not _zu_vermeiden(" ".join(p), vermeiden)]
    feld = ctx.felder[0] if ctx.felder else ""
    zaehler = {a: 0 for a in AFB_STUFEN}
    i_einzeln = 0
    for runde in range(4 * _MAX_FILLERS_PER_AFB):
        afb = ("III", "I", "II")[runde % 3]
        if len(ergebnis[afb]) >= _MAX_FILLERS_PER_AFB:
            continue
        n = zaehler[afb]
        zaehler[afb] += 1
        familien = _FAMILIEN_JE_AFB[afb]
        if afb == "II":
            # alternate "Zusammenhang zwischen A und B" (related pair) and "Vergleiche A und B" (comparable pair)
            halb = n // 2
            if n % 2 == 1 and halb < len(vergleichbar):
                begriffe, familien = list(vergleichbar[halb]), ("vergleichen", "erklaeren")
            elif n % 2 == 0 and halb < len(verwandt):
                begriffe, familien = list(verwandt[halb]), ("erklaeren",)
            else:
                begriffe, familien = [einzeln[i_einzeln % len(einzeln)]], ("erklaeren",)
                i_einzeln += 1
        else:
            begriffe = [einzeln[i_einzeln % len(einzeln)]]
            i_einzeln += 1
        ops = ctx.operatoren_fuer(afb, familien)
        if not ops:
            continue
        if afb == "I":  # alternate describing and naming tasks
            bevorzugt = familien[n % len(familien)]
            operator = next((o for o in ops if _FAMILIE[o.casefold()] == bevorzugt), ops[0])
        elif afb == "II":
            erklaeren = [o for o in ops if o.casefold() in ("erklären", "erläutern", "explain")] or ops
            operator = ops[0] if familien[0] == "vergleichen" else erklaeren[(n // 2) % len(erklaeren)]
        else:
            operator = ops[n % len(ops)]
        probe, _ = _generische_aufgabe(ctx, operator, begriffe, 4)
        if probe.casefold() in gesehen or gesperrt(probe, afb):
            continue
        gesehen.add(probe.casefold())
        order += 1
        chunk = ctx.bester_chunk(" ".join(begriffe) + " " + ctx.thema, feld)
        quellen = [Quelle(art="eigene", ref="eigene Formulierung",
                          titel=_kuerzen(f"Aus dem Fachprofil {ctx.fach} abgeleitet: {feld or ctx.thema}", 200))]
        if chunk:
            quellen.append(_chunk_quelle(chunk))
        nennen = _FAMILIE[operator.casefold()] == "nennen"
        thema = begriffe[0] if len(begriffe) == 1 else f"{begriffe[0]} und {begriffe[1]}"

        def bauen(p: int, op=operator, b=begriffe, q=quellen, o=order, a=afb, th=thema) -> _Item:
            text, kriterien = _generische_aufgabe(ctx, op, b, p)
            return _item(f"begriff:{text}", op, a, text, kriterien, th, feld, list(q), o)

        ergebnis[afb].append(_Fueller(f"begriff:{probe}", afb, 3 if nennen else 2, 6 if nennen else hi_allgemein,
                                      5.0, bauen, dehnbar=not nennen))
    return ergebnis


# --- wishes --------------------------------------------------------------------------------------------------------


def _wunsch_item(ctx: _Kontext, wunsch_thema: str, afb: str, gps: Sequence[_GP], scale: int, max_punkte: int,
                 soll_punkte: int, order: int) -> _Item:
    """The Teilaufgabe that fulfils one AFB wish (see the module docstring for the order of strategies)."""
    passend = [g for g in gps if g.afb == afb and g.kriterien and sum(p for _, p in g.kriterien) * scale <= max_punkte
               and _operator_ok(ctx, g.operator, afb)]
    # 1. a task that already is about the topic at that AFB
    for g in passend:
        if _erwaehnt(wunsch_thema, g.text) or _erwaehnt(wunsch_thema, g.thema):
            item = _gp_item(ctx, g, scale, score=5.0)
            item.wunsch = True
            return item
    # 2. a task on that AFB from the topic's Themenfeld, extended by a part on the topic
    felder = ctx.felder_von(wunsch_thema)
    anker = [g for g in passend if g.themenfeld in felder
             and sum(p for _, p in g.kriterien) * scale + scale <= max_punkte]
    if anker:
        wunsch_woerter = _woerter(" ".join(b for f in felder for b in ctx.themenfeld_begriffe(f)) + " " + wunsch_thema)
        g = sorted(anker, key=lambda x: (-_ueberlappung(_woerter(x.volltext + x.kontext), wunsch_woerter), x.rank))[0]
        item = _gp_item(ctx, g, scale, score=5.0)
        familie = _FAMILIE.get(g.operator.casefold(), "")
        if ctx.englisch:
            satz = f"Refer to “{wunsch_thema}” in your answer."
        else:
            satz = f"Beziehe dabei dein Wissen zum Thema „{wunsch_thema}“ ein."
        wozu = {"urteilen": "für die Beurteilung", "erklaeren": "für die Erklärung"}.get(familie, "in der Antwort")
        item.text = f"{g.text.rstrip()} {satz}"
        item.kriterien = [*item.kriterien,
                          (f"Stellt einen fachlich richtigen Bezug zum Thema „{wunsch_thema}“ her und nutzt ihn "
                           f"{wozu}.", scale)]
        item.quellen[0] = Quelle(art="good_practice", ref=g.cand.ref,
                                 titel=_kuerzen(f"{g.cand.titel or g.thema} (erweitert um „{wunsch_thema}“)", 200))
        item.art = "anker"
        item.wunsch = True
        return item
    # 3. a new task at that AFB: from a Lehrplan clause on the topic, else on the topic itself
    return _abgeleitetes_wunsch_item(ctx, wunsch_thema, afb, gps, min(max_punkte, soll_punkte), order)


def _abgeleitetes_wunsch_item(ctx: _Kontext, wunsch_thema: str, afb: str, gps: Sequence[_GP], punkte: int,
                              order: int) -> _Item:
    familien = _FAMILIEN_JE_AFB[afb]
    operator = ctx.operator_fuer(afb, familien)
    if operator is None:  # an operator list without any usable verb on this AFB: lift one from the level below
        tiefer = {"III": "II", "II": "I"}.get(afb)
        operator = ctx.operator_fuer(tiefer, _FAMILIEN_JE_AFB[tiefer]) if tiefer else None
    if operator is None:
        operator = next((n for n, lv in ctx.operators.items() if lv == afb), _DEFAULT_OPERATOREN[afb][0])
    punkte = max(3, min(punkte, 4 + 2 * _RANG[afb]))
    quellen: list[Quelle] = []
    text = ""
    kriterien: list[tuple[str, int]] = []
    thema = wunsch_thema
    themenfeld = (ctx.felder_von(wunsch_thema) or [""])[0]
    for i, chunk in enumerate(ctx.chunks):
        if not (_erwaehnt(wunsch_thema, f"{chunk.titel} {chunk.text}")
                or _ueberlappung(_woerter(wunsch_thema), ctx.chunk_woerter[i])):
            continue
        for klausel in _klauseln(ctx, chunk):
            if klausel.afb != afb or not _operator_ok(ctx, klausel.operator, afb):
                continue
            text = _aufforderung(klausel.operator, klausel.objekt)
            operator = klausel.operator
            texte = _kriterien_klausel(ctx, operator, klausel.objekt,
                                       _begriffe_im(ctx, klausel.objekt, chunk.themenfeld))
            if not _erwaehnt(wunsch_thema, text):
                text += (f" Refer to “{wunsch_thema}” in your answer." if ctx.englisch
                         else f" Beziehe dabei dein Wissen zum Thema „{wunsch_thema}“ ein.")
                texte.insert(1, f"Stellt einen fachlich richtigen Bezug zum Thema „{wunsch_thema}“ her.")
            kriterien = _verteile(texte, punkte)
            quellen.append(_chunk_quelle(chunk))
            thema = chunk.titel or wunsch_thema
            themenfeld = chunk.themenfeld or themenfeld
            break
        if text:
            break
    if not text:
        text, kriterien = _generische_aufgabe(ctx, operator, [wunsch_thema], punkte)
        chunk = ctx.bester_chunk(wunsch_thema, themenfeld)
        quellen.append(Quelle(art="eigene", ref="eigene Formulierung",
                              titel=f"Auf Wunsch der Lehrkraft: Aufgabe zu „{wunsch_thema}“ auf AFB {afb}"))
        if chunk:
            quellen.append(_chunk_quelle(chunk))
    # A good practice on the topic (at another AFB) supplies the subject knowledge the topic criterion points to.
    basis = next((g for g in gps if _erwaehnt(wunsch_thema, g.volltext)), None)
    if basis is not None:
        bezug = next((i for i, (t, _) in enumerate(kriterien) if t.startswith("Stellt einen fachlich richtigen")),
                     None)
        if bezug is not None:
            inhaltlich = [t for t, _ in basis.kriterien if not re.match(r"^[^:]{1,30}:", t)] or \
                [t.split(":", 1)[1].strip() for t, _ in basis.kriterien]
            beispiel = max(inhaltlich, key=len).rstrip(".")
            text_b, p_b = kriterien[bezug]
            kriterien[bezug] = (f"{text_b.rstrip('.')}, z. B.: {_kuerzen(beispiel, 140)}.", p_b)
        quellen.append(Quelle(art="good_practice", ref=basis.cand.ref,
                              titel=_kuerzen(f"{basis.cand.titel or basis.thema} (fachliche Grundlage, "
                                             f"umgearbeitet zu AFB {afb})", 200)))
    item = _item(f"wunsch:{wunsch_thema}:{afb}", operator, afb, text, kriterien, thema, themenfeld, quellen, order,
                 art="abgeleitet")
    item.wunsch = True
    item.score = 5.0
    return item


# --- the search ----------------------------------------------------------------------------------------------------


def _gp_item(ctx: _Kontext, gp: _GP, scale: int, score: float) -> _Item:
    kriterien = [(t, p * scale) for t, p in gp.kriterien]
    return _Item(key=f"gp:{gp.cand.ref}", operator=gp.operator, text=gp.text, afb=gp.afb, kriterien=kriterien,
                 thema=gp.thema, themenfeld=gp.themenfeld, material=gp.material, quellen=_gp_quellen(ctx, gp),
                 score=score, order=gp.rank, art="gp",
                 rechnung=_ist_rechnung(gp.operator, [t for t, _ in gp.kriterien]))


def _strafe(abweichung: float, budget: int) -> float:
    prozent = 100.0 * abweichung / max(1, budget)
    return prozent * prozent / 4.0


def _waehle(items: Sequence[_Item], fueller: Sequence[_Fueller], ziel: float, budget: int, strenge: float = 1.0,
            ) -> tuple[list[_Item], list[tuple[_Fueller, int]]]:
    """Knapsack on one AFB: the subset of items plus fillers whose points come closest to `ziel`, best score.

    Cost = (deviation in percent of the budget)² / 4 · strenge + filler costs − 2 · sum of item scores. A good
    practice (score about 1.3-2) is worth a deviation of about 4-5 % of the budget; Lehrplan fillers (cost 3) come
    before term fillers (cost 5). So: real good practices first, then the Lehrplan, then the subject's terms."""
    hi_max = max((f.hi for f in fueller), default=0)
    cap = int(math.ceil(ziel)) + max(hi_max, 8)
    best: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
    for idx, item in enumerate(items):
        for summe, (wert, auswahl) in list(best.items()):
            neu = summe + item.punkte
            if neu > cap:
                continue
            neuer_wert = wert + _GP_GEWICHT * item.score
            bisher = best.get(neu)
            if bisher is None or neuer_wert > bisher[0] + 1e-9:
                best[neu] = (neuer_wert, (*auswahl, idx))
    kosten_kumuliert = [0.0]
    for f in fueller:
        kosten_kumuliert.append(kosten_kumuliert[-1] + f.kosten)
    bestes: tuple[float, int, int, int] | None = None  # (cost, summe, n_fueller, erreicht)
    for summe in sorted(best):
        wert = best[summe][0]
        for n in range(len(fueller) + 1):
            lo = summe + sum(f.lo for f in fueller[:n])
            hi = summe + sum(f.hi for f in fueller[:n])
            erreicht = min(max(round(ziel), lo), hi) if n else summe
            kosten = strenge * _strafe(abs(erreicht - ziel), budget) + kosten_kumuliert[n] - wert
            if bestes is None or kosten < bestes[0] - 1e-9:
                bestes = (kosten, summe, n, erreicht)
    assert bestes is not None
    _, summe, n, erreicht = bestes
    gewaehlt = [items[i] for i in best[summe][1]]
    rest = erreicht - summe
    punkte = [f.lo for f in fueller[:n]]
    rest -= sum(punkte)
    i = 0
    while rest > 0 and n:
        if punkte[i % n] < fueller[i % n].hi:
            punkte[i % n] += 1
            rest -= 1
        i += 1
    return gewaehlt, list(zip(fueller[:n], punkte, strict=True))


# --- grouping into Aufgaben ----------------------------------------------------------------------------------------


def _gruppieren(items: list[_Item], anzahl: int) -> list[list[_Item]]:
    """Agglomerative clustering of Teilaufgaben into `anzahl` Aufgaben (Themenfeld and wording, balanced sizes)."""
    cluster = [[it] for it in items]
    woerter = {id(it): _woerter(f"{it.thema} {it.themenfeld}") for it in items}
    while len(cluster) > max(1, anzahl):
        best: tuple[float, int, int] | None = None
        for i in range(len(cluster)):
            for j in range(i + 1, len(cluster)):
                a, b = cluster[i], cluster[j]
                sim = sum(_jaccard(woerter[id(x)], woerter[id(y)]) for x in a for y in b) / (len(a) * len(b))
                if {x.themenfeld for x in a} & {y.themenfeld for y in b}:
                    sim += 0.8
                sim -= 0.12 * (len(a) + len(b))
                if best is None or sim > best[0] + 1e-9:
                    best = (sim, i, j)
        assert best is not None
        _, i, j = best
        cluster[i] = cluster[i] + cluster[j]
        del cluster[j]
    for c in cluster:
        c.sort(key=lambda it: (_RANG[it.afb], it.order))
    cluster.sort(key=lambda c: (sum(_RANG[it.afb] * it.punkte for it in c) / max(1, sum(it.punkte for it in c)),
                                min(it.order for it in c)))
    return cluster


def _gruppentitel(gruppe: Sequence[_Item]) -> str:
    """The most central topic of the group; good practices name it better than fillers."""
    echte = [it for it in gruppe if it.art in ("gp", "anker")]
    mit_material = [it for it in echte if it.material]
    if mit_material:  # the Aufgabe is named after the task its material belongs to
        gruppe = mit_material
    elif echte:
        gruppe = echte
    themen: list[str] = []
    for it in gruppe:
        if it.thema and it.thema not in themen:
            themen.append(it.thema)
    if not themen:
        return "Aufgabe"
    if len(themen) == 1:
        return _kuerzen(themen[0], 70)
    woerter = {t: _woerter(t) for t in themen}

    def zentral(t: str) -> tuple[float, int]:
        abdeckung = sum(_jaccard(woerter[t], woerter[u]) for u in themen if u != t)
        punkte = sum(it.punkte for it in gruppe if it.thema == t)
        return (abdeckung, punkte)

    return _kuerzen(max(themen, key=zentral), 70)


# --- build_klausur -------------------------------------------------------------------------------------------------


def _afb_ziel(afb_ziel: Mapping[str, int] | None, request: MaterialRequest, preferences: Mapping,
              profile: Mapping) -> dict[str, int]:
    for quelle in (afb_ziel, request.afb_ziel, preferences.get("afb_ziel"), profile.get("typische_verteilung")):
        if isinstance(quelle, Mapping) and quelle and sum(int(v) for v in quelle.values()) == 100:
            return {a: int(quelle.get(a, 0)) for a in AFB_STUFEN}
    return dict(_DEFAULT_ZIEL)


def _niveau(klassenstufe: int, zusatz: str) -> str:
    if klassenstufe <= 10:
        return "Sek I"
    if re.search(r"\beA\b|\bLK\b|erhöhte[nms]? (Anforderungs)?[Nn]iveau|Leistungskurs", zusatz or ""):
        return "eA"
    return "gA"


def _hilfsmittel(ctx: _Kontext, preferences: Mapping, rechnung: bool) -> list[str]:
    pref = preferences.get("hilfsmittel")
    if isinstance(pref, str) and pref.strip():
        return [p.strip() for p in re.split(r"[,;]", pref) if p.strip()]
    if isinstance(pref, list | tuple):
        return [str(p).strip() for p in pref if str(p).strip()]
    oberstufe = ctx.klassenstufe >= 11
    tabelle = {
        "physik": ["Taschenrechner", "Formelsammlung"] if rechnung else [],
        "chemie": ["Periodensystem der Elemente"] + (["Taschenrechner"] if rechnung else []),
        "mathematik": (["Taschenrechner"] + (["Formelsammlung"] if oberstufe else [])) if rechnung else [],
        "geographie": ["Atlas"],
        "englisch": ["Einsprachiges Wörterbuch"] if oberstufe else [],
        "deutsch": ["Rechtschreibwörterbuch"] if oberstufe else [],
    }
    return tabelle.get(ctx.fach_key, ["Taschenrechner"] if rechnung else [])


def _hinweise(ctx: _Kontext, items: Sequence[_Item], gesamt: int) -> list[str]:
    besonderheiten = " ".join(ctx.profile.get("besonderheiten") or []).casefold()
    rechnung = any(it.rechnung for it in items)
    hinweise = [f"Bearbeitungszeit: {ctx.request.dauer_minuten or 0} Minuten; insgesamt sind {gesamt} Punkte "
                f"erreichbar."]
    if ctx.englisch:
        hinweise.append("Bearbeite die Aufgaben auf Englisch.")
    hinweise.append("Achte auf die Operatoren: Sie geben an, was in deiner Antwort erwartet wird.")
    if rechnung:
        if "einheit" in besonderheiten:
            hinweise.append("Einheiten angeben: Notiere bei Rechnungen zuerst die Formel allgemein, setze dann mit "
                            "Einheiten ein und gib das Ergebnis mit Einheit an.")
        else:
            hinweise.append("Gib bei Rechnungen den vollständigen Rechenweg an.")
        if "antwortsatz" in besonderheiten:
            hinweise.append("Formuliere bei Sachaufgaben einen Antwortsatz.")
    if any(it.material for it in items) and ("zeilen" in besonderheiten or "belegt" in besonderheiten
                                              or "textbeleg" in besonderheiten):
        hinweise.append("Belege deine Aussagen am Material (mit Zeilen- bzw. Versangaben).")
    return hinweise


def _scale(budget: int, dauer: int, pool: Sequence[_GP]) -> int:
    """Factor on the good practices' criterion points, so that long exams do not need 30 Teilaufgaben.
    Short exams keep the seeded points: there a few small tasks are right, not a few inflated ones."""
    if dauer < 90:
        return 1
    soll_anzahl = max(3, min(15, round(dauer / 6)))
    typisch = budget / soll_anzahl
    mittel = median([sum(p for _, p in g.kriterien) for g in pool]) if pool else 5.0
    return int(max(1, min(3, round(typisch / max(1.0, mittel)))))


def build_klausur(*, request: MaterialRequest, candidates: list[Candidate], chunks: list[ChunkRef], profile: dict,
                  operators: dict[str, str], preferences: dict, afb_ziel: dict[str, int]) -> Klausur:
    """Assemble a valid exam from ranked good practices and curriculum excerpts (deterministic, no I/O).

    The result passes validate_klausur(k, afb_ziel=afb_ziel, operatoren=operators,
    afb_wuensche=request.afb_wuensche) with the default tolerance and points-per-minute range.
    """
    profile = profile or {}
    preferences = preferences or {}
    ziel = _afb_ziel(afb_ziel, request, preferences, profile)
    ctx = _kontext(request, profile, operators, chunks, candidates)
    dauer = request.dauer_minuten or (90 if ctx.klassenstufe >= 11 else 45)
    if request.dauer_minuten != dauer:
        ctx.request = request.model_copy(update={"dauer_minuten": dauer})
    budget = points_budget(dauer, preferences)
    budget = int(min(max(budget, math.ceil(_RATE_MIN * dauer)), math.floor(_RATE_MAX * dauer)))
    budget = max(budget, 3)
    wuensche = list(request.afb_wuensche)
    k = _suche(ctx, candidates, ziel, budget, dauer, preferences, wuensche, mit_gp=True)
    fehler = validate_klausur(k, afb_ziel=ziel, operatoren=ctx.operators, afb_wuensche=wuensche)
    if fehler:
        # Never hand out an invalid exam: rebuild from flexible, Lehrplan-derived tasks only.
        k = _suche(ctx, candidates, ziel, budget, dauer, preferences, wuensche, mit_gp=False)
    return k


def _suche(ctx: _Kontext, candidates: Sequence[Candidate], ziel: Mapping[str, int], budget: int, dauer: int,
           preferences: Mapping, wuensche: Sequence, *, mit_gp: bool) -> Klausur:
    vermeiden = _vermeiden_liste(preferences)
    rechnung_soll = _rechnung_anteil(preferences)

    # 1. parse and filter the good practices
    gps: list[_GP] = []
    gesehen: dict[str, int] = {}

    def vorrang(c: Candidate) -> float:
        return _SCOPE_BONUS.get(c.scope_type, 0.0) + 0.6 * max(0.0, min(1.0, c.quality))

    for rank, cand in enumerate(candidates):
        gp = _parse_gp(cand, rank)
        if gp is None:
            continue
        norm = " ".join(gp.text.split()).casefold()
        if norm in gesehen:  # the same task twice (teacher copy of a global one): keep the teacher's / better one
            i = gesehen[norm]
            if i >= 0 and vorrang(cand) > vorrang(gps[i].cand):
                gps[i] = _GP(**{**gps[i].__dict__, "cand": cand})
            continue
        gesehen[norm] = -1
        if gp.klassenstufe is not None and gp.klassenstufe > ctx.klassenstufe + 1:
            continue
        if not _operator_ok(ctx, gp.operator, gp.afb):
            continue
        if _zu_vermeiden(f"{gp.volltext} {gp.operator} {gp.kontext} {gp.material or ''}", vermeiden):
            continue
        gesehen[norm] = len(gps)
        gps.append(gp)
    if not mit_gp:
        gps_pool: list[_GP] = []
    else:
        gps_pool = gps

    def relevanz(gp: _GP) -> int:
        """2 = names the topic, 1 = from the topic's Themenfeld, 0 = off topic. With a known Themenfeld a single
        shared word ('Funktionen') does not make a task on linear functions part of an exam on quadratic ones."""
        im_feld = gp.themenfeld in ctx.felder
        if _erwaehnt(ctx.thema, gp.volltext) or (im_feld and _ueberlappung(ctx.thema_woerter, _woerter(gp.volltext))):
            return 2
        if im_feld:
            return 1
        if not ctx.felder and _ueberlappung(ctx.thema_woerter, _woerter(gp.volltext)):
            return 2
        return 0

    relevant = [g for g in gps_pool if relevanz(g) > 0]
    if not relevant and not ctx.felder:
        relevant = gps_pool[:12]

    # 2. wishes first
    pool_fuer_skala = relevant or gps_pool
    scale = _scale(budget, dauer, pool_fuer_skala)
    soll_anzahl = max(3, min(15, round(dauer / 6)))
    typisch = budget / soll_anzahl
    budget_max = math.floor(_RATE_MAX * dauer)
    wunsch_items: list[_Item] = []
    for n, wunsch in enumerate(wuensche):
        gleiche = sum(1 for w in wuensche if w.afb == wunsch.afb)
        max_punkte = max(3, math.floor((ziel.get(wunsch.afb, 0) + 8) / 100 * budget / gleiche))
        # a task written for the wish takes about half of its AFB's points, so good practices can carry the rest
        soll_punkte = max(3, round(ziel.get(wunsch.afb, 0) / 100 * budget / (gleiche + 1)))
        item = _wunsch_item(ctx, wunsch.thema, wunsch.afb, gps_pool, scale, max_punkte, soll_punkte,
                            order=-100 + n)
        if any(it.key == item.key for it in wunsch_items):
            item.key += f":{n}"
        wunsch_items.append(item)
    wunsch_keys = {it.key for it in wunsch_items}

    # If wishes alone exceed their AFB's share by more than 5 points, grow the budget (within the allowed rate).
    for afb in AFB_STUFEN:
        wunsch_punkte = sum(it.punkte for it in wunsch_items if it.afb == afb)
        if wunsch_punkte:
            noetig = math.ceil(wunsch_punkte * 100 / (ziel.get(afb, 0) + 5))
            budget = max(budget, min(budget_max, noetig))

    # 3. scored candidate items per AFB
    ausgeschlossen = {a: [w.thema for w in wuensche if w.afb == a] for a in AFB_STUFEN}
    items_je_afb: dict[str, list[_Item]] = {a: [] for a in AFB_STUFEN}
    for gp in relevant:
        key = f"gp:{gp.cand.ref}"
        if key in wunsch_keys:
            continue
        if _nennt(gp.text, ausgeschlossen[gp.afb]):
            continue  # exactly one Teilaufgabe per wish
        score = 1.0 + 0.6 * max(0.0, min(1.0, gp.cand.quality)) + _SCOPE_BONUS.get(gp.cand.scope_type, 0.0)
        score -= 0.03 * gp.rank
        if gp.klassenstufe is not None:
            score -= 0.15 * max(0, abs(gp.klassenstufe - ctx.klassenstufe) - 1)
        if relevanz(gp) == 2:
            score += 0.4
        item = _gp_item(ctx, gp, scale, score=0.0)
        if rechnung_soll is not None:
            score += (0.8 if item.rechnung else -0.8) * (rechnung_soll - 0.5)
        item.score = max(0.1, score)
        items_je_afb[gp.afb].append(item)
    for afb in AFB_STUFEN:
        items_je_afb[afb] = sorted(items_je_afb[afb], key=lambda it: (-it.score, it.order))[:_MAX_ITEMS_PER_AFB]

    fueller = _fueller(ctx, typisch, ausgeschlossen, vermeiden)

    # 4. knapsack per AFB on what is left after the wishes; if the AFBs all fall short (or over) in the same
    #    direction and the total misses the budget by more than 8 %, search again with a stricter deviation cost.
    soll_je_afb = {a: budget * ziel.get(a, 0) / 100 - sum(it.punkte for it in wunsch_items if it.afb == a)
                   for a in AFB_STUFEN}
    for afb in AFB_STUFEN:
        dehnbar = [f for f in fueller[afb] if f.dehnbar]
        kapazitaet = sum(f.hi for f in fueller[afb])
        if dehnbar and kapazitaet < soll_je_afb[afb]:
            # few fillers for a large target (no candidates, a long exam): let them carry more points
            extra = math.ceil((soll_je_afb[afb] - kapazitaet) / len(dehnbar))
            for f in dehnbar:
                f.hi += extra
    gewaehlt: list[_Item] = []
    for strenge in (1.0, 4.0, 16.0):
        gewaehlt = list(wunsch_items)
        for afb in AFB_STUFEN:
            if soll_je_afb[afb] <= 0.5:
                continue
            auswahl, fuell = _waehle(items_je_afb[afb], fueller[afb], soll_je_afb[afb], budget, strenge)
            gewaehlt += auswahl
            gewaehlt += [f.bauen(p) for f, p in fuell]
        if abs(sum(it.punkte for it in gewaehlt) - budget) <= 0.08 * budget:
            break
    if not gewaehlt:
        # afb_ziel all on one level with a tiny budget, or nothing usable: one task from the Lehrplan or the terms
        afb = max(AFB_STUFEN, key=lambda a: ziel.get(a, 0))
        if fueller[afb]:
            gewaehlt.append(fueller[afb][0].bauen(max(fueller[afb][0].lo, min(fueller[afb][0].hi, budget))))

    # 5. Aufgaben
    anzahl_pref = preferences.get("aufgaben_anzahl")
    teil_pref = preferences.get("teilaufgaben")
    if isinstance(anzahl_pref, int) and not isinstance(anzahl_pref, bool) and anzahl_pref >= 1:
        anzahl = anzahl_pref
    elif isinstance(teil_pref, int) and not isinstance(teil_pref, bool) and teil_pref >= 1:
        anzahl = math.ceil(len(gewaehlt) / teil_pref)
    else:
        anzahl = max(2, min(6, round(len(gewaehlt) / 2.5)))
    anzahl = max(1, min(anzahl, len(gewaehlt)))
    gruppen = _gruppieren(gewaehlt, anzahl)
    aufgaben = []
    for nummer, gruppe in enumerate(gruppen, start=1):
        teile = []
        materialien: list[tuple[str, str]] = []
        for i, it in enumerate(gruppe):
            label = _label(i)
            teile.append(Teilaufgabe(
                label=label, operator=it.operator, text=it.text, afb=it.afb, punkte=it.punkte,
                erwartung=[Kriterium(text=t, punkte=p) for t, p in it.kriterien], quellen=it.quellen,
            ))
            if it.material and all(it.material != m for _, m in materialien):
                materialien.append((label, it.material))
        if len(materialien) == 1:
            material = materialien[0][1]
        elif materialien:
            material = "\n\n".join(f"Material zu {label}): {m}" for label, m in materialien)
        else:
            material = None
        aufgaben.append(Aufgabe(nummer=nummer, titel=_gruppentitel(gruppe), material=material, teilaufgaben=teile))
    gesamt = sum(it.punkte for it in gewaehlt)
    art = "Klausur" if ctx.klassenstufe >= 11 else "Klassenarbeit"
    return Klausur(
        titel=f"{art} {ctx.fach} · {ctx.thema}",
        fach=ctx.fach,
        klassenstufe=ctx.klassenstufe,
        klasse=ctx.request.klasse,
        thema=ctx.thema,
        dauer_minuten=dauer,
        niveau=_niveau(ctx.klassenstufe, ctx.request.zusatz),
        hilfsmittel=_hilfsmittel(ctx, preferences, any(it.rechnung for it in gewaehlt)),
        hinweise=_hinweise(ctx, gewaehlt, gesamt),
        aufgaben=aufgaben,
    )


def _label(i: int) -> str:
    buchstaben = "abcdefghijklmnopqrstuvwxyz"
    return buchstaben[i] if i < 26 else buchstaben[i // 26 - 1] + buchstaben[i % 26]


# --- build_differenzierung -----------------------------------------------------------------------------------------


_OPERATOR_TIPPS = {
    "nennen": "„Nennen“ heißt: aufzählen, ohne zu erklären. Kurze Stichpunkte genügen.",
    "angeben": "„Angeben“ heißt: knapp aufführen, ohne Begründung.",
    "beschreiben": "„Beschreiben“ heißt: Schritt für Schritt in eigenen Worten wiedergeben, noch ohne zu erklären.",
    "berechnen": "Schreibe zuerst die passende Formel allgemein auf, setze dann die Werte mit Einheiten ein.",
    "bestimmen": "Schreibe zuerst auf, welche Größen gegeben und welche gesucht sind, und wähle dann den Ansatz.",
    "ermitteln": "Schreibe zuerst auf, welche Größen gegeben und welche gesucht sind, und wähle dann den Ansatz.",
    "erklären": "„Erklären“ heißt: auf ein Gesetz, eine Regel oder eine Ursache zurückführen – nenne sie ausdrücklich.",
    "erläutern": "„Erläutern“ heißt: erklären und an einem Beispiel veranschaulichen.",
    "vergleichen": "Lege zuerst fest, worin du vergleichst; suche dann Gemeinsamkeiten und Unterschiede.",
    "beurteilen": "Sammle zuerst Gesichtspunkte dafür und dagegen; entscheide dich erst am Ende begründet.",
    "bewerten": "Überlege, an welchem Maßstab du misst, und begründe dein Urteil damit.",
    "auswerten": "Lies die Werte genau ab und beschreibe zuerst den Verlauf, bevor du eine Aussage ableitest.",
}


def _hilfekarten(text: str, operator: str, kriterien: Sequence[tuple[str, int]], rechnung: bool) -> list[str]:
    """Hint cards that scaffold without giving the answer: what the operator asks, how many aspects, which parts."""
    karten = []
    tipp = _OPERATOR_TIPPS.get(operator.casefold())
    if rechnung and operator.casefold() not in ("berechnen", "bestimmen", "ermitteln"):
        tipp = _OPERATOR_TIPPS["berechnen"]
    karten.append(tipp or f"Lies die Aufgabe genau: Was verlangt der Operator „{operator}“ von dir?")
    teile = []
    for t, _ in kriterien:
        kopf, sep, _rest = t.partition(":")
        if sep and 2 <= len(kopf) <= 30 and len(kopf.split()) <= 3 and not re.search(r"\d|=", kopf) \
                and kopf[:1].isupper() and kopf not in teile:
            teile.append(kopf.strip())
    if teile:
        karten.append(f"Deine Antwort sollte {len(kriterien)} Gesichtspunkte enthalten; gehe dabei auf "
                      f"{', '.join(teile[:-1]) + ' und ' + teile[-1] if len(teile) > 1 else teile[0]} ein.")
    else:
        karten.append(f"Deine Antwort sollte {len(kriterien)} Gesichtspunkte enthalten. Markiere zuerst in der "
                      f"Aufgabe alle Angaben, die du brauchst.")
    return karten


def build_differenzierung(*, request: MaterialRequest, diff_candidates: list[Candidate],
                          task_candidates: list[Candidate], chunks: list[ChunkRef],
                          profile: dict) -> DifferenziertesMaterial:
    """A worksheet on one Lernziel on three Niveaus: a matching good practice if there is one, else built from
    AFB I/II/III tasks (solutions = their Erwartungshorizont) and Lehrplan-derived tasks where a level is empty."""
    profile = profile or {}
    ops = {o: a for a, names in (profile.get("afb_operatoren") or {}).items() for o in names}
    ctx = _kontext(request, profile, ops, chunks, [*diff_candidates, *task_candidates])
    titel = f"Arbeitsblatt {ctx.fach} · {ctx.thema} (differenziert)"

    # 1. a differentiated good practice on the topic
    bester: tuple[int, int, Candidate] | None = None
    for rank, cand in enumerate(diff_candidates):
        c = cand.content if isinstance(cand.content, dict) else {}
        niveaus = _diff_niveaus(c)
        if niveaus is None:
            continue
        kl = c.get("klassenstufe")
        if isinstance(kl, int) and kl > ctx.klassenstufe + 1:
            continue
        text = f"{cand.thema or ''} {c.get('lernziel', '')} {cand.titel}"
        # names the topic (best), or at least from the topic's Themenfeld
        treffer = 2 if _ueberlappung(ctx.thema_woerter, _woerter(text)) else (
            1 if c.get("themenfeld") and c.get("themenfeld") in ctx.felder else 0)
        if not treffer:
            continue
        if bester is None or treffer > bester[0]:
            bester = (treffer, rank, cand)
    if bester is not None:
        cand = bester[2]
        c = cand.content
        niveaus = _diff_niveaus(c)
        assert niveaus is not None
        quellen = [Quelle(art="good_practice", ref=cand.ref, titel=_kuerzen(cand.titel or cand.thema or "", 200)
                          or "Differenzierte Aufgabe")]
        chunk = ctx.bester_chunk(f"{cand.thema} {c.get('lernziel', '')}", c.get("themenfeld"))
        if chunk:
            quellen.append(_chunk_quelle(chunk))
        return DifferenziertesMaterial(titel=titel, fach=ctx.fach, klassenstufe=ctx.klassenstufe, thema=ctx.thema,
                                       lernziel=str(c.get("lernziel")).strip(), niveaus=niveaus, quellen=quellen)

    # 2. constructed from tasks: grundlegend = AFB I, mittel = AFB II, erweitert = AFB III
    gps = []
    for rank, cand in enumerate(task_candidates):
        gp = _parse_gp(cand, rank)
        if gp is None or (gp.klassenstufe is not None and gp.klassenstufe > ctx.klassenstufe + 1):
            continue
        treffer = _ueberlappung(ctx.thema_woerter, _woerter(gp.volltext))
        if treffer or gp.themenfeld in ctx.felder:
            gps.append((0 if treffer else 1, rank, gp))
    gps.sort(key=lambda x: (x[0], x[1]))
    fueller = _fueller(ctx, 5.0, {}, ())
    quellen: list[Quelle] = []
    niveaus = []
    for name, afb in zip(NIVEAU_NAMEN, AFB_STUFEN, strict=True):
        aufgaben: list[str] = []
        loesungen: list[str] = []
        karten: list[str] = []
        for _, _, gp in [x for x in gps if x[2].afb == afb][:3]:
            aufgaben.append(gp.text + (f"\nMaterial: {gp.material}" if gp.material else ""))
            loesungen.append(" ".join(f"{t}" for t, _ in gp.kriterien))
            rechnung = _ist_rechnung(gp.operator, [t for t, _ in gp.kriterien])
            karten += [k for k in _hilfekarten(gp.text, gp.operator, gp.kriterien, rechnung) if k not in karten]
            for q in _gp_quellen(ctx, gp):
                if all((q.art, q.ref) != (x.art, x.ref) for x in quellen):
                    quellen.append(q)
        for f in fueller[afb]:
            if len(aufgaben) >= 2:
                break
            item = f.bauen(max(f.lo, 3))
            aufgaben.append(item.text)
            loesungen.append("Erwartet: " + " ".join(t for t, _ in item.kriterien))
            karten += [k for k in _hilfekarten(item.text, item.operator, item.kriterien, False) if k not in karten]
            for q in item.quellen:
                if all((q.art, q.ref) != (x.art, x.ref) for x in quellen):
                    quellen.append(q)
        if not aufgaben:
            aufgaben = [f"Fasse in eigenen Worten zusammen, was du zum Thema „{ctx.thema}“ gelernt hast."]
            loesungen = [f"Zutreffende, fachlich korrekte Zusammenfassung zentraler Inhalte zu „{ctx.thema}“."]
        niveaus.append(Niveau(name=name, aufgaben=aufgaben, hilfekarten=karten[:4] or [
            "Lies die Aufgabe zweimal und unterstreiche den Operator."], loesungen=loesungen))
    chunk = ctx.bester_chunk(ctx.thema, ctx.felder[0] if ctx.felder else None)
    lernziel = ""
    if chunk:
        lernziel = (_saetze(chunk.text) or [""])[0]
        if all((q.art, q.ref) != ("curriculum", chunk.ref) for q in quellen):
            quellen.append(_chunk_quelle(chunk))
    if not lernziel or len(lernziel) > 300:
        lernziel = (f"Die Schülerinnen und Schüler wenden ihr Wissen zum Thema „{ctx.thema}“ auf Aufgaben "
                    f"steigender Anforderung an – vom Wiedergeben über das Anwenden bis zum Beurteilen.")
    return DifferenziertesMaterial(titel=titel, fach=ctx.fach, klassenstufe=ctx.klassenstufe, thema=ctx.thema,
                                   lernziel=lernziel, niveaus=niveaus, quellen=quellen)


def _diff_niveaus(c: Mapping) -> list[Niveau] | None:
    if not str(c.get("lernziel") or "").strip():
        return None
    niveaus = []
    for name in NIVEAU_NAMEN:
        block = c.get(name)
        if not isinstance(block, Mapping):
            return None
        aufgaben = [str(a).strip() for a in block.get("aufgaben") or [] if str(a).strip()]
        loesungen = [str(a).strip() for a in block.get("loesungen") or [] if str(a).strip()]
        karten = [str(a).strip() for a in block.get("hilfekarten") or [] if str(a).strip()]
        n = min(len(aufgaben), len(loesungen))
        if n == 0 or not karten:
            return None
        niveaus.append(Niveau(name=name, aufgaben=aufgaben[:n], hilfekarten=karten, loesungen=loesungen[:n]))
    return niveaus


# --- build_h5p -----------------------------------------------------------------------------------------------------


def _h5p_ausgeschlossen(zusatz: str) -> set[str]:
    """Question types the teacher excluded in words ("keine Multiple-Choice-Fragen", "ohne Lückentext")."""
    ausgeschlossen: set[str] = set()
    for satz in re.split(r"[.;\n]", zusatz or ""):
        for m in _NEGATION.finditer(satz):
            fenster = satz[m.end(): m.end() + 60].casefold()
            for typ, woerter in _H5P_TYP_WOERTER.items():
                if any(w in fenster for w in woerter):
                    ausgeschlossen.add(typ)
    return ausgeschlossen


def _frage_aus(content: Mapping) -> H5PFrage | None:
    typ = content.get("typ")
    frage = str(content.get("frage") or "").strip()
    if not frage:
        return None
    if typ == "multichoice":
        antworten: list[Antwort] = []
        gesehen: set[str] = set()
        for a in content.get("antworten") or []:
            if not isinstance(a, Mapping):
                continue
            text = str(a.get("text") or "").strip()
            norm = " ".join(text.split()).casefold()
            if not text or norm in gesehen:
                continue
            gesehen.add(norm)
            fb = a.get("feedback")
            antworten.append(Antwort(text=text, korrekt=bool(a.get("korrekt")),
                                     feedback=str(fb).strip() if fb and str(fb).strip() else None))
        richtige = sum(a.korrekt for a in antworten)
        if not 2 <= len(antworten) <= 10 or richtige < 1:
            return None
        return MultiChoiceFrage(frage=frage, antworten=antworten, mehrfach=richtige > 1)
    if typ == "truefalse":
        wahr = content.get("wahr")
        if not isinstance(wahr, bool):
            return None
        return TrueFalseFrage(frage=frage, wahr=wahr)
    if typ == "blanks":
        b = BlanksFrage(text=frage)
        if frage.count("*") % 2 or not b.luecken() or any(not a for lk in b.luecken() for a in lk.antworten):
            return None
        return b
    if typ == "dragtext":
        d = DragTextFrage(text=frage)
        if frage.count("*") % 2 or not d.luecken():
            return None
        return d
    return None


def _als_dragtext(blanks: BlanksFrage) -> DragTextFrage | None:
    """The same cloze as drag-and-drop: one answer per gap (the first), tips kept."""
    teile = []
    for teil in zerlege_lueckentext(blanks.text, alternativen=True):
        if isinstance(teil, Luecke):
            antwort = teil.antworten[0].replace("*", "").replace(":", " ").strip()
            if not antwort:
                return None
            teile.append(f"*{antwort}{':' + teil.tipp if teil.tipp else ''}*")
        else:
            teile.append(teil.replace("*", ""))
    d = DragTextFrage(text="".join(teile))
    return d if d.luecken() else None


def build_h5p(*, request: MaterialRequest, quiz_candidates: list[Candidate], chunks: list[ChunkRef],
              anzahl: int = 8) -> H5PSet:
    """An H5P set of up to `anzahl` questions on the topic, types mixed in rank order; a DragText is derived from a
    cloze question when that adds variety. Raises ValueError when there is neither a question nor a Lehrplan text."""
    ctx = _kontext(request, {}, {}, chunks, quiz_candidates)
    anzahl = max(1, anzahl)
    ausgeschlossen = _h5p_ausgeschlossen(request.zusatz)
    eintraege: list[tuple[int, Candidate, H5PFrage]] = []
    gesehen: set[str] = set()
    for rank, cand in enumerate(quiz_candidates):
        c = cand.content if isinstance(cand.content, dict) else {}
        frage = _frage_aus(c)
        if frage is None or frage.typ in ausgeschlossen:
            continue
        kl = c.get("klassenstufe")
        if isinstance(kl, int) and kl > ctx.klassenstufe + 1:
            continue
        norm = " ".join(str(c.get("frage")).split()).casefold()
        if norm in gesehen:
            continue
        gesehen.add(norm)
        eintraege.append((rank, cand, frage))

    # Without the subject profile, the topic's Themenfeld is the one of the questions (or excerpts) naming the topic.
    def text_von(cand: Candidate) -> str:
        c = cand.content if isinstance(cand.content, dict) else {}
        return f"{cand.thema or ''} {cand.titel} {c.get('frage', '')} {c.get('erklaerung', '')}"

    # "Französische Revolution" needs both words: one shared word ("Revolution 1848/49") is another topic.
    def voll(woerter: Sequence[str]) -> bool:
        return bool(ctx.thema_woerter) and _ueberlappung(ctx.thema_woerter, woerter) == len(ctx.thema_woerter)

    felder = {str(e[1].content.get("themenfeld")) for e in eintraege
              if voll(_woerter(text_von(e[1]))) and e[1].content.get("themenfeld")}
    felder |= {c.themenfeld for i, c in enumerate(ctx.chunks) if c.themenfeld and voll(ctx.chunk_woerter[i])}
    if not felder:
        teil = [(_ueberlappung(ctx.thema_woerter, ctx.chunk_woerter[i]), c.themenfeld)
                for i, c in enumerate(ctx.chunks) if c.themenfeld]
        beste = max((n for n, _ in teil), default=0)
        felder = {f for n, f in teil if beste and n == beste and f}

    def relevant(cand: Candidate) -> bool:
        return voll(_woerter(text_von(cand))) or cand.content.get("themenfeld") in felder

    passend = [e for e in eintraege if relevant(e[1])]
    if not passend and not felder:
        passend = eintraege  # an unknown topic: trust the retrieval order
    # round-robin over the types, each type in rank order, types ordered by their best rank
    je_typ: dict[str, list[tuple[int, Candidate, H5PFrage]]] = {}
    for e in passend:
        je_typ.setdefault(e[2].typ, []).append(e)
    auswahl: list[tuple[int, Candidate, H5PFrage]] = []
    while len(auswahl) < anzahl and any(je_typ.values()):
        for typ in list(je_typ):
            if je_typ[typ] and len(auswahl) < anzahl:
                auswahl.append(je_typ[typ].pop(0))
    fragen: list[H5PFrage] = [e[2] for e in auswahl]
    benutzt: list[Candidate] = [e[1] for e in auswahl]
    if "dragtext" not in ausgeschlossen and not any(f.typ == "dragtext" for f in fragen):
        blanks_idx = [i for i, f in enumerate(fragen) if isinstance(f, BlanksFrage)]
        rest_blanks = [e for e in je_typ.get("blanks", []) if isinstance(e[2], BlanksFrage)]
        if len(blanks_idx) >= 2:  # two cloze texts: the second one becomes drag and drop
            letzte = fragen[blanks_idx[-1]]
            d = _als_dragtext(letzte) if isinstance(letzte, BlanksFrage) else None
            if d is not None:
                fragen[blanks_idx[-1]] = d
        elif rest_blanks and len(fragen) < anzahl:  # room left: an unused cloze text as drag and drop
            frage_rest = rest_blanks[0][2]
            d = _als_dragtext(frage_rest) if isinstance(frage_rest, BlanksFrage) else None
            if d is not None:
                fragen.append(d)
                benutzt.append(rest_blanks[0][1])
    quellen: list[Quelle] = []
    for cand in benutzt:
        if all(q.ref != cand.ref for q in quellen):
            quellen.append(Quelle(art="good_practice", ref=cand.ref,
                                  titel=_kuerzen(cand.titel or cand.thema or "Quizfrage", 200)))
    if not fragen:
        if {"blanks", "dragtext"} <= ausgeschlossen:
            raise ValueError(f"Zum Thema „{ctx.thema}“ passt keine der vorhandenen Quizfragen zu den gewünschten "
                             f"Fragetypen.")
        frage, chunk = _lehrplan_lueckentext(ctx, "dragtext" if "blanks" in ausgeschlossen else "blanks")
        if frage is None or chunk is None:
            raise ValueError(f"Zum Thema „{ctx.thema}“ gibt es weder passende Quizfragen noch einen Lehrplanabschnitt, "
                             f"aus dem sich Fragen ableiten lassen.")
        fragen = [frage]
        quellen.append(_chunk_quelle(chunk))
    else:
        chunk = ctx.bester_chunk(" ".join(f"{c.thema or ''} {c.titel}" for c in benutzt) + " " + ctx.thema,
                                 ctx.felder[0] if ctx.felder else None)
        if chunk:
            quellen.append(_chunk_quelle(chunk))
    return H5PSet(titel=f"Übung {ctx.fach} · {ctx.thema}", fach=ctx.fach, klassenstufe=ctx.klassenstufe,
                  thema=ctx.thema, fragen=fragen, quellen=quellen)


def _lehrplan_lueckentext(ctx: _Kontext, typ: str) -> tuple[H5PFrage | None, ChunkRef | None]:
    """Last resort: a cloze on a Lehrplan sentence, its subject terms (or longer nouns) as gaps."""
    chunks = [c for i, c in enumerate(ctx.chunks) if _ueberlappung(ctx.thema_woerter, ctx.chunk_woerter[i])]
    for chunk in chunks or ctx.chunks[:1]:
        begriffe = ctx.themenfeld_begriffe(chunk.themenfeld) or ctx.begriffe
        if not begriffe:
            nomen = re.findall(r"\b[A-ZÄÖÜ][\wäöüß-]{5,}\b", chunk.text)
            begriffe = [n for n in dict.fromkeys(nomen) if n not in ("Schülerinnen", "Schüler")
                        and not re.search(r"isch(e|en|er|es)?$", n)]
        begriffe = sorted(begriffe, key=len, reverse=True)
        for satz in _saetze(chunk.text):
            text = satz.replace("*", "")
            luecken = 0
            for b in begriffe:
                m = re.search(rf"(?<![\w*]){re.escape(b)}(?![\w*])", text)
                if m and luecken < 2:
                    text = text[: m.start()] + f"*{b}*" + text[m.end():]
                    luecken += 1
            if luecken:
                frage: H5PFrage = DragTextFrage(text=text) if typ == "dragtext" else BlanksFrage(text=text)
                return frage, chunk
    return None, None
