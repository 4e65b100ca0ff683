"""Grounding and verification of exams: every sub-task cites what it builds on, and the Erwartungshorizont's
calculations are recomputed (German number format, units) so that wrong results are caught before a teacher sees them.

Conservative by design: only chains the parser understands completely are checked; anything symbolic, ambiguous or
unknown is skipped, because a false alarm costs a teacher's trust more than a missed one.
"""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from sqlalchemy.orm import Session

from core.composition.generators.registry import all_generators
from core.materials.klausur import Klausur, Teilaufgabe
from db.repos import knowledge as knowledge_repo
from db.session import Identity

FlagKind = Literal["unsupported", "arithmetic", "units"]
GROUNDING_ARTS = frozenset({"curriculum", "good_practice", "generator"})
RELATIVE_TOLERANCE = 0.01


@dataclass(frozen=True)
class Flag:
    """One finding of the verification, attached to a sub-task such as '2b'."""

    task_ref: str
    kind: FlagKind
    message: str


# --- units -----------------------------------------------------------------------------------------------------------
# Dimensions as exponents of (m, kg, s, A, K, mol, €). Angles and percent are plain numbers (scale only).

Dims = tuple[int, int, int, int, int, int, int]
_NONE: Dims = (0, 0, 0, 0, 0, 0, 0)


def _d(m: int = 0, kg: int = 0, s: int = 0, a: int = 0, k: int = 0, mol: int = 0, eur: int = 0) -> Dims:
    return (m, kg, s, a, k, mol, eur)


@dataclass(frozen=True)
class Unit:
    scale: float  # to SI (and € for money)
    dims: Dims
    dimensional: bool = True  # False for %, ‰ and °: they scale a number but carry no dimension


_ENERGY, _POWER, _VOLT = _d(2, 1, -2), _d(2, 1, -3), _d(2, 1, -3, -1)
_BASE: dict[str, Unit] = {
    "m": Unit(1, _d(m=1)), "s": Unit(1, _d(s=1)), "g": Unit(1e-3, _d(kg=1)), "A": Unit(1, _d(a=1)),
    "K": Unit(1, _d(k=1)), "mol": Unit(1, _d(mol=1)), "N": Unit(1, _d(1, 1, -2)), "J": Unit(1, _ENERGY),
    "W": Unit(1, _POWER), "V": Unit(1, _VOLT), "Ω": Unit(1, _d(2, 1, -3, -2)), "C": Unit(1, _d(s=1, a=1)),
    "Hz": Unit(1, _d(s=-1)), "Pa": Unit(1, _d(-1, 1, -2)), "Wh": Unit(3600, _ENERGY), "eV": Unit(1.602176634e-19,
                                                                                            _ENERGY),
    "L": Unit(1e-3, _d(m=3)), "l": Unit(1e-3, _d(m=3)),
}
_PREFIXES = {"G": 1e9, "M": 1e6, "k": 1e3, "h": 1e2, "d": 1e-1, "c": 1e-2, "m": 1e-3, "µ": 1e-6, "μ": 1e-6,
             "n": 1e-9}
_PREFIXED = {"m": "kcmdµμn", "s": "mµμn", "g": "kmµμ", "A": "mkµμ", "N": "km", "J": "kMG", "W": "mkMG",
             "V": "mkM", "Ω": "kM", "C": "mµμn", "Hz": "kMG", "Pa": "hk", "Wh": "kMG", "eV": "kMG", "L": "mcd",
             "mol": "m"}
UNITS: dict[str, Unit] = dict(_BASE)
for _base, _ps in _PREFIXED.items():
    for _p in _ps:
        UNITS[_p + _base] = Unit(_PREFIXES[_p] * _BASE[_base].scale, _BASE[_base].dims)
