"""The model a turn talks to: the endpoint (URL, key, headers, bound transport), the model's name, the
dialect the user chose (`auto` or one of them), the window the page knows for it, whether the model
takes images (`vision`, resolved from the user's setting by `agentlite.profiles.vision`), and its
`profile`: what differs for this kind of model (`agentlite.profiles`), which a turn reads instead of
asking which model it talks to.

The settings' room (`agentlite.rooms.settings_room`) builds one whenever the page applies its
settings or learns the model's window, never one per request; the profile is chosen then, from the
settings (`Settings.profile`). A turn sends every round with `link.endpoint.chat(body)`.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentlite.endpoint import Endpoint
from agentlite.profiles import REMOTE, ModelProfile
from agentlite.settings import Settings
from agentlite.transport import HttpTransport


@dataclass(frozen=True)
class ModelLink:
    endpoint: Endpoint
    model: str
    dialect: str  # the user's choice: "auto" or a dialect (a turn resolves `auto`)
    base_url: str = ""  # as the settings name it: the key of the per-endpoint memories
    window: int | None = None  # the context window for turns (None: the chat's own setting)
    vision: bool = False  # requests carry the images of tool results (docs/protocol.md)
    profile: ModelProfile = REMOTE  # what differs for this kind of model (agentlite.profiles)

    @classmethod
    def of(cls, settings: Settings, transport: HttpTransport, window: int | None = None) -> ModelLink:
        endpoint = Endpoint.of(settings, transport)
        vision, profile = settings.takes_images, settings.profile
        return cls(endpoint, settings.model, settings.dialect, settings.base_url, window, vision, profile)

    @property
    def key(self) -> tuple[str, str]:
        """(base URL, model): what the `auto` dialect memory and the stated windows are keyed by."""
        return (self.base_url, self.model)

    @property
    def transport(self) -> HttpTransport:
        return self.endpoint.transport
