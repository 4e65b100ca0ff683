"""The material router (Python, no LLM): Wissenskarte and preferences, specialist choice, paused runs, storage.

`start_generation` and `continue_generation` are the two phases behind the main agent's tools: each returns
either a finished, validated, stored material or a Rückfrage whose specialist run waits in `agent_sessions`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from pydantic import ValidationError
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessagesTypeAdapter, ModelResponse

from agents.deps import SpecialistDeps, TurnContext
from agents.differenzierung import differenzierung_agent
from agents.h5p import h5p_agent
from agents.klausur import klausur_agent, klausur_faults, klausur_flags
from agents.models import model_for
from agents.offline_nlu import parse_afb_answer
from agents.specialist_tools import gate_faults
from core.app.config import get_settings
from core.app.errors import UserError
from core.exports.files import render
from core.faecher import fach_name, normalize_fach
from core.materials import (
    Absage,
    ClarificationRequest,
    DifferenziertesMaterial,
    H5PSet,
    Klausur,
    MaterialRequest,
    Quelle,
)
from core.notenschluessel import NotenSchema, default_schema
from core.validation import validate_differenzierung, validate_h5p
from core.verification import flags_for_teacher
from core.wissenskarte import build_wissenskarte
from db.models import School
from db.repos import knowledge as knowledge_repo
from db.repos import materials as material_repo
from db.repos import memory as memory_repo
from db.repos import sessions as session_repo

log = logging.getLogger(__name__)

SESSION_SCHEMA_VERSION = 1
MAX_RUECKFRAGEN = 3
FINAL_PROMPT = ("KEINE_WEITEREN_RUECKFRAGEN: Es sind bereits drei Rückfragen gestellt worden. Erstelle das Material "
                "jetzt mit den bekannten Angaben und sinnvollen Standardwerten.")
SPECIALISTS: dict[str, Agent] = {"klausur": klausur_agent, "differenzierung": differenzierung_agent,
                                 "h5p": h5p_agent}
NAMES = {"klausur": "Klausur-Assistent", "differenzierung": "Differenzierungs-Assistent", "h5p": "H5P-Assistent"}


@dataclass
class RouterOutcome:
    kind: Literal["material", "rueckfrage", "error"]
    text: str
    material_id: uuid.UUID | None = None
    session_id: uuid.UUID | None = None
    question: ClarificationRequest | None = None
    files: list[str] = field(default_factory=list)


def _now() -> datetime:
    return datetime.now(UTC)


def _error(turn: TurnContext, message: str) -> RouterOutcome:
    turn.outcomes.append({"kind": "error", "text": message})
    return RouterOutcome(kind="error", text=f"FEHLER: {message}")


def auftrag_prompt(request: MaterialRequest) -> str:
    """The specialist's first user prompt: the request as JSON (models and the offline rules both read it)."""
    return "Auftrag:\n```json\n" + request.model_dump_json(exclude_none=True) + "\n```"


def _afb_target(request: MaterialRequest, prefs: dict[str, Any], profile: dict[str, Any]) -> tuple[dict[str, int], str]:
    if request.afb_ziel:
        return dict(request.afb_ziel), "request"
    pref = prefs.get("afb_ziel")
    if isinstance(pref, dict) and sum(int(v) for v in pref.values()) == 100:
        return {k: int(pref.get(k, 0)) for k in ("I", "II", "III")}, "preference"
    dist = profile.get("typische_verteilung") or {"I": 30, "II": 40, "III": 30}
    return {k: int(dist.get(k, 0)) for k in ("I", "II", "III")}, "profile"


