"""Bank tasks that bring their own material (a text, a source, a table) into an exam by a follow-up: the kind of
material the teacher's words ask for („Quellenaufgabe“, „Leseverstehen“, „mit Diagramm“), and the material numbered
after the exam's own (M3 after M1 and M2), as a composed exam numbers it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.composition.layout import fingerprint, material_labels, numbered_block
from core.language.text import fold
from core.materials.blocks import MaterialBlock
from core.materials.klausur import Aufgabe, Klausur

# kind -> words that ask for it (searched in a folded word); the first kind named wins
_KINDS = (("quelle", r"quell|karikatur"),
          ("tabelle", r"diagramm|tabelle|grafik|statistik|schaubild|messwert"),
          ("gedicht", r"gedicht|poem|lyrik"),
          ("text", r"lesever|reading|comprehension|sachtext|textverst|^texte?$|textauszug|zeitungsartikel"),
          ("material", r"^material"))
_FRAME = frozenset({"aufgabe", "aufgaben", "mit", "zur", "zum", "zu", "eine", "einer", "einem", "ein", "der", "dem",
                    "den", "die", "das", "und", "noch"})
_M_TITLE = re.compile(r"^M\s?(\d+)\b")
_M_REF = re.compile(r"\bM\s?(\d+)\b")
WITH = {"quelle": "mit Quelle", "tabelle": "mit Tabelle oder Diagramm", "gedicht": "mit Gedicht",
        "text": "mit Text (Leseverstehen)", "material": "mit Material"}


def material_wish(thema: str | None) -> tuple[str | None, str | None]:
    """The topic words and the kind of material the teacher's words ask for: „Quellenaufgabe zur Julikrise“ ->
    ('Julikrise', 'quelle'); „Leseverstehensaufgabe“ -> (None, 'text'); „Klimadiagramm“ keeps its word as topic."""
    if not thema:
        return None, None
    kind, rest = None, []
    for word in thema.split():
        w = fold(word.strip(".,;:!?()„“\"'"))
        hit = next((k for k, p in _KINDS if re.search(p, w)), None)
        kind = kind or hit
        bare = re.sub(r"(s|n|en)?aufgaben?$", "", w)
        if hit and re.match(dict(_KINDS)[hit], bare):  # the kind word itself („Quellen“, „Diagrammaufgabe“)
            continue
        rest.append(word)
    if kind is None:
        return thema, None
    return " ".join(w for w in rest if fold(w) not in _FRAME) or None, kind


def fits(blocks: Sequence[MaterialBlock], kind: str | None) -> bool:
    """Does the task's material answer the wish (None: any task, with or without material)?"""
    if kind is None:
        return True
    if kind == "quelle":
        return any(b.art == "quelle" or "quelle" in fold(b.titel) for b in blocks)
    if kind == "tabelle":
        return any(b.tabelle is not None or "diagramm" in fold(b.titel) for b in blocks)
    if kind == "gedicht":
        return any(b.art == "gedicht" for b in blocks)
    if kind == "text":
        return any(b.text and b.art != "tabelle" for b in blocks)
    return bool(blocks)


def printed(k: Klausur) -> dict[str, int]:
    """The materials the exam prints already -> the Aufgabe printing each (a bank task on one of them goes there)."""
    return {fingerprint(b): a.nummer for a in k.aufgaben for b in a.materialien}


def host(k: Klausur, blocks: Sequence[MaterialBlock]) -> int | None:
    """The Aufgabe that prints all of these blocks, if one does (0: some are printed, but not all in one)."""
    seen = printed(k)
    holders = {seen.get(fingerprint(b)) for b in blocks}
    if not blocks or holders == {None}:
        return None
    return holders.pop() if len(holders) == 1 else 0


def numbers_in(aufgabe: Aufgabe, blocks: Sequence[MaterialBlock], material_key: str | None, texts: Sequence[str]
               ) -> dict[str, str]:
    """The bank's numbers of the blocks -> the numbers `aufgabe` prints them under."""
    own = {fingerprint(b): m.group(1) for b in aufgabe.materialien if (m := _M_TITLE.match(b.titel))}
    labels = material_labels(material_key) or list(dict.fromkeys(_M_REF.findall(" ".join(texts))))
    return {label: own[fingerprint(b)] for label, b in zip(labels, blocks, strict=False) if fingerprint(b) in own}


def next_number(k: Klausur) -> int:
    """The number the next material of the exam gets: after the highest M-number and after every block."""
    numbers = [int(m.group(1)) for a in k.aufgaben for b in a.materialien if (m := _M_TITLE.match(b.titel))]
    return max([sum(len(a.materialien) for a in k.aufgaben), *numbers]) + 1


def numbered(blocks: Sequence[MaterialBlock], material_key: str | None, texts: Sequence[str], first: int
             ) -> tuple[list[MaterialBlock], dict[str, str]]:
    """The blocks numbered from M`first` on, and the bank's numbers -> the exam's (for the task texts to refer to).
    Without the bank's numbers in the key, the numbers the texts name stand for the blocks in order."""
    labels = material_labels(material_key) or list(dict.fromkeys(_M_REF.findall(" ".join(texts))))
    out = [numbered_block(b, first + i) for i, b in enumerate(blocks)]
    return out, {label: str(first + i) for i, label in enumerate(labels[:len(blocks)])}