del UNITS["l"]  # a lone 'l' is far more often a length variable; 'L' and 'mL' stay
UNITS.update({
    "min": Unit(60, _d(s=1)), "h": Unit(3600, _d(s=1)), "t": Unit(1000, _d(kg=1)), "bar": Unit(1e5, _d(-1, 1, -2)),
    "°C": Unit(1, _d(k=1)), "€": Unit(1, _d(eur=1)), "ct": Unit(0.01, _d(eur=1)), "Cent": Unit(0.01, _d(eur=1)),
    "Euro": Unit(1, _d(eur=1)), "%": Unit(0.01, _NONE, False), "‰": Unit(0.001, _NONE, False),
    "°": Unit(math.pi / 180, _NONE, False), "Prozent": Unit(0.01, _NONE, False),
    # spelled out, as pupils (and some texts) write them
    "Volt": UNITS["V"], "Ampere": UNITS["A"], "Ohm": UNITS["Ω"], "Watt": UNITS["W"], "Joule": UNITS["J"],
    "Newton": UNITS["N"], "Meter": UNITS["m"], "Kilometer": UNITS["km"], "Zentimeter": UNITS["cm"],
    "Sekunde": UNITS["s"], "Sekunden": UNITS["s"], "Minute": Unit(60, _d(s=1)), "Minuten": Unit(60, _d(s=1)),
    "Stunde": Unit(3600, _d(s=1)), "Stunden": Unit(3600, _d(s=1)), "Gramm": UNITS["g"], "Kilogramm": UNITS["kg"],
    "Kilowattstunden": UNITS["kWh"], "Kilowattstunde": UNITS["kWh"],
})
UNITS.pop("t")  # 't' is the time variable in almost every text that contains it
# Single lower-case letters glued to a number ('2s', '3m') are read as variables; these may be glued ('12V', '5A').
_GLUE_OK_SINGLE = {"V", "A", "W", "J", "N", "K", "C", "L", "Ω", "%", "‰", "°", "€"}
_NAMED_DIMS: dict[Dims, str] = {
    _d(m=1): "m", _d(s=1): "s", _d(kg=1): "kg", _d(a=1): "A", _d(k=1): "K", _d(mol=1): "mol", _d(eur=1): "€",
    _d(1, 1, -2): "N", _ENERGY: "J", _POWER: "W", _VOLT: "V", _d(2, 1, -3, -2): "Ω", _d(s=1, a=1): "C",
    _d(s=-1): "1/s", _d(-1, 1, -2): "Pa", _d(m=2): "m²", _d(m=3): "m³", _d(m=1, s=-1): "m/s",
    _d(m=1, s=-2): "m/s²", _d(kg=1, mol=-1): "g/mol", _d(m=-3, mol=1): "mol/L", _d(1, 1, -3, -1): "V/m",
    _d(eur=1, m=-2, kg=-1, s=2): "€/kWh", _NONE: "ohne Einheit",
}
_BASE_NAMES = ("m", "kg", "s", "A", "K", "mol", "€")
_SUPERSCRIPT_DIGITS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def dims_name(dims: Dims) -> str:
    """Readable unit of a dimension: 'Ω', 'm/s²', else the base units ('kg·m²·s⁻³')."""
    if dims in _NAMED_DIMS:
        return _NAMED_DIMS[dims]
    parts = [n + (str(e).translate(_SUPERSCRIPT_DIGITS) if e != 1 else "") for n, e in zip(_BASE_NAMES, dims,
                                                                                        strict=True) if e]
    return "·".join(parts)


# --- tokens ----------------------------------------------------------------------------------------------------------

_SUP_DIGITS = {"⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9",
               "⁻": "-", "⁺": "+"}
_SUP_LETTERS = "ⁿᵗˣʸᵏᵃᵇᶜᵈᵉᶠᵍʰⁱʲˡᵐᵒᵖʳˢᵘᵛʷᶻ"
_VULGAR = {"½": 0.5, "¼": 0.25, "¾": 0.75, "⅓": 1 / 3, "⅔": 2 / 3, "⅕": 0.2, "⅛": 0.125}
_LETTER = r"A-Za-zÀ-ÖØ-öø-ÿΑ-Ωα-ορ-ωµ"  # Greek without π (π is the constant)
_SPACE = " \u00a0\u202f\u2009"
_TOKEN = re.compile(
    rf"(?P<sp>[{_SPACE}\t\r\n]+)"
    rf"|(?P<dotnum>\d+\.\d)"  # '1.5' or '1.000': ambiguous in German texts, never guessed
    rf"|(?P<frac>\d+(?:,\d+)?/\d+(?:,\d+)?(?![\d,]*\d))"
    rf"|(?P<num>\d{{1,3}}(?:[{_SPACE[1:]} ]\d{{3}})+(?![\d])(?:,\d+)?|\d+(?:,\d+)?)"
    rf"|(?P<sup>[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+)"
    rf"|(?P<supvar>[{_SUP_LETTERS}]+)"
    rf"|(?P<vulgar>[{''.join(_VULGAR)}])"
    rf"|(?P<degc>°C(?![{_LETTER}]))"
    rf"|(?P<symunit>[%‰°€])"
    r"|(?P<pi>π)"
    r"|(?P<sqrt>√)"
    rf"|(?P<word>[{_LETTER}][{_LETTER}₀-₉\d'′_\u20d7]*)"
    r"|(?P<rel>[=≈])"
    r"|(?P<stop>[<>≤≥≠⇒→⇔⇌≙]|=>|->)"
    r"|(?P<op>[+\-−–·*×⋅/:^])"
    r"|(?P<lp>\()|(?P<rp>\))"
    r"|(?P<punct>[;,.!?\"“”„»«])"
    r"|(?P<other>.)",
    re.S,
)
_OPS = {"-": "−", "–": "−", "*": "·", "×": "·", "⋅": "·"}
_FUNCS = {"sin", "cos", "tan", "log", "lg", "ln"}


@dataclass
class Tok:
    kind: str
    text: str
    start: int
    end: int
    space_before: bool


def tokenize(text: str) -> list[Tok]:
    toks: list[Tok] = []
    space = True
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        if kind == "sp":
            space = True
            continue
        value = m.group()
        if kind == "op":
            value = _OPS.get(value, value)
        toks.append(Tok(kind, value, m.start(), m.end(), space))
        space = False
    return toks


def _number(text: str) -> tuple[float, int]:
    """'1 234,50' -> (1234.5, 2): the value and the stated decimals."""
    digits = re.sub(rf"[{_SPACE}]", "", text)
    whole, _, frac = digits.partition(",")
    return float(f"{whole}.{frac}" if frac else whole), len(frac)


def _sup_int(text: str) -> int | None:
    raw = "".join(_SUP_DIGITS[c] for c in text)
    try:
        return int(raw)
    except ValueError:
        return None


