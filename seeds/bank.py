"""The curated task bank: a coverage map per Fach and one file of tasks, quiz questions and three-level tasks per topic.

Layout: `seeds/data/coverage/<fach>.json` (the topics a Fach teaches, with their sources) and
`seeds/data/bank/<fach>/<topic-id>.json` (the items of one topic). Everything is validated here before it is seeded.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.checks.filler import refers_to_material

DATA = Path(__file__).resolve().parent / "data"
COVERAGE_DIR = DATA / "coverage"
BANK_DIR = DATA / "bank"

AFB = Literal["I", "II", "III"]
Stufe = Literal["sek1", "oberstufe"]
ItemNiveau = Literal["Sek I", "gA", "eA"]
TOPIC_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

# What a topic must hold (issue #11).
MIN_TOPICS = 25
MIN_AUFGABEN = 6
MIN_QUIZ = 10
MIN_DIFF = 2
QUIZ_TYPES = ("multichoice", "truefalse", "blanks", "dragtext")
_LEVELS = ["I", "II", "III"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- coverage map ------------------------------------------------------------------------------------------------


class CoverageTopic(_Strict):
    """One topic a German curriculum teaches, as teachers name it."""

    id: str = Field(description="kebab-case, unique within the Fach; also the bank file name")
    thema: str = Field(min_length=3, description="the topic as a teacher names it, e.g. 'Ohmsches Gesetz'")
    themenfeld: str = Field(description="one key of the Fach profile's themenfelder")
    klassenstufen: list[int] = Field(min_length=1, description="the grades it is usually taught in")
    stufe: Stufe
    unterthemen: list[str] = Field(min_length=2, description="sub-topics a teacher may name ('Mendel', 'Stammbaum')")
    schlagworte: list[str] = Field(min_length=3, description="words and synonyms a request or a task would use")
    quelle: str = Field(min_length=5, description="key(s) of the coverage file's quellen, plus section if known")
    generatoren: list[str] = Field(default_factory=list, description="parametric generators that serve this topic")

    @model_validator(mode="after")
    def _shape(self) -> CoverageTopic:
        if not TOPIC_ID.match(self.id):
            raise ValueError(f"topic id {self.id!r} must be kebab-case (a-z, 0-9, '-')")
        if any(not 5 <= k <= 13 for k in self.klassenstufen):
            raise ValueError(f"{self.id}: klassenstufen must be 5..13")
        oberstufe = min(self.klassenstufen) >= 11
        if (self.stufe == "oberstufe") != oberstufe:
            raise ValueError(f"{self.id}: stufe {self.stufe!r} does not match klassenstufen {self.klassenstufen}")
        return self


class Coverage(_Strict):
    fach: str
    quellen: dict[str, str] = Field(min_length=1, description="key -> full name of a curriculum or standard")
    topics: list[CoverageTopic]

    @model_validator(mode="after")
    def _unique(self) -> Coverage:
        ids = Counter(t.id for t in self.topics)
        if dup := [i for i, n in ids.items() if n > 1]:
            raise ValueError(f"duplicate topic ids: {dup}")
        for t in self.topics:
            keys = [k.strip() for k in re.split(r"[;,]", t.quelle) if k.strip()]
            if not any(k.split(" ")[0] in self.quellen for k in keys):
                raise ValueError(f"{t.id}: quelle {t.quelle!r} names no key of quellen {list(self.quellen)}")
        return self


# --- materials, tasks, quiz, three-level tasks --------------------------------------------------------------------


class Tabelle(_Strict):
    spalten: list[str] = Field(min_length=2)
    zeilen: list[list[str]] = Field(min_length=2)

    @model_validator(mode="after")
    def _rect(self) -> Tabelle:
        for i, z in enumerate(self.zeilen):
            if len(z) != len(self.spalten):
                raise ValueError(f"tabelle row {i} has {len(z)} cells, expected {len(self.spalten)}")
        return self


class BankMaterial(_Strict):
    """A text, source or table that one or more tasks work with."""

    id: str
    titel: str = Field(min_length=3)
    art: Literal["gedicht", "prosa", "sachtext", "drama", "quelle", "darstellung", "tabelle", "text", "fall"]
    text: str | None = Field(default=None, description="lines separated by \\n; line numbers are added when printed")
    tabelle: Tabelle | None = None
    zeilennummern: bool = Field(default=False, description="print line numbers (poems, prose, sources)")
    quelle: str = Field(min_length=5, description="Quellenangabe, or 'selbst verfasst' for own texts")
    lizenz: Literal["gemeinfrei", "selbst verfasst", "amtliches Werk"]
    zeilen_aufgaben: dict[str, list[str]] = Field(
        default_factory=dict, description="a table row (by its first cell) that belongs to certain tasks -> their "
        "ids: printed only with one of them (a receipt one task checks is no stray row beside the others)")

    @model_validator(mode="after")
    def _content(self) -> BankMaterial:
        rows = {z[0] for z in self.tabelle.zeilen if z} if self.tabelle else set()
        if stray := [k for k in self.zeilen_aufgaben if k not in rows]:
            raise ValueError(f"material {self.id}: zeilen_aufgaben names no row {stray}")
        if (self.text is None) == (self.tabelle is None):
            raise ValueError(f"material {self.id}: exactly one of text or tabelle")
        if self.art == "tabelle" and self.tabelle is None:
            raise ValueError(f"material {self.id}: art 'tabelle' needs tabelle")
        if self.text is not None and "|" in self.text and self.text.count("|") > 4:
            raise ValueError(f"material {self.id}: tables belong in 'tabelle', not pipe-separated text")
        return self


class Review(_Strict):
    """A reviewer's verdict, stored with the item."""

    reviewer: str = Field(min_length=3)
    datum: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    urteil: Literal["freigegeben", "überarbeitet", "zurückgestellt"]
    befunde: list[str] = Field(default_factory=list)


