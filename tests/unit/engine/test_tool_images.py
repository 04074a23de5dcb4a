"""A tool result's images through a turn (tools/images.py, engine/history.py, stream/request.py): the
next request carries them when the model takes images and names them only otherwise; the page gets
them once, with the final status; the chat keeps them, and a stub drops them."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, replace
from typing import Any

from agentlite.engine.history import Message
from agentlite.engine.model_link import ModelLink
from agentlite.tools.images import ToolImage
from agentlite.tools.registry import Risk, Tool, ToolRegistry
from agentlite.tools.result import ToolResult
from agentlite.transport import ScriptedTransport
from tests.image_samples import PNG_48, png

from .support import SETTINGS, FakeTools, Harness, PathArgs, calls, say

PNG = base64.b64encode(PNG_48).decode()
SVG = base64.b64encode(b"<svg xmlns='http://www.w3.org/2000/svg'/>").decode()


@dataclass
class PictureTools(FakeTools):
    """The fake tools and `shot`, which returns one PNG the way a remote tool's answer does."""

    def registry(self) -> ToolRegistry:
        async def shot(_context: Any, _args: PathArgs) -> ToolResult:
            image = ToolImage("image/png", PNG)
            return ToolResult.success("[image: image/png, 48 bytes]").with_images((image,))

        tools = super().registry()
        tools.register(Tool("shot", "A picture.", PathArgs, shot, Risk.READ))
        return tools


def picture_turn(vision: str, dialect: str = "native") -> Harness:
    harness = Harness([calls(("shot", {}), dialect=dialect), say("A square.")], tools=PictureTools())
    return harness.run("look", replace(SETTINGS, vision=vision, dialect=dialect))


def image_urls(body: dict[str, Any]) -> list[str]:
    return [
        part["image_url"]["url"]
        for message in body["messages"]
        if isinstance(message["content"], list)
        for part in message["content"]
        if part["type"] == "image_url"
    ]


def test_a_model_that_takes_images_gets_them_after_the_result() -> None:
    harness = picture_turn("yes")
    second = harness.requests()[1]
    assert image_urls(second) == [f"data:image/png;base64,{PNG}"]
    assert second["messages"][-1]["role"] == "user"
    assert second["messages"][-1]["content"][0]["text"].startswith("[tool images] The 1 image(s) below")


def test_the_json_dialect_carries_them_in_the_results_message() -> None:
    harness = picture_turn("yes", dialect="json")
    assert image_urls(harness.requests()[1]) == [f"data:image/png;base64,{PNG}"]


def test_a_text_only_model_gets_the_image_named_only() -> None:
    harness = picture_turn("no")
    second = harness.requests()[1]
    assert image_urls(second) == []
    assert second["messages"][-1] == {
        "role": "tool",
        "tool_call_id": second["messages"][-2]["tool_calls"][0]["id"],
        "content": "[image: image/png, 48 bytes]",
    }


def test_auto_follows_the_model_name() -> None:
    transport = ScriptedTransport.of()
    assert ModelLink.of(replace(SETTINGS, model="gpt-4o-mini"), transport).vision is True
    assert ModelLink.of(replace(SETTINGS, model="llama-3.1-8b"), transport).vision is False
    assert ModelLink.of(replace(SETTINGS, model="gpt-4o", vision="no"), transport).vision is False


def test_the_page_gets_the_images_once_and_the_chat_keeps_them() -> None:
    harness = picture_turn("yes")
    carrying = [e for e in harness.of("tool_status") if (e.get("result") or {}).get("images")]
    assert len(carrying) == 1 and carrying[0]["status"] == "completed"
    assert carrying[0]["result"]["images"] == [{"mime": "image/png", "data": PNG}]
    assert harness.chat is not None
    stored = next(m for m in harness.chat.messages if m.role == "tool")
    assert stored.images == [{"mime": "image/png", "data": PNG}]
    assert stored.result is not None and "images" not in stored.result  # kept once, in `images`
    restored = Message.from_dict(stored.to_dict())
    assert restored.images == stored.images
    assert restored.view()["result"]["images"] == stored.images


def test_a_stored_svg_is_dropped_when_the_chat_is_read() -> None:
    data = Message("tool", "x", name="shot", images=[{"mime": "image/svg+xml", "data": SVG}]).to_dict()
    assert Message.from_dict(data).images == []


def test_a_stub_drops_the_images_and_says_so() -> None:
    message = Message(
        "tool", "[image: image/png, 48 bytes]", name="shot", images=[{"mime": "image/png", "data": PNG}]
    )
    assert message.to_wire()["images"] == [{"mime": "image/png", "data": PNG}]
    assert message.can_stub()  # short text, but its image is worth stubbing
    assert not Message("tool", "short", name="t").can_stub()  # shorter than STUB_OVER, no image
    message.stub = True
    wire = message.to_wire()
    assert "images" not in wire
    assert "this shot result and its 1 image(s) were left out" in wire["content"]


def test_an_imported_chat_keeps_checked_images_only() -> None:
    from agentlite.engine.chat_file import export_document, read_document

    svg = {"mime": "image/svg+xml", "data": SVG}
    asked = Message("user", "look")
    called = Message("assistant", parent=asked.id, tool_calls=[{"id": "c1", "name": "shot", "arguments": {}}])
    answer = Message("tool", "[image]", parent=called.id, tool_call_id="c1", name="shot")
    records = [m.to_dict() for m in (asked, called, answer)]
    records[2] |= {
        "images": [{"mime": "image/png", "data": PNG}, svg],
        "result": {"code": 0, "images": [svg]},
    }
    huge = {"mime": "image/png", "data": base64.b64encode(png(40_000, 40_000)).decode()}
    records[2]["images"].append(huge)
    document = export_document({"messages": records})
    imported = read_document(json.dumps(document))
    tool = next(m for m in imported["messages"] if m["role"] == "tool")
    assert tool["images"] == [{"mime": "image/png", "data": PNG}]
    assert imported["notes"] == [  # each one left out is named, with why
        "shot's result: an image of type image/svg+xml was left out: only PNG, JPEG, GIF and WebP are shown",
        "shot's result: a image/png image was left out: it is 40,000 × 40,000 pixels: at most 16,384 on a "
        "side and 50 megapixels are taken",
    ]
    assert "images" not in tool["result"]
    assert Message.from_dict(tool).view()["result"]["images"] == [{"mime": "image/png", "data": PNG}]