# --- values ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    """A computed quantity: SI value with dimension, and the 'raw' value that ignores the unit scales (how a text
    that drops units in the middle of a calculation means its numbers)."""

    si: float
    raw: float
    dims: Dims = _NONE
    united: bool = False  # some dimensional unit occurs
    uncertain: bool = False  # dimension not trustworthy (units added to plain numbers, …)
    ops: int = 0  # number of operations: 0 = a plain literal
    half_digit: float | None = None  # literal only: half a unit of the last stated digit (raw units)
    unit_text: str = ""  # literal only: its unit as written
    unit_scale: float = 1.0
    temps: frozenset[str] = frozenset()  # 'K' / '°C' as written
    pow10: bool = False  # '10⁻³' (with or without a unit): the second half of a scientific literal

    def _combine(self, other: Value, si: float, raw: float, dims: Dims, *, uncertain: bool = False) -> Value:
        return Value(si, raw, dims, self.united or other.united, self.uncertain or other.uncertain or uncertain,
                     self.ops + other.ops + 1, temps=self.temps | other.temps)

    def add(self, other: Value, sign: int) -> Value:
        # '20 Ω + 40' or '2 m + 3 s': the numbers may still be meant right, the dimension is not to be trusted
        dims = self.dims if self.united else other.dims
        return self._combine(other, self.si + sign * other.si, self.raw + sign * other.raw, dims,
                             uncertain=self.dims != other.dims)

    def mul(self, other: Value, power: int) -> Value:
        if power == -1 and (other.si == 0 or other.raw == 0):
            raise _Unparsable("division by zero")
        dims: Dims = tuple(a + power * b for a, b in zip(self.dims, other.dims, strict=True))  # type: ignore[assignment]
        if power == 1 and other.pow10 and self.ops == 0 and not self.united and not self.unit_text:
            # '4,97 · 10⁻¹⁹ J' is one literal: it keeps the precision of its stated digits
            factor = other.raw
            return Value(self.si * other.si, self.raw * factor, dims, other.united, other.uncertain, 0,
                         None if self.half_digit is None else self.half_digit * factor, other.unit_text,
                         other.unit_scale, other.temps)
        return self._combine(other, self.si * other.si ** power, self.raw * other.raw ** power, dims)

    def pow(self, n: int) -> Value:
        if n < 0 and (self.si == 0 or self.raw == 0):
            raise _Unparsable("division by zero")
        if abs(n) > 40:
            raise _Unparsable("exponent too large")
        dims: Dims = tuple(d * n for d in self.dims)  # type: ignore[assignment]
        return Value(self.si ** n, self.raw ** n, dims, self.united, self.uncertain, self.ops + 1, temps=self.temps)

    def neg(self) -> Value:
        return replace(self, si=-self.si, raw=-self.raw)


class _Unparsable(Exception):
    """The expression is not something this checker understands with confidence."""


# --- parser ----------------------------------------------------------------------------------------------------------


class _Parser:
    """Recursive descent over a token slice; raises _Unparsable for anything it does not fully understand."""

    def __init__(self, toks: Sequence[Tok]):
        self.toks = toks
        self.i = 0

    def peek(self, k: int = 0) -> Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def at(self, kind: str, text: str | None = None, k: int = 0) -> bool:
        t = self.peek(k)
        return t is not None and t.kind == kind and (text is None or t.text == text)

    def starts_operand(self, k: int = 0) -> bool:
        t = self.peek(k)
        if t is None:
            return False
        if t.kind in ("num", "frac", "vulgar", "pi", "lp", "sqrt"):
            return True
        if t.kind == "word" and t.text in _FUNCS:
            return True
        return t.kind == "op" and t.text in ("−", "+") and self.starts_operand(k + 1)

    def expr(self) -> Value:
        value = self.term()
        while self.at("op", "+") or self.at("op", "−"):
            sign = 1 if self.peek().text == "+" else -1  # type: ignore[union-attr]
            if not self.starts_operand(1):
                raise _Unparsable("dangling sign")
            self.i += 1
            value = value.add(self.term(), sign)
        return value

    def _mul_op(self, left: Value) -> int | None:
        """+1 for multiplication, -1 for division when the next tokens continue the product, else None."""
        t = self.peek()
        if t is None:
            return None
        if t.kind == "op" and t.text in ("·", "/", ":"):
            nxt = self.peek(1)
            if t.text == ":" and not t.space_before and nxt is not None and not nxt.space_before:
                raise _Unparsable("'8:30' is a time of day, not a division")
            if t.text == ":" and not t.space_before and nxt is not None and nxt.space_before:
                return None  # 'Hauptnenner 20: 1/4 + …' — a label ending in a number, not a division
            if not self.starts_operand(1):
                if t.text == ":":
                    return None  # a label colon ('Probe: …') ends the expression
                raise _Unparsable("operator without operand")
            return 1 if t.text == "·" else -1
        if t.kind == "word" and t.space_before and self.starts_operand(1):
            if t.text in ("x", "mal"):
                return 1
            if t.text == "von" and "%" in left.unit_text:
                return 1
        return None

    def term(self) -> Value:
        value = self.unary()
        while (power := self._mul_op(value)) is not None:
            self.i += 1
            value = value.mul(self.unary(), power)
        return value

    def unary(self) -> Value:
        if self.at("op", "−") or self.at("op", "+"):
            negative = self.peek().text == "−"  # type: ignore[union-attr]
            self.i += 1
            value = self.unary()
            return value.neg() if negative else value
        return self.operand()

    def exponent(self) -> int | None:
        t = self.peek()
        if t is None or t.space_before:
            return None
        if t.kind == "sup":
            self.i += 1
            n = _sup_int(t.text)
            if n is None:
                raise _Unparsable("bad exponent")
            return n
        if t.kind == "supvar":
            raise _Unparsable("symbolic exponent")
        if t.kind == "op" and t.text == "^":
            self.i += 1
            sign = 1
            if self.at("op", "−") or self.at("op", "+"):
                sign = -1 if self.peek().text == "−" else 1  # type: ignore[union-attr]
                self.i += 1
            if not self.at("num"):
                raise _Unparsable("symbolic exponent")
            n, decimals = _number(self.peek().text)  # type: ignore[union-attr]
            self.i += 1
            if decimals:
                raise _Unparsable("fractional exponent")
            return sign * int(n)
        return None

    def atom(self) -> Value:
        t = self.peek()
        if t is None:
            raise _Unparsable("end")
        if t.kind == "num":
            self.i += 1
            n, decimals = _number(t.text)
            return Value(n, n, half_digit=0.5 * 10 ** -decimals)
        if t.kind == "frac":
            self.i += 1
            a, b = (_number(x)[0] for x in t.text.split("/"))
            if b == 0:
                raise _Unparsable("division by zero")
            return Value(a / b, a / b, ops=1)
        if t.kind == "vulgar":
            self.i += 1
            return Value(_VULGAR[t.text], _VULGAR[t.text], ops=1)
        if t.kind == "pi":
            self.i += 1
            return Value(math.pi, math.pi, ops=1)
        if t.kind == "lp":
            self.i += 1
            value = self.expr()
            if not self.at("rp"):
                raise _Unparsable("unclosed parenthesis")
            self.i += 1
            return Value(value.si, value.raw, value.dims, value.united, value.uncertain, value.ops + 1,
                         temps=value.temps)
        if t.kind == "sqrt" or (t.kind == "word" and t.text in _FUNCS):
            self.i += 1
            return self.function(t.text)
        raise _Unparsable(f"unexpected {t.text!r}")

    def function(self, name: str) -> Value:
        start = self.i
        if self.at("lp"):
            arg = self.atom()  # 'sin(30°)': the ° inside has already turned the angle into radians
            if name in ("sin", "cos", "tan"):
                degrees = any(t.kind == "symunit" and t.text == "°" for t in self.toks[start:self.i])
                return self._trig(name, arg, degrees=degrees)
        elif self.at("num"):
            arg = self.atom()
            n = self.exponent()
            if n is not None:
                arg = arg.pow(n)
            if name in ("sin", "cos", "tan") and self.at("symunit", "°"):
                self.i += 1
                arg = Value(arg.si * math.pi / 180, arg.raw * math.pi / 180, ops=arg.ops + 1)
                return self._trig(name, arg, degrees=True)
        else:
            raise _Unparsable("function of a symbol")
        if name == "√":
            if arg.si < 0 or any(d % 2 for d in arg.dims):
                raise _Unparsable("root of a negative number or odd dimension")
            return Value(math.sqrt(arg.si), math.sqrt(abs(arg.raw)), tuple(d // 2 for d in arg.dims),  # type: ignore[arg-type]
                         arg.united, arg.uncertain, arg.ops + 1)
        if name in ("sin", "cos", "tan"):
            return self._trig(name, arg, degrees=False)
        if arg.united or arg.si <= 0:
            raise _Unparsable("logarithm of a quantity")
        log = math.log if name == "ln" else math.log10
        return Value(log(arg.si), log(arg.si), ops=arg.ops + 1)

    def _trig(self, name: str, arg: Value, *, degrees: bool) -> Value:
        if not degrees:
            raise _Unparsable("angle without °")  # sin(30) or sin(0,52)? not guessed
        v = getattr(math, name)(arg.si)
        return Value(v, v, ops=arg.ops + 1)

    def operand(self) -> Value:
        first = self.peek()
        value = self.atom()
        n = self.exponent()
        if n is not None:
            ten = first is not None and first.kind == "num" and first.text == "10"
            value = replace(value.pow(n), pow10=ten)
        while self.at("pi") and not self.peek().space_before:  # type: ignore[union-attr]  # '4π²', '32π cm²'
            self.i += 1
            n = self.exponent()
            pi = Value(math.pi, math.pi)
            value = value.mul(pi.pow(n) if n is not None else pi, 1)
        unit = self.unit(glued=self._glued())
        if unit is not None:
            value = self._with_unit(value, *unit)
            # '4 h 48 min', '1 m 20 cm': juxtaposed quantities of one dimension add up
            while self.at("num") and self.peek().space_before:  # type: ignore[union-attr]
                save = self.i
                nxt = self.atom()
                more = self.unit(glued=self._glued())
                if more is None or more[1] != unit[1] or more[3] >= unit[3]:
                    self.i = save
                    break
                value = value.add(self._with_unit(nxt, *more), 1)
        elif self.at("word") and not self.peek().space_before:  # type: ignore[union-attr]
            raise _Unparsable("number glued to a symbol")  # '3x', '2s', '12b'
        return value

    def _glued(self) -> bool:
        t = self.peek()
        return t is not None and not t.space_before

    @staticmethod
    def _with_unit(value: Value, text: str, dims: Dims, dimensional: bool, scale: float,
                   temps: frozenset[str]) -> Value:
        return replace(value, si=value.si * scale, raw=value.raw * (1 if dimensional else scale),
                       dims=tuple(a + b for a, b in zip(value.dims, dims, strict=True)),
                       united=value.united or dimensional, unit_text=text, unit_scale=scale,
                       temps=value.temps | temps,
                       half_digit=None if value.half_digit is None else value.half_digit * (
                           1 if dimensional else scale))

    def unit_atom(self, glued: bool) -> tuple[str, float, Dims, bool] | None:
        t = self.peek()
        if t is None or t.kind not in ("word", "symunit", "degc"):
            return None
        unit = UNITS.get(t.text)
        if unit is None:
            return None
        if glued and len(t.text) == 1 and t.text not in _GLUE_OK_SINGLE:
            return None
        self.i += 1
        text, scale, dims = t.text, unit.scale, unit.dims
        n = self.exponent()
        if n is not None:
            if not unit.dimensional:
                raise _Unparsable("power of a percent sign")
            text += "^" + str(n)
            scale, dims = scale ** n, tuple(d * n for d in dims)  # type: ignore[assignment]
        return text, scale, dims, unit.dimensional

    def unit(self, glued: bool) -> tuple[str, Dims, bool, float, frozenset[str]] | None:
        """A (compound) unit after a number: 'V', 'm/s²', 'kJ/(kg · K)', 'J·s', 'g/mol'."""
        first = self.unit_atom(glued)
        if first is None:
            return None
        text, scale, dims, dimensional = first
        temps = {u for u in ("K", "°C") if text == u}
        while self.at("op") and self.peek().text in ("/", "·") and not self.peek().space_before:  # type: ignore[union-attr]
            op = self.peek().text  # type: ignore[union-attr]
            save = self.i
            self.i += 1
            nxt = self.peek()
            if nxt is None or nxt.space_before:
                self.i = save
                break
            if op == "/" and self.at("lp"):
                group = self._unit_group()
                if group is None:
                    self.i = save
                    break
                g_scale, g_dims = group
            else:
                atom = self.unit_atom(glued=False)
                if atom is None:
                    self.i = save
                    break
                _, g_scale, g_dims, g_dimensional = atom
                if not g_dimensional:
                    self.i = save
                    break
            power = 1 if op == "·" else -1
            text += op + nxt.text
            scale *= g_scale ** power
            dims = tuple(a + power * b for a, b in zip(dims, g_dims, strict=True))  # type: ignore[assignment]
            dimensional = True
        return text, dims, dimensional, scale, frozenset(temps)

    def _unit_group(self) -> tuple[float, Dims] | None:
        """'(kg · K)' after a unit's slash."""
        self.i += 1  # (
        scale, dims = 1.0, _NONE
        first = True
        while True:
            if not first:
                if self.at("rp"):
                    self.i += 1
                    return scale, dims
                if not self.at("op", "·"):
                    return None
                self.i += 1
            atom = self.unit_atom(glued=False)
            if atom is None or not atom[3]:
                return None
            scale *= atom[1]
            dims = tuple(a + b for a, b in zip(dims, atom[2], strict=True))  # type: ignore[assignment]
            first = False