class Kriterium(_Strict):
    kriterium: str = Field(min_length=5)
    punkte: int = Field(ge=1)


class BankAufgabe(_Strict):
    """One complete exam task (a Teilaufgabe) with its Erwartungshorizont."""

    id: str
    unterthema: str
    klassenstufe: int = Field(ge=5, le=13)
    niveau: ItemNiveau = "Sek I"
    material: str | list[str] | None = Field(
        default=None, description="id (or ids, e.g. two sources to compare) of materials of this topic file")
    aufgabe: str = Field(min_length=25)
    operator: str
    afb: AFB
    punkte: int = Field(ge=1, le=60)  # a whole Erörterung or essay carries most of an exam (decision 054)
    minuten: int | None = Field(default=None, ge=1, le=120, description="expected working time")
    erwartung: list[Kriterium] = Field(min_length=1)
    description: str = Field(min_length=10)
    review: list[Review] = Field(default_factory=list)

    @model_validator(mode="after")
    def _points(self) -> BankAufgabe:
        total = sum(c.punkte for c in self.erwartung)
        if total != self.punkte:
            raise ValueError(f"aufgabe {self.id}: Erwartung points {total} != punkte {self.punkte}")
        if self.punkte >= 3 and len(self.erwartung) < 2:
            raise ValueError(f"aufgabe {self.id}: 3 or more points need at least two criteria")
        if (self.klassenstufe >= 11) != (self.niveau != "Sek I"):
            raise ValueError(f"aufgabe {self.id}: niveau {self.niveau} does not fit klassenstufe {self.klassenstufe}")
        return self


class Option(_Strict):
    text: str = Field(min_length=1)
    korrekt: bool
    feedback: str = Field(min_length=3)


class BankFrage(_Strict):
    """One quiz question for the H5P specialist, with feedback."""

    id: str
    unterthema: str
    klassenstufe: int = Field(ge=5, le=13)
    typ: Literal["multichoice", "truefalse", "blanks", "dragtext"]
    frage: str = Field(min_length=10, description="question; statement (truefalse); cloze text with *gaps*")
    antworten: list[Option] = Field(default_factory=list, description="multichoice only")
    wahr: bool | None = Field(default=None, description="truefalse only")
    erklaerung: str = Field(min_length=10, description="feedback shown after answering")
    review: list[Review] = Field(default_factory=list)

    @model_validator(mode="after")
    def _shape(self) -> BankFrage:
        if self.typ == "multichoice":
            if not 3 <= len(self.antworten) <= 5 or sum(a.korrekt for a in self.antworten) != 1:
                raise ValueError(f"frage {self.id}: multichoice needs 3-5 options with exactly one correct")
        elif self.antworten:
            raise ValueError(f"frage {self.id}: only multichoice has antworten")
        if self.typ == "truefalse" and self.wahr is None:
            raise ValueError(f"frage {self.id}: truefalse needs wahr")
        if self.typ != "truefalse" and self.wahr is not None:
            raise ValueError(f"frage {self.id}: only truefalse has wahr")
        if self.typ in ("blanks", "dragtext"):
            if "*" not in self.frage or self.frage.count("*") % 2:
                raise ValueError(f"frage {self.id}: {self.typ} needs *gaps* in frage")
            if self.typ == "dragtext" and "/" in "".join(re.findall(r"\*([^*]*)\*", self.frage)):
                raise ValueError(f"frage {self.id}: dragtext gaps take exactly one answer (no '/')")
        return self


