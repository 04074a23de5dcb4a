"""The pure parts of the model in the page (docs/local-model.md): the GGUF header reader and the wire
mapping (web/src/local-model/gguf-header.js, wire.js, under Node), and the agent's side of `local:`."""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.engine.dialect import DialectChooser
from agentlite.profiles import LOCAL_BASE
from agentlite.settings import Settings
from buildsys.testing import llama_server
from tests.node_json import run_node

RUNNER = Path(__file__).with_name("gguf_runner.mjs")


def gguf_string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def gguf_header(pairs: list[tuple[str, int, bytes]], magic: bytes = b"GGUF") -> bytes:
    """A GGUF v3 header with no tensors: (key, value type, encoded value) pairs."""
    out = magic + struct.pack("<IQQ", 3, 0, len(pairs))
    for key, kind, value in pairs:
        out += gguf_string(key) + struct.pack("<I", kind) + value
    return out


SMALL = [
    ("general.architecture", 8, gguf_string("llama")),
    ("general.name", 8, gguf_string("Tiny Test")),
    ("general.size_label", 8, gguf_string("1M")),
    ("general.file_type", 4, struct.pack("<I", 7)),
    ("llama.context_length", 4, struct.pack("<I", 2048)),
    ("tokenizer.ggml.tokens", 9, struct.pack("<IQ", 8, 2) + gguf_string("a") + gguf_string("b")),
    ("tokenizer.chat_template", 8, gguf_string("{% for m in messages %}{{ m.content }}{% endfor %}")),
]


def node(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return run_node(RUNNER, cases)


def header_case(data: bytes) -> dict[str, Any]:
    return {"kind": "header", "base64": base64.b64encode(data).decode()}


def test_a_generated_header_gives_the_model_facts() -> None:
    [answer] = node([header_case(gguf_header(SMALL))])
    facts = answer["value"]["facts"]
    assert facts["name"] == "Tiny Test" and facts["architecture"] == "llama"
    assert facts["parameters"] == "1M" and facts["quantisation"] == "Q8_0"
    assert facts["contextLength"] == 2048 and facts["tools"] is False
    assert answer["value"]["metadata"]["tokenizer.ggml.tokens"] == {"array": 2}


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"PK\x03\x04 not a model at all", "no GGUF magic"),
        (b"", "no GGUF magic"),
        (gguf_header(SMALL)[:-7], "cut short"),
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 2**40), "too many keys"),
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 2**62), "too large"),
        (b"GGUF" + struct.pack("<IQQ", 9, 0, 0), "version 9"),
    ],
)
def test_a_file_that_is_not_a_whole_gguf_header_is_refused(data: bytes, error: str) -> None:
    [answer] = node([header_case(data)])
    assert "GgufError" in answer["error"] and error in answer["error"]


def array(item_type: int, count: int, items: bytes = b"") -> bytes:
    return struct.pack("<IQ", item_type, count) + items


def one_key(kind: int, value: bytes, keys: int = 1) -> bytes:
    return b"GGUF" + struct.pack("<IQQ", 3, 0, keys) + gguf_string("k") + struct.pack("<I", kind) + value


LIMITS = {
    "keys": 10_000,
    "string": 1 << 20,
    "array": 1 << 22,
    "steps": 4_000_000,
    "depth": 1,
}  # gguf-header.js
HOSTILE = [
    # (header, the refusal, the most values it may read first: a key is one, its value another)
    (b"GGUF" + struct.pack("<IQQ", 3, 0, LIMITS["keys"] + 1), "too many keys", 0),
    (one_key(9, array(0, LIMITS["array"] + 1)), "array in the header is too long", 2),
    (one_key(9, array(0, LIMITS["array"])), "cut short", 2),  # 4M uint8 announced, none there: one step
    (one_key(9, array(9, 1, array(9, 1, array(0, 0)))), "nested too deep", 3),
    (one_key(9, array(9, 2**40)), "too long", 2),
    (one_key(8, struct.pack("<Q", LIMITS["string"] + 1)), "string in the header is too long", 2),
    (one_key(8, struct.pack("<Q", 2**40) + b"abc"), "string in the header is too long", 2),
    (one_key(8, struct.pack("<Q", 1000) + b"abc"), "cut short", 2),
    (one_key(13, b"\0" * 8), "unknown value type 13", 2),
    (one_key(9, array(13, 5)), "unknown value type 13", 3),
    (
        one_key(4, struct.pack("<I", 1), keys=LIMITS["keys"]),
        "cut short",
        3,
    ),  # 10,000 keys announced, one there
]


