"""The offline demo model does real agent work in every dialect (the client-tools note's three scenarios and
more)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agentlite.demo import DemoModel
from agentlite.engine import Engine
from agentlite.engine.model_link import ModelLink
from agentlite.engine.strategy import Backoff
from agentlite.events import TextDelta
from agentlite.page_jobs import ScriptedSandbox, js_result
from agentlite.problems.problem_watch import ProblemWatch
from agentlite.settings import Settings
from agentlite.stream.decoder import DIALECTS, StreamDecoder
from agentlite.tools.context import ToolContext
from agentlite.transport import HttpRequest, ScriptedResponse, ScriptedTransport
from agentlite.workspace import MemoryStorage, Workspace
from tests.unit.engine.support import turn_options

APP = "export default function App() {\n  return <h1>Old Title</h1>;\n}\n"


def primes_sandbox() -> ScriptedSandbox:
    def handler(kind: str, payload: dict[str, Any], _timeout_ms: int) -> dict[str, Any]:
        assert kind == "js" and "isPrime" in payload["code"]
        return js_result(76127)

    return ScriptedSandbox(handler)


async def _sleep(_seconds: float) -> None:
    await asyncio.sleep(0)


class Paced(ScriptedResponse):
    """A response that lets the event loop run between chunks, as a network stream does."""

    async def chunks(self):  # type: ignore[no-untyped-def, override]
        async for part in super().chunks():
            await asyncio.sleep(0)
            yield part


def paced_demo() -> ScriptedTransport:
    model = DemoModel(0)

    def respond(request: HttpRequest) -> ScriptedResponse:
        reply = model(request)
        return Paced(reply.status, reply.body, reply.headers)

    return ScriptedTransport(respond)


def run(
    text: str, dialect: str = "native", approve: bool = True, **options: Any
) -> tuple[list[dict], Workspace]:
    files = {"/src/App.tsx": APP, "/src/index.tsx": 'import App from "./App";\n'}
    return run_demo(text, primes_sandbox(), dialect, approve, files, ["js"], **options)


def run_demo(
    text: str,
    sandbox: ScriptedSandbox,
    dialect: str = "native",
    approve: bool = True,
    files: dict[str, str] | None = None,
    auto_approve: list[str] | None = None,
    problems: bool = False,
    **options: Any,
) -> tuple[list[dict], Workspace]:
    """One turn of the paced demo model on a fresh workspace holding `files`; approvals answered. With
    `problems`, the tools ask the sandbox's `problems` jobs as the page's checkers (docs/problems.md)."""

    async def scenario() -> tuple[list[dict[str, Any]], Workspace]:
        workspace = await Workspace.open(MemoryStorage())
        for path, content in (files or {}).items():
            await workspace.write_text(path, content)
        watch = ProblemWatch(sandbox) if problems else None

        def context(turn_id: str, _open_file: str | None, save_summary: Any) -> ToolContext:
            return ToolContext(workspace, turn_id, sandbox=sandbox, save_summary=save_summary, problems=watch)

        factory = context if problems else None
        engine = Engine(
            workspace=workspace, sandbox=sandbox, sleep=_sleep, backoff=Backoff(), context_factory=factory
        )
        events: list[dict[str, Any]] = []

        def emit(event: dict[str, Any]) -> None:
            events.append(event)
            if event["kind"] == "approval":
                asyncio.get_running_loop().call_soon(chat.approve, event["id"], approve)

        chat = engine.chat("demo", emit)
        if auto_approve:
            chat.configure(auto_approve=auto_approve)
        chat.start_turn(
            text, ModelLink.of(Settings(dialect=dialect), paced_demo()), turn_options(chat, options)
        )
        assert chat.task is not None
        await chat.task
        return events, workspace

    return asyncio.run(scenario())


def text_of(events: list[dict[str, Any]]) -> str:
    return "".join(e["text"] for e in events if e["kind"] == "text")


def finished(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["name"], e["status"]) for e in events
            if e["kind"] == "tool_status" and e["status"] in ("completed", "failed", "rejected")]  # fmt: skip


def test_hello_introduces_the_demo_model() -> None:
    events, _ws = run("hello")
    assert "demo model" in text_of(events)
    assert finished(events) == []


@pytest.mark.parametrize("dialect", DIALECTS)
def test_primes_are_summed_in_the_sandbox(dialect: str) -> None:
    events, _ws = run("What is the sum of all primes below 1000?", dialect)
    assert finished(events) == [("browser_js_eval", "completed")]
    assert "76127" in text_of(events)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_button_component_is_created(dialect: str) -> None:
    events, ws = run("Create a simple React component Button.tsx", dialect)
    assert finished(events) == [("create_file", "completed")]
    assert "export default function Button" in str(asyncio.run(ws.read_text("/src/Button.tsx")))


@pytest.mark.parametrize("dialect", DIALECTS)
def test_list_read_write_changes_the_title_with_a_plan(dialect: str) -> None:
    events, ws = run("Look at the src folder and change the title in App.tsx to 'Hello World'", dialect)
    assert finished(events) == [("list_directory", "completed"), ("read_file", "completed"),
                                ("edit_file", "completed")]  # fmt: skip
    assert "<h1>Hello World</h1>" in str(asyncio.run(ws.read_text("/src/App.tsx")))
    plans = [e for e in events if e["kind"] == "plan"]
    assert plans and all(step["done"] for step in plans[-1]["steps"])
    assert [v["op"] for v in asyncio.run(ws.history("/src/App.tsx"))][-1] == "edit"


def test_the_edit_can_be_undone() -> None:
    _events, ws = run("change the title of App.tsx")
    asyncio.run(ws.undo("/src/App.tsx"))
    assert asyncio.run(ws.read_text("/src/App.tsx")) == APP


@pytest.mark.parametrize("approve", [True, False])
def test_delete_asks_first(approve: bool) -> None:
    events, ws = run("delete /src/index.tsx", approve=approve)
    assert [e["name"] for e in events if e["kind"] == "approval"] == ["delete_file"]
    exists = asyncio.run(ws.exists("/src/index.tsx"))
    assert exists is not approve
    assert ("Deleted" in text_of(events)) is approve


def test_search_reports_matches() -> None:
    events, _ws = run("search for App")
    assert finished(events) == [("search", "completed")]
    assert "/src/App.tsx:1" in text_of(events)


@pytest.mark.parametrize("dialect", ["ndjson", "ndjson-text", "native"])
def test_a_long_file_shows_as_a_live_preview(dialect: str) -> None:
    events, ws = run("write a long file", dialect)
    previews = [e for e in events if e["kind"] == "tool_preview" and e["field"] == "content"]
    assert len(previews) >= 3 and previews[-1]["text"].count("\n") >= 150
    assert str(asyncio.run(ws.read_text("/notes/long-notes.md"))).count("\n") >= 150


def test_in_ndjson_a_tool_runs_while_the_reply_still_streams() -> None:
    events, _ws = run("write a long file", "ndjson")
    kinds = [(e["kind"], e.get("status")) for e in events]
    executing = kinds.index(("tool_status", "executing"))
    finish = kinds.index(("finish", None))
    assert executing < finish


def test_rate_limit_is_retried_after_the_wait_the_endpoint_asked_for() -> None:
    events, _ws = run("show me a rate limit")
    retries = [e for e in events if e["kind"] == "retry"]
    assert [(r["error_type"], r["wait_s"]) for r in retries] == [("rate_limit", 1.0)]
    assert "rate limited once" in text_of(events)


def test_thinking_is_shown_apart() -> None:
    events, _ws = run("think about naming")
    assert any(e["kind"] == "thinking" for e in events)


def test_chat_mode_does_not_touch_files() -> None:
    events, ws = run("Create a Button component", mode="chat")
    assert finished(events) == []
    assert "Agent mode" in text_of(events)
    assert not asyncio.run(ws.exists("/src/Button.tsx"))


def test_the_demo_answers_summary_requests() -> None:
    from agentlite.engine.budget import summary_request
    from agentlite.engine.history import Message

    body = {"model": "demo", "messages": summary_request("", [Message("user", "fix the bug")])}
    response = DemoModel(0)(HttpRequest("POST", "demo:/chat/completions", {}, body))
    decoder = StreamDecoder("native", [])
    events = [e for part in response.body for e in decoder.feed(part)] + decoder.close()
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert text.startswith("Goal: fix the bug\nDone:")


def test_a_bare_request_without_a_system_prompt_gets_the_greeting() -> None:
    body = {"model": "demo", "messages": [{"role": "user", "content": "hello"}]}
    response = DemoModel(0)(HttpRequest("POST", "demo:/chat/completions", {}, body))
    decoder = StreamDecoder("native", [])
    events = [e for part in response.body for e in decoder.feed(part)] + decoder.close()
    assert "demo model" in "".join(e.text for e in events if isinstance(e, TextDelta))
