"""Requests whose subject is a named person's record (Gutachten, Förderplan, "merk dir …", "was weißt du
über …"): refused for data protection, unlike a teaching request that mentions a pupil."""

from __future__ import annotations

from core.safety.models import Finding
from core.safety.signals import is_teaching
from core.safety.text import fold_for_rules, gap, rx

# Requests whose subject is a named person's record (checked in a window around each name).
_PERSON_DOC = rx(
    r"\b(?:gutachten\w*|foerderplan\w*|foerderdiagnos\w*|entwicklungsbericht\w*|lernentwicklungsbericht\w*|"
    r"zeugnisbemerkung\w*|zeugnistext\w*|zeugnisbeurteilung\w*|verbalbeurteilung\w*|beurteilung|beurteilungen|"
    r"stellungnahme\w*|schuelerakte\w*|akte|dossier\w*|personalbogen|charakteristik|einschaetzung (?:ueber|zu|von)|"
    r"bericht (?:ueber|zu)|steckbrief (?:ueber|von|zu)|meldung an (?:das )?jugendamt|jugendamt\w*|"
    r"klassenkonferenz\w*|ordnungsmassnahme\w*|diagnosen (?:auflisten|liste|zusammenfass\w*)|elterngespraech\w*|"
    r"(?:brief|e-?mail|mail|nachricht|schreiben)\w* an (?:die )?eltern von|elternbrief\w*|\w*brief an familie|"
    r"(?:e-?mail|mail|nachricht) an familie)\b"
    r"|\b(?:fass\w*|liste\w*|sammle\w*|sortier\w*|auflist\w*|tabelle\w*|uebersicht\w*|vergleich\w*|speicher\w*|"
    r"merk\w*|notier\w*|vermerk\w*|dokumentier\w*|erfass\w*)\b" + gap(80)
    + r"\b(?:diagnosen|krankheiten|befunde|foerderbedarfe?|auffaelligkeiten|noten|zensuren|migrationshintergrund|"
      r"herkunft|religion|staatsangehoerigkeit|aufenthaltsstatus)\b"
)
_STORE = rx(r"\b(?:merk\w* (?:dir|euch|sie sich)|trag\w* (?:\w+ ){0,3}?ein\b|eintragen|notier\w* (?:dir|dass)|"
    r"speicher\w* (?:dir|dass|ab,? dass)|"
             r"vermerk\w* (?:dir|dass)|behalte? (?:\w+ ){0,3}?im (?:kopf|gedaechtnis)|erinner\w* dich|"
             r"fuer (?:spaeter|das naechste mal|die zukunft) (?:merken|speichern))\b")
_ASK_ABOUT = rx(r"\b(?:was weisst du (?:ueber|von)|wer ist|infos? (?:ueber|zu)|alles ueber|was hat)\b")
_SENSITIVE = {"health", "grade_of_pupil", "birthdate", "address", "iban"}
_PROCESS = rx(r"\b(?:sortier\w*|liste\w*|auflist\w*|fasse?\w* (?:\w+ )?zusammen|auswert\w*|tabelle\w*|"
               r"vergleich\w*|ranking)\b")
_PERSON_WINDOW = 160


def personal_refusal(text: str, folded: str, findings: list[Finding]) -> bool:
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
    return sensitive and not is_teaching(folded) and _PROCESS.search(folded) is not None
