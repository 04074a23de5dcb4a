"""The page's calls `handoff.save`, `handoff.inspect` and `handoff.open` through the worker's switchboard:
base64 in and out, a refusal as an error answer with its message."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from agentlite.handoff import HandoffRefused
from agentlite.service import AgentService
from agentlite.workspace import Workspace
from agentlite.workspace.storage import MemoryStorage
from tests.unit.handoff.project import make_project, members, rezip


async def worker(storage: MemoryStorage) -> AgentService:
    workspace = await Workspace.open(storage)
    return AgentService(lambda _m: None, workspace, lambda _s: None, storage=storage)  # type: ignore[arg-type,return-value]


async def call(svc: AgentService, method: str, **args: Any) -> Any:
    return await svc.calls.dispatch(method, args)


async def test_save_inspect_and_open_through_the_worker() -> None:
    source = await worker(await make_project())
    attached = {"a1": {"type": "image/png", "data": base64.b64encode(b"png bytes").decode()}}
    saved = await call(
        source, "handoff.save", name="Demo", attachments=attached, settings={"api_key": "k", "m": 1}
    )
    assert saved["bytes"] == len(base64.b64decode(saved["data"])) and saved["summary"]["files"] == 4
    summary = await call(source, "handoff.inspect", data=saved["data"])
    assert summary["name"] == "Demo" and summary["attachments"] == 1 and summary["bytes"] == saved["bytes"]
    target = await worker(MemoryStorage())
    opened = await call(target, "handoff.open", data=saved["data"])
    assert opened["attachments"] == attached and opened["settings"] == {"m": 1}
    assert opened["summary"]["files"] == 4
    assert await target.workspace.read_text("/AGENTS.md") == "Be brief.\n"  # its files reloaded at once


async def test_a_refusal_is_an_error_with_its_message() -> None:
    source = await worker(await make_project())
    saved = await call(source, "handoff.save", name="Demo")
    files = members(base64.b64decode(saved["data"]))
    files["stores/chats.jsonl"] += b" "
    tampered = base64.b64encode(rezip(files)).decode()
    with pytest.raises(HandoffRefused, match=r"stores/chats\.jsonl differs from its manifest size"):
        await call(source, "handoff.inspect", data=tampered)
    with pytest.raises(HandoffRefused, match="not base64"):
        await call(source, "handoff.open", data="*not base64*")
    with pytest.raises(HandoffRefused, match="not empty"):
        await call(source, "handoff.open", data=saved["data"])


async def test_a_bad_attachment_is_refused_when_saving() -> None:
    source = await worker(await make_project())
    with pytest.raises(ValueError, match="no valid type"):
        await call(source, "handoff.save", name="D", attachments={"a": {"type": "nonsense", "data": ""}})
