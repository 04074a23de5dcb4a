"""The connection test's diagnosis: unreachable, CORS, refused key, missing model, tool support."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from agentlite.connection import check
from agentlite.endpoint import Endpoint
from agentlite.errors import ErrorType, ModelError
from agentlite.settings import Settings
from agentlite.transport import HttpRequest, ScriptedResponse, ScriptedTransport

KEY = "sk-secret-123"


def endpoint(model: str = "m1", key: str = KEY) -> Settings:
    return Settings(base_url="http://127.0.0.1:9/v1", api_key=key, model=model)


def listing(*entries: dict[str, Any]) -> ScriptedResponse:
    return ScriptedResponse(200, [json.dumps({"object": "list", "data": list(entries)}).encode()])


class Failing:
    """A transport whose request fails like fetch does; `up` says whether a no-cors probe gets through."""

    def __init__(self, up: bool, error: ErrorType = ErrorType.NETWORK) -> None:
        self.up, self.error, self.probed = up, error, []

    async def send(self, request: HttpRequest) -> Any:
        raise ModelError(self.error, "failed")

    async def reachable(self, url: str) -> bool:
        self.probed.append(url)
        return self.up


def diagnose(settings: Settings, transport: Any) -> dict[str, Any]:
    return asyncio.run(check(Endpoint.of(settings, transport), settings.model)).to_dict()


def test_a_listed_model_with_tools_is_ok_and_the_key_goes_only_in_the_header() -> None:
    transport = ScriptedTransport.of(listing({"id": "m1", "supported_parameters": ["tools", "top_p"]}))
    result = diagnose(endpoint(), transport)
    assert (result["outcome"], result["tools"], result["models"]) == ("ok", True, ["m1"])
    assert "m1" in result["message"]  # the user sees which model answered the test
    request = transport.requests[0]
    assert (request.method, request.url) == ("GET", "http://127.0.0.1:9/v1/models")
    assert request.headers["Authorization"] == f"Bearer {KEY}"
    assert KEY not in json.dumps(result)


def test_capabilities_without_tools_say_no_and_silence_says_unknown() -> None:
    no_tools = diagnose(
        endpoint(), ScriptedTransport.of(listing({"id": "m1", "capabilities": ["completion"]}))
    )
    unknown = diagnose(endpoint(), ScriptedTransport.of(listing({"id": "m1"})))
    assert (no_tools["tools"], unknown["tools"]) == (False, None)


def test_a_model_the_endpoint_does_not_list_is_reported_with_the_list() -> None:
    result = diagnose(endpoint("missing"), ScriptedTransport.of(listing({"id": "m1"}, {"id": "m2"})))
    assert result["outcome"] == "model_not_found"
    assert result["models"] == ["m1", "m2"]


def test_401_is_a_refused_key() -> None:
    result = diagnose(endpoint(), ScriptedTransport.of(ScriptedResponse(401, [b'{"error": {}}'])))
    assert (result["outcome"], result["status"]) == ("auth", 401)


def test_a_failed_request_to_a_live_server_is_cors_and_to_a_dead_one_unreachable() -> None:
    live, dead = Failing(up=True), Failing(up=False)
    assert diagnose(endpoint(), live)["outcome"] == "cors"
    assert diagnose(endpoint(), dead)["outcome"] == "unreachable"
    assert live.probed == ["http://127.0.0.1:9/v1/models"]


def test_a_timeout_is_unreachable_without_a_probe() -> None:
    slow = Failing(up=True, error=ErrorType.TIMEOUT)
    assert diagnose(endpoint(), slow)["outcome"] == "unreachable"
    assert slow.probed == []


def test_no_base_url_is_the_demo_model() -> None:
    assert diagnose(Settings(), ScriptedTransport.of())["outcome"] == "ok"


def test_the_listing_gives_the_models_context_window_under_any_known_name() -> None:
    from agentlite.connection import context_window

    assert context_window({"id": "m", "context_length": 131072}) == 131072  # OpenRouter, LiteLLM
    assert context_window({"id": "m", "max_model_len": "32768"}) == 32768  # vLLM
    assert context_window({"id": "m", "max_context_length": 8192}) == 8192  # LM Studio
    assert context_window({"id": "m", "context_window": 200000}) == 200000
    assert context_window({"id": "m", "context_length": None, "max_model_len": 4096}) == 4096
    assert context_window({"id": "m", "context_length": 0}) is None
    assert context_window({"id": "m", "context_length": True}) is None
    assert context_window({"id": "m"}) is None


def test_the_diagnosis_reports_the_selected_models_window() -> None:
    entries = ({"id": "m0", "context_length": 4096}, {"id": "m1", "context_length": 65536})
    result = diagnose(endpoint(), ScriptedTransport.of(listing(*entries)))
    assert (result["outcome"], result["context_window"]) == ("ok", 65536)


def test_model_window_reads_the_listing_and_never_raises() -> None:
    from agentlite.connection import model_window

    def window(settings: Settings, transport: Any) -> int | None:
        return asyncio.run(model_window(Endpoint.of(settings, transport), settings.model))

    listed = ScriptedTransport.of(listing({"id": "m1", "max_model_len": 16384}))
    assert window(endpoint(), listed) == 16384
    assert listed.requests[0].url == "http://127.0.0.1:9/v1/models"
    assert window(endpoint("other"), ScriptedTransport.of(listing({"id": "m1", "max_model_len": 8}))) is None
    assert window(endpoint(), ScriptedTransport.of(ScriptedResponse(401, [b"{}"]))) is None
    assert window(endpoint(), Failing(up=True)) is None
    assert window(Settings(), ScriptedTransport.of()) is None  # the demo model: nothing to ask
