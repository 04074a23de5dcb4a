"""Writes replies in the ndjson protocol (docs/protocol.md, ndjson and ndjson-text): the offline demo model
and the tests speak it through this, and it documents the record order by example.

Order: a tool's thinking record and its chunks, the tool record, the tool's chunks; `text` records for
the answer; `done` last. Streams are hashed (producers that can hash always do) unless told not to.
"""

from __future__ import annotations

import base64 as b64
import hashlib
import json
from typing import Any


class NdjsonWriter:
    def __init__(self, base64: bool = True, chunk_size: int = 4096, hashes: bool = True, prefix: str = "s"):
        self.base64 = base64
        self.chunk_size = max(4, chunk_size - chunk_size % 4) if base64 else max(1, chunk_size)
        self.hashes = hashes
        self.prefix = prefix
        self.lines: list[str] = []
        self._streams = 0

    def stream(self, text: str) -> str:
        """Write one stream (start, chunks, end) and return its id."""
        self._streams += 1
        stream_id = f"{self.prefix}{self._streams}"
        raw = text.encode("utf-8")
        data = b64.b64encode(raw).decode("ascii") if self.base64 else text
        key = "data_b64" if self.base64 else "data"
        self.record(type="bs64_start", bs64_id=stream_id)
        for seq, start in enumerate(range(0, len(data), self.chunk_size)):
            self.record(
                type="bs64_chunk", bs64_id=stream_id, seq=seq, **{key: data[start : start + self.chunk_size]}
            )
        digest = "sha256:" + hashlib.sha256(raw).hexdigest() if self.hashes else None
        self.record(type="bs64_end", bs64_id=stream_id, hash=digest)
        return stream_id

    def thinking(self, tool_id: str, text: str) -> None:
        stream_id = f"{self.prefix}{self._streams + 1}"
        self.record(type="thinking", id=tool_id, data_b64=stream_id)
        self.stream(text)

    def text(self, text: str) -> None:
        stream_id = f"{self.prefix}{self._streams + 1}"
        self.record(type="text", data_b64=stream_id)
        self.stream(text)

    def tool(
        self, tool_id: str, name: str, arguments: dict[str, Any], streamed: tuple[str, ...] = ()
    ) -> None:
        """The tool record, then one stream per streamed field present in `arguments`."""
        fields = [f for f in streamed if isinstance(arguments.get(f), str)]
        data = {k: v for k, v in arguments.items() if k not in fields}
        for offset, field in enumerate(fields, start=1):
            data[f"{field}_b64"] = f"{self.prefix}{self._streams + offset}"
        self.record(type="tool", id=tool_id, tool=name, data=data)
        for field in fields:
            self.stream(arguments[field])

    def done(self) -> None:
        self.record(type="done")

    def record(self, **fields: Any) -> None:
        self.lines.append(json.dumps(fields, ensure_ascii=False, separators=(",", ":")))

    def render(self) -> str:
        return "".join(line + "\n" for line in self.lines)
