"""The registry: one definition yields the OpenAI schema, the dialect definition and validation."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import BaseModel, Field

from agentlite.tools.registry import Risk, Tool, ToolRegistry
from agentlite.tools.result import ToolError, ToolErrorType, ToolResult


class EchoArgs(BaseModel):
    path: str = Field(description="Workspace path")
    times: int = Field(default=1, ge=1, description="How often")


async def echo(_context: Any, args: EchoArgs) -> ToolResult:
    if args.path == "/missing":
        raise ToolError(ToolErrorType.NOT_FOUND, "no such file: /missing", hint="Nearest: /mission")
    return ToolResult.success("echoed", {"path": args.path * args.times})


async def broken(_context: Any, _args: EchoArgs) -> ToolResult:
    raise RuntimeError("a bug")


ECHO = Tool("echo", "Echo a path.", EchoArgs, echo, Risk.READ, aliases=("say",), streamed=("path",))
REGISTRY = ToolRegistry([ECHO, Tool("broken", "Always a bug.", EchoArgs, broken, Risk.READ)])


def call(name: str, arguments: dict[str, Any]) -> ToolResult:
    return asyncio.run(REGISTRY.call(name, arguments, context=None))


def test_openai_schema_comes_from_the_argument_model() -> None:
    schema = ECHO.openai_schema()
    assert schema["type"] == "function"
    function = schema["function"]
    assert function["name"] == "echo"
    assert function["parameters"]["required"] == ["path"]
    assert function["parameters"]["properties"]["times"] == {
        "default": 1,
        "description": "How often",
        "minimum": 1,
        "type": "integer",
    }


def test_definition_carries_streamed_fields_and_aliases() -> None:
    (definition,) = REGISTRY.definitions(only=["echo"])
    assert definition["streamed"] == ["path"]
    assert definition["aliases"] == ["say"]


def test_alias_resolves_to_the_canonical_tool() -> None:
    assert REGISTRY.get("say") is ECHO
    assert call("say", {"path": "/a", "times": 2}).data == {"path": "/a/a"}


def test_validation_error_names_the_field() -> None:
    result = call("echo", {"times": 0})
    assert (result.code, result.error_type) == (1, ToolErrorType.INVALID_ARGUMENT)
    assert "`path`" in result.message and "`times`" in result.message


def test_unknown_tool_lists_the_available_ones() -> None:
    result = call("nope", {})
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT
    assert "echo" in result.message


def test_tool_error_becomes_a_result_with_its_hint() -> None:
    result = call("echo", {"path": "/missing"})
    assert result.to_dict() == {
        "code": 1,
        "message": "no such file: /missing\nNearest: /mission",
        "data": None,
        "errorType": "not_found",
    }


def test_bugs_raise() -> None:
    with pytest.raises(RuntimeError):
        call("broken", {"path": "/a"})


def test_names_are_unique() -> None:
    with pytest.raises(ValueError):
        ToolRegistry([ECHO, ECHO])


def test_result_text_for_the_model() -> None:
    assert ToolResult.success("ok").for_model() == "ok"
    assert ToolResult.success("ok", {"a": 1}).for_model() == 'ok\n{"a": 1}'


def test_one_wrong_argument_name_for_the_one_missing_required_name_is_renamed() -> None:
    from pydantic import BaseModel

    from agentlite.tools.registry import renamed

    class Args(BaseModel):
        path: str
        limit: int = 5

    assert renamed(Args, {"file_path": "/a", "limit": 2}) == {"path": "/a", "limit": 2}
    assert renamed(Args, {"file": "/a", "name": "/b"}) == {"file": "/a", "name": "/b"}, "two readings"
    assert renamed(Args, {"path": "/a", "extra": 1}) == {"path": "/a", "extra": 1}, "nothing missing"


def test_a_deferred_registry_builds_its_tools_once_on_first_use() -> None:
    builds: list[int] = []

    def build() -> list[Tool]:
        builds.append(1)
        return [ECHO]

    registry = ToolRegistry.deferred(build)
    assert builds == []
    assert registry.get("say") is ECHO
    assert registry.names() == ["echo"]
    assert [t.name for t in registry] == ["echo"]
    assert builds == [1]


def test_a_deferred_registry_validates_and_refuses_duplicates_like_a_built_one() -> None:
    registry = ToolRegistry.deferred(lambda: [ECHO])
    with pytest.raises(ValueError, match="registered twice"):
        registry.register(ECHO)
    tool, args = ToolRegistry.deferred(lambda: [ECHO]).validate("echo", {"path": "/a"})
    assert tool is ECHO and args.model_dump() == {"path": "/a", "times": 1}
