"""The browser glue in CPython: which changes are announced to the other tabs, and how IndexedDB
failures map to workspace errors (agentlite.browser.host, agentlite.browser.idb_storage)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from agentlite.browser import idb_storage
from agentlite.workspace import (
    MemoryStorage,
    StaleState,
    StorageClosed,
    StorageError,
    StorageFull,
    Workspace,
)


class Announcer:
    """Stands in for IndexedDBStorage.announce (the BroadcastChannel)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def announce(self, detail: dict[str, Any]) -> None:
        self.sent.append(detail)


@pytest.fixture
def host(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """agentlite.browser.host, importable here with the browser-only modules stubbed (any name)."""
    for name in ("js", "pyodide", "pyodide.ffi"):
        stub = ModuleType(name)
        stub.__getattr__ = lambda attr: type(attr, (Exception,), {})  # type: ignore[method-assign]
        monkeypatch.setitem(sys.modules, name, stub)
    loaded = ("agentlite.browser.host", "agentlite.browser.fetch_transport")
    for name in loaded:
        monkeypatch.delitem(sys.modules, name, raising=False)
    import agentlite.browser.host as module

    yield module
    for name in loaded:  # imported over the stubs: no other test may get these
        sys.modules.pop(name, None)


def test_every_stored_change_is_announced_and_a_reload_is_not(host: ModuleType) -> None:
    async def scenario() -> tuple[list[str], list[dict[str, Any]]]:
        channel = Announcer()
        seen: list[str] = []
        storage = MemoryStorage()
        ws = await Workspace.open(storage)
        ws.add_listener(lambda change: seen.append(change["type"]))
        ws.add_listener(lambda change: host._announce(channel, change))
        await ws.write("/a.txt", "a", turn="t1", author="user")
        exported = await ws.export_zip(history=True)
        await ws.clear()
        await ws.import_zip(exported)  # a history import into the empty workspace
        await ws.write("/a.txt", "changed", turn="t2", author="user")
        await ws.import_zip(exported, history=False)  # files only: an ordinary commit
        other = await Workspace.open(storage)
        await other.write("/b.txt", "b", turn="t3", author="user")
        await ws.refresh()  # another tab wrote: this one reloads
        return seen, channel.sent

    seen, sent = asyncio.run(scenario())
    # a history import reloads this tab's state from storage, then notifies "import"
    assert seen == ["commit", "clear", "reload", "import", "commit", "commit", "reload"]
    assert [detail["type"] for detail in sent] == ["commit", "clear", "import", "commit", "commit"]
    assert sent[2] == {"type": "import", "commit": 1}  # the imported history's newest commit


def result(ok: bool, value: Any = None, code: str = "", message: str = "") -> SimpleNamespace:
    return SimpleNamespace(ok=ok, value=value, code=code, message=message)


@pytest.mark.parametrize(
    ("code", "error", "words"),
    [
        ("quota", StorageFull, "Browser storage is full"),
        ("stale", StaleState, "changed in another tab"),
        ("closed", StorageClosed, "reload the page"),
        ("error", StorageError, "browser storage failed: disk gone"),
    ],
)
def test_indexeddb_failures_become_typed_errors(code: str, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words) as raised:
        idb_storage._checked(result(False, code=code, message="disk gone"))
    assert type(raised.value) is error
    assert idb_storage._checked(result(True, value=7)) == 7
