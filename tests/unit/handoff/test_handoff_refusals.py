"""A hand-off file is untrusted: anything changed, added, missing, too big or malformed is refused with a
message naming it, before anything is written."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from typing import Any

import pytest

from agentlite.handoff import HandoffRefused, check_contents, open_handoff, read_handoff, write_handoff
from agentlite.handoff.handoff_format import MANIFEST
from agentlite.handoff.handoff_pack import HEAD, PACK, pack_blobs, unpack_blobs
from agentlite.workspace.storage import MemoryStorage
from tests.unit.handoff.project import make_project, members, rezip

ATTACHED = {"a1": ("text/plain", b"notes")}


async def handoff_files() -> dict[str, bytes]:
    return members(await write_handoff(await make_project(), "Demo", ATTACHED, {"model": "m"}))


def flipped(data: bytes, at: int = 0) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1 :]


def forged(files: dict[str, bytes]) -> bytes:
    """The members with a manifest whose digests match them (a forger who recomputes the digests)."""
    manifest = json.loads(files[MANIFEST])
    manifest["members"] = {
        name: {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
        for name, data in files.items()
        if name != MANIFEST
    }
    return rezip({**files, MANIFEST: json.dumps(manifest).encode()})


def first(files: dict[str, bytes], prefix: str) -> str:
    return next(name for name in sorted(files) if name.startswith(prefix))


@pytest.mark.parametrize(
    "prefix",
    [
        "stores/entries.jsonl",
        "stores/versions.jsonl",
        "stores/chats.jsonl",
        "blobs.pack",
        "attachments/",
        "settings.json",
    ],
)
async def test_a_flipped_byte_is_refused_naming_the_member(prefix: str) -> None:
    files = await handoff_files()
    name = first(files, prefix)
    files[name] = flipped(files[name], len(files[name]) // 2)
    with pytest.raises(HandoffRefused, match=re.escape(f"{name} differs from its manifest digest")):
        read_handoff(rezip(files))


async def test_a_member_longer_than_its_manifest_says_is_refused() -> None:
    files = await handoff_files()
    files["settings.json"] += b" "
    with pytest.raises(HandoffRefused, match=re.escape("settings.json differs from its manifest size")):
        read_handoff(rezip(files))


async def test_a_damaged_zip_is_refused_naming_the_member() -> None:
    data = await write_handoff(await make_project(), "Demo", {}, {})
    at = data.index(b"stores/versions.jsonl") + len("stores/versions.jsonl") + 20  # inside its packed data
    with pytest.raises(HandoffRefused, match=re.escape("stores/versions.jsonl")):
        read_handoff(flipped(data, at))


async def test_a_changed_blob_inside_the_pack_is_refused_naming_the_blob() -> None:
    files = await handoff_files()
    blobs = unpack_blobs(files[PACK])
    sha = sorted(blobs)[len(blobs) // 2]
    blobs[sha] = flipped(blobs[sha], len(blobs[sha]) - 1)
    files[PACK] = pack_blobs(blobs)
    message = f"{PACK} differs from its manifest digest: the blob {sha[:12]} has changed"
    with pytest.raises(HandoffRefused, match=re.escape(message)):
        read_handoff(rezip(files))


@pytest.mark.parametrize(
    "damage",
    [
        lambda pack: pack[:-1],  # its last blob cut short
        lambda pack: pack + HEAD.pack(b"\xff" * 32, 10),  # a blob's head without the blob
        lambda pack: pack[: HEAD.size + 1],  # a blob longer than what follows
    ],
)
async def test_a_pack_cut_off_is_refused(damage: Any) -> None:
    files = await handoff_files()
    files[PACK] = damage(files[PACK])
    with pytest.raises(HandoffRefused, match=re.escape(f"{PACK} is cut off")):
        read_handoff(forged(files))


async def test_a_pack_with_a_blob_twice_is_refused() -> None:
    files = await handoff_files()
    first_blob = files[PACK][: HEAD.size + HEAD.unpack_from(files[PACK])[1]]
    files[PACK] = first_blob + files[PACK]
    with pytest.raises(HandoffRefused, match=re.escape(f"{PACK} holds its blobs out of order or twice")):
        read_handoff(forged(files))


async def test_a_changed_manifest_is_refused() -> None:
    files = await handoff_files()
    manifest = json.loads(files[MANIFEST])
    manifest["members"]["stores/memory.jsonl"]["sha256"] = "0" * 64
    files[MANIFEST] = json.dumps(manifest).encode()
    with pytest.raises(
        HandoffRefused, match=re.escape("stores/memory.jsonl differs from its manifest digest")
    ):
        read_handoff(rezip(files))


async def test_an_extra_member_is_refused() -> None:
    files = await handoff_files()
    files["/etc/evil"] = b"x"
    with pytest.raises(HandoffRefused, match="/etc/evil is not in the manifest"):
        read_handoff(rezip(files))


async def test_a_missing_member_is_refused() -> None:
    files = await handoff_files()
    name = PACK
    del files[name]
    with pytest.raises(HandoffRefused, match=re.escape(f"{name} is missing")):
        read_handoff(rezip(files))


async def test_a_member_the_format_does_not_know_is_refused_even_when_listed() -> None:
    files = await handoff_files()
    files["stores/secrets.jsonl"] = b""
    with pytest.raises(HandoffRefused, match="unknown store 'secrets'"):
        read_handoff(forged(files))


@pytest.mark.parametrize("data", [b"", b"hello", b"PK\x03\x04broken"])
def test_not_a_zip_is_refused(data: bytes) -> None:
    with pytest.raises(HandoffRefused, match="not an AgentLite hand-off file"):
        read_handoff(data)


def test_a_zip_of_another_kind_is_refused() -> None:
    with pytest.raises(HandoffRefused, match="not an AgentLite hand-off file"):
        read_handoff(rezip({"files/a.txt": b"a"}))
    with pytest.raises(HandoffRefused, match="not an AgentLite hand-off file"):
        read_handoff(rezip({MANIFEST: json.dumps({"format": "agentlite-workspace"}).encode()}))


async def test_a_newer_version_is_refused() -> None:
    files = await handoff_files()
    manifest = json.loads(files[MANIFEST])
    manifest["version"] = 2
    files[MANIFEST] = json.dumps(manifest).encode()
    with pytest.raises(HandoffRefused, match="newer AgentLite"):
        read_handoff(rezip(files))


async def test_a_zip_bomb_is_refused_before_it_inflates() -> None:
    files = await handoff_files()
    files[PACK] = bytes(4 * 1024 * 1024)  # 4 MB of zeros deflate to a few KB
    with pytest.raises(HandoffRefused, match="inflates more than 100 times"):
        read_handoff(forged(files))


async def test_the_time_budget_is_kept() -> None:
    data = await write_handoff(await make_project(), "Demo", {}, {})
    ticks = itertools.count(step=10.0)
    with pytest.raises(HandoffRefused, match="took more than 30 s"):
        read_handoff(data, clock=lambda: next(ticks), deadline=30.0)


def renamed(data: bytes, old: str, new: str) -> bytes:
    """A store's lines with every record's `path` `old` made `new`."""
    lines = []
    for line in data.splitlines():
        item = json.loads(line)
        record = json.loads(item["value"])
        if record.get("path") == old:
            record["path"] = new
        lines.append(json.dumps({"key": item["key"], "value": json.dumps(record)}).encode())
    return b"\n".join(lines) + b"\n"


@pytest.mark.parametrize("bad", ["/../x", "/a/../../x", "/a\x00b", "relative.txt", "/a//b", "/a/./b", "/"])
async def test_a_path_against_the_workspace_rules_is_refused(bad: str) -> None:
    files = await handoff_files()
    for store in ("entries", "versions"):
        name = f"stores/{store}.jsonl"
        files[name] = renamed(files[name], "/img/logo.png", bad)
    with pytest.raises(HandoffRefused, match="invalid path"):
        read_handoff(forged(files))


@pytest.mark.parametrize(
    ("store", "line", "message"),
    [
        ("entries", '{"key":"0000000099","value":"{\\"id\\":\\"x\\"}"}', "malformed id"),
        ("versions", '{"key":"k","value":"not json"}', "not JSON"),
        ("chats", '{"key":"settings","value":"{}"}', "not a record the chats keep"),
        ("chats", '{"key":"chat:z","value":"{\\"id\\":\\"other\\"}"}', "malformed"),
        ("memory", '{"key":"m","value":"[]"}', "malformed"),
        ("meta", '{"key":"other","value":"{}"}', "unknown record"),
        ("turns", "[1,2]", "not a {key, value} record"),
    ],
)
async def test_a_malformed_record_is_refused(store: str, line: str, message: str) -> None:
    files = await handoff_files()
    files[f"stores/{store}.jsonl"] += line.encode() + b"\n"
    with pytest.raises(HandoffRefused, match=message):
        read_handoff(forged(files))


async def test_a_server_url_that_is_not_http_is_refused() -> None:
    files = await handoff_files()
    book = json.dumps(json.dumps([{"url": "javascript:alert(1)"}]))
    lines = [line for line in files["stores/chats.jsonl"].splitlines() if b'"mcp_servers"' not in line]
    files["stores/chats.jsonl"] = (
        b"\n".join([*lines, b'{"key":"mcp_servers","value":' + book.encode() + b"}"]) + b"\n"
    )
    with pytest.raises(HandoffRefused, match="mcp_servers' is malformed"):
        read_handoff(forged(files))


async def test_a_blob_that_does_not_hash_to_its_name_is_refused_before_anything_is_written() -> None:
    files = await handoff_files()
    blobs = unpack_blobs(files[PACK])
    blobs[min(blobs)] = b"F" + b"forged content"
    files[PACK] = pack_blobs(blobs)
    handoff = read_handoff(forged(files))  # its digest in the manifest matches: the content check finds it
    with pytest.raises(HandoffRefused, match="damaged"):
        await check_contents(handoff)
    target = MemoryStorage()
    with pytest.raises(HandoffRefused):
        await open_handoff(target, handoff)
    assert target.commits == 0
