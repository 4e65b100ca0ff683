"""Patching a stored Klausur: apply the operations, check the result with the generation's targets, and store it
as the next version (the edited version stays as it was).

A patch that turns a valid exam invalid is refused with the exact faults unless `force` (the teacher's explicit
instruction); an exam that was already faulty may be patched, its remaining faults are reported.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from agents.deps import TurnContext
from agents.klausur import klausur_faults
from core.editing import notes
from core.editing.apply import apply_operations
from core.editing.errors import PatchError
from core.editing.loading import deps_for, klausur_of, own_row
from core.generation.outcomes import MaterialMade
from core.generation.prepare import subject_operators
from core.generation.store import NewVersion, finish_material, store_material
from core.materials.klausur import Klausur
from core.materials.patch_ops import PatchOp
from core.materials.summaries import version_summary
from core.materials.wording import anzahl, for_teacher
from db.models import GeneratedMaterial
from db.repos import memory as memory_repo


@dataclass
class EditOutcome:
    """A stored new version: what changed, what the check says, and the text the main agent presents."""

    material_id: uuid.UUID
    parent_id: uuid.UUID
    version: int
    titel: str
    changes: list[str]
    faults: list[str]
    files: list[str]
    text: str

    @property
    def message(self) -> str:
        lines = [f"Version {self.version} von „{self.titel}“ gespeichert (die vorige Fassung bleibt abrufbar)."]
        lines += [f"- {c}" for c in self.changes]
        lines += [f"- Prüfhinweis: {for_teacher(f)}" for f in self.faults]
        return "\n".join(lines)

    def said_first(self, line: str) -> EditOutcome:
        """`line` („Ergänzt: …“, „Gestrichen: …“) as the first line after the summary's title."""
        lines = self.text.split("\n")
        self.text = "\n".join([*lines[:2], line, *lines[2:]])
        return self


def refusal(faults: Sequence[str]) -> str:
    found = "\n- ".join(map(for_teacher, faults))
    return ("Änderung nicht übernommen: Die Klausur war geprüft und in Ordnung, nach der Änderung meldet die "
            f"Prüfung:\n- {found}\nEs wurde nichts gespeichert. Wenn Sie die Änderung trotzdem "
            "wollen, bestätigen Sie sie ausdrücklich (im Chat: „trotzdem übernehmen“; unter „Meine Materialien“: "
            "Häkchen „Auch übernehmen …“), oder gleichen Sie mit einer weiteren Änderung aus (z. B. Punkte oder AFB "
            "einer anderen Teilaufgabe).")


def store_version(turn: TurnContext, row: GeneratedMaterial, old: Klausur, new: Klausur, changes: list[str], *,
                  force: bool, art: str) -> EditOutcome:
    """Check `new` with the generation's targets and store it as the next version of `row` with fresh files."""
    deps = deps_for(turn, row, old)
    new = finish_material(turn, notes.refreshed(old, new, deps.afb_ziel))
    before = klausur_faults(deps, old)
    faults = klausur_faults(deps, new)
    if not before and faults and not force:
        raise PatchError(refusal(faults))
    bearbeitung = {"art": art, "von_version": row.version, "von_material": str(row.id), "aenderungen": changes,
                   "erzwungen": bool(force and faults and not before)}
    new_row, files = store_material(turn, new, material_type="klausur", fach=row.fach, request=dict(row.request or {}),
                                    faults=faults, model_name=row.model_name, afb_ziel=deps.afb_ziel,
                                    version_of=NewVersion(parent=row, bearbeitung=bearbeitung))
    memory_repo.add_session_log(db=turn.db, teacher_id=turn.teacher.id, conversation_id=turn.conversation_id,
                                summary=f"{new.titel} bearbeitet (Version {new_row.version}): "
                                        f"{'; '.join(changes)}"[:500])
    labels = [f.label for f in files]
    text = version_summary(new, material_id=new_row.id, version=new_row.version, afb_ziel=deps.afb_ziel,
                           files=labels, changes=changes, faults=faults, parent_version=row.version)
    turn.outcomes.append(MaterialMade(material_id=new_row.id, titel=new.titel, material_type="klausur",
                                      files=[f.filename for f in files], validation=faults, version=new_row.version,
                                      parent_id=row.id))
    turn.step(f"Bearbeitung: Version {new_row.version} von {new.titel} gespeichert "
              f"({anzahl(len(changes), 'Änderung')})")
    return EditOutcome(material_id=new_row.id, parent_id=row.id, version=new_row.version, titel=new.titel,
                       changes=changes, faults=faults, files=labels, text=text)


def patch_material(*, turn: TurnContext, material_id: uuid.UUID | str, operations: Sequence[PatchOp],
                   force: bool = False) -> EditOutcome:
    """Apply patch operations to a stored Klausur and store the result as a new version (parent_id = old).

    Validation uses the targets the generation used (stored AFB target, the subject's operator list, preferences).
    A patch that makes a valid exam invalid is refused (PatchError listing the faults) unless `force`.
    Nothing is written when a PatchError is raised.
    """
    row = own_row(turn, material_id)
    old = klausur_of(row)
    new, changes = apply_operations(old, operations, operatoren=subject_operators(turn, row.fach), turn=turn,
                                    afb_ziel=deps_for(turn, row, old).afb_ziel)
    return store_version(turn, row, old, new, changes, force=force, art="patch")