class NiveauBlock(_Strict):
    aufgaben: list[str] = Field(min_length=2)
    hilfekarten: list[str] = Field(min_length=1)
    loesungen: list[str] = Field(min_length=2)

    @model_validator(mode="after")
    def _one_solution_each(self) -> NiveauBlock:
        if len(self.loesungen) != len(self.aufgaben):
            raise ValueError(f"{len(self.aufgaben)} aufgaben but {len(self.loesungen)} loesungen")
        return self


class BankDifferenzierung(_Strict):
    """One Lernziel on three Niveaus, with Hilfekarten and solutions."""

    id: str
    unterthema: str
    klassenstufe: int = Field(ge=5, le=13)
    lernziel: str = Field(min_length=20)
    material: str | None = None
    grundlegend: NiveauBlock
    mittel: NiveauBlock
    erweitert: NiveauBlock
    review: list[Review] = Field(default_factory=list)


class TopicBank(_Strict):
    """All items of one topic."""

    fach: str
    topic: str
    materialien: list[BankMaterial] = Field(default_factory=list)
    aufgaben: list[BankAufgabe] = Field(default_factory=list)
    quiz: list[BankFrage] = Field(default_factory=list)
    differenzierung: list[BankDifferenzierung] = Field(default_factory=list)

    @model_validator(mode="after")
    def _refs(self) -> TopicBank:
        ids = Counter(x.id for group in (self.materialien, self.aufgaben, self.quiz, self.differenzierung)
                      for x in group)
        if dup := [i for i, n in ids.items() if n > 1]:
            raise ValueError(f"duplicate item ids: {dup}")
        materials = {m.id for m in self.materialien}
        for item in [*self.aufgaben, *self.differenzierung]:
            for ref in material_ids(item.material):
                if ref not in materials:
                    raise ValueError(f"{item.id}: material {ref!r} is not defined in materialien")
        tasks = {a.id for a in self.aufgaben}
        if stray := [t for m in self.materialien for ts in m.zeilen_aufgaben.values() for t in ts if t not in tasks]:
            raise ValueError(f"zeilen_aufgaben names tasks that do not exist: {stray}")
        return self


def material_ids(ref: str | list[str] | None) -> list[str]:
    return [] if ref is None else [ref] if isinstance(ref, str) else list(ref)


# --- loading and checking -----------------------------------------------------------------------------------------


def load_coverage(fach: str) -> Coverage | None:
    path = COVERAGE_DIR / f"{fach}.json"
    if not path.exists():
        return None
    return Coverage.model_validate(json.loads(path.read_text(encoding="utf-8")))


def load_topic(fach: str, topic: str) -> TopicBank | None:
    path = BANK_DIR / fach / f"{topic}.json"
    if not path.exists():
        return None
    return TopicBank.model_validate(json.loads(path.read_text(encoding="utf-8")))


@lru_cache
def _profile(fach: str) -> tuple[frozenset[str], frozenset[str]]:
    """(Themenfelder, operators) of a Fach from its subject seed file."""
    data = json.loads((DATA / f"{fach}.json").read_text(encoding="utf-8"))
    return frozenset(data["profile"]["themenfelder"]), frozenset(o["operator"] for o in data["operatoren"])


def _operator_afb(fach: str) -> dict[str, str]:
    data = json.loads((DATA / f"{fach}.json").read_text(encoding="utf-8"))
    return {o["operator"]: o["afb"] for o in data["operatoren"]}


