"""A small project in the URL's fragment (web/src/projects/link.js, docs/handoff-sealed.md): base64url
after `#handoff=`, never in the query, at most 64 KB, and a malformed or oversized fragment refused with
a clear message before anything is decoded."""

from __future__ import annotations

import base64
import random

import pytest

from tests.page.projects_cases import answers, b64, unb64

LIMIT = 64 * 1024


def link(data: bytes, url: str) -> str | None:
    (found,) = answers({"op": "linkFor", "bytes": b64(data), "url": url})
    return found


def fragment(*hashes: str) -> list[dict[str, object]]:
    return answers(*({"op": "fromFragment", "hash": h} for h in hashes))


def base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def test_the_link_keeps_the_query_replaces_the_fragment_and_carries_base64url() -> None:
    data = bytes([0xFB, 0xFF, 0xBF, 0x00, 0x41])
    found = link(data, "https://example.org/app/index.html?project=Old&model=demo#old-fragment")
    assert found == "https://example.org/app/index.html?project=Old&model=demo#handoff=" + base64url(data)
    assert "+" not in found and "/" not in found.split("#")[1] and "=" not in found.split("#handoff=")[1]
    assert link(b"x", "http://localhost:8000/") == "http://localhost:8000/#handoff=eA"


def test_bytes_over_the_limit_get_no_link() -> None:
    (constants,) = answers({"op": "constants"})
    assert constants["linkMax"] == LIMIT
    assert link(bytes(LIMIT), "https://example.org/") is not None
    assert link(bytes(LIMIT + 1), "https://example.org/") is None
    nothing = link(b"", "https://example.org/")
    assert isinstance(nothing, dict) and nothing["error"]["name"] == "LinkError"


def test_the_fragment_gives_the_bytes_back_for_random_sizes_up_to_the_limit() -> None:
    chance = random.Random(7)
    sizes = [1, 2, 3, 4, 5, 100, 4096, LIMIT - 1, LIMIT]
    cases = [chance.randbytes(size) for size in sizes]
    links = answers(*({"op": "linkFor", "bytes": b64(data), "url": "https://x.test/?a=1"} for data in cases))
    found = fragment(*("#" + str(url).split("#", 1)[1] for url in links))
    assert [unb64(str(f["value"])) for f in found] == cases


def test_a_fragment_without_a_handoff_is_no_link() -> None:
    found = fragment("", "#", "#section-2", "#project=x", "handoff", "#handoffs=eA")
    assert [f.get("value", f) for f in found] == [None] * 6


def test_the_hash_may_come_with_or_without_its_mark() -> None:
    with_mark, without = fragment("#handoff=eA", "handoff=eA")
    assert unb64(str(with_mark["value"])) == unb64(str(without["value"])) == b"x"


@pytest.mark.parametrize(
    ("hash_", "says"),
    [
        ("#handoff=ab+c", "malformed"),
        ("#handoff=ab/c", "malformed"),
        ("#handoff=eA==", "malformed"),
        ("#handoff=e A", "malformed"),
        ("#handoff=a", "malformed"),
        ("#handoff=eA&x=1", "malformed"),
        ("#handoff=%65A", "malformed"),
        ("#handoff=", "empty"),
    ],
)
def test_a_malformed_fragment_is_refused_with_a_clear_message(hash_: str, says: str) -> None:
    (found,) = fragment(hash_)
    error = found["error"]
    assert isinstance(error, dict)
    assert error["name"] == "LinkError" and says in error["message"]


def test_an_oversized_fragment_is_refused_by_its_length_before_decoding() -> None:
    just = base64url(bytes(LIMIT))
    over = "A" * (len(just) + 1)
    huge = "!" * 5_000_000  # not base64url either: the length is what refuses it, first
    ok, too_long, far_too_long = fragment("#handoff=" + just, "#handoff=" + over, "#handoff=" + huge)
    assert unb64(str(ok["value"])) == bytes(LIMIT)
    for found in (too_long, far_too_long):
        error = found["error"]
        assert isinstance(error, dict)
        assert error["name"] == "LinkError" and "64 KB" in error["message"] and "file" in error["message"]
