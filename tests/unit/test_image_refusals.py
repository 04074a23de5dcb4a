"""What real servers answer when a request carries an image the model cannot read (errors.py): each is
an image refusal, a protocol error the engine does not retry on its own, whatever the status."""

from __future__ import annotations

import json

import pytest

from agentlite.errors import ErrorType, from_http, refuses_images

LLAMA_CPP = "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj"
OPENAI_TYPE = "Invalid content type. image_url is only supported by certain models."
REFUSALS = [
    # OpenAI, an image to a text-only model
    (400, {"error": {"message": OPENAI_TYPE, "type": "invalid_request_error", "code": None}}),
    (400, {"error": {"message": "The model gpt-3.5-turbo does not support image input."}}),
    # llama.cpp server without a vision projector (a runtime error: HTTP 500; 400 in some versions)
    (500, {"error": {"code": 500, "type": "server_error", "message": LLAMA_CPP}}),
    (400, {"error": {"code": 400, "type": "invalid_request_error", "message": LLAMA_CPP}}),
    # Groq, a text-only model
    (400, {"error": {"message": "message[0].content must be a string", "type": "invalid_request_error"}}),
    # OpenRouter: no provider of the model takes images
    (404, {"error": {"message": "No endpoints found that support image input", "code": 404}}),
    # Ollama: a model without vision
    (400, {"error": {"message": "this model does not support image input"}}),
    (500, {"error": "This model does not support images"}),
    # strict content-part parsers, text-only servers
    (422, {"detail": "unknown variant `image_url`, expected `text`"}),
    (400, {"error": {"message": "Only 'text' content type is supported."}}),
]


@pytest.mark.parametrize(("status", "body"), REFUSALS)
def test_each_servers_refusal_is_a_protocol_error_saying_images_are_refused(
    status: int, body: object
) -> None:
    error = from_http(status, json.dumps(body).encode())
    assert refuses_images(error.message)
    assert error.type is ErrorType.PROTOCOL


@pytest.mark.parametrize(
    ("status", "message", "kind"),
    [
        (400, "This model's maximum context length is 4096 tokens", ErrorType.CONTEXT_LENGTH),
        (500, "internal error", ErrorType.SERVER),
        (429, "this model does not support images today; slow down", ErrorType.RATE_LIMIT),
    ],
)
def test_other_errors_keep_their_type(status: int, message: str, kind: ErrorType) -> None:
    error = from_http(status, json.dumps({"error": {"message": message}}).encode())
    assert error.type is kind
