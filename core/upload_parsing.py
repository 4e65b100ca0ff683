"""Teachers' own documents as knowledge: example exams/worksheets -> `example` rows, Lehrpläne -> curriculum chunks.

Files are checked like chat attachments plus DOCX guards (zip bombs, DTD/entity tricks); structure is read from
the document (tasks, points, AFB, operators; heading paths) and stored in one unit of work — all or nothing.
"""

from __future__ import annotations

import io
import logging
import re
import uuid
import zipfile
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Literal

from sqlalchemy.orm import Session

from core.app.acting import acting
from core.app.errors import NotFoundError, UserError
from core.embeddings import embed_documents, embedding_model_name
from core.faecher import FAECHER, fach_name, normalize_fach
from core.knowledge import knowledge_text
from core.uploads import (
    DOCX_MAX_UNCOMPRESSED,
    MAX_TEXT_CHARS,
    MAX_UPLOAD_BYTES,
    add_upload,
    decode_text,
    extract_text,
    safe_filename,
)
from db.models import AgentKnowledge, CurriculumChunk, School, Teacher, Upload
from db.repos import knowledge as knowledge_repo

log = logging.getLogger(__name__)

ImportKind = Literal["example", "curriculum"]
EXAMPLE_AGENTS = ("klausur", "differenzierung")
DOCUMENT_SUFFIXES = {".docx": "docx", ".pdf": "pdf", ".txt": "txt", ".md": "txt"}
MAX_ZIP_MEMBERS = 2000
# Chunk sizes for curriculum sections: long enough to carry a competence with its context, short enough that one
# chunk is about one thing (what retrieval ranks and the specialist cites).
CHUNK_MIN, CHUNK_MAX = 400, 900
MAX_UNSTRUCTURED_CHARS = 20_000

# --- reading documents into blocks ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """One paragraph, table row or (PDF) line. `level` is a heading level (0 = document title), None for body."""

    text: str
    level: int | None = None
    para_start: bool = True
    bold: bool = False


