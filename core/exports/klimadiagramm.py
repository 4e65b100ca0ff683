"""A Klimadiagramm after Walter/Lieth, drawn from a climate table (a row of monthly temperatures, a row of monthly
precipitation): precipitation as blue bars on the right axis, temperature as a red line on the left axis, 10 °C on
the same height as 20 mm; the station, the annual mean temperature and the annual precipitation above.

Drawn with Pillow (already required by fpdf2) into a PNG that the DOCX and the PDF both embed.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from core.exports.lines import FONT_DIR, FONT_FILES
from core.materials.blocks import Tabelle

MONTHS = ("J", "F", "M", "A", "M", "J", "J", "A", "S", "O", "N", "D")
_MONTH_HEADS = (
    ("j", "jan", "januar"), ("f", "feb", "februar"), ("m", "mär", "mrz", "märz"), ("a", "apr", "april"),
    ("m", "mai"), ("j", "jun", "juni"), ("j", "jul", "juli"), ("a", "aug", "august"), ("s", "sep", "sept", "september"),
    ("o", "okt", "oktober"), ("n", "nov", "november"), ("d", "dez", "dezember"),
)
_NUMBER = re.compile(r"^[−–-]?\d+(?:[.,]\d+)?$")
RED, BLUE, GREY, BLACK = (200, 30, 30), (40, 90, 200), (170, 170, 170), (0, 0, 0)
SCALE = 4  # pixels per mm at the printed width (about 100 dpi)


@dataclass(frozen=True)
class Klima:
    station: str
    temperatur: tuple[float, ...]
    niederschlag: tuple[float, ...]


def _number(cell: str) -> float | None:
    text = cell.strip().replace("−", "-").replace("–", "-").replace(",", ".")
    return float(text) if _NUMBER.match(cell.strip()) else None


def _monthly(values: list[str]) -> tuple[float, ...] | None:
    numbers = [_number(v) for v in values[:12]]
    return tuple(n for n in numbers if n is not None) if all(n is not None for n in numbers) else None


def climate_data(tabelle: Tabelle, station: str) -> Klima | None:
    """The monthly values of a climate table (months as columns after a label column), else None."""
    heads = [h.strip().casefold().rstrip(".") for h in tabelle.spalten[1:13]]
    if len(heads) < 12 or any(h not in names for h, names in zip(heads, _MONTH_HEADS, strict=True)):
        return None
    temperatur = niederschlag = None
    for row in tabelle.zeilen:
        label = row[0].casefold() if row else ""
        if "temperatur" in label or "°c" in label:
            temperatur = _monthly(row[1:13])
        elif "niederschlag" in label or "mm" in label:
            niederschlag = _monthly(row[1:13])
    if not temperatur or not niederschlag or len(temperatur) != 12 or len(niederschlag) != 12:
        return None
    return Klima(station=station, temperatur=temperatur, niederschlag=niederschlag)


def _font(size_mm: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / FONT_FILES["B" if bold else ""]), int(size_mm * SCALE))


_DRAW = re.compile(r"\bals\s+klimadiagramm|\b(zeichn|erstell|konstruier|fertig)\w*\s+(?:\w+\s+){0,6}?(?<!in )"
                   r"(ein|einen|das)\s+klimadiagramm|\bdraw\b[^.?!]*\bclimate\s+(graph|diagram|chart)", re.I)
_TOTALS = re.compile(r"\b(ermittl|berechn|bestimm|errechn|calculate|work out)\w*\b[^.?!]*\b(jahresmittel|"
                     r"jahresdurchschnitt|jahresniederschlag|jahressumme|niederschlagssumme|mittlere\w* jahrestemp|"
                     r"annual)", re.I)


@dataclass(frozen=True)
class PupilWork:
    """What the tasks ask the pupils to do with a climate table: draw its diagram, work out its annual values."""

    draws: bool = False
    totals: bool = False


def pupil_work(texts: list[str], label: str) -> PupilWork:
    """Whether a sentence of the tasks has the pupils draw the Klimadiagramm of the table `label` („Stelle die
    Klimadaten (M1) als Klimadiagramm dar“, „Zeichne ein Klimadiagramm“) or work out its annual mean or sum; a
    sentence that names another M label is about that one."""
    draws = totals = False
    for text in texts:
        for sentence in re.split(r"(?<=[.?!])\s+", text):
            named = re.findall(r"\bM\s?(\d+)\b", sentence)
            if named and label.removeprefix("M") not in named:
                continue
            draws = draws or bool(_DRAW.search(sentence))
            totals = totals or bool(_TOTALS.search(sentence))
    return PupilWork(draws, totals)


def draw(klima: Klima, width_mm: float = 120.0, *, totals: bool = True) -> bytes:
    """The diagram as PNG, `width_mm` wide when printed (height 0.75 of the width); without the annual mean and sum
    when the pupils are to work them out."""
    w, h = int(width_mm * SCALE), int(width_mm * 0.75 * SCALE)
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    small, title = _font(3.0), _font(3.4, bold=True)
    top_c = max(10, math.ceil(max(max(klima.temperatur), max(klima.niederschlag) / 2) / 10) * 10)
    bottom_c = min(0, math.floor(min(klima.temperatur) / 10) * 10)
    left, right, top, bottom = 16 * SCALE, w - 18 * SCALE, 16 * SCALE, h - 9 * SCALE
    y = lambda c: bottom - (c - bottom_c) / (top_c - bottom_c) * (bottom - top)  # noqa: E731
    step = (right - left) / 12
    mittel = sum(klima.temperatur) / 12
    summe = sum(klima.niederschlag)
    station = klima.station
    while d.textlength(station, font=title) > w - left - 2 * SCALE and ", " in station:
        station = station.rsplit(", ", 1)[0]  # drop the last detail (height, then coordinates) until it fits
    d.text((left, 2 * SCALE), station, font=title, fill=BLACK)
    if totals:
        d.text((left, 8 * SCALE), f"Jahresmittel {_de(mittel)} °C · Jahresniederschlag {_de(summe, 0)} mm",
               font=small, fill=BLACK)
    for c in range(bottom_c, top_c + 1, 10):  # grid, left axis in °C, right axis in mm (only above 0)
        d.line([(left, y(c)), (right, y(c))], fill=GREY if c else BLACK, width=1 if c else 2)
        d.text((left - 2 * SCALE, y(c)), str(c), font=small, fill=RED, anchor="rm")
        if c >= 0:
            d.text((right + 2 * SCALE, y(c)), str(2 * c), font=small, fill=BLUE, anchor="lm")
    d.text((left - 2 * SCALE, top - 5 * SCALE), "°C", font=small, fill=RED, anchor="rm")
    d.text((right + 2 * SCALE, top - 5 * SCALE), "mm", font=small, fill=BLUE, anchor="lm")
    for i, mm in enumerate(klima.niederschlag):
        x0 = left + i * step + step * 0.15
        d.rectangle([(x0, y(mm / 2)), (x0 + step * 0.7, y(0))], fill=BLUE)
        d.text((left + (i + 0.5) * step, bottom + 2 * SCALE), MONTHS[i], font=small, fill=BLACK, anchor="mt")
    points = [(left + (i + 0.5) * step, y(t)) for i, t in enumerate(klima.temperatur)]
    d.line(points, fill=RED, width=3 * SCALE // 2, joint="curve")
    d.rectangle([(left, top), (right, bottom)], outline=BLACK, width=2)
    buffer = io.BytesIO()
    img.save(buffer, format="PNG", dpi=(SCALE * 25.4, SCALE * 25.4))
    return buffer.getvalue()


def _de(value: float, digits: int = 1) -> str:
    return f"{value:.{digits}f}".replace(".", ",")