def _prepare(turn: TurnContext, request: MaterialRequest, *, snapshot: dict[str, Any] | None = None) -> SpecialistDeps:
    fach = normalize_fach(request.fach)
    agent_type = request.material_type
    wk = build_wissenskarte(db=turn.db, identity=turn.identity, agent_type=agent_type, fach=fach)
    prefs = dict(wk.facts.get("preferences") or {})
    prefs.pop("quellen", None)
    profile = dict(wk.facts.get("profile") or {})
    operators = {o["operator"]: o["afb"] for o in knowledge_repo.operator_list(db=turn.db, fach=fach)}
    afb_ziel, quelle = _afb_target(request, prefs, profile)
    deps = SpecialistDeps(turn=turn, agent_type=agent_type, fach=fach, request=request, wissenskarte=wk.text,
                          preferences=prefs, profile=profile, operators=operators, afb_ziel=afb_ziel,
                          afb_quelle=quelle)
    if snapshot:
        deps.rueckfragen = int(snapshot.get("rueckfragen", 0))
        if snapshot.get("afb_quelle") == "answer":
            deps.afb_ziel, deps.afb_quelle = dict(snapshot["afb_ziel"]), "answer"
    return deps


def _answering_model(messages: list[Any]) -> str | None:
    names = [m.model_name for m in messages if isinstance(m, ModelResponse) and m.model_name]
    return names[-1] if names else None


def _rueckfrage_text(agent_type: str, q: ClarificationRequest, session_id: uuid.UUID) -> str:
    vorschlaege = " | ".join(f"{i}) {v}" for i, v in enumerate(q.vorschlaege, 1)) or "keine"
    return (f"RÜCKFRAGE_AN_LEHRER ({NAMES[agent_type]}): {q.frage}\nKontext: {q.kontext}\n"
            f"Vorschläge: {vorschlaege}\n[session:{session_id}]")


def absage_text(agent_type: str, a: Absage) -> str:
    """What the teacher reads when a specialist cannot make a good material: reason, what exists, options."""
    was = {"klausur": "Klausur", "differenzierung": "ein differenziertes Arbeitsblatt", "h5p": "eine H5P-Übung"}
    text = f"Das kann ich nicht gut erstellen ({was.get(agent_type, 'Material')}): {a.grund}"
    if a.gefunden:
        text += f" Gefunden: {a.gefunden}."
    if a.optionen:
        text += " Möglichkeiten: " + "; ".join(f"({i}) {o}" for i, o in enumerate(a.optionen, 1)) + "."
    return text


def _faults(deps: SpecialistDeps, material: Klausur | DifferenziertesMaterial | H5PSet) -> list[str]:
    if isinstance(material, Klausur):
        return klausur_faults(deps, material) + flags_for_teacher(klausur_flags(deps, material))
    if isinstance(material, DifferenziertesMaterial):
        return validate_differenzierung(material) + gate_faults(deps, material)
    return validate_h5p(material) + gate_faults(deps, material)


def _pct(v: float) -> str:
    return f"{v:.0f}"


def material_summary(material: Klausur | DifferenziertesMaterial | H5PSet, *, material_id: uuid.UUID,
                     afb_ziel: dict[str, int] | None, files: list[str]) -> str:
    """The tool return the main agent presents (and the CLI prints): what was made, in numbers."""
    lines = [f"MATERIAL_FERTIG [material:{material_id}]"]
    if isinstance(material, Klausur):
        wer = f"Klasse {material.klasse}" if material.klasse else f"Klassenstufe {material.klassenstufe}"
        lines.append(f"{material.titel} — {material.fach}, {wer}, {material.dauer_minuten} Min., "
                     f"{material.gesamtpunkte} Punkte")
        shares = material.afb_anteile
        ziel = "/".join(str(afb_ziel.get(k, 0)) for k in ("I", "II", "III")) if afb_ziel else ""
        lines.append("AFB-Anteile: " + " · ".join(f"{k} {_pct(shares.get(k, 0))} %" for k in ("I", "II", "III"))
                     + (f" (Ziel {ziel})" if ziel else ""))
        lines.append("Aufgaben: " + "; ".join(f"{a.nummer}. {a.titel} ({a.punkte} P.)" for a in material.aufgaben))
        lines.append(f"Notenschlüssel: berechnet ({material.notenschema.bezeichnung})")
    elif isinstance(material, DifferenziertesMaterial):
        lines.append(f"{material.titel} — {material.fach}, Klassenstufe {material.klassenstufe}")
        lines.append(f"Lernziel: {material.lernziel}")
        lines.append("Niveaus: " + "; ".join(f"{n.name} ({len(n.aufgaben)} Aufgaben, {len(n.hilfekarten)} "
                                             f"Hilfekarten)" for n in material.niveaus))
    else:
        kinds: dict[str, int] = {}
        for f in material.fragen:
            kinds[f.typ] = kinds.get(f.typ, 0) + 1
        lines.append(f"{material.titel} — {material.fach}, Klassenstufe {material.klassenstufe}, "
                     f"{len(material.fragen)} Fragen ({', '.join(f'{n}× {k}' for k, n in kinds.items())})")
    lines.append("Dateien: " + ", ".join(files))
    return "\n".join(lines)


