"""The page's requests to the worker (`CALL {method, args}` → one reply), a switchboard: a method's
parameters are the keys the page may send (an unknown key is an error answer, not a silent drop), a
value that travels on is checked here once into its frozen command (`agentlite.commands`,
`EditorState`, `Settings`), and the call goes to the room that owns its group (`agentlite.rooms`).
Nothing else happens here: no handler holds logic, and this module knows nothing above the rooms
(tests/unit/test_calls_switchboard.py checks both)."""

from __future__ import annotations

from typing import Any

from agentlite.commands import PageSettings, SendMessage
from agentlite.editor_state import EditorState
from agentlite.rooms import Rooms
from agentlite.settings import Settings

GROUPS = (
    "vfs",
    "chats",
    "memory",
    "skills",
    "connection",
    "demo",
    "settings",
    "editor",
    "worker",
    "mcp",
    "handoff",
    "stage",
)


class CallHandler:
    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms

    async def dispatch(self, method: str, args: dict[str, Any]) -> Any:
        group, _, name = method.partition(".")
        handler = getattr(self, f"{group}_{name}", None) if group in GROUPS else None
        if handler is None:
            raise ValueError(f"unknown method {method!r}")
        return await handler(**args)

    # --- the workspace: the user's reads, writes and changes (author "user") -------------------------

    async def vfs_readText(self, path: str, chat: str | None = None) -> str | None:
        """The file as kept; with `chat`, as that chat's stage shows it."""
        return await self.rooms.stage.read_text(path, chat)

    async def vfs_writeText(self, path: str, text: str, base: str | None = None) -> None:
        """Save the user's text. The editor sends `base`, the text its typing started from: a write of
        the agent's since then (waited for, under the path's lock) is merged in when the two touch
        different lines; when they touch the same lines the user's text is saved. Both writes stay in
        the history, the agent's first."""
        return await self.rooms.files.write_text(path, text, base)

    async def vfs_list(self, dir: str = "/", recursive: bool = False) -> list[dict[str, Any]]:
        return await self.rooms.files.listing(dir, recursive)

    async def vfs_readBase64(self, path: str) -> str | None:
        return await self.rooms.files.read_base64(path)

    async def vfs_saveAttachment(self, name: str, data: str) -> str:
        """An attached file saved to the workspace by the user ("Save to workspace"): written as a user
        change under /attachments/ with a name that is free; its path."""
        return await self.rooms.files.save_attachment(name, data)

    async def vfs_pageFiles(
        self, known: dict[str, str] | None = None, chat: str | None = None
    ) -> dict[str, Any]:
        """The preview's files; with `chat`, as that chat's stage shows them."""
        return await self.rooms.stage.page_files(known, chat)

    async def vfs_history(self, path: str) -> list[dict[str, Any]]:
        return await self.rooms.files.history(path)

    async def vfs_diff(
        self, path: str, old: int | None = None, new: int | None = None, chat: str | None = None
    ) -> str:
        """A unified diff between two versions; with `chat`, as that chat's stage has them (a staged
        write's card)."""
        return await self.rooms.stage.diff(path, old, new, chat)

    async def vfs_diffText(self, path: str, text: str) -> dict[str, Any]:
        """What writing `text` to `path` would change, before anything is written (approval cards, the
        chat's "Apply to open file"): the unified diff and its added and removed line counts."""
        return await self.rooms.files.diff_text(path, text)

    async def vfs_undo(self, path: str) -> dict[str, Any]:
        return await self.rooms.files.undo(path)

    async def vfs_revertHunk(self, path: str, version: int, hunk: int) -> dict[str, Any]:
        return await self.rooms.files.revert_hunk(path, version, hunk)

    async def vfs_undoTurn(self, turn: str) -> dict[str, Any]:
        return await self.rooms.files.undo_turn(turn)

    async def vfs_restoreBefore(self, turn: str) -> dict[str, Any]:
        return await self.rooms.files.restore_before(turn)

    async def vfs_delete(self, path: str) -> dict[str, Any]:
        return await self.rooms.files.delete(path)

    async def vfs_rename(self, path: str, new_name: str) -> dict[str, Any]:
        return await self.rooms.files.rename(path, new_name)

    async def vfs_move(self, source: str, destination: str) -> dict[str, Any]:
        return await self.rooms.files.move(source, destination)

    async def vfs_createFolder(self, path: str) -> dict[str, Any]:
        return await self.rooms.files.create_folder(path)

    async def vfs_check(self) -> list[str]:
        return await self.rooms.files.check()

    async def vfs_clear(self) -> None:
        return await self.rooms.files.clear()

    # --- the workspace's imports and exports ---------------------------------------------------------

    async def vfs_exportZip(self, history: bool = False) -> str:
        return await self.rooms.transfers.export_zip(history)

    async def vfs_importZip(
        self, data: str, history: bool | None = None, replace: bool = False
    ) -> dict[str, Any]:
        """A zip into the workspace; `replace` with `history`: its history replaces this one, in one commit
        made only once the whole archive passed its checks (a refused one leaves the workspace as it was)."""
        return await self.rooms.transfers.import_zip(data, history, replace)

    async def vfs_exportGit(self) -> dict[str, Any]:
        """The workspace as a git repository (a zip with `.git/`, base64) and its number of commits; the
        chats give the agent turns their messages (docs/git.md)."""
        return await self.rooms.transfers.export_git()

    async def vfs_importStart(self) -> str:
        """Begin an import that arrives in batches (a local folder); its id for the calls below."""
        return self.rooms.transfers.import_start()

    async def vfs_importAdd(
        self, id: str, files: list[dict[str, Any]], data: str = "", folders: list[str] | None = None
    ) -> dict[str, int]:
        """One batch: `files` as `{path, size}` and `data` their bytes one after the other, in base64
        (one string, not one per file: a folder has thousands of small files); empty `folders` by path."""
        return self.rooms.transfers.import_add(id, files, data, folders)

    async def vfs_importFinish(
        self, id: str, disk: bool = False, deleted: list[str] | None = None
    ) -> dict[str, Any]:
        """Commit every batch of the import as ONE recorded change: the user's, or with `disk` a change
        made outside the app to the opened folder (`deleted`: its files gone from disk)."""
        return await self.rooms.transfers.import_finish(id, disk, deleted)

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
        return await self.rooms.transfers.mirror_plan(disk, synced, only, disk_folders, synced_folders)

    async def vfs_importCancel(self, id: str) -> None:
        return self.rooms.transfers.import_cancel(id)

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
        PDFs, docs/attachments.md). Checked once, here, into a typed `SendMessage`; its editor state
        goes to the editor's room, the one holder a turn's tools read the open file from."""
        return self.rooms.chats.send(
            SendMessage.of(
                id,
                text,
                mode=mode,
                tool=tool,
                references=references,
                editor=EditorState.from_message(open_file, selection),
                edit=edit,
                regenerate=regenerate,
                attached=attachments,
            )
        )

    async def chats_stop(self, id: str) -> None:
        return self.rooms.chats.stop(id)

    async def chats_approve(
        self, id: str, call: str, approved: bool, batch: bool = False, ask: str | None = None
    ) -> bool:
        return self.rooms.chats.approve(id, call, approved, batch, ask)

    async def chats_decide(self, id: str, choice: str) -> bool:
        return self.rooms.chats.decide(id, choice)

    # --- the settings and the editor ----------------------------------------------------------------

    async def settings_apply(self, settings: dict[str, object]) -> None:
        """The page's settings, all in one: endpoint, key, model, dialect and the limits."""
        return self.rooms.settings.apply(PageSettings.from_message(settings))

    async def settings_takesImages(self, settings: dict[str, object]) -> bool:
        """Whether the model of `settings` takes images (`agentlite.profiles.vision`): the composer asks
        before it sends one (docs/attachments.md)."""
        return self.rooms.settings.takes_images(Settings.from_message(settings))

    async def editor_changed(
        self, open_file: str | None = None, selection: dict[str, Any] | None = None
    ) -> None:
        """The editor shows another file, or another selection (null: none)."""
        return self.rooms.editor.changed(EditorState.from_message(open_file, selection))

    # --- chats and memory ----------------------------------------------------------------------------

    async def chats_restore(self) -> dict[str, Any]:
        return await self.rooms.chats.restore()

    async def chats_tabs(self, order: list[str], active: str | None = None) -> None:
        return await self.rooms.chats.save_tabs(order, active)

    async def chats_close(self, id: str) -> None:
        return await self.rooms.chats.close(id)

    async def chats_settings(self, id: str, settings: dict[str, Any]) -> None:
        return await self.rooms.chats.apply_settings(id, settings)

    async def chats_rename(self, id: str, title: str) -> None:
        return await self.rooms.chats.rename(id, title)

    async def chats_switch(self, id: str, message: str, index: int) -> dict[str, Any]:
        """Show another version of a message; the chat's snapshot on its new active path."""
        return await self.rooms.chats.switch(id, message, index)

    async def chats_snapshot(self, id: str) -> dict[str, Any]:
        return self.rooms.chats.snapshot(id)

    async def chats_restorePoint(self, id: str, message: str) -> str | None:
        """The turn to restore the files to before, to undo every change made from this message on:
        the first turn of the active path from it that changed files (None: nothing changed since)."""
        return await self.rooms.chats.restore_point(id, message)

    async def chats_export(self, id: str, format: str = "json") -> dict[str, str]:
        """The chat as a file: `markdown` to read, `json` to import again (every branch in both)."""
        return self.rooms.chats.export(id, format)

    async def chats_import(self, text: str) -> dict[str, Any]:
        """A chat exported as JSON, opened as a new tab; its snapshot (ChatFileError: not a chat)."""
        return await self.rooms.chats.import_chat(text)

    async def skills_list(self) -> dict[str, Any]:
        """The workspace's Agent Skills as found now, the invalid ones with their reason (docs/skills.md)."""
        return await self.rooms.skills.list()

    async def memory_list(self) -> list[dict[str, Any]]:
        return await self.rooms.memory.all()

    async def memory_delete(self, id: str) -> None:
        return await self.rooms.memory.delete(id)

    async def memory_update(
        self, id: str, text: str | None = None, pinned: bool | None = None
    ) -> dict[str, Any]:
        return await self.rooms.memory.update(id, text, pinned)

    async def memory_add(self, text: str, pinned: bool = False) -> dict[str, Any]:
        return await self.rooms.memory.add(text, pinned)

    # --- the demo model's examples, for the first screen ------------------------------------------------

    async def demo_examples(self) -> list[dict[str, str]]:
        return self.rooms.demo.examples()

    # --- the settings' connection test -----------------------------------------------------------------

    async def connection_test(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Diagnose an endpoint (the form's values, saved or not); a known answer about tool calling
        is what `auto` uses for that endpoint and model."""
        return await self.rooms.connection.test(Settings.from_message(settings))

    # --- remote MCP servers (agentlite.mcp.servers; every change is also posted as an `mcp` message) --------

    async def mcp_start(self, tokens: dict[str, str] | None = None) -> list[dict[str, Any]]:
        """After the start: connect the workspace's servers in the background, with the tokens the page
        keeps (url -> token, memory only). A workspace without servers loads nothing."""
        return await self.rooms.mcp.start(tokens)

    async def mcp_list(self) -> list[dict[str, Any]]:
        return await self.rooms.mcp.views()

    async def mcp_add(self, url: str, token: str | None = None) -> dict[str, Any]:
        return await self.rooms.mcp.add(url, token)

    async def mcp_remove(self, url: str) -> None:
        return await self.rooms.mcp.remove(url)

    async def mcp_toggle(self, url: str, tool: str, enabled: bool) -> dict[str, Any]:
        return await self.rooms.mcp.toggle(url, tool, enabled)

    async def mcp_allow(self, url: str, tool: str | None = None) -> dict[str, Any]:
        return await self.rooms.mcp.allow(url, tool)

    async def mcp_token(self, url: str, token: str | None = None) -> dict[str, Any]:
        return await self.rooms.mcp.token(url, token)

    async def mcp_connect(self, url: str, token: str | None = None) -> dict[str, Any]:
        """Connect a server held since it came in a hand-off file (the user's Connect in the panel)."""
        return await self.rooms.mcp.connect(url, token)

    async def mcp_signin_begin(
        self, url: str, redirect_uri: str, metadata_document_url: str | None = None
    ) -> dict[str, str]:
        """OAuth sign-in to a server that needs it: `{authorization_url, state}` for the page's popup."""
        return await self.rooms.mcp.begin_sign_in(url, redirect_uri, metadata_document_url)

    async def mcp_signin_finish(self, state: str, code: str, iss: str | None = None) -> dict[str, Any]:
        """The popup's answer: `{server: view, token}`; the token is the page's to keep like a pasted one."""
        return await self.rooms.mcp.finish_sign_in(state, code, iss)

    # --- the hand-off file (docs/handoff-format.md) ---------------------------------------------------

    async def handoff_save(
        self, name: str, attachments: dict[str, Any] | None = None, settings: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """This project as one hand-off file: `{data: base64, bytes, summary}`. `attachments` are the
        originals as `{id: {type, data: base64}}`; `settings` come without the key."""
        return await self.rooms.handoff.save(name, attachments, settings)

    async def handoff_inspect(self, data: str) -> dict[str, Any]:
        """A file's summary (base64 in), verified whole; an error answer says why it is refused."""
        return await self.rooms.handoff.inspect(data)

    async def handoff_open(self, data: str) -> dict[str, Any]:
        """Open a file into this (empty) project: `{summary, attachments, settings}`. The page reloads
        after it: the chats and servers this worker holds in memory are stale."""
        return await self.rooms.handoff.open(data)

    async def worker_busy(self, seconds: float) -> float:
        """A test hook (docs/contract.md, testing API): holds Python busy for `seconds` without yielding,
        as a runaway step would (a catastrophic pattern, a loop), so the page's watchdog can be seen to
        notice a worker that stopped answering and to restart it. Returns the seconds it held."""
        return self.rooms.worker.busy(seconds)

    # --- a chat's stage: the review of its changes, and the user's decisions (docs/stage.md) ---------

    async def stage_review(self, chat: str) -> dict[str, Any]:
        return await self.rooms.stage.review(chat)

    async def stage_file(self, chat: str, path: str) -> dict[str, Any]:
        """One file of the review: both texts, its hunks, a conflict's three texts; marks it shown."""
        return await self.rooms.stage.file(chat, path)

    async def stage_keep(
        self,
        chat: str,
        paths: list[str] | None = None,
        path: str | None = None,
        hunks: list[int] | None = None,
    ) -> dict[str, Any]:
        """Keep whole files (`paths`), or hunks of one (`path`, `hunks`): ONE change of the stage's turn."""
        return await self.rooms.stage.keep(chat, paths, path, hunks)

    async def stage_drop(
        self,
        chat: str,
        paths: list[str] | None = None,
        path: str | None = None,
        hunks: list[int] | None = None,
    ) -> dict[str, Any]:
        return await self.rooms.stage.drop(chat, paths, path, hunks)

    async def stage_keepAll(self, chat: str) -> dict[str, Any]:
        return await self.rooms.stage.keep_all(chat)

    async def stage_dropAll(self, chat: str) -> dict[str, Any]:
        return await self.rooms.stage.drop_all(chat)

    async def stage_dropped(self, path: str) -> list[dict[str, Any]]:
        """What the reviews dropped for the file at `path` (its history lists them), oldest first."""
        return await self.rooms.stage.dropped(path)

    async def stage_resolve(self, chat: str, path: str, take: str) -> dict[str, Any]:
        """A conflict's answer: `ours` (the stage's), `theirs` (the workspace's) or `merged`."""
        return await self.rooms.stage.resolve(chat, path, take)
