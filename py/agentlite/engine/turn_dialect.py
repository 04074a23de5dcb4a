"""The endpoint and tool-call dialect a turn talks to, and the switches `auto` makes on the way
(docs/protocol.md): a native endpoint that refuses tools, sends an empty stream, or a model that writes
its calls as text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agentlite.engine import prompt
from agentlite.engine.chat_events import DialectSwitched, Emit
from agentlite.engine.dialect import (
    PROMPT_DIALECTS,
    DialectChooser,
    empty_stream,
    rejects_tools,
    writes_calls_as_text,
)
from agentlite.engine.model_link import ModelLink
from agentlite.engine.reply import Reply
from agentlite.errors import ModelError
from agentlite.transport import HttpResponse


class TurnDialect:
    """The turn's `model_link` and `dialect` now; `note` tells the model (hidden)."""

    def __init__(
        self,
        link: ModelLink,
        dialects: DialectChooser,
        emit: Emit,
        note: Callable[[str], None],
    ) -> None:
        self.model_link = link
        self.dialects, self.emit, self.note = dialects, emit, note
        self.dialect = dialects.resolve(link.dialect, link.base_url, link.model, link.profile.dialect)
        self.thinking_noted = (
            False  # the model was told once this turn that a call in its thinking did not run
        )
        self.text_calls_noted = False  # the same, for a call written as text under a chosen native dialect

    @property
    def streaming(self) -> bool:
        """Calls run while the stream goes on (ndjson), not after the reply."""
        return self.dialect in ("ndjson", "ndjson-text")

    async def chat(self, body: dict[str, Any]) -> HttpResponse:
        """Send one round's request on the endpoint the turn uses now."""
        return await self.model_link.endpoint.chat(body)

    def switch(self, dialect: str, reason: str) -> None:
        self.dialect = dialect
        link = self.model_link
        if link.dialect == "auto":
            self.dialects.learn(link.base_url, link.model, dialect)
        self.emit(DialectSwitched(dialect=dialect, reason=reason))

    def switch_by_choice(self) -> None:
        """The user's `switch dialect` alternative: between native and the text dialects."""
        self.switch("native" if self.dialect in PROMPT_DIALECTS else "json", "chosen by the user")

    def adopt(self, latest: ModelLink | None) -> None:
        """Take the endpoint the page set while the user decided (the key asked for by an auth error)."""
        if latest is None or latest == self.model_link:
            return
        old, self.model_link = self.model_link, latest
        if (old.base_url, old.model, old.dialect) != (latest.base_url, latest.model, latest.dialect):
            start = latest.profile.dialect
            self.dialect = self.dialects.resolve(latest.dialect, latest.base_url, latest.model, start)

    def fall_back_to_json(self, error: ModelError, with_tools: bool) -> bool:
        """`auto` on native: the failures that say the endpoint cannot take native tools."""
        if self.model_link.dialect != "auto" or self.dialect != "native":
            return False
        if rejects_tools(error):
            self.switch("json", "the endpoint does not accept native tools")
            return True
        if empty_stream(error) and with_tools:
            self.switch("json", "the endpoint sent an empty stream for a request with tools")
            return True
        return False

    def text_calls(self, reply: Reply, names: set[str]) -> bool:
        """Calls written as text under native: `auto` switches to json; a chosen native says so once."""
        if self.dialect != "native" or not names or not writes_calls_as_text(reply.content, names):
            return False
        if self.model_link.dialect == "auto":
            self.switch("json", "the model writes tool calls as text")
            self.note(prompt.CORRECT_FORMAT)
            return True
        if self.text_calls_noted:  # native was chosen: say it once per turn, then the answer stands
            return False
        self.text_calls_noted = True
        self.note(prompt.CALL_AS_TEXT)
        return True

    def calls_in_thinking(self, reply: Reply, names: set[str]) -> bool:
        """A call written only inside the thinking (docs/protocol.md, "Messy tool calls"): say once per
        turn that it did not run, so the model can write it where it runs."""
        thinking = "".join(reply.thinking)
        if self.thinking_noted or not names or not writes_calls_as_text(thinking, names):
            return False
        self.thinking_noted = True
        self.note(prompt.CALL_IN_THINKING)
        return True
