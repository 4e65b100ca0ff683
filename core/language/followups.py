"""Follow-ups about the material just made, read from German chat messages: a file format ("auch als PDF?"), an
earlier version ("zurück zu Version 1"), a value swapped in one sub-task ("in 1a bitte 24 Ω statt 12 Ω")."""

from __future__ import annotations

import re

from core.language.stopwords import ARTICLES, META_WORDS
from core.language.text import fold
from core.materials import patch_ops as patch

FORMATS = {"pdf": "PDF", "docx": "DOCX", "word": "DOCX", "h5p": "H5P", "moodle": "Moodle-XML", "zip": "ZIP"}
_FORMAT = re.compile(r"\b(?:als|im|in|auch|noch|eine?n?|das|die)\b[^.?!]{0,40}?\b(pdf|docx|word|h5p|moodle|zip)"
                     r"(?:-?(?:datei|version|fassung|format|dokument))?\b", re.I)
_NEW_MATERIAL = re.compile(r"\b(neue|neuen|noch eine|eine weitere|weitere)\s+(klausur|klassenarbeit|arbeitsblatt|"
                           r"übung|quiz)\b", re.I)
_VERSION = re.compile(r"\b(?:zurück\s+(?:zu|auf)\s+(?:der\s+)?|nimm\s+(?:wieder\s+)?(?:die\s+)?|"
                      r"(?:stell\w*|hol\w*|mach\w*)\s+(?:bitte\s+)?(?:die\s+)?|wiederherstell\w*\s+(?:der\s+)?)?"
                      r"version\s*(?:nr\.?\s*)?(\d{1,3})\b", re.I)
_RESTORE_CUE = re.compile(r"\b(zurück|wieder|wiederherstell\w*|restore|nimm|stattdessen|doch\s+lieber|rückgängig)",
                          re.I)
_REF = re.compile(r"(?:\b(?:teil)?aufgabe\s*)?(?<![\w/.,])(\d{1,2})\s*([a-h])?\)?(?![a-zäöüß\d])", re.I)
_VALUE = r"\d[\d.,]*\s*(?:[A-Za-zΩµ°%²³/·]+[A-Za-z²³]*)?"
_SWAP = re.compile(rf"(?P<neu>{_VALUE})\s+(?:statt|anstatt|anstelle\s+von|anstelle)\s+(?P<alt>{_VALUE})", re.I)
_SWAP_BY = re.compile(rf"(?P<alt>{_VALUE})\s+(?:durch|gegen|zu|in)\s+(?P<neu>{_VALUE})\s+(?:ersetz|tausch|änder)\w*",
                      re.I)


def wants_format(text: str) -> str | None:
    """'kannst du mir die Klausur auch als PDF geben?' -> 'pdf'; None for other messages or a new material."""
    if _NEW_MATERIAL.search(text or ""):
        return None
    m = _FORMAT.search(text or "")
    return m.group(1).casefold() if m else None


def wants_version(text: str) -> int | None:
    """'bitte zurück zu Version 1', 'nimm wieder Version 2', 'Version 1 wiederherstellen' -> the version number."""
    m = _VERSION.search(text or "")
    if m is None or not _RESTORE_CUE.search(text):
        return None
    return int(m.group(1))


def value_swap(text: str) -> patch.ReplaceText | None:
    """'in 1a bitte 24 Ω statt 12 Ω' -> replace '12 Ω' by '24 Ω' in the text of 1a (needs a sub-task reference)."""
    swap = _SWAP.search(text or "") or _SWAP_BY.search(text or "")
    if swap is None:
        return None
    rest = text[: swap.start()] + " " + text[swap.end():]
    ref = next((m for m in _REF.finditer(rest) if m.group(2)), None)
    if ref is None:
        return None
    alt, neu = swap.group("alt").strip(), swap.group("neu").strip()
    if not alt or alt == neu:
        return None
    return patch.ReplaceText(ziel=f"{ref.group(1)}{ref.group(2).casefold()}", alt=alt, text=neu)


_VERB = r"(?:ergänz\w*|hinzufüg\w*|hinzunehm\w*|dazu(?:nehm|pack|tu|geb)\w*|einfüg\w*|aufnehm\w*|dazu)"
_ADD_ON = re.compile(r"\b(?:noch\s+)?(?:eine|1)\s+(?:weitere\s+)?aufgabe\s+(?:zur|zum|zu|über|aus\s+der|aus\s+dem)\s+"
                     r"(?P<thema>[^.,;!?]+?)\s+" + _VERB + r"(?![a-zäöüß])", re.I)
_ADD_ON_AFTER = re.compile(r"\b" + _VERB + r"\s+(?:sie\s+|du\s+)?(?:bitte\s+)?(?:noch\s+)?(?:eine|1)\s+(?:weitere\s+)?"
                           r"aufgabe\s+(?:zur|zum|zu|über)\s+(?P<thema>[^.,;!?]+)", re.I)
