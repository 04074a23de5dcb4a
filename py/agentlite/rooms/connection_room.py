"""The connection test's room (`connection.*`): diagnose an endpoint from the settings form.

A known answer about tool calling is what `auto` uses for that endpoint and model, and a listed
context window is what the next turn on it uses (the settings' room keeps both)."""

from __future__ import annotations

from typing import Any

from agentlite import connection
from agentlite.engine.dialect import DialectChooser
from agentlite.rooms.settings_room import SettingsRoom
from agentlite.settings import Settings


class ConnectionRoom:
    def __init__(self, settings: SettingsRoom, dialects: DialectChooser) -> None:
        self.settings = settings
        self.dialects = dialects

    async def test(self, tested: Settings) -> dict[str, Any]:
        """The form's values, saved or not: what the endpoint answered, as the page shows it."""
        diagnosis = await connection.check(self.settings.endpoint_for(tested), tested.model)
        if diagnosis.tools is not None and tested.base_url:
            dialect = "native" if diagnosis.tools else "json"
            self.dialects.learn(tested.base_url, tested.model, dialect)
        self.settings.learn_window(tested.base_url, tested.model, diagnosis.context_window)
        return diagnosis.to_dict()