def _parse_all(toks: Sequence[Tok]) -> Value:
    p = _Parser(toks)
    value = p.expr()
    if p.i != len(toks):
        raise _Unparsable("trailing tokens")
    return value


def _prefix(toks: Sequence[Tok]) -> tuple[Value, int] | None:
    """The expression a segment starts with (the right side of '='), if it ends cleanly."""
    if not toks:
        return None
    p = _Parser(toks)
    try:
        value = p.expr()
    except _Unparsable:
        return None
    if p.i == 0:
        return None
    nxt = p.peek()
    if nxt is None or _clean_end(toks, p.i):
        return value, p.i
    return None


def _clean_end(toks: Sequence[Tok], i: int) -> bool:
    t = toks[i]
    if t.kind in ("punct", "stop", "rp"):
        return True
    if t.kind == "op" and t.text == ":":
        return i + 1 == len(toks) or toks[i + 1].space_before
    if t.kind == "word":
        return t.space_before
    if t.kind == "lp" and t.space_before:
        # a remark in parentheses: '8,0 V (Kontrolle: …)', '2,5 · 10⁴ V/m (= N/C)', '≈ 503 kJ (502,8 kJ)'
        if i + 1 == len(toks):
            return True  # the segment ends here: '(' is followed by '='
        nxt = toks[i + 1]
        if nxt.kind == "stop" or (nxt.kind == "word" and len(nxt.text) > 1 and nxt.text not in _FUNCS
                                  and nxt.text not in UNITS):
            return True
        close = next((j for j in range(i + 1, len(toks)) if toks[j].kind == "rp"), None)
        if close is not None:
            try:
                inner = _parse_all(toks[i + 1: close])
            except _Unparsable:
                return False
            return inner.ops == 0 and inner.united  # an exact value given alongside the rounded one
    return False


