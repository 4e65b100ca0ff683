"""Prompt versions for the Prompt-Labor and the CLI: list, save as a new version, activate (= rollback), diff.
Agents read the active version through `agents.prompts.instructions_for`; this is the one place that writes them."""

from __future__ import annotations

import difflib
import uuid
from dataclasses import dataclass
from datetime import datetime

from agents.prompts import DEFAULTS
from core.app.acting import acting
from core.app.errors import NotFoundError, UserError
from core.materials.dates import local_time
from db.models import PromptVersion
from db.repos import prompts as prompt_repo
from db.session import Identity, unit_of_work

MAX_PROMPT_CHARS = 20_000
AGENT_LABELS: dict[str, str] = {
    "main": "Haupt-Assistent (Chat)",
    "klausur": "Klausur-Assistent",
    "differenzierung": "Differenzierungs-Assistent",
    "h5p": "H5P-Assistent",
    "supervisor": "Supervisor (mehrere Materialien)",
    "safety": "Sicherheitsprüfung",
}


def agent_names() -> list[str]:
    """The agents whose instructions are versioned (every agent with a default text in agents.prompts)."""
    return list(DEFAULTS)


def agent_label(name: str) -> str:
    return AGENT_LABELS.get(name, name)


def _check_agent(name: str) -> str:
    name = (name or "").strip()
    if name not in DEFAULTS:
        raise UserError(f"Unbekannter Agent „{name[:40]}“. Bekannt sind: {', '.join(DEFAULTS)}.")
    return name


@dataclass(frozen=True)
class VersionInfo:
    id: uuid.UUID
    agent_name: str
    version: int
    text: str
    note: str
    is_active: bool
    created_at: datetime

    @property
    def created_label(self) -> str:
        return local_time(self.created_at)

    @property
    def label(self) -> str:
        active = " · aktiv" if self.is_active else ""
        note = f" – {self.note}" if self.note else ""
        return f"v{self.version}{active}{note}"[:120]


def _info(row: PromptVersion) -> VersionInfo:
    return VersionInfo(id=row.id, agent_name=row.agent_name, version=row.version, text=row.text,
                       note=row.note or "", is_active=row.is_active, created_at=row.created_at)


def _require_product(role: str) -> None:
    if role not in ("product", "system"):
        raise UserError("Prompt-Versionen ändern darf nur das Produktteam. Bitte links eine Person aus dem "
                        "Produktteam wählen.")


def _require_product_reader(role: str) -> None:
    """Drafts and notes of the prompts are the product team's work, not something teachers or curators read."""
    if role not in ("product", "system"):
        raise UserError("Das Prompt-Labor ist dem Produktteam vorbehalten. Prompt-Versionen sehen nur Personen aus "
                        "dem Produktteam.")


def list_versions(*, teacher_id: uuid.UUID, agent_name: str) -> list[VersionInfo]:
    """All versions of an agent's instructions, newest first (product team only)."""
    agent_name = _check_agent(agent_name)
    with acting(teacher_id) as (db, teacher, _):
        _require_product_reader(teacher.role)
        return [_info(r) for r in prompt_repo.versions(db=db, agent_name=agent_name)]


def get_version(*, teacher_id: uuid.UUID, version_id: uuid.UUID) -> VersionInfo:
    with acting(teacher_id) as (db, teacher, _):
        _require_product_reader(teacher.role)
        row = prompt_repo.get_version(db=db, version_id=version_id)
        if row is None:
            raise NotFoundError("Diese Prompt-Version gibt es nicht (mehr). Bitte die Liste neu laden.")
        return _info(row)


def resolve_version(*, agent_name: str, ref: str | int | None, teacher_id: uuid.UUID | None = None) -> VersionInfo:
    """A version by number ('3', 'v3'), id, or 'aktiv'/None for the active one. Without a person (the CLI) the
    versions are read as the system identity; a person must be from the product team."""
    if teacher_id is not None:
        versions = list_versions(teacher_id=teacher_id, agent_name=agent_name)
    else:
        with unit_of_work(Identity.system()) as db:
            versions = [_info(r) for r in prompt_repo.versions(db=db, agent_name=_check_agent(agent_name))]
    if not versions:
        raise NotFoundError(f"Für {agent_label(agent_name)} ist noch keine Prompt-Version gespeichert. "
                            "Bitte `python -m core seed` ausführen.")
    raw = str(ref).strip().lower().removeprefix("v") if ref is not None else "aktiv"
    if raw in ("", "aktiv", "active"):
        found = next((v for v in versions if v.is_active), None)
    elif raw.isdigit():
        found = next((v for v in versions if v.version == int(raw)), None)
    else:
        try:
            wanted = uuid.UUID(str(ref))
        except ValueError:
            raise UserError(f"„{str(ref)[:40]}“ ist keine Versionsangabe. Bitte eine Nummer (z. B. 2), "
                            "„aktiv“ oder eine Versions-ID angeben.") from None
        found = next((v for v in versions if v.id == wanted), None)
    if found is None:
        numbers = ", ".join(str(v.version) for v in sorted(versions, key=lambda v: v.version))
        raise NotFoundError(f"{agent_label(agent_name)} hat keine Version „{ref}“. Vorhanden: {numbers}.")
    return found