_ROMAN = [(10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]


def _roman(n: int) -> str:
    out = ""
    for value, sym in _ROMAN:
        while n >= value:
            out, n = out + sym, n - value
    return out


def _letters(n: int) -> str:
    out = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        out = chr(ord("a") + r) + out
    return out


class _DocxNumbering:
    """Renders Word's automatic list numbers ("1.", "a)") that python-docx leaves out of `paragraph.text`.

    Counters are kept per abstract list, as Word continues a list across paragraphs that share it."""

    def __init__(self, document: Any) -> None:
        from docx.oxml.ns import qn

        self._qn = qn
        self._num_abs: dict[str, str] = {}
        self._overrides: dict[str, dict[int, int]] = {}
        self._levels: dict[tuple[str, int], tuple[str, str, int]] = {}
        self._counters: dict[str, list[int | None]] = {}
        self._seen: set[str] = set()
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            return
        for absn in root.findall(qn("w:abstractNum")):
            abs_id = absn.get(qn("w:abstractNumId"))
            for lvl in absn.findall(qn("w:lvl")):
                ilvl = int(lvl.get(qn("w:ilvl"), "0"))
                fmt = self._val(lvl, "w:numFmt") or "decimal"
                text = self._val(lvl, "w:lvlText") or ""
                start = int(self._val(lvl, "w:start") or "1")
                self._levels[(abs_id, ilvl)] = (fmt, text, start)
        for num in root.findall(qn("w:num")):
            num_id = num.get(qn("w:numId"))
            abs_id = self._val(num, "w:abstractNumId")
            if num_id is None or abs_id is None:
                continue
            self._num_abs[num_id] = abs_id
            for ov in num.findall(qn("w:lvlOverride")):
                start = self._val(ov, "w:startOverride")
                if start is not None:
                    self._overrides.setdefault(num_id, {})[int(ov.get(qn("w:ilvl"), "0"))] = int(start)

    def _val(self, el: Any, tag: str) -> str | None:
        child = el.find(self._qn(tag))
        return None if child is None else child.get(self._qn("w:val"))

    def _num_pr(self, paragraph: Any) -> tuple[str, int] | None:
        p_pr = paragraph._p.pPr
        num_pr = p_pr.numPr if p_pr is not None else None
        style = paragraph.style
        while num_pr is None and style is not None:
            s_pr = style.element.pPr
            num_pr = s_pr.numPr if s_pr is not None else None
            style = style.base_style
        if num_pr is None or num_pr.numId is None:
            return None
        num_id = str(num_pr.numId.val)
        ilvl = num_pr.ilvl.val if num_pr.ilvl is not None else 0
        return (num_id, int(ilvl)) if num_id != "0" else None

    def label(self, paragraph: Any) -> str | None:
        ref = self._num_pr(paragraph)
        if ref is None or ref[0] not in self._num_abs:
            return None
        num_id, ilvl = ref
        abs_id = self._num_abs[num_id]
        counters = self._counters.setdefault(abs_id, [None] * 10)
        if num_id not in self._seen:
            self._seen.add(num_id)
            for level, start in self._overrides.get(num_id, {}).items():
                counters[level] = start - 1
        fmt, text, start = self._levels.get((abs_id, ilvl), ("decimal", f"%{ilvl + 1}.", 1))
        counters[ilvl] = start if counters[ilvl] is None else counters[ilvl] + 1
        for deeper in range(ilvl + 1, len(counters)):
            counters[deeper] = None
        if fmt in ("bullet", "none"):
            return None

        def render(m: re.Match[str]) -> str:
            level = int(m.group(1)) - 1
            lfmt, _, lstart = self._levels.get((abs_id, level), ("decimal", "", 1))
            n = counters[level] if level < len(counters) and counters[level] is not None else lstart
            if lfmt in ("lowerLetter", "upperLetter"):
                s = _letters(n)
                return s.upper() if lfmt == "upperLetter" else s
            if lfmt in ("lowerRoman", "upperRoman"):
                s = _roman(n)
                return s.upper() if lfmt == "upperRoman" else s
            return str(n)

        return re.sub(r"%(\d)", render, text).strip() or None


_HEADING_STYLE = re.compile(r"^(?:heading|überschrift)\s*(\d)$", re.IGNORECASE)


def _docx_heading_level(paragraph: Any) -> int | None:
    style = paragraph.style
    name = (style.name if style is not None else "") or ""
    if name.lower() == "title":
        return 0
    m = _HEADING_STYLE.match(name.strip())
    return int(m.group(1)) if m else None


def _docx_blocks(data: bytes) -> list[Block]:
    from docx import Document
    from docx.table import Table

    doc = Document(io.BytesIO(data))
    numbering = _DocxNumbering(doc)
    blocks: list[Block] = []
    for item in doc.iter_inner_content():
        if isinstance(item, Table):
            for row in item.rows:
                cells: list[str] = []
                seen: set[int] = set()
                for cell in row.cells:
                    if id(cell._tc) in seen:  # merged cells repeat
                        continue
                    seen.add(id(cell._tc))
                    text = " ".join(cell.text.split())
                    if text:
                        cells.append(text)
                if cells:
                    blocks.append(Block(" | ".join(cells)))
            continue
        text = item.text.strip()
        label = numbering.label(item)
        if not text:
            continue
        if label:
            text = f"{label} {text}"
        runs = [r for r in item.runs if r.text.strip()]
        bold = bool(runs) and all(r.bold for r in runs)
        blocks.append(Block(text, level=_docx_heading_level(item), bold=bold))
    return blocks


def _pdf_blocks(data: bytes) -> list[Block]:
    """Lines of a PDF with their font size; clearly larger lines are headings, larger vertical gaps paragraphs."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    lines: list[dict[str, Any]] = []
    for page in reader.pages[:100]:
        current: dict[str, Any] = {"text": "", "sizes": {}, "y": None}
        page_lines = [current]

        def visit(text: str, cm: list[float], tm: list[float], _font: Any, size: float, _lines=page_lines) -> None:
            scale = abs(tm[3] * cm[3]) or abs(tm[0] * cm[0]) or 1.0
            eff = round(float(size or 0) * scale, 1)
            y = tm[5] * cm[3] + cm[5]
            for i, part in enumerate(text.split("\n")):
                if i > 0:
                    _lines.append({"text": "", "sizes": {}, "y": None})
                line = _lines[-1]
                if part.strip():
                    line["text"] += part
                    line["sizes"][eff] = line["sizes"].get(eff, 0) + len(part.strip())
                    if line["y"] is None and y:
                        line["y"] = y
                else:
                    line["text"] += part

        page.extract_text(visitor_text=visit)
        for line in page_lines:
            line["text"] = " ".join(line["text"].split())
        lines += [ln for ln in page_lines if ln["text"]]
    if not lines:
        return []
    totals: dict[float, int] = {}
    for ln in lines:
        ln["size"] = max(ln["sizes"].items(), key=lambda kv: kv[1])[0] if ln["sizes"] else 0.0
        totals[ln["size"]] = totals.get(ln["size"], 0) + len(ln["text"])
    body = max(totals.items(), key=lambda kv: kv[1])[0]
    larger = {ln["size"] for ln in lines if body and ln["size"] >= body * 1.12 and len(ln["text"]) <= 150}
    heading_sizes = sorted(larger, reverse=True)[:3]
    gaps = [abs(a["y"] - b["y"]) for a, b in zip(lines, lines[1:], strict=False)
            if a["y"] is not None and b["y"] is not None and 0 < abs(a["y"] - b["y"]) < 100]
    usual = sorted(gaps)[len(gaps) // 2] if gaps else 0.0
    blocks: list[Block] = []
    prev: dict[str, Any] | None = None
    for ln in lines:
        level = heading_sizes.index(ln["size"]) + 1 if ln["size"] in heading_sizes and len(ln["text"]) <= 150 else None
        para = True
        if prev is not None and level is None and prev.get("level") is None and usual and ln["y"] and prev["y"]:
            para = abs(prev["y"] - ln["y"]) > usual * 1.4
        ln["level"] = level
        blocks.append(Block(ln["text"], level=level, para_start=para))
        prev = ln
    return blocks


def _decode_text(data: bytes) -> str:
    return decode_text(data)


_MD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*$")


def text_blocks(text: str) -> list[Block]:
    """Blocks of plain text: one per line, Markdown '#' lines as headings, a blank line starts a paragraph."""
    blocks: list[Block] = []
    blank = True
    for raw in text.replace("\r\n", "\n").replace("\x00", "").split("\n"):
        line = " ".join(raw.split())
        if not line:
            blank = True
            continue
        m = _MD_HEADING.match(line) if len(line) <= 300 else None
        if m:
            blocks.append(Block(m.group(2), level=len(m.group(1))))
        else:
            blocks.append(Block(line, para_start=blank))
        blank = False
    return blocks


def document_blocks(kind: str, data: bytes) -> list[Block]:
    """The document's structure as blocks (DOCX styles and list numbers, PDF font sizes, Markdown headings)."""
    if kind == "docx":
        return _docx_blocks(data)
    if kind == "pdf":
        return _pdf_blocks(data)
    if kind == "txt":
        return text_blocks(_decode_text(data))
    raise UserError("Bilder können nicht als Beispiel oder Lehrplan übernommen werden. Bitte eine Word-Datei (DOCX) "
                    "oder ein PDF mit Text hochladen.")


def blocks_text(blocks: Iterable[Block]) -> str:
    return "\n".join(b.text for b in blocks)[:MAX_TEXT_CHARS]


# --- checking files -----------------------------------------------------------------------------------------------

_DTD = re.compile(rb"<!\s*(?:DOCTYPE|ENTITY)", re.IGNORECASE)


def _guard_docx(data: bytes) -> None:
    """Refuse zip bombs by the bytes really unpacked (not the sizes a zip declares) and XML with DTDs/entities.

    Word never writes a DOCTYPE; python-docx parses with resolve_entities=False anyway — this is the second fence."""
    corrupt = UserError("Die DOCX-Datei ist beschädigt und lässt sich nicht öffnen. Bitte neu speichern.")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
            if len(infos) > MAX_ZIP_MEMBERS:
                raise UserError("Die DOCX-Datei enthält ungewöhnlich viele Teile. Bitte prüfen Sie die Datei oder "
                                "speichern Sie sie neu.")
            total = 0
            for info in infos:
                is_xml = info.filename.lower().endswith((".xml", ".rels"))
                tail = b""
                with z.open(info) as member:
                    while chunk := member.read(1 << 20):
                        total += len(chunk)
                        if total > DOCX_MAX_UNCOMPRESSED:
                            raise UserError("Die DOCX-Datei ist entpackt ungewöhnlich groß (mehr als 50 MB). Bitte "
                                            "prüfen Sie die Datei oder speichern Sie sie neu.")
                        if is_xml and _DTD.search(tail + chunk):
                            raise UserError("Die DOCX-Datei enthält unzulässige XML-Definitionen (DOCTYPE/ENTITY), "
                                            "wie Word sie nie schreibt. Bitte das Dokument in Word neu speichern.")
                        tail = chunk[-32:]
    except UserError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError, OSError, ValueError) as exc:
        raise corrupt from exc


def _parse_or_corrupt(kind: str, read: Callable[[], Any]) -> Any:
    """Parsers of hostile files fail in many ways; all of them mean "this file is broken" to the teacher."""
    try:
        return read()
    except UserError:
        raise
    except Exception as exc:  # noqa: BLE001 — any parser failure on a user's file is a broken file
        log.info("unreadable %s upload: %r", kind, exc)
        what = {"docx": "Die DOCX-Datei ist beschädigt und lässt sich nicht öffnen. Bitte neu speichern.",
                "pdf": "Das PDF ist beschädigt und lässt sich nicht lesen. Bitte neu exportieren."}
        raise UserError(what.get(kind, "Die Datei lässt sich nicht lesen.")) from exc


def check_document(filename: str, data: bytes) -> tuple[str, str, list[Block]]:
    """(kind, extracted text, blocks) for a document to import; a German UserError for anything we must not take."""
    name = safe_filename(filename)
    suffix = PurePath(name).suffix.lower()
    if suffix in (".png", ".jpg", ".jpeg"):
        raise UserError("Bilder können nicht als Beispiel oder Lehrplan übernommen werden. Bitte eine Word-Datei "
                        "(DOCX) oder ein PDF mit Text hochladen.")
    if suffix not in DOCUMENT_SUFFIXES:
        raise UserError(f"Dateityp „{suffix or 'ohne Endung'}“ wird hier nicht unterstützt. Bitte eine Word-Datei "
                        "(DOCX), ein PDF oder eine Textdatei hochladen.")
    if not data:
        raise UserError("Die Datei ist leer.")
    if len(data) > MAX_UPLOAD_BYTES:
        raise UserError(f"Die Datei ist zu groß ({len(data) / 2**20:.0f} MB). Höchstens 20 MB sind möglich.")
    if suffix == ".docx" and data.startswith(b"PK"):
        _guard_docx(data)
    kind, text = _parse_or_corrupt(DOCUMENT_SUFFIXES[suffix], lambda: extract_text(name, data))
    blocks = _parse_or_corrupt(kind, lambda: document_blocks(kind, data))
    if not text.strip() or not blocks:
        if kind == "pdf":
            raise UserError("Das PDF enthält keinen lesbaren Text – vermutlich ist es ein eingescanntes Bild. Bitte "
                            "die Originaldatei (DOCX) oder ein PDF mit Text hochladen.")
        raise UserError("Das Dokument enthält keinen Text. Bitte die richtige Datei wählen.")
    return kind, text, blocks


