"""The demo model's room (`demo.*`): its examples, offered on the first screen."""

from __future__ import annotations

from agentlite import demo


class DemoRoom:
    def examples(self) -> list[dict[str, str]]:
        return demo.examples()
