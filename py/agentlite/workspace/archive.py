"""Export and import of the workspace as a zip (stdlib zipfile, deterministic bytes).

Layout: `files/<path>` holds each current file and `files/<folder>/` each folder. With history, also
`history/manifest.json`, `history/{entries,versions,commits,turns}.jsonl` (the stored records, one per
line, sorted by key) and `history/blobs/<sha256>` (the stored blob values, verified on import).
Timestamps are fixed (1980-01-01) and entries sorted, so export -> clear -> import -> export gives the same
bytes, history included.

Import of files (any zip: `files/...` or plain paths, or a local folder's files through `staging`) is
ONE recorded change in one turn; with `replace_all` everything not in the zip is deleted in that same
change. A zip of a git working copy
(a `.git/HEAD` in it) imports the files of its HEAD commit instead (`git_import`, which the
Workspace calls). Import of a history restores it
exactly and needs an empty workspace (`clear()` first).
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import replace

from agentlite.limits import IMPORT_BYTES, IMPORT_FILES
from agentlite.workspace import paths
from agentlite.workspace.change_plan import Plan, Target
from agentlite.workspace.committer import Committer
from agentlite.workspace.history_check import FORMAT, RECORDS
from agentlite.workspace.history_import import import_history
from agentlite.workspace.import_budget import Budget, case_note, read_member
from agentlite.workspace.records import SCHEMA, Meta
from agentlite.workspace.results import Change
from agentlite.workspace.workspace_errors import InvalidArgument, NotAFile, size_text

EPOCH = (1980, 1, 1, 0, 0, 0)


def add_member(archive: zipfile.ZipFile, name: str, data: bytes, packed: bool = True, level: int = 6) -> None:
    """One member with fixed metadata; `packed=False` stores it as is (stored blobs are compressed);
    `level`: zlib's (1 is ~3x faster than 6 for a few percent more bytes)."""
    info = zipfile.ZipInfo(name, date_time=EPOCH)
    info.create_system = 3
    if name.endswith("/"):
        info.external_attr = (0o40755 << 16) | 0x10
        archive.writestr(info, b"", compress_type=zipfile.ZIP_STORED)
    else:
        info.external_attr = 0o100644 << 16
        kind = zipfile.ZIP_DEFLATED if packed else zipfile.ZIP_STORED
        archive.writestr(info, data, compress_type=kind, compresslevel=level if packed else None)


async def export_zip(committer: Committer, history: bool) -> bytes:
    tree = await committer.heads()
    live = tree.below(paths.ROOT)
    contents = await committer.blobs.read_many(e.sha256 for e in live if e.sha256)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for entry in live:
            if entry.kind == "dir":
                add_member(archive, "files" + entry.path + "/", b"")
            else:
                add_member(archive, "files" + entry.path, contents[entry.sha256 or ""])
        if history:
            await _export_history(committer, tree.meta, archive)
    return buffer.getvalue()


async def _export_history(committer: Committer, meta: Meta, archive: zipfile.ZipFile) -> None:
    manifest = {"format": FORMAT, "schema": SCHEMA, "meta": json.loads(meta.to_json())}
    add_member(
        archive, "history/manifest.json", json.dumps(manifest, sort_keys=True, indent=1).encode() + b"\n"
    )
    for store in RECORDS:
        rows = await committer.storage.scan(store)
        lines = [value if isinstance(value, str) else value.decode() for _key, value in rows]
        add_member(archive, f"history/{store}.jsonl", "".join(line + "\n" for line in lines).encode())
    keys = await committer.storage.keys("blobs")
    for key, value in zip(keys, await committer.storage.get_many("blobs", keys), strict=True):
        if isinstance(value, bytes):
            add_member(archive, f"history/blobs/{key}", value, packed=value[:1] not in (b"Z", b"d"))


def budget_of(committer: Committer, source: str = "the archive") -> Budget:
    """The import budget with this workspace's per-file limit."""
    return Budget(file_bytes=committer.max_file_size, source=source)