# --- operators ----------------------------------------------------------------------------------------------------

# The usual AFB of the operators in the KMK/Länder lists (the subject's own list from the database overrides).
OPERATOR_AFB: dict[str, str] = {
    "Nennen": "I", "Angeben": "I", "Benennen": "I", "Bezeichnen": "I", "Beschreiben": "I", "Skizzieren": "I",
    "Berechnen": "I", "Zeichnen": "I", "Wiedergeben": "I", "Zusammenfassen": "I", "Formulieren": "I",
    "Lokalisieren": "I", "Lösen": "I", "Darstellen": "I", "Ergänzen": "I", "Beschriften": "I", "Auflisten": "I",
    "Erklären": "II", "Erläutern": "II", "Bestimmen": "II", "Ermitteln": "II", "Vergleichen": "II",
    "Auswerten": "II", "Herleiten": "II", "Begründen": "II", "Analysieren": "II", "Charakterisieren": "II",
    "Deuten": "II", "Einordnen": "II", "Herausarbeiten": "II", "Nachweisen": "II", "Ordnen": "II",
    "Untersuchen": "II", "Zuordnen": "II", "Überarbeiten": "II", "Anwenden": "II", "Aufstellen": "II",
    "Erschließen": "II", "Interpretieren": "III", "Beurteilen": "III", "Bewerten": "III", "Diskutieren": "III",
    "Entwickeln": "III", "Planen": "III", "Erörtern": "III", "Gestalten": "III", "Beweisen": "III",
    "Widerlegen": "III", "Überprüfen": "III", "Prüfen": "III", "Stellung nehmen": "III",
    "Sich auseinandersetzen": "III",
    # English (Englisch as a subject)
    "Name": "I", "State": "I", "Outline": "I", "Describe": "I", "Summarise": "I", "Summarize": "I",
    "Complete": "I", "Explain": "II", "Analyse": "II", "Analyze": "II", "Compare": "II", "Contrast": "II",
    "Characterise": "II", "Characterize": "II", "Examine": "II", "Illustrate": "II", "Point out": "II",
    "Assess": "III", "Comment": "III", "Discuss": "III", "Evaluate": "III", "Interpret": "III", "Justify": "III",
    "Write": "III",
}

# Separable verbs: the imperative's first words and the particle that closes the clause ("Gib … an").
_SEPARABLE: dict[str, tuple[tuple[str, str], str]] = {
    "Angeben": (("gib", "geben sie"), "an"),
    "Wiedergeben": (("gib", "geben sie"), "wieder"),
    "Darstellen": (("stelle", "stell", "stellen sie"), "dar"),
    "Aufstellen": (("stelle", "stell", "stellen sie"), "auf"),
    "Herleiten": (("leite", "leiten sie"), "her"),
    "Auswerten": (("werte", "werten sie"), "aus"),
    "Zuordnen": (("ordne", "ordnen sie"), "zu"),
    "Einordnen": (("ordne", "ordnen sie"), "ein"),
    "Zusammenfassen": (("fasse", "fass", "fassen sie"), "zusammen"),
    "Herausarbeiten": (("arbeite", "arbeiten sie"), "heraus"),
    "Nachweisen": (("weise", "weisen sie"), "nach"),
    "Stellung nehmen": (("nimm", "nehmen sie"), "stellung"),
    "Sich auseinandersetzen": (("setze dich", "setz dich", "setzen sie sich"), "auseinander"),
    "Auflisten": (("liste", "listen sie"), "auf"),
    "Anwenden": (("wende", "wenden sie"), "an"),
}
_ENGLISH = frozenset({
    "Name", "State", "Outline", "Describe", "Summarise", "Summarize", "Complete", "Explain", "Analyse", "Analyze",
    "Compare", "Contrast", "Characterise", "Characterize", "Examine", "Illustrate", "Point out", "Assess", "Comment",
    "Discuss", "Evaluate", "Interpret", "Justify", "Write",
})


def _ascii(form: str) -> str:
    return form.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")


def _simple_forms(infinitive: str) -> list[str]:
    """Imperative forms of a regular (non-separable) German operator: 'Erläutern' -> erläutere, erläutern sie."""
    inf = infinitive.lower()
    forms = [f"{inf} sie"]
    if inf.endswith("eln"):
        forms += [inf[:-3] + "le", inf[:-1] + "e"]
    elif inf.endswith("ern"):
        forms += [inf[:-1] + "e"]
    elif inf.endswith("en"):
        forms += [inf[:-2] + "e"]
    return forms


@dataclass(frozen=True)
class OperatorTable:
    afb: dict[str, str]
    simple: list[tuple[str, str]]  # (form, canonical), longest forms first
    separable: list[tuple[str, str, str]]  # (form, particle, canonical)

    @classmethod
    def build(cls, overrides: Mapping[str, str] | None = None) -> OperatorTable:
        afb = dict(OPERATOR_AFB)
        known = {k.lower(): k for k in afb}
        for name, level in (overrides or {}).items():
            if level in ("I", "II", "III") and name.strip():
                afb[known.get(name.strip().lower(), name.strip())] = level
        simple: list[tuple[str, str]] = []
        separable: list[tuple[str, str, str]] = []
        for canonical in afb:
            if canonical in _SEPARABLE:
                forms, particle = _SEPARABLE[canonical]
                separable += [(f, particle, canonical) for f in forms]
            elif canonical in _ENGLISH:
                simple.append((canonical.lower(), canonical))
            else:
                simple += [(f, canonical) for f in _simple_forms(canonical)]
        # Typed without umlauts ("Erklaere", "Eroertere") the operator is still the operator.
        simple += [(_ascii(f), c) for f, c in simple if _ascii(f) != f]
        separable += [(_ascii(f), p, c) for f, p, c in separable if _ascii(f) != f]
        simple.sort(key=lambda x: -len(x[0]))
        separable.sort(key=lambda x: -len(x[0]))
        return cls(afb=afb, simple=simple, separable=separable)


_CLAUSE_END = re.compile(r"[.!?;:]")
_WORD = re.compile(r"[\wäöüß]+", re.IGNORECASE)


def _starts_with(sentence: str, form: str) -> bool:
    return sentence.startswith(form) and (len(sentence) == len(form) or not sentence[len(form)].isalpha())


def find_operator(text: str, table: OperatorTable) -> str | None:
    """The operator a task opens with (or the first sentence that opens with one), as its infinitive."""
    for sentence in re.split(r"(?<=[.!?:])\s+|\n", text):
        s = sentence.strip().lstrip("•–-*„\"(").strip().lower()
        if not s:
            continue
        for form, particle, canonical in table.separable:
            if _starts_with(s, form):
                rest = s[len(form):]
                clause = _CLAUSE_END.split(rest, maxsplit=1)[0]
                candidates = [_WORD.findall(clause)[-1:], _WORD.findall(clause.split(",")[0])[-1:],
                              _WORD.findall(rest)[:1]]
                if any(particle in c for c in candidates):
                    return canonical
        for form, canonical in table.simple:
            if _starts_with(s, form):
                return canonical
    return None


