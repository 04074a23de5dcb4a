"""The tool definitions as the decoders see them: names, aliases and the fields that stream.

Tool definitions come in as data (`{"name", "description", "parameters", "streamed", "aliases"}`) so that
the alias table and the streamed-field table live with the tool registry, not in the decoders.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class ToolCatalog:
    def __init__(self, defs: Iterable[dict[str, Any]] | None = None) -> None:
        self.defs: list[dict[str, Any]] = [d for d in defs or () if isinstance(d, dict) and d.get("name")]
        self._canonical: dict[str, str] = {}
        self._streamed: dict[str, tuple[str, ...]] = {}
        for definition in self.defs:
            name = str(definition["name"])
            self._streamed[name] = _names(definition.get("streamed"))
            for alias in (name, *_names(definition.get("aliases"))):
                self._canonical.setdefault(alias, name)

    def canonical(self, name: str) -> str:
        """The canonical name when the definitions know the name or alias, else the name as sent."""
        return self._canonical.get(name, name)

    def known(self, name: str) -> bool:
        return name in self._canonical

    def streamed(self, name: str) -> tuple[str, ...]:
        """Fields of the (canonical) tool that travel as streams and are previewed while they arrive."""
        return self._streamed.get(self.canonical(name), ())

    def stream_field(self, name: str, key: str) -> str | None:
        """The streamed field a `<key>_b64` spelling means: exact, or a unique prefix (`new` → `newCode`)."""
        fields = self.streamed(name)
        if key in fields:
            return key
        lowered = key.lower()
        matches = [f for f in fields if f.lower().startswith(lowered)]
        return matches[0] if len(matches) == 1 else None


def _names(value: Any) -> tuple[str, ...]:
    """A list of names from a definition field (a lone string counts as one name)."""
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()
