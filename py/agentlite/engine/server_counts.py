"""How each model server counts, as its `context_length` refusals told us (docs/protocol.md, "Context
windows that shrink"): per endpoint + model, the window a refusal stated and the ratio of the server's
token count of a refused request to ours.

A server may count very differently from our o200k count (its own tokenizer, tool schemas rendered by
its chat template), so its count is the truth: the ratio scales every later count of requests to that
model (`TokenCounter.seed`), in every chat of the workspace, until the page is reloaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from agentlite.settings import Settings

ModelKey = tuple[str, str]  # (base URL, model)


def model_key(settings: Settings) -> ModelKey:
    return (settings.base_url, settings.model)


@dataclass(frozen=True)
class Stated:
    """What refusals stated about one model: its window, and server tokens per token of our raw count."""

    window: int | None = None
    ratio: float | None = None


@dataclass
class ServerCounts:
    """The engine's one memory of refusals, shared by its chats."""

    stated: dict[ModelKey, Stated] = field(default_factory=dict)

    def window(self, key: ModelKey) -> int | None:
        return self.of(key).window

    def ratio(self, key: ModelKey) -> float | None:
        return self.of(key).ratio

    def of(self, key: ModelKey) -> Stated:
        return self.stated.get(key, Stated())

    def learn_window(self, key: ModelKey, window: int) -> None:
        self.stated[key] = replace(self.of(key), window=window)

    def learn_ratio(self, key: ModelKey, ratio: float) -> None:
        self.stated[key] = replace(self.of(key), ratio=ratio)
