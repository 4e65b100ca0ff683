"""Follow-ups that add a named sub-topic to the current material, as teachers phrase them: „Bitte noch eine reading
comprehension zu Australia ergänzen“, „Bitte auch das going-to-future aufnehmen“, „Nimm noch Fragen zum Gradnetz
dazu“, „Pack die Lenzsche Regel auch rein“, „mehr zu Brüchen“ — and the duration they should fill („…, damit es
90 Minuten werden“)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_CLAUSE_END = re.compile(r"[.!?;]|,\s*(?:damit|weil|denn|da|sodass|so\s+dass|das|die|der|dann|und\s+zwar)\b", re.I)
_VERB = (r"(?:ergänz\w*|hinzuzufügen|hinzufüg\w*|hinzunehm\w*|dazu(?:zu)?(?:nehm|pack|tu|geb)\w*|einfüg\w*|"
         r"einzufügen|aufnehm\w*|aufzunehmen|einbau\w*|einzubauen|(?:mit|auch|noch)\s+rein(?:nehm\w*|pack\w*)?|"
         r"rein(?:nehm|pack)\w*|mit\s+dazu|auch\s+dazu|mit\s+aufnehm\w*)")
_PARTICLE = r"(?:dazu|hinzu|mit\s+rein|auch\s+rein|noch\s+rein|rein|mit\s+auf|auf|ein|mit\s+dazu)"
_AFTER = re.compile(r"^(?:bitte\s+)?(?:(?P<verb>ergänz\w*)|füg\w*|nimm|nehmt|nehmen|pack\w*|bau\w*)\s+(?P<rest>.+?)"
                    r"(?(verb)|\s+" + _PARTICLE + r")$", re.I)
_BEFORE = re.compile(r"^(?P<rest>.+?)\s+" + _VERB + r"$", re.I)
_TASK_REF = re.compile(r"\b(?:teil)?aufgaben?\s*\d|\b\d{1,2}\s*[a-h]\)?(?![\wäöüß])", re.I)
_MORE = re.compile(r"\b(?:mehr|noch(?:\s+(?:ein\s+paar|einige|mehr|zwei|drei|vier|fünf|\d{1,2}))?)\s+"
                   r"(?:aufgaben|fragen|übungen|items)?\s*(?:zu[mr]?|über|aus\s+de[mr])\s+(?P<thema>[^.,;!?]+)", re.I)
_FILLER = re.compile(r"^(?:bitte|noch|auch|doch|mal|gern|gerne|unbedingt|sie|du|die|das|den|der|dem|des|eine|einen|"
                     r"ein|einer|weitere|weiteren|paar|einige|zwei|drei|vier|fünf|\d{1,2}|aufgaben?|fragen?|übung(?:en)?|"
                     r"teil|teile|zu|zum|zur|über|mit|dazu|hinzu|rein|hier|jetzt|kannst|könntest|können|könnten|würdest|würden|"
                     r"fehlt|fehlen|ist|sind|also|und)$", re.I)
_NEW_MATERIAL = re.compile(r"\b(neue[nrs]?|noch\s+eine|eine\s+weitere|weitere)\s+(klausur|klassenarbeit|arbeitsblatt|"
                           r"übung|quiz|test|lernkontrolle|material)\b", re.I)
_MINUTES = re.compile(r"\b(\d{2,3})\s*(?:min\b|min\.|minuten)", re.I)
_NOT_TOPIC = re.compile(r"^(?:aufgabe|aufgaben|frage|fragen|übung|übungen|noch\s+etwas|etwas|was|das|es)$", re.I)


@dataclass(frozen=True)
class Addition:
    """What the teacher wants added: the sub-topic in her words, and the exam duration it should fill."""

    thema: str
    minuten: int | None = None


def _trimmed(words: list[str]) -> list[str]:
    while words and _FILLER.match(words[0].strip("„“\"',")):
        words.pop(0)
    while words and _FILLER.match(words[-1].strip("„“\"',")):
        words.pop()
    return words


def _topic(clause: str) -> str | None:
    clause = clause.strip()
    found = _AFTER.match(clause) or _BEFORE.match(clause)
    if found is None:
        return None
    rest = found.group("rest")
    thema = " ".join(_trimmed(rest.split())).strip("„“\"' ")
    return thema if thema and not _NOT_TOPIC.match(thema) and len(thema) <= 80 else None


def _clauses(text: str) -> list[str]:
    parts, start = [], 0
    for m in _CLAUSE_END.finditer(text):
        parts.append(text[start:m.start()])
        start = m.start() + 1 if m.group(0) in ".!?;" else m.end()
    parts.append(text[start:])
    return [p for p in (x.strip(" ,") for x in parts) if p]


# „nimm die nächstliegenden Themen dazu“ chooses an option of a shortened material (agents/offline/shortfall.py): it
# names no sub-topic to add a task on
RELATED_TOPICS = re.compile(r"\b(nächstliegend|verwandt|benachbart|ähnlich|nachbar)\w*\s+(?:\w+\s+)?them", re.I)


def wants_addition(text: str) -> Addition | None:
    """The sub-topic a follow-up asks to add to the current material, or None (also for a new material: „noch eine
    Klausur …“). 'Bitte die Aufgaben zu magnetischem Fluss und Induktionsgesetz dazunehmen, damit es 90 Minuten
    werden.' -> Addition('magnetischem Fluss und Induktionsgesetz', 90)."""
    text = " ".join((text or "").split())
    if not text or _NEW_MATERIAL.search(text) or _TASK_REF.search(text) or RELATED_TOPICS.search(text):
        return None
    minutes = _MINUTES.search(text)
    for clause in _clauses(text):
        thema = _topic(clause)
        if thema is None and (more := _MORE.search(clause)):
            thema = " ".join(_trimmed(more.group("thema").split())) or None
        if thema:
            return Addition(thema=thema, minuten=int(minutes.group(1)) if minutes else None)
    return None


