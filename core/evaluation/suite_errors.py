"""German messages for a broken suite file: YAML syntax faults and field errors, each with the line it
is on (read from the composed YAML nodes) and the case it belongs to."""

from __future__ import annotations

import contextlib
from typing import Any

import yaml
from pydantic import ValidationError

_YAML_HINTS = {
    "mapping values are not allowed here": "Doppelpunkt an unerwarteter Stelle – Text mit „:“ bitte in "
                                           "Anführungszeichen setzen",
    "found character '\\t' that cannot start any token": "Tabulator gefunden – bitte mit Leerzeichen einrücken",
    "could not find expected ':'": "es fehlt ein Doppelpunkt nach dem Feldnamen",
    "found unexpected end of stream": "Anführungszeichen oder Klammer nicht geschlossen",
    "did not find expected key": "Einrückung passt nicht zu den Zeilen darüber",
    "did not find expected '-' indicator": "Einrückung der Liste passt nicht",
    "expected <block end>, but found": "Einrückung passt nicht zu den Zeilen darüber",
    "found duplicate anchor": "doppelter Anker",
}
_PYDANTIC_DE = {
    "missing": "fehlt",
    "extra_forbidden": "ist kein bekanntes Feld (Tippfehler?)",
    "int_parsing": "muss eine ganze Zahl sein",
    "int_type": "muss eine ganze Zahl sein",
    "float_parsing": "muss eine Zahl sein",
    "bool_parsing": "muss true oder false sein",
    "bool_type": "muss true oder false sein",
    "string_type": "muss ein Text sein",
    "list_type": "muss eine Liste sein",
    "model_type": "muss ein Block mit Feldern sein",
    "dict_type": "muss ein Block mit Feldern sein",
    "too_short": "ist zu kurz bzw. leer",
    "string_too_short": "ist zu kurz",
    "string_too_long": "ist zu lang",
}


def yaml_message(exc: yaml.YAMLError, filename: str) -> str:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = str(getattr(exc, "problem", None) or exc).strip()
    hint = next((de for en, de in _YAML_HINTS.items() if problem.startswith(en)), problem)
    where = f" in Zeile {mark.line + 1}, Spalte {mark.column + 1}" if mark is not None else ""
    return f"Die Suite-Datei {filename} ist kein gültiges YAML{where}: {hint}."


def node_line(node: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """The 1-based line of the value at `loc` (as deep as the file has it), read from the composed YAML nodes."""
    if node is None:
        return None
    line = node.start_mark.line + 1
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            hit = next(((k, v) for k, v in node.value if getattr(k, "value", None) == key), None)
            if hit is None:
                break
            line, node = hit[0].start_mark.line + 1, hit[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line + 1
        else:
            break
    return line


def _pydantic_message(error: dict[str, Any]) -> str:
    kind = error.get("type", "")
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        limit = next(iter((error.get("ctx") or {}).values()), "")
        op = {"greater_than_equal": "≥", "less_than_equal": "≤", "greater_than": ">", "less_than": "<"}[kind]
        return f"muss {op} {limit} sein"
    if kind == "literal_error":
        expected = str((error.get("ctx") or {}).get("expected", "")).replace(" or ", " oder ")
        return f"muss einer dieser Werte sein: {expected}"
    if kind == "value_error":
        return str(error.get("msg", "")).removeprefix("Value error, ")
    return _PYDANTIC_DE.get(kind, str(error.get("msg", "ungültig")))


def validation_message(exc: ValidationError, data: Any, root: yaml.Node | None, filename: str) -> str:
    lines = []
    for error in exc.errors()[:5]:
        loc = tuple(error.get("loc") or ())
        line = node_line(root, loc)
        where = f"Zeile {line}" if line else "Datei"
        if len(loc) >= 2 and loc[0] == "faelle" and isinstance(loc[1], int):
            name = ""
            with contextlib.suppress(Exception):
                name = str(data["faelle"][loc[1]].get("name") or "")
            where += f", Fall {loc[1] + 1}" + (f" „{name}“" if name else "")
            loc = loc[2:]
        field_name = ".".join(str(p) for p in loc) or "faelle"
        lines.append(f"{where}: Feld {field_name}: {_pydantic_message(error)}")
    more = len(exc.errors()) - len(lines)
    tail = f" (und {more} weitere Fehler)" if more > 0 else ""
    return f"Die Suite-Datei {filename} enthält Fehler{tail}:\n- " + "\n- ".join(lines)
