"""Follow-ups on the current material, read before anything else: which tasks the teacher wants struck, replaced,
added, made easier or harder, and whether the material should be shorter or longer.

Tasks are named by number („Aufgabe 2“, „die 4“, „Aufgaben 4 und 5“), by words („die Aufgabe zum Auflagedruck“)
or by quoted content („ohne „Vor dem Gesetz““). A message may hold several wishes („Streiche Aufgabe 3 und mach
Aufgabe 2 leichter“); a wish without its own reference takes the one named just before („Aufgabe 1 passt nicht.
Bitte durch eine Aufgabe zum Hebel ersetzen“). A complaint without a wish („Aufgabe 3 ist zu schwer“) is no edit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from core.editing.bank_material import material_wish
from core.language.additions import RELATED_TOPICS, wants_addition, wants_removal, wants_swap
from core.language.edits import joined_refs, niveau_named, task_numbers, without_task_numbers

KINDS = ("remove", "replace", "add", "easier", "harder", "shorter", "longer")


@dataclass(frozen=True)
class Intent:
    """One wish: `kind`, the tasks (or questions) by number (negative: counted from the end), the task(s) by words,
    the sub-topic to bring in, a duration, the Niveau of a differentiated sheet ('A'–'C'), how many to add."""

    kind: str
    tasks: tuple[int, ...] = ()
    words: str | None = None
    thema: str | None = None
    minuten: int | None = None
    niveau: str | None = None
    anzahl: int | None = None

    def canonical(self) -> list[str]:
        """'replace:1>zweiseitigen Hebel', 'remove~Auflagedruck', 'shorter:30' (the labelled set's notation): one
        per named task."""
        tail = f"{':' + str(self.minuten) if self.minuten else ''}{'>' + self.thema if self.thema else ''}"
        kind = f"{self.kind}*{self.anzahl}" if self.anzahl and self.anzahl > 1 else self.kind
        if self.tasks:
            return [f"{kind}:{self.niveau or ''}{n}{tail}" for n in self.tasks]
        return [f"{kind}{'@' + self.niveau if self.niveau else ''}{'~' + self.words if self.words else ''}{tail}"]


_SPLIT = re.compile(r"[.!?;:]\s|[.!?;]$|,\s*", re.I)
_AND = re.compile(r"\s+(?:und|sowie|aber)\s+(?=\S)", re.I)
_SUBTASK = re.compile(r"\bteilaufgabe|(?<![\w/])\d{1,2}\s?[a-h]\)?(?![\wäöüß])", re.I)
_NEW = re.compile(r"\b(erstell\w*|neue[nrs]?|noch\s+eine?\s+(?:klausur|klassenarbeit|arbeitsblatt|quiz|test)|"
                  r"klasse\s*\d{1,2}\b|jahrgang)", re.I)
_QUOTED = re.compile(r"[„\"»]([^“\"«]{2,60})[“\"«]")
_REPLACE = re.compile(r"\b(ersetz\w*|austausch\w*|auswechs\w*|anstelle|statt\s+(?:aufgabe|frage|de[rsmn]|die|das)|"
                      r"tausch\w*\b.*\bgegen)\b", re.I)
_INSTEAD = re.compile(r"\b(stattdessen|statt\s+dessen|dafür|lieber|besser)\b", re.I)
_REMOVE = re.compile(r"\b(streich\w*|lösch\w*|entfern\w*|weglass\w*|wegnehm\w*|weg|raus\w*|ohne|nicht\s+mehr|"
                     r"keine\s+\w+\s+mehr|brauch\w*\s+(?:ich|wir)\s+nicht)\b", re.I)
_ADD = re.compile(r"\b(ergänz\w*|dazu\w*|hinzu\w*|aufnehm\w*|aufzunehmen|rein\w*|einbau\w*|einfüg\w*|"
                  r"noch\s+(?:eine[n]?|ein|was|etwas|zwei|drei|\d)|mehr\s+zu\w*|fehlt)\b", re.I)
_NOT = re.compile(r"\bnicht\b(?!\s+mehr)", re.I)  # „gehört so nicht rein“ is a complaint, no addition
_EASIER = re.compile(r"\b(leichter|einfacher|vereinfach\w*)\b", re.I)
_HARDER = re.compile(r"\b(schwerer|anspruchsvoller|schwieriger|fordernder)\b", re.I)
_SHORTER = re.compile(r"\b(kürzer|kürz\w*|nur\s+\d{2,3}\s*min)", re.I)
_LONGER = re.compile(r"\b(länger|verlänger\w*)\b", re.I)
_HOW_MANY = re.compile(r"\bnoch\s+(zwei|drei|vier|fünf|[2-9])\s+(?:weitere\s+)?(?:fragen|aufgaben)\b", re.I)
_NUMBER_WORDS = {"zwei": 2, "drei": 3, "vier": 4, "fünf": 5}
_JUST_ONE = re.compile(r"\b(?:eine|1)\s+(?:weitere\s+)?(?:frage|aufgabe)\b", re.I)  # „noch eine Frage zu …“: one
_MINUTES = re.compile(r"\b(\d{2,3})\s*(?:min\b|min\.|minuten)", re.I)
_DURATION = re.compile(r"\b(soll\w*|dauer\w*|nur|auf)\b", re.I)
_ABOUT = re.compile(r"\b(?:zu[mr]?|über|mit|zu\s+de[nm]|mit\s+de[rnm]|gegen|durch|was\s+zu[mr]?|von)\b\s+(.+)$", re.I)
_THEMA_OF = re.compile(r"\bthema\s+(.+)$", re.I)
_EDGE = re.compile(r"^(?:bitte|noch|auch|doch|mal|gern|gerne|eine?[nmr]?|einige|weitere[n]?|was|etwas|die|das|den|"
                   r"der|dem|des|aufgaben?|fragen?|übung(?:en)?|zu[mr]?|über|mit|von|lieber|besser|dazu\w*|hinzu\w*|rein\w*|"
                   r"raus|weg|aus|ergänz\w*|ersetz\w*|aufnehm\w*|reinnehm\w*|hinzufüg\w*|streich\w*|weglass\w*|"
                   r"lösch\w*|entfern\w*|brauche?|ich|wir|nicht|mehr|kann|soll|darf|muss|sein|machen|nehmen|"
                   r"austausch\w*|stattdessen|dafür|vokabeln|vocabulary|gehört|passt|drin|hier|ja)$", re.I)


def _trim(words: list[str]) -> str:
    words = [w.strip(",;()") for w in words]
    while words and _EDGE.match(words[0].strip("„“\"")):
        words.pop(0)
    while words and _EDGE.match(words[-1].strip("„“\"")):
        words.pop()
    return " ".join(words).strip("„“\"' ")


def _about(piece: str) -> str | None:
    """The sub-topic or task words after „zum / zu den / mit der / durch eine …“ (the last such phrase)."""
    if quoted := _QUOTED.search(piece):
        return quoted.group(1).strip()
    rest = without_task_numbers(piece)
    found = None
    while m := _ABOUT.search(rest):
        found, rest = m.group(1), m.group(1)
    if found and (m := _THEMA_OF.search(found)):
        found = m.group(1)
    thema = _trim(found.split()) if found else ""
    return thema if thema and len(thema) <= 80 else None


def _with_material(piece: str, thema: str | None) -> str | None:
    """„Quellenaufgabe zur Julikrise“: the kind of material she asks for stays with the topic (add_bank_task reads
    it, decision 041) — the topic phrase alone („Julikrise“) would let a task without a source in."""
    asked = next((w for w in piece.split() if material_wish(w.strip(".,;:!?"))[1]), None)
    if asked is None or (thema and material_wish(thema)[1]):
        return thema
    return f"{asked.strip('.,;:!?')} {thema}" if thema else asked.strip(".,;:!?")


def _kind(piece: str) -> str | None:
    if _REPLACE.search(piece):
        return "replace"
    for kind, pattern in (("easier", _EASIER), ("harder", _HARDER), ("shorter", _SHORTER), ("longer", _LONGER)):
        if pattern.search(piece):
            return kind
    if _REMOVE.search(piece):
        return "remove"
    if (_ADD.search(piece) and not _NOT.search(piece)) or (_INSTEAD.search(piece) and _about(piece)):
        return "add"
    if _MINUTES.search(piece) and _DURATION.search(piece):
        return "shorter"
    return None


def _read(piece: str, kind: str, refs: tuple[int, ...], before: tuple[int, ...]) -> Intent:
    tasks = refs or (before if kind in ("remove", "replace", "easier", "harder") else ())
    minutes = _MINUTES.search(piece)
    if kind in ("shorter", "longer"):
        return Intent(kind, minuten=int(minutes.group(1)) if minutes else None)
    if kind in ("easier", "harder"):
        return Intent(kind, tasks=tasks)
    if kind == "remove":
        return Intent(kind, tasks=tasks, words=None if tasks else (_about(piece) or wants_removal(piece)))
    if kind == "add":
        addition = wants_addition(piece)
        thema = _about(piece) or (addition.thema if addition else None)
        return Intent(kind, thema=_with_material(piece, thema), minuten=int(minutes.group(1)) if minutes else None)
    left, sep, right = _split(piece)
    if not sep and not tasks and (swap := wants_swap(piece)):  # „Statt der Normalverteilung lieber Hypothesentest“
        return Intent(kind, words=swap[0], thema=swap[1])
    if not sep and not tasks:  # „Die Aufgabe zum Auflagedruck bitte ersetzen“: by what is still open
        return Intent(kind, words=_about(piece))
    old = None if tasks or not sep else _about(left)
    thema = _about(right) if sep else _about(piece)
    return Intent(kind, tasks=tasks, words=old, thema=thema)


def _split(piece: str) -> tuple[str, str, str]:
    parts = re.split(r"\b(durch|gegen)\b", piece, maxsplit=1, flags=re.I)
    return (parts[0], parts[1], parts[2]) if len(parts) == 3 else (piece, "", "")


def _merged(intents: list[tuple[Intent, bool]]) -> list[Intent]:
    """A wish that only completes the one before („bitte löschen“ after „Aufgabe 5 brauche ich nicht“, „lieber was
    zum Hebelgesetz“ after „Aufgabe 4 austauschen“, „stattdessen …“ after a strike) joins it."""
    out: list[Intent] = []
    for intent, instead in intents:
        last = out[-1] if out else None
        if last and last.kind == "replace" and last.thema is None and intent.kind == "add" and intent.thema:
            out[-1] = replace(last, thema=intent.thema)
        elif last and last.kind == "remove" and last.tasks and intent.kind == "add" and intent.thema and instead:
            out[-1] = Intent("replace", tasks=last.tasks, thema=intent.thema)
        elif last and intent.kind == last.kind and intent.minuten and not last.minuten:
            out[-1] = intent
        elif last and intent.kind == last.kind and (not intent.thema or intent.thema == last.thema) and (
                intent.tasks == last.tasks or not intent.tasks):
            continue
        elif last and last.kind == "add" and intent.kind == "add" and not last.thema:
            out[-1] = intent
        else:
            out.append(intent)
    return out


def _and_split(piece: str) -> list[str]:
    """„Streiche Aufgabe 3 und mach Aufgabe 2 leichter“ is two wishes; „Fluss und Induktionsgesetz dazunehmen“ one."""
    parts = _AND.split(piece)
    out = [parts[0]]
    for part in parts[1:]:
        if _kind(part) and _kind(out[-1]):
            out.append(part)
        else:
            out[-1] = f"{out[-1]} und {part}"
    return out


def _with_minutes(intents: list[Intent], text: str) -> list[Intent]:
    """„…, damit es 90 Minuten werden“: the duration an addition should fill, unless it is a wish of its own."""
    minutes = _MINUTES.search(text)
    if not minutes or any(i.kind in ("shorter", "longer") or i.minuten for i in intents):
        return intents
    return [replace(i, minuten=int(minutes.group(1))) if i.kind == "add" else i for i in intents]


def classify(text: str) -> list[Intent]:
    """The edit wishes of a follow-up, in the order the teacher wrote them; [] when it asks for no such edit (also
    for a new request, and for sub-task edits like „2a streichen“ that are patches of their own)."""
    text = joined_refs(text)
    if not text or _SUBTASK.search(text) or _NEW.search(text) or RELATED_TOPICS.search(text):
        return []
    found: list[tuple[Intent, bool]] = []
    before: tuple[int, ...] = ()
    niveau = niveau_named(text)
    pieces = [q for p in _SPLIT.split(text) if p and p.strip() for q in _and_split(p.strip())]
    carry = ""
    for piece in pieces:
        piece = f"{carry} {piece}".strip() if carry else piece
        refs = task_numbers(piece)
        kind = _kind(piece)
        if kind is None:
            before = refs or before
            carry = piece if refs and not re.search(r"\b(ist|sind|passt|gehört|war)\b", piece, re.I) else ""
            continue
        carry = ""
        instead = bool(_INSTEAD.search(piece))
        if kind == "add" and instead and before and not found:  # „Aufgabe 2 passt nicht, stattdessen eine zu …“
            kind = "replace"
        found.append((_placed(_read(piece, kind, refs, before), piece, niveau), instead))
        before = refs or before
    return _with_minutes(_merged(found), text)


def _placed(intent: Intent, piece: str, niveau: str | None) -> Intent:
    """The Niveau a strike or a level change is on („Niveau C: Aufgabe 2 raus“), how many an addition brings („noch
    zwei Fragen zu …“)."""
    if intent.kind == "add" and (many := _HOW_MANY.search(piece)):
        word = many.group(1).casefold()
        return replace(intent, anzahl=_NUMBER_WORDS.get(word) or int(word))
    if intent.kind == "add" and _JUST_ONE.search(piece):
        return replace(intent, anzahl=1)
    if intent.kind in ("remove", "easier", "harder") and (named := niveau_named(piece) or niveau):
        return replace(intent, niveau=named)
    return intent
