"""Incremental UTF-8 decoding of the HTTP body.

A network chunk may end inside a multi-byte character; the decoder keeps the partial bytes for the next
chunk so that no split of the body changes the decoded text. Invalid bytes become U+FFFD instead of failing:
a provider's stray byte must not kill the reply.
"""

from __future__ import annotations

import codecs


class Utf8Decoder:
    """Bytes in, text out, across any split."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, data: bytes) -> str:
        return self._decoder.decode(bytes(data), final=False)

    def close(self) -> str:
        """The text of a character cut off by the end of the body (as U+FFFD)."""
        return self._decoder.decode(b"", final=True)
