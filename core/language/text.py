"""The one text fold and crude German stemmer, and content words: what every matcher in the app compares.

fold: lower case, umlauts spelled out (ä -> ae), accents dropped. key: umlaut spellings merged (ae -> a), so
'Brüche', 'Brueche' and 'Bruche' meet. stem: a crude suffix stripper, only ever compared with another stem; it also
merges the spelling families German allows both ways (Potential/Potenzial, Photo-/Foto-, -graph/-graf), so every
matcher (covers, topicality, focus, duplicates) agrees on them.
fold_composed / fold_compatible: the same fold after Unicode normalisation, for text from files (decomposed
umlauts) and for the embedder, whose hashed features must never change.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
_UMLAUT_TABLE = str.maketrans(_UMLAUTS)
_SUFFIXES = ("ern", "en", "em", "er", "es", "e", "n", "s")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


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
    """'Brüche' -> 'brueche'; 'Café' -> 'cafe'."""
    if text.isascii():
        return text.lower()
    return "".join(_fold_char(c) for c in text)


def fold_composed(text: str) -> str:
    """fold() of the NFC-composed text: an 'u' followed by a combining diaeresis (PDF text) folds like 'ü'."""
    return fold(unicodedata.normalize("NFC", text))


def fold_compatible(text: str) -> str:
    """The embedder's fold: NFKC first ('ﬁ' -> 'fi', '²' -> '2'), umlauts spelled out, every combining mark dropped.

    The offline embedder hashes the words of this fold, so changing it changes every stored vector; retrieval
    compares query words with it for the same reason.
    """
    text = unicodedata.normalize("NFKC", text).lower().translate(_UMLAUT_TABLE)
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def key(folded: str) -> str:
    """Umlaut spellings merged: 'brueche' -> 'bruche'."""
    return folded.replace("ae", "a").replace("oe", "o").replace("ue", "u")


def fold_loose(text: str) -> str:
    """fold() with umlaut spellings and spelling families merged: 'Brüche', 'Brueche' and 'Bruche' all give
    'bruche'; 'Potential' and 'Potenzial' give 'potenzial'."""
    return spelling_family(key(fold(text)))


# Spelling families German allows both ways, merged before stemming (applied to the umlaut-merged fold):
# Potential/Potenzial, essentiell/essenziell; Photosynthese/Fotosynthese; Geographie/Geografie; Mikrophon/Mikrofon.
_FAMILIES = re.compile(r"ntiell|ntial|photo|graph|phon")
_FAMILY_SPELLING = {"ntiell": "nziell", "ntial": "nzial", "photo": "foto", "graph": "graf", "phon": "fon"}


def spelling_family(folded: str) -> str:
    """One spelling for the words German writes two ways: 'ruhepotential' -> 'ruhepotenzial', 'photosynthese' ->
    'fotosynthese', 'geographie' -> 'geografie'. Only these families: a general ph -> f would merge 'Phase' and
    'Faser'."""
    return _FAMILIES.sub(lambda m: _FAMILY_SPELLING[m.group()], folded) if "t" in folded or "ph" in folded else folded


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """'Stromkreisen' ~ 'Stromkreis', 'Brüche' ~ 'Bruch', 'Potential' ~ 'Potenzial' (input may be raw or folded)."""
    w = spelling_family(key(fold(word)))
    for _ in range(3):
        for suffix in _SUFFIXES:
            if w.endswith(suffix) and len(w) - len(suffix) >= 3:
                w = w[: -len(suffix)]
                break
        else:
            break
    return w


def words(text: str) -> list[str]:
    """The words of a text, in order, as written (numbers included)."""
    return _WORD.findall(text or "")


_STOP_TEXT = """
    a about an and are as at be but by can could did do does for from has have how if in into is it its not of on or
    so that the their them there these they this those to was were what when which who why will with would you your
    aber alle allem allen aller alles als also am an andere anderen anderer anderes auch auf aus bei beide beiden
    bei beim bis bitte da dabei dadurch dafuer daher damit dann darauf daraus darin darueber das dass dazu dein
    deine dem den denen denn der deren des dessen die dies diese diesem diesen dieser dieses doch dort du durch
    ein eine einem einen einer eines einige einigen einmal er es etwa etwas euch euer eure fuer gegen hat hatte
    haben hier ihm ihn ihnen ihr ihre ihrem ihren ihrer ihres im in indem ins ist ja je jede jedem jeden jeder
    jedes jeweils kann kannst koennen kein keine man mehr mit muss nach nicht noch nun nur ob oder ohne sehr sein
    seine seinem seinen seiner sich sie sind so sodass soll sollen sowie ueber um und uns unser unter vom von vor
    wann war waren warum was weil welche welchem welchen welcher welches wenn wer werden wie wieder wird wo woran
    worin zu zum zur zwischen
"""
STOPWORDS = frozenset(_STOP_TEXT.split())


def content_words(text: str) -> list[str]:
    """Folded words that carry meaning: no stopwords, no one-letter words."""
    out = []
    for w in words(text):
        f = fold(w)
        if len(f) > 1 and f not in STOPWORDS:
            out.append(f)
    return out


def stems(text: str) -> set[str]:
    """Stems of the content words (numbers kept as they are)."""
    return {w if w.isdigit() else stem(w) for w in content_words(text)}
