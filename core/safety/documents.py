"""Personal data in a whole document (an upload's text and its blocks): found once over all of it, so a name found
in one paragraph is removed from every other one too, and counted for the teacher's notice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from core.safety.messages import KIND_LABELS
from core.safety.personal import find_personal_data, replace_findings

# Between the pieces: no finding spans it (phone numbers allow one separator character, names need a space).
_SEP = "\n\n\u2063§§\u2063\n\n"


def redact_pieces(pieces: Sequence[str]) -> tuple[list[str], Counter[str]]:
    """Every piece with its personal data replaced, and how many findings of each kind were removed."""
    joined = _SEP.join(p.replace(_SEP, "\n\n") for p in pieces)
    findings = find_personal_data(joined)
    if not findings:
        return list(pieces), Counter()
    out = replace_findings(joined, findings).split(_SEP)
    if len(out) != len(pieces):  # cannot happen (see _SEP); redact piece by piece rather than lose anything
        out = [replace_findings(p, find_personal_data(p)) for p in pieces]
    return out, Counter(f.kind for f in findings)


def removed_notice(removed: Counter[str] | dict[str, int], what: str = "Aus der Datei") -> str | None:
    """The German notice of what was removed ("Aus der Datei wurden entfernt: 2 × Namen, 1 × Telefonnummern …")."""
    parts = [f"{n} × {KIND_LABELS[k]}" for k, n in sorted(removed.items(), key=lambda kv: -kv[1]) if n]
    if not parts:
        return None
    return (f"Datenschutz: {what} wurden personenbezogene Angaben entfernt ({', '.join(parts)}). Gespeichert und "
            "an ein Sprachmodell gegeben wird nur der bereinigte Text.")
