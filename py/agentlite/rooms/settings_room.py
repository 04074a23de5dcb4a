"""The settings' room (`settings.*`): the page's settings and the model link every turn talks to.

With each endpoint the page sets, the room learns what the endpoint offers: the selected model's
context window from its `/models` listing (read once per base URL + model, in the background), and
long-term memory's embedder when an `embedding_model` is set. The window a turn uses is the user's
(a non-zero `context_window` in the settings), else the listing's, else the engine's default. The room
keeps one `ModelLink` (endpoint, model, dialect, window) made from the page's settings and the window it
knows, made again when either changes; the chats' room hands it to each turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from agentlite import connection
from agentlite.commands import PageSettings
from agentlite.endpoint import Endpoint
from agentlite.engine import Engine
from agentlite.engine.budget import DEFAULT_WINDOW
from agentlite.engine.memory import EndpointEmbedder
from agentlite.engine.model_link import ModelLink
from agentlite.settings import Settings
from agentlite.tools.context import ToolSettings
from agentlite.transport import HttpTransport

TransportFor = Callable[[Settings], HttpTransport]
Spawn = Callable[[Awaitable[None]], None]


class SettingsRoom:
    def __init__(self, engine: Engine, transport_for: TransportFor, spawn: Spawn) -> None:
        self.engine = engine
        self.transport_for = transport_for
        self.spawn = spawn  # the room's background work (reading a model's window)
        self.settings = Settings()
        self.tools = ToolSettings()  # the tools' limits the page set (the eval timeout)
        self.link: ModelLink | None = None  # what turns talk to (None: no settings yet, the demo model)
        self.windows: dict[tuple[str, str], int | None] = {}  # (base URL, model) -> window; None: asking

    def apply(self, page: PageSettings) -> None:
        """The page's settings: the endpoint, the chats' limits, the tools' limits."""
        self.settings = settings = page.settings
        self.tools = page.tools
        self.engine.limits_changed(page.limits)
        self._link_to(ModelLink.of(settings, self.transport_for(settings), self.context_window()))
        if self.engine.memory is not None:
            self.engine.memory.use_embedder(self._embedder(settings))
        key = (settings.base_url, settings.model)
        if not settings.is_demo and key not in self.windows:
            self.windows[key] = None
            self.spawn(self._read_window(settings))

    def takes_images(self, settings: Settings) -> bool:
        """Whether the model of `settings` takes images (`agentlite.profiles.vision`)."""
        return settings.takes_images

    def turn_link(self) -> ModelLink:
        """The link a new turn talks to; before any settings, the defaults' (the demo model)."""
        if self.link is None:
            return self._link_to(ModelLink.of(self.settings, self.transport_for(self.settings)))
        return self.link

    def endpoint_for(self, settings: Settings) -> Endpoint:
        """The endpoint `settings` name, on a transport of its own (the demo model's or the network)."""
        return Endpoint.of(settings, self.transport_for(settings))

    def context_window(self) -> int:
        """The window for a turn: the user's (in the settings), the model's, the default."""
        settings = self.settings
        return (
            settings.context_window or self.windows.get((settings.base_url, settings.model)) or DEFAULT_WINDOW
        )

    def learn_window(self, base_url: str, model: str, size: int | None) -> None:
        """Record a model's window from a listing (the connection test reads one too); the link's
        window follows when it is the current model's."""
        if size:
            self.windows[(base_url, model)] = size
        link = self.link
        if link is not None and link.key == (base_url, model) and link.window != self.context_window():
            self._link_to(replace(link, window=self.context_window()))

    def _link_to(self, link: ModelLink) -> ModelLink:
        self.link = link
        self.engine.endpoint_changed(link)
        return link

    async def _read_window(self, settings: Settings) -> None:
        size = await connection.model_window(self.endpoint_for(settings), settings.model)
        if size is None:  # unknown, or the endpoint did not answer: ask again with the next settings
            self.windows.pop((settings.base_url, settings.model), None)
        self.learn_window(settings.base_url, settings.model, size)

    def _embedder(self, settings: Settings) -> EndpointEmbedder | None:
        if settings.is_demo or not settings.embedding_model:
            return None
        return EndpointEmbedder(self.endpoint_for(settings), settings.embedding_model)
