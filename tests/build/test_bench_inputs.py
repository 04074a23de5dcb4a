"""The texts the token and throughput benchmarks measure are what the project really sends and decodes."""

from __future__ import annotations

import pytest

from agentlite.events import ToolCallInvalid, ToolCallReady
from agentlite.stream.decoder import StreamDecoder
from agentlite.tools.catalog import default_registry
from buildsys.bench import bench_ndjson_load, bench_tokens

TOOLS = default_registry().definitions()
WRITE = {
    "id": "call_1",
    "name": "write_file",
    "arguments": {"path": "/src/Button.tsx", "content": 'a\n"b"\n'},
}


@pytest.mark.parametrize("dialect", ["json", "ndjson", "ndjson-text"])
def test_a_reply_decodes_to_the_same_call(dialect: str) -> None:
    text = bench_tokens.reply_text(dialect, "", [WRITE], TOOLS)
    decoder = StreamDecoder.for_text(dialect, TOOLS)
    events = decoder.feed(text) + decoder.close()
    ready = [e for e in events if isinstance(e, ToolCallReady)]
    assert [(e.name, e.arguments) for e in ready] == [("write_file", WRITE["arguments"])]


def test_native_reply_is_the_name_and_arguments_json() -> None:
    text = bench_tokens.reply_text("native", "", [WRITE], TOOLS)
    assert text.startswith("write_file{") and '"content": "a\\n\\"b\\"\\n"' in text


def test_scenario_rounds_carry_the_system_prompt_and_every_result() -> None:
    scenario = bench_tokens.SCENARIOS[2]
    native = bench_tokens.scenario_tally("native", scenario)
    prompted = bench_tokens.scenario_tally("ndjson", scenario)
    rounds = len(scenario.steps) + 1
    assert sum('"type": "function"' in t for t in native.texts) == rounds  # the tools list, once per request
    assert not any('"type": "function"' in t for t in prompted.texts)
    assert sum("## Reply format: NDJSON" in t for t in prompted.texts) == rounds
    assert any("Old Title" in t for t in prompted.texts)
    assert prompted.texts[-1].endswith('{"type":"done"}\n')


def test_the_one_line_edit_matches_exactly_one_line_of_five_hundred() -> None:
    source = bench_tokens.five_hundred_lines()
    assert source.count("\n") == 500
    assert source.count("    return dispatch(event, 137)\n") == 1


@pytest.mark.parametrize("dialect", ["ndjson", "ndjson-text"])
def test_the_throughput_workload_runs_every_tool(dialect: str) -> None:
    data = bench_ndjson_load.reply(base64=dialect == "ndjson")
    decoder = StreamDecoder.for_text(dialect)
    events = decoder.feed(data.decode()) + decoder.close()
    assert sum(isinstance(e, ToolCallReady) for e in events) == bench_ndjson_load.TOOLS
    assert not any(isinstance(e, ToolCallInvalid) for e in events)
    assert bench_ndjson_load.parse(data, dialect) > bench_ndjson_load.TOOLS
