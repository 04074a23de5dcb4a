"""The strategy matrix: retries, waits and what each retry changes, per error type."""

from __future__ import annotations

import random

import pytest

from agentlite.engine.strategy import (
    ADVICE,
    MATRIX,
    MAX_HONOURED_WAIT,
    Alternative,
    Backoff,
    Repair,
    decision_options,
    next_attempt,
)
from agentlite.errors import ErrorType, ModelError

E = ErrorType


def error(kind: ErrorType, retry_after: float | None = None) -> ModelError:
    return ModelError(kind, "boom", retry_after=retry_after)


def test_the_matrix_covers_every_error_type() -> None:
    assert set(MATRIX) == set(ErrorType)
    assert all(ADVICE[kind] for kind in ErrorType)


@pytest.mark.parametrize(
    ("kind", "retries"),
    [(E.RATE_LIMIT, 2), (E.NETWORK, 2), (E.TIMEOUT, 2), (E.SERVER, 2), (E.AUTH, 0), (E.CONTEXT_LENGTH, 2),
     (E.INVALID_FORMAT, 1), (E.EMPTY_RESULT, 1), (E.PROTOCOL, 0), (E.TOOL, 0)],
)  # fmt: skip
def test_retries_per_type_then_the_user_decides(kind: ErrorType, retries: int) -> None:
    backoff = Backoff(random.Random(1))
    attempts = [next_attempt(error(kind), n, backoff) for n in range(1, retries + 2)]
    assert all(a is not None for a in attempts[:retries])
    assert attempts[retries] is None


def test_rate_limit_honours_retry_after() -> None:
    attempt = next_attempt(error(E.RATE_LIMIT, retry_after=7), 1, Backoff(random.Random(1)))
    assert attempt is not None and attempt.wait_s == 7


def test_a_retry_after_too_long_to_wait_goes_to_the_user() -> None:
    assert next_attempt(error(E.RATE_LIMIT, retry_after=MAX_HONOURED_WAIT + 1), 1, Backoff()) is None


def test_rate_limit_without_retry_after_backs_off() -> None:
    attempt = next_attempt(error(E.RATE_LIMIT), 1, Backoff(random.Random(1)))
    assert attempt is not None and 0.75 <= attempt.wait_s <= 1.25


@pytest.mark.parametrize("kind", [E.NETWORK, E.TIMEOUT, E.SERVER])
def test_transient_failures_back_off_exponentially_with_jitter(kind: ErrorType) -> None:
    backoff = Backoff(random.Random(3))
    first, second = (next_attempt(error(kind), n, backoff) for n in (1, 2))
    assert first is not None and second is not None
    assert 0.75 <= first.wait_s <= 1.25
    assert 2.25 <= second.wait_s <= 3.75
    assert first.repair is second.repair is Repair.SAME


def test_context_length_truncates_without_waiting() -> None:
    attempt = next_attempt(error(E.CONTEXT_LENGTH), 1, Backoff())
    assert attempt is not None and attempt.repair is Repair.TRUNCATE and attempt.wait_s == 0


def test_invalid_format_asks_the_model_once_to_correct() -> None:
    attempt = next_attempt(error(E.INVALID_FORMAT), 1, Backoff())
    assert attempt is not None and attempt.repair is Repair.CORRECT
    assert next_attempt(error(E.INVALID_FORMAT), 2, Backoff()) is None


def test_auth_is_never_retried_and_points_to_settings() -> None:
    assert next_attempt(error(E.AUTH), 1, Backoff()) is None
    assert MATRIX[E.AUTH].ask_settings
    assert decision_options(E.AUTH) == ["retry", "skip", "cancel"]


def test_tool_errors_go_to_the_model_not_the_user() -> None:
    assert not MATRIX[E.TOOL].decide


def test_decisions_offer_an_alternative_where_the_matrix_has_one() -> None:
    assert decision_options(E.NETWORK) == ["retry", "alternative", "skip", "cancel"]
    assert MATRIX[E.INVALID_FORMAT].alternative is Alternative.SWITCH_DIALECT
    assert MATRIX[E.EMPTY_RESULT].alternative is Alternative.NO_TOOLS


def test_backoff_is_capped() -> None:
    assert Backoff(random.Random(0)).delay(20) <= 30 * 1.25
