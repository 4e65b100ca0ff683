"""Requests written in English (for the Englisch class): "I need a test for year 9 on the present perfect".

The request reader reads them with the German rules (numbers, material words, "year 9"); this module adds what only
English needs: recognising the language and reading the topic after "on"/"about".
"""

from __future__ import annotations

import re

_ENGLISH = frozenset(str.split("""
    i i'd i'm we need would like could can you please make create give prepare write a an the for on about my our
    class year grade test quiz worksheet exam questions minutes with some some and of"""))
_GERMAN = frozenset(str.split("""
    ich wir du bitte brauche brauchen und für fuer eine einen ein der die das zu zum zur mit klasse jahrgang zu
    über ueber mach mache erstelle hätte haette gern gerne"""))
_WORD = re.compile(r"[A-Za-zÄÖÜäöüß']+")
_TOPIC = re.compile(
    r"\b(?:on|about|covering|regarding)\s+(?:the\s+|a\s+|an\s+)?([^,.;?!\n]{1,60}?)"
    r"(?=\s+(?:for|with|in|at|please|by|to)\b|\s*[,.;?!\n]|\s*$)",
    re.I,
)


def is_english(text: str) -> bool:
    """A message written in English rather than German (a few function words decide)."""
    words = [w.lower() for w in _WORD.findall(text[:2000])]
    english = sum(w in _ENGLISH for w in words)
    german = sum(w in _GERMAN for w in words)
    return english >= 3 and english > 2 * german


def english_topic(text: str) -> str | None:
    """The topic named after "on"/"about" in an English request, as written."""
    m = _TOPIC.search(text[:2000])
    if m is None:
        return None
    topic = m.group(1).strip(" \"'")
    return topic or None


# „English 7 worksheet: comparison of adjectives, bitte mit drei Niveaus“: the English words after the material's colon
_COLON_TOPIC = re.compile(r"\b(?:worksheet|test|quiz|exam|klausur|klassenarbeit|arbeitsblatt)\b[^:\n]{0,20}:\s*"
                          r"([a-z][a-z' -]{2,60}?)\s*(?=[,.;?!\n]|$)")
# „animals vocabulary“, „food words“: the words of a topic; the topic is what they are about
_VOCABULARY = re.compile(r"(?<![\w-])([a-z][a-z]{2,}(?: [a-z]{3,})?) (?:vocabulary|words)\b")
_NOT_A_SUBJECT = frozenset(str.split("new key basic important useful some more the and of english german"))


def colon_topic(text: str) -> str | None:
    """The English topic after the colon of a material word, in lower case as written; None without one."""
    m = _COLON_TOPIC.search(text[:2000])
    return m.group(1).strip() if m else None


def vocabulary_topic(text: str) -> str | None:
    """What the vocabulary a request names is about: „animals vocabulary“ -> „animals“."""
    m = _VOCABULARY.search(text[:2000])
    if m is None or any(w in _NOT_A_SUBJECT for w in m.group(1).split()):
        return None
    return m.group(1)
