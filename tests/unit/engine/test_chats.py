"""Chat tabs: persisted and restored, independent states and modes, sharing one workspace safely."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from agentlite.demo import demo_transport
from agentlite.demo.replies import text_reply
from agentlite.engine import Engine
from agentlite.engine.model_link import ModelLink
from agentlite.engine.turn_deps import TurnOptions
from agentlite.settings import Settings
from agentlite.transport import ScriptedResponse, ScriptedTransport
from agentlite.workspace import MemoryStorage, Workspace
from tests.unit.engine.support import SETTINGS, Harness, calls, say, until
from tests.unit.workspace.helpers import YieldingStorage

DEMO = Settings(dialect="native")


def storage() -> MemoryStorage:
    backend = MemoryStorage()
    for store in ("chats", "memory"):
        backend.data.setdefault(store, {})
    return backend


async def workspace_engine(backend: MemoryStorage) -> tuple[Engine, Workspace]:
    workspace = await Workspace.open(backend)
    return Engine(workspace=workspace, storage=backend), workspace


def test_chats_are_saved_and_restored_after_a_reload() -> None:
    backend = storage()

    async def first_session() -> None:
        engine, _ws = await workspace_engine(backend)
        chat = engine.chat("tab-1", lambda _e: None)
        chat.start_turn("hello", ModelLink.of(DEMO, demo_transport(0)), TurnOptions(mode="agent"))
        assert chat.task is not None
        await chat.task
        other = engine.chat("tab-2", lambda _e: None)
        other.start_turn("hello again", ModelLink.of(DEMO, demo_transport(0)), TurnOptions(mode="chat"))
        assert other.task is not None
        await other.task
        await engine.save_tabs(["tab-2", "tab-1"], "tab-1")

    async def second_session() -> dict[str, Any]:
        engine, _ws = await workspace_engine(backend)
        return await engine.restore(lambda _chat_id: lambda _event: None)

    asyncio.run(first_session())
    restored = asyncio.run(second_session())
    assert [c["id"] for c in restored["chats"]] == ["tab-2", "tab-1"]
    assert restored["active"] == "tab-1"
    tab2, tab1 = restored["chats"]
    assert tab1["title"] == "hello" and tab1["settings"]["mode"] == "agent"
    assert tab2["settings"]["mode"] == "chat"
    assert [m["role"] for m in tab1["messages"]] == ["user", "assistant"]
    assert "demo model" in tab1["messages"][1]["content"]
    assert tab1["state"] == "idle"


def test_a_restored_chat_continues_with_its_history_and_new_turn_ids() -> None:
    backend = storage()

    async def scenario() -> tuple[list[str], int]:
        engine, _ws = await workspace_engine(backend)
        chat = engine.chat("t", lambda _e: None)
        chat.start_turn("hello", ModelLink.of(DEMO, demo_transport(0)))
        assert chat.task is not None
        await chat.task
        first_turn = chat.messages[0].turn
        engine2, _ws2 = await workspace_engine(backend)
        await engine2.restore(lambda _c: lambda _e: None)
        again = engine2.sessions["t"]
        again.start_turn("hello", ModelLink.of(DEMO, demo_transport(0)))
        assert again.task is not None
        await again.task
        return [str(first_turn), str(again.messages[2].turn)], len(again.messages)

    (first, second), count = asyncio.run(scenario())
    assert first != second and first.endswith("-t1") and second.endswith("-t2")
    assert count == 4


def test_closing_a_tab_forgets_it() -> None:
    backend = storage()

    async def scenario() -> list[Any]:
        engine, _ws = await workspace_engine(backend)
        chat = engine.chat("gone", lambda _e: None)
        chat.start_turn("hello", ModelLink.of(DEMO, demo_transport(0)))
        assert chat.task is not None
        await chat.task
        await engine.close_chat("gone")
        return (await engine.restore(lambda _c: lambda _e: None))["chats"]

    assert asyncio.run(scenario()) == []


def test_every_agent_change_is_attributed_to_its_turn() -> None:
    backend = storage()

    async def scenario() -> tuple[str, list[dict[str, Any]]]:
        engine, workspace = await workspace_engine(backend)
        await workspace.write_text(
            "/src/App.tsx", "export default function App() {\n  return <h1>Old</h1>;\n}\n"
        )
        chat = engine.chat("c", lambda _e: None)
        chat.start_turn("change the title of App.tsx to 'New'", ModelLink.of(DEMO, demo_transport(0)))
        assert chat.task is not None
        await chat.task
        turn = str(chat.messages[0].turn)
        assert "<h1>New</h1>" in str(await workspace.read_text("/src/App.tsx"))
        return turn, await workspace.history("/src/App.tsx")

    turn, history = asyncio.run(scenario())
    assert history[-1]["turn"] == turn


def test_two_tabs_run_at_once_and_share_the_workspace_through_its_locks() -> None:
    backend = storage()

    async def scenario() -> tuple[list[str], str]:
        engine, workspace = await workspace_engine(backend)
        seen: list[str] = []
        a = engine.chat("a", lambda e: seen.append(f"a:{e['kind']}"))
        b = engine.chat("b", lambda e: seen.append(f"b:{e['kind']}"))
        a.start_turn("Create a Button component", ModelLink.of(DEMO, demo_transport(0)))
        b.start_turn("write a long file", ModelLink.of(DEMO, demo_transport(0)))
        assert a.task is not None and b.task is not None
        await asyncio.gather(a.task, b.task)
        states = [a.state.value, b.state.value]
        assert await workspace.read_text("/src/Button.tsx")
        assert await workspace.read_text("/notes/long-notes.md")
        order = "".join(s[0] for s in seen if s.endswith(":text"))
        return states, order

    states, order = asyncio.run(scenario())
    assert states == ["idle", "idle"]
    assert "ab" in order or "ba" in order  # their streams interleave


def test_each_tab_keeps_its_own_state_and_mode() -> None:
    h = Harness([say("one")])
    chat = h.setup()
    assert h.engine is not None
    other = h.engine.chat("c2", lambda _e: None)
    other.configure(mode="chat", max_rounds=3)
    assert chat.settings.mode == "agent" and other.settings.mode == "chat"
    assert h.engine.chat("c2", lambda _e: None) is other
    h.run()
    assert other.state.value == "idle" and other.messages == []


def test_settings_are_checked() -> None:
    h = Harness([say("x")])
    chat = h.setup()
    applied = chat.configure(mode="nonsense", max_rounds=0, auto_approve=True, context_window=8192)
    assert applied["mode"] == "agent" and applied["max_rounds"] == 1
    assert set(applied["auto_approve"]) == {"batch", "delete", "instructions", "js", "overwrite", "shell"}
    assert applied["context_window"] == 8192


def test_the_snapshot_hides_engine_notes() -> None:
    from tests.unit.engine.support import cut

    h = Harness([cut("half "), say("whole")]).run()
    assert h.chat is not None
    snapshot = h.chat.snapshot()
    assert [m["role"] for m in snapshot["messages"]] == ["user", "assistant", "assistant"]
    assert all("context" not in m for m in snapshot["messages"])


def test_a_storage_failure_does_not_break_the_chat() -> None:
    backend = storage()
    events: list[dict[str, Any]] = []

    async def scenario() -> str:
        engine, _ws = await workspace_engine(backend)
        backend.fail_commit(kind="quota")
        chat = engine.chat("c", events.append)
        chat.start_turn("hello", ModelLink.of(DEMO, demo_transport(0)))
        assert chat.task is not None
        await chat.task
        return chat.state.value

    assert asyncio.run(scenario()) == "idle"
    assert any(e["kind"] == "notice" for e in events)


def test_memory_is_taken_from_plain_statements_and_offered_later() -> None:
    backend = storage()

    async def scenario() -> str:
        engine, _ws = await workspace_engine(backend)
        transport = demo_transport(0)
        chat = engine.chat("c", lambda _e: None)
        chat.start_turn("remember that the deploy target is Netlify", ModelLink.of(SETTINGS, transport))
        assert chat.task is not None
        await chat.task
        other = engine.chat("d", lambda _e: None)
        other.start_turn("where do we deploy?", ModelLink.of(SETTINGS, transport))
        assert other.task is not None
        await other.task
        return str(transport.requests[-1].body)

    assert "The deploy target is Netlify" in asyncio.run(scenario())


def test_tool_calls_from_a_chat_use_the_workspace_tools() -> None:
    h = Harness([calls(("read_file", {"path": "/a"})), say("ok")]).run()
    assert h.tools.ran


def test_two_tabs_editing_the_same_file_take_turns() -> None:
    from agentlite.transport import ScriptedTransport
    from tests.unit.engine.support import until

    h = Harness([calls(("edit_file", {"path": "/x"})), say("a done")])
    h.tools.gates["edit_file"] = gate = asyncio.Event()
    first = h.setup()
    assert h.engine is not None
    second = h.engine.chat("c2", lambda _e: None)
    other = ScriptedTransport.of(calls(("edit_file", {"path": "/x"})), say("b done"))

    async def scenario() -> int:
        first.start_turn("edit", ModelLink.of(SETTINGS, h.transport))  # type: ignore[arg-type]
        second.start_turn("edit too", ModelLink.of(SETTINGS, other))
        await until(lambda: h.tools.active == 1 and h.engine is not None and h.engine.locks.busy("/x"))
        for _ in range(50):
            await asyncio.sleep(0)
        waiting = h.tools.active
        gate.set()
        assert first.task is not None and second.task is not None
        await asyncio.gather(first.task, second.task)
        return waiting

    assert asyncio.run(scenario()) == 1  # the second edit of /x waited for the first
    assert h.tools.most_active == 1 and len(h.tools.ran) == 2


def test_at_mentions_attach_existing_files() -> None:
    backend = storage()

    async def scenario() -> str:
        engine, workspace = await workspace_engine(backend)
        await workspace.write_text("/docs/spec.md", "THE SPEC")
        transport = demo_transport(0)
        chat = engine.chat("c", lambda _e: None)
        chat.start_turn("what does @docs/spec.md say? and @missing.txt", ModelLink.of(DEMO, transport))
        assert chat.task is not None
        await chat.task
        assert [r.path for r in chat.memo.pinned] == ["/docs/spec.md"]
        return str(transport.requests[0].body)

    assert "Reference 1: file (Source: /docs/spec.md)\\nTHE SPEC" in asyncio.run(scenario())


def test_settings_changes_are_saved() -> None:
    backend = storage()

    async def scenario() -> dict[str, Any]:
        engine, _ws = await workspace_engine(backend)
        await engine.chat("c", lambda _e: None).apply_settings(mode="chat", max_rounds=4)
        engine2, _ws2 = await workspace_engine(backend)
        return (await engine2.restore(lambda _c: lambda _e: None))["chats"][0]["settings"]

    settings = asyncio.run(scenario())
    assert settings["mode"] == "chat" and settings["max_rounds"] == 4


def test_a_saved_chat_keeps_no_second_copy_of_a_huge_file_argument() -> None:
    from agentlite.engine.chats import KEEP_ARGUMENT, slim

    big = "x" * (KEEP_ARGUMENT + 1)
    call = {"id": "c1", "name": "create_file", "arguments": {"path": "/big.txt", "content": big}}
    record = {"id": "a", "messages": [{"role": "assistant", "tool_calls": [call]}, {"role": "user"}]}
    saved = slim(record)["messages"][0]["tool_calls"][0]["arguments"]
    assert saved["path"] == "/big.txt"
    assert len(saved["content"]) < 3000 and "not kept in the saved chat" in saved["content"]
    assert record["messages"][0]["tool_calls"][0]["arguments"]["content"] == big  # the live chat is untouched


def test_a_turn_is_saved_round_by_round_not_only_at_its_end() -> None:
    """A page closed in the middle of a turn keeps the user's message and every finished round."""
    backend = storage()

    async def scenario() -> tuple[list[str], list[str]]:
        engine, _ws = await workspace_engine(backend)
        chat = engine.chat("tab-1", lambda _e: None)
        chat.start_turn(
            "create a Button component", ModelLink.of(DEMO, demo_transport(0.05)), TurnOptions(mode="agent")
        )
        seen: list[list[str]] = []
        while chat.task is not None and not chat.task.done():
            record = backend.data["chats"].get("chat:tab-1")
            if record is not None:
                seen.append([m["role"] for m in json.loads(record)["messages"]])
            await asyncio.sleep(0.01)
        return seen[0], max(seen, key=len)

    first, longest = asyncio.run(scenario())
    assert first == ["user"]
    assert "tool" in longest  # a finished round was saved while the turn still ran


