"""The replay command prints the events of a captured body as JSON lines."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from agentlite.replay import main, replay

from .support import TOOLS, TRANSCRIPTS, decode, transcript

ROOT = Path(__file__).resolve().parents[3]


def lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_replay_prints_every_event_and_the_truncated_flag() -> None:
    out = io.StringIO()
    replay(transcript("openai_tool_calls.sse"), "native", TOOLS, 5, out)
    printed = lines(out.getvalue())
    assert printed[:-1] == [e.to_dict() for e in decode(transcript("openai_tool_calls.sse"))]
    assert printed[-1] == {"kind": "truncated", "value": False}


def test_main_reads_tool_definitions(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(TOOLS))
    assert (
        main(["--dialect", "native", "--tools", str(tools), str(TRANSCRIPTS / "vllm_no_arguments_key.sse")])
        == 0
    )
    printed = lines(capsys.readouterr().out)
    assert printed[0] == {"kind": "tool_started", "id": "chatcmpl-tool-9", "name": "list_directory"}


def test_module_runs_as_a_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "agentlite.replay", "--dialect", "native", str(TRANSCRIPTS / "truncated.sse")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "py"), "PATH": ""},
        check=True,
    )
    printed = lines(result.stdout)
    assert printed[-2]["kind"] == "stream_error" and printed[-1] == {"kind": "truncated", "value": True}


def test_tools_file_next_to_the_transcripts_matches_the_test_definitions() -> None:
    assert json.loads((TRANSCRIPTS / "tools.json").read_text()) == TOOLS
