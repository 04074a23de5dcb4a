"""The agent service: page messages in, events and replies out (fakes for workspace and transport)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from agentlite.commands import PageSettings
from agentlite.demo import demo_transport
from agentlite.engine.budget import DEFAULT_WINDOW
from agentlite.service import AgentService
from agentlite.settings import Settings
from agentlite.transport import HttpRequest, ScriptedResponse, ScriptedTransport
from agentlite.workspace.storage import MemoryStorage
from tests.unit.engine.support import say


class FakeWorkspace:
    def __init__(self) -> None:
        self.files: dict[str, str] = {}

    async def read_text(self, path: str) -> str | None:
        return self.files.get(path)

    async def write_text(self, path: str, text: str, author: str = "user") -> None:
        self.files[path] = text

    async def list(self, path: str = "/", recursive: bool = False) -> list[dict[str, str]]:
        return [{"path": p, "kind": "file"} for p in sorted(self.files)]

    async def history(self, path: str) -> list[dict[str, Any]]:
        return [{"version": 1, "op": "create"}] if path in self.files else []

    async def stat(self, path: str) -> dict[str, Any] | None:
        return {"path": path, "kind": "file"} if path in self.files else None


def make_service() -> tuple[AgentService, list[dict[str, Any]], list[Settings]]:
    posted: list[dict[str, Any]] = []
    seen: list[Settings] = []

    def transport_for(settings: Settings) -> Any:
        seen.append(settings)
        return demo_transport(delay=0)

    return AgentService(posted.append, FakeWorkspace(), transport_for), posted, seen


def call(service: AgentService, method: str, args: dict[str, Any], call_id: int = 0) -> None:
    """The page's way to ask: one CALL message."""
    service.handle(json.dumps({"type": "call", "id": call_id, "method": method, "args": args}))


def send(service: AgentService, args: dict[str, Any]) -> None:
    call(service, "chats.send", args)


def apply_settings(service: AgentService, settings: dict[str, Any]) -> None:
    call(service, "settings.apply", {"settings": settings})


async def drain(service: AgentService) -> None:
    for _ in range(200):
        pending = [c.task for c in service.chats.values() if c.task is not None and not c.task.done()]
        pending += list(service.tasks)
        if not pending:
            return
        await asyncio.wait(pending)


def test_calls_are_answered_with_replies() -> None:
    service, posted, _ = make_service()

    async def scenario() -> None:
        service.handle(
            json.dumps(
                {"type": "call", "id": 1, "method": "vfs.writeText", "args": {"path": "/a", "text": "x"}}
            )
        )
        await drain(service)
        service.handle(
            json.dumps({"type": "call", "id": 2, "method": "vfs.readText", "args": {"path": "/a"}})
        )
        service.handle(json.dumps({"type": "call", "id": 3, "method": "nope", "args": {}}))
        await drain(service)

    asyncio.run(scenario())
    replies = {m["id"]: m for m in posted if m["type"] == "reply"}
    assert replies[1] == {"type": "reply", "id": 1, "ok": True, "value": None}
    assert replies[2]["value"] == "x"
    assert replies[3]["ok"] is False and "nope" in replies[3]["error"]


def test_send_runs_a_turn_with_the_current_settings() -> None:
    service, posted, seen = make_service()

    async def scenario() -> None:
        apply_settings(service, {"model": "demo", "dialect": "json"})
        send(service, {"id": "chat-2", "text": "hello", "mode": "agent"})
        await drain(service)

    asyncio.run(scenario())
    assert seen[0].dialect == "json"
    events = [m for m in posted if m["type"] == "event"]
    assert {m["chat"] for m in events} == {"chat-2"}
    kinds = [m["event"]["kind"] for m in events]
    assert "message_start" in kinds and kinds[-1] == "turn_end"
    assert "demo model" in "".join(m["event"].get("text", "") for m in events)


