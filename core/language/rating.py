"""Whether a chat message *rates* a material: only unmistakable words do („5 Sterne“, „Bewertung: 4/5“, „sehr gut,
bitte so merken“) — praise, thanks or „Standard passt“ are no rating (decision 071). Plus the yes/no to „merken?“."""

from __future__ import annotations

import re

from core.language.stopwords import word_set
from core.language.text import fold

_NUMBERS = {"ein": 1, "einen": 1, "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fuenf": 5}
_WORD = r"(?<![a-z0-9])"
_END = r"(?![a-z0-9])"
_STARS = re.compile(_WORD + r"([1-5]|ein|einen|eins|zwei|drei|vier|fuenf)\s*(?:sterne?n?|⭐|★)" + _END)
_GLYPHS = re.compile(r"[★⭐☆]+")
_FRACTION = re.compile(r"(?<![\d/,.])([1-5])\s*(?:/|von)\s*5(?![\d/,.])")
_RATED_WITH = re.compile(_WORD + r"(?:bewertung|bewerte(?:t)?|sterne?)\s*:?\s*(?:mit\s+|von\s+)?([1-5])(?![\d/,.])")
_RATING_WORD = re.compile(_WORD + r"(?:bewert|stern)")
_TASK_WORD = re.compile(_WORD + r"(?:aufgaben?|fragen?|teilaufgaben?|seiten?|minuten?)\s*\d")
# „bitte so merken“, „als bewährt speichern“, „in meine bewährten Aufgaben aufnehmen“, „als Good Practice merken“
_KEEP = re.compile(
    _WORD + r"(?:(?:bitte\s+)?so\s+(?:merken|speichern|uebernehmen|behalten)"
    r"|als\s+(?:bewaehrt\w*|gute?\s+praxis|good\s+practice|vorlage|muster)\s+(?:\w+\s+){0,2}"
    r"(?:merken|speichern|uebernehmen|aufnehmen|ablegen|behalten)"
    r"|(?:merk|speicher)\w*\s+(?:dir\s+|sie\s+)?(?:das|die|diese[ns]?)\s+(?:\w+\s+){0,2}als\s+(?:bewaehrt|gut|vorlage|muster)"
    r"|in\s+(?:meine|die)\s+bewaehrten)" + _END
)
_NEGATED = re.compile(_WORD + r"(?:nicht|kein|keine|keinen|nein|nie)" + _END)
_YES_FIRST = word_set("ja jawohl jep gern gerne unbedingt klar natuerlich sicher")
_YES_ALONE = re.compile(
    r"^(?:bitte|ja\s+bitte|bitte\s+ja|bitte\s+merken|merken|ja\s+merken|ja\s+gern\w*|"
    r"ja\s+bitte\s+merken|ja\s+speichern|bitte\s+speichern)$"
)
_NO = re.compile(
    r"^(?:nein|nee|noe|lieber\s+nicht|bitte\s+nicht|nicht\s+(?:merken|speichern)|auf\s+keinen\s+fall)" + _END
)
_ACKNOWLEDGE = word_set("""ok okay okey danke dank vielen herzlichen schoen passt passen schon so standard gut fein
    alles klar in ordnung das ist erstmal erst mal soweit fuer den moment jetzt reicht prima erledigt""")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", fold(text or ""))


def explicit_stars(text: str) -> int | None:
    """The stars an unmistakable rating in `text` gives (1–5), else None. „5 Sterne“, „★★★★☆“, „Bewertung: 4/5“,
    „4 von 5“ name their number; „sehr gut, bitte so merken“ / „als bewährt speichern“ count as 5. Praise without
    such words („super“, „genau so!“, „passt“) is None: the teacher has not rated anything."""
    f = fold(text or "")
    if not f.strip():
        return None
    if m := _STARS.search(f):
        return int(m.group(1)) if m.group(1).isdigit() else _NUMBERS[m.group(1)]
    runs = _GLYPHS.findall(f)  # a row of stars, not one „⭐“ beside praise
    if len(runs) == 1 and ("☆" in runs[0] or len(runs[0]) >= 3 or not _words(f)) and len(runs[0]) <= 5:
        full = sum(ch in "★⭐" for ch in runs[0])
        if 1 <= full <= 5:
            return full
    if m := _RATED_WITH.search(f):
        return int(m.group(1))
    if m := _FRACTION.search(f):
        short = len(_words(f)) <= 4 and not _TASK_WORD.search(f)
        if _RATING_WORD.search(f) or short:
            return int(m.group(1))
    if (m := _KEEP.search(f)) and not _NEGATED.search(f[max(0, m.start() - 12) : m.end()]):
        return 5
    return None


def is_yes(text: str) -> bool:
    """A plain yes to a yes/no question („Ja“, „Ja, bitte“, „gerne“, „bitte merken“) — nothing with a „nicht“."""
    words = _words(text)
    if not words or len(words) > 6 or {"nicht", "nein", "kein", "keine", "aber"} & set(words):
        return False
    return words[0] in _YES_FIRST or bool(_YES_ALONE.match(" ".join(words)))


def is_no(text: str) -> bool:
    """A plain no („Nein“, „nein danke“, „lieber nicht“, „nicht merken“)."""
    return bool(_NO.match(" ".join(_words(text))))


def is_acknowledgement(text: str) -> bool:
    """Thanks or a shrug, no praise to ask about: „ok danke“, „passt schon“, „Standard passt“, „alles klar“."""
    words = _words(text)
    return bool(words) and len(words) <= 8 and all(w in _ACKNOWLEDGE for w in words)
