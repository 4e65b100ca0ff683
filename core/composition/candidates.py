"""What the composer chooses from: exam tasks, quiz questions and three-level tasks from the bank, the teacher's own
good practices and the parametric generators, each with where it comes from (for the Quellen) and its level."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from core.checks.topicality import TopicContext
from core.composition.generators.base import Generator
from core.composition.report import Nachbar
from core.materials.blocks import AFB_STUFEN, MaterialBlock, Quelle
from core.materials.klausur import Kriterium

Herkunft = Literal["eigene", "bank", "generator", "kuratiert"]
HERKUNFT_NAMEN = {"eigene": "eigene bewährte Aufgabe", "bank": "Aufgabenbank", "generator": "Aufgabengenerator",
                  "kuratiert": "kuratierte Aufgabe"}


@dataclass(frozen=True)
class TaskCandidate:
    """One complete exam sub-task the composer may use."""

    key: str
    herkunft: Herkunft
    topic: str | None
    unterthema: str
    klassenstufe: int | None
    niveau: str
    operator: str
    afb: str
    text: str
    erwartung: tuple[tuple[str, int], ...]
    minuten: int
    quelle: Quelle
    quality: float = 0.5
    materialien: tuple[MaterialBlock, ...] = ()
    material_key: str | None = None  # tasks with the same key work on one material: one Aufgabe
    generator: str | None = None
    seed: int | None = None

    @property
    def punkte(self) -> int:
        return sum(p for _, p in self.erwartung)

    def kriterien(self) -> list[Kriterium]:
        return [Kriterium(text=t, punkte=p) for t, p in self.erwartung]


@dataclass(frozen=True)
class QuizCandidate:
    key: str
    herkunft: Herkunft
    topic: str | None
    unterthema: str
    klassenstufe: int | None
    frage: dict[str, Any]  # an H5PFrage as data (typ, frage/text, antworten, wahr, erklaerung)
    quelle: Quelle
    quality: float = 0.5

    def gezeigt(self) -> dict[str, Any]:
        """The question as a quiz shows it, naming the bank item it comes from (decision 055)."""
        return {**self.frage, "quelle": self.key}


@dataclass(frozen=True)
class DiffCandidate:
    key: str
    herkunft: Herkunft
    topic: str | None
    unterthema: str
    klassenstufe: int | None
    lernziel: str
    niveaus: dict[str, dict[str, list[str]]]  # grundlegend/mittel/erweitert -> aufgaben, hilfekarten, loesungen
    quelle: Quelle
    quality: float = 0.5
    material: MaterialBlock | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _herkunft(scope_type: str, source: str) -> Herkunft:
    if scope_type != "global":
        return "eigene"
    return "kuratiert" if source in ("curator", "import") else "bank"


def _minuten(content: Mapping[str, Any], punkte: int) -> int:
    m = content.get("minuten")
    return int(m) if isinstance(m, int) and m > 0 else max(1, punkte)


def withheld(content: Mapping[str, Any]) -> bool:
    """The last review held the item back ('zurückgestellt'): it is not used until someone fixes it."""
    reviews = content.get("review")
    return isinstance(reviews, list) and bool(reviews) and isinstance(reviews[-1], dict) \
        and reviews[-1].get("urteil") == "zurückgestellt"


def _blocks(content: Mapping[str, Any]) -> tuple[MaterialBlock, ...]:
    """The materials of a stored task: the bank's list, an older single block, or a plain text."""
    raw = content.get("materialien")
    if isinstance(raw, list):
        return tuple(MaterialBlock.model_validate(m) for m in raw if isinstance(m, dict))
    material = content.get("material")
    if isinstance(material, dict):
        return (MaterialBlock.model_validate(material),)
    if isinstance(material, str) and material.strip():
        return (MaterialBlock(titel="Material", art="text", text=material.strip()),)
    return ()


def task_from_row(*, ref: str, titel: str, content: Mapping[str, Any], scope_type: str, source: str,
                  quality: float, thema: str | None = None) -> TaskCandidate | None:
    """A knowledge row (bank, curated seed, the teacher's rated task) as a candidate; None if it is incomplete."""
    text = content.get("aufgabe")
    erwartung = content.get("erwartung")
    afb = content.get("afb")
    if withheld(content) or not isinstance(text, str) or not isinstance(erwartung, list) or afb not in AFB_STUFEN:
        return None
    try:
        crit = tuple((str(c["kriterium"]), int(c["punkte"])) for c in erwartung if int(c["punkte"]) > 0)
    except (KeyError, TypeError, ValueError):
        return None
    if not crit:
        return None
    blocks = _blocks(content)
    stufe = content.get("klassenstufe")
    punkte = sum(p for _, p in crit)
    return TaskCandidate(
        key=ref, herkunft=_herkunft(scope_type, source), topic=content.get("topic"),
        unterthema=str(content.get("unterthema") or thema or content.get("themenfeld") or titel or ""),
        klassenstufe=stufe if isinstance(stufe, int) else None, niveau=str(content.get("niveau") or "Sek I"),
        operator=str(content.get("operator") or ""), afb=afb, text=text.strip(), erwartung=crit,
        minuten=_minuten(content, punkte), quelle=Quelle(art="good_practice", ref=ref, titel=titel), quality=quality,
        materialien=blocks, material_key=content.get("material_id") or (f"mat:{ref}" if blocks else None))


