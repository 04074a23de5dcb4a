"""What a stage remembers besides its records: which layer is current, what the user decided and saw.

Stored as one JSON record (`<chat>/state` in the `stage` store). A stage's layers are numbered: after a
decision the changes still pending are laid again over the workspace as the next layer, and the old
layer stays stored (the proposal as the agent made it, kept or not).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from agentlite.stage.layers import STAGE_STORE
from agentlite.workspace.storage import Batch, StorageBackend


def chat_prefix(chat: str) -> str:
    return chat.replace("%", "%25").replace("/", "%2F") + "/"


@dataclass
class StageState:
    layer: int = 1
    turn: str | None = None  # the last turn that changed the stage
    shown: list[str] = field(default_factory=list)  # files opened in the review (instructions: see held)
    decided: dict[str, dict[str, Any]] = field(default_factory=dict)  # path -> {state, change, source}
    hunks: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # decided hunks, for the review
    starts: dict[str, int] = field(default_factory=dict)  # entry id -> the workspace version it began from

    @classmethod
    def from_json(cls, raw: str | bytes | None) -> StageState:
        if raw is None:
            return cls()
        data = json.loads(raw)
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        return cls(**known)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    def closed(self) -> StageState:
        """The state once nothing is pending: the next layer starts empty, the decisions are done."""
        return StageState(layer=self.layer + 1)


async def load_state(storage: StorageBackend, chat: str) -> StageState:
    return StageState.from_json(await storage.get(STAGE_STORE, chat_prefix(chat) + "state"))


async def save_state(
    storage: StorageBackend, chat: str, state: StageState, records: Sequence[tuple[str, str, str]] = ()
) -> None:
    """The state, and `records` that go with it (the decision's dropped proposals), in one transaction."""
    own = (STAGE_STORE, chat_prefix(chat) + "state", state.to_json())
    await storage.commit(Batch(puts=[own, *records]))


def layer_prefix(chat: str, layer: int) -> str:
    return f"{chat_prefix(chat)}{layer:06d}/"
