"""Stored materials as models again: which model class reads which `material_type`, and reading one back.

The database keeps a material as JSON with its type; this is the one place that maps the type to the model.
"""

from __future__ import annotations

from typing import Any

from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur

Material = Klausur | DifferenziertesMaterial | H5PSet
MATERIAL_MODELS: dict[str, type[Material]] = {
    "klausur": Klausur, "differenzierung": DifferenziertesMaterial, "h5p": H5PSet,
}


def parse_material(material_type: str, content: dict[str, Any] | None) -> Material:
    """The stored JSON as its model; raises KeyError for an unknown type and ValidationError for old formats."""
    return MATERIAL_MODELS[material_type].model_validate(content)