@pytest.mark.parametrize(("data", "error", "most"), HOSTILE)
def test_a_hostile_header_is_refused_within_a_few_steps(data: bytes, error: str, most: int) -> None:
    [answer] = node([header_case(data)])
    assert "GgufError" in answer["error"] and error in answer["error"], answer
    assert answer["steps"] <= most


def test_a_header_of_more_values_than_the_budget_is_refused_at_the_budget() -> None:
    """Every string of a vocabulary is a step, scalars a step per array: the budget counts them."""
    strings = one_key(9, array(8, 5000, gguf_string("") * 5000))
    scalars = one_key(9, array(4, 1_000_000, bytes(4_000_000)), keys=1)
    small = {"steps": 1000}
    refused, whole_strings, whole_scalars = node(
        [
            {**header_case(strings), "limits": small},
            header_case(strings),
            {**header_case(scalars), "limits": small},
        ]
    )
    assert "too many values" in refused["error"] and refused["steps"] == 1000
    assert whole_strings["value"]["steps"] == 5002 and whole_strings["value"]["metadata"]["k"] == {
        "array": 5000
    }
    assert whole_scalars["value"]["steps"] == 2  # a million scalars: skipped at once


def test_every_cut_of_a_header_is_refused_as_cut_short() -> None:
    data = gguf_header(SMALL)
    answers = node([header_case(data[:n]) for n in range(len(data))])
    for n, answer in enumerate(answers):
        words = "no GGUF magic" if n < 4 else "cut short"
        assert "GgufError" in answer["error"] and words in answer["error"], (n, answer)


@settings(max_examples=20, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, len(gguf_header(SMALL)) - 1), st.integers(0, 255)), min_size=1, max_size=6
    )
)
def test_any_damaged_header_is_read_or_refused_within_the_budget(damage: list[tuple[int, int]]) -> None:
    """Bytes changed anywhere (counts, lengths, types): read or refused as GgufError, within the budget."""
    data = bytearray(gguf_header(SMALL))
    for at, byte in damage:
        data[at] = byte
    small = {"steps": 50, "array": 1000, "string": 4096}
    for answer in node([header_case(bytes(data)), {**header_case(bytes(data)), "limits": small}]):
        assert "value" in answer or answer["error"].startswith("GgufError: "), answer
        assert (answer.get("value") or answer)["steps"] <= LIMITS["steps"]


@pytest.mark.skipif(not llama_server.MODEL.exists(), reason="the SmolLM2 GGUF file is not installed")
def test_the_real_smollm2_file_is_read() -> None:
    [answer] = node([{"kind": "file", "path": str(llama_server.MODEL)}])
    facts = answer["value"]
    assert facts["architecture"] == "llama" and facts["parameters"] == "135M"
    assert facts["contextLength"] == 8192 and "im_start" in facts["chatTemplate"]
    assert facts["tools"] is False  # SmolLM2's template renders no tools: the json dialect


def test_engine_chunks_become_server_sent_events_with_usage() -> None:
    chunk = {
        "id": "",
        "object": "chat.completion.chunk",
        "created": 1,
        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
        "timings": {"cache_n": 30, "prompt_n": 6, "predicted_n": 12},
    }
    [answer] = node([{"kind": "wire", "fn": "sseEvents", "args": [chunk, "SmolLM2"]}])
    events = [json.loads(line[6:]) for line in answer["value"].split("\n\n") if line]
    assert events[0]["model"] == "SmolLM2" and "timings" not in events[0]
    assert events[1]["choices"] == []
    assert events[1]["usage"] == {
        "prompt_tokens": 36,
        "completion_tokens": 12,
        "total_tokens": 48,
        "prompt_tokens_details": {"cached_tokens": 30},
    }


