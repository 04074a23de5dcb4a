"""A long text is counted in pieces, a tool call by its arguments string, and a turn counts a 600 KB call
without holding the event loop: the page's calls are served between the pieces."""

from __future__ import annotations

import asyncio
import json

from agentlite.engine.tokens import PIECE_CHARS, TokenCounter, call_text, estimate, pieces
from tests.unit.engine.support import Harness, calls, say

BIG = "".join(f"line {n}: some words, numbers {n * 7} and a bit more text\n" for n in range(11_000))


class Recording:
    """A token source that notes each text it is given (and how far a ticker had got then)."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.ticks: list[int] = []
        self.tick = 0

    def __call__(self, text: str) -> int:
        self.sizes.append(len(text))
        self.ticks.append(self.tick)
        return estimate(text)

    async def ticker(self, done: asyncio.Event) -> None:
        while not done.is_set():
            self.tick += 1
            await asyncio.sleep(0)


def test_pieces_cover_the_text_and_stay_near_the_piece_size() -> None:
    parts = list(pieces(BIG))
    assert "".join(parts) == BIG and len(parts) > 20
    assert max(len(p) for p in parts) <= PIECE_CHARS + 1_024
    assert list(pieces("short")) == ["short"]


def test_a_call_counts_the_same_in_the_historys_shape_and_the_requests() -> None:
    arguments = {"path": "/a.txt", "content": BIG}
    neutral = {"id": "c1", "name": "write_file", "arguments": arguments}
    wire = {
        "id": "c1",
        "type": "function",
        "function": {"name": "write_file", "arguments": json.dumps(arguments)},
    }
    source = Recording()
    counter = TokenCounter(source)
    first = counter.messages([{"role": "assistant", "content": "", "tool_calls": [neutral]}])
    counted = len(source.sizes)
    second = counter.messages([{"role": "assistant", "content": "", "tool_calls": [wire]}])
    assert call_text(neutral) == call_text(wire) and first == second
    assert len(source.sizes) == counted  # the second shape found the first's count


def test_prepare_yields_between_pieces_and_leaves_the_same_count() -> None:
    source = Recording()
    counter = TokenCounter(source)

    async def scenario() -> None:
        done = asyncio.Event()
        ticking = asyncio.ensure_future(source.ticker(done))
        await counter.prepare([BIG, "short"])
        done.set()
        await ticking

    asyncio.run(scenario())
    assert len(set(source.ticks)) == len(source.ticks) > 20  # the loop turned between every two pieces
    calls_before = len(source.sizes)
    assert counter.text(BIG) == TokenCounter(estimate).text(BIG)  # prepared or not: one count
    assert len(source.sizes) == calls_before


def test_a_turn_counts_a_600_kb_call_in_pieces_with_the_loop_turning_between_them() -> None:
    big_call = calls(("write_file", {"path": "/big.txt", "content": BIG}))
    h = Harness([big_call, say("written")])
    chat = h.setup()
    source = Recording()
    chat.counter = TokenCounter(source)

    async def scenario() -> None:
        done = asyncio.Event()
        ticking = asyncio.ensure_future(source.ticker(done))
        await h.turn("write it")
        done.set()
        await ticking

    asyncio.run(scenario())
    assert h.text() == "written" and len(h.requests()) == 2
    assert max(source.sizes) <= PIECE_CHARS + 1_024
    long_counts = [tick for size, tick in zip(source.sizes, source.ticks, strict=True) if size > 1_000]
    assert len(long_counts) > 20 and len(set(long_counts)) > len(long_counts) // 2