class Endpoint:
    """A fake OpenAI-compatible endpoint: /models with a context length, /embeddings (or 404), replies."""

    def __init__(self, window: int | None = 65_536, embeddings: bool = True) -> None:
        self.window, self.embeddings = window, embeddings
        self.transport = ScriptedTransport(self.answer)

    def answer(self, request: HttpRequest) -> ScriptedResponse:
        if request.url.endswith("/models"):
            entry: dict[str, Any] = {"id": "m1", "object": "model"}
            if self.window:
                entry["context_length"] = self.window
            return ScriptedResponse(200, [json.dumps({"data": [entry]}).encode()])
        if request.url.endswith("/embeddings"):
            if not self.embeddings:
                return ScriptedResponse(404, [b'{"error": {"message": "no such route"}}'])
            assert request.body is not None
            data = [
                {"index": i, "embedding": [1.0, float(len(t))]} for i, t in enumerate(request.body["input"])
            ]
            return ScriptedResponse(200, [json.dumps({"data": data}).encode()])
        return say("Hello from the endpoint.")

    def paths(self) -> list[str]:
        return [r.url.rsplit("/", 1)[1] for r in self.transport.requests]


def endpoint_service(endpoint: Endpoint) -> tuple[AgentService, list[dict[str, Any]]]:
    posted: list[dict[str, Any]] = []
    backend = MemoryStorage()
    backend.data.setdefault("memory", {})
    service = AgentService(posted.append, FakeWorkspace(), lambda _s: endpoint.transport, storage=backend)
    return service, posted


def configure(service: AgentService, **values: Any) -> None:
    settings = {"base_url": "http://model.test/v1", "model": "m1", "dialect": "native", **values}
    apply_settings(service, settings)


def context_windows(posted: list[dict[str, Any]]) -> set[int]:
    return {m["event"]["window"] for m in posted if m["type"] == "event" and m["event"]["kind"] == "context"}


def test_the_models_listed_context_window_is_the_turns_window() -> None:
    endpoint = Endpoint(window=65_536)
    service, posted = endpoint_service(endpoint)

    async def scenario() -> None:
        configure(service)
        await drain(service)
        send(service, {"id": "c", "text": "hello", "mode": "chat"})
        await drain(service)

    asyncio.run(scenario())
    assert endpoint.paths()[0] == "models"
    assert service.chats["c"].settings.context_window == 65_536
    assert context_windows(posted) == {65_536}


def test_a_window_the_user_set_wins_over_the_listing() -> None:
    endpoint = Endpoint(window=65_536)
    service, _ = endpoint_service(endpoint)

    async def scenario() -> tuple[int, int]:
        configure(service, context_window=20_000)
        await drain(service)
        in_settings = service.rooms.settings.context_window()
        send(service, {"id": "c", "text": "hi"})
        await drain(service)
        return in_settings, service.chats["c"].settings.context_window

    assert asyncio.run(scenario()) == (20_000, 20_000)


def test_a_send_carrying_a_settings_key_is_refused() -> None:
    """Limits change with the settings only: a message that tries to carry one starts no turn."""
    service, posted, _ = make_service()

    async def scenario() -> None:
        call(service, "chats.send", {"id": "c", "text": "hi", "context_window": 12_000}, call_id=5)
        await drain(service)

    asyncio.run(scenario())
    reply = next(m for m in posted if m["type"] == "reply")
    assert reply["ok"] is False and "context_window" in reply["error"]
    assert not [m for m in posted if m["type"] == "event"]


def test_without_a_listed_window_the_default_applies_and_is_asked_again_later() -> None:
    endpoint = Endpoint(window=None)
    service, _ = endpoint_service(endpoint)

    async def scenario() -> int:
        configure(service)
        await drain(service)
        configure(service)
        await drain(service)
        return service.rooms.settings.context_window()

    assert asyncio.run(scenario()) == DEFAULT_WINDOW
    assert endpoint.paths() == ["models", "models"]


def test_a_connection_test_teaches_the_listed_window() -> None:
    """Testing an endpoint that lists its window is enough: the next turn on it uses that window."""
    endpoint = Endpoint(window=131_072)
    service, _ = endpoint_service(endpoint)
    form = {"base_url": "http://model.test/v1", "model": "m1", "dialect": "native"}

    async def scenario() -> int:
        service.handle(
            json.dumps({"type": "call", "id": 7, "method": "connection.test", "args": {"settings": form}})
        )
        await drain(service)
        return service.rooms.settings.windows[("http://model.test/v1", "m1")]

    assert asyncio.run(scenario()) == 131_072


def test_the_demo_model_asks_nothing_and_uses_no_embeddings() -> None:
    endpoint = Endpoint()
    service, _ = endpoint_service(endpoint)
    service.rooms.settings.apply(PageSettings.from_message({"model": "demo", "embedding_model": "e5"}))
    assert service.engine.memory is not None and service.engine.memory.embedder is None
    assert endpoint.paths() == [] and service.rooms.settings.context_window() == DEFAULT_WINDOW