def _suffix(toks: Sequence[Tok]) -> tuple[Value, int] | None:
    """The longest expression a segment ends with (the left side of '='), starting at a clean boundary."""
    for start in range(len(toks)):
        if start == 0:
            ok = True
        else:
            before = toks[start - 1]
            cur = toks[start]
            ok = (before.kind in ("punct", "stop") or (before.kind == "op" and before.text == ":" and cur.space_before)
                  or (before.kind == "lp" and not (start >= 2 and toks[start - 2].kind == "word"
                                                   and not before.space_before))
                  or (before.kind in ("word", "rp") and cur.space_before))
            if before.kind == "word" and before.text in ("von", "x", "mal"):
                ok = False  # '25 % von 80 €': the left part belongs to the expression
        if not ok:
            continue
        try:
            value = _parse_all(toks[start:])
        except _Unparsable:
            continue
        if value.ops == 0 and start > 0 and toks[start - 1].kind in ("word", "rp"):
            return None  # 'Bremsweg bei 50 km/h ≈ 12,1 m': a condition, not the left side of a calculation
        return value, start
    return None


# --- relations -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    value: Value
    start: int  # character offsets in the text
    end: int


@dataclass(frozen=True)
class Relation:
    """'<left> = <right>' where both sides are numeric expressions."""

    left: Side
    right: Side
    symbol: str  # '=' or '≈'


