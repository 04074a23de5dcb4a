"""The NDJSON throughput workload, the same code on CPython and inside Pyodide (it imports only the
standard library and `agentlite`, so the page can import it as a plain module).

Input: one ndjson reply as the demo model's writer produces it (thinking, `write_file` calls whose
`content` is a 400-line Python file, the answer text, `done`) — about 0.5 MB. The parser reads it in
4 KB pieces, as a network read delivers them, through incremental UTF-8 decoding into the ndjson content
decoder (every record parsed, base64 decoded, sha256 checked, previews and tool events built). The floor
is `bytes.split(b"\\n")` over the same bytes. Both are timed in loops of at least `MIN_SECONDS` so a
coarse browser clock does not matter, interleaved round by round so drift affects both alike.
"""

from __future__ import annotations

import codecs
import json
import time
from collections.abc import Callable

from agentlite.stream.decoder import StreamDecoder
from agentlite.stream.ndjson_writer import NdjsonWriter

PIECE = 4096
TOOLS = 20
MIN_SECONDS = 0.05


def reply(base64: bool = True) -> bytes:
    """A reply of TOOLS file writes, deterministic so every run parses the same bytes."""
    writer = NdjsonWriter(base64=base64)
    for index in range(TOOLS):
        source = "".join(
            f"def step_{index}_{line}(value):\n    return value * {line % 97} + {index}  # ünïcode\n"
            for line in range(200)
        )
        writer.thinking(f"w{index}", f"Writing module {index}: the steps, one function per line. " * 4)
        writer.tool(f"w{index}", "write_file", {"path": f"src/m{index}.py", "content": source}, ("content",))
    writer.text("All modules are written; each step multiplies its value. " * 8)
    writer.done()
    return writer.render().encode("utf-8")


def parse(data: bytes, dialect: str = "ndjson") -> int:
    """Decode the reply as the agent does; the number of events (so the work cannot be skipped)."""
    decoder = StreamDecoder.for_text(dialect)
    utf8 = codecs.getincrementaldecoder("utf-8")()
    events = 0
    for start in range(0, len(data), PIECE):
        events += len(decoder.feed(utf8.decode(data[start : start + PIECE])))
    return events + len(decoder.close())


def seconds_per_pass(work: Callable[[], object]) -> float:
    """Mean time of one pass over a loop that lasts at least MIN_SECONDS."""
    passes, started = 0, time.perf_counter()
    while True:
        work()
        passes += 1
        elapsed = time.perf_counter() - started
        if elapsed >= MIN_SECONDS:
            return elapsed / passes


def measure(rounds: int = 7, dialect: str = "ndjson") -> str:
    """JSON: the input size and, per round, seconds per pass of the parser and of the floor."""
    data = reply(base64=dialect == "ndjson")
    parse(data, dialect)  # warm up imports and caches
    parser, floor = [], []
    for _ in range(rounds):
        floor.append(seconds_per_pass(lambda: data.split(b"\n")))
        parser.append(seconds_per_pass(lambda: parse(data, dialect)))
    return json.dumps({"bytes": len(data), "parser": parser, "floor": floor})
