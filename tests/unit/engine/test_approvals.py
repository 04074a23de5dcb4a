"""Which calls ask the user (origins: engine §9), and the desk where they wait."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agentlite.engine.approvals import ApprovalDesk, Ask, approval_reason, auto_approved
from agentlite.tools.registry import Risk
from tests.unit.engine.support import FakeTools

TOOLS = FakeTools()
REGISTRY = TOOLS.registry()


def reason(name: str, arguments: dict[str, Any], existing: set[str] = frozenset(), batch: int = 1,
           auto: set[str] = frozenset()) -> str | None:  # fmt: skip
    async def exists(path: str) -> bool:
        return path in existing

    return asyncio.run(approval_reason(REGISTRY.get(name), arguments, batch, exists, set(auto)))


@pytest.mark.parametrize(
    ("name", "arguments", "asks"),
    [
        ("read_file", {"path": "/a"}, False),
        ("list_directory", {"path": "/"}, False),
        ("create_file", {"path": "/new.txt"}, False),
        ("edit_file", {"path": "/a"}, False),
        ("write_file", {"path": "/new.txt"}, False),
        ("write_file", {"path": "/a"}, True),  # overwrites an existing file
        ("delete_file", {"path": "/a"}, True),
        ("shell_exec", {}, True),
        ("browser_js_eval", {}, True),
        ("preview_page", {"path": "/index.html"}, True),
    ],
)
def test_the_approval_rules(name: str, arguments: dict[str, Any], asks: bool) -> None:
    assert (reason(name, arguments, existing={"/a"}) is not None) is asks


def test_reasons_say_what_the_call_does() -> None:
    assert reason("delete_file", {"path": "/a"}) == "This call deletes /a."
    assert "overwrites the existing file /a" in (reason("write_file", {"path": "/a"}, existing={"/a"}) or "")
    assert "JavaScript" in (reason("browser_js_eval", {}) or "")
    assert reason("preview_page", {"path": "/index.html"}) == reason("browser_js_eval", {})


def test_a_batch_of_more_than_ten_file_operations_asks_even_for_creates() -> None:
    assert reason("create_file", {"path": "/n"}, batch=10) is None
    assert "11 file operations" in (reason("create_file", {"path": "/n"}, batch=11) or "")
    assert reason("read_file", {"path": "/n"}, batch=50) is None  # reads never ask


def test_auto_approved_kinds_do_not_ask() -> None:
    assert reason("delete_file", {"path": "/a"}, auto={"delete"}) is None
    assert reason("shell_exec", {}, auto={"delete"}) is not None
    assert auto_approved(True) == {a.value for a in Ask} - {"mcp"}
    assert auto_approved("all") == {a.value for a in Ask} - {"mcp"}
    assert auto_approved(["js", "shell"]) == {"js", "shell"}
    assert auto_approved(None) == set()


def test_the_editor_document_is_an_overwrite() -> None:
    from agentlite.tools.catalog import default_registry

    tool = default_registry().get("edit_current_editor_document")

    async def exists(_path: str) -> bool:
        return True

    assert tool is not None and tool.risk is Risk.MODIFY
    assert asyncio.run(approval_reason(tool, {"content": "x"}, 1, exists, set())) is not None


def test_the_desk_releases_one_call_or_a_whole_batch() -> None:
    desk = ApprovalDesk()

    async def scenario() -> list[bool]:
        waits = [asyncio.ensure_future(desk.wait(f"c{i}", "r1")) for i in range(3)]
        other = asyncio.ensure_future(desk.wait("x", "r2"))
        await asyncio.sleep(0)
        assert desk.answer("c0", False)
        assert desk.answer("c1", True, batch=True)  # c1 and c2
        assert not desk.answer("nope", True)
        desk.reject_all()
        return [*(await asyncio.gather(*waits)), await other]

    assert asyncio.run(scenario()) == [False, True, True, False]


def test_the_desk_answers_a_batch_only_for_the_kind_of_the_card() -> None:
    desk = ApprovalDesk()

    async def go() -> list[bool]:
        deletes = [asyncio.ensure_future(desk.wait(f"d{i}", "r1", Ask.DELETE)) for i in range(2)]
        others = [asyncio.ensure_future(desk.wait(k.value, "r1", k)) for k in (Ask.SHELL, Ask.JS, Ask.MCP)]
        await asyncio.sleep(0)
        assert not desk.answer("d0", True, batch=True, kind="shell"), "a card shown for another question"
        assert desk.answer("d0", True, batch=True, kind="delete")
        await asyncio.sleep(0)
        assert all(w.done() for w in deletes) and not any(w.done() for w in others)
        assert desk.batch_answer("r1", Ask.DELETE) is True and desk.batch_answer("r1") is None
        desk.reject_all()
        return [await w for w in [*deletes, *others]]

    assert asyncio.run(go()) == [True, True, False, False, False]
