"""Personal data in a text (names, contacts, birthdates, IBANs, diagnoses and grades next to a name), and the
text with each finding replaced by a German placeholder."""

from __future__ import annotations

import re

from core.safety.messages import REPLACEMENTS
from core.safety.models import Finding, FindingKind
from core.safety.names import CONTEXT_WINDOW, GRADE, HEALTH, Names, lower_keeping_offsets, near, normalise_case

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


def _iban_valid(compact: str) -> bool:
    if not 15 <= len(compact) <= 34 or not compact.isalnum():
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


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
    low = lower_keeping_offsets(text)
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

    names = Names(normalise_case(text)).find()
    for start, end in names:
        add("name", start, end, 1)
        m = _DATE_AFTER_NAME.match(low, end)
        if m:
            add("birthdate", m.start(1), m.end(1), 1)
    name_starts = sorted(s for s, _ in names)
    for pattern, kind in ((HEALTH, "health"), (GRADE, "grade_of_pupil")):
        for m in pattern.finditer(low):
            if near(name_starts, m.start(), m.end(), CONTEXT_WINDOW + 30):
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


def replace_findings(text: str, findings: list[Finding]) -> str:
    out, pos = [], 0
    for f in findings:
        out += [text[pos:f.start], REPLACEMENTS[f.kind]]
        pos = f.end
    out.append(text[pos:])
    return "".join(out)


def redact(text: str) -> str:
    """`text` with every personal-data finding replaced by a German placeholder such as "[Name entfernt]"."""
    return replace_findings(text or "", find_personal_data(text or ""))
