"""`IndexedDBStorage`: the workspace's StorageBackend on the browser's IndexedDB (agent worker only).

It calls the JS module `agentlite_idb` (web/src/agent/worker/idb.js, registered by the worker with
`pyodide.registerJsModule("agentlite_idb", module)`). Every call is one IndexedDB transaction in JS; a
commit hands the whole batch over at once (JSON for the structure, one Uint8Array per blob) because a
transaction cannot stay open across a Python `await`. JS never rejects: results are `{ok, value}` or
`{ok: false, code, message}`, mapped here to StorageFull / StaleState / StorageClosed / StorageError.

`lock()` holds the open project's Web Lock around each read-modify-write of the workspace, so two
tabs never plan changes on the same state; the commit guard (the stored meta must be the one read)
refuses a stale write anyway. When another tab opens a newer schema, the connection is closed and
`on_version_change(detail)` is called: tell the user to reload.
"""

from __future__ import annotations

import contextlib
import importlib
import json
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from agentlite.workspace.storage import Batch, Value
from agentlite.workspace.workspace_errors import StaleState, StorageClosed, StorageError, StorageFull

MODULE = "agentlite_idb"
FULL_MESSAGE = (
    "Browser storage is full: this change was not saved, and nothing saved before was lost. "
    "To make room, export the workspace (with its history) and clear it, or free disk space on this device."
)


def _checked(result: Any) -> Any:
    """The value of a JS result, or the typed error it reports."""
    if bool(result.ok):
        return result.value
    code, message = str(result.code), str(result.message)
    if code == "quota":
        raise StorageFull(FULL_MESSAGE)
    if code == "stale":
        raise StaleState("the workspace was changed in another tab; it was reloaded, try again")
    if code == "closed":
        raise StorageClosed(f"the workspace database is closed ({message}); reload the page")
    raise StorageError(f"browser storage failed: {message}")


def _value(raw: Any) -> Value | None:
    """A JS value as stored: str stays str, a Uint8Array becomes bytes, undefined/null None."""
    if raw is None or isinstance(raw, str):
        return raw
    if hasattr(raw, "to_bytes"):
        return bytes(raw.to_bytes())
    if not raw:  # jsnull
        return None
    raise StorageError(f"unexpected value type in storage: {type(raw).__name__}")


class IndexedDBStorage:
    def __init__(self, module: Any | None = None) -> None:
        self._idb = module if module is not None else importlib.import_module(MODULE)
        self._callbacks: list[Any] = []

    @classmethod
    async def open(
        cls, name: str | None = None, on_version_change: Callable[[dict[str, Any]], Any] | None = None
    ) -> IndexedDBStorage:
        """Open database `name`; by default the open project's (the worker named it: idb.js `useProject`)."""
        storage = cls()
        _checked(await (storage._idb.open(name) if name else storage._idb.open()))
        if on_version_change is not None:
            storage.on_version_change(on_version_change)
        return storage

    def on_version_change(self, callback: Callable[[dict[str, Any]], Any]) -> None:
        """Call `callback({"reason", ...})` when the database had to close (a newer app in another tab)."""
        self._listen(self._idb.onVersionChange, callback)

    def announce(self, detail: dict[str, Any]) -> None:
        """Tell the other tabs of the app that the workspace changed (BroadcastChannel)."""
        self._idb.announce(json.dumps(detail))

    def on_announce(self, callback: Callable[[dict[str, Any]], Any]) -> None:
        """Call `callback(detail)` when another tab announces a change."""
        self._listen(self._idb.onAnnounce, callback)

    def _listen(self, register: Any, callback: Callable[[dict[str, Any]], Any]) -> None:
        from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

        proxy = create_proxy(lambda detail: callback(json.loads(str(detail))))
        self._callbacks.append(proxy)  # keep it alive as long as this storage
        register(proxy)

    async def get(self, store: str, key: str) -> Value | None:
        return _value(_checked(await self._idb.get(store, key)))

    async def get_many(self, store: str, keys: Sequence[str]) -> list[Value | None]:
        if not keys:
            return []
        values = _checked(await self._idb.getMany(store, json.dumps(list(keys))))
        return [_value(value) for value in values]

    async def keys(self, store: str) -> list[str]:
        return [str(key) for key in _checked(await self._idb.keys(store))]

    async def scan(
        self, store: str, start: str | None = None, stop: str | None = None
    ) -> list[tuple[str, Value]]:
        found = _checked(await self._idb.scan(store, start, stop))
        # Each array converted in one call (its strings become str, a Uint8Array stays a proxy), not one
        # crossing a key: a scan of 10,000 versions took ~130 ms in Chromium element by element.
        keys, values = found[0].to_py(), found[1].to_py(depth=1)
        result: list[tuple[str, Value]] = []
        for key, raw in zip(keys, values, strict=True):
            value = _value(raw)
            if value is not None:
                result.append((str(key), value))
        return result

    async def commit(self, batch: Batch) -> None:
        from js import Uint8Array  # type: ignore[import-not-found]

        parts: list[bytes] = []
        spans: list[tuple[int, int]] = []
        puts: list[list[Any]] = []
        at = 0
        for store, key, value in batch.puts:
            if isinstance(value, bytes):
                puts.append([store, key, {"blob": len(spans)}])
                spans.append((at, at + len(value)))
                parts.append(value)
                at += len(value)
            else:
                puts.append([store, key, value])
        # Every blob in ONE array, copied into JS memory once (the transaction outlives this call): a
        # copy a blob was three crossings each, 30,000 for a hand-off of 10,000 versions.
        packed = Uint8Array.new(at)
        packed.assign(b"".join(parts))
        payload = {
            "clears": list(batch.clears),
            "deletes": [list(pair) for pair in batch.deletes],
            "puts": puts,
            "guard": list(batch.guard) if batch.guard is not None else None,
            "spans": spans,
        }
        _checked(await self._idb.commit(json.dumps(payload), packed))

    @contextlib.asynccontextmanager
    async def lock(self) -> AsyncIterator[None]:
        release = await self._idb.acquireLock()  # the open project's lock
        try:
            yield
        finally:
            release()

    async def close(self) -> None:
        self._idb.close()

    async def estimate(self) -> dict[str, int]:
        """{"usage", "quota"} in bytes, {} when the browser does not say."""
        return dict(json.loads(str(await self._idb.estimate())))
