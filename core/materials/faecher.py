"""The subjects the workbench knows, their display names and the abbreviations teachers use for them."""

from __future__ import annotations

from core.app.errors import UserError
from core.language.text import fold_compatible

FAECHER: dict[str, str] = {
    "physik": "Physik",
    "biologie": "Biologie",
    "deutsch": "Deutsch",
    "mathematik": "Mathematik",
    "geschichte": "Geschichte",
    "geographie": "Geographie",
    "englisch": "Englisch",
    "chemie": "Chemie",
}

ALIASES: dict[str, str] = {
    "ph": "physik", "phy": "physik", "bio": "biologie", "bi": "biologie", "de": "deutsch", "deu": "deutsch",
    "ma": "mathematik", "mathe": "mathematik", "math": "mathematik", "ge": "geschichte", "geo": "geographie",
    "erdkunde": "geographie", "geografie": "geographie", "ek": "geographie", "en": "englisch", "engl": "englisch",
    "english": "englisch", "ch": "chemie", "che": "chemie",
}


def normalize_fach(value: str | None, *, required: bool = True) -> str | None:
    """A subject key from a name or abbreviation ('Mathe' -> 'mathematik'); a German error when unknown."""
    raw = (value or "").strip()
    if not raw:
        if required:
            raise UserError(f"Bitte ein Fach angeben ({', '.join(FAECHER.values())}).")
        return None
    key = fold_compatible(raw).replace(".", "").strip()
    key = {fold_compatible(k): k for k in FAECHER}.get(key) or ALIASES.get(key)
    if key is None:
        shown = raw if len(raw) <= 40 else raw[:40] + "…"
        raise UserError(f"Unbekanntes Fach „{shown}“. Bekannte Fächer: {', '.join(FAECHER.values())}.")
    return key


def fach_name(key: str) -> str:
    return FAECHER.get(key, key.capitalize())
