"""Error classification, provider error bodies, and settings from the page."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agentlite.errors import REDACTED, ErrorType, classify_status, from_http, parse_retry_after, redact
from agentlite.settings import Settings


@pytest.mark.parametrize(
    ("status", "message", "expected"),
    [
        (429, "", ErrorType.RATE_LIMIT),
        (401, "", ErrorType.AUTH),
        (403, "", ErrorType.AUTH),
        (408, "", ErrorType.TIMEOUT),
        (504, "", ErrorType.TIMEOUT),
        (500, "", ErrorType.SERVER),
        (503, "", ErrorType.SERVER),
        (400, "This model's maximum context length is 8192 tokens", ErrorType.CONTEXT_LENGTH),
        (413, "", ErrorType.CONTEXT_LENGTH),
        (400, "bad request", ErrorType.PROTOCOL),
    ],
)
def test_classify_status(status: int, message: str, expected: ErrorType) -> None:
    assert classify_status(status, message) == expected


def test_from_http_reads_openai_error_body() -> None:
    body = (
        b'{"error": {"message": "Incorrect API key", "type": "invalid_request_error",'
        b' "code": "invalid_api_key"}}'
    )
    error = from_http(401, body)
    assert (error.type, error.message, error.code, error.provider_type) == (
        ErrorType.AUTH,
        "Incorrect API key",
        "invalid_api_key",
        "invalid_request_error",
    )


def test_from_http_with_plain_text_body_and_retry_after() -> None:
    error = from_http(503, b"upstream overloaded", "12")
    assert error.type == ErrorType.SERVER
    assert error.message == "upstream overloaded"
    assert error.retry_after == 12.0


def test_from_http_with_empty_body_has_a_message() -> None:
    assert "HTTP 502" in from_http(502, b"").message


@pytest.mark.parametrize(
    ("value", "seconds"), [("5", 5.0), ("0.5", 0.5), ("", None), ("soon", None), ("-3", None)]
)
def test_parse_retry_after(value: str, seconds: float | None) -> None:
    assert parse_retry_after(value) == seconds


NOW = datetime(2015, 10, 21, 7, 27, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("Wed, 21 Oct 2015 07:28:00 GMT", 60.0),  # IMF-fixdate, the form RFC 9110 prefers
        ("Wednesday, 21-Oct-15 07:28:30 GMT", 90.0),  # obsolete RFC 850 form
        ("Wed Oct 21 07:29:00 2015", 120.0),  # asctime form
        ("Tue, 20 Oct 2015 07:28:00 GMT", 0.0),  # already past: retry now
        ("Wed, 32 Foo 2015 07:28:00 GMT", None),
        ("nan", None),
        ("inf", None),
    ],
)
def test_parse_retry_after_http_date(value: str, seconds: float | None) -> None:
    assert parse_retry_after(value, now=NOW) == seconds


def test_from_http_with_a_past_retry_after_date_retries_now() -> None:
    assert from_http(429, b"{}", "Tue, 20 Oct 2015 07:28:00 GMT").retry_after == 0.0


def test_from_http_masks_the_key_a_server_echoes() -> None:
    key = "sk-proj-0123456789abcdef"
    body = f'{{"error": {{"message": "Incorrect API key provided: {key}", "code": "{key}"}}}}'.encode()
    error = from_http(401, body, secret=key)
    assert error.message == f"Incorrect API key provided: {REDACTED}" and error.code == REDACTED
    assert key not in str(error.to_dict())
    plain = from_http(500, f"bad key {key}".encode(), secret=key)
    assert plain.message == f"bad key {REDACTED}"


def test_redact_leaves_text_without_a_real_key_alone() -> None:
    assert redact("a none b", "none") == "a none b"  # too short to be a secret
    assert redact("x", None) == "x"


def test_settings_default_to_demo_and_hide_the_key() -> None:
    assert Settings.from_message({}).is_demo
    settings = Settings.from_message(
        {"base_url": "http://x/v1/", "api_key": "sk-1", "model": "m", "dialect": "bogus"}
    )
    assert (settings.base_url, settings.dialect, settings.is_demo) == ("http://x/v1", "auto", False)
    assert "sk-1" not in repr(settings) and "sk-1" not in str(settings)
