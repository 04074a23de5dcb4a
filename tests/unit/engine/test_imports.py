"""The engine's modules import in one direction: no circle, none hidden in a function or behind
TYPE_CHECKING, and each module imports alone in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from buildsys.testing.imports import PythonImport, python_imports

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "py" / "agentlite" / "engine"
MODULES = sorted(f"agentlite.engine.{p.stem}" for p in ENGINE.glob("*.py") if p.stem != "__init__")


def _imports(path: Path) -> list[PythonImport]:
    return python_imports(path.read_text(), "agentlite.engine")


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module in MODULES:
        path = ENGINE / f"{module.rsplit('.', 1)[1]}.py"
        graph[module] = {name for found in _imports(path) for name in found.targets if name in MODULES}
    return graph


def test_no_import_circle_in_the_engine() -> None:
    try:
        order = list(TopologicalSorter(_graph()).static_order())
    except CycleError as error:
        raise AssertionError(f"import circle: {' -> '.join(error.args[1])}") from None
    assert set(order) == set(MODULES)


def test_no_function_local_imports_in_the_engine() -> None:
    local = [
        f"{path.name}:{found.line}"
        for path in sorted(ENGINE.glob("*.py"))
        for found in _imports(path)
        if found.in_function
    ]
    assert local == []


ALONE = """
import importlib, json, sys
failed = []
for module in sys.argv[1:]:
    for name in [n for n in sys.modules if n == "agentlite" or n.startswith("agentlite.")]:
        del sys.modules[name]  # each module starts from nothing of the project
    try:
        importlib.import_module(module)
    except Exception as error:
        failed.append(f"{module}: {type(error).__name__}: {error}")
print(json.dumps(failed))
"""


def test_each_engine_module_imports_alone() -> None:
    modules = ["agentlite.engine", *MODULES]
    run = subprocess.run(
        [sys.executable, "-c", ALONE, *modules], cwd=ROOT / "py", capture_output=True, text=True, check=True
    )
    assert json.loads(run.stdout) == []
