"""The passphrase envelope (web/src/projects/seal.js, docs/handoff-sealed.md) under Node's WebCrypto:
round trips, the layout another tool reads (Python's PBKDF2 and Node's own AES-GCM open it), a wrong
passphrase said so, and every kind of damage refused with its own message, a hostile iteration count
before any key is derived."""

from __future__ import annotations

import hashlib
import hmac
import random
import struct
from typing import Any

import pytest

from tests.page.projects_cases import answers, b64, unb64

MAGIC = b"\x89ALSEAL\n"
KDF = b"PBKDF2-SHA256"
LOW = 100_000  # the fewest iterations a header may name: the tests seal with it to stay quick


def constants() -> dict[str, Any]:
    (found,) = answers({"op": "constants"})
    return found


def sealed(data: bytes, passphrase: str = "correct horse", iterations: int = LOW) -> bytes:
    (text,) = answers({"op": "seal", "bytes": b64(data), "passphrase": passphrase, "iterations": iterations})
    return unb64(text)


def unsealed(*cases: tuple[bytes, str]) -> list[dict[str, Any]]:
    return answers(*({"op": "unseal", "bytes": b64(data), "passphrase": p} for data, p in cases))


def layout(envelope: bytes) -> dict[str, Any]:
    """The envelope read as docs/handoff-sealed.md lays it out."""
    name_length = envelope[9]
    at = 10 + name_length
    (iterations,) = struct.unpack(">I", envelope[at : at + 4])
    salt, iv = envelope[at + 4 : at + 20], envelope[at + 20 : at + 32]
    check = envelope[at + 32 : at + 48]
    (length,) = struct.unpack(">Q", envelope[at + 48 : at + 56])
    header = envelope[: at + 56]
    return {
        "magic": envelope[:8],
        "version": envelope[8],
        "kdf": envelope[10:at],
        "iterations": iterations,
        "salt": salt,
        "iv": iv,
        "check": check,
        "length": length,
        "header": header,
        "body": envelope[len(header) : len(header) + length],
        "digest": envelope[len(header) + length :],
    }


def hkdf(secret: bytes, info: bytes, length: int) -> bytes:
    """HKDF-SHA256 (RFC 5869) with an empty salt, for outputs of one block."""
    prk = hmac.new(b"", secret, hashlib.sha256).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()[:length]


def test_the_default_cost_is_owasps_and_the_bounds_refuse_the_absurd() -> None:
    found = constants()
    assert found["iterations"] == 600_000
    assert found["lowest"] == LOW
    assert found["iterations"] < found["highest"] == 5_000_000


def test_seal_then_unseal_gives_the_bytes_back_and_each_seal_is_fresh() -> None:
    chance = random.Random(41)
    cases = [b"", b"x", bytes(chance.randrange(256) for _ in range(5000)), "Отчёт 🚀".encode()]
    phrases = ["correct horse", "é", "ünïcödé 🔑 with spaces", "a" * 500]
    found = answers(
        *(
            {"op": "roundTrip", "bytes": b64(data), "passphrase": phrase, "iterations": LOW}
            for data, phrase in zip(cases, phrases, strict=True)
        )
    )
    for data, answer in zip(cases, found, strict=True):
        assert unb64(answer["opened"]) == data
        assert answer["differs"], "a fresh salt and IV each time"


def test_another_tool_opens_the_envelope_from_the_documented_layout() -> None:
    data = b"PK\x03\x04 a project's zip" * 50
    envelope = sealed(data, "correct horse", 123_456)
    found = layout(envelope)
    assert found["magic"] == MAGIC and found["version"] == 1 and found["kdf"] == KDF
    assert found["iterations"] == 123_456 and found["length"] == len(data) + 16
    assert found["digest"] == hashlib.sha256(envelope[:-32]).digest()
    master = hashlib.pbkdf2_hmac("sha256", b"correct horse", found["salt"], found["iterations"], 32)
    assert hkdf(master, b"AgentLite seal v1 check", 16) == found["check"]
    key = hkdf(master, b"AgentLite seal v1 key", 32)
    opening = {"key": key, "iv": found["iv"], "body": found["body"], "header": found["header"]}
    (plain,) = answers({"op": "gcmOpen", **{name: b64(value) for name, value in opening.items()}})
    assert unb64(plain) == data


def test_the_passphrase_is_read_in_one_unicode_form() -> None:
    envelope = sealed(b"data", "cafe\u0301")
    (opened,) = unsealed((envelope, "caf\u00e9"))
    assert unb64(opened["value"]) == b"data"


