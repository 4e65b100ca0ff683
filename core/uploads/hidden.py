"""What a DOCX hides from its reader but a parser (and so a model) may read: runs in white, tiny or hidden font,
alternative texts of images, comments. Runs in the upload sandbox, after the document passed its checks."""

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
