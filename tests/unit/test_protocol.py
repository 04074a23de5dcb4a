"""The worker protocol is defined once per side; these tests keep the two definitions in step."""

import re
from pathlib import Path

from agentlite.protocol import PHASES, Msg

JS = (Path(__file__).resolve().parents[2] / "web" / "src" / "protocol.js").read_text()


def js_messages() -> dict[str, str]:
    block = re.search(r"MSG = Object\.freeze\(\{(.*?)\}\);", JS, re.DOTALL)
    assert block, "MSG not found in protocol.js"
    return dict(re.findall(r"^\s*([A-Z_]+):\s*\"([a-z_]+)\"", block.group(1), re.MULTILINE))


def test_message_types_match() -> None:
    assert js_messages() == {m.name: m.value for m in Msg}


def test_phases_match() -> None:
    block = re.search(r"PHASES = Object\.freeze\(\[(.*?)\]\)", JS, re.DOTALL)
    assert block
    assert tuple(re.findall(r"\"([a-z]+)\"", block.group(1))) == PHASES
