"""Computed quantities of the arithmetic check: an SI value with its dimension and the value as written.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.checks.arithmetic.units import NO_DIMS, Dims


@dataclass(frozen=True)
class Value:
    """A computed quantity: SI value with dimension, and the 'raw' value that ignores the unit scales (how a text
    that drops units in the middle of a calculation means its numbers)."""

    si: float
    raw: float
    dims: Dims = NO_DIMS
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
            raise Unparsable("division by zero")
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
            raise Unparsable("division by zero")
        if abs(n) > 40:
            raise Unparsable("exponent too large")
        dims: Dims = tuple(d * n for d in self.dims)  # type: ignore[assignment]
        return Value(self.si ** n, self.raw ** n, dims, self.united, self.uncertain, self.ops + 1, temps=self.temps)

    def neg(self) -> Value:
        return replace(self, si=-self.si, raw=-self.raw)


class Unparsable(Exception):
    """The expression is not something this checker understands with confidence."""
