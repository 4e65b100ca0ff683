"""A material made ready for print, once for DOCX and PDF alike: headings that end at a word, materials labelled
M1, M2 … as the tasks cite them, texts broken into the lines that get numbers (citations moved along), a task's own
„a) … b) …“ inside a Teilaufgabe as (1), (2) …, and the Hilfsmittel a task needs.

The stored material stays as it is; only the printed copy changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.exports.inner_list import renumbered
from core.exports.lines import (
    CITATION,
    VERSE_ARTEN,
    cited_lines,
    fits,
    move_citations,
    moved_citation,
    printed_lines,
    reflowed_lines,
)
from core.exports.same_document import print_once
from core.materials.blocks import MaterialBlock
from core.materials.differenzierung import DifferenziertesMaterial, Niveau
from core.materials.klausur import Aufgabe, Klausur
from core.materials.titles import complete_phrase, complete_words, dedup_segments, is_sentence_end, short_title

TITLE_LIMIT = 80  # the composer cuts titles at 80 characters; such a title may end inside a word
_LABEL = re.compile(r"^\s*M\s?(\d+)\b\s*[:.–-]?\s*")
_GENERIC = {"", "material", "text", "tabelle", "quelle", "materialien"}
_M_REF = re.compile(r"\bM\s?(\d+)\b")
# What a task's words require, and the name the header prints (a listed one is recognised by the same pattern).
_HILFSMITTEL = (
    ("Atlas", re.compile(r"\batlas", re.I)),
    ("Taschenrechner", re.compile(r"\b(taschenrechner|gtr|wtr|calculator)\b", re.I)),
    ("Formelsammlung", re.compile(r"\bformelsammlung", re.I)),
    ("Wörterbuch", re.compile(r"w(ö|oe)rterbuch|\bdictionar(y|ies)\b", re.I)),
)
_WITHOUT = re.compile(r"\b(ohne|without|kein(?:en|e)?|no)\s+(\w+\s+){0,2}$", re.I)


def heading(text: str, limit: int = TITLE_LIMIT) -> str:
    """A heading that ends at a sentence or a complete phrase, never inside a word or after „bzw“/„der“, and says
    each colon segment once. A title of exactly `limit` characters was cut by an older composer: it is shortened to
    its last full sentence, else its last complete phrase ('…' when the cut falls inside one); a very long one is
    shortened after a complete phrase."""
    raw, text = text, dedup_segments(" ".join(text.split()))
    if len(raw) > limit + 30:
        return short_title(text, limit + 20)
    if len(raw) != limit:
        return complete_phrase(text)
    sentence = max(text.rfind(". "), text.rfind("? "), text.rfind("! "))
    if sentence >= 20 and is_sentence_end(text[: sentence + 1]):
        return text[: sentence + 1]
    words = complete_words(text.rsplit(" ", 1)[0].split(" "))
    return f"{' '.join(words).rstrip(' ,;:–-(')} …" if words else text


def block_title(block: MaterialBlock, nummer: int | None = None) -> str:
    """'M3 Material' -> 'M3'; an unlabelled block gets 'M<nummer>' when a number is given."""
    m = _LABEL.match(block.titel)
    label = f"M{m.group(1)}" if m else (f"M{nummer}" if nummer else "")
    rest = block.titel[m.end():] if m else block.titel
    rest = heading(rest.strip(" :–-"), 120)
    if rest.casefold() in _GENERIC:
        rest = ""
    return " ".join(x for x in (label, rest) if x) or "Material"


def _printed_block(block: MaterialBlock, titel: str) -> tuple[MaterialBlock, dict[int, tuple[int, int]] | None]:
    if not (block.text and block.zeilennummern and block.tabelle is None):
        return block.model_copy(update={"titel": titel}), None
    prose = block.art not in VERSE_ARTEN and not fits(block.text)
    printed = reflowed_lines(block.text) if prose else printed_lines(block.text)
    return block.model_copy(update={"titel": titel, "text": printed.text()}), printed.spans if printed.moved else None


Spans = dict[int, tuple[int, int]]


@dataclass(frozen=True)
class _Numbered:
    """A material printed with line numbers: its title (without the M label) and, when its lines moved, where each
    authored line now stands."""

    titel: str
    spans: Spans | None
    stored: tuple[str, ...] = ()  # the stored (authored) lines, blank ones left out
    verse: bool = False


def _numbered(block: MaterialBlock, titel: str, spans: Spans | None) -> _Numbered:
    stored = tuple(x for x in (block.text or "").split("\n") if x.strip())
    return _Numbered(titel, spans, stored, block.art in VERSE_ARTEN)


def _names(subject: str, label: str, m: _Numbered) -> bool:
    """Whether a task's text names this material: by its label ('M2') or by a phrase of its title ('Still
    dreaming?', 'The New Colossus')."""
    if re.search(rf"\b{label[0]}\s?{label[1:]}\b", subject):
        return True
    phrases = [p.strip() for p in re.split(r"[:?!()]|\s[–-]\s", m.titel)]
    return any(len(p) >= 8 and " " in p and p.casefold() in subject.casefold() for p in phrases)