# --- exam parsing ---------------------------------------------------------------------------------------------

_NUM = r"\d{1,3}(?:[.,]\d{1,2})?"
_UNIT = r"(?:Punkte|Punkt|Pkt\.?|P\.?|BE|VP|Pt\.?)"
_POINTS_TOKEN = re.compile(rf"^(?P<p>{_NUM})\s*{_UNIT}(?![\wäöü])", re.IGNORECASE)
_SLASH_TOKEN = re.compile(rf"^_*\s*/\s*(?P<p>{_NUM})\s*(?:{_UNIT}(?![\wäöü]))?", re.IGNORECASE)
_BARE_NUMBER = re.compile(rf"^(?P<p>{_NUM})$")
_AFB_TOKEN = re.compile(
    r"^(?:AFB|Anforderungsbereich|Anf\.?\s*-?\s*Bereich)\s*:?\s*(?P<a>III|II|I|[123])(?![\wäöü])"
    r"(?:\s*(?:[-–/]|bis)\s*(?P<b>III|II|I|[123])(?![\wäöü]))?", re.IGNORECASE)
_GROUP = re.compile(r"[(\[]([^()\[\]]{1,60})[)\]]")
_SEPARATORS = re.compile(r"^[\s,;/|]+")
_TRAILING = re.compile(
    rf"(?P<pre>^|[.!?:)\]|\t]|\s{{2,}}|_)\s*(?P<tok>(?:_*\s*/\s*{_NUM}\s*(?:{_UNIT})?|{_NUM}\s*{_UNIT}|"
    r"(?:AFB|Anforderungsbereich)\s*:?\s*(?:III|II|I|[123])(?:\s*[-–/]\s*(?:III|II|I|[123]))?))"
    r"\s*\.?\s*$", re.IGNORECASE)
# With a single space before it, only a unit no sentence ends with ("4 P.", "2 BE") or a slash ("/6") counts.
_TRAILING_ABBR = re.compile(
    rf"(?P<pre>\s)(?P<tok>{_NUM}\s*(?:Pkt\.?|P\.?|BE|VP)|/\s*{_NUM}(?:\s*{_UNIT})?)\s*$", re.IGNORECASE)

_AUFGABE = re.compile(r"^(?:Aufgabe|Aufg\.)\s*(\d{1,2})\s*[.:)]?(?:\s+|$)(.*)$", re.IGNORECASE)
_BONUS = re.compile(r"^(Zusatzaufgabe|Bonusaufgabe|Zusatz|Bonus)\s*(\d{0,2})\s*[.:)]?(?:\s+|$)(.*)$", re.IGNORECASE)
_TOP_NUMBER = re.compile(r"^(\d{1,2})\s*(?:\.\)|[.)])(?!\d)\s*(.*)$")
_DOTTED = re.compile(r"^(\d{1,2})\.(\d{1,2})\s*(?:\.\)|[.)])?(?:\s+|$)(.*)$")
_LETTER = re.compile(r"^(?:\(([a-z])\)|([a-z])\s*\)|([a-z])\.(?=\s))\s*(.*)$")
_TEIL = re.compile(r"^(?:Teil|Abschnitt)\s+([A-Z]|[IVX]{1,4}|\d{1,2})\b(.*)$")
_TOTAL = re.compile(
    r"^(?:Gesamtpunktzahl|Gesamtpunkte|Gesamt|Summe|Punkte\s+gesamt|Punktzahl\s+gesamt|"
    r"(?:max(?:imal)?\.?\s*)?erreichbare\s+Punkt(?:e|zahl))\b\s*[:=]?\s*(?:\|\s*)?(?:_*\s*/\s*)?"
    rf"(?P<p>{_NUM})(?:\s*{_UNIT})?", re.IGNORECASE)
_FOOTER = re.compile(r"^(?:Viel\s+Erfolg|Notenschlüssel|Bewertungsschlüssel|Erreichte\s+Punkte|Note\s*:|"
                     r"(?:Aufgabe|Aufgaben|Punkte|Erreicht|BE)\s*\|)", re.IGNORECASE)
_TITLE_WORDS = re.compile(
    r"\b(?:Klassenarbeit|Klausur|Kursarbeit|Schulaufgabe|Leistungskontrolle|Lernkontrolle|Leistungsnachweis|"
    r"Kurzkontrolle|Test|Arbeitsblatt|Übungsblatt|Lernzielkontrolle|Probearbeit|Stegreifaufgabe|Prüfung|"
    r"Leistungserhebung|Wiederholung|Übung)", re.IGNORECASE)
_FIELD = re.compile(r"^(?:Name|Datum|Note|Unterschrift|Punkte)\s*:", re.IGNORECASE)
_KLASSE = re.compile(r"\b(?:Klassenstufe|Jahrgangsstufe|Jahrgang|Klasse|Kl\.|Jg\.|Stufe)\s*:?\s*(\d{1,2})(?!\d)",
                     re.IGNORECASE)
_DAUER = re.compile(r"\b(?:Bearbeitungszeit|Arbeitszeit|Dauer|Zeit)\s*:?\s*(\d{1,3})\s*"
                    r"(Minuten|Min\.?|min|Stunden|Std\.?|h)\b", re.IGNORECASE)
_DAUER_LOOSE = re.compile(r"\b(\d{2,3})\s*(?:Minuten|Min\.|min)(?![\wäöü])")
_FACH_FIELD = re.compile(r"\bFach\s*:?\s*([A-Za-zÄÖÜäöüß]+)")


def _number(raw: str) -> float | int:
    value = float(raw.replace(",", "."))
    return int(value) if value.is_integer() else value


def _afb_value(raw: str | None) -> str | None:
    if raw is None:
        return None
    return {"1": "I", "2": "II", "3": "III"}.get(raw, raw.upper())


def _group_annotations(content: str) -> tuple[float | int | None, str | None] | None:
    """Points/AFB when a bracket holds nothing else ("4 P., AFB II", "[4]", "/6 BE"); None otherwise."""
    rest, points, afb = content.strip(), None, None
    if _BARE_NUMBER.match(rest):
        return _number(rest), None
    while rest:
        m = _POINTS_TOKEN.match(rest) or _SLASH_TOKEN.match(rest)
        if m and points is None:
            points = _number(m.group("p"))
        else:
            m = _AFB_TOKEN.match(rest)
            if not m or afb is not None:
                return None
            afb = _afb_value(m.group("b") or m.group("a"))
        rest = _SEPARATORS.sub("", rest[m.end():])
    return (points, afb) if points is not None or afb is not None else None


def _strip_annotations(line: str) -> tuple[str, float | int | None, str | None]:
    """The line without its points/AFB annotations, and what they said (first points, highest AFB)."""
    points: float | int | None = None
    afb: str | None = None

    def take(p: float | int | None, a: str | None) -> None:
        nonlocal points, afb
        if p is not None and points is None:
            points = p
        if a is not None and afb is None:
            afb = a

    out = line
    if line.count("|") < 2:  # table rows (points tables) are not annotations of a task
        for m in list(_GROUP.finditer(line)):
            found = _group_annotations(m.group(1))
            if found is None:
                continue
            if m.group(0).startswith("(") and _BARE_NUMBER.match(m.group(1).strip()):
                continue  # "(4)" is too often not points; only "[4]" is
            take(*found)
            out = out.replace(m.group(0), " ", 1)
        for _ in range(3):
            # Annotations are short: search only the line's end, so hostile long lines cost linear time.
            start = max(0, len(out) - 80)
            m = _TRAILING.search(out, start) or _TRAILING_ABBR.search(out, start)
            if not m:
                break
            tok = m.group("tok").strip()
            afb_m = re.search(r"(?:AFB|Anforderungsbereich)\s*:?\s*(III|II|I|[123])(?:\s*[-–/]\s*(III|II|I|[123]))?",
                              tok, re.IGNORECASE)
            if afb_m:
                take(None, _afb_value(afb_m.group(2) or afb_m.group(1)))
            else:
                take(_number(re.search(_NUM, tok).group(0)), None)
            out = out[: m.start("tok")]
    return " ".join(out.split()).strip(" ,;"), points, afb


