"""Whether a model takes images (vision.py, settings.py): the user's word, else the name rule."""

from __future__ import annotations

import pytest

from agentlite.commands import PageSettings
from agentlite.settings import Settings
from agentlite.profiles.vision import takes_images


@pytest.mark.parametrize(
    "model",
    [
        "gpt-4o",
        "gpt-4o-mini",
        "gpt-4.1-nano",
        "gpt-5",
        "anthropic/claude-sonnet-4",
        "gemini-2.5-flash",
        "Qwen/Qwen2.5-VL-7B-Instruct",
        "llava:13b",
        "llama-3.2-11b-vision-instruct",
        "pixtral-12b",
        "gemma-3-27b-it",
        "meta-llama/llama-4-scout",
    ],
)
def test_auto_knows_the_families_that_take_images(model: str) -> None:
    assert takes_images("auto", model)


@pytest.mark.parametrize(
    "model",
    [
        "llama-3.1-8b-instruct",
        "qwen2.5-coder-7b",
        "deepseek-chat",
        "mistral-7b",
        "gpt-4o-audio-preview",
        "gemma-3-1b-it",
        "gpt-3.5-turbo",
        "",
    ],
)
def test_auto_sends_none_to_other_names(model: str) -> None:
    assert not takes_images("auto", model)


def test_the_users_word_wins_and_the_demo_takes_none() -> None:
    assert takes_images("yes", "llama-3.1-8b") and not takes_images("no", "gpt-4o")
    assert not takes_images("auto", "gpt-4o", demo=True)
    assert not Settings().takes_images  # the demo model


def test_the_setting_arrives_with_settings_apply() -> None:
    page = PageSettings.from_message({"base_url": "http://x/v1", "model": "m", "vision": "yes"})
    assert page.settings.vision == "yes" and page.settings.takes_images
    assert Settings.from_message({"vision": "maybe"}).vision == "auto"
    assert Settings.from_message({}).vision == "auto"
    assert "vision='yes'" in repr(page.settings)
