"""`ServerBook`: the workspace's remote MCP servers as the user set them up, kept in its storage.

Each server: its URL, the name it reported and the slug its tools are named with (`mcp__<slug>__…`,
given once, at the first connection, and kept, so a server cannot rename the tools the user allowed),
the tools the user turned off, and what the user allowed to run without asking ("always allow" a tool,
or the whole server). A server that came in a hand-off file is `held`: it is not connected until the
user says so (the Servers panel's Connect), since whoever made the file chose its URL. Tokens are never
here: the page holds them and hands them over in memory.

The book is one JSON value in the app's `chats` store (beside the chat tabs, never a file of the
workspace: no export, zip or git history carries it; a hand-off file does), written whole on every
change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from agentlite.engine.chats import SERVERS_KEY, STORE
from agentlite.mcp.tool_names import PREFIX, unique_slug
from agentlite.workspace.storage import Batch, StorageBackend

MAX_URL = 2000
MAX_SERVERS = 50


class BookError(ValueError):
    """The user's request cannot be done (a bad URL, an unknown server); the page shows the message."""


@dataclass
class ServerEntry:
    url: str
    name: str = ""  # the name the server reported ("" until it answered once)
    slug: str = ""  # the `<server>` of its tools' names ("" until it answered once)
    disabled: set[str] = field(default_factory=set)  # model-facing names of tools turned off
    allowed: set[str] = field(default_factory=set)  # model-facing names allowed without asking
    allow_server: bool = False  # every tool of the server allowed without asking
    held: bool = False  # came in a hand-off file: not connected until the user says so

    def to_dict(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "name": self.name,
            "slug": self.slug,
            "disabled": sorted(self.disabled),
            "allowed": sorted(self.allowed),
            "allow_server": self.allow_server,
        } | ({"held": True} if self.held else {})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ServerEntry:
        def names(key: str) -> set[str]:
            value = data.get(key)
            return {str(n) for n in value} if isinstance(value, list) else set()

        return cls(
            url=str(data["url"]),
            name=str(data.get("name") or ""),
            slug=str(data.get("slug") or ""),
            disabled=names("disabled"),
            allowed=names("allowed"),
            allow_server=data.get("allow_server") is True,
            held=data.get("held") is True,
        )

    def enabled(self, tool: str) -> bool:
        return tool not in self.disabled


def checked_url(url: str) -> str:
    """The URL of a server the user gave, trimmed; BookError when it is not an http(s) URL."""
    url = str(url).strip()
    parts = urlsplit(url)
    if len(url) > MAX_URL or parts.scheme not in ("http", "https") or not parts.hostname:
        raise BookError(f"not an http(s) URL of an MCP server: {url[:200]!r}")
    if parts.username or parts.password:
        raise BookError("a server URL may not carry a user name or password: give a token instead")
    return url


class ServerBook:
    def __init__(self, storage: StorageBackend | None = None) -> None:
        self.storage = storage
        self.entries: dict[str, ServerEntry] = {}

    @classmethod
    def parse(cls, raw: str | bytes | None, storage: StorageBackend | None = None) -> ServerBook:
        """A book from its stored JSON; a damaged value gives an empty book (nothing to run)."""
        book = cls(storage)
        try:
            items = json.loads(raw) if raw else []
        except ValueError:
            items = []
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and isinstance(item.get("url"), str):
                entry = ServerEntry.from_dict(item)
                book.entries[entry.url] = entry
        return book

    @classmethod
    async def load(cls, storage: StorageBackend | None) -> ServerBook:
        raw = await storage.get(STORE, SERVERS_KEY) if storage is not None else None
        return cls.parse(raw, storage)

    async def save(self) -> None:
        if self.storage is None:
            return
        batch = Batch()
        batch.put(STORE, SERVERS_KEY, json.dumps([e.to_dict() for e in self.entries.values()]))
        await self.storage.commit(batch)

    def add(self, url: str) -> ServerEntry:
        url = checked_url(url)
        if url not in self.entries:
            if len(self.entries) >= MAX_SERVERS:
                raise BookError(f"at most {MAX_SERVERS} servers")
            self.entries[url] = ServerEntry(url)
        self.entries[url].held = False  # the user named it: it may connect
        return self.entries[url]

    def get(self, url: str) -> ServerEntry:
        entry = self.entries.get(str(url).strip())
        if entry is None:
            raise BookError(f"no server {str(url)[:200]!r} in this workspace")
        return entry

    def remove(self, url: str) -> ServerEntry:
        entry = self.get(url)
        del self.entries[entry.url]
        return entry

    def name(self, entry: ServerEntry, reported: str) -> None:
        """Give a server that answered for the first time its slug: its reported name's, made unique."""
        entry.name = reported
        if entry.slug:
            return
        entry.slug = unique_slug(reported, {e.slug for e in self.entries.values() if e is not entry})

    def allowed(self) -> set[str]:
        """What runs without asking in every chat: tools by name, servers as `mcp__<slug>`
        (engine.approvals.remote_allowed reads both)."""
        found: set[str] = set()
        for entry in self.entries.values():
            if entry.slug:
                found |= entry.allowed
                if entry.allow_server:
                    found.add(f"{PREFIX}{entry.slug}")
        return found
