"""Endpoint settings as the worker receives them from the page (the key only ever in memory).

`context_window` is the user's explicit window in tokens; 0 (the page's default) means "not set": the
model's window from the endpoint's `/models` listing is used, else the engine's default. An
`embedding_model` names the model for `POST {base_url}/embeddings` (long-term memory ranking); empty
means memories are ranked by keywords only. `vision` says whether the model takes images (`auto`: by its
name, `agentlite.profiles.vision`). Requests and their headers are `agentlite.endpoint`'s. What differs
for the kind of model they name (the model in the page, the demo model, one on the network) is their
`profile`, chosen here once per link from the base URL and the model's name (`agentlite.profiles`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agentlite.limits import CONTEXT_WINDOW
from agentlite.profiles import DEMO_MODEL, ModelProfile, in_page, is_demo, profile_for
from agentlite.profiles.vision import VISION_CHOICES, takes_images
from agentlite.stream.decoder import DIALECTS

DIALECT_CHOICES = ("auto", *DIALECTS)  # what a user may choose: a dialect, or "auto" to let the agent pick
MAX_WINDOW = CONTEXT_WINDOW.high  # tokens; a larger number is a typo, not a model


@dataclass(frozen=True)
class Settings:
    base_url: str = ""
    api_key: str = ""
    model: str = DEMO_MODEL
    dialect: str = "auto"
    context_window: int = 0  # 0: not set by the user (the model's metadata, else the default)
    embedding_model: str = ""  # empty: no embeddings
    vision: str = "auto"  # auto | yes | no: whether the model takes images (`agentlite.profiles.vision`)

    @classmethod
    def from_message(cls, data: dict[str, Any]) -> Settings:
        dialect = str(data.get("dialect") or "auto")
        vision = str(data.get("vision") or "auto")
        return cls(
            base_url=str(data.get("base_url") or "").rstrip("/"),
            api_key=str(data.get("api_key") or ""),
            model=str(data.get("model") or "") or (DEMO_MODEL if not data.get("base_url") else ""),
            dialect=dialect if dialect in DIALECT_CHOICES else "auto",
            context_window=window_size(data.get("context_window")) or 0,
            embedding_model=str(data.get("embedding_model") or "").strip(),
            vision=vision if vision in VISION_CHOICES else "auto",
        )

    @property
    def is_demo(self) -> bool:
        return is_demo(self.base_url, self.model)

    @property
    def is_local(self) -> bool:
        return in_page(self.base_url, self.model)

    @property
    def profile(self) -> ModelProfile:
        """What differs for this kind of model (`agentlite.profiles`), for the link the settings make."""
        return profile_for(self.base_url, self.model)

    @property
    def takes_images(self) -> bool:
        return takes_images(self.vision, self.profile)

    def __repr__(self) -> str:  # never print the key
        return (
            f"Settings(base_url={self.base_url!r}, model={self.model!r}, dialect={self.dialect!r}, "
            f"context_window={self.context_window!r}, embedding_model={self.embedding_model!r}, "
            f"vision={self.vision!r})"
        )


def window_size(value: Any) -> int | None:
    """A context window in tokens from a setting or a model listing; None when it is not a usable one."""
    if isinstance(value, bool):
        return None
    try:
        number = int(float(value))
    except (TypeError, ValueError, OverflowError):
        return None
    return number if 0 < number <= MAX_WINDOW else None
