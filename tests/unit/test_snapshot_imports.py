"""The memory snapshot's import prefix (web/src/agent/worker/snapshot-imports.json) is every standard-library
module the agent imports, plus the agent's start-up modules, and nothing else: a third-party module
there would pull a shared library (pydantic_core's) into the snapshot, which then cannot be restored
(docs/startup.md). So the agent must start — import, build its service, take settings — without
importing pydantic; the tools import it on first use."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from buildsys.common import ROOT

PREFIX = ROOT / "web" / "src" / "agent" / "worker" / "snapshot-imports.json"
# Imported by Python itself before anything runs, or missing from Pyodide's standard library.
NOT_LISTED = {"builtins", "sys", "posix", "marshal", "site", "ssl"}
# Imports every pure module of the agent (the browser edge needs Pyodide) and prints what got imported;
# not the git modules, whose library (dulwich) the worker loads on first use, long after the snapshot, nor
# the remote tool servers' package (agentlite.mcp), which loads when a workspace has a server.
PROBE = """
import json, pkgutil, sys
import agentlite
for info in pkgutil.walk_packages(agentlite.__path__, "agentlite."):
    if not info.name.startswith(("agentlite.browser.", "agentlite.workspace.git_", "agentlite.mcp")):
        __import__(info.name)
__import__("agentlite.browser.tokenizer")
print(json.dumps(sorted(sys.modules)))
"""


# Imports the listed agent modules as the worker does before the snapshot, with Pyodide's modules
# stubbed and pydantic (and dulwich, loaded on first use) made unimportable, and starts a service; then
# tries every other module of the agent. Prints the third-party modules imported and the modules that
# import without pydantic.
WITHOUT_PYDANTIC = """
import json, pkgutil, sys, types
before = set(sys.modules)  # the interpreter's own start (site hooks) is not the agent's
class NoPydantic:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pydantic", "pydantic_core", "dulwich"):
            raise ImportError(f"{name} is not loaded yet")
sys.meta_path.insert(0, NoPydantic())
sys.modules["js"] = types.ModuleType("js")
ffi = sys.modules["pyodide.ffi"] = types.ModuleType("pyodide.ffi")
ffi.JsException, ffi.to_js = Exception, lambda value, **_: value
sys.modules["pyodide"] = types.ModuleType("pyodide")
for name in json.loads(sys.argv[1]):
    __import__(name)
import asyncio
from agentlite.service import AgentService
posted = []
async def take_settings():
    service = AgentService(posted.append, None, lambda _settings: None)
    call = {"type": "call", "id": 1, "method": "settings.apply", "args": {"settings": {"model": "demo"}}}
    service.handle(json.dumps(call))
    while service.tasks:
        await asyncio.sleep(0)
asyncio.run(take_settings())
assert [m.get("ok") for m in posted if m.get("type") == "reply"] == [True], posted
new = set(sys.modules) - before
third_party = sorted(name for name in new if name.split(".")[0] not in sys.stdlib_module_names)
import agentlite
importable = ["agentlite"]
for info in pkgutil.walk_packages(agentlite.__path__, "agentlite."):
    if info.name.startswith("agentlite.mcp"):
        continue  # loaded on first use, never at start
    try:
        __import__(info.name)
        importable.append(info.name)
    except ImportError:
        pass
remote = sorted(name for name in new if name.startswith("agentlite.mcp"))
print(json.dumps({"third_party": third_party, "importable": importable, "remote": remote}))
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


def without_pydantic(agent: list[str]) -> dict[str, list[str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    args = [sys.executable, "-c", WITHOUT_PYDANTIC, json.dumps(agent)]
    out = subprocess.run(args, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    found: dict[str, list[str]] = json.loads(out.stdout)
    return found


def test_the_listed_agent_modules_start_the_agent_without_pydantic() -> None:
    agent = json.loads(PREFIX.read_text())["agent"]
    found = without_pydantic(agent)
    outside = {name.split(".")[0] for name in found["third_party"]} - {"agentlite", "js", "pyodide"}
    assert not outside, f"imported on the start path: {sorted(outside)}"
    assert found["remote"] == [], "the MCP package loads on first use, not at start"
    assert "agentlite.browser.host" in agent


def test_every_agent_module_that_needs_no_pydantic_is_listed() -> None:
    agent = json.loads(PREFIX.read_text())["agent"]
    importable = without_pydantic(agent)["importable"]
    assert sorted(importable) == sorted(agent), f"set {PREFIX.name}'s agent list to {sorted(importable)}"
    assert "agentlite.tools.common" not in agent  # the tools need pydantic: they load after ready
