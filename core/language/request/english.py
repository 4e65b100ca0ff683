"""Requests written in English (for the Englisch class): "I need a test for year 9 on the present perfect".

The request reader reads them with the German rules (numbers, material words, "year 9"); this module adds what only
English needs: recognising the language and reading the topic after "on"/"about".
"""

from __future__ import annotations

import re

from core.language.document import MARK, Doc

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


# „Quiz for year 12 basic course: …“, „an exam for my year 12 advanced course on …“: words that lead to the class
_FOR_CLASS = frozenset(("for", "my", "our", "your", "the", "this"))
_CLASS_WORDS = frozenset(("class", "course", "group", "students", "pupils", "learners"))


def leads_to_class(doc: Doc, i: int) -> bool:
    """The word at i is an English „for“/„my“ that leads to the class or course named right after it (already read
    as Klasse or Niveau), never a topic: the „For“ a quiz on the Commonwealth was once titled (decision 061)."""
    toks = doc.tokens
    if toks[i].fold in _CLASS_WORDS and i > 0 and toks[i - 1].consumed and toks[i].brk == 0:
        return True  # „my year 7 class“
    if toks[i].fold not in _FOR_CLASS:
        return False
    j = i + 1
    while j < len(toks) and toks[j].fold in _FOR_CLASS and toks[j].brk == 0 and j - i < 3:
        j += 1
    return j < len(toks) and toks[j].brk == 0 and toks[j].consumed and not toks[j].area


_BOUNDARY = re.compile(r"[,;:()\n!?–—]|\s-\s|\.(?:\s|$)")
_LOWER_WORD = re.compile(r"[a-z][a-z'-]*")
_WORD_OF_ENGLISH = re.compile(r"[A-Za-z][a-z'-]*")
_LEAD_MARKERS = frozenset(("thema", "topic", "zum", "zu", "on", "about"))
_NOT_ENGLISH = _GERMAN | frozenset(str.split("""
    mit und oder plus bitte auch nur min minuten fragen aufgaben ohne sowie inkl inklusive als questions minutes
    exam test quiz worksheet vocabulary words"""))
_MAX_EXTRA_WORDS = 6
_ARTICLES = frozenset(("the", "a", "an", "den", "die", "der", "das", "dem"))
_LINKS = frozenset(("for", "of", "the", "and", "in", "to", "on", "between", "from"))


def whole_clause(text: str, thema: str, *, in_english: bool) -> str | None:
    """The English topic the reader cut short, as the teacher wrote it in its clause: „Globalisation and its
    effects“, „India and the end of the Empire“, „post-colonial Nigeria“ (lower-case English words are no German
    adjectives). None unless the rest of the clause is English words, in lower case in a German request."""
    at = text.lower().find(thema.lower())
    if at < 0 or len(text) > 2000:
        return None
    start = max((m.end() for m in _BOUNDARY.finditer(text, 0, at)), default=0)
    stop = _BOUNDARY.search(text, at + len(thema))
    end = stop.start() if stop else len(text)
    before = text[start:at].split()
    lead = [k for k, w in enumerate(before) if w.lower() in _LEAD_MARKERS]
    before = before[lead[-1] + 1:] if lead else before
    while before and before[0].lower() in _ARTICLES:  # the reader drops a leading article, and so does this
        before.pop(0)
    after = text[at + len(thema):end].split()
    extra = before + after
    if not extra or len(extra) > _MAX_EXTRA_WORDS:
        return None
    # in a German request a capitalised word may be German („Englisch Arbeitsblatt Question Tags“): only an English
    # link word makes the clause English („The Struggle for Independence in India“)
    english = in_english or any(w in _LINKS for w in extra)
    word = _WORD_OF_ENGLISH if english else _LOWER_WORD
    if not all(word.fullmatch(w.removesuffix(MARK)) and w.lower() not in _NOT_ENGLISH for w in extra):  # „vs.“
        return None
    return " ".join([*before, text[at:at + len(thema)], *after])