@dataclass
class ParsedTask:
    nummer: str
    lines: list[str] = field(default_factory=list)
    text: str = ""
    punkte: float | int | None = None
    afb: str | None = None
    afb_abgeleitet: bool = False
    operator: str | None = None
    teilaufgaben: list[ParsedTask] = field(default_factory=list)
    bonus: bool = False
    teil: str | None = None
    sub_style: str | None = None  # letter | number | dotted

    def finish(self, table: OperatorTable) -> None:
        texts = []
        for line in self.lines:
            text, points, afb = _strip_annotations(line)
            if points is not None and self.punkte is None:
                self.punkte = points
            if afb is not None and self.afb is None:
                self.afb = afb
            if text:
                texts.append(text)
        self.text = "\n".join(texts)
        self.operator = find_operator(self.text, table)
        if self.afb is None and self.operator:
            self.afb, self.afb_abgeleitet = table.afb.get(self.operator), True
        for sub in self.teilaufgaben:
            sub.finish(table)

    @property
    def points_total(self) -> float | int | None:
        if self.punkte is not None:
            return self.punkte
        subs = [s.punkte for s in self.teilaufgaben]
        return sum(subs) if subs and all(p is not None for p in subs) else None

    def as_content(self) -> dict[str, Any]:
        out: dict[str, Any] = {"nummer": self.nummer, "text": self.text}
        if self.punkte is not None:
            out["punkte"] = self.punkte
        if self.afb:
            out["afb"] = self.afb
            if self.afb_abgeleitet:
                out["afb_abgeleitet"] = True
        if self.operator:
            out["operator"] = self.operator
        if self.bonus:
            out["bonus"] = True
        if self.teil:
            out["teil"] = self.teil
        if self.teilaufgaben:
            out["teilaufgaben"] = [s.as_content() for s in self.teilaufgaben]
        return out


@dataclass
class ParsedExam:
    titel: str | None
    fach: str | None
    fach_im_dokument: str | None
    klassenstufe: int | None
    dauer_minuten: int | None
    gesamtpunkte: float | int | None
    aufgaben: list[ParsedTask]
    vorspann: str
    nachspann: str
    hinweise: list[str]

    @property
    def punkte_summe(self) -> float | int | None:
        values = [t.points_total for t in self.aufgaben if not t.bonus]
        return sum(v for v in values if v is not None) if any(v is not None for v in values) else None

    @property
    def teilaufgaben_anzahl(self) -> int:
        return sum(len(t.teilaufgaben) for t in self.aufgaben)

    def all_tasks(self) -> list[ParsedTask]:
        return [x for t in self.aufgaben for x in (t, *t.teilaufgaben)]

    def content(self, *, quelle_datei: str, upload_id: uuid.UUID | str) -> dict[str, Any]:
        out: dict[str, Any] = {"titel": self.titel or PurePath(quelle_datei).stem}
        if self.klassenstufe is not None:
            out["klassenstufe"] = self.klassenstufe
        if self.dauer_minuten is not None:
            out["dauer_minuten"] = self.dauer_minuten
        if self.gesamtpunkte is not None:
            out["gesamtpunkte"] = self.gesamtpunkte
        if self.vorspann:
            out["vorspann"] = self.vorspann
        out["aufgaben"] = [t.as_content() for t in self.aufgaben]
        if self.nachspann:
            out["nachspann"] = self.nachspann
        out["quelle_datei"] = quelle_datei
        out["upload_id"] = str(upload_id)
        return out


def _clean_lines(text: str) -> list[str]:
    """Non-empty lines with runs of spaces collapsed; a tab stays (it separates right-aligned points)."""
    lines = []
    for raw in text[:MAX_TEXT_CHARS].replace("\r\n", "\n").replace("\x00", "").split("\n"):
        line = re.sub(r"[ \u00a0\f\v]+", " ", raw)
        line = re.sub(r" *\t[\t ]*", "\t", line).strip()
        if line:
            lines.append(line)
    return lines


def _top_number_chain(lines: list[str]) -> set[int]:
    """Line indexes of top-level "1." / "1)" tasks: the longest run 1, 2, 3 … (a title like "1. Klassenarbeit"
    followed by the real "1." loses to the later start)."""
    candidates = [(i, int(m.group(1))) for i, line in enumerate(lines) if (m := _TOP_NUMBER.match(line))]
    best: list[int] = []
    for start, (_, num) in enumerate(candidates):
        if num != 1:
            continue
        chain, expected = [candidates[start][0]], 2
        for i, n in candidates[start + 1:]:
            if n == expected:
                chain.append(i)
                expected += 1
        if len(chain) >= len(best):
            best = chain
    return set(best)


def _detect_fach(lines: list[str]) -> str | None:
    for line in lines:
        m = _FACH_FIELD.search(line)
        if m:
            try:
                return normalize_fach(m.group(1))
            except UserError:
                pass
    names = {**{v.lower(): k for k, v in FAECHER.items()}, "mathe": "mathematik", "erdkunde": "geographie",
             "geografie": "geographie", "bio": "biologie"}
    pattern = re.compile(r"(?<![\wäöüß])(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True))
                         + r")(?![\wäöüß])", re.IGNORECASE)
    for line in lines:
        m = pattern.search(line)
        if m:
            return names[m.group(1).lower()]
    return None


def _title(lines: list[str]) -> str | None:
    def cell(line: str) -> str:
        parts = [p.strip() for p in line.split("|") if p.strip()]
        return next((p for p in parts if _TITLE_WORDS.search(p)), parts[0] if parts else line)

    for line in lines:
        if _TITLE_WORDS.search(line) and len(line) <= 160 and not _FIELD.match(line):
            return cell(line)[:200]
    for line in lines:
        if len(line) <= 120 and not _FIELD.match(line) and not _KLASSE.match(line):
            return cell(line)[:200]
    return None


def _fmt(value: float | int | None) -> str:
    return "–" if value is None else str(value).replace(".", ",")


