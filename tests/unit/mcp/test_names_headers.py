"""The names the model sees, and the header values of the stateless revision."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.engine.approvals import remote_allowed
from agentlite.mcp.headers import header_value, read_header_value
from agentlite.mcp.remote_tool import RemoteSchema
from agentlite.mcp.tool_names import MAX_SLUG, is_remote, slug, tool_name, unique_slug
from agentlite.tools.registry import Risk, Tool
from agentlite.tools.result import ToolResult

FUNCTION_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def test_the_slug_follows_the_contract() -> None:
    assert slug("Test Tools Server") == "test_tools_server"
    assert slug("  GitHub -- Issues! v2 ") == "github_issues_v2"
    assert slug("Ünïcode") == "n_code"
    assert slug("!!!") == "server"


@given(st.text(max_size=80), st.text(min_size=1, max_size=200))
def test_every_name_is_a_valid_function_name_of_its_server(server_name: str, tool: str) -> None:
    server = slug(server_name)
    name = tool_name(server, tool)
    assert FUNCTION_NAME.fullmatch(name) and is_remote(name) and name.startswith(f"mcp__{server}__")


def test_long_names_stay_apart() -> None:
    a, b = tool_name("s", "x" * 80 + "a"), tool_name("s", "x" * 80 + "b")
    assert a != b and len(a) == len(b) == 64


def remote(server: str, tool: str) -> Tool:
    """A remote tool as a server's registration makes it (mcp.remote_tool)."""

    async def run(_context: object, _arguments: object) -> ToolResult:
        return ToolResult.success("ran")

    return Tool(
        tool_name(server, tool),
        "",
        RemoteSchema({"type": "object"}),
        run,
        Risk.EXECUTE,
        asks="mcp",
        server=server,
    )


def test_a_tool_or_its_server_is_allowed_never_by_a_lookalike() -> None:
    tool = remote("docs", "search")
    assert remote_allowed(tool, {tool.name}) and remote_allowed(tool, {"mcp__docs"})
    assert not remote_allowed(tool, {"mcp__doc", "mcp", "all", "mcp__docs__sear"})
    assert not remote_allowed(remote("docs_x", "search"), {"mcp__docs"})


def test_the_server_is_the_registration_never_the_name() -> None:
    """A tool named like another server's is allowed only through the server it was registered for."""
    posing = replace(remote("evil", "x"), name="mcp__docs__search")
    assert not remote_allowed(posing, {"mcp__docs", "mcp__docs__search"})
    assert remote_allowed(posing, {"mcp__evil"})
    assert not remote_allowed(
        replace(remote("docs", "search"), server=""), {"mcp__docs__search", "mcp__docs"}
    )


@given(st.text(max_size=300), st.text(max_size=300), st.text(min_size=1, max_size=200))
def test_slugs_are_bounded_unique_and_whole_at_the_start_of_every_name(a: str, b: str, tool: str) -> None:
    first = unique_slug(a, set())
    second = unique_slug(b, {first})
    assert first != second
    for server in (first, second):
        assert 0 < len(server) <= MAX_SLUG and "__" not in server and server.strip("_") == server
        assert tool_name(server, tool).startswith(f"mcp__{server}__")
    assert not tool_name(second, tool).startswith(f"mcp__{first}__")


def test_two_long_names_that_share_a_prefix_get_slugs_whose_tools_stay_apart() -> None:
    shared = "Acme Corporation Internal Tools Gateway"
    first = unique_slug(shared + " Reader", set())
    second = unique_slug(shared + " Sender", {first})
    assert first != second and len(first) <= MAX_SLUG and len(second) <= MAX_SLUG
    send = remote(second, "send_" + "x" * 60)
    assert remote_allowed(remote(first, "read"), {f"mcp__{first}"})
    assert not remote_allowed(send, {f"mcp__{first}", remote(first, "send_" + "x" * 60).name})


@settings(deadline=None)  # a busy machine can take over the default 200 ms for one example
@given(st.text(max_size=60))
def test_header_values_round_trip_and_stay_printable_ascii(value: str) -> None:
    wrapped = header_value(value)
    assert re.fullmatch(r"[\x20-\x7e]*", wrapped) and wrapped == wrapped.strip()
    assert read_header_value(wrapped) == value


@settings(deadline=None)
@given(st.text(max_size=60))
def test_header_values_match_the_official_sdk(value: str) -> None:
    sdk = pytest.importorskip("mcp.shared.inbound")
    assert header_value(value) == sdk.encode_header_value(value)
    assert sdk.decode_header_value(header_value(value)) == value
