"""German edit requests for a finished Klausur, read into patch operations ("Gib Aufgabe 1b 6 Punkte", "Tausch
Aufgabe 2 und 3") or a regeneration wish ("Mach Aufgabe 3 leichter"); the offline main model edits with it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.app.errors import UserError
from core.materials import patch_ops as patch
from core.materials.klausur import Klausur


class EditUnclear(UserError):
    """An edit request whose intent is clear but a detail is missing (e.g. the new wording)."""


_AUFGABE_REF = re.compile(r"\b(?:teil)?aufgaben?\s*(?:nr\.?\s*)?(\d{1,2})\s*([a-h])?(?![a-zäöüß\d])", re.I)
_KURZ_REF = re.compile(r"(?<![\w/.,])(\d{1,2})([a-h])\)?(?![a-zäöüß\d])", re.I)
_ZAHLWORT = {"ein": 1, "einen": 1, "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7,
             "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwölf": 12}
_PUNKTE = re.compile(r"\b(\d{1,3}|" + "|".join(_ZAHLWORT) + r")\s*(?:punkte?n?|pkt\.?|p\.)(?![a-zäöüß])", re.I)
_PUNKTE_CUE = re.compile(r"\b(gib|gebe|geben|setz\w*|soll\w*|mach\w*|bitte|änder\w*|reduzier\w*|erhöh\w*|"
                         r"verringer\w*|kürz\w*|nur|auf|statt|bekomm\w*|krieg\w*|für)\b", re.I)
_AFB = re.compile(r"\b(?:afb|anforderungsbereich)\s*[:\-]?\s*(iv|iii|ii|i|v|[1-5])(?![\w/])", re.I)
_AFB_CUE = re.compile(r"\b(als|auf|zu|in|soll\w*|bitte|mach\w*|setz\w*|änder\w*|heb\w*|stuf\w*)\b", re.I)
_ENTFERNEN = re.compile(r"\b(streich\w*|lösch\w*|entfern\w*|weglassen|wegnehmen|raus\w*|(kann|soll|muss)\s+weg)\b",
                        re.I)
_TAUSCH = re.compile(r"\b(tausch\w*|vertausch\w*)\b", re.I)
_VERSCHIEBEN = re.compile(r"\b(verschieb\w*|setz\w*|stell\w*|pack\w*|rück\w*|nimm|mach\w*)\b", re.I)
_STELLE = re.compile(r"\b(?:an|auf)\s+(?:die\s+)?(?:stelle|position|platz)\s*(\d{1,2})\b", re.I)
_ANFANG = re.compile(r"\b(an\s+den\s+anfang|nach\s+vorne?|zuerst|als\s+erste\w*)\b", re.I)
_ENDE = re.compile(r"\b(ans\s+ende|an\s+das\s+ende|nach\s+hinten|zuletzt|als\s+letzte\w*)\b", re.I)
_OPERATOR = re.compile(r"\boperator\w*\b[^:]*?(?:\b(?:auf|zu|in|durch)\b|:|→|->|=)\s*[„\"']?([A-Za-zÄÖÜäöüß]{4,})|"
                       r"\bmit\s+(?:dem\s+)?operator\s+[„\"']?([A-Za-zÄÖÜäöüß]{4,})", re.I)
_FORMULIEREN = re.compile(r"\b(formulier\w*|umformulier\w*|ersetz\w*|schreib\w*|lauten|lautet|neu\s+fassen|"
                          r"verständlicher|einfacher\s+formuliert)\b", re.I)
_SCHWIERIGKEIT = re.compile(r"\b(leichter|einfacher|schwerer|anspruchsvoller|schwieriger|fordernder)\b", re.I)
_AENDERN_CUE = re.compile(r"\b(mach\w*|bitte|soll\w*|gestalt\w*|etwas|noch|kannst|könntest|können|kann|überarbeit\w*)"
                          r"\b", re.I)
_DAUER = re.compile(r"\b(\d{2,3})\s*(?:min\b|min\.|minuten)", re.I)
_DAUER_CUE = re.compile(r"\b(soll\w*|nur|dauer\w*|auf|kürzer|länger|mach\w*|bitte|statt|reduzier\w*|kürz\w*)\b", re.I)
_LAENGE = re.compile(r"\b(kürzer|kürzen|länger|verlängern)\b", re.I)
_RECHNEN = re.compile(r"\b(mehr|weniger)\s+(rechen\w*|rechnung\w*|rechnen)", re.I)
_NEU = re.compile(r"\b(neu\s+erzeug\w*|noch\s*mal|nochmal|neu\s+generier\w*|überarbeit\w*)\b", re.I)
_KRITERIUM = re.compile(r"^(.*?)[\s,:–-]*\(?\s*(\d{1,2})\s*(?:p\.?|pkt\.?|punkte?)\s*\)?\s*\.?$", re.I)


_ORDINAL = {"erste": 1, "zweite": 2, "dritte": 3, "vierte": 4, "fünfte": 5, "sechste": 6, "siebte": 7, "achte": 8,
            "neunte": 9, "zehnte": 10, "letzte": -1, "vorletzte": -2}
_ORD = "(" + "|".join(sorted(_ORDINAL, key=len, reverse=True)) + ")[nrsm]?"
_NOUN = r"(?:aufgabe|frage)n?\b"
# „die erste und die dritte Aufgabe“, „die dritte und vierte Frage“: a chain of ordinals before the noun
_ORDINAL_CHAIN = re.compile(rf"\b{_ORD}((?:\s*(?:,|\bund\b|\bsowie\b)\s*(?:(?:die|der|den)\s+)?{_ORD})*)\s+{_NOUN}",
                            re.I)
# „die letzte ist zu schwer“, „die vorletzte bitte weg“: an ordinal after an article, without the noun
_ORDINAL_BARE = re.compile(rf"\b(?:die|der|den)\s+{_ORD}(?=\s*(?:[.,!?]|$)|\s+(?:ist|bitte|kann|soll|muss|darf|"
                           r"raus|weg|streichen|löschen|gefällt|passt)\b)", re.I)
_ORDINAL_GROUP = re.compile(r"\b(ersten|letzten)\s+(beiden|zwei|drei)\s+" + _NOUN, re.I)
_COUNT = {"beiden": 2, "zwei": 2, "drei": 3}
_ORD_WORD = re.compile(_ORD, re.I)
NIVEAU_BUCHSTABEN = {"A": "grundlegend", "B": "mittel", "C": "erweitert"}
_NIVEAU = re.compile(r"\bniveau\s*([abc])\b|\b(grundlegend|mittler|erweitert)\w*\s+niveau|"
                     r"\bniveau\s+(grundlegend|mittel|erweitert)\b", re.I)


def positions(text: str) -> list[int]:
    """Tasks or questions named by their place, in order of appearance: „die zweite Aufgabe“ 2, „die erste und die
    dritte Frage“ 1, 3, „die letzte“ -1, „die vorletzte Aufgabe“ -2, „die letzten beiden Aufgaben“ -1, -2 (negative:
    counted from the end, which only the material knows)."""
    found: list[tuple[int, int]] = []
    for m in _ORDINAL_GROUP.finditer(text):
        n = _COUNT[m.group(2).casefold()]
        found += [(m.start(), -(i + 1) if m.group(1).casefold() == "letzten" else i + 1) for i in range(n)]
    for m in _ORDINAL_CHAIN.finditer(text):
        found += [(m.start() + w.start(), _ORDINAL[w.group(1).casefold()]) for w in _ORD_WORD.finditer(m.group(0))]
    for m in _ORDINAL_BARE.finditer(text):
        found.append((m.start(), _ORDINAL[m.group(1).casefold()]))
    return list(dict.fromkeys(n for _, n in sorted(found)))


def niveau_named(text: str) -> str | None:
    """The Niveau of a differentiated sheet a message names: „Niveau C“ 'C', „das grundlegende Niveau“ 'A' (A =
    grundlegend, B = mittel, C = erweitert, in the order the sheet prints them); None for none or several."""
    found = set()
    for m in _NIVEAU.finditer(text or ""):
        if m.group(1):
            found.add(m.group(1).upper())
        else:
            name = (m.group(2) or m.group(3)).casefold()
            found.add(next(k for k, v in NIVEAU_BUCHSTABEN.items() if v.startswith(name[:6])))
    return found.pop() if len(found) == 1 else None


def _refs(text: str) -> list[tuple[int, str | None]]:
    """Task references in order of appearance: 'Aufgabe 2', 'Teilaufgabe 1b', '2a'."""
    found: list[tuple[int, int, str | None]] = []
    for m in _AUFGABE_REF.finditer(text):
        found.append((m.start(), int(m.group(1)), (m.group(2) or "").casefold() or None))
    for m in _KURZ_REF.finditer(text):
        if not any(s <= m.start() < s + 12 for s, _, _ in found):
            found.append((m.start(), int(m.group(1)), m.group(2).casefold()))
    return [(n, label) for _, n, label in sorted(found)]


# Whole tasks or questions named by number in a follow-up („Aufgabe 2“, „die 4“, „Aufgaben 4 und 5“, „Frage 3“,
# „Nr. 2“), with the usual typos; sub-tasks („2b“) are read by `_refs` above for patches.
_TYPO = re.compile(r"\b(?:aufgabe|aufagbe|aufgbae|aufgbe|afugabe|aufabe|augabe|aufgaeb)(n?)\b", re.I)
_LIST = re.compile(r"(\d{1,2})\s*(?:,|\bund\b|\bsowie\b|&|\+)\s*(\d{1,2})(?!\s*(?:min|punkt|p\.|%|\d))", re.I)
_TASK_REF = re.compile(r"\b(?:aufgaben?|fragen?)\s*(?:nr\.?\s*)?(\d{1,2}(?:\+\d{1,2})*)(?![\d,.]\d)|"
                       r"(?<!für )\b(?:die|der|nr\.?|nummer)\s+(\d{1,2}(?:\+\d{1,2})*)"
                       r"(?!\s*(?:min|punkt|p\b|%|\.\d|er\b))\b",
                       re.I)


def joined_refs(text: str) -> str:
    """The message with typos of „Aufgabe“ mended and number lists joined („Aufgaben 4 und 5“ → „Aufgaben 4+5“)."""
    text = _TYPO.sub(lambda m: "Aufgabe" + m.group(1), " ".join((text or "").split()))
    while (joined := _LIST.sub(r"\1+\2", text)) != text:
        text = joined
    return text


def task_numbers(piece: str) -> tuple[int, ...]:
    """The tasks or questions a piece of a follow-up names, by number or by place (negative: from the end)."""
    found = [int(n) for m in _TASK_REF.finditer(piece) for n in (m.group(1) or m.group(2)).split("+")]
    found += positions(piece)
    return tuple(sorted(dict.fromkeys(n for n in found if -3 <= n <= 20 and n)))


def without_task_numbers(piece: str) -> str:
    return _TASK_REF.sub(" ", piece)


def _ziel(ref: tuple[int, str | None]) -> str:
    return f"{ref[0]}{ref[1] or ''}"


def _ohne_refs(text: str) -> str:
    return _KURZ_REF.sub(" ", _AUFGABE_REF.sub(" ", text))


def _zahl(raw: str) -> int:
    return int(raw) if raw.isdigit() else _ZAHLWORT[raw.casefold()]


def _unquote(text: str) -> str:
    return text.strip().strip("„“\"'»«").strip()


def _erwartung_aus(text: str, ziel: str) -> list[patch.KriteriumNeu]:
    kriterien = []
    for teil in re.split(r"[;\n]+", text):
        if not teil.strip():
            continue
        m = _KRITERIUM.match(teil.strip())
        if not m or not m.group(1).strip():
            raise EditUnclear(f"Bitte bei jedem Kriterium für {ziel} die Punkte angeben, getrennt durch Semikolon, "
                              f"z. B. „Erwartungshorizont {ziel}: nennt die Formel (1 P.); rechnet richtig (2 P.)“.")
        kriterien.append(patch.KriteriumNeu(text=_unquote(m.group(1)), punkte=int(m.group(2))))
    return kriterien


def _check_refs(refs: Sequence[tuple[int, str | None]], material: Klausur | None) -> None:
    if material is None:
        return
    nummern = {a.nummer: a for a in material.aufgaben}
    for nummer, label in refs:
        a = nummern.get(nummer)
        if a is None or (label and label not in {t.kennung.casefold() for t in a.teilaufgaben}):
            raise EditUnclear(f"Aufgabe {nummer}{label or ''} gibt es in dieser Klausur nicht (Aufgaben 1 bis "
                              f"{len(material.aufgaben)}). Welche Aufgabe meinen Sie?")


def _parse_patch(text: str, refs: list[tuple[int, str | None]]) -> list[patch.PatchOp] | None:
    rest = _ohne_refs(text)
    head, colon, body = text.partition(":")
    if colon and refs and _refs(head) and body.strip():
        if re.search(r"erwartung", head, re.I):
            return [patch.RewriteErwartung(ziel=_ziel(_refs(head)[0]), erwartung=_erwartung_aus(body, _ziel(refs[0])))]
        if re.search(r"\b(titel|überschrift)\b", head, re.I):
            return [patch.ReplaceText(ziel=str(refs[0][0]), feld="titel", text=_unquote(body))]
        if re.search(r"\bmaterial\b", head, re.I):
            return [patch.ReplaceText(ziel=str(refs[0][0]), feld="material", text=_unquote(body))]
        if _FORMULIEREN.search(head) or re.search(r"\b(text|neu|so)\b", head, re.I):
            return [patch.ReplaceText(ziel=_ziel(_refs(head)[0]), text=_unquote(body))]
    if _TAUSCH.search(text):
        nummern = [(int(m.group(1)), (m.group(2) or "").casefold() or None)
                   for m in re.finditer(r"(?<![\d/])(\d{1,2})\s*([a-h])?(?![a-zäöüß\d/])", text, re.I)]
        if len(nummern) >= 2:
            (n1, l1), (n2, l2) = nummern[0], nummern[1]
            if l1 is None and l2 is None and n1 != n2:
                a, b = sorted((n1, n2))
                ops: list[patch.PatchOp] = [patch.MoveTask(ziel=str(a), position=b)]
                return ops + ([patch.MoveTask(ziel=str(b), position=a)] if b - a > 1 else [])
            if l1 and l2 and n1 == n2 and l1 != l2:
                a_l, b_l = sorted((l1, l2))
                pa, pb = ord(a_l) - ord("a") + 1, ord(b_l) - ord("a") + 1
                ops = [patch.MoveSubtask(ziel=f"{n1}{a_l}", position=pb)]
                return ops + ([patch.MoveSubtask(ziel=f"{n1}{b_l}", position=pa)] if pb - pa > 1 else [])
            raise EditUnclear("Tauschen kann ich zwei ganze Aufgaben („Tausch Aufgabe 2 und 3“) oder zwei "
                              "Teilaufgaben derselben Aufgabe („Tausch 2a und 2b“).")
    if not refs:
        return None
    ziel = _ziel(refs[0])
    if _ENTFERNEN.search(rest):  # every named one, the last first (removing one renumbers those after it)
        named = sorted(dict.fromkeys(refs), key=lambda r: (r[0], r[1] or ""), reverse=True)
        return [patch.RemoveSubtask(ziel=_ziel(r)) if r[1] else patch.RemoveTask(ziel=_ziel(r)) for r in named]
    punkte = _PUNKTE.search(rest)
    if punkte and re.match(r"\s*(mehr|weniger|zusätzlich|extra)\b", rest[punkte.end():], re.I):
        name = f"Aufgabe {ziel}" if ziel.isdigit() else ziel
        raise EditUnclear(f"Wie viele Punkte soll {name} insgesamt bekommen? Bitte die Gesamtzahl nennen, z. B. "
                          f"„Gib {name} 8 Punkte“.")
    if punkte and _PUNKTE_CUE.search(rest):
        return [patch.SetPoints(ziel=ziel, punkte=_zahl(punkte.group(1)))]
    afb = _AFB.search(rest)
    if afb and _AFB_CUE.search(rest[: afb.start()] + rest[afb.end():]):
        wert = {"1": "I", "2": "II", "3": "III", "4": "IV", "5": "V"}.get(afb.group(1), afb.group(1).upper())
        operator = _OPERATOR.search(rest)
        chosen = (operator.group(1) or operator.group(2)) if operator else None
        ohne = re.search(r"\bohne\s+(?:ausgleich|ausgleichen)\b|\btrotzdem\b", rest, re.I)
        return [patch.SetAfb(ziel=ziel, afb=wert, operator=chosen, ausgleichen=ohne is None)]
    operator = _OPERATOR.search(rest)
    if operator:
        return [patch.SetOperator(ziel=ziel, operator=operator.group(1) or operator.group(2))]
    if _VERSCHIEBEN.search(rest):
        position = None
        if m := _STELLE.search(rest):
            position = int(m.group(1))
        elif _ANFANG.search(rest):
            position = 1
        elif _ENDE.search(rest):
            position = -1
        if position is not None:
            move = patch.MoveSubtask if refs[0][1] else patch.MoveTask
            return [move(ziel=ziel, position=position)]
    if re.search(r"\b(formulier\w*|umformulier\w*|verständlicher)\b", rest, re.I):
        raise EditUnclear(f"Wie soll {ziel} genau lauten? Schreiben Sie mir den neuen Wortlaut nach einem "
                          f"Doppelpunkt, z. B. „Formulier {ziel} so: …“.")
    return None


def parse_edit_request(text: str, material: Klausur | None = None
                       ) -> list[patch.PatchOp] | patch.RegenerateInstruction | None:
    """What a teacher's German chat message asks to change in the last material, or None if it is no edit.

    Patches: "Gib Aufgabe 1b 6 Punkte", "Aufgabe 2 bitte als AFB III", "Streich Aufgabe 4", "Tausch Aufgabe 2 und
    3", "Formulier 2a verständlicher: …", "Operator von 2a auf Erklären", "Erwartungshorizont 2a: … (2 P.); …".
    Regeneration: "Mach Aufgabe 3 leichter" (that task), "Mach die Klausur leichter", "Die Klausur soll nur 30
    Minuten dauern", "kürzer", "mehr Rechenaufgaben". Complaints without a change wish ("Aufgabe 3 ist zu schwer")
    are no edit (they are feedback). Raises EditUnclear when the wish is clear but a detail is missing. With
    `material`, task references are checked against it.
    """
    text = " ".join((text or "").split())
    if not text:
        return None
    refs = _refs(text)
    ops = _parse_patch(text, refs)
    if ops:
        _check_refs(refs, material)
        return ops
    rest = _ohne_refs(text)
    schwierigkeit = _SCHWIERIGKEIT.search(rest)
    if schwierigkeit and _AENDERN_CUE.search(rest):
        richtung = "schwerer" if schwierigkeit.group(1).casefold() in ("schwerer", "anspruchsvoller", "schwieriger",
                                                                        "fordernder") else "leichter"
        if refs:
            _check_refs(refs[:1], material)
            return patch.RegenerateInstruction(anweisung=text, aufgabe=refs[0][0], teil=refs[0][1], richtung=richtung)
        return patch.RegenerateInstruction(anweisung=text, richtung=richtung)
    dauer = _DAUER.search(rest)
    if dauer and _DAUER_CUE.search(rest) and not refs:
        return patch.RegenerateInstruction(anweisung=text, dauer_minuten=int(dauer.group(1)))
    if re.search(r"\bdoppelstunde\b", rest, re.I) and _DAUER_CUE.search(rest):
        return patch.RegenerateInstruction(anweisung=text, dauer_minuten=90)
    if (laenge := _LAENGE.search(rest)) and _AENDERN_CUE.search(rest) and not refs:
        return patch.RegenerateInstruction(anweisung=text, laenge="kuerzer" if laenge.group(1).startswith("kürz") else
                                     "laenger")
    if rechnen := _RECHNEN.search(rest):
        return patch.RegenerateInstruction(anweisung=text, rechnen="mehr" if rechnen.group(1).casefold() == "mehr" else
                                     "weniger")
    if _NEU.search(rest):
        aufgabe = refs[0] if refs else (None, None)
        return patch.RegenerateInstruction(anweisung=text, aufgabe=aufgabe[0], teil=aufgabe[1])
    return None
