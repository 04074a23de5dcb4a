"""Replay a captured raw SSE body through the stream decoder and print its events as JSON lines.

    python -m agentlite.replay --dialect native capture.sse
    python -m agentlite.replay --dialect ndjson --tools tools.json --chunk 7 capture.sse

(tests/unit/stream/transcripts/ holds captured bodies and a `tools.json` with the app's tool names.)

`--chunk N` feeds the body N bytes at a time (the events must not change); `--tools` is a JSON list of
tool definitions (`name`, `streamed`, `aliases`) so aliases and streamed fields resolve as in the app.
A last line `{"kind": "truncated", "value": ...}` tells whether the body ended mid-event or unfinished.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from agentlite.errors import StreamError
from agentlite.stream.decoder import DIALECTS, StreamDecoder


def replay(body: bytes, dialect: str, tools: list[dict[str, Any]], chunk: int, out: TextIO) -> None:
    decoder = StreamDecoder(dialect=dialect, tools=tools)
    size = chunk if chunk > 0 else max(1, len(body))
    for start in range(0, len(body), size):
        _write(decoder.feed(body[start : start + size]), out)
    _write(decoder.close(), out)
    out.write(json.dumps({"kind": "truncated", "value": decoder.truncated}) + "\n")


def _write(events: Sequence[Any], out: TextIO) -> None:
    for event in events:
        out.write(json.dumps(event.to_dict(), ensure_ascii=False) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agentlite.replay", description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="a raw SSE body as captured from the endpoint")
    parser.add_argument("--dialect", choices=DIALECTS, default="native")
    parser.add_argument("--tools", type=Path, help="JSON list of tool definitions")
    parser.add_argument("--chunk", type=int, default=0, help="feed N bytes at a time (default: all at once)")
    args = parser.parse_args(argv)
    tools = json.loads(args.tools.read_text(encoding="utf-8")) if args.tools else []
    try:
        replay(args.file.read_bytes(), args.dialect, tools, args.chunk, sys.stdout)
    except StreamError as error:
        print(f"replay: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
