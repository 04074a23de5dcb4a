"""The rules docs/architecture.md states about where code may reach, each checked on the source."""

from __future__ import annotations

import re
from pathlib import Path

from buildsys.testing import code_shape
from buildsys.testing.imports import js_imports, python_imports

WEB_SRC = code_shape.REPO_ROOT / "web" / "src"


def _imports_of(module: code_shape.Module) -> set[str]:
    return set(code_shape.imported_names(module))


def test_only_the_browser_package_imports_the_platform() -> None:
    """`js` and `pyodide` are reached only from `agentlite.browser`: the rest runs on CPython as is."""
    reaching = [
        name
        for name, module in code_shape.load_modules().items()
        if not name.startswith("agentlite.browser")
        and any(n.split(".")[0] in {"js", "pyodide"} for n in _imports_of(module))
    ]
    assert reaching == []


def test_no_module_of_the_workspace_machinery_imports_the_facade() -> None:
    """Operations commit through `committer.Committer`; only the package's `__init__` re-exports the
    `Workspace` facade, which forwards to them."""
    importing = []
    for name, module in code_shape.load_modules().items():
        if not name.startswith("agentlite.workspace.") or name == "agentlite.workspace.workspace":
            continue
        if any("Workspace" in found.names for found in python_imports(module.tree, module.package)):
            importing.append(name)
    assert importing == []


def _page_modules(
    kinds: frozenset[str] | set[str] = frozenset({"static", "dynamic", "worker"}),
) -> dict[Path, set[Path]]:
    """Each page module under web/src → the web/src modules it loads (a type named in a JSDoc
    `@import` loads nothing; `kinds` narrows to imports proper, without the Workers a module starts)."""
    graph: dict[Path, set[Path]] = {}
    for path in WEB_SRC.rglob("*.js"):
        if "generated" in path.parts:
            continue
        targets = [i.specifier for i in js_imports(path.read_text(encoding="utf-8")) if i.kind in kinds]
        graph[path] = {(path.parent / t).resolve() for t in targets if t.startswith(".")}
    return graph


def test_no_page_module_imports_a_view() -> None:
    """Views render state and bind events: they import the page's modules, never the other way (a view
    may import another view; app.js wires them all)."""
    views = (WEB_SRC / "views").resolve()
    upward = [
        f"{path.relative_to(WEB_SRC)} -> {target.relative_to(WEB_SRC.resolve())}"
        for path, targets in _page_modules().items()
        if views not in path.resolve().parents and path.name != "app.js"
        for target in targets
        if views in target.parents
    ]
    assert upward == []


# What stays at web/src's root (docs/architecture.md, "The page's folders"): the wiring, and the leaves
# every side imports. Everything else lives in the folder of its part.
ROOT_FILES = {"app.js", "bytes.js", "limits.json"}


def test_the_pages_root_holds_only_the_wiring_and_the_shared_leaves() -> None:
    loose = {path.name for path in WEB_SRC.iterdir() if path.is_file()}
    assert sorted(loose - ROOT_FILES) == [], "a part's module belongs in its folder"


def test_a_worker_folder_imports_nothing_from_a_page_folder() -> None:
    """A `worker/` folder's code runs in a Worker (no DOM): it imports its own side and `common/` only."""
    reaching = [
        f"{path.relative_to(WEB_SRC)} -> {target.relative_to(WEB_SRC.resolve())}"
        for path, targets in _page_modules().items()
        if "worker" in path.relative_to(WEB_SRC).parts
        for target in targets
        if target.is_relative_to(WEB_SRC.resolve()) and "page" in target.relative_to(WEB_SRC.resolve()).parts
    ]
    assert reaching == []


def test_a_page_folder_imports_nothing_from_a_worker_folder() -> None:
    """A `page/` folder's code runs on the app's page: a worker's code reaches it only as a Worker the
    page starts (`new Worker(new URL(…))`), never as an import; what both sides need is in `common/`."""
    reaching = [
        f"{path.relative_to(WEB_SRC)} -> {target.relative_to(WEB_SRC.resolve())}"
        for path, targets in _page_modules(kinds={"static", "dynamic"}).items()
        if "page" in path.relative_to(WEB_SRC).parts
        for target in targets
        if target.is_relative_to(WEB_SRC.resolve())
        and "worker" in target.relative_to(WEB_SRC.resolve()).parts
    ]
    assert reaching == []


def test_one_byte_helper_per_job_on_the_page() -> None:
    """SHA-256 and base64 are written once, in web/src/bytes.js, for the page and the worker alike."""
    writers = {
        str(path.relative_to(WEB_SRC))
        for path in WEB_SRC.rglob("*.js")
        if "generated" not in path.parts
        and re.search(r'digest\("SHA-256"|\batob\(|\bbtoa\(', path.read_text(encoding="utf-8"))
    }
    assert writers == {"bytes.js"}


def test_the_rooms_never_reach_back_to_the_switchboard_or_the_service() -> None:
    """The service wires the rooms and hands them to the switchboard: imports go one way."""
    modules = code_shape.load_modules()
    upward = {
        name: sorted(
            n for n in code_shape.imported_names(module) if n in {"agentlite.calls", "agentlite.service"}
        )
        for name, module in modules.items()
        if name.startswith("agentlite.rooms") or name == "agentlite.calls"
    }
    assert {name: found for name, found in upward.items() if found} == {}
    importers = {
        name
        for name, module in modules.items()
        if "agentlite.calls" in set(code_shape.imported_names(module))
    }
    assert importers == {"agentlite.service"}


def test_the_page_is_type_checked_strict_without_escapes() -> None:
    """docs/architecture.md: `strict` is on for every project, and no line opts out of the check."""
    web = WEB_SRC.parent
    base = (web / "tsconfig.base.json").read_text()
    assert re.search(r'"strict"\s*:\s*true', base)
    projects = [*sorted(web.glob("tsconfig.*.json")), web / "tsconfig.json"]
    for project in projects:
        if project.name != "tsconfig.base.json":
            text = project.read_text()
            assert '"extends": "./tsconfig.base.json"' in text, project.name
            assert '"strict"' not in text and "noImplicitAny" not in text, project.name
    sources = [*WEB_SRC.rglob("*.js"), web / "service-worker.js"]
    escapes = [
        f"{path.relative_to(web)}"
        for path in sources
        if re.search(r"@ts-(ignore|nocheck|expect-error)", path.read_text())
    ]
    assert escapes == []
