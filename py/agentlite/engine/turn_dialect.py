"""The endpoint and tool-call dialect a turn talks to, and the switches `auto` makes on the way
(docs/protocol.md): a native endpoint that refuses tools, sends an empty stream, or a model that writes
its calls as text."""

from __future__ import annotations

from collections.abc import Callable

from agentlite.engine import prompt
from agentlite.engine.chat_events import DialectSwitched, Emit
from agentlite.engine.dialect import (
    PROMPT_DIALECTS,
    DialectChooser,
    empty_stream,
    rejects_tools,
    writes_calls_as_text,
)
from agentlite.engine.reply import Reply
from agentlite.engine.turn_deps import ModelLink
from agentlite.errors import ModelError
from agentlite.settings import Settings
from agentlite.transport import ModelTransport


class TurnDialect:
    """`settings`, `transport` and `dialect` of the turn now; `note` tells the model (hidden)."""

    def __init__(
        self,
        endpoint: ModelLink,
        dialects: DialectChooser,
        emit: Emit,
        note: Callable[[str], None],
    ) -> None:
        self.settings: Settings = endpoint[0]
        self.transport: ModelTransport = endpoint[1]
        self.dialects, self.emit, self.note = dialects, emit, note
        self.dialect = dialects.resolve(self.settings.dialect, self.settings.base_url, self.settings.model)
        self.thinking_noted = (
            False  # the model was told once this turn that a call in its thinking did not run
        )
        self.text_calls_noted = False  # the same, for a call written as text under a chosen native dialect

    @property
    def streaming(self) -> bool:
        """Calls run while the stream goes on (ndjson), not after the reply."""
        return self.dialect in ("ndjson", "ndjson-text")

    def switch(self, dialect: str, reason: str) -> None:
        self.dialect = dialect
        settings = self.settings
        if settings.dialect == "auto":
            self.dialects.learn(settings.base_url, settings.model, dialect)
        self.emit(DialectSwitched(dialect=dialect, reason=reason))

    def switch_by_choice(self) -> None:
        """The user's `switch dialect` alternative: between native and the text dialects."""
        self.switch("native" if self.dialect in PROMPT_DIALECTS else "json", "chosen by the user")

    def adopt(self, latest: ModelLink | None) -> None:
        """Take the endpoint settings saved while the user decided (the key asked for by an auth error)."""
        if latest is None or latest[0] == self.settings:
            return
        old, (self.settings, self.transport) = self.settings, latest
        new = self.settings
        if (old.base_url, old.model, old.dialect) != (new.base_url, new.model, new.dialect):
            self.dialect = self.dialects.resolve(new.dialect, new.base_url, new.model)

    def fall_back_to_json(self, error: ModelError, with_tools: bool) -> bool:
        """`auto` on native: the failures that say the endpoint cannot take native tools."""
        if self.settings.dialect != "auto" or self.dialect != "native":
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
        if self.settings.dialect == "auto":
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
