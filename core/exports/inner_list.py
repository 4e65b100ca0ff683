"""A task's own enumeration „a) … b) …“ (or „1) … 2) …“) as printed: set as a list when each part is a thing of its
own to work on, kept in the sentence when it runs through one („für a) 20° und b) 60°“), and renumbered (1), (2) …
inside an exam's Teilaufgabe so it never reads like the exam's own a), b) labels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MARK = re.compile(r"(?:(?<=\s)|^)\(?([a-h]|[1-9])\)\s+")  # „a) “, „1) “ and, renumbered for print, „(1) “
_CLAUSE_END = re.compile(r"[:.?!–—-]\s*$|[.?!][“”\"'’)]\s*$")  # the text before a list ends a clause
_JOINED = re.compile(r"\b(?:und|oder|sowie|bzw\.|and|or)\s*$", re.I)  # „a) 20° und b) 60°“
_SIBLINGS = re.compile(
    r"\b(Teilaufgaben?|Ergebnis(?:se)?\s+(?:aus|von)|results?\s+(?:of|from))\s*$", re.I
)  # „aus a) und b)“
_STOP = re.compile(r"[.?!“”\"'’)]$")
_BOUNDARY = re.compile(r"\.[“”\"'’)]*\s+(?=[„\"'‘]?[A-ZÄÖÜ])")  # not after „Listen!“ or „Warum?“ inside a part
_NO_END = re.compile(r"(?:\b\d+|\b\w|\b(?:Mr|Mrs|Ms|Dr|St|Nr|bzw|vgl|ca|etc|z\. B|u\. a|d\. h|S))\.$")


@dataclass(frozen=True)
class InnerList:
    """A task text as intro, its own list (one entry per part, with its mark) and what follows the list."""

    intro: str
    items: tuple[str, ...]
    tail: str = ""


def _chain(text: str) -> list[re.Match[str]]:
    """The marks of the task's own list: „a)“ (or „1)“) and the marks that follow it in order."""
    marks = list(_MARK.finditer(text))
    start = next((i for i, m in enumerate(marks) if m.group(1) in "a1"), None)
    if start is None:
        return []
    chain = [marks[start]]
    for m in marks[start + 1 :]:
        if ord(m.group(1)) == ord(chain[-1].group(1)) + 1:
            chain.append(m)
    return chain if len(chain) >= 2 else []


def _depths(text: str) -> list[int]:
    """How deep inside quotation marks („…“, ‚…‘, “…”) each character of `text` stands."""
    out, depth = [], 0
    for i, ch in enumerate(text):
        if ch in "„‚":
            depth += 1
        elif ch in "“”‘’" and depth:
            depth -= 1
        elif ch in "“‘" and (i == 0 or text[i - 1].isspace()):
            depth += 1
        out.append(depth)
    return out


def _sentence_ends(text: str) -> list[int]:
    """Where sentences end with a full stop in `text` (outside quotation marks; not after a number, an initial or
    „z. B.“)."""
    depths = _depths(text)
    return [
        m.end()
        for m in _BOUNDARY.finditer(text)
        if depths[m.end() - 1] == 0 and not _NO_END.search(text[: m.start() + 1])
    ]


def _split_tail(items: list[str], lined: bool) -> tuple[list[str], str]:
    """What follows the last part: its next line, else the sentences the last part has beyond what every other part
    has („… e) 31st December. Then answer: When is your birthday?“)."""
    last = items[-1]
    if lined or "\n" in last:  # a line break ends the list („3) You must …\nA) … bring a pen“)
        head, _, tail = last.partition("\n")
        return [*items[:-1], head.strip()], tail.strip()
    ends = _sentence_ends(last)
    most = max(len(_sentence_ends(i)) for i in items[:-1])
    if len(ends) <= most:
        return items, ""
    cut = ends[most]
    tail = last[cut:].strip()
    if tail.endswith("?") and ":" not in tail:  # a question after the last part is that part's („… Wie viel Zeit?“)
        return items, ""
    return [*items[:-1], last[:cut].strip()], tail


def _tidy(items: list[str]) -> list[str]:
    """Parts written as one sentence („a) 3,5 km in Meter, b) …, d) 650 cm in Meter.“) lose its commas and its one
    full stop once each stands on its own line."""
    bare = [i.rstrip(",;").rstrip() for i in items[:-1]]
    last = items[-1]
    if not any(_STOP.search(i) for i in bare) and last.endswith(".") and not last.endswith(".."):
        last = last[:-1]
    return [*bare, last]


def inner_list(text: str) -> InnerList | None:
    """The task's own list when it is set as one; None when the text has none or the list runs through a sentence
    (then the text is printed as it stands)."""
    chain = _chain(text)
    if not chain:
        return None
    intro = text[: chain[0].start()].strip()
    items = [
        text[m.start() : (chain[i + 1].start() if i + 1 < len(chain) else len(text))].strip()
        for i, m in enumerate(chain)
    ]
    lined = all(m.start() == 0 or text[m.start() - 1] == "\n" for m in chain)
    if not lined and ((intro and not _CLAUSE_END.search(intro)) or any(_JOINED.search(i) for i in items[:-1])):
        return None
    items, tail = _split_tail(items, lined)
    return InnerList(intro, tuple(_tidy(items) if not lined else items), tail)


def task_parts(text: str) -> InnerList:
    """A task text as printed: its own list on lines of their own, or the whole text as it stands."""
    return inner_list(text.strip()) or InnerList(text.strip(), ())


def renumbered(texts: list[str]) -> list[str]:
    """Inside a Teilaufgabe the task's own letters a), b) … become (1), (2) …, in the task (in its list, in its
    sentence, and where it refers to them: „commas in b)“) and in its Erwartungshorizont alike; a list of numbers
    „1) 2)“ becomes (1), (2) as well so both read the same. Letters that name the exam's own Teilaufgaben („die
    Ergebnisse aus a) und b)“) stay."""
    chain = _chain(texts[0])
    if not chain or _SIBLINGS.search(texts[0][: chain[0].start()]):
        return texts
    marks = {m.group(1): str(i) for i, m in enumerate(chain, start=1)}
    # never a number closing a bracket in a term: „(−4)“, „13 · (−1)“ („−“ is U+2212, not the hyphen)
    pattern = re.compile(rf"(?<![\w(/.,\-−+·×*:=<>^])([{''.join(marks)}])\)(?!\w)")
    return [pattern.sub(lambda m: f"({marks[m.group(1)]})", x) for x in texts]
