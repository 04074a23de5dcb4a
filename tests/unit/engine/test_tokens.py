"""Token counts: the installed tokenizer when there is one, else estimates closer to o200k than chars/4
on prose, code, Chinese and base64; calibrated by usage either way."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agentlite.engine import tokens
from agentlite.engine.tokens import MESSAGE_OVERHEAD, REPLY_PRIMING, TokenCounter, estimate

# Reference counts measured once with the o200k_base tokenizer (gpt-tokenizer) on these exact strings.
SAMPLES = [
    ("The quick brown fox jumps over the lazy dog.", 10),
    (
        "def transition(self, target: ChatState, **detail: Any) -> None:\n    if not self.can(target):\n"
        '        raise IllegalTransition(f"illegal move")',
        33,
    ),
    ("计算 1000 以内的所有素数之和。", 13),
    ("ZXhwb3J0IGRlZmF1bHQgZnVuY3Rpb24gQXBwKCkgewogIHJldHVybiA8aDE+T2xkIFRpdGxlPC9oMT47Cn0K", 57),
]


@pytest.mark.parametrize(("text", "tokens"), SAMPLES)
def test_estimates_are_within_a_fifth_of_the_real_count(text: str, tokens: int) -> None:
    assert abs(estimate(text) - tokens) <= max(2, tokens * 0.2)


def test_better_than_chars_over_four_where_it_matters() -> None:
    ours = sum(abs(estimate(t) - n) / n for t, n in SAMPLES)
    quarter = sum(abs(len(t) / 4 - n) / n for t, n in SAMPLES)
    assert ours < quarter / 3


def test_empty_and_whitespace() -> None:
    assert estimate("") == 0
    assert estimate("\n\n") == 1


def test_calibration_follows_the_provider() -> None:
    counter = TokenCounter()
    text = "hello world " * 100
    raw = counter.text(text)
    counter.calibrate(raw, raw * 2)  # the provider counts twice as many
    assert counter.text(text) == raw * 2
    counter.calibrate(counter.text(text), raw * 2)
    assert counter.text(text) == raw * 2


def test_calibration_is_bounded_and_ignores_missing_usage() -> None:
    counter = TokenCounter()
    counter.calibrate(100, None)
    assert counter.ratio == 1.0
    counter.calibrate(100, 100_000)
    assert counter.ratio == 2.0


def test_a_refusals_count_is_adopted_outright_beyond_the_usage_bounds() -> None:
    counter = TokenCounter()
    counter.calibrate(100, 120)  # usage first: the refusal's count still wins, unsmoothed
    assert counter.correct(120, 300) == 3.0 and counter.ratio == 3.0
    assert counter.correct(100, 100_000) == 10.0, "bounded all the same: a misread number stays sane"


def test_a_stated_ratio_widens_the_usage_bounds_instead_of_being_undone() -> None:
    counter = TokenCounter()
    counter.correct(100, 300)
    counter.calibrate(300, 300)  # usage that agrees with the refusal's count keeps its ratio
    assert counter.ratio == 3.0


def test_a_seeded_ratio_starts_a_fresh_counter_and_survives_a_source_switch(no_tokenizer: None) -> None:
    counter = TokenCounter()
    text = "hello world " * 50
    counter.seed(2.5)
    assert counter.text(text) == round(estimate(text) * 2.5)
    tokens.use(words)
    assert counter.text(text) == 250, "the new units start from the stated ratio, not from 1"
    calibrated = TokenCounter()
    calibrated.calibrate(100, 150)
    calibrated.seed(3.0)
    assert calibrated.ratio == 1.5, "a counter the provider's usage calibrated keeps its own ratio"


def test_messages_count_content_calls_and_overhead() -> None:
    counter = TokenCounter()
    plain = counter.messages([{"role": "user", "content": "hello"}])
    with_call = counter.messages(
        [
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"id": "c1", "name": "read_file", "arguments": {}}],
            }
        ]
    )
    assert plain > estimate("hello")
    assert with_call > plain


def words(text: str) -> int:
    """A stand-in tokenizer: one token per whitespace-separated word."""
    return len(text.split())


@pytest.fixture
def no_tokenizer() -> Iterator[None]:
    previous = tokens.installed()
    tokens.use(None)
    yield
    tokens.use(previous)


def test_an_injected_counter_replaces_the_estimate() -> None:
    counter = TokenCounter(words)
    assert counter.text("one two three") == 3
    assert counter.messages([{"role": "user", "content": "one two"}]) == REPLY_PRIMING + MESSAGE_OVERHEAD + 2


def test_counters_use_the_installed_tokenizer_and_estimate_without_one(no_tokenizer: None) -> None:
    text = "antidisestablishmentarianism " * 4
    counter = TokenCounter()
    assert counter.text(text) == estimate(text) == tokens.count(text)
    tokens.use(words)
    assert counter.text(text) == 4 == tokens.count(text)
    tokens.use(None)
    assert counter.text(text) == estimate(text)


def test_a_tokenizer_arriving_mid_chat_resets_the_calibration(no_tokenizer: None) -> None:
    counter = TokenCounter()
    text = "hello world " * 50
    estimated = counter.text(text)
    counter.calibrate(estimated, estimated * 2)
    assert counter.ratio == 2.0
    tokens.use(words)
    counter.calibrate(estimated, estimated * 2)  # counted in estimate units: not folded into the new ratio
    assert counter.ratio == 2.0
    assert counter.text(text) == 100 and counter.ratio == 1.0
    counter.calibrate(100, 150)
    assert counter.text(text) == 150


def test_the_browser_counter_estimates_what_the_tokenizer_fails_on(no_tokenizer: None) -> None:
    from agentlite.browser.tokenizer import install

    class Binding:  # the JS module's surface: count(text) -> number
        def count(self, text: str) -> int:
            if "\ud800" in text:
                raise RuntimeError("lone surrogate")
            return 7

    install(Binding())
    assert tokens.count("seven tokens, says the tokenizer") == 7
    assert tokens.count("odd \ud800 text") == estimate("odd \ud800 text")
