"""Whether a model takes images: the user's `vision` setting, and for `auto` a rule on the model's name.

`yes` and `no` are the user's word. `auto` takes the model's profile's word (`ModelProfile.images`), which
`reads_images` gives when the profile is chosen: the model's name looked up in `VISION_MARKERS`, a short
list of substrings (compared in lower case) of model families that read images over the OpenAI-compatible
`image_url` content part; `TEXT_ONLY_MARKERS` wins over it for the text-only members of those families.
A name that matches nothing, and the demo model, take no images: sending an image to a text-only model
fails the request, while not sending one only leaves the image named in the tool's text.
"""

from __future__ import annotations

from agentlite.profiles.profile import ModelProfile

VISION_CHOICES = ("auto", "yes", "no")

VISION_MARKERS = (
    "vision",  # llama-3.2-11b-vision, *-vision-preview
    "-vl",  # qwen2-vl, qwen2.5-vl, qwen3-vl, internvl-style names
    "llava",
    "bakllava",
    "minicpm-v",
    "moondream",
    "pixtral",
    "gpt-4o",
    "gpt-4.1",
    "gpt-4-turbo",
    "gpt-5",
    "o4-mini",
    "claude",
    "gemini",
    "gemma-3",
    "gemma3",
    "llama-4",
    "llama4",
    "mistral-small-3",
    "mistral-medium",
)
TEXT_ONLY_MARKERS = ("gpt-4o-audio", "gpt-4o-realtime", "-tts", "-transcribe", "gemma-3-1b", "gemma3:1b")


def reads_images(model: str) -> bool:
    """Whether `model`'s family reads images, by its name: a profile's `images` (`profiles.choice`)."""
    name = model.lower().rsplit("/", 1)[-1]
    if any(marker in name for marker in TEXT_ONLY_MARKERS):
        return False
    return any(marker in name for marker in VISION_MARKERS)


def takes_images(choice: str, profile: ModelProfile) -> bool:
    """Whether requests carry images, by the user's `choice` (`auto` | `yes` | `no`; `auto`: the
    profile's word)."""
    if choice == "yes":
        return True
    return choice != "no" and profile.images