def test_the_request_keeps_what_the_engine_takes_and_flattens_content_parts() -> None:
    body = {
        "model": "local",
        "stream": True,
        "temperature": 0.2,
        "stream_options": {"include_usage": True},
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi "}, {"type": "text", "text": "you"}]}
        ],
    }
    [answer] = node([{"kind": "wire", "fn": "engineRequest", "args": [body]}])
    assert answer["value"] == {
        "messages": [{"role": "user", "content": "hi you"}],
        "stream": True,
        "temperature": 0.2,  # the agent's choice wins
        "max_tokens": 1024,  # a small model that repeats itself stops
    }


def test_sampling_the_agent_leaves_open_is_greedy_and_copies_freely() -> None:
    cases = [{"messages": []}, {"messages": [], "repeat_penalty": 1.3}]
    plain, penalised = (
        a["value"] for a in node([{"kind": "wire", "fn": "engineRequest", "args": [c]} for c in cases])
    )
    assert plain["temperature"] == 0 and "repeat_penalty" not in plain
    assert penalised["repeat_penalty"] == 1.3  # the agent's choice is passed on


def test_a_limit_the_agent_sets_is_kept() -> None:
    cases = [{"max_tokens": 50}, {"max_completion_tokens": 70}]
    answers = node([{"kind": "wire", "fn": "engineRequest", "args": [{"messages": [], **c}]} for c in cases])
    assert [a["value"]["max_tokens"] for a in answers] == [50, 70]


@pytest.mark.parametrize(
    ("message", "status", "words"),
    [
        ("Cannot allocate WebAssembly.Memory", 507, "out of memory"),
        ("the prompt exceeds the context size n_ctx", 400, "context window"),
        ("something else", 500, "something else"),
    ],
)
def test_engine_failures_become_answers_the_agent_classifies(message: str, status: int, words: str) -> None:
    [answer] = node([{"kind": "wire", "fn": "errorAnswer", "args": [{"message": message}, 8192]}])
    assert answer["value"]["status"] == status
    assert words in json.loads(answer["value"]["body"])["error"]["message"]


def test_local_settings_are_neither_demo_nor_network_and_start_on_json() -> None:
    settings = Settings.from_message({"base_url": LOCAL_BASE, "model": "local"})
    assert settings.is_local and not settings.is_demo
    assert not Settings.from_message({"base_url": "http://x/v1", "model": "m"}).is_local
    chooser, start = DialectChooser(), settings.profile.dialect
    assert chooser.resolve("auto", LOCAL_BASE, "local", start) == "json"
    assert chooser.resolve("auto", "http://x/v1", "m") == "native"
    assert chooser.resolve("ndjson", LOCAL_BASE, "local", start) == "ndjson"


def test_the_engine_is_neither_precached_nor_kept_after_activation_only_on_use() -> None:
    from buildsys.build import offline
    from buildsys.engine import local_engine

    files = {name: {"size": 1, "sha256": name * 2} for name in ("index.html", *sorted(local_engine.ON_USE))}
    manifest = {"build": "0123abcd", "files": files}
    source = offline.render(manifest, "")
    build = json.loads(source.split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    assert set(build["files"]) == {"index.html"} and build["later"] == {}
    assert set(build["onUse"]) == set(local_engine.ON_USE)


def test_the_worker_answers_local_requests_like_fetch_and_a_stop_cancels_the_page_engine() -> None:
    [result] = run_node(Path(__file__).with_name("local_fetch_runner.mjs"), None)
    assert result["before"]["status"] == 503 and "not connected" in result["before"]["body"]
    assert result["whole"] == {
        "status": 200,
        "type": "text/event-stream",
        "body": "data: one\n\ndata: two\n\n",
    }
    stopped = result["stopped"]
    assert stopped["first"] == "data: one\n\n" and stopped["after"] == {"error": "AbortError"}
    assert stopped["sent"] == [
        {"id": 1, "path": "models", "body": None},
        {"id": 2, "path": "chat/completions", "body": '{"a":1}'},
        {"id": 2, "cancel": True},
    ]