def grading_scheme(turn: TurnContext, klausur: Klausur) -> NotenSchema:
    """The Notenschlüssel's scale: the teacher's or school's configured Sek I thresholds, else the standard.

    Whatever a model put into `notenschema` is replaced here — the key is computed from configuration, never invented.
    """
    if klausur.niveau == "Sek I":
        school = turn.db.get(School, turn.teacher.school_id) if turn.teacher.school_id else None
        for settings in (turn.teacher.settings or {}, (school.settings if school else None) or {}):
            custom = settings.get("notenschluessel_sek1")
            if isinstance(custom, dict) and len(custom) == 5:
                try:
                    return NotenSchema(art="sek1_6", schwellen_prozent=[float(custom[str(n)]) for n in range(1, 6)])
                except (KeyError, ValueError, ValidationError):
                    log.warning("ignoring invalid notenschluessel_sek1 setting: %s", custom)
    return default_schema(klausur.klassenstufe, klausur.niveau)


def _fill_sources(turn: TurnContext, quellen: list[Quelle]) -> None:
    """Give every cited source a readable title from the database (models only name the refs)."""
    ids = {"good_practice": [], "curriculum": []}
    for q in quellen:
        if q.art in ids and not q.titel:
            try:
                ids[q.art].append(uuid.UUID(q.ref))
            except ValueError:
                continue
    gps = knowledge_repo.knowledge_by_ids(db=turn.db, identity=turn.identity, ids=ids["good_practice"])
    chunks = knowledge_repo.curriculum_by_ids(db=turn.db, identity=turn.identity, ids=ids["curriculum"])
    for q in quellen:
        if q.titel:
            continue
        try:
            key = uuid.UUID(q.ref)
        except ValueError:
            q.titel = q.ref
            continue
        if q.art == "good_practice" and key in gps:
            q.titel = f"Bewährte Aufgabe: {gps[key].description or gps[key].thema or ''}".strip()
        elif q.art == "curriculum" and key in chunks:
            c = chunks[key]
            q.titel = f"Lehrplan {c.bundesland}, {c.abschnitt or c.thema} (Beispielauszug)"


