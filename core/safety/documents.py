"""Personal data in a whole document (an upload's text and its blocks): found once over all of it, so a name found
in one paragraph is removed from every other one too, and counted for the teacher's notice. And in the fields of a
form (a curator's edit of a good practice): which fields hold what, so the save can be refused with a German reason."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

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


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list | tuple):
        return [t for v in value for t in _texts(v)]
    return []


def personal_data_in_fields(fields: Mapping[str, object]) -> dict[str, list[str]]:
    """{field label: the kinds of personal data in it (German, e.g. "Namen")} for the fields that hold any; a value
    may be text or nested lists/dicts of text (criteria, answers, levels). Each field is read as one text, so a
    name next to a diagnosis in another sentence of the same field still counts."""
    found: dict[str, list[str]] = {}
    for label, value in fields.items():
        kinds = {f.kind for f in find_personal_data("\n".join(_texts(value)))}
        if kinds:
            found[label] = [KIND_LABELS[k] for k in KIND_LABELS if k in kinds]
    return found


def personal_data_refusal(found: Mapping[str, list[str]], *, what: str = "Nicht gespeichert – die Änderung",
                          then: str = "und erneut speichern") -> str:
    """The German reason a form with personal data is not saved, naming the fields (never the data itself)."""
    where = "; ".join(f"„{label}“: {', '.join(kinds)}" for label, kinds in found.items())
    return (f"{what} enthält offenbar personenbezogene Angaben über Schülerinnen oder "
            f"Schüler ({where}). Bitte Namen, Kontaktdaten, Diagnosen und Noten einzelner Personen entfernen "
            f"(z. B. „ein Schüler“ statt des Namens) {then}.")
