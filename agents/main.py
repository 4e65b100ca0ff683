"""The main agent: leads the teacher's conversation in German and hands clear requests to the material router.

Two-phase Rückfrage: `generate_material` returns a material or `RÜCKFRAGE_AN_LEHRER … [session:<id>]`; the
teacher's answer makes the agent call `continue_material_generation`, which resumes the specialist's run.
"""

from __future__ import annotations

import re
import uuid
from collections import Counter
from collections.abc import Callable
from typing import Final, Literal

from pydantic import ValidationError
from pydantic_ai import Agent, ModelRetry, RunContext
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import FunctionToolset

from agents.deps import TurnContext
from agents.guard import GuardedToolset
from agents.prompts import instructions_for
from core.app.errors import UserError
from core.editing.add_topic import add_topic
from core.editing.items import patch_any_material
from core.editing.patch import EditOutcome
from core.editing.regenerate import regenerate_from_previous as regenerate
from core.editing.remove_topic import remove_topic
from core.editing.restore import conversation_materials, material_files, restore_version
from core.generation.outcomes import Feedback, TurnError
from core.generation.service import continue_generation, start_generation
from core.knowledge.learning import apply_chat_feedback, remember_fact
from core.material_sets.service import continue_combined, run_combined
from core.materials.patch_ops import PatchOp
from core.materials.request import AfbWunsch, MaterialRequest
from db.repos import memory as memory_repo
from db.repos import sessions as session_repo
from db.repos import teachers as teacher_repo

MAIN_TOOLS: FunctionToolset[TurnContext] = FunctionToolset()


def _offered(ctx: RunContext[TurnContext], tool: ToolDefinition) -> bool:
    """Only the toolsets selected for this turn (core.chat.toolsets; all of them when no selection was made)."""
    selection = ctx.deps.toolsets
    return selection is None or selection.allows(tool.name)


main_agent: Agent[TurnContext, str] = Agent(
    output_type=str, deps_type=TurnContext, name="main", retries={"tools": 2, "output": 1}, defer_model_check=True,
    toolsets=[GuardedToolset(MAIN_TOOLS.filtered(_offered))],
)


# „was“ is German as well („was gut ist“); titles of English works in a German reply must not outweigh it
_ENGLISH_TEXT: Final = "the and of to is are you your this that with for it be have will what can"
_GERMAN_TEXT: Final = ("der die das und ist sind ich sie ein eine nicht mit für zu den im es auf wie bitte ihre ihr "
                       "dem des auch gern gerne kann wird oder aus zum")
_ENGLISH: Final = frozenset(_ENGLISH_TEXT.split())
_GERMAN: Final = frozenset(_GERMAN_TEXT.split())
_WORD = re.compile(r"[^\W\d_]+")


def reply_problem(reply: str) -> str | None:
    """Why a reply must not reach the teacher as it is (empty, one sentence repeated, or not German), else None. A
    short reply ("Gern!") is not judged by language: too few words to tell."""
    words = [w.lower() for w in _WORD.findall(reply)]
    if not words:
        return "Die Antwort ist leer. Antworte der Lehrkraft in ganzen deutschen Sätzen."
    lines = [line.strip() for line in reply.splitlines() if line.strip()]
    if len(lines) >= 6 and Counter(lines).most_common(1)[0][1] * 2 >= len(lines):
        return "Die Antwort wiederholt immer denselben Satz. Antworte der Lehrkraft knapp und ohne Wiederholungen."
    english, german = sum(w in _ENGLISH for w in words), sum(w in _GERMAN for w in words)
    if len(words) >= 8 and english > german:
        return ("Die Antwort ist nicht auf Deutsch. Antworte der Lehrkraft auf Deutsch und nur zu ihrer Anfrage "
                "(Material für den Unterricht).")
    return None


@main_agent.output_validator
def _check_reply(ctx: RunContext[TurnContext], reply: str) -> str:
    """The main agent's text goes to the teacher only when it is German and not empty; otherwise the model is asked
    once more, and then the turn falls back to the offline model (core.chat.turn)."""
    if (problem := reply_problem(reply)) is not None:
        ctx.deps.step(f"Antwort des Sprachmodells verworfen: {problem.split('.')[0]}")
        raise ModelRetry(problem)
    return reply


