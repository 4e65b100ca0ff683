"""The import contract of DESIGN §2, read from the source (AST), never by importing it: no cycle between modules
(function-level imports count), no private name used across modules, pages call only `core.<area>.service`,
core never imports streamlit (except the page benchmark), only the model registry imports the rule model, SQL text
lives in db/, no source file over 400 lines and no function over 80 lines. Every violation is named with file:line.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("core", "agents", "views", "db", "app.py")
EXCLUDED = ("db/migrations/",)  # migrations are DDL history, not modules anybody imports
PAGE_BENCHMARK = "core.ops.bench.pages"  # the AppTest benchmark: the one streamlit import outside views/
RULE_MODEL = "agents.offline"
MODEL_REGISTRY = "agents.models.registry"
SERVICE = re.compile(r"^core\.[a-z_]+\.service$")
# SQL as text: a statement keyword followed by what only SQL puts there, or the SQLAlchemy text constructs.
SQL = re.compile(r"\b(SELECT\s|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(?:UNIQUE\s+)?"
                 r"(?:TABLE|INDEX|EXTENSION|POLICY)|ALTER\s+TABLE|SET\s+LOCAL|WITH\s+\w+\s+AS\s*\()")
SQL_CALLS = ("text", "literal_column")  # sa.text(...), sqlalchemy.text(...)
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 80
# Where the line limit does not apply (the acceptance excepts tests, migrations and seed data).
SIZE_EXCEPTIONS: tuple[str, ...] = ()


@dataclass(frozen=True)
class Import:
    """One project module imported by another: where, what, and which names (empty for `import x`)."""

    source: str
    target: str
    path: str
    line: int
    names: tuple[str, ...] = ()
    alias: str | None = None


@dataclass
class Module:
    name: str
    rel: str  # the path shown in reports, relative to the checkout
    path: Path
    tree: ast.Module
    imports: list[Import] = field(default_factory=list)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _files() -> Iterator[Path]:
    for source in SOURCES:
        target = ROOT / source
        paths = [target] if target.is_file() else sorted(target.rglob("*.py"))
        for path in paths:
            if not any(path.relative_to(ROOT).as_posix().startswith(x) for x in EXCLUDED):
                yield path


@cache
def modules() -> dict[str, Module]:
    found = {}
    for path in _files():
        name = _module_name(path)
        found[name] = Module(name=name, rel=path.relative_to(ROOT).as_posix(), path=path,
                             tree=ast.parse(path.read_text(encoding="utf-8"), str(path)))
    for module in found.values():
        module.imports = list(_imports(module, found))
    return found


def _resolve(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.name.split(".") if module.path.name == "__init__.py" else module.name.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def _owner(name: str, known: dict[str, Module]) -> str | None:
    """The project module `name` is, or lives in (its longest known prefix)."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        candidate = ".".join(parts[:i])
        if candidate in known:
            return candidate
    return None


def _imports(module: Module, known: dict[str, Module]) -> Iterator[Import]:
    """Every import of a project module, at any depth (function-level and TYPE_CHECKING imports count too)."""
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _owner(alias.name, known)
                if target is not None:
                    yield Import(module.name, target, module.rel, node.lineno, alias=alias.asname)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in known:  # `from core.chat import service`: the submodule itself
                    yield Import(module.name, sub, module.rel, node.lineno, alias=alias.asname or alias.name)
                elif (target := _owner(base, known)) is not None:
                    yield Import(module.name, target, module.rel, node.lineno, names=(alias.name,))


def _parents(name: str, known: dict[str, Module]) -> list[str]:
    """Importing a.b.c runs a/__init__ and a/b/__init__ first: those packages are imported too."""
    parts = name.split(".")
    return [p for i in range(1, len(parts)) if (p := ".".join(parts[:i])) in known]


def _graph() -> dict[str, dict[str, Import]]:
    known = modules()
    graph: dict[str, dict[str, Import]] = {name: {} for name in known}
    for module in known.values():
        for imp in module.imports:
            for target in [*_parents(imp.target, known), imp.target]:
                if target != module.name and target not in _parents(module.name, known):
                    graph[module.name].setdefault(target, imp)
    return graph


