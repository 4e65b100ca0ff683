"""Render a material into its downloadable files (DOCX, .h5p, Moodle XML) with safe file names."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from core.exports import docx_differenzierung, docx_klausur, h5p, moodle
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


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


def render(material: Klausur | DifferenziertesMaterial | H5PSet, *, afb_ziel: dict[str, int] | None = None
           ) -> list[RenderedFile]:
    base = safe_name(f"{material.fach}_{material.thema}")
    if isinstance(material, Klausur) and material.gruppe_b:
        return [
            RenderedFile("schueler_docx", f"{base}_Gruppe_A_Schuelerfassung.docx", DOCX,
                         docx_klausur.schuelerfassung(material, "A"), "Schülerfassung Gruppe A (DOCX)"),
            RenderedFile("schueler_b_docx", f"{base}_Gruppe_B_Schuelerfassung.docx", DOCX,
                         docx_klausur.schuelerfassung(material, "B"), "Schülerfassung Gruppe B (DOCX)"),
            RenderedFile("lehrer_docx", f"{base}_Lehrerfassung.docx", DOCX,
                         docx_klausur.lehrerfassung(material, afb_ziel=afb_ziel), "Lehrerfassung A und B (DOCX)"),
        ]
    if isinstance(material, Klausur):
        return [
            RenderedFile("schueler_docx", f"{base}_Schuelerfassung.docx", DOCX, docx_klausur.schuelerfassung(material),
                         "Schülerfassung (DOCX)"),
            RenderedFile("lehrer_docx", f"{base}_Lehrerfassung.docx", DOCX,
                         docx_klausur.lehrerfassung(material, afb_ziel=afb_ziel), "Lehrerfassung (DOCX)"),
        ]
    if isinstance(material, DifferenziertesMaterial):
        return [RenderedFile("arbeitsblatt_docx", f"{base}_Arbeitsblatt.docx", DOCX,
                             docx_differenzierung.arbeitsblatt(material), "Arbeitsblatt, drei Niveaus (DOCX)")]
    return [
        RenderedFile("h5p", f"{base}.h5p", "application/zip", h5p.build_package(material), "H5P-Paket (.h5p)"),
        RenderedFile("moodle_xml", f"{base}_Moodle.xml", "application/xml", moodle.to_moodle_xml(material),
                     "Moodle-XML"),
    ]