def clean_prompt(text: str | None) -> str:
    """The text as stored: line ends normalised, trailing spaces removed; empty or oversized text is refused."""
    lines = [line.rstrip() for line in (text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    cleaned = "\n".join(lines).strip("\n")
    if not cleaned.strip():
        raise UserError("Der Prompt-Text ist leer. Bitte die Anweisungen an den Agenten eingeben – eine leere "
                        "Version wird nicht gespeichert.")
    if len(cleaned) > MAX_PROMPT_CHARS:
        raise UserError(f"Der Prompt-Text ist zu lang ({len(cleaned):,} Zeichen, erlaubt sind "
                        f"{MAX_PROMPT_CHARS:,}). Bitte kürzen.".replace(",", "."))
    return cleaned


def save_version(*, teacher_id: uuid.UUID, agent_name: str, text: str, note: str = "",
                 activate: bool = False) -> VersionInfo:
    """Store the text as the agent's next version (optionally active at once). Unchanged text is refused."""
    agent_name = _check_agent(agent_name)
    cleaned = clean_prompt(text)
    note = " ".join((note or "").split())[:300]
    with acting(teacher_id) as (db, teacher, _):
        _require_product(teacher.role)
        existing = prompt_repo.versions(db=db, agent_name=agent_name)
        same = next((v for v in existing if v.text == cleaned), None)
        if same is not None:
            raise UserError(f"Dieser Text ist identisch mit Version {same.version}. Bitte den Text ändern – oder "
                            f"Version {same.version} aktivieren.")
        row = prompt_repo.add_version(db=db, agent_name=agent_name, text=cleaned, note=note or None,
                                      created_by=teacher.id, activate=activate)
        return _info(row)


def activate_version(*, teacher_id: uuid.UUID, version_id: uuid.UUID) -> VersionInfo:
    """Make this version the one the agent uses from its next run on.

    This is also the rollback: an older version is *activated* again, not copied as a new one, so a version number
    always names the same text and the evaluation runs stored for it stay comparable.
    """
    with acting(teacher_id) as (db, teacher, _):
        _require_product(teacher.role)
        row = prompt_repo.activate(db=db, version_id=version_id)
        if row is None:
            raise NotFoundError("Diese Prompt-Version gibt es nicht (mehr). Bitte die Liste neu laden.")
        return _info(row)


@dataclass(frozen=True)
class PromptDiff:
    title_a: str
    title_b: str
    unified: str  # unified diff ('-'/'+' lines), for a code block with diff highlighting
    added: int
    removed: int

    @property
    def same(self) -> bool:
        return not self.added and not self.removed

    @property
    def summary(self) -> str:
        if self.same:
            return f"{self.title_a} und {self.title_b} sind identisch."
        return f"{self.title_a} → {self.title_b}: {self.added} Zeilen neu, {self.removed} Zeilen entfernt."


def diff_texts(a: str, b: str, *, title_a: str = "alt", title_b: str = "neu") -> PromptDiff:
    """A line diff with three lines of context; long prompt lines stay whole so the diff reads like the prompt."""
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), fromfile=title_a, tofile=title_b,
                                      lineterm="", n=3))
    added = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in lines if line.startswith("-") and not line.startswith("---"))
    return PromptDiff(title_a=title_a, title_b=title_b, unified="\n".join(lines), added=added, removed=removed)


def diff_versions(*, teacher_id: uuid.UUID, version_a: uuid.UUID, version_b: uuid.UUID) -> PromptDiff:
    a = get_version(teacher_id=teacher_id, version_id=version_a)
    b = get_version(teacher_id=teacher_id, version_id=version_b)
    return diff_texts(a.text, b.text, title_a=f"{a.agent_name} v{a.version}", title_b=f"{b.agent_name} v{b.version}")
