"""What a DOCX or PDF hides from its reader but a parser (and so a model) may read: runs in white, tiny or hidden
font, alternative texts of images, comments; in a PDF text in white, in type of 3 pt or less, or drawn invisibly
(render mode 3/7). Runs in the upload sandbox, after the document passed its checks."""

from __future__ import annotations

import io
import re
import zipfile

from defusedxml import ElementTree

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_PARTS = re.compile(r"word/(?:document|header\d*|footer\d*|footnotes|endnotes)\.xml")
_TINY_HALF_POINTS = 6  # 3 pt and less: nobody reads that on paper


def _off(el: object) -> bool:
    return el is not None and el.get(f"{W}val", "true").lower() not in ("0", "false", "off")  # type: ignore[attr-defined]


def _whitish(value: str | None) -> bool:
    if not value or not re.fullmatch(r"[0-9A-Fa-f]{6}", value):
        return False
    return all(int(value[i : i + 2], 16) >= 0xF0 for i in (0, 2, 4))


def _hidden_run(rpr: object) -> bool:
    if rpr is None:
        return False
    color = rpr.find(f"{W}color")  # type: ignore[attr-defined]
    size = rpr.find(f"{W}sz")  # type: ignore[attr-defined]
    tiny = size is not None and (size.get(f"{W}val") or "").isdigit() and int(size.get(f"{W}val")) <= _TINY_HALF_POINTS
    return (
        _off(rpr.find(f"{W}vanish"))
        or _off(rpr.find(f"{W}specVanish"))  # type: ignore[attr-defined]
        or (color is not None and _whitish(color.get(f"{W}val")))
        or tiny
    )


def docx_hidden(data: bytes) -> list[tuple[str, str]]:
    """("versteckt" | "alt" | "kommentar", text) for each kind that occurs in the document."""
    hidden: list[str] = []
    alt: list[str] = []
    comments: list[str] = []
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for name in z.namelist():
            if not _PARTS.fullmatch(name):
                continue
            try:
                root = ElementTree.fromstring(z.read(name))
            except Exception:  # noqa: BLE001 — one unreadable part must not hide what the others hide
                continue
            for run in root.iter(f"{W}r"):
                if _hidden_run(run.find(f"{W}rPr")):
                    hidden.append("".join(t.text or "" for t in run.iter(f"{W}t")))
            for el in root.iter():
                if el.tag.endswith(("}docPr", "}cNvPr")):
                    alt += [v for k in ("descr", "title") if (v := el.get(k))]
        if "word/comments.xml" in z.namelist():
            try:
                root = ElementTree.fromstring(z.read("word/comments.xml"))
                comments = ["".join(t.text or "" for t in c.iter(f"{W}t")) for c in root.iter(f"{W}comment")]
            except Exception:  # noqa: BLE001
                comments = ["(Kommentare nicht lesbar)"]
    found = [("versteckt", " ".join(hidden)), ("alt", "\n".join(alt)), ("kommentar", "\n".join(comments))]
    return [(kind, text) for kind, text in found if text.strip()]


_PDF_SHOW = (b"Tj", b"TJ", b"'", b'"')


def _pdf_fill(op: bytes, args: list) -> tuple[float, ...] | None:
    """The fill colour an operator sets, as RGB in 0..1 (None: not a plain colour operator)."""
    try:
        values = [float(a) for a in args]
    except (TypeError, ValueError):
        return None
    if op == b"rg" and len(values) == 3:
        return tuple(values)
    if op == b"g" and len(values) == 1:
        return (values[0],) * 3
    if op == b"k" and len(values) == 4:
        c, m, y, k = values
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return None


def _page_hidden(page: object) -> list[str]:
    """The text of one PDF page that is shown white, tiny or invisibly (pypdf's visitors: the graphics state is
    followed operator by operator; text that pypdf flushes after a hidden show operator counts as hidden)."""
    state = {"fill": (0.0, 0.0, 0.0), "mode": 0, "size": 12.0}
    stack: list[dict] = []
    pending = {"hidden": False}
    found: list[str] = []

    def before(op: bytes, args: list, cm: list[float], tm: list[float]) -> None:
        if op == b"q":
            stack.append(dict(state))
        elif op == b"Q" and stack:
            state.update(stack.pop())
        elif (fill := _pdf_fill(op, args)) is not None:
            state["fill"] = fill
        elif op == b"Tr" and args:
            state["mode"] = int(float(args[0]))
        elif op == b"Tf" and len(args) == 2:
            state["size"] = abs(float(args[1]))
        elif op in _PDF_SHOW:
            a, b, c, d = tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3], \
                tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3]
            size = state["size"] * abs(a * d - b * c) ** 0.5
            white = all(v >= 0.94 for v in state["fill"])
            if state["mode"] in (3, 7) or white or size <= _TINY_HALF_POINTS / 2:
                pending["hidden"] = True

    def text(t: str, *_: object) -> None:
        if t.strip():
            if pending["hidden"]:
                found.append(t.strip())
            pending["hidden"] = False

    page.extract_text(visitor_operand_before=before, visitor_text=text)  # type: ignore[attr-defined]
    return found


def pdf_hidden(data: bytes, max_pages: int) -> list[tuple[str, str]]:
    """("versteckt", text) when the PDF shows text its reader cannot see; [] otherwise."""
    from pypdf import PdfReader

    hidden: list[str] = []
    for page in PdfReader(io.BytesIO(data)).pages[:max_pages]:
        hidden += _page_hidden(page)
    text = " ".join(hidden)
    return [("versteckt", text)] if text.strip() else []
