"""Structural checks in code for generated materials; each returns German faults concrete enough for a model to repair.

An empty list means valid. The agents send the faults back as ModelRetry; the UI shows them to the teacher.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence

from core.checks.operators import operator_fault
from core.materials.blocks import AFB, AFB_STUFEN, Quelle
from core.materials.differenzierung import NIVEAU_NAMEN, DifferenziertesMaterial
from core.materials.h5p import FRAGETYP_NAMEN, BlanksFrage, DragTextFrage, H5PSet, MultiChoiceFrage, TrueFalseFrage
from core.materials.klausur import Aufgabe, Klausur, Teilaufgabe
from core.materials.notenschluessel import format_punkte, format_zahl
from core.materials.request import AfbWunsch
from core.materials.wording import anzahl as gezaehlt  # "anzahl" names counts in this module

# Moodle accepts only fixed grade fractions; 100/n is one of them for n <= 10 (see core/exports/moodle.py).
MAX_ANTWORTEN = 10


def _leer(text: str | None) -> bool:
    return text is None or not text.strip()


def _ref(aufgabe: Aufgabe, teil: Teilaufgabe) -> str:
    return f"Aufgabe {aufgabe.nummer}{teil.kennung}"


# --- Klausur -------------------------------------------------------------------------------------------------------


def _quelle_fehler(ref: str, quellen: Sequence[Quelle]) -> list[str]:
    fehler = []
    for i, quelle in enumerate(quellen, start=1):
        if _leer(quelle.ref):  # the title is filled in from the database when the material is stored
            fehler.append(f"{ref}: Quelle {i} braucht eine Kennung (ref).")
    return fehler


def _leertext_fehler(k: Klausur) -> list[str]:
    fehler = []
    for feld, wert in (("Titel", k.titel), ("Fach", k.fach), ("Thema", k.thema)):
        if _leer(wert):
            fehler.append(f"Klausur: Das Feld {feld} ist leer.")
    for i, hinweis in enumerate(k.hinweise, start=1):
        if _leer(hinweis):
            fehler.append(f"Klausur: Hinweis {i} ist leer – ausformulieren oder entfernen.")
    for i, mittel in enumerate(k.hilfsmittel, start=1):
        if _leer(mittel):
            fehler.append(f"Klausur: Hilfsmittel {i} ist leer – benennen oder entfernen.")
    for aufgabe in k.aufgaben:
        if _leer(aufgabe.titel):
            fehler.append(f"Aufgabe {aufgabe.nummer}: Der Titel ist leer.")
        if aufgabe.material is not None and _leer(aufgabe.material):
            fehler.append(f"Aufgabe {aufgabe.nummer}: Das Material ist leer – Material angeben oder null setzen.")
        for teil in aufgabe.teilaufgaben:
            ref = _ref(aufgabe, teil)
            if _leer(teil.label):
                fehler.append(f"Aufgabe {aufgabe.nummer}: Eine Teilaufgabe hat kein Label (a, b, c …).")
            if _leer(teil.operator):
                fehler.append(f"{ref}: Der Operator fehlt.")
            if _leer(teil.text):
                fehler.append(f"{ref}: Der Aufgabentext ist leer.")
            for i, kriterium in enumerate(teil.erwartung, start=1):
                if _leer(kriterium.text):
                    fehler.append(f"{ref}: Kriterium {i} des Erwartungshorizonts ist leer.")
            fehler.extend(_quelle_fehler(ref, teil.quellen))
    return fehler


def _eindeutig_fehler(k: Klausur) -> list[str]:
    fehler = []
    for nummer, anzahl in Counter(a.nummer for a in k.aufgaben).items():
        if anzahl > 1:
            fehler.append(
                f"Die Aufgabennummer {nummer} kommt {anzahl}-mal vor; nummeriere die Aufgaben 1, 2, 3 … durch."
            )
    for aufgabe in k.aufgaben:
        counts = Counter(t.kennung.casefold() for t in aufgabe.teilaufgaben if not _leer(t.label))
        for label, anzahl in counts.items():
            if anzahl > 1:
                fehler.append(
                    f"Aufgabe {aufgabe.nummer}: Das Label „{label}“ kommt {anzahl}-mal vor; "
                    f"jede Teilaufgabe braucht ein eigenes Label (a, b, c …)."
                )
    return fehler


def _afb_fehler(k: Klausur, afb_ziel: Mapping[str, int], toleranz: float) -> list[str]:
    unbekannt = set(afb_ziel) - set(AFB_STUFEN)
    if unbekannt:
        raise ValueError(f"afb_ziel has unknown AFB keys: {sorted(unbekannt)}")
    total = k.gesamtpunkte
    if not afb_ziel or total == 0:
        return []
    fehler = []
    for afb in AFB_STUFEN:
        if afb not in afb_ziel:
            continue
        ist = k.afb_punkte[afb] * 100 / total
        ziel = afb_ziel[afb]
        if abs(ist - ziel) > toleranz:
            soll = ziel * total / 100
            fehler.append(
                f"AFB {afb}: Anteil {format_zahl(ist, 1)} % ({format_punkte(k.afb_punkte[afb])} von {total}), "
                f"Ziel {ziel} % ± {format_zahl(toleranz)} Prozentpunkte. Bei {total} Punkten wären das etwa "
                f"{format_punkte(round(soll))} auf AFB {afb}; verschiebe Punkte oder Teilaufgaben zwischen den AFB."
            )
    return fehler


def _zeit_fehler(k: Klausur, punkte_pro_minute: tuple[float, float]) -> list[str]:
    low, high = punkte_pro_minute
    total = k.gesamtpunkte
    if total == 0:
        return []
    rate = total / k.dauer_minuten
    if low <= rate <= high:
        return []
    return [
        f"Zeitrahmen: {format_punkte(total)} bei {k.dauer_minuten} Minuten sind {format_zahl(rate, 2)} Punkte "
        f"pro Minute; "
        f"passend sind {format_zahl(low)} bis {format_zahl(high)} Punkte pro Minute, also "
        f"{math.ceil(low * k.dauer_minuten)} bis {math.floor(high * k.dauer_minuten)} Punkte. "
        f"{'Kürze Aufgaben oder Punkte.' if rate > high else 'Ergänze Aufgaben oder Punkte.'}"
    ]


def erwaehnt(thema: str, text: str) -> bool:
    """Whether `text` mentions `thema`: the whole phrase, or every content word (4+ letters) of it.

    Substring matching on purpose: German compounds ('Induktionsspannung') contain the topic word.
    """
    haystack = text.casefold()
    phrase = " ".join(thema.split()).casefold()
    if phrase and phrase in haystack:
        return True
    woerter = [w for w in re.findall(r"\w+", phrase) if len(w) >= 4]
    return bool(woerter) and all(w in haystack for w in woerter)


def _wunsch_fehler(k: Klausur, afb_wuensche: Sequence[AfbWunsch]) -> list[str]:
    fehler = []
    for wunsch in afb_wuensche:
        treffer_anders: list[str] = []
        erfuellt = False
        for aufgabe in k.aufgaben:
            for teil in aufgabe.teilaufgaben:
                erwartung = "\n".join(k.text for k in teil.erwartung)  # the expected answer shows what it is about
                if not erwaehnt(wunsch.thema, f"{aufgabe.titel}\n{teil.text}\n{erwartung}"):
                    continue
                if teil.afb == wunsch.afb:
                    erfuellt = True
                else:
                    treffer_anders.append(f"{aufgabe.nummer}{teil.kennung} (AFB {teil.afb})")
        if erfuellt:
            continue
        nachricht = (
            f"Wunsch der Lehrkraft nicht erfüllt: Es fehlt eine Teilaufgabe zu „{wunsch.thema}“ auf AFB {wunsch.afb}. "
            f"Formuliere eine Teilaufgabe, die „{wunsch.thema}“ im Text, im Titel ihrer Aufgabe oder im "
            "Erwartungshorizont nennt "
            f"und als AFB {wunsch.afb} eingestuft ist."
        )
        if treffer_anders:
            nachricht += f" Bisher behandeln „{wunsch.thema}“: {', '.join(treffer_anders)}."
        fehler.append(nachricht)
    return fehler


def validate_klausur(
    k: Klausur,
    *,
    afb_ziel: Mapping[str, int],
    toleranz: float = 10.0,
    operatoren: Mapping[str, AFB],
    punkte_pro_minute: tuple[float, float] = (0.6, 1.6),
    afb_wuensche: Sequence[AfbWunsch] = (),
    erklaert: Sequence[str] = (),
) -> list[str]:
    """All faults of an exam; [] when it may go to the teacher.

    Checks: no empty texts, unique task numbers and sub-task labels, criteria points add up to each sub-task's
    points, operators known for the subject (case-insensitive) and plausible for the AFB (see `afb_passt`),
    AFB shares within ±toleranz percentage points of afb_ziel, points per minute within punkte_pro_minute, and
    every teacher wish (thema, AFB) met by a sub-task that mentions the thema at that AFB. A deviation named in
    `erklaert` (the material's hinweise_lehrkraft: an AFB split it could not reach, a wish it could not meet) is
    reported to the teacher there and is not a fault.
    An empty `operatoren` mapping skips the operator check (a subject without an operator list cannot be checked);
    an empty `afb_ziel` skips the share check.
    """
    if not k.aufgaben:
        return ["Die Klausur enthält keine Aufgaben."]
    fehler = _leertext_fehler(k) + _eindeutig_fehler(k)
    for aufgabe in k.aufgaben:
        for teil in aufgabe.teilaufgaben:
            ref = _ref(aufgabe, teil)
            summe = sum(c.punkte for c in teil.erwartung)
            if summe != teil.punkte:
                fehler.append(
                    f"{ref}: Die Kriterien ergeben {format_punkte(summe)}, "
                    f"die Teilaufgabe hat {format_punkte(teil.punkte)}."
                )
            if operatoren and not _leer(teil.operator):
                operator_fehler = operator_fault(ref, teil, k.fach, operatoren)
                if operator_fehler:
                    fehler.append(operator_fehler)
    hinweise = " ".join(erklaert)
    if "AFB-Verteilung" not in hinweise:  # a deviation the teacher is told about (with its reason) is no fault
        fehler += _afb_fehler(k, afb_ziel, toleranz)
    fehler += _zeit_fehler(k, punkte_pro_minute)
    fehler += _wunsch_fehler(k, [w for w in afb_wuensche if not erwaehnt(w.thema, hinweise)])
    return fehler


# --- Differenzierung -----------------------------------------------------------------------------------------------


def validate_differenzierung(m: DifferenziertesMaterial) -> list[str]:
    """Faults of a differentiated worksheet: exactly the three Niveaus, each complete, one Lösung per Aufgabe."""
    fehler = []
    for feld, wert in (("Titel", m.titel), ("Fach", m.fach), ("Thema", m.thema), ("Lernziel", m.lernziel)):
        if _leer(wert):
            fehler.append(f"Arbeitsblatt: Das Feld {feld} ist leer.")
    counts = Counter(n.name for n in m.niveaus)
    fehlend = [name for name in NIVEAU_NAMEN if name not in counts]
    if fehlend:
        fehler.append(
            f"Es fehlen Niveaus: {', '.join(fehlend)}. Nötig sind genau drei Niveaus: grundlegend, mittel, erweitert."
        )
    for name, anzahl in counts.items():
        if anzahl > 1:
            fehler.append(f"Das Niveau „{name}“ kommt {anzahl}-mal vor; jedes Niveau genau einmal.")
    for niveau in m.niveaus:
        ref = f"Niveau „{niveau.name}“"
        if not niveau.aufgaben:
            fehler.append(f"{ref}: Es gibt keine Aufgabe; mindestens eine Aufgabe ergänzen.")
        if not niveau.hilfekarten:
            fehler.append(f"{ref}: Es gibt keine Hilfekarte; mindestens eine Hilfekarte ergänzen.")
        if len(niveau.loesungen) != len(niveau.aufgaben):
            fehler.append(
                f"{ref}: {gezaehlt(len(niveau.aufgaben), 'Aufgabe')}, aber "
                f"{gezaehlt(len(niveau.loesungen), 'Lösung')}; zu jeder Aufgabe gehört genau eine Lösung in "
                "derselben Reihenfolge."
            )
        teile = (("Aufgabe", niveau.aufgaben), ("Hilfekarte", niveau.hilfekarten), ("Lösung", niveau.loesungen))
        for art, texte in teile:
            for i, text in enumerate(texte, start=1):
                if _leer(text):
                    fehler.append(f"{ref}: {art} {i} ist leer.")
    fehler.extend(_quelle_fehler("Arbeitsblatt", m.quellen))
    return fehler


# --- H5P -----------------------------------------------------------------------------------------------------------


def _lueckentext_fehler(ref: str, frage: BlanksFrage | DragTextFrage) -> list[str]:
    if _leer(frage.text):
        return [f"{ref}: Der Text ist leer."]
    if frage.text.count("*") % 2:
        return [
            f"{ref}: Die Sternchen sind nicht paarig. Jede Lücke steht zwischen zwei Sternchen (*Wort*); "
            f"Sternchen nur für Lücken verwenden."
        ]
    luecken = frage.luecken()
    if not luecken:
        return [f"{ref}: Der Text enthält keine Lücke. Markiere mindestens ein Wort mit Sternchen: *Wort*."]
    fehler = []
    for i, luecke in enumerate(luecken, start=1):
        if any(_leer(a) for a in luecke.antworten):
            fehler.append(f"{ref}: Lücke {i} hat keine (oder eine leere) Antwort zwischen den Sternchen.")
    return fehler


def validate_h5p(s: H5PSet) -> list[str]:
    """Faults of an H5P set: MC with 2-10 options and the right number of correct answers, cloze texts with gaps,
    no empty question or answer."""
    fehler = []
    for feld, wert in (("Titel", s.titel), ("Fach", s.fach), ("Thema", s.thema)):
        if _leer(wert):
            fehler.append(f"H5P-Set: Das Feld {feld} ist leer.")
    if not s.fragen:
        return [*fehler, "Das Set enthält keine Fragen."]
    for nummer, frage in enumerate(s.fragen, start=1):
        ref = f"Frage {nummer} ({FRAGETYP_NAMEN[frage.typ]})"
        if isinstance(frage, MultiChoiceFrage):
            if _leer(frage.frage):
                fehler.append(f"{ref}: Der Fragetext ist leer.")
            if len(frage.antworten) < 2:
                fehler.append(f"{ref}: Es braucht mindestens 2 Antwortoptionen, es sind {len(frage.antworten)}.")
            if len(frage.antworten) > MAX_ANTWORTEN:
                fehler.append(f"{ref}: Höchstens {MAX_ANTWORTEN} Antwortoptionen, es sind {len(frage.antworten)}.")
            richtige = sum(a.korrekt for a in frage.antworten)
            if frage.mehrfach and richtige < 1:
                fehler.append(f"{ref}: Keine Antwort ist als richtig markiert; mindestens eine muss richtig sein.")
            if not frage.mehrfach and richtige != 1:
                fehler.append(
                    f"{ref}: Genau eine Antwort muss richtig sein, markiert sind {richtige}. "
                    f"Korrigiere die Markierung oder setze 'mehrfach' auf true."
                )
            for i, antwort in enumerate(frage.antworten, start=1):
                if _leer(antwort.text):
                    fehler.append(f"{ref}: Antwort {i} ist leer.")
            texte = Counter(" ".join(a.text.split()).casefold() for a in frage.antworten if not _leer(a.text))
            for text, anzahl in texte.items():
                if anzahl > 1:
                    fehler.append(f"{ref}: Die Antwort „{text}“ kommt {anzahl}-mal vor.")
        elif isinstance(frage, TrueFalseFrage):
            if _leer(frage.frage):
                fehler.append(f"{ref}: Die Aussage ist leer.")
        else:
            fehler.extend(_lueckentext_fehler(ref, frage))
    return fehler