@main_agent.instructions
def _instructions(ctx: RunContext[TurnContext]) -> str:
    t = ctx.deps.teacher
    db = ctx.deps.db
    classes = ", ".join(c.name for c in teacher_repo.classes_of(db=db, teacher_id=t.id)) or "keine hinterlegt"
    parts = [instructions_for("main", db), "",
             f"Lehrkraft: {t.name}, {t.bundesland}; Fächer: {', '.join(t.faecher) or '—'}; Klassen: {classes}."]
    memories = memory_repo.memories_of(db=db, teacher_id=t.id, limit=5)
    if memories:
        parts.append("Notizen über die Lehrkraft: " + "; ".join(m.content for m in memories))
    logs = memory_repo.recent_session_logs(db=db, teacher_id=t.id, limit=3)
    if logs:
        parts.append("Zuletzt: " + "; ".join(s.summary for s in logs))
    if current := conversation_materials(turn=ctx.deps):
        parts.append(current)
    if ctx.deps.conversation_id:
        waiting = session_repo.waiting_session_for(db=db, conversation_id=ctx.deps.conversation_id)
        if waiting is not None and waiting.question:
            parts.append(f"Offene Rückfrage [session:{waiting.id}]: {waiting.question.get('frage')}")
    return "\n".join(parts)


def _request(**fields: object) -> MaterialRequest:
    try:
        return MaterialRequest.model_validate({k: v for k, v in fields.items() if v is not None})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ModelRetry(f"Ungültige Angabe bei {'.'.join(map(str, first['loc'])) or 'Auftrag'}: {first['msg']}. "
                         "Frage die Lehrkraft nach einem gültigen Wert.") from exc


@MAIN_TOOLS.tool
async def generate_material(
    ctx: RunContext[TurnContext],
    fach: str,
    thema: str,
    material_type: Literal["klausur", "differenzierung", "h5p"],
    klassenstufe: int | None = None,
    klasse: str | None = None,
    dauer_minuten: int | None = None,
    zusatz: str = "",
    afb_ziel: dict[Literal["I", "II", "III"], int] | None = None,
    afb_wuensche: list[AfbWunsch] | None = None,
    unterthemen: list[str] | None = None,
    anzahl: int | None = None,
    niveau: Literal["grundlegend", "erhoeht"] | None = None,
) -> str:
    """Material erstellen lassen (Klausur, differenziertes Arbeitsblatt oder H5P-Übung), sobald alles geklärt ist.

    Gibt entweder eine Zusammenfassung des fertigen Materials zurück (MATERIAL_FERTIG …) oder eine Rückfrage
    des Fach-Assistenten (RÜCKFRAGE_AN_LEHRER … [session:ID]), die du der Lehrkraft stellst.

    Args:
        fach: Unterrichtsfach, z. B. "Physik".
        thema: Thema/Schwerpunkt, z. B. "Stromkreise".
        material_type: klausur, differenzierung (Arbeitsblatt auf drei Niveaus) oder h5p (interaktive Übung).
        klassenstufe: Klassenstufe 5–13.
        klasse: Konkrete Klasse wie "10a", falls genannt.
        dauer_minuten: Dauer in Minuten (für Klausuren nötig).
        zusatz: Weitere Wünsche der Lehrkraft, knapp.
        afb_ziel: AFB-Verteilung in Prozent, falls die Lehrkraft sie nennt, z. B. {"I": 30, "II": 40, "III": 30}.
        afb_wuensche: Ausdrückliche Wünsche wie eine Aufgabe zu "Induktion" als AFB "III".
        unterthemen: Ausdrücklich genannte Unterthemen, z. B. ["Mendelsche Regeln", "Stammbaumanalyse"].
        anzahl: Gewünschte Anzahl Fragen bzw. Aufgaben, falls genannt (z. B. "Quiz mit 10 Fragen").
        niveau: Oberstufe: "erhoeht" (Leistungskurs, eA) oder "grundlegend" (Grundkurs, gA), falls genannt.
    """
    ctx.deps.usage = ctx.usage
    request = _request(fach=fach, thema=thema, material_type=material_type, klassenstufe=klassenstufe, klasse=klasse,
                       dauer_minuten=dauer_minuten, zusatz=zusatz, afb_ziel=afb_ziel,
                       afb_wuensche=afb_wuensche or [], unterthemen=unterthemen or [], anzahl=anzahl, niveau=niveau)
    outcome = await start_generation(turn=ctx.deps, request=request)
    return outcome.text