_ONE_MORE = re.compile(r"\b(?:noch\s+)?(?:eine|1)\s+(?:weitere\s+)?aufgabe\s+(?:mehr|dazu|zusätzlich)\b|"
                       r"\bnoch\s+eine\s+(?:weitere\s+)?aufgabe\s*(?:bitte\s*)?[.!]?\s*$|"
                       r"\b(?:ergänz\w*|füg\w*)\s+(?:bitte\s+)?noch\s+eine\s+(?:weitere\s+)?aufgabe\s*(?:hinzu|an|dazu)?"
                       r"\s*(?:bitte)?[.!]?\s*$", re.I)
_TRAILING = re.compile(r"\s+(?:bitte|noch|dazu|hinzu|an)$", re.I)


def wants_added_task(text: str) -> tuple[bool, str | None]:
    """'Bitte noch eine Aufgabe zur Zinsrechnung ergänzen' -> (True, 'Zinsrechnung'); 'noch eine Aufgabe mehr' ->
    (True, None); other messages (and new materials: 'noch eine Klausur …') -> (False, None)."""
    text = " ".join((text or "").split())
    if _NEW_MATERIAL.search(text):
        return False, None
    m = _ADD_ON.search(text) or _ADD_ON_AFTER.search(text)
    if m:
        thema = m.group("thema").strip()
        while (cut := _TRAILING.sub("", thema)) != thema:
            thema = cut
        return True, thema.strip("„“\"' ") or None
    return (True, None) if _ONE_MORE.search(text) else (False, None)


# „Bitte noch eine reading comprehension zu Australia ergänzen“, „Bitte die Fragen zum Gradnetz dazunehmen“, „Bitte auch
# das going-to-future aufnehmen“: a part of the topic (not „eine Aufgabe“) added to the material just made
_ADD_PART = re.compile(r"\b(?:(?:noch|auch)\s+(?:(?:eine?n?|das|die|den|der)\s+)?|(?:die|den|das)\s+)(?:weiteren?\s+)?"
                       r"(?:(?P<kind>[^.,;!?]{1,40}?)\s+(?:zur|zum|zu|über)\s+)?(?P<thema>[^.,;!?]{2,60}?)\s+"
                       + _VERB + r"(?![a-zäöüß])", re.I)


def wants_added_part(text: str) -> str | None:
    """The part of the topic a follow-up wants added: 'Bitte noch eine reading comprehension zu Australia ergänzen'
    -> 'Australia', 'Bitte auch das going-to-future aufnehmen' -> 'going-to-future'; None for other messages (and for
    a new material: 'noch ein Arbeitsblatt zu Brüchen')."""
    text = " ".join((text or "").split())
    if _NEW_MATERIAL.search(text) or _NEW_KIND.search(text):
        return None
    m = _ADD_PART.search(text)
    if m is None:
        return None
    thema = m.group("thema").strip()
    while (cut := _TRAILING.sub("", thema)) != thema:
        thema = cut
    if all(w in META_WORDS or w in ARTICLES for w in fold(thema).split()):
        return None  # „den Erwartungshorizont ergänzen“, „die Lösungen dazu“: part of the material, not of the topic
    return thema.strip("„“\"' ") or None


_NEW_KIND = re.compile(r"\b(?:klausur|klassenarbeit|arbeitsblatt|test|quiz|h5p|übungsblatt|lernkontrolle)\b", re.I)


_WHOLE_TOPIC = re.compile(r"\b(?:das|den)\s+(?:ganze|gesamte|komplette|vollständige)n?s?\s+(?:thema|stoff|bereich)"
                          r"(?:\s+(?P<thema>[^.,;!?]+?))?(?:\s+(?:nehmen|abdecken|behandeln|abfragen|verwenden|"
                          r"drannehmen)\w*)?\s*(?:[.,;!?]|$)", re.I)


_NOT_TOPIC = re.compile(r"^(?:bitte|nehmen|abdecken|behandeln|abfragen|verwenden|drannehmen|nutzen|rein|dazu)$", re.I)


def wants_whole_topic(text: str) -> tuple[bool, str | None]:
    """'Bitte das ganze Thema Expressionismus nehmen' -> (True, 'Expressionismus'); 'das ganze Thema abdecken' ->
    (True, None); else (False, None)."""
    m = _WHOLE_TOPIC.search(" ".join((text or "").split()))
    if m is None:
        return False, None
    words = (m.group("thema") or "").split()
    while words and _NOT_TOPIC.match(words[-1]):
        words.pop()
    thema = " ".join(words).strip("„“\"' ")
    return True, thema or None
