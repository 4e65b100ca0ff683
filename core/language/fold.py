"""Pasted teacher text made comparable: cleaned (HTML, dashes, invisible characters, whitespace) and folded with a
map back to the original characters; and the stricter fold the safety rules are written against."""

from __future__ import annotations

import html
import re
import unicodedata

from core.language.text import fold

# Longer texts are cut here; every parser on folded text is linear, this only bounds memory for absurd inputs.
MAX_CHARS = 200_000

_TAG_RE = re.compile(r"</?[A-Za-z!][^<>]{0,500}>")
_HSPACE_RE = re.compile(r"[^\S\n]+")
_NEWLINES_RE = re.compile(r" ?\n[\n ]*")
_TRANSLATE = {
    **dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-"),
    **dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None),
    ord("\u00a0"): " ",
}

# The rule fold: bidi and other invisible controls out (they hide words from patterns), quotes and dashes unified.
_RULE_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f\u202a\u202b\u202c\u202d"
                                         "\u202e"))
_RULE_MAP = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "’": "'", "‘": "'", "`": "'", "–": "-",
                           "—": "-", "‑": "-", "„": '"', "“": '"', "”": '"', "«": '"', "»": '"'})
_RULE_NEWLINES = re.compile(r" ?\n[\s]*")
_COMBINING = re.compile(r"[\u0300-\u036f]")


def prepare(text: str | None) -> str:
    """HTML tags and entities out, dashes unified, invisible characters dropped, whitespace collapsed."""
    if not text:
        return ""
    text = text[:MAX_CHARS]
    text = _TAG_RE.sub(" ", text)
    text = html.unescape(text)
    text = unicodedata.normalize("NFC", text).translate(_TRANSLATE)
    text = _HSPACE_RE.sub(" ", text)
    text = _NEWLINES_RE.sub("\n", text)
    return text.strip()


def fold_with_map(text: str) -> tuple[str, list[int] | None]:
    """The folded text and, for non-ASCII input, the original index of every folded character."""
    if text.isascii():
        return text.lower(), None
    out: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(text):
        rep = fold(ch)
        out.append(rep)
        index.extend([i] * len(rep))
    return "".join(out), index


def fold_for_rules(text: str) -> str:
    """The text the safety rules match: invisible and bidi characters dropped, NFC, case-folded, umlauts spelled
    out, typographic quotes and dashes unified, accents dropped, spaces collapsed (newlines kept), stripped."""
    text = unicodedata.normalize("NFC", text.translate(_RULE_INVISIBLE)).casefold().translate(_RULE_MAP)
    if not text.isascii():
        text = _COMBINING.sub("", unicodedata.normalize("NFKD", text))
    return _RULE_NEWLINES.sub("\n", _HSPACE_RE.sub(" ", text)).strip()