@dataclass(frozen=True)
class OpenStep:
    """'R = 6,0 V / 0,25 A.' — a calculation whose result a later criterion states ('Ergebnis R = 24 Ω')."""

    name: str
    side: Side


@dataclass
class _Analysis:
    relations: list[Relation] = field(default_factory=list)
    open_step: OpenStep | None = None
    first_named: tuple[str, Side] | None = None  # 'R = 24 Ω' at the start of a text: (name, right side)


_NAME = re.compile(r"(?:^|[\s:;,(])([A-Za-zΑ-Ωα-ωΔµ][A-Za-z₀-₉_'′]*(?:\([^()=]{1,20}\))?)\s*$")


def _name_before(text: str, pos: int) -> str | None:
    m = _NAME.search(text[:pos])
    return m.group(1) if m else None


def _analyse(text: str) -> _Analysis:
    toks = tokenize(text)
    rels = [i for i, t in enumerate(toks) if t.kind == "rel"]
    out = _Analysis()
    if not rels:
        return out
    bounds = [-1, *rels, len(toks)]
    segments = [toks[bounds[k] + 1: bounds[k + 1]] for k in range(len(bounds) - 1)]
    for k, rel_index in enumerate(rels):
        left_toks, right_toks = segments[k], segments[k + 1]
        right = _prefix(right_toks)
        if right is None:
            continue
        r_value, r_len = right
        r_side = Side(r_value, right_toks[0].start, right_toks[r_len - 1].end)
        left = _suffix(left_toks)
        if left is None:
            name = _name_before(text, toks[rels[_chain_start(segments, k)]].start)
            if name and k == 0 and out.first_named is None:
                out.first_named = (name, r_side)
            is_last_rel = k == len(rels) - 1
            if name and is_last_rel and r_value.ops > 0 and r_len == len(right_toks) - _trailing_punct(right_toks):
                out.open_step = OpenStep(name, r_side)
            continue
        l_value, l_start = left
        l_side = Side(l_value, left_toks[l_start].start, left_toks[-1].end)
        out.relations.append(Relation(l_side, r_side, toks[rel_index].text))
    return out


def _chain_start(segments: Sequence[Sequence[Tok]], k: int) -> int:
    """Index of the relation that starts the chain relation k belongs to ('c(HCl) = n / V = …' -> the first)."""
    while k > 0 and not any(t.kind in ("punct", "stop") or (t.kind == "op" and t.text == ":") for t in segments[k]):
        k -= 1
    return k


def _trailing_punct(toks: Sequence[Tok]) -> int:
    n = 0
    for t in reversed(toks):
        if t.kind != "punct":
            break
        n += 1
    return n


# --- quantities (for matching answers) -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Quantity:
    """A number with its unit as written in a text: '0,25 A', '4,97 · 10⁻¹⁹ J', '40 %', '12'."""

    value: Value
    start: int
    end: int

    @property
    def united(self) -> bool:
        return self.value.united


def _is_ten_power(toks: Sequence[Tok], i: int) -> bool:
    return (i + 2 < len(toks) and toks[i].kind == "op" and toks[i].text == "·" and toks[i + 1].kind == "num"
            and toks[i + 1].text == "10" and toks[i + 2].kind == "sup" and not toks[i + 2].space_before)


def quantities(text: str) -> list[Quantity]:
    """Every number of a text with its unit, in order; numbers glued to symbols ('3x', 'R1') are skipped."""
    toks = tokenize(text)
    found: list[Quantity] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.kind not in ("num", "frac", "vulgar") or (i > 0 and toks[i - 1].kind == "word" and not t.space_before):
            i += 1
            continue
        p = _Parser(toks[i:])
        try:
            value = p.operand()
            if _is_ten_power(p.toks, p.i):
                p.i += 1
                value = value.mul(p.operand(), 1)
        except _Unparsable:
            i += 1
            continue
        start = t.start
        minus = toks[i - 1] if i > 0 and toks[i - 1].kind == "op" and toks[i - 1].text == "−" else None
        if minus is not None and not t.space_before and (
                i == 1 or minus.space_before or toks[i - 2].kind in ("op", "lp", "rel", "punct", "stop")):
            value, start = value.neg(), toks[i - 1].start
        found.append(Quantity(value, start, toks[i + p.i - 1].end))
        i += p.i
    return found


