"""The model endpoint: the one place that knows where model requests go and with which headers.

An `Endpoint` holds the base URL, the API key, any extra headers and the transport it is bound to.
It builds the three requests the app makes — the streamed chat (`POST {base}/chat/completions`), the
model listing (`GET {base}/models`) and embeddings (`POST {base}/embeddings`) — and can send them.
The built-in demo model has no base URL: its requests go to `demo:/…` on the demo transport and carry
no key. The key goes into the Authorization header this class builds and nowhere else: `repr` never
shows it, nor the values of extra headers (they may be secrets too).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agentlite.settings import Settings
from agentlite.transport import HttpRequest, HttpResponse, HttpTransport

DEMO_BASE = "demo:"
CHAT_PATH = "chat/completions"
MODELS_PATH = "models"
EMBEDDINGS_PATH = "embeddings"
JSON = "application/json"
EVENT_STREAM = "text/event-stream"


@dataclass(frozen=True, repr=False)
class Endpoint:
    base_url: str  # "" for the demo model
    transport: HttpTransport
    api_key: str = ""
    extra_headers: Mapping[str, str] = field(default_factory=dict)
    demo: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "base_url", self.base_url.rstrip("/"))

    @classmethod
    def of(cls, settings: Settings, transport: HttpTransport) -> Endpoint:
        """The endpoint the settings name, bound to `transport` (the demo model's, or the network)."""
        if settings.is_demo:
            return cls("", transport, demo=True)
        return cls(settings.base_url, transport, settings.api_key)

    def url(self, path: str) -> str:
        base = DEMO_BASE if self.demo or not self.base_url else self.base_url
        return f"{base}/{path}"

    @property
    def chat_url(self) -> str:
        return self.url(CHAT_PATH)

    def headers(self, accept: str = JSON, *, body: bool = True) -> dict[str, str]:
        headers = {"Content-Type": JSON} if body else {}
        headers["Accept"] = accept
        headers.update(self.extra_headers)
        if self.api_key and not self.demo:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers

    # --- the requests -------------------------------------------------------------------------------

    def chat_request(self, body: dict[str, Any]) -> HttpRequest:
        """One streamed conversation round (the body says `"stream": true`)."""
        return HttpRequest("POST", self.chat_url, self.headers(EVENT_STREAM), body)

    def models_request(self) -> HttpRequest:
        return HttpRequest("GET", self.url(MODELS_PATH), self.headers(body=False))

    def embeddings_request(self, model: str, texts: list[str]) -> HttpRequest:
        return HttpRequest(
            "POST", self.url(EMBEDDINGS_PATH), self.headers(), {"model": model, "input": texts}
        )

    # --- sending them on the bound transport ----------------------------------------------------------

    async def chat(self, body: dict[str, Any]) -> HttpResponse:
        return await self.transport.send(self.chat_request(body))

    async def models(self) -> HttpResponse:
        return await self.transport.send(self.models_request())

    async def embeddings(self, model: str, texts: list[str]) -> HttpResponse:
        return await self.transport.send(self.embeddings_request(model, texts))

    def __repr__(self) -> str:  # never the key, never a header's value
        where = "demo" if self.demo else repr(self.base_url)
        return (
            f"Endpoint({where}, key={'set' if self.api_key else 'none'}, "
            f"extra_headers={sorted(self.extra_headers)!r})"
        )

    __str__ = __repr__
