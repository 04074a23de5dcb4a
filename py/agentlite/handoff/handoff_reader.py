"""Reading a hand-off file, which is untrusted: every check passes before anything is written anywhere.

In order: it is a zip, within the import budget on what its directory declares (bytes, members, how far
a member inflates: `limits.IMPORT_BYTES`, `IMPORT_FILES`, `MAX_RATIO`), its manifest is ours and not of a
newer version, the members and the manifest name the same set, every member is read within the size the
manifest gives and hashes to its digest (a member that differs is named), and the whole read stays
within `DEADLINE` seconds. Then its records are checked as the workspace would check them
(`handoff_records`). Any problem raises `HandoffRefused`, whose message names what is wrong.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
import zipfile
from collections.abc import Callable
from typing import Any

from agentlite.handoff.handoff_contents import Handoff
from agentlite.handoff.handoff_format import (
    ATTACHMENT_PREFIX,
    FORMAT,
    MANIFEST,
    RECORD_STORES,
    SETTINGS,
    SHA256,
    STORE_PREFIX,
    VERSION,
    HandoffRefused,
    attachment_problem,
    parse_lines,
    without_secrets,
)
from agentlite.handoff.handoff_pack import PACK, changed_blobs, unpack_blobs
from agentlite.handoff.handoff_records import check_records
from agentlite.limits import IMPORT_BYTES, IMPORT_FILES
from agentlite.workspace.import_budget import read_member
from agentlite.workspace.workspace_errors import WorkspaceError, size_text

MANIFEST_BYTES = 64 * 1024 * 1024  # a manifest names every member: ~150 bytes each, IMPORT_FILES of them
MAX_RATIO = 100  # how many times its packed size a member over RATIO_FROM bytes may inflate to
RATIO_FROM = 1024 * 1024
DEADLINE = 120.0  # seconds the whole read may take
NOT_OURS = "this is not an AgentLite hand-off file"


def read_handoff(
    data: bytes, *, clock: Callable[[], float] = time.monotonic, deadline: float = DEADLINE
) -> Handoff:
    """The project in `data`, verified whole; HandoffRefused when anything in it is wrong."""
    if len(data) > IMPORT_BYTES:
        raise HandoffRefused(f"the file is over {size_text(IMPORT_BYTES)}; nothing was opened")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise HandoffRefused(f"{NOT_OURS} (it is not a zip)") from exc
    with archive:
        infos = _directory(archive)
        manifest = _manifest(archive, infos)
        members = _members(manifest, infos)
        contents = _contents(archive, infos, members, _timer(clock, deadline))
    handoff = _handoff(manifest, contents)
    handoff.size = len(data)
    check_records(handoff)
    return handoff


def _directory(archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """The members by name, refused on their declared sizes before a byte is inflated."""
    infos = archive.infolist()
    if len(infos) > IMPORT_FILES:
        raise HandoffRefused(f"the file holds more than {IMPORT_FILES:,} members; nothing was opened")
    if sum(info.file_size for info in infos) > IMPORT_BYTES:
        raise HandoffRefused(
            f"the file would inflate to more than {size_text(IMPORT_BYTES)}; nothing was opened"
        )
    found: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        if info.filename in found:
            raise HandoffRefused(f"the file holds {info.filename} twice")
        if info.file_size > RATIO_FROM and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise HandoffRefused(f"{info.filename} inflates more than {MAX_RATIO} times; nothing was opened")
        found[info.filename] = info
    return found


def _manifest(archive: zipfile.ZipFile, infos: dict[str, zipfile.ZipInfo]) -> dict[str, Any]:
    if MANIFEST not in infos:
        raise HandoffRefused(f"{NOT_OURS} (it has no {MANIFEST})")
    try:
        manifest = json.loads(read_member(archive, infos[MANIFEST], MANIFEST_BYTES, MANIFEST))
    except (WorkspaceError, ValueError) as exc:
        raise HandoffRefused(f"its {MANIFEST} cannot be read ({exc})") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise HandoffRefused(NOT_OURS)
    version = manifest.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise HandoffRefused(f"its {MANIFEST} has no valid format version")
    if version > VERSION:
        raise HandoffRefused(
            f"the file was written by a newer AgentLite (hand-off format version {version}); this one "
            f"opens version {VERSION}: open it in a newer AgentLite"
        )
    if not isinstance(manifest.get("name"), str) or not isinstance(manifest.get("members"), dict):
        raise HandoffRefused(f"its {MANIFEST} lacks the project's name or its members")
    return manifest


def _members(manifest: dict[str, Any], infos: dict[str, zipfile.ZipInfo]) -> dict[str, tuple[str, int]]:
    """name -> (sha256, size) as the manifest gives them, once the manifest and the zip agree on names."""
    listed: dict[str, tuple[str, int]] = {}
    for name, facts in manifest["members"].items():
        sha, size = (facts.get("sha256"), facts.get("size")) if isinstance(facts, dict) else (None, None)
        if not isinstance(sha, str) or not SHA256.fullmatch(sha) or not isinstance(size, int) or size < 0:
            raise HandoffRefused(f"the manifest's entry for {name} is malformed")
        listed[name] = (sha, size)
    for name in sorted(infos):
        if name != MANIFEST and name not in listed:
            raise HandoffRefused(f"{name} is not in the manifest; nothing was opened")
    for name in sorted(listed):
        if name not in infos or name == MANIFEST:
            raise HandoffRefused(f"{name} is missing from the file; nothing was opened")
    return listed


def _contents(
    archive: zipfile.ZipFile,
    infos: dict[str, zipfile.ZipInfo],
    members: dict[str, tuple[str, int]],
    within_time: Callable[[], None],
) -> dict[str, bytes]:
    """Every member's bytes, each read no further than its manifest size and checked against its digest."""
    contents: dict[str, bytes] = {}
    for name, (sha, size) in sorted(members.items()):
        within_time()
        if infos[name].file_size != size:
            raise HandoffRefused(f"{name} differs from its manifest size; nothing was opened")
        try:
            data = read_member(archive, infos[name], size, name)
        except WorkspaceError as exc:
            raise HandoffRefused(f"{name} differs from its manifest digest ({exc})") from exc
        if hashlib.sha256(data).hexdigest() != sha:
            which = _changed(name, data)
            raise HandoffRefused(f"{name} differs from its manifest digest{which}; nothing was opened")
        contents[name] = data
    within_time()
    return contents


