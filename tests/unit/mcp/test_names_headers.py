"""The names the model sees, and the header values of the stateless revision."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.engine.approvals import remote_allowed
from agentlite.mcp.headers import header_value, read_header_value
from agentlite.mcp.tool_names import is_remote, server_of, slug, tool_name

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
    assert FUNCTION_NAME.fullmatch(name) and is_remote(name)
    if len(f"mcp__{server}__") < 50:
        assert server_of(name) == server


def test_long_names_stay_apart() -> None:
    a, b = tool_name("s", "x" * 80 + "a"), tool_name("s", "x" * 80 + "b")
    assert a != b and len(a) == len(b) == 64


def test_a_tool_or_its_server_is_allowed_never_by_a_lookalike() -> None:
    name = tool_name("docs", "search")
    assert remote_allowed(name, {name}) and remote_allowed(name, {"mcp__docs"})
    assert not remote_allowed(name, {"mcp__doc", "mcp", "all", "mcp__docs__sear"})
    assert not remote_allowed(tool_name("docs_x", "search"), {"mcp__docs"})


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