def _store(turn: TurnContext, deps: SpecialistDeps, material: Klausur | DifferenziertesMaterial | H5PSet,
           messages: list[Any]) -> RouterOutcome:
    if isinstance(material, Klausur):
        material = material.model_copy(update={"notenschema": grading_scheme(turn, material)})
        _fill_sources(turn, [q for t in material.teilaufgaben() for q in t.quellen])
    else:
        _fill_sources(turn, material.quellen)
    faults = _faults(deps, material)
    request = deps.request.model_dump(mode="json")
    request["afb_ziel_verwendet"] = deps.afb_ziel
    request["afb_quelle"] = deps.afb_quelle
    row = material_repo.add_material(
        db=turn.db, teacher_id=turn.teacher.id, conversation_id=turn.conversation_id,
        material_type=deps.agent_type, fach=deps.fach, klassenstufe=material.klassenstufe,
        thema=material.thema[:200], titel=material.titel[:300], content=material.model_dump(mode="json"),
        request=request, validation=faults, model_name=_answering_model(messages),
    )
    files = render(material, afb_ziel=deps.afb_ziel if isinstance(material, Klausur) else None)
    for f in files:
        material_repo.add_file(db=turn.db, material_id=row.id, teacher_id=turn.teacher.id, kind=f.kind,
                               filename=f.filename, mime=f.mime, data=f.data)
    quellen = material.quellen if not isinstance(material, Klausur) else [
        q for t in material.teilaufgaben() for q in t.quellen]
    used = []
    for q in quellen:
        if q.art == "good_practice":
            try:
                used.append(uuid.UUID(q.ref))
            except ValueError:
                continue
    knowledge_repo.mark_used(db=turn.db, ids=list(dict.fromkeys(used)))
    memory_repo.add_session_log(db=turn.db, teacher_id=turn.teacher.id, conversation_id=turn.conversation_id,
                                summary=f"{material.titel} ({fach_name(deps.fach)}, {material.klassenstufe}) erstellt")
    labels = [f.label for f in files]
    text = material_summary(material, material_id=row.id, afb_ziel=deps.afb_ziel if isinstance(material, Klausur)
                            else None, files=labels)
    turn.outcomes.append({"kind": "material", "material_id": str(row.id), "titel": material.titel,
                          "material_type": deps.agent_type, "files": [f.filename for f in files],
                          "validation": faults})
    turn.step(f"Router: {material.titel} gespeichert, {len(files)} Dateien")
    return RouterOutcome(kind="material", text=text, material_id=row.id, files=labels)


async def _run(turn: TurnContext, deps: SpecialistDeps, *, prompt: str, history: list[Any] | None,
               session_id: uuid.UUID | None, answer_hash: str | None = None) -> RouterOutcome:
    from core.llm import DEFAULT_USAGE_LIMITS

    agent = SPECIALISTS[deps.agent_type]
    model = model_for(deps.agent_type)
    turn.step(f"{NAMES[deps.agent_type]} arbeitet ({len(deps.wissenskarte)} Zeichen Wissenskarte)")
    result = await agent.run(prompt, deps=deps, message_history=history, model=model, usage=turn.usage,
                             usage_limits=DEFAULT_USAGE_LIMITS)
    output = result.output
    if isinstance(output, ClarificationRequest) and deps.rueckfragen >= MAX_RUECKFRAGEN:
        turn.step(f"{NAMES[deps.agent_type]}: schon {MAX_RUECKFRAGEN} Rückfragen — erstellt jetzt ohne weitere")
        deps.final = True
        result = await agent.run(FINAL_PROMPT, deps=deps, message_history=result.all_messages(), model=model,
                                 usage=turn.usage, usage_limits=DEFAULT_USAGE_LIMITS)
        output = result.output
    if isinstance(output, Absage):
        if session_id is not None:
            session_repo.update_session(db=turn.db, session_id=session_id, status="completed",
                                        last_answer_hash=answer_hash)
        turn.step(f"{NAMES[deps.agent_type]}: kein gutes Material möglich — sagt es offen")
        return _error(turn, absage_text(deps.agent_type, output))
    if isinstance(output, ClarificationRequest):
        deps.rueckfragen += 1
        history_json = json.loads(result.all_messages_json())
        expires = _now() + timedelta(minutes=get_settings().werkbank_session_ttl_minutes)
        fields = dict(message_history=history_json, request=deps.request.model_dump(mode="json"),
                      deps=deps.snapshot(), question=output.model_dump(mode="json"), status="waiting",
                      clarification_count=deps.rueckfragen, expires_at=expires, schema_version=SESSION_SCHEMA_VERSION)
        if session_id is None:
            row = session_repo.create_session(db=turn.db, teacher_id=turn.teacher.id,
                                              conversation_id=turn.conversation_id, agent_type=deps.agent_type,
                                              **fields)
            session_id = row.id
        else:
            session_repo.update_session(db=turn.db, session_id=session_id, **fields)
        turn.outcomes.append({"kind": "rueckfrage", "session_id": str(session_id), "frage": output.frage,
                              "kontext": output.kontext, "vorschlaege": output.vorschlaege,
                              "agent_type": deps.agent_type})
        turn.step(f"{NAMES[deps.agent_type]} stellt eine Rückfrage")
        return RouterOutcome(kind="rueckfrage", text=_rueckfrage_text(deps.agent_type, output, session_id),
                             session_id=session_id, question=output)
    outcome = _store(turn, deps, output, result.all_messages())
    if session_id is not None:
        session_repo.update_session(db=turn.db, session_id=session_id, status="completed",
                                    result_material_id=outcome.material_id, last_answer_hash=answer_hash,
                                    message_history=json.loads(result.all_messages_json()))
    return outcome


