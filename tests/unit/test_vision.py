"""Whether a model takes images (profiles/vision.py, settings.py): the user's word, else the name rule."""

from __future__ import annotations

import pytest

from agentlite.commands import PageSettings
from agentlite.profiles import REMOTE, profile_for
from agentlite.profiles.vision import reads_images, takes_images
from agentlite.settings import Settings


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
    assert reads_images(model) and takes_images("auto", profile_for("http://x/v1", model))


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
    assert not reads_images(model) and not takes_images("auto", profile_for("http://x/v1", model))


def test_the_users_word_wins_and_the_demo_takes_none() -> None:
    reading = profile_for("http://x/v1", "gpt-4o")
    assert takes_images("yes", REMOTE) and not takes_images("no", reading)
    assert not takes_images("auto", profile_for("", "gpt-4o"))  # no base URL: the demo model
    assert not Settings().takes_images  # the demo model


def test_the_setting_arrives_with_settings_apply() -> None:
    page = PageSettings.from_message({"base_url": "http://x/v1", "model": "m", "vision": "yes"})
    assert page.settings.vision == "yes" and page.settings.takes_images
    assert Settings.from_message({"vision": "maybe"}).vision == "auto"
    assert Settings.from_message({}).vision == "auto"
    assert "vision='yes'" in repr(page.settings)