def test_a_wrong_passphrase_is_said_to_be_wrong() -> None:
    envelope = sealed(b"secret work")
    wrong, empty, case = unsealed((envelope, "Correct horse"), (envelope, ""), (envelope, "CORRECT HORSE"))
    for answer in (wrong, case):
        assert answer["error"]["name"] == "SealError"
        assert answer["error"]["code"] == "wrong-passphrase"
        assert "passphrase is wrong" in answer["error"]["message"]
    assert empty["error"]["code"] == "no-passphrase" and empty["derivations"] == 0


def test_sealing_needs_a_passphrase() -> None:
    (found,) = answers({"op": "seal", "bytes": b64(b"x"), "passphrase": "", "iterations": LOW})
    assert found["error"]["name"] == "SealError" and found["error"]["code"] == "no-passphrase"


def rewritten(envelope: bytes, at: int, value: bytes) -> bytes:
    return envelope[:at] + value + envelope[at + len(value) :]


def with_digest(body: bytes) -> bytes:
    """`body` with a digest that matches it: damage made on purpose, past the accidental check."""
    return body + hashlib.sha256(body).digest()


def test_every_kind_of_damage_is_refused_with_its_own_message() -> None:
    envelope = sealed(b"the project" * 100)
    at = 10 + len(KDF)
    header_end = at + 56
    cases = {
        "empty": (b"", "not-sealed"),
        "a zip": (b"PK\x03\x04rest", "not-sealed"),
        "half a magic": (MAGIC[:5], "truncated"),
        "header cut": (envelope[: at + 10], "truncated"),
        "body cut": (envelope[:-100], "truncated"),
        "digest cut": (envelope[:-1], "truncated"),
        "bytes added": (envelope + b"extra", "trailing"),
        "version 2": (rewritten(envelope, 8, b"\x02"), "version"),
        "version 0": (rewritten(envelope, 8, b"\x00"), "version"),
        "a body byte": (
            rewritten(envelope, header_end + 3, bytes([envelope[header_end + 3] ^ 1])),
            "damaged",
        ),
        "a salt byte": (rewritten(envelope, at + 4, bytes([envelope[at + 4] ^ 1])), "damaged"),
        "the digest": (rewritten(envelope, len(envelope) - 1, bytes([envelope[-1] ^ 1])), "damaged"),
        "the KDF": (with_digest(rewritten(envelope, 10, b"X")[:-32]), "kdf"),
        "a KDF name too long": (with_digest(envelope[:9] + b"\xff" + envelope[10:-32]), "kdf"),
        "a forged body": (
            with_digest(rewritten(envelope[:-32], header_end, bytes([envelope[header_end] ^ 1]))),
            "damaged",
        ),
        "a forged IV": (
            with_digest(rewritten(envelope[:-32], at + 20, bytes([envelope[at + 20] ^ 1]))),
            "damaged",
        ),
        "a forged length": (
            with_digest(rewritten(envelope[:-32], at + 48, struct.pack(">Q", 2**60))),
            "truncated",
        ),
    }
    found = unsealed(*((data, "correct horse") for data, _ in cases.values()))
    messages = {}
    for (what, (_, code)), answer in zip(cases.items(), found, strict=True):
        assert answer.get("error", {}).get("code") == code, (what, answer)
        assert answer["error"]["name"] == "SealError"
        messages.setdefault(code, set()).add(answer["error"]["message"])
    assert all("passphrase" not in m for ms in messages.values() for m in ms), messages
    assert len({m for ms in messages.values() for m in ms}) >= len(messages)


@pytest.mark.parametrize("iterations", [0, 1, 99_999, 5_000_001, 2**32 - 1])
def test_a_hostile_iteration_count_is_refused_before_any_key_is_derived(iterations: int) -> None:
    envelope = sealed(b"work")
    at = 10 + len(KDF)
    hostile = with_digest(rewritten(envelope[:-32], at, struct.pack(">I", iterations)))
    (found,) = unsealed((hostile, "correct horse"))
    assert found["error"]["code"] == "iterations"
    assert f"{iterations:,}" in found["error"]["message"]
    assert found["derivations"] == 0
    (refused,) = answers({"op": "seal", "bytes": b64(b"x"), "passphrase": "p", "iterations": iterations})
    assert refused["error"]["code"] == "iterations"


def test_kind_of_tells_a_sealed_file_a_zip_and_anything_else_by_their_first_bytes() -> None:
    envelope = sealed(b"x")
    cases = [envelope, b"PK\x03\x04...", b"PK\x05\x06" + bytes(18), b"", b"PK", MAGIC[:7], b"%PDF-1.7"]
    found = answers(*({"op": "kindOf", "bytes": b64(data)} for data in cases))
    assert [f["kind"] for f in found] == ["sealed", "zip", "zip", "unknown", "unknown", "unknown", "unknown"]
    assert [f["sealed"] for f in found] == [True, False, False, False, False, False, False]
