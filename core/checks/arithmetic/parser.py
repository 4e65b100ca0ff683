"""Recursive-descent parser of one calculation's expression: numbers, units, powers, roots, functions.

It raises `Unparsable` for anything it does not fully understand: a false alarm costs more than a miss.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from core.checks.arithmetic.lexer import FUNCS, VULGAR, Tok, parse_number, superscript_int
from core.checks.arithmetic.units import GLUE_OK_SINGLE, NO_DIMS, UNITS, Dims
from core.checks.arithmetic.values import Unparsable, Value


class Parser:
    """Recursive descent over a token slice; raises Unparsable for anything it does not fully understand."""

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
        if t.kind == "word" and t.text in FUNCS:
            return True
        return t.kind == "op" and t.text in ("−", "+") and self.starts_operand(k + 1)

    def expr(self) -> Value:
        value = self.term()
        while self.at("op", "+") or self.at("op", "−"):
            sign = 1 if self.peek().text == "+" else -1  # type: ignore[union-attr]
            if not self.starts_operand(1):
                raise Unparsable("dangling sign")
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
                raise Unparsable("'8:30' is a time of day, not a division")
            if t.text == ":" and not t.space_before and nxt is not None and nxt.space_before:
                return None  # 'Hauptnenner 20: 1/4 + …' — a label ending in a number, not a division
            if not self.starts_operand(1):
                if t.text == ":":
                    return None  # a label colon ('Probe: …') ends the expression
                raise Unparsable("operator without operand")
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
            n = superscript_int(t.text)
            if n is None:
                raise Unparsable("bad exponent")
            return n
        if t.kind == "supvar":
            raise Unparsable("symbolic exponent")
        if t.kind == "op" and t.text == "^":
            self.i += 1
            sign = 1
            if self.at("op", "−") or self.at("op", "+"):
                sign = -1 if self.peek().text == "−" else 1  # type: ignore[union-attr]
                self.i += 1
            if not self.at("num"):
                raise Unparsable("symbolic exponent")
            n, decimals = parse_number(self.peek().text)  # type: ignore[union-attr]
            self.i += 1
            if decimals:
                raise Unparsable("fractional exponent")
            return sign * int(n)
        return None

    def atom(self) -> Value:
        t = self.peek()
        if t is None:
            raise Unparsable("end")
        if t.kind == "num":
            self.i += 1
            n, decimals = parse_number(t.text)
            return Value(n, n, half_digit=0.5 * 10 ** -decimals)
        if t.kind == "frac":
            self.i += 1
            a, b = (parse_number(x)[0] for x in t.text.split("/"))
            if b == 0:
                raise Unparsable("division by zero")
            return Value(a / b, a / b, ops=1)
        if t.kind == "vulgar":
            self.i += 1
            return Value(VULGAR[t.text], VULGAR[t.text], ops=1)
        if t.kind == "pi":
            self.i += 1
            return Value(math.pi, math.pi, ops=1)
        if t.kind == "lp":
            self.i += 1
            value = self.expr()
            if not self.at("rp"):
                raise Unparsable("unclosed parenthesis")
            self.i += 1
            return Value(value.si, value.raw, value.dims, value.united, value.uncertain, value.ops + 1,
                         temps=value.temps)
        if t.kind == "sqrt" or (t.kind == "word" and t.text in FUNCS):
            self.i += 1
            return self.function(t.text)
        raise Unparsable(f"unexpected {t.text!r}")

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
            raise Unparsable("function of a symbol")
        if name == "√":
            if arg.si < 0 or any(d % 2 for d in arg.dims):
                raise Unparsable("root of a negative number or odd dimension")
            return Value(math.sqrt(arg.si), math.sqrt(abs(arg.raw)), tuple(d // 2 for d in arg.dims),  # type: ignore[arg-type]
                         arg.united, arg.uncertain, arg.ops + 1)
        if name in ("sin", "cos", "tan"):
            return self._trig(name, arg, degrees=False)
        if arg.united or arg.si <= 0:
            raise Unparsable("logarithm of a quantity")
        log = math.log if name == "ln" else math.log10
        return Value(log(arg.si), log(arg.si), ops=arg.ops + 1)

    def _trig(self, name: str, arg: Value, *, degrees: bool) -> Value:
        if not degrees:
            raise Unparsable("angle without °")  # sin(30) or sin(0,52)? not guessed
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
            raise Unparsable("number glued to a symbol")  # '3x', '2s', '12b'
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
        if glued and len(t.text) == 1 and t.text not in GLUE_OK_SINGLE:
            return None
        self.i += 1
        text, scale, dims = t.text, unit.scale, unit.dims
        n = self.exponent()
        if n is not None:
            if not unit.dimensional:
                raise Unparsable("power of a percent sign")
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
        scale, dims = 1.0, NO_DIMS
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
