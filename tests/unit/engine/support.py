"""Helpers for the engine tests: scripted replies, small fake tools, and a chat that runs turns."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from agentlite.commands import SendMessage
from agentlite.demo.replies import Step, chunk, encode, text_reply
from agentlite.editor_state import EditorState
from agentlite.engine import Engine
from agentlite.engine.chat_events import KINDS
from agentlite.engine.model_link import ModelLink
from agentlite.engine.session import ChatSession
from agentlite.engine.strategy import Backoff
from agentlite.engine.turn_deps import TurnOptions
from agentlite.errors import ErrorType, ModelError
from agentlite.settings import Settings
from agentlite.tools.registry import Risk, Tool, ToolRegistry
from agentlite.tools.result import ToolResult
from agentlite.transport import HttpRequest, ScriptedResponse, ScriptedTransport

SETTINGS = Settings(base_url="http://model.test/v1", api_key="sk-test", model="m", dialect="native")


def say(text: str) -> ScriptedResponse:
    return ScriptedResponse(body=text_reply(text))


def calls(*items: tuple[str, dict[str, Any]], text: str = "", dialect: str = "native") -> ScriptedResponse:
    return ScriptedResponse(body=encode(Step(text, list(items)), dialect))


def cut(text: str, finish: str = "length") -> ScriptedResponse:
    body = [chunk({"role": "assistant", "content": ""}), chunk({"content": text}), chunk({}, finish=finish)]
    return ScriptedResponse(body=[*body, b"data: [DONE]\n\n"])


def http(status: int, message: str = "error", retry_after: str | None = None) -> ScriptedResponse:
    body = [json.dumps({"error": {"message": message}}).encode()]
    return ScriptedResponse(
        status=status, body=body, headers={"retry-after": retry_after} if retry_after else {}
    )


def dropped(text: str, after: int = 3) -> ScriptedResponse:
    failure = ModelError(ErrorType.NETWORK, "the connection dropped")
    return ScriptedResponse(body=text_reply(text), fail_after=after, failure=failure)


class PathArgs(BaseModel):
    path: str = "/"
    content: str = ""


@dataclass
class FakeTools:
    """Tools that record what ran; `gate` makes a tool wait until the test opens it."""

    ran: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    active: int = 0
    most_active: int = 0
    gates: dict[str, asyncio.Event] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)

    def tool(self, name: str, risk: Risk, fail: bool = False, asks: str = "") -> Tool:
        async def run(_context: Any, args: PathArgs) -> ToolResult:
            self.active += 1
            self.most_active = max(self.most_active, self.active)
            try:
                gate = self.gates.get(name)
                if gate is not None:
                    await gate.wait()
                await asyncio.sleep(0)
                self.ran.append((name, args.model_dump()))
                if fail:
                    return ToolResult.failure(_not_found(), f"no such file: {args.path}")
                return ToolResult.success(f"{name} ok: {args.path}", {"path": args.path})
            finally:
                self.active -= 1

        return Tool(name, f"The {name} tool.", PathArgs, run, risk, resource=lambda a: _path(a), asks=asks)

    def registry(self) -> ToolRegistry:
        return ToolRegistry(
            [
                self.tool("read_file", Risk.READ),
                self.tool("list_directory", Risk.READ),
                self.tool("create_file", Risk.CREATE),
                self.tool("edit_file", Risk.MODIFY),
                self.tool("write_file", Risk.MODIFY, asks="overwrite"),
                self.tool("delete_file", Risk.DESTRUCTIVE, asks="delete"),
                self.tool("shell_exec", Risk.EXECUTE, asks="shell"),
                self.tool("browser_js_eval", Risk.EXECUTE, asks="js"),
                self.tool("preview_page", Risk.EXECUTE, asks="js"),
                self.tool("missing_file", Risk.READ, fail=True),
            ]
        )


def _not_found() -> Any:
    from agentlite.tools.result import ToolErrorType

    return ToolErrorType.NOT_FOUND


def _path(args: Any) -> str | None:
    value = args.get("path") if isinstance(args, dict) else getattr(args, "path", None)
    return None if value is None else str(value)


@dataclass
class Harness:
    """One chat on an engine with fake tools, instant sleeps and a scripted transport."""

    responses: list[ScriptedResponse] | Callable[[HttpRequest], ScriptedResponse] = field(
        default_factory=list
    )
    tools: FakeTools = field(default_factory=FakeTools)
    events: list[dict[str, Any]] = field(default_factory=list)
    sleeps: list[float] = field(default_factory=list)
    existing: set[str] = field(default_factory=set)
    engine: Engine | None = None
    chat: ChatSession | None = None
    transport: ScriptedTransport | None = None
    on_event: Callable[[dict[str, Any]], None] | None = None

    def setup(self, **engine_options: Any) -> ChatSession:
        async def sleep(seconds: float) -> None:
            self.sleeps.append(seconds)
            await asyncio.sleep(0)

        import random

        self.engine = Engine(
            self.tools.registry(), sleep=sleep, backoff=Backoff(random.Random(7)), **engine_options
        )
        existing = self.existing

        async def exists(path: str) -> bool:
            return path in existing

        self.engine.exists = exists  # type: ignore[method-assign]
        self.chat = self.engine.chat("c1", self._emit)
        responder = self.responses
        self.transport = (
            ScriptedTransport(responder) if callable(responder) else ScriptedTransport.of(*responder)
        )
        return self.chat

    def _emit(self, event: dict[str, Any]) -> None:
        assert event["kind"] in KINDS, f"undocumented event kind {event['kind']!r}"
        json.dumps(event)  # every event must survive postMessage as JSON
        self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)

    async def turn(self, text: str = "hi", settings: Settings = SETTINGS, **options: Any) -> None:
        chat = self.chat or self.setup()
        assert self.transport is not None
        chat.start_turn(text, ModelLink.of(settings, self.transport), turn_options(chat, options))
        assert chat.task is not None
        await chat.task

    def run(self, text: str = "hi", settings: Settings = SETTINGS, **options: Any) -> Harness:
        asyncio.run(self.turn(text, settings, **options))
        return self

    # --- reading what happened ----------------------------------------------------------------------

    def kinds(self) -> list[str]:
        return [e["kind"] for e in self.events]

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["kind"] == kind]

    def states(self) -> list[str]:
        return [e["state"] for e in self.of("state")]

    def text(self) -> str:
        return "".join(e["text"] for e in self.of("text"))

    def statuses(self, call_id: str | None = None) -> list[tuple[str, str]]:
        return [(e["id"], e["status"]) for e in self.of("tool_status") if call_id in (None, e["id"])]

    def requests(self) -> list[dict[str, Any]]:
        assert self.transport is not None
        return [r.body or {} for r in self.transport.requests]

    def last_turn_end(self) -> dict[str, Any]:
        return self.of("turn_end")[-1]


def turn_options(chat: ChatSession, options: dict[str, Any]) -> TurnOptions:
    """The page's keys as a send carries them (checked by `SendMessage`); a chat limit goes to the chat."""
    limits = {k: options.pop(k) for k in ("auto_approve", "max_rounds") if k in options}
    chat.configure(**limits)
    return SendMessage.of(chat.id, "", editor=EditorState(), **options).options


def answer_when(
    kind: str, act: Callable[[ChatSession, dict[str, Any]], Any]
) -> Callable[[Harness], Callable[[dict[str, Any]], None]]:
    """An event hook: when an event of `kind` arrives, act on the chat (soon, like the page would)."""

    def hook(harness: Harness) -> Callable[[dict[str, Any]], None]:
        def on_event(event: dict[str, Any]) -> None:
            if event["kind"] == kind:
                assert harness.chat is not None
                chat = harness.chat
                asyncio.get_running_loop().call_soon(act, chat, event)

        return on_event

    return hook


async def until(predicate: Callable[[], bool], limit: int = 2000) -> None:
    """Let the loop run until `predicate` holds (bounded by iterations, never by wall-clock time)."""
    for _ in range(limit):
        if predicate():
            return
        await asyncio.sleep(0)
    raise AssertionError("condition never held")


Awaiter = Callable[[], Awaitable[None]]
