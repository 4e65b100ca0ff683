"""The content-quality gate every material passes, whichever model made it: no filler, no near-duplicates, on
topic, at the level, promises kept. A real model gets the findings back as a retry; the composer treats them as hard
constraints; the learning loop stores only tasks that pass."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from core.checks.duplicates import duplicates
from core.checks.filler import fillers, topic_stems
from core.checks.promises import broken_promises
from core.checks.topicality import TopicContext, cue_reason, level_reason, off_topic_reason
from core.checks.views import TaskView, views
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from core.materials.request import MaterialRequest

FaultKind = Literal["filler", "duplicate", "off_topic", "level", "promise"]
KIND_NAMES: dict[str, str] = {"filler": "ohne Inhalt", "duplicate": "doppelt", "off_topic": "nicht zum Thema",
                              "level": "falsches Niveau", "promise": "Auftrag nicht erfüllt"}
Material = Klausur | DifferenziertesMaterial | H5PSet


@dataclass(frozen=True)
class Finding:
    kind: FaultKind
    ref: str
    message: str

    def line(self) -> str:
        return f"{self.ref} – {KIND_NAMES[self.kind]}: {self.message}"


def task_findings(tasks: Sequence[TaskView], *, thema: str, unterthemen: Sequence[str] = (),
                  topic: TopicContext | None = None, operators: Iterable[str] = (),
                  check_criteria: bool = True, vouched: Iterable[str] = ()) -> list[Finding]:
    """Findings about single tasks (filler, off topic, level) — also what the learning loop and the bank use.
    `vouched`: refs of bank items filed under the requested topic by their authors; a task whose cited items are
    all vouched for is on topic and at the level by provenance, whatever its words."""
    ops = tuple(operators)
    stems = topic_stems(thema, *unterthemen)
    out = [Finding("filler", f.ref, f.reason) for f in fillers(tasks, stems, ops, check_criteria=check_criteria)]
    flagged = {f.ref for f in out}
    trusted = set(vouched)
    if topic is not None:
        for t in tasks:
            if t.ref in flagged or (t.refs and trusted.issuperset(t.refs)):
                continue  # every task it comes from was filed under the requested topic
            if reason := cue_reason(t, topic):  # far above or below the class says more than „another topic“
                out.append(Finding("level", t.ref, reason))
            elif reason := off_topic_reason(t, topic):
                out.append(Finding("off_topic", t.ref, reason))
            elif reason := level_reason(t, topic):
                out.append(Finding("level", t.ref, reason))
    return out


def duplicate_findings(tasks: Sequence[TaskView]) -> list[Finding]:
    return [Finding("duplicate", d.second, f"wiederholt {d.first} fast wörtlich (Ähnlichkeit {d.similarity:.0%})")
            for d in duplicates(tasks)]


def check_material(material: Material, *, request: MaterialRequest | None = None, topic: TopicContext | None = None,
                   operators: Iterable[str] = (), vouched: Iterable[str] = ()) -> list[Finding]:
    """Every content finding of a material; [] when it may go to the teacher."""
    tasks = views(material)
    thema = request.thema if request else material.thema
    unter = request.unterthemen if request else []
    out = task_findings(tasks, thema=thema, unterthemen=unter, topic=topic, operators=operators,
                        check_criteria=isinstance(material, Klausur), vouched=vouched)
    if isinstance(material, DifferenziertesMaterial):
        for n in material.niveaus:  # the same scenario on three levels is the point; repeats within a level are not
            out += duplicate_findings([t for t in tasks if t.gruppe == n.name])
    else:
        out += duplicate_findings(tasks)
    if request is not None:
        out += [Finding("promise", ref, msg) for ref, msg in broken_promises(material, request, tasks)]
    return out


def retry_message(findings: Sequence[Finding]) -> str:
    """What a real model reads: each fault with the task it concerns and what to do."""
    lines = [f.line() for f in findings]
    advice = ("Ersetze Aufgaben ohne Inhalt durch konkrete Aufgaben (Werte, Fall, Material, Textstelle) mit "
              "inhaltlichen Kriterien; streiche Doppelungen; halte dich an Thema und Klassenstufe; liefere, was "
              "gewünscht ist, oder erkläre in hinweise_lehrkraft, warum nicht.")
    return "Inhaltliche Prüfung nicht bestanden:\n" + "\n".join(f"- {x}" for x in lines) + "\n" + advice
