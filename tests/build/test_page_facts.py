"""The page's tables of the agent's facts (web/src/generated/) are generated from their one source:
these tests fail when a committed copy drifts from it, when a tool's page facts name an argument it
does not have, and when the page calls a method the worker does not define."""

from __future__ import annotations

import ast
import asyncio
import json
import re
from pathlib import Path
from typing import Any, Literal

import pytest

from agentlite.engine.approvals import Ask, approval
from agentlite.tools.catalog import all_tools
from agentlite.tools.registry import Risk
from buildsys.build import page_facts

WEB_SRC = Path(__file__).resolve().parents[2] / "web" / "src"
GENERATED = WEB_SRC / "generated"


@pytest.mark.parametrize("name", sorted([*page_facts.SOURCES, *page_facts.TYPE_SOURCES]))
def test_the_committed_copy_is_what_its_source_makes(name: str) -> None:
    committed = (GENERATED / name).read_text() if (GENERATED / name).exists() else ""
    assert committed == page_facts.render()[name], (
        f"web/src/generated/{name} is stale: run `python -m buildsys.build.page_facts` and commit it"
    )


@pytest.mark.parametrize(
    ("hint", "expected"),
    [
        (str | None, "string | null"),
        (list[dict[str, Any]], "Record<string, unknown>[]"),
        (list[str | int], "(string | number)[]"),
        (Literal["a", "b"], '"a" | "b"'),
        (tuple[str, ...], "string[]"),
        (bool, "boolean"),
        (object, "unknown"),
    ],
)
def test_event_field_types_are_their_json_forms(hint: Any, expected: str) -> None:
    assert page_facts.ts_type(hint) == expected


def test_a_tools_page_facts_name_arguments_it_has() -> None:
    for tool in all_tools():
        fields = set(tool.args.model_fields)
        for named in (tool.content, tool.path):
            assert not named or named in fields, f"{tool.name}: no argument {named!r}"
        assert tool.kind == {Risk.READ: "read", Risk.EXECUTE: "run"}.get(tool.risk, "write")


def test_a_tools_approval_kind_is_the_one_it_asks_for() -> None:
    """With every file existing and one call in the reply, a call asks for its tool's `asks` or nothing."""
    everything = {"path": "/a.txt", "source": "/a.txt", "destination": "/b.txt", "new_name": "c.txt"}

    async def exists(_path: str) -> bool:
        return True

    for tool in all_tools():
        found = asyncio.run(approval(tool, everything, 1, exists, set()))
        assert (found[0].value if found else "") == tool.asks, tool.name
        assert not tool.asks or tool.asks in {kind.value for kind in Ask}


def test_the_page_calls_only_methods_the_worker_defines() -> None:
    methods = json.loads((GENERATED / "calls.json").read_text())["methods"]
    called = {
        (path.name, method)
        for path in WEB_SRC.rglob("*.js")
        for method in re.findall(r"\bcall\(\s*\"([a-z]+\.[A-Za-z]+)\"", path.read_text())
    }
    assert called, "no page call found: the pattern no longer matches the page's code"
    assert sorted(c for c in called if c[1] not in methods) == []


def test_the_page_reads_the_generated_tables() -> None:
    """The page's modules import the tables rather than keeping copies of their own."""
    imports = {
        "agent/page/tools.js": "../../generated/tools.json",
        "agent/page/chat-events.js": "../../generated/chat-events.json",
        "agent/common/protocol.js": "../../generated/protocol.json",
        "agent/page/agent-client.js": "../../generated/call-types",
        "mcp/common/mcp-doctor-verdict.js": "../../generated/mcp.json",
    }
    for module, table in imports.items():
        assert table in (WEB_SRC / module).read_text(), f"{module} does not read {table}"


REVISION = re.compile(r"\b20\d\d-\d\d-\d\d\b")
MCP_HEADER = re.compile(r"""["'](?:mcp-[a-z-]+|last-event-id)["']""", re.I)
DOCTOR = ("mcp/worker/mcp-doctor-probes.js", "mcp/common/mcp-doctor-verdict.js")


def test_the_mcp_facts_are_the_clients() -> None:
    """The doctor's probes ask as the worker's client does: its revisions, headers and envelope, one table."""
    from agentlite.mcp import client, revisions

    facts = json.loads((GENERATED / "mcp.json").read_text())["mcp"]
    assert facts["handshake_version"] == client.HANDSHAKE_VERSIONS[-1] == revisions.HANDSHAKE_VERSIONS[-1]
    assert facts["modern_version"] == client.MODERN_VERSIONS[-1] == revisions.MODERN_VERSIONS[-1]
    assert facts["client_info"] == revisions.CLIENT_INFO
    assert facts["headers"]["version"] == revisions.VERSION_HEADER.lower() == "mcp-protocol-version"
    assert set(facts["headers"].values()) == {h.lower() for h in revisions.REQUEST_HEADERS}


def test_the_doctor_keeps_no_protocol_fact_of_its_own() -> None:
    """No revision date or MCP header name is written in the doctor's code: the verdict reads
    generated/mcp.json and the probes take it from there."""
    for module in DOCTOR:
        lines = (WEB_SRC / module).read_text().splitlines()
        code = "\n".join(line for line in lines if not line.lstrip().startswith(("//", "/*", "*")))
        assert not REVISION.findall(code), f"{module} writes a protocol revision"
        assert not MCP_HEADER.findall(code), f"{module} writes an MCP header's name"


def test_the_client_keeps_its_revisions_in_one_table() -> None:
    """In the worker too, a revision date is written once (agentlite/mcp/revisions.py)."""
    package = WEB_SRC.parents[1] / "py" / "agentlite" / "mcp"
    writing = sorted(
        path.name
        for path in package.glob("*.py")
        if path.name != "revisions.py"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and REVISION.fullmatch(node.value)
    )
    assert writing == []
