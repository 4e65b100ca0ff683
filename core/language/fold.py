"""The one text fold: clean pasted teacher text, fold it for comparison (lower case, ä -> ae, ß -> ss, accents
dropped) with a map back to the original characters, and a crude German stem for word comparison."""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache

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
_UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
_SUFFIXES = ("ern", "en", "em", "er", "es", "e", "n", "s")


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


@lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    out = []
    for c in ch.lower():
        if c in _UMLAUTS:
            out.append(_UMLAUTS[c])
        elif c.isascii():
            out.append(c)
        else:
            base = "".join(x for x in unicodedata.normalize("NFKD", c) if not unicodedata.combining(x))
            out.append(base.lower() if base and base.isascii() else c)
    return "".join(out)


def fold(text: str) -> str:
    """Lower case, umlauts spelled out (ä -> ae), accents dropped: 'Brüche' and 'Brueche' fold alike."""
    if text.isascii():
        return text.lower()
    return "".join(_fold_char(c) for c in text)


def fold_with_map(text: str) -> tuple[str, list[int] | None]:
    """The folded text and, for non-ASCII input, the original index of every folded character."""
    if text.isascii():
        return text.lower(), None
    out: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(text):
        rep = _fold_char(ch)
        out.append(rep)
        index.extend([i] * len(rep))
    return "".join(out), index


def key(folded: str) -> str:
    """Umlaut plurals share a key with their singular: 'brueche' -> 'bruche' (stem 'bruch')."""
    return folded.replace("ae", "a").replace("oe", "o").replace("ue", "u")


@lru_cache(maxsize=65536)
def stem(folded: str) -> str:
    """A crude German stem, only ever compared with another stem: 'Stromkreisen' ~ 'Stromkreis'."""
    word = key(folded)
    for _ in range(3):
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
        else:
            break
    return word
