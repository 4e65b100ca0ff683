"""When the requested topic has checked items only for other grades (decision 068): „Revolution in Russland“ for
Klasse 9 when the bank holds only Oberstufe tasks on the Russian Revolution. The refusal says so — the teacher
learns that material exists, for which classes, and why it is not handed to her class."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.composition.filters import level_ok
from core.composition.report import Befund
from core.language.text import fold


class _Item(Protocol):
    klassenstufe: int | None
    topic: str | None


def say_other_grades(
    befund: Befund,
    cands: Sequence[_Item],
    *,
    primary: Sequence[str],
    names: Sequence[str],
    thema: str,
    klassenstufe: int | None,
    kurs: str | None,
) -> None:
    """Set the refusal's reason when nothing fits the class but the requested topics hold items of other grades."""
    if befund.gefunden or befund.grund or klassenstufe is None or not primary:
        return
    on_topic = [c for c in cands if c.topic in primary]
    if not on_topic or any(
        level_ok(c.klassenstufe, getattr(c, "niveau", None), wanted=klassenstufe, kurs=kurs) for c in on_topic
    ):
        return
    grades = sorted({c.klassenstufe for c in on_topic if c.klassenstufe is not None})
    if not grades:
        return
    span = f"Klasse {grades[0]}" if len(grades) == 1 else f"Klassen {grades[0]}–{grades[-1]}"
    band = f"die Oberstufe ({span})" if grades[0] >= 11 else span
    named = [n for n in names if fold(n) != fold(thema)]
    als = f" (in der Wissensbasis: {', '.join(f'„{n}“' for n in named)})" if named else ""
    befund.grund = (
        f"Zu „{thema}“{als} gibt es geprüfte Aufgaben nur für {band}, keine für Klasse {klassenstufe}. "
        f"Aufgaben einer anderen Stufe setze ich in Klasse {klassenstufe} nicht ein."
    )