def _cycles(graph: dict[str, dict[str, Import]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each as one cycle through it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return components


def _cycle_path(graph: dict[str, dict[str, Import]], component: list[str]) -> list[str]:
    """One concrete cycle inside a component, as 'module (file:line) -> …' hops."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node]):
            if nxt == start:
                cycle = [*paths[node], start]
                hops = [f"{a} ({graph[a][b].path}:{graph[a][b].line})" for a, b in zip(cycle, cycle[1:], strict=False)]
                return [*hops, start]
            if nxt in members and nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    return component


def _report(violations: list[str]) -> str:
    unique = sorted(set(violations))
    return f"{len(unique)} violation(s):\n" + "\n".join(unique)


# --- the rules -------------------------------------------------------------------------------------------------------


def import_cycles() -> list[str]:
    """Each group of modules that import each other (directly or around a loop), with one loop spelled out."""
    graph = _graph()
    return [f"cycle among {len(c)} modules ({', '.join(c)}), e.g. " + " -> ".join(_cycle_path(graph, c))
            for c in _cycles(graph)]


def private_names() -> list[str]:
    """`from x import _y`, and `x._y` on an imported project module, across modules (dunders are public)."""
    known = modules()
    out = []
    for module in known.values():
        aliases: dict[str, str] = {}
        for imp in module.imports:
            for name in imp.names:
                if name.startswith("_") and not name.startswith("__"):
                    out.append(f"{imp.path}:{imp.line}: imports private {imp.target}.{name}")
            if imp.alias and not imp.names:
                aliases[imp.alias] = imp.target
        for node in ast.walk(module.tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                out.append(f"{module.rel}:{node.lineno}: uses private {aliases[node.value.id]}.{node.attr}")
    return out


def page_imports() -> list[str]:
    """Pages read widgets, call a service, render: any other project import is a layer skipped."""
    out = []
    for module in modules().values():
        if not module.name.startswith("views."):
            continue
        for imp in module.imports:
            if not (SERVICE.match(imp.target) or imp.target == "views" or imp.target.startswith("views.")):
                out.append(f"{imp.path}:{imp.line}: page imports {imp.target} (only core.<area>.service and views.*)")
    return out


def _external_imports(module: Module) -> Iterator[tuple[int, str]]:
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            yield node.lineno, node.module


def streamlit_in_core() -> list[str]:
    """core/ runs without a UI (CLI, tests, agents); only the page benchmark drives pages through AppTest."""
    out = []
    for module in modules().values():
        if not module.name.startswith("core.") or module.name == PAGE_BENCHMARK:
            continue
        for line, name in _external_imports(module):
            if name == "streamlit" or name.startswith("streamlit."):
                out.append(f"{module.rel}:{line}: core imports {name}")
    return out


def rule_model_imports() -> list[str]:
    """The offline rule model is a provider like any other: only the model registry knows it."""
    out = []
    for module in modules().values():
        if module.name == MODEL_REGISTRY or module.name == RULE_MODEL or module.name.startswith(RULE_MODEL + "."):
            continue
        for imp in module.imports:
            if imp.target == RULE_MODEL or imp.target.startswith(RULE_MODEL + "."):
                out.append(f"{imp.path}:{imp.line}: imports the rule model {imp.target} (only {MODEL_REGISTRY} may)")
    return out


def _strings(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """String constants, skipping docstrings (prose may name SQL)."""
    docstrings = {id(body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and (body := node.body) and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def sql_outside_db() -> list[str]:
    """Query text (SQLAlchemy text constructs or SQL in string literals) anywhere but db/."""
    out = []
    for module in modules().values():
        if module.name == "db" or module.name.startswith("db."):
            continue
        for node in ast.walk(module.tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_CALLS
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in ("sa", "sqlalchemy")):
                out.append(f"{module.rel}:{node.lineno}: SQL text ({node.func.value.id}.{node.func.attr}) outside db/")
        for line, text in _strings(module.tree):
            if SQL.search(text):
                out.append(f"{module.rel}:{line}: SQL text outside db/: {' '.join(text.split())[:60]!r}")
    return out


def oversized() -> list[str]:
    """A module over 400 lines is two modules; a function over 80 lines is several functions."""
    out = []
    for module in modules().values():
        if module.rel in SIZE_EXCEPTIONS:
            continue
        lines = module.path.read_text(encoding="utf-8").count("\n")
        if lines > MAX_FILE_LINES:
            out.append(f"{module.rel}:1: {lines} lines (at most {MAX_FILE_LINES}; one job per module)")
        for node in ast.walk(module.tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    out.append(f"{module.rel}:{node.lineno}: {node.name}() has {length} lines (at most "
                               f"{MAX_FUNCTION_LINES})")
    return out


# --- the tests -------------------------------------------------------------------------------------------------------


def test_the_graph_reads_every_source_module() -> None:
    names = modules()
    assert "app" in names and any(n.startswith("views.") for n in names) and any(n.startswith("db.") for n in names)
    assert any(imp.target.startswith("core.") for m in names.values() for imp in m.imports)


def test_no_import_cycle_between_modules() -> None:
    assert not (found := import_cycles()), _report(found)


def test_no_private_name_is_used_across_modules() -> None:
    assert not (found := private_names()), _report(found)


def test_pages_call_only_core_services() -> None:
    assert not (found := page_imports()), _report(found)


def test_no_pages_folder_next_to_app_py() -> None:
    """A `pages/` folder beside app.py puts Streamlit into its legacy multipage mode until st.navigation runs: the
    first deep link after a server start shows „Page not found“ (docs/decisions/007). Screens live in views/."""
    assert not (ROOT / "pages").exists(), "pages/ next to app.py: move the screens to views/ (decision 007)"


def test_core_never_imports_streamlit() -> None:
    assert not (found := streamlit_in_core()), _report(found)


def test_only_the_model_registry_imports_the_rule_model() -> None:
    assert not (found := rule_model_imports()), _report(found)


def test_sql_text_lives_only_in_db() -> None:
    assert not (found := sql_outside_db()), _report(found)


def test_no_source_file_over_400_lines_and_no_function_over_80() -> None:
    assert not (found := oversized()), _report(found)


# --- the checker checks itself on small sources, so a silent checker cannot pass ------------------------------------


def _fake(tmp_path: Path, files: dict[str, str]) -> dict[str, Module]:
    known = {}
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        name = ".".join(Path(rel).with_suffix("").parts).removesuffix(".__init__")
        known[name] = Module(name=name, rel=rel, path=path, tree=ast.parse(text))
    for module in known.values():
        module.imports = list(_imports(module, known))
    return known


def test_a_cycle_through_a_function_level_import_is_found(tmp_path: Path) -> None:
    known = _fake(tmp_path, {"core/a.py": "import core.b\n", "core/b.py": "def f():\n    from core.a import x\n"})
    graph = {name: {} for name in known}
    for m in known.values():
        for imp in m.imports:
            graph[m.name].setdefault(imp.target, imp)
    assert _cycles(graph) == [["core.a", "core.b"]]
    assert "core/b.py:2" in " ".join(_cycle_path(graph, ["core.a", "core.b"]))


def test_private_imports_and_submodule_imports_are_read(tmp_path: Path) -> None:
    known = _fake(tmp_path, {"core/__init__.py": "", "core/x/__init__.py": "", "core/x/service.py": "",
                             "core/y.py": "from core.x import service\nfrom core.y import _hidden\n"})
    targets = [(i.target, i.names) for i in known["core.y"].imports]
    assert ("core.x.service", ()) in targets and ("core.y", ("_hidden",)) in targets


def test_sql_in_strings_is_recognised_and_prose_is_not() -> None:
    assert SQL.search("SELECT id FROM agent_knowledge WHERE x") and SQL.search("INSERT INTO ratings (a) VALUES (1)")
    assert SQL.search("SET LOCAL lock_timeout = '3s'")
    assert not SQL.search("Wählen Sie (select) eine Aufgabe aus der Liste") and not SQL.search("Update from the team")
