"""Counting parts lists and images (engine/tokens.py, engine/budget.py): text parts as text, each image
as IMAGE_TOKENS, never its base64; a model that takes no images is not charged for them."""

from __future__ import annotations

from agentlite.engine.budget import Budget
from agentlite.engine.tokens import IMAGE_TOKENS, MESSAGE_OVERHEAD, REPLY_PRIMING, TokenCounter, message_texts

DATA = "iVBORw0KGgo" * 1000  # a long base64 run: counted as text it would be thousands of tokens


def words(text: str) -> int:
    return len(text.split())


def test_a_parts_list_counts_its_texts_and_each_image() -> None:
    counter = TokenCounter(words)
    parts = [
        {"type": "text", "text": "two words"},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{DATA}"}},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{DATA}"}},
        {"type": "text", "text": "three more words"},
    ]
    expected = REPLY_PRIMING + MESSAGE_OVERHEAD + 5 + 2 * IMAGE_TOKENS
    assert counter.messages([{"role": "user", "content": parts}]) == expected
    assert list(message_texts([{"role": "user", "content": parts}])) == ["two words", "three more words"]


def test_a_tool_messages_images_count_in_the_history_shape() -> None:
    counter = TokenCounter(words)
    tool = {"role": "tool", "content": "one", "images": [{"mime": "image/png", "data": DATA}]}
    assert counter.messages([tool]) == REPLY_PRIMING + MESSAGE_OVERHEAD + 1 + IMAGE_TOKENS


def test_the_budget_charges_images_only_to_a_model_that_takes_them() -> None:
    tool = {"role": "tool", "content": "one", "images": [{"mime": "image/png", "data": DATA}]}
    seeing, blind = Budget(TokenCounter(words), vision=True), Budget(TokenCounter(words))
    assert seeing.measure("", [tool]) - blind.measure("", [tool]) == IMAGE_TOKENS
