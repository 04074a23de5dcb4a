"""The workspace package's shape: its modules import each other without a circle, the operations
reach the Workspace only through the Committer, and no module name is taken twice in the package."""

from __future__ import annotations

from pathlib import Path

import agentlite
from buildsys.testing.imports import python_imports

PACKAGE = Path(agentlite.__file__).parent
WORKSPACE = PACKAGE / "workspace"
OPERATIONS = ("timeline", "archive", "changeset", "integrity", "operations")


def _imports(module: Path) -> set[str]:
    """The workspace modules `module` imports, wherever the import stands (type-checking blocks too)."""
    names = {p.stem for p in WORKSPACE.glob("*.py")}
    found = {
        target.split(".")[2]
        for imported in python_imports(module.read_text(), "agentlite.workspace")
        for target in imported.targets
        if target.startswith("agentlite.workspace.")
    }
    return (found & names) - {module.stem}


def _graph() -> dict[str, set[str]]:
    return {p.stem: _imports(p) for p in WORKSPACE.glob("*.py") if p.stem != "__init__"}


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += graph.get(name, set())
    return seen


def test_no_workspace_module_imports_itself_back() -> None:
    graph = _graph()
    circular = sorted(name for name in graph if name in _reachable(graph, name))
    assert circular == []


def test_the_operations_never_import_the_workspace() -> None:
    graph = _graph()
    assert {name for name in OPERATIONS if "workspace" in _reachable(graph, name)} == set()


def test_workspace_module_names_are_unique_in_the_package() -> None:
    elsewhere = {p.name for p in PACKAGE.rglob("*.py") if p.parent != WORKSPACE}
    clashes = {p.name for p in WORKSPACE.glob("*.py") if p.stem != "__init__"} & elsewhere
    assert clashes == set()