def parse_exam(text: str, *, fach_hint: str | None = None, operators: Mapping[str, str] | None = None) -> ParsedExam:
    """Tasks, sub-tasks, points, AFB and operators of an exam or worksheet text — faithful, nothing invented.

    `operators` (name -> AFB, e.g. the subject's list) overrides the general table when AFB is inferred."""
    table = OperatorTable.build(operators)
    lines = _clean_lines(text)
    aufgabe_style = any(_AUFGABE.match(line) for line in lines)
    number_tops = set() if aufgabe_style else _top_number_chain(lines)
    implicit_tops = not aufgabe_style and not number_tops
    vorspann: list[str] = []
    nachspann: list[str] = []
    tasks: list[ParsedTask] = []
    current: ParsedTask | None = None
    target: ParsedTask | None = None  # where the next line of text goes (a task or its sub-task)
    teil: str | None = None
    state = "pre"
    gesamt: float | int | None = None

    def start_task(nummer: str, rest: str, bonus: bool = False) -> None:
        nonlocal current, target, state
        current = ParsedTask(nummer=nummer, bonus=bonus, teil=teil)
        tasks.append(current)
        target, state = current, "task"
        if rest and not add_sub(rest):
            current.lines.append(rest)

    def add_sub(line: str) -> bool:
        nonlocal target
        if current is None:
            return False
        subs = current.teilaufgaben
        m = _LETTER.match(line)
        if m and current.sub_style in (None, "letter"):
            letter = m.group(1) or m.group(2) or m.group(3)
            if letter == chr(ord("a") + len(subs)):
                current.sub_style = "letter"
                target = ParsedTask(nummer=letter)
                subs.append(target)
                if m.group(4):
                    target.lines.append(m.group(4))
                return True
        m = _DOTTED.match(line)
        if m and current.sub_style in (None, "dotted") and m.group(1) == current.nummer:
            current.sub_style = "dotted"
            target = ParsedTask(nummer=f"{m.group(1)}.{m.group(2)}")
            subs.append(target)
            if m.group(3):
                target.lines.append(m.group(3))
            return True
        m = _TOP_NUMBER.match(line)
        if m and aufgabe_style and current.sub_style in (None, "number") and int(m.group(1)) == len(subs) + 1:
            current.sub_style = "number"
            target = ParsedTask(nummer=m.group(1))
            subs.append(target)
            if m.group(2):
                target.lines.append(m.group(2))
            return True
        return False

    for i, line in enumerate(lines):
        total = _TOTAL.match(line)
        if total:
            gesamt = gesamt if gesamt is not None else _number(total.group("p"))
        m_auf = _AUFGABE.match(line) if aufgabe_style else None
        m_bonus = _BONUS.match(line)
        if m_auf:
            start_task(m_auf.group(1), m_auf.group(2))
        elif m_bonus and (state != "pre" or tasks):
            start_task(m_bonus.group(2) or "Zusatz", m_bonus.group(3), bonus=True)
        elif i in number_tops:
            m = _TOP_NUMBER.match(line)
            start_task(m.group(1), m.group(2))
        elif _TEIL.match(line) and len(line) <= 120:
            teil = line
            state, current, target = "between", None, None
        elif implicit_tops and (m := _DOTTED.match(line)) and (current is None or m.group(1) != current.nummer):
            start_task(m.group(1), "")  # "1.1", "1.2" without a "1." line: task 1 exists only as its number
            add_sub(line)
        elif state == "task" and current is not None:
            if total or _FOOTER.match(line):
                state = "post"
                nachspann.append(line)
            elif not add_sub(line):
                assert target is not None
                target.lines.append(line)
        elif state == "between" and teil is not None:
            teil = f"{teil}\n{line}"  # the introduction of a part ("Hilfsmittel: …") belongs to its label
        elif state == "pre":
            vorspann.append(line)
        else:
            nachspann.append(line)

    for t in tasks:
        t.finish(table)
    head = vorspann[:40]
    titel = _title(head)
    fach_doc = _detect_fach(head)
    fach = fach_doc
    if fach is None and fach_hint:
        try:
            fach = normalize_fach(fach_hint)
        except UserError:
            fach = None
    klassenstufe = next((int(m.group(1)) for line in head if (m := _KLASSE.search(line))
                         and 1 <= int(m.group(1)) <= 13), None)
    dauer = None
    for line in head:
        m = _DAUER.search(line)
        if m:
            n = int(m.group(1))
            dauer = n * 60 if m.group(2).lower().startswith(("h", "std", "stunde")) else n
            break
    if dauer is None:
        dauer = next((int(m.group(1)) for line in head if (m := _DAUER_LOOSE.search(line))), None)
    exam = ParsedExam(
        titel=titel, fach=fach, fach_im_dokument=fach_doc, klassenstufe=klassenstufe, dauer_minuten=dauer,
        gesamtpunkte=gesamt, aufgaben=tasks,
        vorspann="\n".join(line for line in vorspann if line != titel and not _TOTAL.match(line))[:4000],
        nachspann="\n".join(line for line in nachspann if not _TOTAL.match(line))[:4000], hinweise=[],
    )
    exam.hinweise = _exam_notes(exam)
    return exam


def _exam_notes(exam: ParsedExam) -> list[str]:
    notes = []
    summe = exam.punkte_summe
    if exam.gesamtpunkte is not None and summe is not None and abs(summe - exam.gesamtpunkte) > 1e-9:
        notes.append(f"Die erkannten Punkte ergeben {_fmt(summe)}, im Dokument steht als Gesamtpunktzahl "
                     f"{_fmt(exam.gesamtpunkte)}. Bitte prüfen.")
    for t in exam.aufgaben:
        subs = [s.punkte for s in t.teilaufgaben]
        if t.punkte is not None and subs and all(p is not None for p in subs) and abs(sum(subs) - t.punkte) > 1e-9:
            notes.append(f"Aufgabe {t.nummer}: Die Teilaufgaben ergeben {_fmt(sum(subs))} Punkte, angegeben sind "
                         f"{_fmt(t.punkte)}.")
    missing = [t.nummer for t in exam.aufgaben if t.points_total is None]
    if missing and len(missing) < len(exam.aufgaben):
        notes.append("Ohne erkannte Punkte: Aufgabe " + ", ".join(missing) + ".")
    return notes


# --- curriculum parsing -------------------------------------------------------------------------------------------

_GRADE = re.compile(
    r"^(?:Klassenstufen?|Jahrgangsstufen?|Doppeljahrgangsstufe|Schuljahrgänge?|Klassen?|Jg\.)\s*:?\s*(\d{1,2})"
    r"(?:\s*(?:[/,–-]|und|bis)\s*(\d{1,2}))?(?!\d)", re.IGNORECASE)
_NUMBERED_HEADING = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+([A-ZÄÖÜ].{1,110})$")
_KEYWORD_HEADING = re.compile(
    r"^(?:Lernbereich|Themenfeld|Themenbereich|Inhaltsfeld|Kompetenzbereich|Lernfeld|Wahlpflichtbereich|"
    r"Wahlbereich|Themenkomplex|Unterrichtsvorhaben|Kurshalbjahr|Einführungsphase|Qualifikationsphase)\b",
    re.IGNORECASE)
_SECTION_NUMBER = re.compile(r"^\d{1,2}(?:\.\d{1,2})*\.?\s+")


def _grades(heading: str) -> list[int]:
    m = _GRADE.match(heading)
    if not m:
        return []
    a, b = int(m.group(1)), int(m.group(2) or m.group(1))
    if not (1 <= a <= 13 and 1 <= b <= 13):
        return []
    return list(range(min(a, b), max(a, b) + 1)) if b - a <= 4 else [a, b]


def _text_heading_level(block: Block) -> int | None:
    """A heading from its words alone (plain text, PDFs without font sizes, DOCX without heading styles)."""
    t = block.text
    if len(t) > 120 or t.endswith((".", ",", ";")) or "|" in t:
        return None
    if _GRADE.match(t) and len(t) <= 60:
        return 1
    m = _NUMBERED_HEADING.match(t)
    if m and len(t.split()) <= 14:
        return m.group(1).count(".") + 1 + 1
    if _KEYWORD_HEADING.match(t):
        return 2
    if block.bold and len(t) <= 100:
        return 3
    return None


@dataclass(frozen=True)
class CurriculumPiece:
    abschnitt: str | None
    themenfeld: str | None
    thema: str
    klassenstufen: tuple[int, ...]
    kompetenz: str