def quiz_from_row(*, ref: str, titel: str, content: Mapping[str, Any], scope_type: str, source: str,
                  quality: float, thema: str | None = None) -> QuizCandidate | None:
    typ = content.get("typ")
    if withheld(content) or typ not in ("multichoice", "truefalse", "blanks", "dragtext"):
        return None
    frage = {k: content[k] for k in ("typ", "frage", "text", "antworten", "wahr", "erklaerung", "mehrfach")
             if k in content and content[k] is not None}
    if typ in ("blanks", "dragtext") and "text" not in frage:
        frage["text"] = frage.pop("frage", "")
    stufe = content.get("klassenstufe")
    return QuizCandidate(key=ref, herkunft=_herkunft(scope_type, source), topic=content.get("topic"),
                         unterthema=str(content.get("unterthema") or titel or ""),
                         klassenstufe=stufe if isinstance(stufe, int) else None, frage=frage,
                         quelle=Quelle(art="good_practice", ref=ref, titel=titel), quality=quality)


def diff_from_row(*, ref: str, titel: str, content: Mapping[str, Any], scope_type: str, source: str,
                  quality: float, thema: str | None = None) -> DiffCandidate | None:
    niveaus = {n: content.get(n) for n in ("grundlegend", "mittel", "erweitert")}
    if withheld(content) or not all(isinstance(v, dict) and v.get("aufgaben") for v in niveaus.values()):
        return None
    material = content.get("material")
    stufe = content.get("klassenstufe")
    return DiffCandidate(
        key=ref, herkunft=_herkunft(scope_type, source), topic=content.get("topic"),
        unterthema=str(content.get("unterthema") or titel or ""),
        klassenstufe=stufe if isinstance(stufe, int) else None, lernziel=str(content.get("lernziel") or ""),
        niveaus={n: {k: list(v.get(k) or []) for k in ("aufgaben", "hilfekarten", "loesungen")}
                 for n, v in niveaus.items() if isinstance(v, dict)},
        quelle=Quelle(art="good_practice", ref=ref, titel=titel), quality=quality,
        material=MaterialBlock.model_validate(material) if isinstance(material, dict) else None)


def task_from_generator(g: Generator, *, seed: int, klassenstufe: int, topic: str | None) -> TaskCandidate:
    t = g.generate(seed, klassenstufe)
    return TaskCandidate(
        key=f"gen:{g.key}#{seed}", herkunft="generator", topic=topic, unterthema=g.unterthema,
        klassenstufe=klassenstufe, niveau=g.niveaus[0], operator=t.operator, afb=t.afb, text=t.text,
        erwartung=tuple((s.text, s.punkte) for s in t.erwartung), minuten=t.minuten,
        quelle=Quelle(art="generator", ref=f"{g.key}#{seed}",
                      titel=f"Rechenaufgabe „{g.unterthema}“, Werte neu gewählt und exakt berechnet"),
        quality=0.7, materialien=(t.material,) if t.material else (),
        material_key=f"gen:{g.key}#{seed}" if t.material else None, generator=g.key, seed=seed)


@dataclass(kw_only=True)
class Umfeld:
    """What a quiz or worksheet order knows around its candidates: the resolved topics, the course level, the
    neighbouring topics to offer, what to avoid, and the salt that varies equal choices by request."""

    topic: TopicContext | None = None
    kurs: str | None = None
    primary_topics: tuple[str, ...] = ()
    nachbarn: list[Nachbar] = field(default_factory=list)
    avoid: tuple[str, ...] = ()
    salt: str = ""


def preference_score(c: QuizCandidate | DiffCandidate, *, salt: str, primary_topics: Sequence[str],
                     klassenstufe: int) -> float:
    """How much a quiz question or three-level task is preferred: quality, the request's own topics, the teacher's
    own tasks, the right grade — plus a small salted tie-break, so equal candidates vary by request, not by order."""
    same = json.dumps(c.frage, sort_keys=True) if isinstance(c, QuizCandidate) else c.lernziel  # not the row id
    s = 1.0 + 0.3 * c.quality + int(hashlib.sha256(f"{salt}|{same}".encode()).hexdigest()[:6], 16) / 0xFFFFFF * .1
    if c.topic in primary_topics:
        s += 0.5
    if c.herkunft == "eigene":
        s += 0.4
    if c.klassenstufe is not None and klassenstufe <= 10:
        s -= 0.2 * abs(c.klassenstufe - klassenstufe)
    return s
