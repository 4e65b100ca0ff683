"""What a request for a material says (Extraction, AfbWish), how a later message completes an earlier one (merge),
and which facts are still missing (missing_fields)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from core.language.afb import AfbLevel
from core.language.klasse import Niveau
from core.language.text import fold

FACH_KEYS = ("physik", "biologie", "deutsch", "mathematik", "geschichte", "geographie", "englisch", "chemie")

FACH_NAMEN = {
    "physik": "Physik", "biologie": "Biologie", "deutsch": "Deutsch", "mathematik": "Mathematik",
    "geschichte": "Geschichte", "geographie": "Geographie", "englisch": "Englisch", "chemie": "Chemie",
}

MaterialType = Literal["klausur", "differenzierung", "h5p"]
FachSource = Literal["explicit", "area", "topic"]

TopicTerms = Mapping[str, Mapping[str, Sequence[str]]]

FIELDS_IN_ASKING_ORDER = ("fach", "klassenstufe", "thema", "dauer_minuten", "material_type")


@dataclass(frozen=True)
class AfbWish:
    """One task the teacher wants on a given Anforderungsbereich ("eine Aufgabe Induktion als AFB III")."""

    thema: str
    afb: AfbLevel


@dataclass(frozen=True)
class Extraction:
    """What one message (or, after `merge`, a whole conversation) says about the requested material."""

    fach: str | None = None
    fach_hint: str | None = None
    klassenstufe: int | None = None
    klasse: str | None = None
    thema: str | None = None
    dauer_minuten: int | None = None
    material_type: MaterialType | None = None
    afb_verteilung: tuple[int, int, int] | None = None
    afb_wishes: tuple[AfbWish, ...] = ()
    aufgaben_anzahl: int | None = None
    problems: tuple[str, ...] = ()
    unterthemen: tuple[str, ...] = ()
    niveau: Niveau | None = None
    # How sure the Fach is: named ("Physik"), implied by a topic area ("E-Lehre") or guessed from topic words
    # ("Stromkreise"). `merge` lets a guess never overwrite a named Fach. Not part of equality.
    fach_source: FachSource | None = field(default=None, compare=False)
    # The teacher's words for a named topic area ("Optik") and whether it is a broad subject area that still needs
    # a Schwerpunkt ("Optik", "E-Lehre") rather than a unit that is a topic ("Atombau und Periodensystem").
    area_text: str | None = field(default=None, compare=False)
    area_broad: bool = field(default=False, compare=False)
    # The teacher's word for an exam ("Test", "Klassenarbeit", "Lernkontrolle"): the chat names it so.
    exam_word: str | None = field(default=None, compare=False)
    # Topic words the reader took for typos, as (typed, meant): "Pythagros" -> "Pythagoras". Newest message only.
    typos: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    # The Fächer the topic words point to equally when they decide none („Energieumwandlung“: Physik, Biologie,
    # Chemie): the teacher's own Fächer may break the tie (decision 064).
    fach_options: tuple[str, ...] = field(default=(), compare=False)


def merge(previous: Extraction, new: Extraction) -> Extraction:
    """The state after another turn: what the new message says wins, what it leaves open is kept.

    A Fach only guessed from topic words never overrides a Fach the teacher named earlier; a new Klassenstufe
    drops an earlier class name that no longer fits ("10a", then "doch Klasse 9"); AFB wishes accumulate;
    `problems` are those of the newest message only (they describe what the teacher just wrote).
    """
    fach, source = previous.fach, previous.fach_source
    if new.fach is not None and not (
        previous.fach is not None and new.fach != previous.fach and new.fach_source == "topic"
        and previous.fach_source in ("explicit", "area")
    ):
        fach, source = new.fach, new.fach_source
    if new.fach_hint is not None and (fach == new.fach):
        hint = new.fach_hint
    elif fach == previous.fach:
        hint = previous.fach_hint
    else:
        hint = None
    if new.klasse is not None:
        klasse, stufe = new.klasse, new.klassenstufe
    elif new.klassenstufe is not None:
        stufe = new.klassenstufe
        keep = previous.klasse is not None and previous.klasse.rstrip("abcdefg") == str(stufe)
        klasse = previous.klasse if keep else None
    else:
        klasse, stufe = previous.klasse, previous.klassenstufe
    wishes = [w for w in previous.afb_wishes if all(fold(w.thema) != fold(x.thema) for x in new.afb_wishes)]
    wishes.extend(new.afb_wishes)

    filled = {
        name: getattr(new, name)
        for name in ("thema", "dauer_minuten", "material_type", "afb_verteilung", "aufgaben_anzahl", "niveau",
                     "area_text")
        if getattr(new, name) is not None
    }
    if new.thema is not None:  # a new topic brings its own sub-topics (or none)
        filled["unterthemen"] = new.unterthemen
    if new.area_text is not None:
        filled["area_broad"] = new.area_broad
    if new.material_type is not None:  # a new material type brings its own word (or none)
        filled["exam_word"] = new.exam_word
    return replace(
        previous, **filled, fach=fach, fach_hint=hint, klassenstufe=stufe, klasse=klasse, afb_wishes=tuple(wishes),
        problems=new.problems, fach_source=source, typos=new.typos,
        fach_options=new.fach_options or previous.fach_options,
    )


def missing_fields(e: Extraction) -> list[str]:
    """Which of fach, klassenstufe, thema, dauer_minuten, material_type are still open — in asking order."""
    return [name for name in FIELDS_IN_ASKING_ORDER if getattr(e, name) is None]
