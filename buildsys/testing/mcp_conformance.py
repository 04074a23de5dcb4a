"""The official MCP conformance suite for the tests (tests/unit/mcp/test_conformance.py).

`@modelcontextprotocol/conformance` needs Node 22 or newer (the machine's may be older), so a Node 22
binary comes from its npm package beside it. Both are pinned here and installed with npm into
`.cache/mcp-conformance/` by `python build.py test`, never into the page's own node_modules.
"""

from __future__ import annotations

import json
import shutil

from buildsys.build.fetch import run_download
from buildsys.common import CACHE, BuildError, say

SUITE = "@modelcontextprotocol/conformance"
SUITE_VERSION = "0.1.16"
NODE_VERSION = "22.23.3"
HOME = CACHE / "mcp-conformance"
NODE = HOME / "node_modules" / ".bin" / "node"
ENTRY = HOME / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"


def installed() -> bool:
    if not (NODE.exists() and ENTRY.exists()):
        return False
    manifest = json.loads((ENTRY.parent.parent / "package.json").read_text())
    return bool(manifest.get("version") == SUITE_VERSION)


def install() -> None:
    if installed():
        return
    if shutil.which("npm") is None:
        raise BuildError("npm is not installed: the MCP conformance suite cannot be installed")
    say(f"installing {SUITE}@{SUITE_VERSION} and node@{NODE_VERSION} (the MCP conformance suite)")
    HOME.mkdir(parents=True, exist_ok=True)
    (HOME / "package.json").write_text('{"private": true}\n')
    cmd = ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--save-exact"]
    run_download(
        [*cmd, f"{SUITE}@{SUITE_VERSION}", f"node@{NODE_VERSION}"], "npm install (MCP conformance)", HOME
    )