def _changed(name: str, data: bytes) -> str:
    """Within the pack, the blobs that no longer match their names ("" for any other member)."""
    named = changed_blobs(data) if name == PACK else []
    shown = ", ".join(sha[:12] for sha in named[:3]) + (" …" if len(named) > 3 else "")
    return f": the blob {shown} has changed" if named else ""


def _timer(clock: Callable[[], float], deadline: float) -> Callable[[], None]:
    start = clock()

    def within_time() -> None:
        if clock() - start > deadline:
            raise HandoffRefused(f"reading the file took more than {deadline:.0f} s; nothing was opened")

    return within_time


def _handoff(manifest: dict[str, Any], contents: dict[str, bytes]) -> Handoff:
    """The members sorted into stores, blobs, attachments and settings; an unknown name is refused."""
    records: dict[str, list[tuple[str, str]]] = {}
    blobs: dict[str, bytes] = {}
    for name, data in contents.items():
        if name.startswith(STORE_PREFIX) and name.endswith(".jsonl"):
            store = name[len(STORE_PREFIX) : -len(".jsonl")]
            if store not in RECORD_STORES:
                raise HandoffRefused(f"{name} is of an unknown store {store!r}")
            records[store] = parse_lines(name, data)
        elif name == PACK:
            blobs = unpack_blobs(data)
        elif not name.startswith(ATTACHMENT_PREFIX) and name != SETTINGS:
            raise HandoffRefused(f"{name} is not a member a hand-off file holds")
    attachments = _attachments(manifest, contents)
    created = manifest.get("created")
    settings = _settings(contents)
    return Handoff(manifest["name"][:200], str(created or "")[:40], records, blobs, attachments, settings)


def _attachments(manifest: dict[str, Any], contents: dict[str, bytes]) -> dict[str, tuple[str, bytes]]:
    listed = manifest.get("attachments") or []
    if not isinstance(listed, list):
        raise HandoffRefused("the manifest's attachments are malformed")
    found: dict[str, tuple[str, bytes]] = {}
    for item in listed:
        ident, mime, member = (
            (item.get(k) for k in ("id", "type", "member")) if isinstance(item, dict) else [None] * 3
        )
        problem = attachment_problem(ident, mime) or (
            "two attachments have one id" if ident in found else None
        )
        if problem is not None:
            raise HandoffRefused(f"{problem} in the manifest")
        if not isinstance(member, str) or not member.startswith(ATTACHMENT_PREFIX) or member not in contents:
            raise HandoffRefused(f"the attachment {str(ident)[:80]!r} names no member of the file")
        found[str(ident)] = (str(mime), contents[member])
    named = {member for member in contents if member.startswith(ATTACHMENT_PREFIX)}
    if len(named) != len(found):
        raise HandoffRefused("the file's attachment members and its manifest's attachments differ")
    return found


def _settings(contents: dict[str, bytes]) -> dict[str, Any]:
    if SETTINGS not in contents:
        return {}
    try:
        settings = json.loads(contents[SETTINGS])
    except ValueError as exc:
        raise HandoffRefused(f"{SETTINGS} is not JSON") from exc
    if not isinstance(settings, dict):
        raise HandoffRefused(f"{SETTINGS} is not a JSON object")
    kept: dict[str, Any] = without_secrets(settings)
    return kept
