"""The page's requests to the worker (`CALL {method, args}` → one reply): the workspace for the
testing API and the file views, the chats' commands and views, memory, the settings and the editor's
state. User actions are recorded with author "user". A method's parameters are the keys the page may
send: an unknown key is an error answer, not a silent drop.

The handler works on a `Service` (what `agentlite.service.AgentService` offers), so this module does
not import the service that uses it."""

from __future__ import annotations

import base64
import json
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from agentlite import connection, demo
from agentlite.commands import PageSettings, SendMessage
from agentlite.editor_state import EditorState
from agentlite.endpoint import Endpoint
from agentlite.engine import Engine
from agentlite.engine.chat_file import export_document, fresh_chat_id, read_document
from agentlite.engine.chat_markdown import chat_markdown
from agentlite.engine.commit_notes import commit_notes
from agentlite.engine.memory import MemoryStore
from agentlite.engine.session import ChatSession
from agentlite.settings import Settings
from agentlite.skills.skill_discovery import find_skills
from agentlite.workspace import Workspace, archive, diffs, mirror, text_merge
from agentlite.workspace.page_files import page_files
from agentlite.workspace.staging import ImportStaging
from agentlite.workspace.turns import DISK_AUTHOR

if TYPE_CHECKING:  # loaded only when the workspace has a remote server
    from agentlite.mcp.servers import McpServers
    from agentlite.mcp.sign_ins import ServerSignIns

RENAME_CHARS = 80  # a tab title the user types
GIT_PACKAGES = ["dulwich"]  # loaded on first use: the git export and the import of a git working copy
GROUPS = ("vfs", "chats", "memory", "skills", "connection", "demo", "settings", "editor", "worker", "mcp")
BUSY_LIMIT_S = 600.0  # the longest `worker.busy` holds Python


class Service(Protocol):
    """What the calls need of the service."""

    workspace: Workspace
    engine: Engine

    def chat(self, chat_id: str) -> ChatSession: ...
    def emitter(self, chat_id: str) -> Callable[[dict[str, Any]], None]: ...
    def endpoint_for(self, settings: Settings) -> Endpoint: ...
    async def load_packages(self, names: list[str]) -> None: ...
    def learn_window(self, base_url: str, model: str, size: int | None) -> None: ...
    def apply_settings(self, page: PageSettings) -> None: ...
    def start_turn(self, send: SendMessage) -> None: ...
    def editor_changed(self, editor: EditorState) -> None: ...
    async def has_servers(self) -> bool: ...
    async def servers(self) -> McpServers: ...
    async def sign_ins(self) -> ServerSignIns: ...