# --- comparing -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CalcIssue:
    """A calculation that does not check out, in words for teacher and model."""

    kind: Literal["arithmetic", "units"]
    message: str
    text: str  # the criterion text it was found in


@dataclass
class CalcReport:
    checked: int = 0
    issues: list[CalcIssue] = field(default_factory=list)


def _zahl(v: float) -> str:
    """German formatting with four significant digits: 0.1 -> '0,1', 4.9725e-19 -> '4,973 · 10⁻¹⁹'."""
    if v == 0:
        return "0"
    exp = math.floor(math.log10(abs(v)))
    if exp >= 6 or exp <= -4:
        mant = round(v / 10 ** exp, 3)
        return f"{_zahl(mant)} · 10{str(exp).translate(_SUPERSCRIPT_DIGITS)}"
    digits = max(0, 3 - exp)
    text = f"{round(v, digits):.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace(".", ",")


def _tolerance(a: float, left: Value, right: Value, scale_l: float, scale_r: float) -> float:
    tol = RELATIVE_TOLERANCE * abs(a)
    for v, scale in ((left, scale_l), (right, scale_r)):
        if v.ops == 0 and v.half_digit is not None:
            tol = max(tol, v.half_digit * scale * 1.0001)
    return tol if tol > 0 else 1e-12  # an exact zero on both sides


def _check(rel: Relation, text: str, snippet: str | None = None) -> CalcIssue | None:
    left, right = rel.left.value, rel.right.value
    snippet = snippet or text[rel.left.start: rel.right.end].strip()
    shown_left = text[rel.left.start: rel.left.end].strip()
    shown_right = text[rel.right.start: rel.right.end].strip()
    if left.united and right.united and not (left.uncertain or right.uncertain):
        if left.temps and right.temps and left.temps != right.temps and "−" not in snippet:
            return None  # '20 °C = 293 K' is a conversion with an offset, not a product
        if left.dims != right.dims:
            return CalcIssue("units", f"Die Einheit passt nicht: „{shown_left}“ ergibt eine Größe in "
                                      f"{dims_name(left.dims)}, angegeben ist „{shown_right}“ "
                                      f"({dims_name(right.dims)}). Rechnung: „{snippet}“.", text)
        scale_l = left.si / left.raw if left.raw else 1.0
        scale_r = right.si / right.raw if right.raw else 1.0
        if abs(left.si - right.si) <= _tolerance(left.si, left, right, scale_l, scale_r):
            return None
        expected = left.si / right.unit_scale if right.ops == 0 and right.unit_text else left.si
        unit = right.unit_text.replace("^2", "²").replace("^3", "³") if right.ops == 0 and right.unit_text \
            else dims_name(left.dims)
        return CalcIssue("arithmetic", f"„{shown_left}“ ergibt {_zahl(expected)} {unit}, angegeben ist "
                                       f"„{shown_right}“. Rechnung: „{snippet}“.", text)
    # At least one side without units ('m(5) = 400 · 0,8⁵ ≈ 131 mg'): numbers as written, SI as a second chance.
    if abs(left.raw - right.raw) <= _tolerance(left.raw, left, right, 1.0, 1.0):
        return None
    if (left.united or right.united) and abs(left.si - right.si) <= _tolerance(left.si, left, right, 1.0, 1.0):
        return None
    return CalcIssue("arithmetic", f"„{shown_left}“ ergibt {_zahl(left.raw)}, angegeben ist „{shown_right}“. "
                                   f"Rechnung: „{snippet}“.", text)


def _joined(first: str, step: OpenStep, second: str, result: Side) -> tuple[Relation, str]:
    """A step left open in one criterion and its result in the next, glued: 'R = 6,0 V / 0,25 A = 24 Ω'."""
    head = first[step.side.start: step.side.end]
    tail = second[result.start: result.end]
    text = f"{step.name} = {head} = {tail}"
    offset = len(step.name) + 3
    left = Side(step.side.value, offset, offset + len(head))
    right = Side(result.value, offset + len(head) + 3, len(text))
    return Relation(left, right, "="), text


def check_calculations(texts: Iterable[str]) -> CalcReport:
    """Recompute every calculation in a sequence of texts (e.g. the criteria of one sub-task, in order).

    A step left open in one text ('R = 6,0 V / 0,25 A.') is checked against the next text when that one starts by
    stating the same quantity ('Ergebnis R = 24 Ω mit Einheit.').
    """
    report = CalcReport()
    pending: tuple[OpenStep, str] | None = None
    for text in texts:
        analysis = _analyse(text)
        if pending is not None and analysis.first_named is not None and analysis.first_named[0] == pending[0].name:
            rel, glued = _joined(pending[1], pending[0], text, analysis.first_named[1])
            report.checked += 1
            issue = _check(rel, glued, snippet=glued)
            if issue is not None:
                report.issues.append(replace(issue, text=f"{pending[1]} | {text}"))
        for rel in analysis.relations:
            report.checked += 1
            issue = _check(rel, text)
            if issue is not None:
                report.issues.append(issue)
        pending = (analysis.open_step, text) if analysis.open_step is not None else None
    return report


