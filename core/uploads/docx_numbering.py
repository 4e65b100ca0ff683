"""Word's automatic list numbers ("1.", "a)", "iv.") that python-docx leaves out of the paragraph text,
rendered as Word shows them."""

from __future__ import annotations

import re
from typing import Any

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


class DocxNumbering:
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