@MAIN_TOOLS.tool
async def generate_exercise(ctx: RunContext[TurnContext], fach: str, thema: str, klassenstufe: int,
                            anzahl: int = 8, zusatz: str = "") -> str:
    """Eine interaktive H5P-Übung (Quiz) erstellen lassen.

    Args:
        fach: Unterrichtsfach.
        thema: Thema der Übung.
        klassenstufe: Klassenstufe 5–13.
        anzahl: Gewünschte Zahl der Fragen (3–20).
        zusatz: Weitere Wünsche, z. B. "nur Lückentexte".
    """
    return await generate_material(ctx, fach=fach, thema=thema, material_type="h5p", klassenstufe=klassenstufe,
                                   zusatz=f"{max(3, min(anzahl, 20))} Fragen. {zusatz}".strip())


@MAIN_TOOLS.tool
async def generate_material_set(ctx: RunContext[TurnContext], text: str) -> str:
    """Mehrere Materialien auf einmal erstellen lassen (z. B. Klausur + differenziertes Übungsblatt + H5P-Quiz).

    Zerlegt die Anfrage, erstellt die Teile (abhängige nach ihrer Vorlage), benennt Widersprüche und bietet alle
    Dateien auch als ZIP an. Rückfragen der Teile kommen gesammelt zurück (MATERIALSET_RÜCKFRAGEN … [session:ID]).

    Args:
        text: Die kombinierte Anfrage der Lehrkraft im Wortlaut.
    """
    ctx.deps.usage = ctx.usage
    return (await run_combined(turn=ctx.deps, text=text)).text


@MAIN_TOOLS.tool
async def continue_material_set(ctx: RunContext[TurnContext], session_ids: list[str], answer: str) -> str:
    """Die gesammelten Rückfragen eines Materialpakets mit einer Antwort der Lehrkraft fortsetzen.

    Args:
        session_ids: Alle IDs aus den [session:ID]-Markierungen der gesammelten Rückfragen.
        answer: Die Antwort der Lehrkraft im Wortlaut (sie wird auf die Teile verteilt).
    """
    ctx.deps.usage = ctx.usage
    return (await continue_combined(turn=ctx.deps, session_ids=session_ids, answer=answer)).text


@MAIN_TOOLS.tool
async def continue_material_generation(ctx: RunContext[TurnContext], session_id: str, answer: str) -> str:
    """Eine pausierte Materialerstellung fortsetzen, nachdem die Lehrkraft auf die Rückfrage geantwortet hat.

    Args:
        session_id: Die ID aus [session:ID] der Rückfrage.
        answer: Die Antwort der Lehrkraft im Wortlaut.
    """
    ctx.deps.usage = ctx.usage
    outcome = await continue_generation(turn=ctx.deps, session_id=session_id, answer=answer)
    return outcome.text


@MAIN_TOOLS.tool
async def record_feedback(ctx: RunContext[TurnContext], material_id: str, feedback: str,
                          stars: int | None = None) -> str:
    """Bewertung oder Rückmeldung der Lehrkraft zu einem Material speichern ("5 Sterne", "zu schwer").

    Gespeichert (und daraus gelernt) wird eine Bewertung nur, wenn die Lehrkraft ausdrücklich bewertet ("4/5",
    "bitte so merken") oder auf die Frage, ob das Material als bewährt gemerkt werden soll, mit Ja antwortet. Lob
    allein ("super", "passt") ist keine Bewertung; Kritik und dauerhafte Wünsche werden als Präferenz notiert.

    Args:
        material_id: Die ID aus [material:ID].
        feedback: Die Worte der Lehrkraft im Wortlaut (nach der Frage „merken?“ ihr Ja).
        stars: Die Bewertung 1–5, wenn die Lehrkraft eine nennt oder mit Ja antwortet.
    """
    try:
        mid = uuid.UUID(material_id)
    except ValueError as exc:
        raise ModelRetry("material_id ist keine gültige ID; nimm die ID aus [material:ID].") from exc
    result = apply_chat_feedback(db=ctx.deps.db, identity=ctx.deps.identity, teacher=ctx.deps.teacher,
                                 material_id=mid, text=feedback, stars=stars)
    ctx.deps.outcomes.append(Feedback(material_id=material_id, text=result))
    return result


@MAIN_TOOLS.tool
async def remember(ctx: RunContext[TurnContext], fact: str) -> str:
    """Etwas Dauerhaftes über die Lehrkraft merken, wenn sie darum bittet (z. B. "Ich unterrichte am Gymnasium").

    Args:
        fact: Die Notiz in einem Satz.
    """
    return remember_fact(db=ctx.deps.db, teacher=ctx.deps.teacher, fact=fact)


