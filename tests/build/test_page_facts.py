"""The page's tables of the agent's facts (web/src/generated/) are generated from their one source:
these tests fail when a committed copy drifts from it, when a tool's page facts name an argument it
does not have, and when the page calls a method the worker does not define."""

from __future__ import annotations

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
        "tools.js": "./generated/tools.json",
        "chat-events.js": "./generated/chat-events.json",
        "protocol.js": "./generated/protocol.json",
        "agent-client.js": "./generated/call-types",
    }
    for module, table in imports.items():
        assert table in (WEB_SRC / module).read_text(), f"{module} does not read {table}"
