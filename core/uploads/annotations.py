"""Points and AFB written next to a task ("(4 P.)", "[AFB II]", "/6 BE"): read from the line's brackets and
its end, and taken out of the task text."""

from __future__ import annotations

import re

NUM = r"\d{1,3}(?:[.,]\d{1,2})?"
UNIT = r"(?:Punkte|Punkt|Pkt\.?|P\.?|BE|VP|Pt\.?)"
_POINTS_TOKEN = re.compile(rf"^(?P<p>{NUM})\s*{UNIT}(?![\wäöü])", re.IGNORECASE)
_SLASH_TOKEN = re.compile(rf"^_*\s*/\s*(?P<p>{NUM})\s*(?:{UNIT}(?![\wäöü]))?", re.IGNORECASE)
_BARE_NUMBER = re.compile(rf"^(?P<p>{NUM})$")
_AFB_TOKEN = re.compile(
    r"^(?:AFB|Anforderungsbereich|Anf\.?\s*-?\s*Bereich)\s*:?\s*(?P<a>III|II|I|[123])(?![\wäöü])"
    r"(?:\s*(?:[-–/]|bis)\s*(?P<b>III|II|I|[123])(?![\wäöü]))?", re.IGNORECASE)
_GROUP = re.compile(r"[(\[]([^()\[\]]{1,60})[)\]]")
_SEPARATORS = re.compile(r"^[\s,;/|]+")
_TRAILING = re.compile(
    rf"(?P<pre>^|[.!?:)\]|\t]|\s{{2,}}|_)\s*(?P<tok>(?:_*\s*/\s*{NUM}\s*(?:{UNIT})?|{NUM}\s*{UNIT}|"
    r"(?:AFB|Anforderungsbereich)\s*:?\s*(?:III|II|I|[123])(?:\s*[-–/]\s*(?:III|II|I|[123]))?))"
    r"\s*\.?\s*$", re.IGNORECASE)
# With a single space before it, only a unit no sentence ends with ("4 P.", "2 BE") or a slash ("/6") counts.
_TRAILING_ABBR = re.compile(
    rf"(?P<pre>\s)(?P<tok>{NUM}\s*(?:Pkt\.?|P\.?|BE|VP)|/\s*{NUM}(?:\s*{UNIT})?)\s*$", re.IGNORECASE)


def parse_number(raw: str) -> float | int:
    value = float(raw.replace(",", "."))
    return int(value) if value.is_integer() else value


def _afb_value(raw: str | None) -> str | None:
    if raw is None:
        return None
    return {"1": "I", "2": "II", "3": "III"}.get(raw, raw.upper())


def _group_annotations(content: str) -> tuple[float | int | None, str | None] | None:
    """Points/AFB when a bracket holds nothing else ("4 P., AFB II", "[4]", "/6 BE"); None otherwise."""
    rest, points, afb = content.strip(), None, None
    if _BARE_NUMBER.match(rest):
        return parse_number(rest), None
    while rest:
        m = _POINTS_TOKEN.match(rest) or _SLASH_TOKEN.match(rest)
        if m and points is None:
            points = parse_number(m.group("p"))
        else:
            m = _AFB_TOKEN.match(rest)
            if not m or afb is not None:
                return None
            afb = _afb_value(m.group("b") or m.group("a"))
        rest = _SEPARATORS.sub("", rest[m.end():])
    return (points, afb) if points is not None or afb is not None else None


def strip_annotations(line: str) -> tuple[str, float | int | None, str | None]:
    """The line without its points/AFB annotations, and what they said (first points, highest AFB)."""
    points: float | int | None = None
    afb: str | None = None

    def take(p: float | int | None, a: str | None) -> None:
        nonlocal points, afb
        if p is not None and points is None:
            points = p
        if a is not None and afb is None:
            afb = a

    out = line
    if line.count("|") < 2:  # table rows (points tables) are not annotations of a task
        for m in list(_GROUP.finditer(line)):
            found = _group_annotations(m.group(1))
            if found is None:
                continue
            if m.group(0).startswith("(") and _BARE_NUMBER.match(m.group(1).strip()):
                continue  # "(4)" is too often not points; only "[4]" is
            take(*found)
            out = out.replace(m.group(0), " ", 1)
        for _ in range(3):
            # Annotations are short: search only the line's end, so hostile long lines cost linear time.
            start = max(0, len(out) - 80)
            m = _TRAILING.search(out, start) or _TRAILING_ABBR.search(out, start)
            if not m:
                break
            tok = m.group("tok").strip()
            afb_m = re.search(r"(?:AFB|Anforderungsbereich)\s*:?\s*(III|II|I|[123])(?:\s*[-–/]\s*(III|II|I|[123]))?",
                              tok, re.IGNORECASE)
            if afb_m:
                take(None, _afb_value(afb_m.group(2) or afb_m.group(1)))
            else:
                take(parse_number(re.search(NUM, tok).group(0)), None)
            out = out[: m.start("tok")]
    return " ".join(out.split()).strip(" ,;"), points, afb