async def start_generation(*, turn: TurnContext, request: MaterialRequest) -> RouterOutcome:
    """Phase 1: run the specialist; a finished material, or a Rückfrage persisted as a waiting session."""
    try:
        if request.material_type == "klausur" and not request.dauer_minuten:
            raise UserError("Für eine Klausur fehlt die Dauer (z. B. 45 Minuten oder eine Doppelstunde).")
        if request.klassenstufe is None:
            raise UserError("Es fehlt die Klassenstufe (5 bis 13).")
        deps = _prepare(turn, request)
    except UserError as exc:
        return _error(turn, exc.message)
    return await _run(turn, deps, prompt=auftrag_prompt(deps.request), history=None, session_id=None)


_ORDINALS = {"erste": 0, "ersten": 0, "erster": 0, "zweite": 1, "zweiten": 1, "dritte": 2, "dritten": 2,
             "vierte": 3, "vierten": 3, "letzte": -1, "letzten": -1}


def resolve_answer(answer: str, vorschlaege: list[str]) -> str:
    """Map "den ersten Vorschlag", "Vorschlag 2", "wie vorgeschlagen" or a suggestion's text to that suggestion."""
    text = answer.strip()
    low = text.lower()
    if not vorschlaege:
        return text
    for v in vorschlaege:
        if low == v.lower().strip():
            return v
    m = re.search(r"vorschlag\s*(?:nr\.?\s*)?(\d)", low) or re.fullmatch(r"\(?(\d)\)?\.?", low)
    if m and 1 <= int(m.group(1)) <= len(vorschlaege):
        return vorschlaege[int(m.group(1)) - 1]
    for word, idx in _ORDINALS.items():
        if re.search(rf"\b{word}\b", low) and ("vorschlag" in low or len(low) < 30):
            return vorschlaege[idx]
    if re.search(r"wie vorgeschlagen|passt so|einverstanden|^ja\b|^ok\b|^okay\b", low):
        return vorschlaege[0]
    return text


def _answer_hash(answer: str) -> str:
    return hashlib.sha256(" ".join(answer.lower().split()).encode()).hexdigest()


