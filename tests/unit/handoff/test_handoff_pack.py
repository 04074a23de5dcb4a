"""The blob pack (`blobs.pack`): blobs come back as they went in, and when the pack has changed the
blobs that no longer decode to their names are the ones named."""

from __future__ import annotations

import hashlib
import zlib

from agentlite.handoff.handoff_pack import changed_blobs, pack_blobs, unpack_blobs
from agentlite.workspace import delta

BASE = b"".join(b"line %d of the base\n" % n for n in range(200))
EDITED = BASE.replace(b"line 7 ", b"line seven ")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _blobs() -> dict[str, bytes]:
    """A whole blob (zlib), a delta on it, and a small raw one."""
    return {
        _sha(BASE): b"Z" + zlib.compress(BASE),
        _sha(EDITED): b"D" + _sha(BASE).encode() + delta.encode(BASE, EDITED),
        _sha(b"small"): b"Fsmall",
    }


def test_a_pack_gives_back_its_blobs() -> None:
    blobs = _blobs()
    assert unpack_blobs(pack_blobs(blobs)) == blobs
    assert unpack_blobs(pack_blobs({})) == {}
    assert changed_blobs(pack_blobs(blobs)) == []


def test_a_changed_delta_is_named() -> None:
    blobs = _blobs()
    blobs[_sha(EDITED)] = blobs[_sha(EDITED)].replace(b"seven", b"SEVEN")
    assert changed_blobs(pack_blobs(blobs)) == [_sha(EDITED)]


def test_a_changed_base_is_named_not_the_delta_on_it() -> None:
    blobs = _blobs()
    blobs[_sha(BASE)] = b"F" + BASE.replace(b"line 9 ", b"line 8 ")
    assert changed_blobs(pack_blobs(blobs)) == [_sha(BASE)]


def test_a_delta_whose_base_is_gone_is_named() -> None:
    blobs = _blobs()
    del blobs[_sha(BASE)]
    assert changed_blobs(pack_blobs(blobs)) == [_sha(EDITED)]


def test_a_pack_that_cannot_be_read_names_nothing() -> None:
    assert changed_blobs(pack_blobs(_blobs())[:-3]) == []