class CallHandler:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.staging = ImportStaging()

    async def dispatch(self, method: str, args: dict[str, Any]) -> Any:
        group, _, name = method.partition(".")
        handler = getattr(self, f"{group}_{name}", None) if group in GROUPS else None
        if handler is None:
            raise ValueError(f"unknown method {method!r}")
        return await handler(**args)

    # --- workspace ------------------------------------------------------------------------------------

    async def vfs_readText(self, path: str) -> str | None:
        return await self.service.workspace.read_text(path)

    async def vfs_writeText(self, path: str, text: str, base: str | None = None) -> None:
        """Save the user's text. The editor sends `base`, the text its typing started from: a write of
        the agent's since then (waited for, under the path's lock) is merged in when the two touch
        different lines; when they touch the same lines the user's text is saved. Both writes stay in
        the history, the agent's first."""
        workspace = self.service.workspace
        async with self.service.engine.locks.hold(path):
            if base is not None:
                current = await workspace.read_text(path)
                if current is not None and current != base:
                    text = text_merge.merge(base, text, current) or text
            await workspace.write_text(path, text, author="user")

    async def vfs_list(self, dir: str = "/", recursive: bool = False) -> list[dict[str, Any]]:
        return await self.service.workspace.list(dir or "/", recursive=recursive)

    async def vfs_readBase64(self, path: str) -> str | None:
        data = await self.service.workspace.read_bytes(path)
        return None if data is None else base64.b64encode(data).decode()

    async def vfs_saveAttachment(self, name: str, data: str) -> str:
        """An attached file saved to the workspace by the user ("Save to workspace"): written as a user
        change under /attachments/ with a name that is free; its path."""
        workspace = self.service.workspace
        stem, dot, ext = (re.sub(r"[^\w.-]+", "_", str(name)).strip("._")[:80] or "attachment").rpartition(
            "."
        )
        base, suffix = (stem, f".{ext}") if dot and stem else (ext, "")
        path, number = f"/attachments/{base}{suffix}", 1
        while await workspace.exists(path):
            number += 1
            path = f"/attachments/{base}-{number}{suffix}"
        await workspace.write(path, base64.b64decode(data), author="user")
        return path

    async def vfs_pageFiles(self, known: dict[str, str] | None = None) -> dict[str, Any]:
        return await page_files(self.service.workspace, known)

    async def vfs_history(self, path: str) -> list[dict[str, Any]]:
        return await self.service.workspace.history(path)

    async def vfs_diff(self, path: str, old: int | None = None, new: int | None = None) -> str:
        return await self.service.workspace.diff(path, old, new)

    async def vfs_diffText(self, path: str, text: str) -> dict[str, Any]:
        """What writing `text` to `path` would change, before anything is written (approval cards, the
        chat's "Apply to open file"): the unified diff and its added and removed line counts."""
        current = await self.service.workspace.read_text(path)
        diff = diffs.unified(current or "", text, path if current is not None else "/dev/null", path)
        lines = diff.splitlines()[2:]
        added = sum(1 for line in lines if line.startswith("+"))
        removed = sum(1 for line in lines if line.startswith("-"))
        return {"exists": current is not None, "diff": diff, "added": added, "removed": removed}

    async def vfs_undo(self, path: str) -> dict[str, Any]:
        return _change(await self.service.workspace.undo(path, author="user"))

    async def vfs_revertHunk(self, path: str, version: int, hunk: int) -> dict[str, Any]:
        return _change(await self.service.workspace.revert_hunk(path, version, hunk, author="user"))

    async def vfs_undoTurn(self, turn: str) -> dict[str, Any]:
        return _change(await self.service.workspace.undo_turn(turn, author="user"))

    async def vfs_restoreBefore(self, turn: str) -> dict[str, Any]:
        return _change(await self.service.workspace.restore_before(turn, author="user"))

    async def vfs_delete(self, path: str) -> dict[str, Any]:
        return _change(await self.service.workspace.delete(path, author="user"))

    async def vfs_rename(self, path: str, new_name: str) -> dict[str, Any]:
        return _change(await self.service.workspace.rename(path, new_name, author="user"))

    async def vfs_move(self, source: str, destination: str) -> dict[str, Any]:
        return _change(await self.service.workspace.move(source, destination, author="user"))

    async def vfs_createFolder(self, path: str) -> dict[str, Any]:
        return _change(await self.service.workspace.create_folder(path, author="user"))

    async def vfs_exportZip(self, history: bool = False) -> str:
        return base64.b64encode(await self.service.workspace.export_zip(history=history)).decode()

    async def vfs_importZip(
        self, data: str, history: bool | None = None, replace: bool = False
    ) -> dict[str, Any]:
        """A zip into the workspace; `replace` with `history`: its history replaces this one, in one commit
        made only once the whole archive passed its checks (a refused one leaves the workspace as it was)."""
        raw = base64.b64decode(data)
        if not history and archive.holds_git(raw):
            await self.service.load_packages(GIT_PACKAGES)
        change = await self.service.workspace.import_zip(raw, history=history, replace_all=replace)
        return _change(change)

    async def vfs_exportGit(self) -> dict[str, Any]:
        """The workspace as a git repository (a zip with `.git/`, base64) and its number of commits; the
        chats give the agent turns their messages (docs/git.md)."""
        await self.service.load_packages(GIT_PACKAGES)
        notes = commit_notes(session.to_record() for session in self.service.engine.sessions.values())
        data, commits = await self.service.workspace.export_git(notes)
        return {"data": base64.b64encode(data).decode(), "commits": commits}

    async def vfs_importStart(self) -> str:
        """Begin an import that arrives in batches (a local folder); its id for the calls below."""
        return self.staging.begin()

    async def vfs_importAdd(
        self, id: str, files: list[dict[str, Any]], data: str = "", folders: list[str] | None = None
    ) -> dict[str, int]:
        """One batch: `files` as `{path, size}` and `data` their bytes one after the other, in base64
        (one string, not one per file: a folder has thousands of small files); empty `folders` by path."""
        batch = _split(base64.b64decode(data), files)
        limit = self.service.workspace.max_file_size
        staged = self.staging.add(id, batch, list(folders or []), limit)
        return {"files": len(staged.files), "bytes": staged.size}

    async def vfs_importFinish(
        self, id: str, disk: bool = False, deleted: list[str] | None = None
    ) -> dict[str, Any]:
        """Commit every batch of the import as ONE recorded change: the user's, or with `disk` a change
        made outside the app to the opened folder (`deleted`: its files gone from disk)."""
        staged = self.staging.take(id)
        author = DISK_AUTHOR if disk else "user"
        folders = sorted(staged.folders)
        change = await self.service.workspace.import_files(
            staged.files, folders, deleted=list(deleted or []), author=author
        )
        return _change(change)

    async def vfs_mirrorPlan(
        self,
        disk: dict[str, str],
        synced: dict[str, str],
        only: list[str] | None = None,
        disk_folders: list[str] | None = None,
        synced_folders: list[str] | None = None,
    ) -> dict[str, Any]:
        """An opened folder against the workspace (`mirror`): the disk's and the last sync's sha256 by path
        (and their folders) in, what to write where and what conflicts out (`folders`: the folders';
        `max_file_size`: a disk file larger cannot come in, the page skips it with that reason)."""
        listing = await self.service.workspace.list("/", recursive=True, details=True)
        files = {e["path"]: e["sha256"] for e in listing if e["kind"] == "file"}
        folders = [e["path"] for e in listing if e["kind"] == "dir"]
        result = mirror.plan(files, disk, synced, only).to_dict()
        found = mirror.plan_folders(folders, disk_folders or [], synced_folders or [], only)
        return result | {"folders": found.to_dict(), "max_file_size": self.service.workspace.max_file_size}

    async def vfs_importCancel(self, id: str) -> None:
        self.staging.cancel(id)

    async def vfs_check(self) -> list[str]:
        return await self.service.workspace.check()

    async def vfs_clear(self) -> None:
        await self.service.workspace.clear()

    # --- the chats' commands ---------------------------------------------------------------------------

    async def chats_send(
        self,
        id: str,
        text: str = "",
        mode: str | None = None,
        tool: str | None = None,
        references: list[object] | None = None,
        open_file: str | None = None,
        selection: dict[str, object] | None = None,
        edit: str | None = None,
        regenerate: bool = False,
        attachments: list[object] | None = None,
    ) -> None:
        """A user message starts a turn: what the user said and what goes with it (the mode, a forced
        tool, attached files, the editor's file and selection; `edit`: the id of the message it
        replaces, a new branch; `regenerate`: answer the last message again; `attachments`: images and
        PDFs, docs/attachments.md). Checked once, here, into a typed `SendMessage`."""
        editor = EditorState.from_message(open_file, selection)
        send = SendMessage.of(
            id,
            text,
            mode=mode,
            tool=tool,
            references=references,
            editor=editor,
            edit=edit,
            regenerate=regenerate,
            attached=attachments,
        )
        self.service.editor_changed(editor)
        self.service.start_turn(send)

    async def chats_stop(self, id: str) -> None:
        self.service.chat(id).stop()

    async def chats_approve(self, id: str, call: str, approved: bool, batch: bool = False) -> bool:
        return self.service.chat(id).approve(str(call), bool(approved), bool(batch))

    async def chats_decide(self, id: str, choice: str) -> bool:
        return self.service.chat(id).decide(str(choice))

    # --- the settings and the editor ----------------------------------------------------------------

    async def settings_apply(self, settings: dict[str, object]) -> None:
        """The page's settings, all in one: endpoint, key, model, dialect and the limits."""
        self.service.apply_settings(PageSettings.from_message(settings))

    async def settings_takesImages(self, settings: dict[str, object]) -> bool:
        """Whether the model of `settings` takes images (`agentlite.vision`): the composer asks before
        it sends one (docs/attachments.md)."""
        return Settings.from_message(settings).takes_images

    async def editor_changed(
        self, open_file: str | None = None, selection: dict[str, Any] | None = None
    ) -> None:
        """The editor shows another file, or another selection (null: none)."""
        self.service.editor_changed(EditorState.from_message(open_file, selection))

    # --- chats and memory ----------------------------------------------------------------------------

    async def chats_restore(self) -> dict[str, Any]:
        return await self.service.engine.restore(self.service.emitter)

    async def chats_tabs(self, order: list[str], active: str | None = None) -> None:
        await self.service.engine.save_tabs(order, active)

    async def chats_close(self, id: str) -> None:
        await self.service.engine.close_chat(id)

    async def chats_settings(self, id: str, settings: dict[str, Any]) -> None:
        await self.service.chat(id).apply_settings(**settings)

    async def chats_rename(self, id: str, title: str) -> None:
        session = self.service.chat(id)
        session.title = " ".join(title.split())[:RENAME_CHARS] or session.title
        await self.service.engine.save_chat(session)

    async def chats_switch(self, id: str, message: str, index: int) -> dict[str, Any]:
        """Show another version of a message; the chat's snapshot on its new active path."""
        return await self.service.chat(id).switch_branch(message, int(index))

    async def chats_snapshot(self, id: str) -> dict[str, Any]:
        return self.service.chat(id).snapshot()

    async def chats_restorePoint(self, id: str, message: str) -> str | None:
        """The turn to restore the files to before, to undo every change made from this message on:
        the first turn of the active path from it that changed files (None: nothing changed since)."""
        recorded = {t["turn"] for t in await self.service.workspace.turns()}
        path = self.service.chat(id).messages
        ids = [m.id for m in path]
        if message not in ids:
            return None
        return next((m.turn for m in path[ids.index(message) :] if m.turn in recorded), None)

    async def chats_export(self, id: str, format: str = "json") -> dict[str, str]:
        """The chat as a file: `markdown` to read, `json` to import again (every branch in both)."""
        session = self.service.chat(id)
        record = session.to_record()
        stem = re.sub(r"[^\w-]+", "-", session.title.lower()).strip("-")[:60] or "chat"
        if format == "markdown":
            return {"name": f"{stem}.md", "type": "text/markdown", "text": chat_markdown(record)}
        text = json.dumps(export_document(record), ensure_ascii=False, indent=1)
        return {"name": f"{stem}.json", "type": "application/json", "text": text}

    async def chats_import(self, text: str) -> dict[str, Any]:
        """A chat exported as JSON, opened as a new tab; its snapshot (ChatFileError: not a chat)."""
        record = read_document(text)
        notes = record.pop("notes", [])  # attachments left out (docs/attachments.md)
        session = self.service.chat(fresh_chat_id())
        session.load_record({**record, "id": session.id})
        await self.service.engine.save_chat(session)
        return {**session.snapshot(), "notes": notes} if notes else session.snapshot()

    async def skills_list(self) -> dict[str, Any]:
        """The workspace's Agent Skills as found now, the invalid ones with their reason (docs/skills.md)."""
        return (await find_skills(self.service.workspace)).view()

    async def memory_list(self) -> list[dict[str, Any]]:
        memory = self.service.engine.memory
        return [] if memory is None else await memory.all()

    async def memory_delete(self, id: str) -> None:
        if self.service.engine.memory is not None:
            await self.service.engine.memory.delete(id)

    async def memory_update(
        self, id: str, text: str | None = None, pinned: bool | None = None
    ) -> dict[str, Any]:
        return (await self._memory().update(id, text=text, pinned=pinned)).view()

    async def memory_add(self, text: str, pinned: bool = False) -> dict[str, Any]:
        return (await self._memory().add(text, pinned=pinned, source="user")).view()

    def _memory(self) -> MemoryStore:
        if self.service.engine.memory is None:
            raise ValueError("this workspace has no long-term memory store")
        return self.service.engine.memory

    # --- the demo model's examples, for the first screen ------------------------------------------------

    async def demo_examples(self) -> list[dict[str, str]]:
        return demo.examples()

    # --- the settings' connection test -----------------------------------------------------------------

    async def connection_test(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Diagnose an endpoint (the form's values, saved or not); a known answer about tool calling
        is what `auto` uses for that endpoint and model."""
        tested = Settings.from_message(settings)
        diagnosis = await connection.check(self.service.endpoint_for(tested), tested.model)
        if diagnosis.tools is not None and tested.base_url:
            dialect = "native" if diagnosis.tools else "json"
            self.service.engine.dialects.learn(tested.base_url, tested.model, dialect)
        self.service.learn_window(tested.base_url, tested.model, diagnosis.context_window)
        return diagnosis.to_dict()

    # --- remote MCP servers (agentlite.mcp.servers; every change is also posted as an `mcp` message) --------

    async def mcp_start(self, tokens: dict[str, str] | None = None) -> list[dict[str, Any]]:
        """After the start: connect the workspace's servers in the background, with the tokens the page
        keeps (url -> token, memory only). A workspace without servers loads nothing."""
        if not await self.service.has_servers():
            return []
        return (await self.service.servers()).start(tokens)

    async def mcp_list(self) -> list[dict[str, Any]]:
        return (await self.service.servers()).views()

    async def mcp_add(self, url: str, token: str | None = None) -> dict[str, Any]:
        return await (await self.service.servers()).add(url, token)

    async def mcp_remove(self, url: str) -> None:
        await (await self.service.servers()).remove(url)

    async def mcp_toggle(self, url: str, tool: str, enabled: bool) -> dict[str, Any]:
        return await (await self.service.servers()).toggle(url, tool, bool(enabled))

    async def mcp_allow(self, url: str, tool: str | None = None) -> dict[str, Any]:
        return await (await self.service.servers()).allow(url, tool)

    async def mcp_token(self, url: str, token: str | None = None) -> dict[str, Any]:
        return await (await self.service.servers()).token(url, token)

    async def mcp_signin_begin(
        self, url: str, redirect_uri: str, metadata_document_url: str | None = None
    ) -> dict[str, str]:
        """OAuth sign-in to a server that needs it: `{authorization_url, state}` for the page's popup."""
        return await (await self.service.sign_ins()).begin(url, redirect_uri, metadata_document_url)

    async def mcp_signin_finish(self, state: str, code: str, iss: str | None = None) -> dict[str, Any]:
        """The popup's answer: `{server: view, token}`; the token is the page's to keep like a pasted one."""
        return await (await self.service.sign_ins()).finish(state, code, iss)

    async def worker_busy(self, seconds: float) -> float:
        """A test hook (docs/contract.md, testing API): holds Python busy for `seconds` without yielding,
        as a runaway step would (a catastrophic pattern, a loop), so the page's watchdog can be seen to
        notice a worker that stopped answering and to restart it. Returns the seconds it held."""
        until = time.monotonic() + min(max(float(seconds), 0.0), BUSY_LIMIT_S)
        while time.monotonic() < until:
            pass
        return seconds


def _split(data: bytes, files: list[dict[str, Any]]) -> dict[str, bytes]:
    """path -> bytes from the batch's concatenated bytes and each file's size."""
    if sum(int(f["size"]) for f in files) != len(data):
        raise ValueError("the batch's sizes do not add up to its bytes")
    batch: dict[str, bytes] = {}
    at = 0
    for f in files:
        batch[str(f["path"])] = data[at : at + int(f["size"])]
        at += int(f["size"])
    return batch


def _change(change: Any) -> dict[str, Any]:
    return change.to_dict() if hasattr(change, "to_dict") else {"result": str(change)}