def _citing(texts: Iterable[str], numbered: dict[str, _Numbered], subject: str) -> list[str]:
    """Citations move along with the re-broken lines of the material they mean: the task's only numbered material,
    else the one the task's text names, and after an explicit „M2“ that one; where it is unclear which material a
    'Z. 3' means, it stays."""
    texts = list(texts)
    if not any(m.spans for m in numbered.values()):
        return texts
    named = [label for label, m in numbered.items() if _names(subject, label, m)]
    default = next(iter(numbered.values())) if len(numbered) == 1 else (
        numbered[named[0]] if len(named) == 1 else None)
    out = []
    for text in texts:
        parts = re.split(r"(\bM\s?\d+\b)", text)
        current = default
        for i, part in enumerate(parts):
            if i % 2:
                current = numbered.get(part.replace(" ", ""), current)
            elif current and current.spans:
                parts[i] = move_citations(part, current.spans)
            elif current is None:
                parts[i] = CITATION.sub(lambda m, part=part: _by_quote(m, part, numbered), part)
        out.append("".join(parts))
    return out


_VERSE_WORDS = re.compile(r"\b(gedicht|poem|vers|versen|strophe|stanza|lyrisch)", re.I)
_PROSE_WORDS = re.compile(r"\b(artikel|article|zeitungs|bericht|report|erzählung|story|rede|speech|sachtext)", re.I)
_QUOTE = re.compile(r"[„\"'‘‚]([^„“”\"'‘’‚]{3,80})[“”\"'’‘]")


def _by_quote(m: re.Match[str], text: str, numbered: dict[str, _Numbered]) -> str:
    """A citation whose material the task leaves open: the one material that has the cited lines and, when a quote
    stands right before the citation, has the quoted words on them; else it stays."""
    a, b = cited_lines(m)
    candidates = [n for n in numbered.values() if 1 <= a <= b <= len(n.stored)]
    quotes = _QUOTE.findall(text[max(0, m.start() - 90): m.start()])
    if quotes:
        words = " ".join(quotes[-1].split()).casefold()
        candidates = [n for n in candidates if words in " ".join(" ".join(n.stored[a - 1:b]).split()).casefold()]
    before = text[: m.start()]
    verse, prose = bool(_VERSE_WORDS.search(before)), bool(_PROSE_WORDS.search(before))
    if len(candidates) > 1 and verse != prose:  # „Gedicht: …“ / „Artikel: …“ says which one
        candidates = [n for n in candidates if n.verse == verse]
    only = candidates[0] if len(candidates) == 1 else None
    return moved_citation(m, only.spans) if only and only.spans else m.group(0)


def _aufgabe(a: Aufgabe) -> Aufgabe:
    blocks, numbered = [], {}
    for block in a.materialien:
        printed, moved = _printed_block(block, block_title(block))
        blocks.append(printed)
        if printed.text and printed.zeilennummern and printed.tabelle is None:
            label, _, rest = printed.titel.partition(" ")
            numbered[label] = _numbered(block, rest, moved)
    teile = []
    for t in a.teilaufgaben:
        text, *kriterien = _citing([t.text, *(k.text for k in t.erwartung)], numbered, t.text)
        if len(a.teilaufgaben) > 1:
            text, *kriterien = renumbered([text, *kriterien])
        teile.append(t.model_copy(update={
            "text": text, "erwartung": [k.model_copy(update={"text": x}) for k, x in zip(t.erwartung, kriterien,
                                                                                       strict=True)]}))
    return a.model_copy(update={"titel": heading(a.titel), "materialien": blocks, "teilaufgaben": teile})


