"""German number formatting for generated tasks: decimal comma, thousands with a thin space, fractions, units."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction


def zahl(x: float | int | Fraction | Decimal, stellen: int | None = None) -> str:
    """12.5 -> '12,5'; with `stellen` rounded half-up to that many decimals (kept, e.g. '0,50'); 12000 -> '12 000'."""
    d = Decimal(str(float(x))) if isinstance(x, float | Fraction) else Decimal(x)
    if stellen is not None:
        d = d.quantize(Decimal(1).scaleb(-stellen), rounding=ROUND_HALF_UP)
    elif d == d.to_integral_value():
        d = d.quantize(Decimal(1))
    else:
        d = d.normalize()
    sign, text = ("−", str(-d)) if d < 0 else ("", str(d))
    whole, _, frac = text.partition(".")
    if len(whole) > 4:
        groups = []
        while len(whole) > 3:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        whole = " ".join([whole, *groups])
    return sign + whole + ("," + frac if frac else "")


def groesse(x: float | int | Fraction | Decimal, einheit: str, stellen: int | None = None) -> str:
    """A value with its unit: groesse(0.25, 'A') -> '0,25 A'."""
    return f"{zahl(x, stellen)} {einheit}".strip()


def bruch(f: Fraction) -> str:
    """Fraction(3, 4) -> '3/4'; whole numbers without denominator; negative with the minus sign '−'."""
    if f.denominator == 1:
        return zahl(f.numerator)
    sign = "−" if f < 0 else ""
    return f"{sign}{abs(f.numerator)}/{f.denominator}"


def gemischt(f: Fraction) -> str:
    """Fraction(7, 4) -> '1 3/4' (a mixed number as written in Klasse 6)."""
    if f.denominator == 1 or abs(f) < 1:
        return bruch(f)
    sign = "−" if f < 0 else ""
    whole, rest = divmod(abs(f.numerator), f.denominator)
    return f"{sign}{whole} {rest}/{f.denominator}"
