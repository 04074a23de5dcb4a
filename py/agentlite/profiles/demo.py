"""The built-in demo model (`agentlite.demo`): a scripted model that plays a network one, native tool
calls and all, so its profile is a remote model's; it takes no images (it would not read them)."""

from __future__ import annotations

from dataclasses import replace

from agentlite.profiles.profile import REMOTE

DEMO = replace(REMOTE, name="demo")
