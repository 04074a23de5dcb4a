"""A project written as a hand-off file, read back and opened into a fresh storage is the same project,
byte for byte; the file carries no secret; the summary names what would steer the agent."""

from __future__ import annotations

import json

import pytest

from agentlite.engine.chats import SERVERS_KEY
from agentlite.handoff import HandoffRefused, open_handoff, read_handoff, write_handoff
from agentlite.handoff.handoff_format import MANIFEST
from agentlite.handoff.handoff_pack import PACK, unpack_blobs
from agentlite.workspace import Workspace
from agentlite.workspace.storage import STORES, MemoryStorage
from tests.unit.handoff.project import make_project, members

ATTACHED = {"a1": ("image/png", b"\x89PNG\r\n\x1a\nfake")}


def unheld(storage: MemoryStorage) -> dict[str, dict[str, object]]:
    """Every store as stored, the server book's `held` marks taken out (opening adds them)."""
    data = {store: dict(values) for store, values in storage.data.items()}
    book = data["chats"].get(SERVERS_KEY)
    if book is not None:
        items = [{k: v for k, v in item.items() if k != "held"} for item in json.loads(str(book))]
        data["chats"][SERVERS_KEY] = json.dumps(items)
    return data


async def test_a_project_comes_back_byte_for_byte() -> None:
    source = await make_project()
    data = await write_handoff(source, "Demo", ATTACHED, {"model": "m", "api_key": "sk-secret"})
    handoff = read_handoff(data)
    target = MemoryStorage()
    summary = await open_handoff(target, handoff)
    assert unheld(target) == unheld(source)
    assert set(target.data) == set(STORES)
    assert handoff.attachments == ATTACHED
    assert handoff.settings == {"model": "m"}
    assert summary["files"] == 4 and summary["chats"] == 2 and summary["memory"] == 1
    assert await (await Workspace.open(target)).check() == []


async def test_the_manifest_names_every_member_with_its_digest() -> None:
    source = await make_project()
    data = await write_handoff(source, "Demo", ATTACHED, {})
    files = members(data)
    manifest = json.loads(files[MANIFEST])
    assert manifest["format"] == "agentlite-handoff" and manifest["version"] == 1
    assert manifest["name"] == "Demo" and manifest["schema"] == 1 and manifest["created"]
    assert set(manifest["members"]) == set(files) - {MANIFEST}
    assert manifest["counts"]["versions"] == len(source.data["versions"])
    assert "stores/entries.jsonl" in files and PACK in files
    assert set(unpack_blobs(files[PACK])) == set(source.data["blobs"])


async def test_no_token_and_no_key_travel() -> None:
    """The server book in storage holds no token (the page keeps them), and settings lose every key named
    like a secret, at any depth."""
    source = await make_project()
    book = json.loads(str(source.data["chats"][SERVERS_KEY]))
    assert all("token" not in json.dumps(item).lower() for item in book)
    settings = {
        "apiKey": "k",
        "headers": {"Authorization": "Bearer x", "X-Org": "o"},
        "mcp_token": "t",
        "ok": 1,
        "key": "bare",
        "keyboard": "kept",
    }
    data = await write_handoff(source, "Demo", {}, settings)
    assert b"Bearer x" not in data and b'"k"' not in data
    assert read_handoff(data).settings == {"headers": {"X-Org": "o"}, "ok": 1, "keyboard": "kept"}


async def test_the_summary_lists_instructions_and_servers() -> None:
    source = await make_project()
    data = await write_handoff(source, "Demo", ATTACHED, {})
    summary = read_handoff(data).summary()
    assert summary["instructions"] == ["/AGENTS.md", "/.agents/skills/tidy/SKILL.md"]
    assert summary["servers"] == [{"url": "https://mcp.example.com/mcp", "name": "Example"}]
    assert summary["name"] == "Demo" and summary["attachments"] == 1 and summary["bytes"] == len(data)
    assert summary["versions"] == len(source.data["versions"]) and summary["commits"] == 8


async def test_opened_servers_are_held() -> None:
    data = await write_handoff(await make_project(), "Demo", {}, {})
    target = MemoryStorage()
    await open_handoff(target, read_handoff(data))
    book = json.loads(str(target.data["chats"][SERVERS_KEY]))
    assert [item["held"] for item in book] == [True]


async def test_a_fresh_projects_start_records_count_as_empty() -> None:
    """What the app writes when it starts on an empty project: empty chat tabs and their order."""
    target = MemoryStorage()
    await Workspace.open(target)
    from agentlite.engine.chats import ChatStore

    await ChatStore(target).save({"id": "fresh", "title": "", "messages": []})
    await ChatStore(target).save_tabs(["fresh"], "fresh")
    data = await write_handoff(await make_project(), "Demo", {}, {})
    await open_handoff(target, read_handoff(data))
    assert "chat:fresh" not in target.data["chats"] and "chat:c1" in target.data["chats"]


@pytest.mark.parametrize("what", ["files", "chat", "memory", "server"])
async def test_a_project_that_holds_something_is_refused_and_left_unchanged(what: str) -> None:
    target = MemoryStorage()
    ws = await Workspace.open(target)
    if what == "files":
        await ws.write_text("/mine.txt", "mine")
    elif what == "chat":
        from agentlite.engine.chats import ChatStore

        await ChatStore(target).save({"id": "c9", "messages": [{"id": "m", "role": "user", "content": "x"}]})
    else:
        from agentlite.workspace.storage import Batch

        batch = Batch()
        if what == "memory":
            batch.put("memory", "m", json.dumps({"id": "m", "text": "t"}))
        else:
            batch.put("chats", SERVERS_KEY, json.dumps([{"url": "https://a.example/mcp"}]))
        await target.commit(batch)
    before = unheld(target)
    handoff = read_handoff(await write_handoff(await make_project(), "Demo", {}, {}))
    with pytest.raises(HandoffRefused, match="not empty"):
        await open_handoff(target, handoff)
    assert unheld(target) == before


async def test_a_failed_commit_leaves_the_project_as_it_was() -> None:
    target = MemoryStorage()
    handoff = read_handoff(await write_handoff(await make_project(), "Demo", {}, {}))
    target.fail_commit(kind="quota")
    with pytest.raises(HandoffRefused, match="could not be stored"):
        await open_handoff(target, handoff)
    assert all(not values for values in target.data.values())
