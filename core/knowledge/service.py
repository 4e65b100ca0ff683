"""What the knowledge pages (Wissenskarte, Präferenzen, Notizen) and the CLI call: each call one unit of work.

Pages import this module only; the functions live in the area's modules and are listed here as its public face.
"""

from __future__ import annotations

from core.knowledge.graph import LOW_QUALITY
from core.knowledge.inspector import (
    GRAPH_ENTRIES,
    MONTHS,
    PAGE_SIZE,
    SCOPES,
    TYPES,
    EntryDetail,
    Inspection,
    TablePage,
    entry_detail,
    inspect_wissenskarte,
    inspectable_teachers,
)
from core.knowledge.learning import rate_material
from core.knowledge.notes import Note, add_note, delete_note, my_scopes, visible_notes
from core.knowledge.own_entries import forget_good_practice
from core.knowledge.preferences import (
    STIL_MAX,
    PreferenceForm,
    PreferenceState,
    SaveResult,
    load_preferences,
    save_preferences,
)
from core.knowledge.retrieval import SearchHit, search
from core.knowledge.wissenskarte import AGENT_TYPES, Wissenskarte, build_wissenskarte
from core.materials.faecher import FAECHER

__all__ = [
    "AGENT_TYPES", "FAECHER", "GRAPH_ENTRIES", "LOW_QUALITY", "MONTHS", "PAGE_SIZE", "SCOPES", "STIL_MAX", "TYPES",
    "EntryDetail", "Inspection", "Note", "PreferenceForm", "PreferenceState", "SaveResult", "SearchHit", "TablePage",
    "Wissenskarte",
    "add_note", "build_wissenskarte", "delete_note", "entry_detail", "forget_good_practice", "inspect_wissenskarte",
    "inspectable_teachers",
    "load_preferences", "my_scopes", "rate_material", "save_preferences", "search", "visible_notes",
]
