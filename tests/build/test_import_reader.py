"""The one import reader behind every rule on the code's shape (buildsys/testing/imports.py): what a
Python or a JavaScript module names, read from its source, each way a module can name another."""

from __future__ import annotations

from buildsys.testing.imports import PythonImport, js_imports, js_specifiers, python_imports

PYTHON = """\
from __future__ import annotations
import os.path
import json as j, re
from typing import TYPE_CHECKING
from . import sibling
from .. import cousin as c
from .inner import deep, deeper as d
from ..other.leaf import thing
from agentlite.workspace import Workspace

if TYPE_CHECKING:
    from agentlite.engine import turn


def later():
    import lazy.module
"""


def test_python_imports_are_absolute_with_their_names_line_and_place() -> None:
    found = python_imports(PYTHON, package="agentlite.tools")
    assert [(i.module, i.names) for i in found] == [
        ("__future__", ("annotations",)),
        ("os.path", ()),
        ("json", ()),
        ("re", ()),
        ("typing", ("TYPE_CHECKING",)),
        ("agentlite.tools", ("sibling",)),
        ("agentlite", ("cousin",)),
        ("agentlite.tools.inner", ("deep", "deeper")),
        ("agentlite.other.leaf", ("thing",)),
        ("agentlite.workspace", ("Workspace",)),
        ("agentlite.engine", ("turn",)),
        ("lazy.module", ()),
    ]
    assert [i.line for i in found][:3] == [1, 2, 3]
    assert [i.module for i in found if i.in_function] == ["lazy.module"]


def test_a_python_import_says_every_module_it_may_name_and_what_it_binds() -> None:
    [relative] = [i for i in python_imports(PYTHON, package="agentlite.tools") if i.names == ("cousin",)]
    assert relative.targets == ("agentlite", "agentlite.cousin")
    assert relative.bound == ("c",)
    dotted = PythonImport("os.path", (), (), 2, False)
    assert dotted.targets == ("os.path",)
    [plain] = [i for i in python_imports("import os.path\n") if i.module == "os.path"]
    assert plain.bound == ("os",)
    [inner] = [i for i in python_imports(PYTHON, package="agentlite.tools") if "deep" in i.names]
    assert inner.bound == ("deep", "d")


def test_an_init_module_is_its_own_package() -> None:
    """`from . import x` in `agentlite/tools/__init__.py` names agentlite.tools (the caller says the
    package, which for an `__init__` is the module itself)."""
    [found] = python_imports("from . import registry\n", package="agentlite.tools")
    assert found.targets == ("agentlite.tools", "agentlite.tools.registry")


JS = """\
import { a, b as c } from "./static.js";
import Default, * as all from '../up.js';
import {
  many,
  lines,
} from "./multi.js";
import "./side-effect.js";
export { x } from "./re-export.js";
export * from "./star.js";
const lazy = await import("./dynamic.js");
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
/** @import {Type} from "./types.js" */
const notAnImport = "import nothing";
"""


def test_js_imports_each_way_a_module_names_another() -> None:
    assert [(i.specifier, i.kind) for i in js_imports(JS)] == [
        ("./static.js", "static"),
        ("../up.js", "static"),
        ("./multi.js", "static"),
        ("./side-effect.js", "static"),
        ("./re-export.js", "static"),
        ("./star.js", "static"),
        ("./dynamic.js", "dynamic"),
        ("./worker.js", "worker"),
        ("./types.js", "type"),
    ]
    assert js_specifiers(JS) == [i.specifier for i in js_imports(JS)]


def test_a_computed_import_names_nothing() -> None:
    assert js_imports('const m = await import("./" + name);\nimport(url);\n') == []
