"""German number formats of the evaluation reports: percentages, thousands, US dollars."""

from __future__ import annotations


def fmt_pct(value: float) -> str:
    return f"{value * 100:.1f} %".replace(".", ",")


def fmt_num(value: float | int) -> str:
    return f"{value:,}".replace(",", ".")


def fmt_usd(value: float) -> str:
    return f"{value:.4f}".replace(".", ",")
