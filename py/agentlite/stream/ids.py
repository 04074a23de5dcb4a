"""Tool-call ids of one reply: the provider's when it sent one, else generated; always unique."""

from __future__ import annotations


class CallIds:
    def __init__(self, prefix: str = "call_") -> None:
        self.prefix = prefix
        self._used: set[str] = set()

    def claim(self, wanted: str | None = None) -> str:
        """`wanted` when free, else a fresh id (`call_1`, `call_2`, ... or `<wanted>_2`)."""
        base = wanted or f"{self.prefix}{len(self._used) + 1}"
        ident, suffix = base, 1
        while ident in self._used:
            suffix += 1
            ident = f"{base}_{suffix}" if wanted else f"{self.prefix}{len(self._used) + suffix}"
        self._used.add(ident)
        return ident
