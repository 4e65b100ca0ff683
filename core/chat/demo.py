"""Demo mode: five curated showcase conversations that `play()` sends, message by message, through the real chat
into a new conversation (one unit of work per turn, as on the chat page) — as a sandbox copy of the demo teacher
(db.repos.demo), never as the demo teacher: a demo changes nobody's data and finds the same start every time."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from core.app.acting import DEMO_TEACHER_EMAIL, acting
from core.app.errors import NotFoundError, UserError
from core.chat.turn import chat_turn
from db.repos import demo as demo_repo
from db.repos.teachers import find_teacher
from db.session import Identity, unit_of_work

SUGGESTION = re.compile(r"\{vorschlag_(\d)\}")


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    description: str
    # "{vorschlag_1}": the first suggestion of the Rückfrage just asked (without a Rückfrage the step is skipped)
    messages: tuple[str, ...]


SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        id="e-lehre",
        title="Klausur E-Lehre mit Rückfrage und Bewertung",
        description="Schärfungsfragen, AFB-Rückfrage, geprüfte Klausur mit Erwartungshorizont – und „genau so, "
                    "bitte so merken“ macht die Aufgaben zu bewährten Aufgaben.",
        messages=("Ich brauche ne Klausur E-Lehre für die 10a",
                  "Stromkreise, 45 Min, aber bitte eine Aufgabe Induktion als AFB III",
                  "30/40/30 bitte",
                  "Super, genau so – bitte so merken!"),
    ),
    Scenario(
        id="differenzierung",
        title="Differenziertes Arbeitsblatt Fotosynthese",
        description="Ein Lernziel auf drei Niveaus mit Hilfekarten und Lösungen, als DOCX.",
        messages=("Bitte ein differenziertes Arbeitsblatt zur Fotosynthese für Klasse 8 in Biologie",),
    ),
    Scenario(
        id="h5p-quiz",
        title="H5P-Quiz Französische Revolution",
        description="Interaktive Übung als echtes .h5p-Paket und Moodle-XML.",
        messages=("Ein H5P-Quiz zur Französischen Revolution für Klasse 8 in Geschichte, 8 Fragen",),
    ),
    Scenario(
        id="rueckfrage-vorschlag",
        title="Rückfrage mit Vorschlag beantwortet",
        description="Der Klausur-Assistent fragt nach der AFB-Verteilung; die Lehrkraft übernimmt den ersten "
                    "Vorschlag.",
        messages=("Klausur Mathe Klasse 9 zum Satz des Pythagoras, 45 Minuten", "{vorschlag_1}"),
    ),
    Scenario(
        id="deutsch-klausur",
        title="Deutsch-Klausur Kurzgeschichten",
        description="Eine Klausur mit vorgegebener AFB-Verteilung, ohne Rückfrage – Operatoren aus der Deutsch-Liste.",
        messages=("Klausur Deutsch für Klasse 9 zu Kurzgeschichten, 90 Minuten, AFB 30/40/30",),
    ),
)


def scenarios() -> list[Scenario]:
    return list(SCENARIOS)


def scenario(scenario_id: str) -> Scenario:
    found = next((s for s in SCENARIOS if s.id == scenario_id), None)
    if found is None:
        raise NotFoundError(f"Das Demo-Szenario „{scenario_id[:40]}“ gibt es nicht. Vorhanden: "
                            f"{', '.join(s.id for s in SCENARIOS)}.")
    return found


def _fill(message: str, question: dict | None) -> str:
    """Replace "{vorschlag_N}" with the N-th suggestion of the open Rückfrage (or a plain 'wie vorgeschlagen')."""
    def suggestion(m: re.Match[str]) -> str:
        vorschlaege = list((question or {}).get("vorschlaege") or [])
        n = int(m.group(1))
        return vorschlaege[n - 1] if 0 < n <= len(vorschlaege) else "wie vorgeschlagen"

    return SUGGESTION.sub(suggestion, message)


@dataclass(frozen=True)
class Played:
    teacher_id: uuid.UUID  # the sandbox teacher the scenario ran as
    email: str
    conversation_id: uuid.UUID


def sandbox_for(owner_id: uuid.UUID) -> tuple[uuid.UUID, str]:
    """A fresh sandbox copy of the demo teacher for this product person: (teacher id, e-mail)."""
    with unit_of_work(Identity.system()) as db:
        owner = find_teacher(db=db, ref=str(owner_id))
        if owner is None or owner.role != "product":  # the chat page offers it to them only; the service checks too
            raise UserError("Demo-Szenarien spielt nur das Produktteam ab (in einer Sandbox).")
        template = find_teacher(db=db, ref=DEMO_TEACHER_EMAIL)
        if template is None:
            raise UserError("Die Demo-Lehrkraft fehlt. Bitte `python -m core seed` ausführen.")
        sandbox = demo_repo.reset_sandbox(db=db, template=template, owner_id=owner_id)
        return sandbox.id, sandbox.email


def play_in_sandbox(scenario_id: str, *, owner_id: uuid.UUID,
                    on_step: Callable[[int, str, object], None] | None = None) -> Played:
    """Play a scenario in a fresh sandbox of the product person `owner_id` (the previous demo is cleared)."""
    scenario(scenario_id)  # unknown ids fail before anything is written
    teacher_id, email = sandbox_for(owner_id)
    return Played(teacher_id=teacher_id, email=email,
                  conversation_id=play(scenario_id, teacher_id=teacher_id, on_step=on_step))


def play(scenario_id: str, *, teacher_id: uuid.UUID,
         on_step: Callable[[int, str, object], None] | None = None) -> uuid.UUID:
    """Play a scenario as `teacher_id` in a new conversation; returns its id. The page plays in a sandbox
    (`play_in_sandbox`); this lower step serves tests and the CLI.

    `on_step(number, message, result)` is called after every turn with the 1-based turn number, the message sent
    and the turn's `core.chat.turn.ChatResult` (e.g. to show progress). Each turn is committed on its own, like in the
    chat; if a turn fails, the turns before it stay and the German error is raised as `UserError`.
    """
    chosen = scenario(scenario_id)
    conversation_id: uuid.UUID | None = None
    question: dict | None = None
    for number, template in enumerate(chosen.messages, start=1):
        if SUGGESTION.search(template) and not question:
            continue  # nothing was asked (e.g. the teacher's preferences already settle it): the step is moot
        message = _fill(template, question)
        try:
            with acting(teacher_id) as (db, teacher, identity):
                result = chat_turn(db=db, identity=identity, teacher=teacher, message=message,
                                   conversation_id=conversation_id)
        except UserError as exc:
            done = f" Die ersten {number - 1} Schritte sind im Gespräch gespeichert." if number > 1 else ""
            raise UserError(f"Die Demo „{chosen.title}“ stockte bei Schritt {number}: {exc.message}{done}") from exc
        conversation_id, question = result.conversation_id, result.question
        if on_step is not None:
            on_step(number, message, result)
    assert conversation_id is not None
    return conversation_id
