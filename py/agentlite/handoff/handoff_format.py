"""The hand-off file's format: its member names, its record lines, its manifest, and the one refusal.

A hand-off file is one zip (docs/handoff-format.md): `manifest.json`, one `stores/<store>.jsonl` per
store of the project's database but `blobs` (one line per record: `{"key": …, "value": …}`, the value
the stored JSON string itself, so a record comes back byte for byte), `blobs.pack` holding every stored
blob (`handoff_pack`), one `attachments/<n>` per attachment and `settings.json`. The manifest names
every other member with its sha256 and size.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any

from agentlite.workspace.records import SCHEMA
from agentlite.workspace.storage import STORES

FORMAT = "agentlite-handoff"
VERSION = 1
MANIFEST = "manifest.json"
SETTINGS = "settings.json"
STORE_PREFIX = "stores/"
ATTACHMENT_PREFIX = "attachments/"
BLOB_STORE = "blobs"
# The chats' stages do not travel: a proposal is reviewed where it was made, and a file that carried one
# could put instructions before the agent that the offer never showed (docs/stage.md).
LOCAL_STORES = ("stage",)
RECORD_STORES = tuple(store for store in STORES if store != BLOB_STORE and store not in LOCAL_STORES)
SCHEMA_VERSION = SCHEMA  # the workspace records' schema (records.SCHEMA)
# A setting's name that may hold a credential. It errs on the side of dropping (a `max_tokens` goes too):
# a setting lost beats a key leaked.
SECRET = re.compile(
    r"^keys?$|api[_-]?key|access[_-]?key|private[_-]?key|token|authori[sz]ation|secret|password|passphrase"
    r"|bearer|cookie|credential|session",
    re.I,
)
SHA256 = re.compile(r"[0-9a-f]{64}")
MIME = re.compile(r"[\w.+-]{1,100}/[\w.+-]{1,100}")
MAX_ID = 200


class HandoffRefused(Exception):
    """A hand-off file that cannot be opened; the message says why, in the user's words, naming the member
    or record at fault. Nothing was written when it is raised."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def attachment_problem(ident: object, mime: object) -> str | None:
    """Why an attachment's id or type cannot travel (None when both can)."""
    if not isinstance(ident, str) or not 0 < len(ident) <= MAX_ID:
        return "an attachment has no valid id"
    if not isinstance(mime, str) or not MIME.fullmatch(mime):
        return f"the attachment {ident[:80]!r} has no valid type"
    return None


def store_member(store: str) -> str:
    return f"{STORE_PREFIX}{store}.jsonl"


def attachment_member(index: int) -> str:
    return f"{ATTACHMENT_PREFIX}{index:06d}"


def record_lines(rows: list[tuple[str, str]]) -> bytes:
    """A store's records, one JSON object a line, in key order (as `json.dumps` of `{"key", "value"}`
    compact and not ASCII-escaped writes it, the two strings encoded without building the object)."""
    text = encode_basestring
    return "".join(f'{{"key":{text(key)},"value":{text(value)}}}\n' for key, value in rows).encode("utf-8")


def parse_lines(member: str, data: bytes) -> list[tuple[str, str]]:
    """(key, value) of each line of a store's member; a line of any other shape is refused."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HandoffRefused(f"{member} is not UTF-8 text") from exc
    lines = text.split("\n")  # LF only: a value may hold U+2028 or U+0085, which are not line ends here
    if lines[-1] == "":
        lines.pop()
    rows: list[tuple[str, str]] = []
    for number, item in enumerate(_all_at_once(lines) or map(_line(member), lines, itertools.count(1)), 1):
        if type(item) is not dict or item.keys() != {"key", "value"}:
            raise HandoffRefused(f"{member} line {number} is not a {{key, value}} record")
        if type(item["key"]) is not str or type(item["value"]) is not str:
            raise HandoffRefused(f"{member} line {number}: its key and value must be text")
        rows.append((item["key"], item["value"]))
    if len({key for key, _value in rows}) != len(rows):
        raise HandoffRefused(f"{member} holds two records under one key")
    return rows


def _all_at_once(lines: list[str]) -> list[Any] | None:
    """Every line parsed in ONE call (10,000 calls cost ~1 s in Pyodide), or None to parse them one by
    one. Exact: when every line starts `{"key":` and ends `}` and the array holds one item a line, no
    item can span two lines (the line's `}` would sit in a string, which the next line's `{"` ends
    before a bare `key`: not JSON)."""
    if not all(line.startswith('{"key":') and line.endswith("}") for line in lines):
        return None
    try:
        items = json.loads("[" + ",".join(lines) + "]")
    except ValueError:
        return None
    return items if len(items) == len(lines) else None


def _line(member: str) -> Callable[[str, int], Any]:
    def parse(line: str, number: int) -> Any:
        try:
            return json.loads(line)
        except ValueError as exc:
            raise HandoffRefused(f"{member} line {number} is not JSON") from exc

    return parse


def without_secrets(value: Any) -> Any:
    """`value` with every key named like a secret (api_key, token, authorization, …) dropped, at any
    depth: a hand-off file never carries a credential."""
    if isinstance(value, dict):
        return {k: without_secrets(v) for k, v in value.items() if not SECRET.search(str(k))}
    if isinstance(value, list):
        return [without_secrets(item) for item in value]
    return value


def canonical(value: Any) -> bytes:
    """JSON bytes for the manifest and the settings (sorted keys, compact: a manifest names every blob)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8") + b"\n"
