"""Images and PDFs the user attaches (user_attachments.py, engine/history.py, stream/request.py):
the request shape in every dialect, with and without vision; the context meter's count; the checks a
send and an imported chat pass; and a server's refusal of images, with "Retry without images"."""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from typing import Any

import pytest

from agentlite import user_attachments
from agentlite.commands import SendMessage
from agentlite.editor_state import EditorState
from agentlite.engine.budget import Budget
from agentlite.engine.chat_file import export_document, read_document
from agentlite.engine.chat_markdown import chat_markdown
from agentlite.engine.history import Message, carries_images, drop_images
from agentlite.engine.tokens import IMAGE_TOKENS, TokenCounter
from agentlite.stream.request import build_request
from tests.image_samples import PNG_48, jpeg
from tests.unit.engine.support import SETTINGS, Harness, answer_when, http, say

PNG = base64.b64encode(PNG_48).decode()
JPEG = base64.b64encode(jpeg()).decode()
SVG = base64.b64encode(b"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>").decode()
IMAGE = {"kind": "image", "name": "shot.png", "id": "a1", "mime": "image/png", "data": PNG}
PDF = {
    "kind": "pdf",
    "name": "paper.pdf",
    "id": "a2",
    "text": "[PDF paper.pdf, 1 page(s)]\n--- page 1 ---\nHello",
}
DIALECTS = ("native", "json", "ndjson", "ndjson-text")


def user(*attached: dict[str, Any], text: str = "what is this?") -> Message:
    return Message("user", text, attachments=user_attachments.check(list(attached)).kept)


def last_user(dialect: str, message: Message, vision: bool) -> Any:
    body = build_request("m", dialect, [message.to_wire()], [], system="s", vision=vision)
    return body["messages"][-1]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_model_that_takes_images_gets_text_then_image_parts_in_the_user_message(dialect: str) -> None:
    sent = last_user(dialect, user(IMAGE, dict(IMAGE, name="b.jpg", mime="image/jpeg", data=JPEG)), True)
    assert sent["role"] == "user"
    assert sent["content"] == [
        {"type": "text", "text": "what is this?"},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
        {"type": "image_url", "image_url": {"url": f"data:image/jpeg;base64,{JPEG}"}},
    ]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_text_only_model_gets_the_images_named_as_not_sent(dialect: str) -> None:
    sent = last_user(dialect, user(IMAGE), False)
    assert isinstance(sent["content"], str)
    assert sent["content"].startswith("what is this?")
    assert (
        "[an image, shot.png, was attached but not sent: this model does not take images]" in sent["content"]
    )
    assert PNG not in json.dumps(sent)


@pytest.mark.parametrize("dialect", ("json", "ndjson"))
def test_in_a_prompt_dialect_the_image_rides_beside_the_results_reminder(dialect: str) -> None:
    history = [
        user(IMAGE).to_wire(),
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "c1", "name": "read_file", "arguments": {}}],
        },
        {"role": "tool", "tool_call_id": "c1", "name": "read_file", "content": "ok", "ok": True},
        user(IMAGE, text="and now?").to_wire(),
    ]
    body = build_request("m", dialect, history, [], system="s", vision=True)
    merged = body["messages"][-1]["content"]
    assert merged[0]["type"] == "text" and "read_file" in merged[0]["text"]
    assert {"type": "text", "text": "and now?"} in merged
    assert merged[-1] == {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}


def test_chat_mode_sends_the_attached_images_too() -> None:
    h = Harness([say("A square.")]).run(
        "look", replace(SETTINGS, vision="yes"), mode="chat", attached=[IMAGE]
    )
    content = h.requests()[0]["messages"][-1]["content"]
    assert "tools" not in h.requests()[0]
    assert content[-1] == {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}


def test_a_pdf_goes_as_its_text_with_page_numbers() -> None:
    sent = last_user("native", user(PDF), True)
    assert sent["content"] == "what is this?\n\n" + PDF["text"]


def test_the_context_meter_counts_each_sent_image_only_for_a_model_that_takes_them() -> None:
    wire = user(IMAGE, IMAGE).to_wire()
    counter = TokenCounter(lambda text: len(text.split()))
    seeing, blind = Budget(counter, vision=True), Budget(counter)
    assert seeing.measure("", [wire]) - blind.measure("", [wire]) == 2 * IMAGE_TOKENS