# --- exams -----------------------------------------------------------------------------------------------------------


def _grounding_flag(ref: str, teil: Teilaufgabe, known_refs: set[str] | None,
                    arts: frozenset[str]) -> Flag | None:
    cited = [q.ref.strip() for q in teil.quellen if q.art in arts and q.ref.strip()]
    if not cited:
        return Flag(ref, "unsupported", "Die Teilaufgabe nennt keine Quelle aus dem Lehrplan oder den Good Practices, "
                                        "auf der sie aufbaut.")
    if known_refs is not None and not any(r in known_refs for r in cited):
        unknown = ", ".join(f"„{r}“" for r in dict.fromkeys(cited))
        return Flag(ref, "unsupported", f"Die genannten Quellen gibt es nicht: {unknown}. Die Teilaufgabe ist damit "
                                        "nicht belegt.")
    return None


def verify_klausur(k: Klausur, *, known_refs: set[str] | None = None,
                   grounding_arts: frozenset[str] = GROUNDING_ARTS) -> list[Flag]:
    """Grounding and calculation flags of an exam, in exam order; [] when nothing is found.

    - "unsupported": a sub-task cites no curriculum chunk / good practice, or (when `known_refs` is given, e.g. from
      `known_source_refs`) only refs that do not exist.
    - "arithmetic" / "units": a calculation in the Erwartungshorizont does not check out (see `check_calculations`).
    """
    flags: list[Flag] = []
    for aufgabe in k.aufgaben:
        for teil in aufgabe.teilaufgaben:
            ref = f"{aufgabe.nummer}{teil.kennung}"
            grounding = _grounding_flag(ref, teil, known_refs, grounding_arts)
            if grounding is not None:
                flags.append(grounding)
            report = check_calculations([c.text for c in teil.erwartung])
            flags.extend(Flag(ref, issue.kind, issue.message) for issue in report.issues)
    return flags


def calculations_checked(k: Klausur) -> int:
    """How many calculation steps of the exam's Erwartungshorizont the checker could recompute."""
    return sum(check_calculations([c.text for c in t.erwartung]).checked for t in k.teilaufgaben())


def known_source_refs(*, db: Session, identity: Identity, k: Klausur) -> set[str]:
    """The cited curriculum / good-practice refs of an exam that exist and are visible to the acting teacher."""
    ids: dict[str, dict[uuid.UUID, str]] = {"good_practice": {}, "curriculum": {}}
    for teil in k.teilaufgaben():
        for q in teil.quellen:
            if q.art in ids:
                try:
                    ids[q.art][uuid.UUID(q.ref.strip())] = q.ref.strip()
                except ValueError:
                    continue
    found = set(knowledge_repo.knowledge_by_ids(db=db, identity=identity, ids=list(ids["good_practice"])))
    found |= set(knowledge_repo.curriculum_by_ids(db=db, identity=identity, ids=list(ids["curriculum"])))
    generators = all_generators()
    computed = {q.ref.strip() for teil in k.teilaufgaben() for q in teil.quellen
                if q.art == "generator" and q.ref.strip().split("#")[0] in generators}
    return {ref for refs in ids.values() for key, ref in refs.items() if key in found} | computed


_KIND_LABEL = {"unsupported": "ohne Beleg", "arithmetic": "Rechenfehler", "units": "Einheitenfehler"}
_KIND_REPAIR = {
    "unsupported": "Nenne in 'quellen' die ref eines passenden Lehrplanauszugs (search_curriculum) oder einer Good "
                   "Practice (get_good_practices), auf dem die Teilaufgabe aufbaut — oder ersetze die Teilaufgabe "
                   "durch eine, die du so belegen kannst.",
    "arithmetic": "Rechne den Schritt nach und korrigiere das Ergebnis im Erwartungshorizont (auch Folgewerte, die "
                  "darauf aufbauen).",
    "units": "Korrigiere die Einheit des Ergebnisses (oder die Rechnung), sodass sie zur Rechenoperation passt.",
}


def verification_retry_message(flags: Sequence[Flag]) -> str:
    """The flags as one ModelRetry text for the specialist: what is wrong, where, and how to repair it."""
    if not flags:
        return ""
    lines = [f"- Aufgabe {f.task_ref} ({_KIND_LABEL[f.kind]}): {f.message} {_KIND_REPAIR[f.kind]}" for f in flags]
    return ("Die Beleg- und Rechenprüfung der Klausur hat Probleme gefunden. Behebe genau diese und gib die ganze "
            "Klausur erneut aus:\n" + "\n".join(lines))


_TEACHER_LABEL = {"unsupported": "ohne Beleg", "arithmetic": "Rechnung bitte prüfen",
                  "units": "Einheit bitte prüfen"}


def flags_for_teacher(flags: Sequence[Flag]) -> list[str]:
    """Remaining flags as short German notes for the teacher (shown with the material, one line each)."""
    return [f"Aufgabe {f.task_ref} – {_TEACHER_LABEL[f.kind]}: {f.message}" for f in flags]