def split_paragraphs(paragraphs: list[str], *, low: int = CHUNK_MIN, high: int = CHUNK_MAX) -> list[str]:
    """Pieces of about low..high characters, cut at paragraph boundaries (a too long paragraph at sentences)."""
    units: list[str] = []
    for para in paragraphs:
        if len(para) <= high:
            units.append(para)
            continue
        sentences = re.split(r"(?<=[.!?;])\s+", para)
        buf = ""
        for s in sentences:
            while len(s) > high:
                cut = s.rfind(" ", 0, high)
                cut = cut if cut > low // 2 else high
                if buf:
                    units.append(buf)
                    buf = ""
                units.append(s[:cut].strip())
                s = s[cut:].strip()
            if buf and len(buf) + 1 + len(s) > high:
                units.append(buf)
                buf = s
            else:
                buf = f"{buf} {s}".strip()
        if buf:
            units.append(buf)
    pieces: list[str] = []
    buf = ""
    for unit in units:
        if buf and len(buf) + 2 + len(unit) > high and len(buf) >= low // 2:
            pieces.append(buf)
            buf = unit
        else:
            buf = f"{buf}\n\n{unit}".strip() if buf else unit
    if buf:
        if pieces and len(buf) < low // 2 and len(pieces[-1]) + 2 + len(buf) <= high + low // 2:
            pieces[-1] = f"{pieces[-1]}\n\n{buf}"
        else:
            pieces.append(buf)
    return pieces


def parse_curriculum(blocks: list[Block], *, fallback_thema: str,
                     klassenstufen: Iterable[int] = ()) -> list[CurriculumPiece]:
    """Section-aware pieces: the heading path is `abschnitt`, its deepest heading the `thema`, the one above the
    `themenfeld`; grade headings ("Klassenstufe 9") give `klassenstufen`. Long sections split at paragraphs."""
    styled = any(b.level is not None and b.level > 0 for b in blocks)
    default_grades = tuple(sorted(set(klassenstufen)))
    title: str | None = None
    stack: list[tuple[int, str]] = []
    sections: list[tuple[tuple[str, ...], list[str]]] = []
    paragraphs: list[str] = []

    def flush() -> None:
        if paragraphs:
            sections.append((tuple(h for _, h in stack), list(paragraphs)))
            paragraphs.clear()

    for block in blocks:
        level = block.level if styled else (block.level if block.level == 0 else _text_heading_level(block))
        if level == 0:
            flush()
            title = title or block.text
            continue
        if level is not None:
            flush()
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, block.text[:300]))
            continue
        if paragraphs and not block.para_start:
            prev = paragraphs[-1]
            hyphenated = prev.endswith("-") and block.text[:1].islower()
            paragraphs[-1] = prev[:-1] + block.text if hyphenated else f"{prev} {block.text}"
        else:
            paragraphs.append(block.text)
    flush()

    pieces: list[CurriculumPiece] = []
    for path, paras in sections:
        grades: tuple[int, ...] = ()
        topical: list[str] = []
        for heading in path:
            g = _grades(heading)
            if g:
                grades = tuple(g)
            else:
                topical.append(_SECTION_NUMBER.sub("", heading).strip() or heading)
        thema = (topical[-1] if topical else (path[-1] if path else (title or fallback_thema)))[:200]
        themenfeld = topical[-2][:200] if len(topical) >= 2 else None
        abschnitt = " › ".join(path) if path else None
        for text in split_paragraphs(paras):
            pieces.append(CurriculumPiece(abschnitt=abschnitt, themenfeld=themenfeld, thema=thema,
                                          klassenstufen=grades or default_grades, kompetenz=text))
    return pieces


# --- storing ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportResult:
    kind: ImportKind
    upload_id: uuid.UUID
    filename: str
    message: str
    knowledge_id: uuid.UUID | None = None
    chunk_ids: tuple[uuid.UUID, ...] = ()
    hinweise: tuple[str, ...] = ()


def _own_upload(db: Session, teacher: Teacher, upload_id: uuid.UUID) -> Upload:
    row = db.get(Upload, upload_id)
    if row is None or row.teacher_id != teacher.id:
        raise NotFoundError("Diese Datei gibt es nicht (oder sie gehört einer anderen Lehrkraft).")
    return row


def _stored_blocks(upload: Upload) -> list[Block]:
    """Blocks of an already stored upload (e.g. a chat attachment), behind the same DOCX guards as a new file."""
    if upload.kind == "docx":
        _guard_docx(upload.data)
    return _parse_or_corrupt(upload.kind, lambda: document_blocks(upload.kind, upload.data))


def _check_agent(agent_type: str) -> str:
    if agent_type not in EXAMPLE_AGENTS:
        raise UserError(f"Beispiele gibt es für Klausur und Differenzierung, nicht für „{str(agent_type)[:30]}“.")
    return agent_type


def _no_tasks() -> UserError:
    return UserError(
        "Keine Aufgaben erkannt. Beispiele brauchen nummerierte Aufgaben („Aufgabe 1“, „1.“, „1)“, Teilaufgaben "
        "„a)“). Sie können das Dokument trotzdem als unstrukturiertes Beispiel speichern (dann liest der Assistent "
        "nur den Text) oder es als Lehrplan hochladen. Es wurde nichts gespeichert."
    )


def _example_row(*, db: Session, teacher: Teacher, upload: Upload, blocks: list[Block], fach: str | None,
                 agent_type: str, keep_unstructured: bool) -> tuple[AgentKnowledge, list[str]]:
    _check_agent(agent_type)
    given = normalize_fach(fach) if fach else None
    text = blocks_text(blocks)
    fach_key = given or parse_exam(text).fach_im_dokument
    if fach_key is None:
        raise UserError("Das Fach steht nicht im Dokument. Bitte das Fach angeben (z. B. Physik).")
    operators = {o["operator"]: o["afb"] for o in knowledge_repo.operator_list(db=db, fach=fach_key)
                 if isinstance(o, dict) and "operator" in o and "afb" in o}
    exam = parse_exam(text, fach_hint=fach_key, operators=operators)
    notes = list(exam.hinweise)
    if given and exam.fach_im_dokument and exam.fach_im_dokument != given:
        notes.append(f"Im Dokument steht {fach_name(exam.fach_im_dokument)}; gespeichert wird es unter "
                     f"{fach_name(given)}, wie angegeben.")
    if exam.aufgaben:
        content = exam.content(quelle_datei=upload.filename, upload_id=upload.id)
    elif keep_unstructured:
        content = {"titel": exam.titel or PurePath(upload.filename).stem, "aufgaben": [],
                   "unstrukturiert": True, "text": text[:MAX_UNSTRUCTURED_CHARS],
                   "quelle_datei": upload.filename, "upload_id": str(upload.id)}
        notes.append("Keine Aufgaben erkannt – als Text gespeichert.")
    else:
        raise _no_tasks()
    external_id = f"upload:{upload.id}"
    if knowledge_repo.find_by_external_id(db=db, external_id=external_id) is not None:
        raise UserError("Diese Datei ist bereits als Beispiel gespeichert.")
    titel = str(content["titel"])[:200]
    # The tasks' own words (sub-tasks included), not file names, ids or AFB labels, are what the example is found by.
    words = [content.get("text") or ""] + [t.text for t in exam.all_tasks()]
    search_text = knowledge_text(content={"text": "\n".join(w for w in words if w)}, description=titel)
    row = knowledge_repo.add_knowledge(
        db=db, agent_type=agent_type, scope_type="teacher", scope_id=teacher.id, owner_id=teacher.id,
        fach=fach_key, thema=None, knowledge_type="example", content=content, description=titel,
        source="upload", external_id=external_id, search_text=search_text,
        embedding=embed_documents([search_text])[0], embedding_model=embedding_model_name(),
    )
    return row, notes