def needed_hilfsmittel(hilfsmittel: list[str], texts: Iterable[str]) -> list[str]:
    """The Hilfsmittel as printed: those given, plus each one a task asks for („mithilfe einer Atlaskarte“, „mit dem
    Taschenrechner“, „use a dictionary“) — not one a task rules out („ohne Taschenrechner“)."""
    out = [h.strip() for h in hilfsmittel if h.strip()]
    joined = "\n".join(texts)
    for name, pattern in _HILFSMITTEL:
        asked = any(not _WITHOUT.search(joined[max(0, m.start() - 40): m.start()]) for m in pattern.finditer(joined))
        if asked and not any(pattern.search(h) for h in out):
            out.append(name)
    return out


def printable_klausur(k: Klausur) -> Klausur:
    aufgaben = [_aufgabe(a) for a in print_once(k.aufgaben)]
    gruppe_b = [_aufgabe(a) for a in print_once(k.gruppe_b)] if k.gruppe_b else k.gruppe_b
    texts = [t.text for a in aufgaben for t in a.teilaufgaben]
    return k.model_copy(update={"aufgaben": aufgaben, "gruppe_b": gruppe_b,
                                "hilfsmittel": needed_hilfsmittel(k.hilfsmittel, texts)})


def _renumbering(d: DifferenziertesMaterial) -> dict[str, str]:
    """Material numbers the tasks cite that the sheet does not have ('Lies M2' with one material) are mapped, in
    order, onto the sheet's M1, M2 …; numbers it has stay."""
    n = len(d.materialien)
    texts = [x for niveau in d.niveaus for x in (*niveau.aufgaben, *niveau.hilfekarten, *niveau.loesungen)]
    cited = sorted({int(x) for t in texts for x in _M_REF.findall(t)})
    if not cited or all(1 <= c <= n for c in cited) or len(cited) > n:
        return {}
    return {str(c): str(i) for i, c in enumerate(cited, start=1)}


def _niveau(niveau: Niveau, mapping: dict[str, str], numbered: dict[str, _Numbered]) -> Niveau:
    def fix(texts: list[str]) -> list[str]:
        texts = [_M_REF.sub(lambda m: f"M{mapping.get(m.group(1), m.group(1))}", t) for t in texts] if mapping \
            else texts
        return _citing(texts, numbered, " ".join(niveau.aufgaben))

    return niveau.model_copy(update={"aufgaben": fix(niveau.aufgaben), "hilfekarten": fix(niveau.hilfekarten),
                                     "loesungen": fix(niveau.loesungen)})


def printable_differenzierung(d: DifferenziertesMaterial) -> DifferenziertesMaterial:
    mapping = _renumbering(d)
    blocks, numbered = [], {}
    for i, block in enumerate(d.materialien, start=1):
        printed, moved = _printed_block(block, block_title(block, i))
        blocks.append(printed)
        if printed.text and printed.zeilennummern and printed.tabelle is None:
            label, _, rest = printed.titel.partition(" ")
            numbered[label] = _numbered(block, rest, moved)
    return d.model_copy(update={"titel": heading(d.titel), "materialien": blocks,
                                "niveaus": [_niveau(n, mapping, numbered) for n in d.niveaus]})


TEACHER_VOICE = re.compile(r"^\s*(die\s+)?(schülerinnen\s+und\s+schüler|schüler\*innen|schüler:innen|sus|die "
                           r"lernenden|lernende)\b", re.I)


def pupil_lernziel(lernziel: str) -> str | None:
    """The Lernziel for the pupils' sheet, or None when it is written for the teacher ('Die Schülerinnen und
    Schüler …' belongs into the teacher's file)."""
    text = lernziel.strip()
    return None if not text or TEACHER_VOICE.match(text) else text
