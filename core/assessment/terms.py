"""Key terms of a criterion and an answer: German words folded, function words and Erwartungshorizont
vocabulary left out, light stems, compounds and small typos matched."""

from __future__ import annotations

import re

from core.language.text import fold_composed

WORD = re.compile(r"[a-zäöüß]+")
# Function words and the vocabulary of Erwartungshorizonte ('nennt', 'Ansatz', 'korrekt'): they say how a criterion
# is phrased, not what the answer must contain.
_STOP_WORDS = """
aber alle allen aller alles also als am an andere anderen auch auf aus bei beide beiden beim bereits bis bzw ca da
dabei dadurch dafuer damit dann darauf daraus das dass dem den denen der deren des dessen die dies diese diesem diesen
dieser dieses doch dort durch ein eine einem einen einer eines einmal er es etwa etwas fuer gegen hier ihr ihre ihm
ihn im in ins ist jede jedem jeden jeder jedes jeweils kann kein keine man mehr mit muss nach nicht noch nur ob oder
ohne sehr sein seine seiner sich sie sind so sowie statt ueber um und uns unter vom von vor wann war was weil wenn
werden wie wir wird wo zu zum zur zwischen z b zb usw ggf evtl bzw
ansatz angesetzt angegeben angeben angibt antwort antwortsatz aufgestellt beachtet begruendet begruendetes
begruendete begruendung benannt benennt berechnet berechnung beschreibt beschreibung beurteilt bestimmt bildet
darstellung deutung dargestellt eingesetzt einsetzen einheit einheiten erkannt erkennt erlaeutert erlaeuterung
ergebnis erklaert erklaerung fazit folgerung formuliert gebildet genannt gezeigt gibt hinweis korrekt korrekte
korrekter mindestens nachvollziehbar nennt nennung notiert punkt punkte richtig richtige richtiger sachgerecht
schluss schueler schuelerin schuelerinnen sinnvoll sinnvolle stellt stimmig urteil vergleich vergleicht
vollstaendig zutreffend zutreffende aspekt aspekte beispiel beispiele weiterer weitere
"""
STOP = frozenset(_STOP_WORDS.split())


def stem_light(word: str) -> str:
    """A light German stemmer: enough to meet 'Spannungen'/'Spannung', 'Lampe'/'Lampen', 'geschaltet'/'schaltet'."""
    for long, short in (("ungen", "ung"), ("heiten", "heit"), ("keiten", "keit"), ("innen", "in")):
        if word.endswith(long):
            return word[: -len(long)] + short
    for suffix in ("ern", "en", "er", "es", "em", "e", "n", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def key_terms(text: str) -> list[str]:
    """Content words of a text as stems, in order, without duplicates (length ≥ 4, no function words)."""
    out: dict[str, None] = {}
    for w in WORD.findall(fold_composed(text)):
        if len(w) >= 4 and w not in STOP:
            out[stem_light(w)] = None
    return list(out)


def _distance_at_most(a: str, b: str, limit: int) -> bool:
    if abs(len(a) - len(b)) > limit:
        return False
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        cur = [i]
        for j, cb in enumerate(b, start=1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > limit:
            return False
        prev = cur
    return prev[-1] <= limit


_LINKS = ("s", "es", "n", "en", "e", "")


def term_score(term: str, stems: set[str]) -> float:
    """1.0 when the answer has the term (also inside a compound, or spelled slightly wrong), 0.5 for half a compound."""
    if term in stems:
        return 1.0
    for s in stems:
        if len(s) >= len(term) + 3 and s.endswith(term):  # 'widerstand' in 'gesamtwiderstand'
            return 1.0
        limit = 2 if len(term) >= 10 else 1 if len(term) >= 7 else 0
        if limit and _distance_at_most(term, s, limit):  # 'wiederstand'
            return 1.0
    # the criterion's compound spelled out: 'Stromstärke' ~ 'Stärke des Stroms'
    for head in (s for s in stems if len(s) >= 4 and term.endswith(s) and len(term) - len(s) >= 3):
        rest = term[: -len(head)]
        for link in _LINKS:
            modifier = rest[: len(rest) - len(link)] if link and rest.endswith(link) else rest
            if len(modifier) >= 3 and any(s.startswith(modifier) for s in stems if s != head):
                return 1.0
        return 0.5
    if any(len(s) >= 5 and s.startswith(term) and len(s) >= len(term) + 3 for s in stems):
        return 0.5  # 'strom' -> 'stromstaerke': related, not the same
    return 0.0
