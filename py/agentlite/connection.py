"""The settings' connection test: `GET {base_url}/models` from where the model requests are made (the
worker), so the answer is the one the agent will meet.

It tells apart: an endpoint that cannot be reached; one that answers but blocks the page by CORS (the
request fails, yet a `no-cors` probe of the same URL gets through: the server is there); a refused key
(401 / 403); a model the endpoint does not list; and success, with the model's tool-calling support when
the listing says (OpenRouter's `supported_parameters`, LM Studio's and Ollama's `capabilities`). A known
answer about tools feeds the `auto` dialect. The request and its headers are the `Endpoint`'s.

The listing may also give the model's context window (`context_length`: OpenRouter, LiteLLM;
`max_model_len`: vLLM; `max_context_length`: LM Studio; `context_window`): `model_window()` reads it for
the settings' room, which uses it unless the user set a window in the settings.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from agentlite.endpoint import Endpoint
from agentlite.errors import ErrorType, ModelError
from agentlite.settings import window_size
from agentlite.transport import HttpTransport, RedirectRefused

MAX_BODY = 4 * 1024 * 1024  # a model listing larger than this is not read to the end
TOOL_WORDS = frozenset(("tools", "tool_use", "tool_calling", "function_calling"))
WINDOW_KEYS = ("context_length", "max_model_len", "context_window", "max_context_length")
log = logging.getLogger(__name__)


class Reachability(Protocol):
    async def reachable(self, url: str) -> bool:
        """True when a `no-cors` request to `url` gets any answer (the server is up)."""
        ...


@dataclass
class Diagnosis:
    outcome: str  # ok | unreachable | cors | auth | model_not_found | no_model_list | error
    message: str
    status: int | None = None
    models: list[str] = field(default_factory=list)
    tools: bool | None = None  # the model calls tools natively; None: the listing does not say
    context_window: int | None = None  # the model's window in tokens; None: the listing does not say

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


async def check(endpoint: Endpoint, model: str) -> Diagnosis:
    """Diagnose `endpoint` for `model` (never raises)."""
    if endpoint.demo:
        return Diagnosis("ok", "The built-in demo model needs no connection.", tools=True)
    try:
        response = await endpoint.models()
        body = await _read(response)
    except ModelError as error:
        return await _unanswered(error, endpoint.models_request().url, endpoint.transport)
    return _answered(model, response.status, body)


async def model_window(endpoint: Endpoint, model: str) -> int | None:
    """The model's context window from the endpoint's listing; None when the listing does not say or
    cannot be had (never raises: the window then stays the default)."""
    if endpoint.demo or not model:
        return None
    try:
        response = await endpoint.models()
        body = await _read(response)
    except Exception as error:  # unreachable, CORS, a timeout: nothing learned
        log.info("no model listing from %s: %s", origin(endpoint.base_url), error)
        return None
    if response.status >= 400:
        return None
    entry = next((e for e in _entries(body) if e.get("id") == model), None)
    return context_window(entry) if entry is not None else None


async def _read(response: Any) -> bytes:
    body = b""
    async for chunk in response.chunks():
        body += chunk
        if len(body) > MAX_BODY:
            await response.cancel()
            break
    return body


async def _unanswered(error: ModelError, url: str, transport: HttpTransport) -> Diagnosis:
    if isinstance(error, RedirectRefused):  # it answered, elsewhere: not a CORS block
        return Diagnosis("error", error.message)
    if error.type == ErrorType.TIMEOUT:
        return Diagnosis("unreachable", f"No answer from {origin(url)} in time.")
    probe = getattr(transport, "reachable", None)
    if probe is not None and await probe(url):
        return Diagnosis(
            "cors",
            f"{origin(url)} answers, but does not allow this page to read its replies (CORS).",
        )
    return Diagnosis("unreachable", f"Cannot reach {origin(url)}: is the server running, and the URL right?")


def _answered(model: str, status: int, body: bytes) -> Diagnosis:
    if status in (401, 403):
        return Diagnosis("auth", f"The endpoint refused the API key (HTTP {status}).", status)
    if status == 404:
        return Diagnosis(
            "no_model_list", "The endpoint answers but lists no models (HTTP 404 on /models).", status
        )
    if status >= 400:
        return Diagnosis("error", f"The endpoint answered HTTP {status}.", status)
    entries = _entries(body)
    names = [str(e.get("id")) for e in entries if e.get("id")]
    if not entries:
        return Diagnosis("no_model_list", "Connected; the endpoint gave no model list.", status)
    entry = next((e for e in entries if e.get("id") == model), None)
    if model and entry is None:
        return Diagnosis(
            "model_not_found", f"Connected, but the endpoint has no model {model!r}.", status, names
        )
    if entry is None:
        return Diagnosis("ok", "Connected.", status, names)
    served = f"Connected: the endpoint serves {model}."
    return Diagnosis("ok", served, status, names, _tool_support(entry), context_window(entry))


def _entries(body: bytes) -> list[dict[str, Any]]:
    try:
        data = json.loads(body or b"null")
    except ValueError:
        return []
    items = data.get("data") if isinstance(data, dict) else data
    if not isinstance(items, list):
        items = data.get("models") if isinstance(data, dict) else None
    return [i for i in items or () if isinstance(i, dict)]


def _tool_support(entry: dict[str, Any]) -> bool | None:
    """What the listing says about tool calling; None when it says nothing."""
    for key in ("supported_parameters", "capabilities"):
        values = entry.get(key)
        if isinstance(values, list):
            return any(str(v).lower() in TOOL_WORDS for v in values)
    return None


def context_window(entry: dict[str, Any]) -> int | None:
    """The window a listing entry gives, under the first of the names endpoints use for it."""
    for key in WINDOW_KEYS:
        size = window_size(entry.get(key))
        if size is not None:
            return size
    return None


def origin(url: str) -> str:
    """scheme://host:port of a URL (what an error message may name)."""
    parts = url.split("/")
    return "/".join(parts[:3]) if len(parts) >= 3 else url
