"""The tool registry: each tool is a function with a pydantic argument model and a description.

From that one definition come the OpenAI `tools` JSON, the definitions the prompt dialects and the
stream decoders read (`definition()`), argument validation, and the aliases of the design notes
(docs/origins.md).
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentlite.tools.context import ToolContext
from agentlite.tools.result import ToolError, ToolErrorType, ToolResult

if TYPE_CHECKING:  # pydantic loads after the worker is ready: this module is imported before it
    from pydantic import BaseModel, ValidationError


class Risk(enum.StrEnum):
    """What a call may do; the engine's approval policy reads it."""

    READ = "read"
    CREATE = "create"
    MODIFY = "modify"
    DESTRUCTIVE = "destructive"
    EXECUTE = "execute"


Runner = Callable[[Any, Any], Awaitable[ToolResult]]
_SCHEMAS: dict[type[BaseModel], dict[str, Any]] = {}
Resource = str | tuple[str, ...] | None  # what a call touches: a path, several paths, `sandbox`, ...


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    args: type[BaseModel]
    run: Runner  # run(context, validated_args) -> ToolResult
    risk: Risk
    aliases: tuple[str, ...] = ()
    streamed: tuple[str, ...] = ()  # fields that travel as ndjson streams and show as live previews
    resource: Callable[[Any], Resource] = field(default=lambda _args: None)  # what the engine locks
    brief: str = ""  # the short description of native requests (tools/briefs.py); "" means `description`

    def resources(self, arguments: Any) -> tuple[str, ...]:
        """Every resource a call touches (a move: source and destination), for the engine's locks and
        approvals; arguments that will fail validation touch nothing."""
        try:
            found = self.resource(arguments)
        except Exception:  # a resource function reading arguments that failed validation
            return ()
        if found is None:
            return ()
        return (str(found),) if isinstance(found, str) else tuple(str(r) for r in found if r)

    def parameters(self) -> dict[str, Any]:
        """The arguments' JSON schema, without pydantic's titles. Built once per model (every request
        and every count of one asks for it; pydantic builds it anew each time), handed out as a copy."""
        schema = _SCHEMAS.get(self.args)
        if schema is None:
            schema = _SCHEMAS[self.args] = self.args.model_json_schema()
            schema.pop("title", None)
            for prop in schema.get("properties", {}).values():
                prop.pop("title", None)
        return copy.deepcopy(schema)

    def openai_schema(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters()},
        }

    def definition(self) -> dict[str, Any]:
        """The tool as data, for request building and the stream decoders."""
        return {
            "name": self.name,
            "description": self.description,
            "brief": self.brief or self.description,
            "parameters": self.parameters(),
            "streamed": list(self.streamed),
            "aliases": list(self.aliases),
        }


def validation_message(error: ValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "arguments"
        parts.append(f"`{where}`: {item['msg']}")
    return "invalid arguments: " + "; ".join(parts)


def renamed(model: type[BaseModel], arguments: dict[str, Any]) -> dict[str, Any]:
    """`arguments` with one wrongly named argument put under the one required name that is missing
    (`file_path` for `path`): with exactly one of each there is one reading (docs/protocol.md, "Messy
    tool calls"). Anything else is left for validation to report."""
    fields = model.model_fields
    missing = [name for name, info in fields.items() if info.is_required() and name not in arguments]
    unknown = [name for name in arguments if name not in fields]
    if len(missing) != 1 or len(unknown) != 1:
        return arguments
    return {missing[0] if name == unknown[0] else name: value for name, value in arguments.items()}


class ToolRegistry:
    """Tools by name and alias. `deferred(build)` makes one whose tools are built on first use: the
    tool modules import pydantic, which the browser loads after the app is ready (docs/startup.md)."""

    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        self._names: dict[str, str] = {}
        self._build: Callable[[], Iterable[Tool]] | None = None
        for tool in tools:
            self.register(tool)

    @classmethod
    def deferred(cls, build: Callable[[], Iterable[Tool]]) -> ToolRegistry:
        registry = cls()
        registry._build = build
        return registry

    def _built(self) -> ToolRegistry:
        if self._build is not None:
            build, self._build = self._build, None
            for tool in build():
                self.register(tool)
        return self

    def register(self, tool: Tool) -> None:
        self._built()
        for name in (tool.name, *tool.aliases):
            if name in self._names:
                raise ValueError(f"tool name {name!r} registered twice")
            self._names[name] = tool.name
        self._tools[tool.name] = tool

    def get(self, name: str) -> Tool | None:
        canonical = self._built()._names.get(name)
        return None if canonical is None else self._tools[canonical]

    def __iter__(self) -> Any:
        return iter(self._built()._tools.values())

    def names(self) -> list[str]:
        return list(self._built()._tools)

    def definitions(self, only: Iterable[str] | None = None) -> list[dict[str, Any]]:
        chosen = set(only) if only is not None else None
        return [t.definition() for t in self._built()._tools.values() if chosen is None or t.name in chosen]

    def openai_tools(self) -> list[dict[str, Any]]:
        return [t.openai_schema() for t in self._built()._tools.values()]

    def validate(self, name: str, arguments: dict[str, Any]) -> tuple[Tool, BaseModel]:
        """Resolve the name and validate the arguments; ToolError when either is wrong."""
        tool = self.get(name)
        if tool is None:
            known = ", ".join(self.names())
            raise ToolError(
                ToolErrorType.INVALID_ARGUMENT, f"unknown tool {name!r}", f"Available tools: {known}"
            )
        from pydantic import ValidationError

        try:
            return tool, tool.args.model_validate(renamed(tool.args, arguments))
        except ValidationError as error:
            raise ToolError(ToolErrorType.INVALID_ARGUMENT, validation_message(error)) from error

    async def call(self, name: str, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
        """Run one call. Errors the model caused come back as failed results; bugs raise."""
        try:
            tool, args = self.validate(name, arguments)
            return await tool.run(context, args)
        except ToolError as error:
            return ToolResult.from_error(error)
