"""What differs per kind of model, in one frozen `ModelProfile` that a model link carries: the system
prompt, the tools offered and how they are described, the context a message gets, the skills' listing,
the continuation budget, where `auto` starts, whether only offered tools run, whether it reads images.

`choice.profile_for` picks one from the settings' base URL and model name (the settings' room, once per
link); nothing else tells models apart. One module per kind of model: `profile` (the class, and `REMOTE`,
a model on the network), `in_page` (the model in the page), `demo` (the built-in demo model), `vision`
(the families that read images, by name).
"""

from agentlite.profiles.choice import DEMO_MODEL, LOCAL_BASE, in_page, is_demo, profile_for
from agentlite.profiles.demo import DEMO
from agentlite.profiles.in_page import IN_PAGE
from agentlite.profiles.profile import REMOTE, ModelProfile

__all__ = [
    "DEMO",
    "DEMO_MODEL",
    "IN_PAGE",
    "LOCAL_BASE",
    "REMOTE",
    "ModelProfile",
    "in_page",
    "is_demo",
    "profile_for",
]
