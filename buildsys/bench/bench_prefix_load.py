"""The `prefix_reuse` workload: the client-tools note's scenarios run through the real engine (a
workspace with files and an AGENTS.md, an open file in the editor, a pinned memory, the agent's tools)
against a scripted model, and every request it sends, rendered the way a provider reads it: the tool
definitions first, then the messages in order. Imports `agentlite`, so `bench_prefix` imports it once
`py/` is on the path.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from agentlite.demo.replies import Step as Reply
from agentlite.demo.replies import encode
from agentlite.engine import Engine
from agentlite.engine.model_link import ModelLink
from agentlite.engine.turn_deps import TurnOptions
from agentlite.page_jobs import ScriptedSandbox, js_result
from agentlite.settings import Settings
from agentlite.transport import ScriptedResponse, ScriptedTransport
from agentlite.workspace import MemoryStorage, Workspace
from buildsys.bench.bench_tokens import APP_OLD, Scenario

FILES = {
    "/AGENTS.md": "Use TypeScript and function components. Keep each component in its own file.\n",
    "/src/App.tsx": APP_OLD,
    "/src/index.tsx": 'import App from "./App";\n',
}
OPEN_FILE = "/src/App.tsx"
MEMORY = "The project uses React with TypeScript."
FOLLOW_UP = "谢谢！还有别的要注意的吗？"  # a second turn, with another file open: rounds go on across turns
FOLLOW_UP_ANSWER = "没有了，一切就绪。"


def rendered(body: dict[str, Any]) -> str:
    """A request as the model reads it: tools (native), then each message, in order."""
    tools = json.dumps(body.get("tools") or [], ensure_ascii=False)
    return tools + "".join(json.dumps(m, ensure_ascii=False) for m in body["messages"])


def replies(scenario: Scenario, dialect: str) -> list[ScriptedResponse]:
    steps = [Reply("", [(step.tool, step.arguments)]) for step in scenario.steps]
    said = [*steps, Reply(scenario.answer), Reply(FOLLOW_UP_ANSWER)]
    return [ScriptedResponse(body=encode(step, dialect)) for step in said]


async def _no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


async def _requests(scenario: Scenario, dialect: str) -> list[str]:
    storage = MemoryStorage()
    workspace = await Workspace.open(storage)
    for path, text in FILES.items():
        await workspace.write_text(path, text)
    sandbox = ScriptedSandbox(lambda _kind, _payload, _ms: js_result(76127))
    engine = Engine(workspace=workspace, sandbox=sandbox, storage=storage, sleep=_no_wait)
    assert engine.memory is not None
    await engine.memory.add(MEMORY, pinned=True)
    chat = engine.chat("bench", lambda _event: None)
    chat.configure(auto_approve=True)
    transport = ScriptedTransport.of(*replies(scenario, dialect))
    link = ModelLink.of(Settings(base_url="http://model.test/v1", model="m", dialect=dialect), transport)
    for text, open_file in ((scenario.user, OPEN_FILE), (FOLLOW_UP, "/src/index.tsx")):
        chat.start_turn(text, link, TurnOptions(open_file=open_file))
        assert chat.task is not None
        await chat.task
    return [rendered(request.body or {}) for request in transport.requests]


def requests(scenario: Scenario, dialect: str) -> list[str]:
    """Every request of the scenario's turn and a follow-up turn, rendered, in the order sent."""
    return asyncio.run(_requests(scenario, dialect))


def common_prefix(a: str, b: str) -> str:
    size = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        size += 1
    return a[:size]