@MAIN_TOOLS.tool
async def search_web(ctx: RunContext[TurnContext], query: str) -> str:
    """Im Internet suchen — nur verfügbar, wenn das gewählte Modell eine eingebaute Websuche hat.

    Args:
        query: Suchanfrage.
    """
    return ("Websuche ist in dieser Konfiguration nicht verfügbar (Offline-Modus bzw. Modell ohne eingebaute "
            "Websuche). Ich arbeite mit der Wissensbasis der Werkbank.")


def _material_id(material_id: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(material_id).strip())
    except ValueError as exc:
        raise ModelRetry("material_id ist keine gültige ID; nimm die ID aus [material:ID].") from exc


def _edit_text(ctx: RunContext[TurnContext], make: Callable[[], EditOutcome]) -> str:
    """A stored edit's summary for the model, or FEHLER with the German reason for the teacher (nothing stored)."""
    try:
        return make().text
    except UserError as exc:
        ctx.deps.outcomes.append(TurnError(exc.message))
        return f"FEHLER: {exc.message}"


@MAIN_TOOLS.tool
async def patch_material_task(ctx: RunContext[TurnContext], material_id: str, operations: list[PatchOp],
                              force: bool = False) -> str:
    """Eine fertige Klausur gezielt ändern; das Ergebnis wird als NEUE Version gespeichert, die alte bleibt. Bei einem
    Quiz und einem differenzierten Arbeitsblatt nur remove_task: "3" = Frage 3, "C2" = Aufgabe 2 auf Niveau C
    (A grundlegend, B mittel, C erweitert); "-1" = die letzte Aufgabe bzw. Frage, "-2" die vorletzte.

    Operationen (Adressen wie "2b" = Aufgabe 2, Teilaufgabe b; immer in der Nummerierung VOR der Änderung):
    replace_text (Aufgabentext, Titel oder Material), set_points (Kriterien werden anteilig mitskaliert),
    set_afb (mit passendem Operator), set_operator, add_subtask, remove_subtask, move_subtask, add_task,
    remove_task, move_task, rewrite_erwartung (Punkte = Summe der Kriterien). Danach wird die Klausur neu geprüft
    (AFB-Ziel, Operatoren, Zeit) und der Notenschlüssel neu berechnet. Rückgabe: Zusammenfassung mit
    [material:NEUE_ID] und den Änderungen, oder FEHLER mit dem Grund (dann wurde nichts gespeichert).

    Args:
        material_id: Die ID aus [material:ID] – nimm die neueste Version.
        operations: Die Änderungen in Reihenfolge.
        force: true nur, wenn die Lehrkraft genau diese Änderung ausdrücklich verlangt hat (dann wird sie auch
            gespeichert, wenn die Prüfung danach Abweichungen meldet; sie werden genannt). Bei false wird eine
            Änderung abgelehnt, die eine geprüfte Klausur fehlerhaft machen würde – nenne der Lehrkraft die Gründe.
    """
    ctx.deps.usage = ctx.usage
    return _edit_text(ctx, lambda: patch_any_material(turn=ctx.deps, material_id=_material_id(material_id),
                                                       operations=operations, force=force))


@MAIN_TOOLS.tool
async def add_bank_task(ctx: RunContext[TurnContext], material_id: str, thema: str | None = None,
                        dauer_minuten: int | None = None, anzahl: int | None = None) -> str:
    """Einem fertigen Material ein (Unter-)Thema aus der geprüften Aufgabensammlung hinzufügen ("Da fehlt die
    Zinsrechnung, bitte noch eine Aufgabe dazu", "Bitte auch das going-to-future aufnehmen", "noch Fragen zum
    Gradnetz", "noch eine Aufgabe mehr"). Klausur: geprüfte Aufgaben passend zu Klassenstufe und Niveau, mit dem
    AFB, von dem die Klausur am wenigsten hat; differenziertes Arbeitsblatt oder Quiz: neu zusammengestellt mit dem
    Thema als weiterem Teil. Als NEUE Version gespeichert, neu geprüft. Rückgabe wie bei patch_material_task, oder
    FEHLER, wenn die Sammlung zum Thema nichts hat (dann wurde nichts gespeichert).

    Args:
        material_id: Die ID aus [material:ID] – nimm die neueste Version.
        thema: Das (Unter-)Thema in den Worten der Lehrkraft, z. B. "Zinsrechnung"; leer lassen, wenn sie nur
            "noch eine Aufgabe" will (dann aus den Themen der Klausur).
        dauer_minuten: Nur bei einer Klausur, wenn die Lehrkraft sagt, wie lang sie dadurch werden soll ("damit es
            90 Minuten werden"): so viele Aufgaben, dass die Zeit gefüllt ist.
        anzahl: Wie viele Aufgaben bzw. Fragen, wenn die Lehrkraft es sagt ("noch zwei Fragen zu …"); beim Ersetzen
            so viele, wie gestrichen werden.
    """
    ctx.deps.usage = ctx.usage
    try:
        return (await add_topic(turn=ctx.deps, material_id=_material_id(material_id), thema=thema,
                                dauer_minuten=dauer_minuten, anzahl=anzahl)).text
    except UserError as exc:
        ctx.deps.outcomes.append(TurnError(exc.message))
        return f"FEHLER: {exc.message}"


