"""Token estimates: closer to o200k than chars/4 on prose, code, Chinese and base64; calibrated by usage."""

from __future__ import annotations

import pytest

from agentlite.engine.tokens import TokenCounter, estimate

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
