"""Toolset selection: the main agent's tools are grouped; each turn offers the groups the message and the
conversation call for — erring towards inclusion (a missing tool costs a turn, an extra one only tokens)."""

from __future__ import annotations

import re
from dataclasses import dataclass

TOOLSETS: dict[str, frozenset[str]] = {
    "base": frozenset({"remember", "search_web", "record_feedback"}),
    "generation": frozenset({"generate_material", "generate_exercise", "continue_material_generation",
                             "generate_material_set", "continue_material_set"}),
    "material_ops": frozenset({"patch_material_task", "add_bank_task", "remove_topic_tasks", "regenerate_from_previous",
                               "restore_material_version", "show_material_files"}),
    "knowledge": frozenset({"import_upload", "add_class_note"}),
    "analysis": frozenset({"assess_pupil_answer"}),
}
GROUP_OF = {tool: group for group, tools in TOOLSETS.items() for tool in tools}

# Edits need a material to edit: in a new conversation only an explicit reference ("Aufgabe 2", "2b",
# "die Klausur von gestern") asks for them; "AFB" or "Punkte" alone are part of ordinary new requests.
_EDIT = re.compile(r"\b(aufgabe\s*\d|teilaufgabe|\d[a-h]\)|streich|tausch|umformulier|neu erzeugen|überarbeit|"
                   r"version|von gestern|letzte klausur)", re.I)
_KNOWLEDGE = re.compile(r"\b(hochgeladen|anhang|upload|beispiel|lehrplan|klasse\s*\d+[a-z]?\b.*(probleme|schwierig)|"
                        r"fachschaft|merk)", re.I)
_ANALYSIS = re.compile(r"\b(schülerantwort|schülerlösung|korrigier|bewerte die antwort|erwartungshorizont "
                       r"prüfen|punkte vergeben)", re.I)


@dataclass(frozen=True)
class Selection:
    groups: frozenset[str]
    reasons: tuple[str, ...]

    def allows(self, tool_name: str) -> bool:
        return GROUP_OF.get(tool_name, "base") in self.groups  # unknown tools count as base: never hidden

    def describe(self) -> str:
        return "Werkzeuggruppen: " + ", ".join(sorted(self.groups)) + (f" ({'; '.join(self.reasons)})"
                                                                       if self.reasons else "")


def select_toolsets(*, text: str, has_materials: bool, open_rueckfrage: bool, has_uploads: bool) -> Selection:
    groups = {"base", "generation"}  # the workbench's job; always offered
    reasons = []
    if has_materials or _EDIT.search(text or ""):
        groups.add("material_ops")
        reasons.append("Material im Gespräch" if has_materials else "Änderungswunsch")
    if has_uploads or _KNOWLEDGE.search(text or ""):
        groups.add("knowledge")
        reasons.append("Datei angehängt" if has_uploads else "Wissen erwähnt")
    if _ANALYSIS.search(text or ""):
        groups.add("analysis")
        reasons.append("Schülerantwort")
    if open_rueckfrage:
        reasons.append("offene Rückfrage")
    return Selection(groups=frozenset(groups), reasons=tuple(reasons))
