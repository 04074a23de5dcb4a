"""The demo model itself: a `ScriptedTransport` responder that reads each request, picks the scenario's
next step and streams it (or, once per "rate limit" request, answers HTTP 429 with Retry-After)."""

from __future__ import annotations

from agentlite.demo.conversation import Conversation
from agentlite.demo.replies import encode
from agentlite.demo.scenarios import next_step
from agentlite.transport import HttpRequest, ScriptedResponse, ScriptedTransport

TOKEN_DELAY = 0.02  # seconds between streamed tokens: fast, but visibly streaming


class DemoModel:
    """Chooses and streams the reply for a request."""

    def __init__(self, delay: float = TOKEN_DELAY) -> None:
        self.delay = delay
        self.limited: set[str] = set()

    def __call__(self, request: HttpRequest) -> ScriptedResponse:
        body = request.body if isinstance(request.body, dict) else {}
        conv = Conversation.read(body)
        if "rate limit" in conv.request.lower() and conv.request not in self.limited:
            self.limited.add(conv.request)
            error = b'{"error": {"message": "Rate limit reached (demo)", "type": "rate_limit"}}'
            return ScriptedResponse(status=429, body=[error], headers={"retry-after": "1"})
        step = next_step(conv)
        return ScriptedResponse(status=200, body=encode(step, conv.dialect), delay=self.delay)


def demo_transport(delay: float = TOKEN_DELAY) -> ScriptedTransport:
    return ScriptedTransport(DemoModel(delay))