def test_closing_a_tab_mid_turn_deletes_it_for_good_and_silences_it() -> None:
    backend = storage()
    slow = ScriptedResponse(body=text_reply("a b c d e f g h i j k l m n o p"), delay=0.001)
    h = Harness([calls(("create_file", {"path": "/f"})), slow])

    async def scenario() -> int:
        chat = h.setup(storage=backend)
        assert h.engine is not None and h.transport is not None
        chat.start_turn("go", ModelLink.of(SETTINGS, h.transport))
        await until(lambda: len(h.of("text")) >= 3)  # the second round streams; the first was saved
        assert "chat:c1" in backend.data["chats"]
        await h.engine.close_chat("c1")
        closed_at = len(h.events)
        assert chat.task is not None
        await asyncio.gather(chat.task, return_exceptions=True)
        await h.engine.save_chat(chat)  # a late save of the closed chat changes nothing
        return closed_at

    closed_at = asyncio.run(scenario())
    assert "chat:c1" not in backend.data["chats"], "the closed chat was saved again after its deletion"
    assert h.events[closed_at:] == [], "the closed chat still sent events"
    assert not h.of("turn_end")


def test_what_the_user_does_while_the_saved_chats_load_waits_for_them() -> None:
    """The page asks for its saved tabs first, but a mode change and a message may come before they are
    read: both wait, so the mode is not undone by the saved one, the saved history is not emptied by
    the mode's save, and the turn's request carries that history."""
    backend = YieldingStorage()
    for store in ("chats", "memory"):
        backend.data.setdefault(store, {})

    async def scenario() -> tuple[list[str], str, list[list[str]]]:
        engine, _ws = await workspace_engine(backend)
        first = engine.chat("t", lambda _e: None)
        first.start_turn("Here are my notes.", ModelLink.of(DEMO, demo_transport(0)))
        assert first.task is not None
        await first.task
        engine2, _ws2 = await workspace_engine(backend)
        loading = asyncio.ensure_future(engine2.restore(lambda _c: lambda _e: None))
        again = engine2.chat("t", lambda _e: None)
        setting = asyncio.ensure_future(again.apply_settings(mode="chat"))
        transport = ScriptedTransport.of(say("ok"))
        again.start_turn("More notes.", ModelLink.of(SETTINGS, transport))
        await asyncio.gather(loading, setting)
        assert again.task is not None
        await again.task
        sent = [[m["role"] for m in (r.body or {})["messages"]] for r in transport.requests]
        return [m.role for m in again.messages], again.settings.mode, sent

    roles, mode, sent = asyncio.run(scenario())
    assert roles == ["user", "assistant", "user", "assistant"]
    assert mode == "chat"
    assert sent == [["system", "user", "assistant", "user"]]