def test_an_embedding_model_ranks_memories_through_the_endpoint() -> None:
    endpoint = Endpoint()
    service, _ = endpoint_service(endpoint)

    async def scenario() -> None:
        configure(service)
        assert service.engine.memory is not None and service.engine.memory.embedder is None
        configure(service, embedding_model="e5")
        await service.engine.memory.add("The project uses esbuild")
        send(service, {"id": "c", "text": "build it", "mode": "chat"})
        await drain(service)

    asyncio.run(scenario())
    embeddings = [r for r in endpoint.transport.requests if r.url.endswith("/embeddings")]
    assert len(embeddings) == 1 and embeddings[0].body == {
        "model": "e5",
        "input": ["build it", "The project uses esbuild"],
    }


def test_embeddings_the_endpoint_lacks_fall_back_to_keywords_without_an_error() -> None:
    endpoint = Endpoint(embeddings=False)
    service, posted = endpoint_service(endpoint)

    async def scenario() -> None:
        configure(service, embedding_model="e5")
        assert service.engine.memory is not None
        await service.engine.memory.add("The project uses esbuild")
        for text in ("use esbuild", "and esbuild again"):
            send(service, {"id": "c", "text": text, "mode": "chat"})
            await drain(service)
            configure(service, embedding_model="e5")  # saved again: the failure is remembered

    asyncio.run(scenario())
    assert endpoint.paths().count("embeddings") == 1
    kinds = [m["event"]["kind"] for m in posted if m["type"] == "event"]
    assert "turn_error" not in kinds and kinds.count("turn_end") == 2
    requests = [r for r in endpoint.transport.requests if r.url.endswith("/chat/completions")]
    assert "The project uses esbuild" in json.dumps(requests[0].body), "the fact was found by keywords"


def test_page_messages_edit_switch_export_and_import_a_chat() -> None:
    service, posted, _ = make_service()

    def call(call_id: int, method: str, **args: Any) -> None:
        service.handle(json.dumps({"type": "call", "id": call_id, "method": method, "args": args}))

    async def scenario() -> None:
        send(service, {"id": "c", "text": "hello"})
        await drain(service)
        first = service.chat("c").messages[0].id
        send(service, {"id": "c", "text": "hi there", "edit": first})
        await drain(service)
        call(1, "chats.switch", id="c", message=first, index=0)
        await drain(service)
        call(2, "chats.export", id="c", format="json")
        call(3, "chats.export", id="c", format="markdown")
        await drain(service)
        exported = next(m for m in posted if m.get("id") == 2)["value"]["text"]
        call(4, "chats.import", text=exported)
        call(5, "chats.import", text="{}")
        await drain(service)

    asyncio.run(scenario())
    replies = {m["id"]: m for m in posted if m["type"] == "reply"}
    switched = replies[1]["value"]["messages"]
    assert [m["content"] for m in switched if m["role"] == "user"] == ["hello"]
    assert (switched[0]["branch"], switched[0]["branches"]) == (1, 2)
    assert replies[2]["value"]["name"] == "hello.json"
    assert replies[3]["value"]["name"] == "hello.md" and "hi there" in replies[3]["value"]["text"]
    copy = replies[4]["value"]
    assert copy["id"] != "c" and copy["id"] in service.chats
    assert [m["content"] for m in copy["messages"] if m["role"] == "user"] == ["hello"]
    assert replies[5]["ok"] is False and "not an AgentLite chat export" in replies[5]["error"]


def test_the_restore_point_of_an_edit_is_the_first_turn_from_that_message_that_changed_files() -> None:
    service, _posted, _ = make_service()
    changed: list[dict[str, str]] = []

    async def turns() -> list[dict[str, str]]:
        return changed

    service.workspace.turns = turns

    async def scenario() -> list[str | None]:
        for text in ("hello", "again", "more"):
            send(service, {"id": "c", "text": text})
            await drain(service)
        first, second, third = [m for m in service.chat("c").messages if m.role == "user"]
        changed.append({"turn": str(second.turn)})
        return [
            await service.calls.dispatch("chats.restorePoint", {"id": "c", "message": m.id})
            for m in (first, second, third)
        ]

    points = asyncio.run(scenario())
    assert points[0] == points[1] == changed[0]["turn"]
    assert points[2] is None  # nothing changed from the last message on: no offer