def check_topic(fach: str, topic: CoverageTopic, bank: TopicBank) -> list[str]:
    """Problems of one topic's bank beyond the schema: counts, spread, references to the Fach profile."""
    problems: list[str] = []
    _, operators = _profile(fach)
    if bank.fach != fach or bank.topic != topic.id:
        problems.append(f"file says fach={bank.fach!r} topic={bank.topic!r}")
    if len(bank.aufgaben) < MIN_AUFGABEN:
        problems.append(f"{len(bank.aufgaben)} Aufgaben (< {MIN_AUFGABEN})")
    afbs = Counter(a.afb for a in bank.aufgaben)
    if any(afbs[level] == 0 for level in ("I", "II", "III")):
        problems.append(f"AFB spread {dict(afbs)}: every AFB needs at least one task")
    if len(bank.quiz) < MIN_QUIZ:
        problems.append(f"{len(bank.quiz)} quiz questions (< {MIN_QUIZ})")
    types = Counter(q.typ for q in bank.quiz)
    if any(types[t] == 0 for t in QUIZ_TYPES):
        problems.append(f"quiz types {dict(types)}: all of {QUIZ_TYPES} are needed")
    if len(bank.differenzierung) < MIN_DIFF:
        problems.append(f"{len(bank.differenzierung)} three-level tasks (< {MIN_DIFF})")
    for a in bank.aufgaben:
        if a.operator not in operators:
            problems.append(f"aufgabe {a.id}: operator {a.operator!r} not in the Fach's operator list")
        elif (level := _operator_afb(fach).get(a.operator)) and _LEVELS.index(a.afb) < _LEVELS.index(level):
            # an operator may be used one level higher when the demand is higher; lower never
            problems.append(f"aufgabe {a.id}: operator {a.operator} is AFB {level}, task says {a.afb}")
    for item in [*bank.aufgaben, *bank.quiz, *bank.differenzierung]:
        if item.unterthema not in topic.unterthemen:
            problems.append(f"{item.id}: unterthema {item.unterthema!r} is not one of the topic's unterthemen")
        lo, hi = min(topic.klassenstufen), max(topic.klassenstufen)
        if not lo - 1 <= item.klassenstufe <= hi + 1:
            problems.append(f"{item.id}: klassenstufe {item.klassenstufe} outside topic's {topic.klassenstufen}")
    for a in bank.aufgaben:
        if not a.material and refers_to_material(a.aufgabe):
            problems.append(f"aufgabe {a.id}: refers to a material (M1, 'das Gedicht', 'Z. 3' …) but has none")
    for q in bank.quiz:
        if refers_to_material(q.frage, exam=False):
            problems.append(f"frage {q.id}: quiz questions have no material; do not refer to M1 or line numbers")
    for d in bank.differenzierung:  # a worksheet that says 'mithilfe von M3' but prints no M3 is unusable
        if not d.material and any(
            refers_to_material(t, exam=False) for n in (d.grundlegend, d.mittel, d.erweitert) for t in n.aufgaben
        ):
            problems.append(f"differenzierung {d.id}: a task refers to a material (M1, 'Z. 3' …) but the item has none")
    used = {m for a in bank.aufgaben for m in material_ids(a.material)} | {d.material for d in bank.differenzierung}
    for m in bank.materialien:
        if m.id not in used:
            problems.append(f"material {m.id} is used by no item")
    return problems


def check_fach(fach: str) -> tuple[list[str], list[tuple[str, int, int, int]]]:
    """(problems, rows of (topic id, Aufgaben, Quiz, Differenzierung)) for one Fach."""
    problems: list[str] = []
    rows: list[tuple[str, int, int, int]] = []
    try:
        coverage = load_coverage(fach)
    except ValueError as exc:
        return [f"coverage/{fach}.json: {exc}"], rows
    if coverage is None:
        return [f"coverage/{fach}.json missing"], rows
    fields, _ = _profile(fach)
    if len(coverage.topics) < MIN_TOPICS:
        problems.append(f"{len(coverage.topics)} topics (< {MIN_TOPICS})")
    for t in coverage.topics:
        if t.themenfeld not in fields:
            problems.append(f"{t.id}: themenfeld {t.themenfeld!r} not in the profile ({sorted(fields)})")
        try:
            bank = load_topic(fach, t.id)
        except ValueError as exc:
            problems.append(f"bank/{fach}/{t.id}.json: {exc}")
            rows.append((t.id, 0, 0, 0))
            continue
        if bank is None:
            problems.append(f"bank/{fach}/{t.id}.json missing")
            rows.append((t.id, 0, 0, 0))
            continue
        problems += [f"{t.id}: {p}" for p in check_topic(fach, t, bank)]
        rows.append((t.id, len(bank.aufgaben), len(bank.quiz), len(bank.differenzierung)))
    known = {t.id for t in coverage.topics}
    for path in sorted((BANK_DIR / fach).glob("*.json")):
        if path.stem not in known:
            problems.append(f"bank/{fach}/{path.name} belongs to no coverage topic")
    return problems, rows


def main(argv: list[str] | None = None) -> int:
    import sys

    args = argv if argv is not None else sys.argv[1:]
    faecher = args or sorted(p.stem for p in COVERAGE_DIR.glob("*.json"))
    failed = False
    for fach in faecher:
        problems, rows = check_fach(fach)
        done = sum(1 for _, a, q, d in rows if a >= MIN_AUFGABEN and q >= MIN_QUIZ and d >= MIN_DIFF)
        print(f"== {fach}: {len(rows)} topics, {done} complete; "
              f"{sum(r[1] for r in rows)} Aufgaben, {sum(r[2] for r in rows)} Quiz, {sum(r[3] for r in rows)} Diff")
        for p in problems:
            print(f"  - {p}")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
