"""Units for the arithmetic check: SI scales and dimensions of the units German task texts use.

Dimensions are exponents of (m, kg, s, A, K, mol, €); angles and percent are plain numbers (scale only).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Dims = tuple[int, int, int, int, int, int, int]
NO_DIMS: Dims = (0, 0, 0, 0, 0, 0, 0)


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
    "Euro": Unit(1, _d(eur=1)), "%": Unit(0.01, NO_DIMS, False), "‰": Unit(0.001, NO_DIMS, False),
    "°": Unit(math.pi / 180, NO_DIMS, False), "Prozent": Unit(0.01, NO_DIMS, False),
    # spelled out, as pupils (and some texts) write them
    "Volt": UNITS["V"], "Ampere": UNITS["A"], "Ohm": UNITS["Ω"], "Watt": UNITS["W"], "Joule": UNITS["J"],
    "Newton": UNITS["N"], "Meter": UNITS["m"], "Kilometer": UNITS["km"], "Zentimeter": UNITS["cm"],
    "Sekunde": UNITS["s"], "Sekunden": UNITS["s"], "Minute": Unit(60, _d(s=1)), "Minuten": Unit(60, _d(s=1)),
    "Stunde": Unit(3600, _d(s=1)), "Stunden": Unit(3600, _d(s=1)), "Gramm": UNITS["g"], "Kilogramm": UNITS["kg"],
    "Kilowattstunden": UNITS["kWh"], "Kilowattstunde": UNITS["kWh"],
    # number words that scale, as in '2²³ ≈ 8,4 Mio.', and the imperial units of English texts
    "Mio": Unit(1e6, NO_DIMS, False), "Millionen": Unit(1e6, NO_DIMS, False), "Mrd": Unit(1e9, NO_DIMS, False),
    "Milliarden": Unit(1e9, NO_DIMS, False), "Tsd": Unit(1e3, NO_DIMS, False), "mph": Unit(0.44704, _d(m=1, s=-1)),
    "miles": Unit(1609.344, _d(m=1)), "mile": Unit(1609.344, _d(m=1)),
})
UNITS.pop("t")  # 't' is the time variable in almost every text that contains it
# Single lower-case letters glued to a number ('2s', '3m') are read as variables; these may be glued ('12V', '5A').
GLUE_OK_SINGLE = {"V", "A", "W", "J", "N", "K", "C", "L", "Ω", "%", "‰", "°", "€"}
_NAMED_DIMS: dict[Dims, str] = {
    _d(m=1): "m", _d(s=1): "s", _d(kg=1): "kg", _d(a=1): "A", _d(k=1): "K", _d(mol=1): "mol", _d(eur=1): "€",
    _d(1, 1, -2): "N", _ENERGY: "J", _POWER: "W", _VOLT: "V", _d(2, 1, -3, -2): "Ω", _d(s=1, a=1): "C",
    _d(s=-1): "1/s", _d(-1, 1, -2): "Pa", _d(m=2): "m²", _d(m=3): "m³", _d(m=1, s=-1): "m/s",
    _d(m=1, s=-2): "m/s²", _d(kg=1, mol=-1): "g/mol", _d(m=-3, mol=1): "mol/L", _d(1, 1, -3, -1): "V/m",
    _d(eur=1, m=-2, kg=-1, s=2): "€/kWh", NO_DIMS: "ohne Einheit",
}
_BASE_NAMES = ("m", "kg", "s", "A", "K", "mol", "€")
SUPERSCRIPT_DIGITS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def dims_name(dims: Dims) -> str:
    """Readable unit of a dimension: 'Ω', 'm/s²', else the base units ('kg·m²·s⁻³')."""
    if dims in _NAMED_DIMS:
        return _NAMED_DIMS[dims]
    parts = [n + (str(e).translate(SUPERSCRIPT_DIGITS) if e != 1 else "") for n, e in zip(_BASE_NAMES, dims,
                                                                                        strict=True) if e]
    return "·".join(parts)
