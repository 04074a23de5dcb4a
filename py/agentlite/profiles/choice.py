"""Which profile a model link carries: chosen once, from the base URL and the model's name the settings
name, and nowhere else (tests/unit/engine/test_profile_only.py). A new kind of model is a new rule here
and, when it differs in more than a field, a profile module of its own beside `in_page`."""

from __future__ import annotations

from dataclasses import replace

from agentlite.profiles.demo import DEMO
from agentlite.profiles.in_page import IN_PAGE
from agentlite.profiles.profile import REMOTE, ModelProfile
from agentlite.profiles.vision import reads_images

DEMO_MODEL = "demo"
# The model in the page (docs/local-model.md): its requests go to `local:/…`, which the agent worker's JS
# hands to the page's engine instead of the network.
LOCAL_BASE = "local:"


def is_demo(base_url: str, model: str) -> bool:
    """The built-in demo model: chosen by name, and the default while no endpoint is set."""
    return model == DEMO_MODEL or not base_url


def in_page(base_url: str, model: str) -> bool:
    """The model in the page, whose requests the worker hands to the page's engine."""
    return base_url == LOCAL_BASE and not is_demo(base_url, model)


def profile_for(base_url: str, model: str) -> ModelProfile:
    """The profile of `model` at `base_url`: the demo's, the model in the page's, else a remote one; a
    family known to read images (`vision.reads_images`) says so."""
    if is_demo(base_url, model):
        return DEMO
    profile = IN_PAGE if in_page(base_url, model) else REMOTE
    return replace(profile, images=reads_images(model))
