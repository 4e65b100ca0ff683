"""Reading the teacher's answer to a Rückfrage: which suggestion it picks, and its fingerprint for repeats.

"den ersten Vorschlag", "Vorschlag 2", "wie vorgeschlagen", a suggestion's own text or its label ("Standard passt")
all mean that suggestion.
"""

from __future__ import annotations

import hashlib
import re

from core.language.suggestions import suggestion_by_label

_ORDINALS = {"erste": 0, "ersten": 0, "erster": 0, "zweite": 1, "zweiten": 1, "dritte": 2, "dritten": 2,
             "vierte": 3, "vierten": 3, "letzte": -1, "letzten": -1}


def resolve_answer(answer: str, vorschlaege: list[str]) -> str:
    """Map "den ersten Vorschlag", "Vorschlag 2", "wie vorgeschlagen" or a suggestion's text to that suggestion."""
    text = answer.strip()
    low = text.lower()
    if not vorschlaege:
        return text
    for v in vorschlaege:
        if low == v.lower().strip():
            return v
    m = re.search(r"vorschlag\s*(?:nr\.?\s*)?(\d)", low) or re.fullmatch(r"\(?(\d)\)?\.?", low)
    if m and 1 <= int(m.group(1)) <= len(vorschlaege):
        return vorschlaege[int(m.group(1)) - 1]
    for word, idx in _ORDINALS.items():
        if re.search(rf"\b{word}\b", low) and ("vorschlag" in low or len(low) < 30):
            return vorschlaege[idx]
    if named := suggestion_by_label(text, vorschlaege):  # "Standard passt", "ja, aber mehr Anwendung"
        return named
    if re.search(r"wie vorgeschlagen|passt so|einverstanden|^ja\b|^ok\b|^okay\b", low):
        return vorschlaege[0]
    return text


def answer_hash(answer: str) -> str:
    """A fingerprint of the answer (case and spacing ignored): the same answer twice is recognised."""
    return hashlib.sha256(" ".join(answer.lower().split()).encode()).hexdigest()
