"""Where a line of the page's code runs is told by its path (docs/execution.md): code in a
`frame-worker/` folder runs in a sandbox frame's Worker, `frames/in-frame/` in a frame's document or
Worker, `frames/common/` anywhere, a `page/` folder on the app's page. Each rule is checked on the
source; the type check runs each realm against its own globals (web/tsconfig.*.json)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from agentlite.page_jobs import REALM_OF
from buildsys.build import assemble
from buildsys.common import WEB
from buildsys.testing import page_check
from buildsys.testing.imports import js_specifiers

WEB_SRC = WEB / "src"
FRAMES = WEB_SRC / "frames"


def specifiers(path: Path) -> list[str]:
    """Every way a module names another (buildsys/testing/imports.py): a type's `@import` too, since a
    type is a dependency of the realm."""
    return js_specifiers(path.read_text(encoding="utf-8"))


def local_imports(path: Path) -> set[Path]:
    """The files under web/src (or elsewhere in the repository) that `path` imports by a relative name."""
    return {(path.parent / s).resolve() for s in specifiers(path) if s.startswith(".")}


def modules_under(*parts: str) -> list[Path]:
    return sorted(p for p in WEB_SRC.rglob("*.js") if _in(p, *parts))


def _in(path: Path, *parts: str) -> bool:
    """Whether `path` lies in a folder of web/src whose path ends with `parts` (e.g. "frames", "common")."""
    rel = path.resolve().relative_to(WEB_SRC.resolve()).parts[:-1]
    return any(rel[i : i + len(parts)] == parts for i in range(len(rel)))


def _on_page(path: Path) -> bool:
    return path.is_relative_to(WEB_SRC.resolve()) and _in(path, "page")


def _shown(path: Path) -> str:
    return str(path.relative_to(WEB.parent.resolve()))


def test_the_realm_folders_hold_code() -> None:
    for parts in [
        ("sandbox", "page"),
        ("sandbox", "frame-worker"),
        ("frames", "page"),
        ("frames", "in-frame"),
    ]:
        assert modules_under(*parts), f"web/src/{'/'.join(parts)}/ is empty"
    assert modules_under("frames", "common")
    assert not list((WEB_SRC / "sandbox").glob("*.js")), "every sandbox module lives in a realm folder"


def test_frame_code_imports_nothing_from_the_page() -> None:
    """A frame's Worker or document has no page to reach: its code never imports a page folder's."""
    reaching = [
        f"{_shown(path)} -> {_shown(target)}"
        for path in modules_under("frame-worker") + modules_under("frames", "in-frame")
        for target in local_imports(path)
        if _on_page(target)
    ]
    assert reaching == []


def _reaching_outside(paths: list[Path], *roots: Path) -> list[str]:
    """The imports of `paths` that name a package or a file outside `roots`."""
    inside = [root.resolve() for root in roots]
    return [
        f"{_shown(path)} -> {spec}"
        for path in paths
        for spec in specifiers(path)
        if not spec.startswith(".")
        or not any((path.parent / spec).resolve().is_relative_to(r) for r in inside)
    ]


def test_in_frame_code_imports_only_the_kit_it_shares() -> None:
    """frames/in-frame runs in a document and in a Worker alike: it imports only in-frame and common."""
    assert (
        _reaching_outside(modules_under("frames", "in-frame"), FRAMES / "in-frame", FRAMES / "common") == []
    )


def test_common_code_imports_only_common_code() -> None:
    """frames/common is pure (no DOM, no Worker globals: tsconfig.common.json): it imports only itself."""
    assert _reaching_outside(modules_under("frames", "common"), FRAMES / "common") == []


def test_frame_worker_code_reaches_the_page_only_as_a_bundle() -> None:
    """Outside the frame's Worker, only the page's sandbox code and the page's frame kit may name a
    frame-worker module; the runtimes reach a frame as bundles (dist/sandbox/*-runtime.js), as text."""
    worker_dirs = {p.parent for p in modules_under("frame-worker")}
    allowed = [WEB_SRC / "sandbox" / "page", FRAMES / "page", *worker_dirs]
    reaching = [
        f"{_shown(path)} -> {_shown(target)}"
        for path in WEB_SRC.rglob("*.js")
        if not any(path.resolve().is_relative_to(a.resolve()) for a in allowed)
        for target in local_imports(path)
        if _in(target, "frame-worker")
        if target.is_relative_to(WEB_SRC.resolve())
    ]
    assert reaching == []
    entries = {entry: out for entry, out in assemble.BUNDLES.items() if "/frame-worker/" in entry}
    assert entries and all(out.startswith("sandbox/") for out in entries.values()), entries


def test_each_realm_is_type_checked_against_its_own_globals() -> None:
    def config(name: str) -> dict[str, object]:
        data: dict[str, object] = json.loads((WEB / name).read_text())
        return data

    assert {"tsconfig.frame-worker.json", "tsconfig.common.json"} <= set(page_check.TS_PROJECTS)
    common = config("tsconfig.common.json")
    assert common["compilerOptions"] == {"lib": ["es2023"]}
    assert common["include"] == ["src/frames/common/**/*.js"]
    worker = config("tsconfig.frame-worker.json")
    assert worker["compilerOptions"] == {"lib": ["es2023", "webworker"]}
    page_exclude = config("tsconfig.json")["exclude"]
    assert isinstance(page_exclude, list) and "src/sandbox/frame-worker/**" in page_exclude


def test_the_realms_are_named_by_folder() -> None:
    """A module's realm follows from its folder (a `worker/` folder runs in a Worker): no project lists a
    module of web/src by name, so a new module needs no edit of any tsconfig."""
    named = [
        f"{project.name}: {entry}"
        for project in sorted(WEB.glob("tsconfig*.json"))
        for key in ("include", "exclude")
        for entry in json.loads(project.read_text()).get(key, [])
        if entry.startswith("src/") and entry.endswith(".js") and "*" not in entry
    ]
    assert named == []


def test_the_pages_realm_table_is_the_agents() -> None:
    """The page's SandboxHost and the agent's PageJobClient queue runs by the same realms: one table,
    agentlite.page_jobs.REALM_OF, generated for the page."""
    generated = json.loads((WEB_SRC / "generated" / "sandbox-realms.json").read_text())
    assert generated["realms"] == REALM_OF
    host = (WEB_SRC / "sandbox" / "page" / "host.js").read_text()
    assert "../../generated/sandbox-realms.json" in specifiers(WEB_SRC / "sandbox" / "page" / "host.js")
    assert re.search(r"\bconst REALM_OF = realms;", host), "host.js keeps no copy of its own"