def test_a_send_keeps_checked_attachments_and_says_why_the_others_were_left_out() -> None:
    svg = dict(IMAGE, name="evil.svg", mime="image/svg+xml", data=SVG)
    liar = dict(IMAGE, name="liar.png", data=base64.b64encode(b"%PDF-1.7 not a png").decode())
    many = [dict(IMAGE, name=f"{n}.png") for n in range(9)]
    send = SendMessage.of("c", "hi", editor=EditorState(), attached=[svg, liar, *many, {"kind": "exe"}])
    kept = send.options.attachments
    assert [a["name"] for a in kept] == [f"{n}.png" for n in range(8)]
    notes = send.options.attachment_notes
    assert any("evil.svg" in n and "image/svg+xml" in n for n in notes)
    assert any("liar.png" in n and "not a image/png image" in n for n in notes)
    assert any("8.png" in n and "at most 8 images" in n for n in notes)
    assert any("unknown kind" in n for n in notes)


def test_a_message_over_twenty_megabytes_keeps_what_fits() -> None:
    big = {"kind": "pdf", "name": "big.pdf", "text": "x" * user_attachments.MAX_PDF_CHARS}
    checked = user_attachments.check([dict(big, name=f"{n}.pdf") for n in range(60)])
    total = sum(len(a["text"]) for a in checked.kept)
    assert total <= user_attachments.MAX_MESSAGE_BYTES and checked.notes
    assert "at most 20 MB" in checked.notes[0]


def test_control_characters_never_reach_a_name() -> None:
    assert user_attachments.clean_name("a\x00b\u202e\nc.png") == "abc.png"
    assert user_attachments.clean_name("") == "attachment"


def test_the_chat_keeps_them_and_the_page_gets_them_back() -> None:
    message = user(IMAGE, PDF)
    restored = Message.from_dict(json.loads(json.dumps(message.to_dict())))
    assert restored.attachments == message.attachments
    shown = restored.view()["attachments"]
    assert shown[0] == IMAGE and shown[1] == {k: v for k, v in PDF.items() if k != "text"}


def test_an_import_restores_good_attachments_and_names_the_bad_ones() -> None:
    asked = user(IMAGE).to_dict()
    asked["attachments"] += [
        dict(IMAGE, name="x.svg", mime="image/svg+xml", data=SVG),
        "junk",
        {"kind": "pdf"},
    ]
    record = read_document(json.dumps(export_document({"messages": [asked]})))
    assert record["messages"][0]["attachments"] == [IMAGE]
    assert len(record["notes"]) == 3 and any("x.svg" in n for n in record["notes"])


def test_the_markdown_export_names_them() -> None:
    message = user(IMAGE, PDF)
    text = chat_markdown({"messages": [message.to_dict()], "selected": {}})
    assert "*Attached: image `shot.png`, PDF `paper.pdf`*" in text


def test_dropping_images_keeps_them_shown_and_tells_the_model() -> None:
    tool = Message("tool", "shot", name="shot", images=[{"mime": "image/png", "data": PNG}])
    messages = [user(IMAGE), tool]
    assert carries_images(messages)
    drop_images(messages)
    assert not carries_images(messages)
    wire = messages[0].to_wire()
    assert "images" not in wire and "shot.png, was attached but not sent" in wire["content"]
    assert messages[0].view()["attachments"][0]["dropped"] is True
    assert "not sent: the model does not take images" in messages[1].to_wire()["content"]


# --- a server that refuses images ------------------------------------------------------------------

LLAMA_CPP = "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj"


def test_a_refusal_offers_retry_without_images_which_resends_the_turn_without_them() -> None:
    h = Harness([http(500, LLAMA_CPP), say("A text answer.")])
    h.on_event = answer_when("decision", lambda chat, _e: chat.decide("without_images"))(h)
    h.run("describe", replace(SETTINGS, vision="yes"), attached=[IMAGE])
    decision = h.of("decision")[0]
    assert decision["options"][0] == "without_images" and decision["error_type"] == "protocol"
    first, second = h.requests()
    assert isinstance(first["messages"][-1]["content"], list)
    assert isinstance(second["messages"][-1]["content"], str)
    assert "shot.png, was attached but not sent" in second["messages"][-1]["content"]
    assert h.text().endswith("A text answer.")


def test_a_refusal_without_images_in_the_request_offers_no_such_choice() -> None:
    h = Harness([http(400, LLAMA_CPP)])
    h.on_event = answer_when("decision", lambda chat, _e: chat.decide("cancel"))(h)
    h.run("describe", replace(SETTINGS, vision="yes"))
    assert "without_images" not in h.of("decision")[0]["options"]