def open_zip(data: bytes) -> zipfile.ZipFile:
    """The zip, refused before anything is inflated when its directory declares more than an import may
    bring in (every member counted: files, a `.git` folder's objects, a history's records and blobs)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise InvalidArgument(f"the file is not a zip archive ({exc})") from exc
    members = archive.infolist()
    total = sum(info.file_size for info in members)
    if total > IMPORT_BYTES:
        raise InvalidArgument(
            f"the archive unpacks to {size_text(total)}; the limit is {size_text(IMPORT_BYTES)}; "
            "nothing was imported"
        )
    if len(members) > 2 * IMPORT_FILES:
        raise InvalidArgument(f"the archive holds {len(members):,} members; nothing was imported")
    return archive


async def import_zip(
    committer: Committer,
    data: bytes,
    history: bool | None,
    replace_all: bool,
    turn: str | None,
    author: str | None,
) -> Change:
    archive = open_zip(data)
    has_history = "history/manifest.json" in archive.namelist()
    if history or (history is None and has_history and not (await committer.heads()).entries):
        if not has_history:
            raise InvalidArgument(
                "the archive has no history (history/manifest.json); import its files instead"
            )
        return await import_history(committer, archive, budget_of(committer), replace_all)
    return await _import_files(committer, archive, replace_all, turn, author)


def holds_git(data: bytes) -> bool:
    """True for a zip of a git working copy (a `.git/HEAD` in it, and no AgentLite history)."""
    names = open_zip(data).namelist()
    return "history/manifest.json" not in names and git_root(names) is not None


def git_root(names: list[str]) -> str | None:
    """The folder of the zip that holds a git working copy (`""` or `name/`); None without `.git/HEAD`."""
    roots = [n[: -len(".git/HEAD")] for n in names if n == ".git/HEAD" or n.endswith("/.git/HEAD")]
    return min(roots, key=len) if roots else None


def _file_members(archive: zipfile.ZipFile) -> list[tuple[str, zipfile.ZipInfo]]:
    names = [i for i in archive.infolist() if not i.filename.startswith("__MACOSX/")]
    wrapped = all(i.filename.startswith(("files/", "history/")) for i in names)
    found = []
    for info in names:
        name = info.filename
        if wrapped:
            if not name.startswith("files/"):
                continue
            name = name[len("files") :]
        if name.strip("/"):
            found.append((name, info))
    return found


async def _import_files(
    committer: Committer, archive: zipfile.ZipFile, replace_all: bool, turn: str | None, author: str | None
) -> Change:
    folders: set[str] = set()
    members: list[tuple[str, zipfile.ZipInfo]] = []
    budget = budget_of(committer)
    for name, info in _file_members(archive):
        path = paths.normalize(name)
        if info.is_dir():
            folders.add(path)
            continue
        if info.flag_bits & 0x1:
            raise InvalidArgument(f"{path} is encrypted in the archive; it cannot be imported")
        budget.add(path, info.file_size)  # declared sizes first: nothing is inflated before all passed
        members.append((path, info))
    if clash := folders & budget.seen:
        path = min(clash)
        raise InvalidArgument(
            f"the archive has a file and a folder at {path}; nothing was imported", path=path
        )
    files = {path: read_member(archive, info, budget.file_bytes, path) for path, info in members}
    return await import_files(committer, folders, files, replace_all, turn, author)


async def import_files(
    committer: Committer,
    folders: set[str],
    files: dict[str, bytes],
    replace_all: bool,
    turn: str | None,
    author: str | None,
    deleted: frozenset[str] = frozenset(),
) -> Change:
    """Files and folders (normalised paths) as ONE recorded change: a zip's members or a local folder's
    (`deleted`: files and folders gone from that folder, deleted in the same change; a folder only when
    nothing is left below it)."""

    async def build(plan: Plan) -> None:
        import_plan(plan, folders, files, replace_all)
        for path in sorted(deleted - set(files)):
            entry = plan.tree.at(path)
            if entry is not None and entry.kind == "file" and entry.id not in plan.targets:
                plan.set(entry.id, Target(None, "file"))
        for path in sorted(deleted - set(files) - folders, key=lambda p: p.count("/"), reverse=True):
            entry = plan.tree.at(path)
            if entry is not None and entry.kind == "dir" and _emptied(plan, path):
                plan.set(entry.id, Target(None, "dir"))
        plan.note = "import" + case_note([*files, *folders])

    return await committer.mutate(build, turn, author)


def _emptied(plan: Plan, folder: str) -> bool:
    """Whether the change deletes everything below `folder`: a folder gone from disk goes only then, so
    a file the workspace has there that the disk never saw keeps its folder."""
    below = plan.tree.below(folder)
    return all((target := plan.targets.get(e.id)) is not None and target.path is None for e in below)


def import_plan(plan: Plan, folders: set[str], files: dict[str, bytes], replace_all: bool) -> None:
    tree = plan.tree
    templates: dict[int, Target] = {}  # by content object: a git blob named at many paths is hashed once
    for path in sorted(folders):
        entry = tree.at(path)
        if entry is None:
            plan.set(plan.new_entry(path, "dir"), Target(path, "dir"))
        elif entry.kind == "file" and path not in files:
            raise NotAFile(f"the archive has a folder {path} where the workspace has a file", path=path)
    for path, content in sorted(files.items()):
        entry = tree.at(path)
        if entry is not None and entry.kind == "dir":
            if not replace_all:
                raise NotAFile(f"the archive has a file {path} where the workspace has a folder", path=path)
            plan.set(entry.id, Target(None, "dir"))
            entry = None
        eid = entry.id if entry is not None else plan.new_entry(path, "file")
        template = templates.get(id(content)) or templates.setdefault(id(content), plan.content(content))
        plan.set(eid, replace(template, path=path))
    if replace_all:
        keep = set(files) | folders | {a for p in (set(files) | folders) for a in paths.ancestors(p)}
        for entry in tree.below(paths.ROOT):
            if entry.path not in keep and entry.id not in plan.targets:
                plan.set(entry.id, Target(None, entry.kind))
