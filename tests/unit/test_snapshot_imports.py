"""The memory snapshot's import prefix (web/src/worker/snapshot-imports.json) is every standard-library
module the agent imports, and nothing else: a third-party module there would pull a shared library
into the snapshot, which then cannot be restored (docs/startup.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from buildsys.common import ROOT

PREFIX = ROOT / "web" / "src" / "worker" / "snapshot-imports.json"
# Imported by Python itself before anything runs, or missing from Pyodide's standard library.
NOT_LISTED = {"builtins", "sys", "posix", "marshal", "site", "ssl"}
# Imports every pure module of the agent (the browser edge needs Pyodide) and prints what got imported.
PROBE = """
import json, pkgutil, sys
import agentlite
for info in pkgutil.walk_packages(agentlite.__path__, "agentlite."):
    if not info.name.startswith("agentlite.browser."):
        __import__(info.name)
__import__("agentlite.browser.tokenizer")
print(json.dumps(sorted(sys.modules)))
"""


def listed() -> set[str]:
    """The listed modules' top-level names (a submodule is listed when importing its package does not
    import it)."""
    return {name.split(".")[0] for name in json.loads(PREFIX.read_text())["modules"]}


def imported_by_the_agent() -> set[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return {name.split(".")[0] for name in json.loads(out.stdout)}


def test_every_standard_library_module_the_agent_imports_is_listed() -> None:
    stdlib = {name for name in imported_by_the_agent() if name in sys.stdlib_module_names}
    missing = {name for name in stdlib if not name.startswith("_")} - NOT_LISTED - listed()
    assert not missing, f"add to {PREFIX.name}: {sorted(missing)}"


def test_only_standard_library_modules_are_listed() -> None:
    outside = {name for name in listed() if name not in sys.stdlib_module_names}
    assert not outside, f"not standard library, cannot be in the snapshot: {sorted(outside)}"