@MAIN_TOOLS.tool
async def remove_topic_tasks(ctx: RunContext[TurnContext], material_id: str, thema: str) -> str:
    """Aus einer Klausur die Aufgaben bzw. aus einem Quiz die Fragen zu einem (Unter-)Thema streichen ("Bitte die
    Normalverteilung weglassen", "Nimm die Fragen zu Sparta raus"). Für nummerierte Aufgaben ("Streich Aufgabe 4")
    nimm patch_material_task. Als NEUE Version gespeichert; Rückgabe wie bei patch_material_task oder FEHLER (dann
    wurde nichts gespeichert).

    Args:
        material_id: Die ID aus [material:ID] – nimm die neueste Version.
        thema: Das (Unter-)Thema in den Worten der Lehrkraft, z. B. "Normalverteilung".
    """
    ctx.deps.usage = ctx.usage
    return _edit_text(ctx, lambda: remove_topic(turn=ctx.deps, material_id=_material_id(material_id), thema=thema))


@MAIN_TOOLS.tool
async def regenerate_from_previous(ctx: RunContext[TurnContext], material_id: str, instruction: str) -> str:
    """Ein Material nach einer Anweisung neu erzeugen, wenn gezielte Änderungen (patch_material_task) nicht reichen.

    Beispiele: "Mach Aufgabe 3 leichter", "Die Klausur soll nur 30 Minuten dauern", "mehr Rechenaufgaben",
    "kürzer". Das Ergebnis wird als neue Version gespeichert (die alte bleibt); Rückgabe wie bei
    generate_material (MATERIAL_FERTIG … mit den Änderungen) oder FEHLER mit dem Grund.

    Args:
        material_id: Die ID aus [material:ID] – nimm die neueste Version.
        instruction: Die Anweisung der Lehrkraft im Wortlaut.
    """
    ctx.deps.usage = ctx.usage
    try:
        outcome = await regenerate(turn=ctx.deps, material_id=_material_id(material_id), instruction=instruction)
    except UserError as exc:
        ctx.deps.outcomes.append(TurnError(exc.message))
        return f"FEHLER: {exc.message}"
    return outcome.text


@MAIN_TOOLS.tool
async def restore_material_version(ctx: RunContext[TurnContext], material_id: str, version: int) -> str:
    """Eine frühere Version eines Materials wiederherstellen ("zurück zu Version 1"): sie wird als NEUE Version
    gespeichert, nichts wird überschrieben. Keine Bewertung – nur, wenn die Lehrkraft eine Version zurückhaben will.

    Args:
        material_id: Die ID der neuesten Version aus [material:ID] (siehe "Materialien in diesem Gespräch").
        version: Die Versionsnummer, die wieder gelten soll.
    """
    return _edit_text(ctx, lambda: restore_version(turn=ctx.deps, material_id=_material_id(material_id),
                                                   version=version))


@MAIN_TOOLS.tool
async def show_material_files(ctx: RunContext[TurnContext], material_id: str,
                              format: Literal["pdf", "docx", "h5p", "moodle", "zip"] | None = None) -> str:
    """Die Dateien eines fertigen Materials noch einmal anbieten, z. B. wenn die Lehrkraft es "auch als PDF" will.
    Jede Klausur und jedes Arbeitsblatt gibt es immer als DOCX und PDF; nichts wird neu erzeugt.

    Args:
        material_id: Die ID aus [material:ID] (neueste Version).
        format: Gewünschtes Format, falls genannt.
    """
    try:
        return material_files(turn=ctx.deps, material_id=_material_id(material_id), fmt=format)
    except UserError as exc:
        return f"FEHLER: {exc.message}"
