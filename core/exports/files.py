"""Render a material into its downloadable files with safe file names: every printable document as DOCX and PDF
from the same sheet (exam: Schüler- and Lehrerfassung, per group A/B when made; worksheet: pupils' and teacher's
file), the H5P package, Moodle XML and the teacher's solution sheet."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from core.exports import h5p, moodle, sheets_differenzierung, sheets_h5p, sheets_klausur
from core.exports.docx_render import render_docx
from core.exports.pdf_render import render_pdf
from core.exports.printable import printable_differenzierung, printable_klausur
from core.exports.sheet import Sheet
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
PDF = "application/pdf"


@dataclass(frozen=True)
class RenderedFile:
    kind: str
    filename: str
    mime: str
    data: bytes
    label: str


def safe_name(text: str, limit: int = 60) -> str:
    """A file name part without paths, umlauts or odd characters ("../Klausur: Ö" -> "Klausur_Oe")."""
    text = text.replace("Ä", "Ae").replace("Ö", "Oe").replace("Ü", "Ue").replace("ä", "ae").replace("ö", "oe")
    text = text.replace("ü", "ue").replace("ß", "ss")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")
    return text[:limit].rstrip("_") or "Material"


def _both(kind: str, stem: str, label: str, sheet: Sheet) -> list[RenderedFile]:
    """The sheet as DOCX and as PDF (kinds '<kind>_docx' and '<kind>_pdf')."""
    return [RenderedFile(f"{kind}_docx", f"{stem}.docx", DOCX, render_docx(sheet), f"{label} (DOCX)"),
            RenderedFile(f"{kind}_pdf", f"{stem}.pdf", PDF, render_pdf(sheet), f"{label} (PDF)")]


def _klausur(k: Klausur, base: str, afb_ziel: dict[str, int] | None) -> list[RenderedFile]:
    k = printable_klausur(k)
    lehrer = sheets_klausur.lehrerfassung(k, afb_ziel=afb_ziel)
    if k.gruppe_b:
        return [*_both("schueler", f"{base}_Gruppe_A_Schuelerfassung", "Schülerfassung Gruppe A",
                       sheets_klausur.schuelerfassung(k, "A")),
                *_both("schueler_b", f"{base}_Gruppe_B_Schuelerfassung", "Schülerfassung Gruppe B",
                       sheets_klausur.schuelerfassung(k, "B")),
                *_both("lehrer", f"{base}_Lehrerfassung", "Lehrerfassung A und B", lehrer)]
    return [*_both("schueler", f"{base}_Schuelerfassung", "Schülerfassung", sheets_klausur.schuelerfassung(k)),
            *_both("lehrer", f"{base}_Lehrerfassung", "Lehrerfassung", lehrer)]


def render(material: Klausur | DifferenziertesMaterial | H5PSet, *, afb_ziel: dict[str, int] | None = None
           ) -> list[RenderedFile]:
    base = safe_name(f"{material.fach}_{material.thema}")
    if isinstance(material, Klausur):
        return _klausur(material, base, afb_ziel)
    if isinstance(material, DifferenziertesMaterial):
        d = printable_differenzierung(material)
        return [*_both("arbeitsblatt", f"{base}_Arbeitsblatt", "Arbeitsblatt für die Klasse, drei Niveaus",
                       sheets_differenzierung.schuelerfassung(d)),
                *_both("loesungen", f"{base}_Loesungen", "Lösungen und Hinweise für Sie",
                       sheets_differenzierung.lehrerfassung(d))]
    return [
        RenderedFile("h5p", f"{base}.h5p", "application/zip", h5p.build_package(material), "H5P-Paket (.h5p)"),
        RenderedFile("moodle_xml", f"{base}_Moodle.xml", "application/xml", moodle.to_moodle_xml(material),
                     "Moodle-XML"),
        RenderedFile("loesungen_pdf", f"{base}_Loesungen.pdf", PDF, render_pdf(sheets_h5p.lehrerblatt(material)),
                     "Lösungen und Hinweise für Sie (PDF)"),
    ]
