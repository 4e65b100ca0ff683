"""Toolset selection errs towards inclusion: generation is always there; edits, knowledge and analysis when the
message or the conversation calls for them."""

import pytest

from core.chat.toolsets import GROUP_OF, TOOLSETS, select_toolsets


@pytest.mark.parametrize("text, materials, uploads, expected", [
    ("Klausur Physik 10a Optik, 45 Minuten", False, False, {"base", "generation"}),
    ("Mach Aufgabe 3 leichter", False, False, {"base", "generation", "material_ops"}),
    ("Super, genau so!", True, False, {"base", "generation", "material_ops"}),
    ("Hier meine alte Klausur als Beispiel", False, True, {"base", "generation", "knowledge"}),
    ("Bitte korrigier diese Schülerantwort zu 2b", True, False, {"base", "generation", "material_ops", "analysis"}),
])
def test_selection(text: str, materials: bool, uploads: bool, expected: set[str]) -> None:
    sel = select_toolsets(text=text, has_materials=materials, open_rueckfrage=False, has_uploads=uploads)
    assert set(sel.groups) == expected
    assert sel.describe().startswith("Werkzeuggruppen: ")


def test_every_tool_belongs_to_exactly_one_group_and_unknown_tools_are_never_hidden() -> None:
    names = [t for tools in TOOLSETS.values() for t in tools]
    assert len(names) == len(set(names)) == len(GROUP_OF)
    sel = select_toolsets(text="Hallo", has_materials=False, open_rueckfrage=False, has_uploads=False)
    assert sel.allows("generate_material") and not sel.allows("patch_material_task")
    assert sel.allows("ein_neues_werkzeug")