_REMOVE = r"(?:streich\w*|weglassen|wegnehmen|weg|raus(?:nehmen|lassen|werfen|streichen)?|entfern\w*|lösch\w*)"
_REMOVE_AFTER = re.compile(r"^(?:bitte\s+)?(?:(?P<verb>streich\w*|entfern\w*|lösch\w*)|nimm|nehmt|lass\w*|wirf)\s+"
                           r"(?P<rest>.+?)(?(verb)|\s+(?:raus|weg))$", re.I)
_REMOVE_BEFORE = re.compile(r"^(?P<rest>.+?)\s+(?:(?:kann|soll|muss|darf)\s+(?:bitte\s+)?)?" + _REMOVE + r"$", re.I)


def wants_removal(text: str) -> str | None:
    """The sub-topic a follow-up asks to take out of the current material ('Bitte die Normalverteilung weglassen',
    'Nimm die Fragen zu Sparta raus'), or None — numbered tasks („Streich Aufgabe 4“) are patches, not this."""
    text = " ".join((text or "").split())
    if not text or _NEW_MATERIAL.search(text) or _TASK_REF.search(text):
        return None
    for clause in _clauses(text):
        found = _REMOVE_AFTER.match(clause) or _REMOVE_BEFORE.match(clause)
        if found is None:
            continue
        thema = " ".join(_trimmed(found.group("rest").split())).strip("„“\"' ")
        if thema and not _NOT_TOPIC.match(thema) and len(thema) <= 80:
            return thema
    return None


_SWAP = re.compile(r"\b(?:statt|anstatt|anstelle)\s+(?P<alt>[^,.;!?]+?)\s*,?\s+(?:lieber|besser|bitte|doch|eher)\s+"
                   r"(?P<neu>[^,.;!?]+)|\b(?:ersetz\w*\s+)?(?P<alt2>[^,.;!?]+?)\s+durch\s+(?P<neu2>[^,.;!?]+?)"
                   r"(?:\s+ersetz\w*)?\s*(?:[,.;!?]|$)", re.I)


def wants_swap(text: str) -> tuple[str, str] | None:
    """'Statt der Normalverteilung lieber mehr zum Hypothesentest' -> ('Normalverteilung', 'Hypothesentest');
    'Ersetze die Aufgaben zu Sparta durch Fragen zu Athen' -> ('Sparta', 'Athen'); else None."""
    text = " ".join((text or "").split())
    if not text or _NEW_MATERIAL.search(text) or _TASK_REF.search(text) or not re.search(
            r"\b(statt|anstatt|anstelle|ersetz\w*)\b", text, re.I):
        return None
    m = _SWAP.search(text)
    if m is None:
        return None
    alt = " ".join(_trimmed([w for w in (m.group("alt") or m.group("alt2")).split() if not re.match(
        r"(?i)ersetz\w*$", w)]))
    neu = " ".join(_trimmed([w for w in (m.group("neu") or m.group("neu2")).split() if w.casefold() not in (
        "mehr", "nehmen", "machen", "nehmen.", "bringen")]))
    return (alt, neu) if alt and neu and not _NOT_TOPIC.match(alt) and not _NOT_TOPIC.match(neu) else None
