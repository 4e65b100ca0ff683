"""One document, printed once: two materials of an exam that are the same source (the Déclaration of 1789 in two
translations, brought in by two tasks) are printed as one — the one the tasks cite most — and the other task is
pointed to it ("Material: M3 – abgedruckt bei Aufgabe 3"; its "M1" references become "M3").

Same document means: the headings name the same document (the same content words and years, „Auszug“ and the like
aside) and the texts share most of their words. A parody or a reply (Olympe de Gouges on the Déclaration) shares
words but not the heading, so it stays. A task whose line citations ("Z. 3") refer to the material it would lose
keeps it: a translation's line numbers are not the other's.
"""

from __future__ import annotations

import re

from core.materials.blocks import MaterialBlock
from core.materials.klausur import Aufgabe

_WORD = re.compile(r"[^\W\d_]{4,}|\d{3,4}")
_NOT_NAMING = frozenset({"auszug", "eigene", "übersetzung", "gekürzt", "vereinfacht", "material", "quelle", "text",
                         "verabschiedet", "nach", "from", "extract", "abridged", "translated"})
_LINE_CITE = re.compile(r"\b(Z\.|Zl\.|Zeilen?|ll?\.|lines?|V\.|Vers(e|en)?)\s*\d", re.I)
_LABEL = re.compile(r"^\s*M\s?(\d+)\b")
_M_REF = re.compile(r"\bM\s?(\d+)\b")
TITLE_OVERLAP = 0.8  # share of the shorter heading's naming words the other heading has
TEXT_OVERLAP = 0.5  # share of the shorter text's words (of four letters or more) the other text has


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.casefold()) if w not in _NOT_NAMING}


def _heading(block: MaterialBlock) -> str:
    """What names the document: its title, or (for a generic title) the first line of its text, and its source."""
    titel = _LABEL.sub("", block.titel).strip(" :–-")
    if len(_words(titel)) < 2 and block.text:
        titel = block.text.strip().split("\n", 1)[0]
    return titel


def _containment(a: set[str], b: set[str]) -> float:
    small = min(len(a), len(b))
    return len(a & b) / small if small else 0.0


def same_document(a: MaterialBlock, b: MaterialBlock) -> bool:
    if not (a.text and b.text) or a.tabelle is not None or b.tabelle is not None:
        return False
    names_a, names_b = _words(_heading(a)), _words(_heading(b))
    if min(len(names_a), len(names_b)) < 3 or _containment(names_a, names_b) < TITLE_OVERLAP:
        return False
    return _containment(_words(a.text), _words(b.text)) >= TEXT_OVERLAP


def _label(block: MaterialBlock) -> str | None:
    m = _LABEL.match(block.titel)
    return f"M{m.group(1)}" if m else None


def _texts(a: Aufgabe) -> list[str]:
    return [x for t in a.teilaufgaben for x in (t.text, *(k.text for k in t.erwartung))]


def _citations(aufgaben: list[Aufgabe], label: str | None) -> int:
    if not label:
        return 0
    pattern = re.compile(rf"\bM\s?{label[1:]}\b")
    return sum(1 for a in aufgaben for t in a.teilaufgaben if pattern.search(t.text))


def _cites_lines(a: Aufgabe) -> bool:
    return any(_LINE_CITE.search(t) for t in _texts(a))


def _relabel(text: str, old: str | None, new: str) -> str:
    return re.sub(rf"\bM\s?{old[1:]}\b", new, text) if old else text


def _pointed(a: Aufgabe, dropped: MaterialBlock, kept_label: str, kept_in: int) -> Aufgabe:
    old = _label(dropped)
    teile = [t.model_copy(update={
        "text": _relabel(t.text, old, kept_label),
        "erwartung": [k.model_copy(update={"text": _relabel(k.text, old, kept_label)}) for k in t.erwartung]})
        for t in a.teilaufgaben]
    hinweis = f"{kept_label} – abgedruckt bei Aufgabe {kept_in}"
    material = "\n\n".join(x for x in (a.material, hinweis) if x and x.strip())
    return a.model_copy(update={"materialien": [b for b in a.materialien if b is not dropped], "teilaufgaben": teile,
                                "material": material})


def _renumbered(aufgaben: list[Aufgabe]) -> list[Aufgabe]:
    """M labels in print order again (M1, M2 … without the gap a dropped material left), every reference along."""
    order = [label for a in aufgaben for b in a.materialien if (label := _label(b))]
    mapping = {old[1:]: str(n) for n, old in enumerate(order, start=1)}
    if all(k == v for k, v in mapping.items()):
        return aufgaben

    def sub(text: str | None) -> str | None:
        return _M_REF.sub(lambda m: f"M{mapping.get(m.group(1), m.group(1))}", text) if text else text

    return [a.model_copy(update={
        "material": sub(a.material),
        "materialien": [b.model_copy(update={"titel": sub(b.titel)}) for b in a.materialien],
        "teilaufgaben": [t.model_copy(update={"text": sub(t.text), "erwartung": [
            k.model_copy(update={"text": sub(k.text)}) for k in t.erwartung]}) for t in a.teilaufgaben]})
        for a in aufgaben]


def print_once(aufgaben: list[Aufgabe]) -> list[Aufgabe]:
    """`aufgaben` with every document printed once (see the module docstring); the rest unchanged."""
    aufgaben, dropped_any = list(aufgaben), False
    for i in range(len(aufgaben)):
        for j in range(i + 1, len(aufgaben)):
            for a in list(aufgaben[i].materialien):
                b = next((x for x in aufgaben[j].materialien if same_document(a, x)), None)
                if b is None or not (_label(a) and _label(b)):
                    continue
                keep_b = _citations(aufgaben, _label(b)) > _citations(aufgaben, _label(a))
                (ki, kept), (di, dropped) = ((j, b), (i, a)) if keep_b else ((i, a), (j, b))
                if _cites_lines(aufgaben[di]):
                    continue
                aufgaben[di] = _pointed(aufgaben[di], dropped, _label(kept) or "", aufgaben[ki].nummer)
                dropped_any = True
    return _renumbered(aufgaben) if dropped_any else aufgaben
