"""How real models and servers get tool calls wrong, and what the agent makes of each (docs/protocol.md,
"Messy tool calls").

Each case either runs (the repair is unambiguous; the real registry validates the arguments) or gets a
one-line correction the model can act on in the next round. No case runs a call twice, and no case
shows call markup to the user. The share recovered within one extra round is asserted and printed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from agentlite.engine.dialect import writes_calls_as_text
from agentlite.events import Event, TextDelta, ThinkingDelta, ToolCallInvalid, ToolCallReady
from agentlite.stream.decoder import StreamDecoder
from agentlite.tools.catalog import default_registry
from agentlite.tools.result import ToolError

from .support import content_chunks, split, sse

REGISTRY = default_registry()
TOOLS = REGISTRY.definitions()
READ_A = [("read_file", {"path": "/a"})]
READ_AB = [("read_file", {"path": "/a"}), ("read_file", {"path": "/b"})]
LEGACY = '{"path": "/a"}'  # the same arguments again, in the legacy `function_call` object
MARKUP = ("<tool_call", "</tool_call", "<function", "</function", "<|", '{"tool"', '{"name"', "{'tool'")


@dataclass(frozen=True)
class Case:
    text: str  # the content the model wrote (json dialect), or a whole SSE body (native)
    runs: list[tuple[str, dict[str, Any]]]  # the calls that run; [] when the model gets a correction
    dialect: str = "json"
    finish: str = "stop"


def _native(*deltas: dict[str, Any], finish: str = "tool_calls") -> str:
    chunks: list[dict[str, Any] | str] = [{"choices": [{"index": 0, "delta": d}]} for d in deltas]
    chunks += [{"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}, "[DONE]"]
    return sse(*chunks).decode()


def _call(arguments: Any, name: str | None = "read_file", index: int = 0) -> dict[str, Any]:
    function = {"arguments": arguments} | ({"name": name} if name else {})
    return {"tool_calls": [{"index": index, "id": "x1", "type": "function", "function": function}]}


CORPUS: dict[str, Case] = {
    "hermes": Case('I will read it.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "/a"}}\n'
                   "</tool_call>", READ_A),
    "hermes_inline": Case('<tool_call>{"name": "read_file", "arguments": {"path": "/a"}}</tool_call>',
                          READ_A),
    "qwen_two_blocks": Case('<tool_call>\n{"name": "read_file", "arguments": {"path": "/a"}}\n</tool_call>\n'
                            '<tool_call>\n{"name": "read_file", "arguments": {"path": "/b"}}\n</tool_call>',
                            READ_AB),
    "llama_function_tag": Case('<function=read_file>{"path": "/a"}</function>', READ_A),
    "llama_function_after_prose": Case('Reading now. <function=read_file>{"path": "/a"}</function>', READ_A),
    "llama_python_tag": Case('<|python_tag|>{"name": "read_file", "parameters": {"path": "/a"}}<|eom_id|>',
                             READ_A),
    "json_array": Case('[{"tool": "read_file", "arguments": {"path": "/a"}}, '
                       '{"tool": "read_file", "arguments": {"path": "/b"}}]', READ_AB),
    "arguments_as_string": Case('{"tool": "read_file", "arguments": "{\\"path\\": \\"/a\\"}"}', READ_A),
    "single_quotes": Case("{'tool': 'read_file', 'arguments': {'path': '/a'}}", READ_A),
    "trailing_commas": Case('{"tool": "read_file", "arguments": {"path": "/a",},}', READ_A),
    "fence_after_prose": Case('Let me look.\n```json\n{"tool": "read_file", "arguments": {"path": "/a"}}'
                              "\n```", READ_A),
    "wrong_argument_name": Case('{"tool": "read_file", "arguments": {"file_path": "/a"}}', READ_A),
    "wrong_argument_names_ambiguous": Case(
        '{"tool": "move_file", "arguments": {"from": "/a", "to": "/b"}}', []),
    "think_around_call": Case('<think>\n{"tool": "read_file", "arguments": {"path": "/a"}}\n</think>\nDone.',
                              []),
    "think_inside_call": Case('{"tool": "read_file", <think>hmm</think>"arguments": {"path": "/a"}}', []),
    "cut_by_length": Case('{"tool": "write_file", "arguments": {"path": "/a.txt", "content": "hello', [],
                          finish="length"),
    "cut_by_length_after_value": Case('{"tool": "read_file", "arguments": {"path": "/a"', [],
                                      finish="length"),
    "glued_calls": Case('{"tool": "read_file", "arguments": {"path": "/a"}}'
                        '{"tool": "read_file", "arguments": {"path": "/b"}}', READ_AB),
    "glued_name_calls": Case('{"name": "read_file", "arguments": {"path": "/a"}}'
                             '{"name": "read_file", "arguments": {"path": "/b"}}', READ_AB),
    "native_arguments_object": Case(_native(_call({"path": "/a"})), READ_A, dialect="native"),
    "native_function_call_beside_tool_calls": Case(
        _native(_call('{"path": "/a"}') | {"function_call": {"name": "read_file", "arguments": LEGACY}}),
        READ_A, dialect="native"),
    "native_cut_by_length": Case(_native(_call('{"path": "/a')), [], dialect="native", finish="length"),
}  # fmt: skip


def _body(case: Case) -> bytes:
    if case.dialect == "native":
        text = case.text if case.finish != "length" else case.text.replace('"tool_calls"}', '"length"}')
        return text.encode()
    return content_chunks(*[case.text[i : i + 7] for i in range(0, len(case.text), 7)], finish=case.finish)


def _decode(body: bytes, dialect: str, pieces: list[bytes] | None = None) -> list[Event]:
    decoder = StreamDecoder(dialect, TOOLS)
    events: list[Event] = []
    for piece in pieces or [body]:
        events += decoder.feed(piece)
    return events + decoder.close()


@dataclass
class Outcome:
    ran: list[tuple[str, dict[str, Any]]]
    corrections: list[str]
    text: str


def outcome(events: list[Event]) -> Outcome:
    """What the engine does with the reply: calls the registry accepts run, the rest are corrected."""
    ran: list[tuple[str, dict[str, Any]]] = []
    corrections = [e.reason for e in events if isinstance(e, ToolCallInvalid)]
    ids = [e.id for e in events if isinstance(e, ToolCallReady | ToolCallInvalid)]
    assert len(ids) == len(set(ids)), "a call is never reported twice"
    for event in events:
        if isinstance(event, ToolCallReady):
            try:
                _, args = REGISTRY.validate(event.name, dict(event.arguments))
            except ToolError as error:
                corrections.append(error.message)
                continue
            ran.append((event.name, {k: v for k, v in args.model_dump().items() if k in ("path",)}))
    thinking = "".join(e.text for e in events if isinstance(e, ThinkingDelta))
    if not ran and writes_calls_as_text(thinking, set(REGISTRY.names())):
        corrections.append("a call inside thinking does not run (engine: CALL_IN_THINKING)")
    return Outcome(ran, corrections, "".join(e.text for e in events if isinstance(e, TextDelta)))


@pytest.mark.parametrize("name", list(CORPUS))
def test_each_case_runs_or_gets_a_one_line_correction(name: str) -> None:
    case = CORPUS[name]
    result = outcome(_decode(_body(case), case.dialect))
    assert result.ran == case.runs
    if not case.runs:
        assert result.corrections, "a call that does not run is reported to the model"
        assert all("\n" not in c and c.strip() for c in result.corrections), result.corrections
    assert not any(mark in result.text for mark in MARKUP), result.text


@pytest.mark.parametrize("name", list(CORPUS))
def test_each_case_decodes_the_same_however_it_is_split(name: str) -> None:
    case = CORPUS[name]
    body = _body(case)
    whole = _decode(body, case.dialect)
    for step in (1, 5, 13):
        pieces = split(body, range(step, len(body), step))
        assert _decode(body, case.dialect, pieces) == whole


def test_the_corpus_is_recovered_within_one_extra_round() -> None:
    results = {name: outcome(_decode(_body(c), c.dialect)) for name, c in CORPUS.items()}
    direct = sum(bool(r.ran) for r in results.values())
    recovered = sum(bool(r.ran or r.corrections) for r in results.values())
    share = recovered / len(CORPUS)
    print(json.dumps({"cases": len(CORPUS), "run_directly": direct, "recovered_within_one_round": recovered}))
    assert share >= 0.95
