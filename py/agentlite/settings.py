"""Endpoint settings as the worker receives them from the page (the key only ever in memory)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DIALECTS = ("auto", "native", "json", "ndjson", "ndjson-text")
DEMO_MODEL = "demo"


@dataclass(frozen=True)
class Settings:
    base_url: str = ""
    api_key: str = ""
    model: str = DEMO_MODEL
    dialect: str = "auto"

    @classmethod
    def from_message(cls, data: dict[str, Any]) -> Settings:
        dialect = str(data.get("dialect") or "auto")
        return cls(
            base_url=str(data.get("base_url") or "").rstrip("/"),
            api_key=str(data.get("api_key") or ""),
            model=str(data.get("model") or "") or (DEMO_MODEL if not data.get("base_url") else ""),
            dialect=dialect if dialect in DIALECTS else "auto",
        )

    @property
    def is_demo(self) -> bool:
        return self.model == DEMO_MODEL or not self.base_url

    def headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers

    def __repr__(self) -> str:  # never print the key
        return f"Settings(base_url={self.base_url!r}, model={self.model!r}, dialect={self.dialect!r})"
