"""The Endpoint: where each request goes, the headers it carries, the demo routing, and the key kept out
of every text but the Authorization header."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from agentlite.demo import demo_transport
from agentlite.endpoint import Endpoint
from agentlite.settings import Settings
from agentlite.transport import ScriptedResponse, ScriptedTransport

KEY = "sk-endpoint-secret-42"
BASE = "http://model.test/v1"


def real(key: str = KEY) -> Endpoint:
    settings = Settings.from_message({"base_url": BASE + "/", "api_key": key, "model": "m1"})
    return Endpoint.of(settings, ScriptedTransport.of(ScriptedResponse(200, [b"{}"])))


def test_the_chat_request_streams_to_chat_completions_with_the_key_in_its_header() -> None:
    request = real().chat_request({"model": "m1", "stream": True, "messages": []})
    assert (request.method, request.url) == ("POST", f"{BASE}/chat/completions")
    assert request.headers == {
        "Content-Type": "application/json",
        "Accept": "text/event-stream",
        "Authorization": f"Bearer {KEY}",
    }
    assert request.api_key == KEY


def test_the_listing_and_embeddings_requests() -> None:
    endpoint = real()
    listing = endpoint.models_request()
    assert (listing.method, listing.url, listing.body) == ("GET", f"{BASE}/models", None)
    assert listing.headers == {"Accept": "application/json", "Authorization": f"Bearer {KEY}"}
    embeddings = endpoint.embeddings_request("e5", ["a"])
    assert (embeddings.method, embeddings.url) == ("POST", f"{BASE}/embeddings")
    assert embeddings.body == {"model": "e5", "input": ["a"]}
    assert embeddings.headers["Accept"] == "application/json"


def test_without_a_key_there_is_no_authorization_header() -> None:
    headers = real(key="").chat_request({}).headers
    assert "Authorization" not in headers


def test_extra_headers_go_with_every_request_but_never_replace_the_key() -> None:
    endpoint = Endpoint(BASE, ScriptedTransport.of(), KEY, {"X-Title": "AgentLite", "Authorization": "x"})
    for request in (
        endpoint.chat_request({}),
        endpoint.models_request(),
        endpoint.embeddings_request("e", []),
    ):
        assert request.headers["X-Title"] == "AgentLite"
        assert request.headers["Authorization"] == f"Bearer {KEY}"


@pytest.mark.parametrize(
    "values",
    [{}, {"model": "demo"}, {"base_url": BASE, "model": "demo", "api_key": KEY}],
    ids=["nothing set", "demo model", "demo model with a base URL"],
)
def test_the_demo_model_is_routed_to_demo_urls_and_never_gets_the_key(values: dict[str, str]) -> None:
    endpoint = Endpoint.of(Settings.from_message(values), demo_transport(delay=0))
    assert endpoint.demo
    assert endpoint.chat_url == "demo:/chat/completions"
    assert endpoint.models_request().url == "demo:/models"
    assert "Authorization" not in endpoint.chat_request({}).headers


def test_requests_are_sent_on_the_bound_transport() -> None:
    transport = ScriptedTransport.of(ScriptedResponse(200, [b"{}"]), ScriptedResponse(200, [b"{}"]))
    endpoint = Endpoint(BASE, transport, KEY)

    async def scenario() -> list[int]:
        chat = await endpoint.chat({"model": "m1"})
        listing = await endpoint.models()
        return [chat.status, listing.status]

    assert asyncio.run(scenario()) == [200, 200]
    assert [r.url for r in transport.requests] == [f"{BASE}/chat/completions", f"{BASE}/models"]


def test_the_key_never_shows_in_repr_str_or_a_log_line(caplog: pytest.LogCaptureFixture) -> None:
    endpoint = Endpoint(BASE, ScriptedTransport.of(), KEY, {"X-Secret-Header": "hidden-value-123"})
    for text in (repr(endpoint), str(endpoint), f"{endpoint}", json.dumps({"e": repr(endpoint)})):
        assert KEY not in text and "hidden-value-123" not in text
    assert BASE in repr(endpoint) and "key=set" in repr(endpoint) and "X-Secret-Header" in repr(endpoint)
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("agentlite.test").info("endpoint %s / %r", endpoint, endpoint)
    assert KEY not in caplog.text


def test_a_trailing_slash_of_the_base_url_is_dropped() -> None:
    assert Endpoint(BASE + "//", ScriptedTransport.of()).url("models") == f"{BASE}/models"