async def continue_generation(*, turn: TurnContext, session_id: str, answer: str) -> RouterOutcome:
    """Phase 2: the teacher answered a Rückfrage; resume the specialist's stored run exactly where it stopped."""
    db = turn.db
    try:
        sid = uuid.UUID(str(session_id).strip())
    except ValueError:
        return _error(turn, "Diese Rückfrage kenne ich nicht (ungültige Sitzungs-ID). Bitte die Anfrage neu stellen.")
    answer = (answer or "").strip()
    if not answer:
        return _error(turn, "Die Antwort auf die Rückfrage ist leer. Bitte kurz antworten, z. B. mit einem Vorschlag.")
    session = session_repo.get_session(db=db, session_id=sid)
    if session is None or session.teacher_id != turn.teacher.id:
        return _error(turn, "Diese Rückfrage gehört nicht zu Ihrem Konto oder existiert nicht (mehr).")
    digest = _answer_hash(answer)
    if session.status == "completed":
        if session.last_answer_hash == digest and session.result_material_id:
            material = material_repo.get_material(db=db, material_id=session.result_material_id)
            if material is not None:
                turn.outcomes.append({"kind": "material", "material_id": str(material.id), "titel": material.titel,
                                      "material_type": material.material_type, "repeat": True, "files": [],
                                      "validation": material.validation})
                return RouterOutcome(kind="material", material_id=material.id,
                                     text=f"MATERIAL_FERTIG [material:{material.id}]\nDiese Antwort wurde schon "
                                          f"verarbeitet: {material.titel} liegt bereits vor.")
        return _error(turn, "Diese Rückfrage ist bereits beantwortet; das Material liegt unter „Meine Materialien“.")
    if session.status == "running":
        return _error(turn, "Diese Rückfrage wird gerade schon beantwortet (z. B. in einem anderen Fenster). "
                            "Bitte einen Moment warten und die Seite neu laden.")
    if session.status in ("expired", "failed") or session.expires_at <= _now():
        if session.status == "waiting":
            session_repo.update_session(db=db, session_id=sid, status="expired")
        ttl = get_settings().werkbank_session_ttl_minutes
        return _error(turn, f"Diese Rückfrage ist abgelaufen (sie gilt {ttl} Minuten). Bitte stellen Sie die Anfrage "
                            "neu — ich beginne sofort.")
    # The claim's row lock holds until this turn commits: a concurrent continue (another conversation, another
    # process) waits briefly and then finds the session no longer waiting. The turn is all or nothing, so a failed
    # run leaves the session waiting, ready for the next answer.
    claimed = session_repo.claim_session(db=db, session_id=sid, teacher_id=turn.teacher.id, now=_now())
    if claimed is None:
        return _error(turn, "Diese Rückfrage wird gerade schon beantwortet (z. B. in einem anderen Fenster). "
                            "Bitte einen Moment warten und die Seite neu laden.")
    try:
        if claimed.schema_version != SESSION_SCHEMA_VERSION:
            raise ValueError(f"Sitzungsformat {claimed.schema_version}")
        history = ModelMessagesTypeAdapter.validate_python(claimed.message_history)
        if not history:  # nothing to resume from: as unloadable as a broken history
            raise ValueError("leerer Verlauf")
        request = MaterialRequest.model_validate(claimed.request)
        deps = _prepare(turn, request, snapshot=claimed.deps)
    except (ValidationError, ValueError, TypeError, KeyError, UserError) as exc:
        log.warning("session %s could not be restored: %s", sid, exc)
        session_repo.update_session(db=db, session_id=sid, status="expired")
        return _error(turn, "Die gespeicherte Rückfrage ließ sich nicht mehr laden (das Format hat sich geändert). "
                            "Bitte stellen Sie die Anfrage neu — es geht nichts verloren, was schon fertig war.")
    vorschlaege = list((claimed.question or {}).get("vorschlaege") or [])
    resolved = resolve_answer(answer, vorschlaege)
    afb = parse_afb_answer(resolved)
    if afb is not None:
        deps.afb_ziel, deps.afb_quelle = {"I": afb[0], "II": afb[1], "III": afb[2]}, "answer"
        deps.request = deps.request.model_copy(update={"afb_ziel": deps.afb_ziel})
    prompt = answer if resolved == answer else f"{answer}\n(gewählter Vorschlag: {resolved})"
    return await _run(turn, deps, prompt=prompt, history=history, session_id=sid, answer_hash=digest)
