"""The listing budget (agentlite.mcp.listing): a server's listing past it is offered compactly (name, one
line, argument names, an open object), its calls still checked against the full schema, which a wrong
call gets back; a listing within it is offered as the server wrote it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentlite.mcp.listing import DEFAULT_BUDGET, MAX_LINE, listing_tokens, one_line
from agentlite.mcp.remote_tool import remote_tools
from agentlite.tools.result import ToolError, ToolErrorType
from buildsys.common import ROOT

FORTY = json.loads((ROOT / "tests" / "data" / "mcp_forty_tools.json").read_text(encoding="utf-8"))["tools"]
UNLIMITED = 10**9


class NoCalls:
    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        raise AssertionError("no call is made")


def test_a_forty_tool_listing_passes_the_budget_and_is_offered_within_it() -> None:
    full = remote_tools(NoCalls(), "github", FORTY, listing_budget=UNLIMITED)
    offered = remote_tools(NoCalls(), "github", FORTY)
    assert listing_tokens(full) > DEFAULT_BUDGET
    assert listing_tokens(offered) <= DEFAULT_BUDGET
    assert [tool.name for tool in offered] == [tool.name for tool in full]


def test_a_compact_tool_names_its_arguments_and_offers_an_open_object() -> None:
    [tool] = [t for t in remote_tools(NoCalls(), "github", FORTY) if t.name == "mcp__github__create_issue"]
    assert tool.parameters() == {"type": "object", "properties": {}}
    assert tool.description == tool.brief
    assert tool.description == (
        'MCP server `github` says: "Create a new issue in a GitHub repository."'
        " Arguments: owner (required), repo (required), title (required), body, assignees, labels,"
        " milestone, type."
    )
    get_me = next(t for t in remote_tools(NoCalls(), "github", FORTY) if t.name == "mcp__github__get_me")
    assert get_me.description.endswith(" No arguments.")


def test_a_compact_tool_checks_the_full_schema_and_gives_it_back_when_wrong() -> None:
    [tool] = [t for t in remote_tools(NoCalls(), "github", FORTY) if t.name == "mcp__github__update_issue"]
    good = {"owner": "o", "repo": "r", "issue_number": 3, "state": "closed"}
    assert tool.args.check(good) == good  # type: ignore[union-attr]
    with pytest.raises(ToolError) as wrong:
        tool.args.check({"owner": "o", "repo": "r", "issue_number": 3, "state": "shut"})  # type: ignore[union-attr]
    assert wrong.value.error_type is ToolErrorType.INVALID_ARGUMENT
    assert "The tool's full schema: " in wrong.value.message
    assert '"state_reason"' in wrong.value.message and '"not_planned"' in wrong.value.message


def test_a_listing_within_the_budget_is_offered_as_the_server_wrote_it() -> None:
    small = FORTY[:3]
    offered = remote_tools(NoCalls(), "github", small)
    assert listing_tokens(offered) <= DEFAULT_BUDGET
    assert offered[2].parameters() == small[2]["inputSchema"]
    assert "Get the contents of a file or directory" in offered[2].description


def test_one_line_keeps_the_first_sentence_within_bounds() -> None:
    assert one_line("First one.  Second\none.") == "First one."
    assert one_line("no stop at all") == "no stop at all"
    long = one_line("x" * 500)
    assert len(long) == MAX_LINE and long.endswith("…")
    assert one_line("") == ""