def import_example(*, db: Session, teacher: Teacher, upload_id: uuid.UUID, fach: str | None = None,
                   agent_type: str = "klausur", keep_unstructured: bool = False) -> AgentKnowledge:
    """An uploaded exam/worksheet as the teacher's own `example` (teacher scope); nothing stored on any error.

    Without recognisable tasks this refuses ("Keine Aufgaben erkannt …") unless `keep_unstructured`, which stores
    the plain text as an example marked `unstrukturiert` (the teacher chose it explicitly)."""
    upload = _own_upload(db, teacher, upload_id)
    blocks = _stored_blocks(upload)
    if not blocks:
        raise UserError("Das Dokument enthält keinen Text. Bitte die richtige Datei wählen.")
    with db.begin_nested():
        row, _ = _example_row(db=db, teacher=teacher, upload=upload, blocks=blocks, fach=fach,
                              agent_type=agent_type, keep_unstructured=keep_unstructured)
    return row


def _curriculum_rows(*, db: Session, teacher: Teacher, upload: Upload, blocks: list[Block], fach: str,
                     scope: str, bundesland: str | None, schulform: str | None,
                     klassenstufen: Iterable[int]) -> list[CurriculumChunk]:
    fach_key = normalize_fach(fach)
    if scope not in ("teacher", "school"):
        raise UserError("Ein Lehrplan kann nur für Sie selbst oder für Ihre Schule gespeichert werden.")
    if scope == "school" and teacher.school_id is None:
        raise UserError("Sie sind keiner Schule zugeordnet. Bitte den Lehrplan nur für sich selbst speichern.")
    school = db.get(School, teacher.school_id) if teacher.school_id else None
    pieces = parse_curriculum(blocks, fallback_thema=PurePath(upload.filename).stem[:200],
                              klassenstufen=klassenstufen)
    if not pieces:
        raise UserError("Im Dokument wurden keine Lehrplan-Abschnitte mit Text gefunden. Es wurde nichts gespeichert.")
    scope_id = teacher.id if scope == "teacher" else teacher.school_id
    texts = [" ".join([p.themenfeld or "", p.thema, p.kompetenz]) for p in pieces]
    vectors = embed_documents(texts)
    model = embedding_model_name()
    rows = []
    for i, (piece, vec) in enumerate(zip(pieces, vectors, strict=True), start=1):
        rows.append(knowledge_repo.add_curriculum(
            db=db, scope_type=scope, scope_id=scope_id, owner_id=teacher.id,
            bundesland=(bundesland or teacher.bundesland or "nicht angegeben")[:60],
            schulform=(schulform or (school.schulform if school else None) or "nicht angegeben")[:60],
            fach=fach_key, klassenstufen=list(piece.klassenstufen), themenfeld=piece.themenfeld, thema=piece.thema,
            kompetenz=piece.kompetenz, quelle=upload.filename, abschnitt=piece.abschnitt,
            external_id=f"upload:{upload.id}:{i}", embedding=vec, embedding_model=model,
        ))
    return rows


def import_curriculum(*, db: Session, teacher: Teacher, upload_id: uuid.UUID, fach: str,
                      scope: Literal["teacher", "school"] = "teacher", bundesland: str | None = None,
                      schulform: str | None = None, klassenstufen: Iterable[int] = ()) -> list[CurriculumChunk]:
    """An uploaded Lehrplan as section-aware curriculum chunks (teacher or school scope); all or nothing."""
    upload = _own_upload(db, teacher, upload_id)
    blocks = _stored_blocks(upload)
    with db.begin_nested():
        return _curriculum_rows(db=db, teacher=teacher, upload=upload, blocks=blocks, fach=fach, scope=scope,
                                bundesland=bundesland, schulform=schulform, klassenstufen=klassenstufen)


def _example_message(row: AgentKnowledge, agent_type: str) -> str:
    c = row.content
    tasks = c.get("aufgaben") or []
    if c.get("unstrukturiert"):
        return (f"„{c['titel']}“ als unstrukturiertes Beispiel gespeichert ({fach_name(row.fach)}, "
                f"{agent_type.capitalize()}).")
    subs = sum(len(t.get("teilaufgaben") or []) for t in tasks)
    parts = [f"{len(tasks)} Aufgabe{'n' if len(tasks) != 1 else ''}"]
    if subs:
        parts.append(f"{subs} Teilaufgabe{'n' if subs != 1 else ''}")
    total = c.get("gesamtpunkte")
    if total is None:
        points = [t.get("punkte") if t.get("punkte") is not None
                  else sum(s.get("punkte") or 0 for s in t.get("teilaufgaben") or []) for t in tasks
                  if not t.get("bonus")]
        total = sum(points) if any(points) else None
    if total is not None:
        parts.append(f"{_fmt(total)} Punkte")
    return (f"„{c['titel']}“ als eigenes Beispiel gespeichert ({fach_name(row.fach)}, {agent_type.capitalize()}): "
            + ", ".join(parts) + ".")


def import_file(*, teacher_id: uuid.UUID, filename: str, data: bytes, kind: ImportKind, fach: str | None = None,
                agent_type: str = "klausur", scope: Literal["teacher", "school"] = "teacher",
                bundesland: str | None = None, keep_unstructured: bool = False,
                mime: str = "application/octet-stream") -> ImportResult:
    """Check, store, parse and import a teacher's document in one unit of work: all or nothing.

    kind "example": an exam/worksheet -> the teacher's `example` (agent klausur|differenzierung);
    kind "curriculum": a Lehrplan -> curriculum chunks for the teacher or their school (`fach` required)."""
    if kind not in ("example", "curriculum"):
        raise UserError("Bitte wählen, ob die Datei ein Beispiel oder ein Lehrplan ist.")
    if kind == "example":
        _check_agent(agent_type)
    elif not fach:
        raise UserError("Bitte das Fach des Lehrplans angeben.")
    if fach:
        normalize_fach(fach)
    file_kind, text, blocks = check_document(filename, data)
    with acting(teacher_id) as (db, teacher, _):
        stored = add_upload(db=db, teacher_id=teacher.id, conversation_id=None, filename=filename, mime=mime,
                            data=data, kind=file_kind, text=text)
        upload = db.get(Upload, stored.id)
        assert upload is not None
        if kind == "example":
            row, notes = _example_row(db=db, teacher=teacher, upload=upload, blocks=blocks, fach=fach,
                                      agent_type=agent_type, keep_unstructured=keep_unstructured)
            return ImportResult(kind="example", upload_id=stored.id, filename=stored.filename,
                                message=_example_message(row, agent_type), knowledge_id=row.id,
                                hinweise=tuple(notes))
        rows = _curriculum_rows(db=db, teacher=teacher, upload=upload, blocks=blocks, fach=fach or "",
                                scope=scope, bundesland=bundesland, schulform=None, klassenstufen=())
        sections = len({(r.abschnitt, r.thema) for r in rows})
        wem = "für Ihre Schule" if scope == "school" else "nur für Sie"
        return ImportResult(
            kind="curriculum", upload_id=stored.id, filename=stored.filename, chunk_ids=tuple(r.id for r in rows),
            message=(f"Lehrplan „{stored.filename}“ übernommen ({fach_name(rows[0].fach)}, {wem}): {sections} "
                     f"Abschnitt{'e' if sections != 1 else ''} in {len(rows)} "
                     f"{'Auszügen' if len(rows) != 1 else 'Auszug'}."),
        )
