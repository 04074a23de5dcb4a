"""`ModelProfile`: what differs per kind of model, one field per capability. The defaults are a model
on the network (`REMOTE`); a kind of model that needs less or other sets only what differs
(`in_page.IN_PAGE`, `demo.DEMO`). The engine reads a turn's profile from its model link and never asks
which model it talks to."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class ModelProfile:
    name: str = "remote"  # for logs and tests; nothing compares it
    prompt: Literal["full", "lean"] = "full"  # the system prompt: engine/prompt.py's, or engine/lean.py's
    tools: tuple[str, ...] | None = None  # the tools an Agent turn offers; None: all (remote ones fitted)
    brief_tools: bool = False  # each offered tool described by the first sentence of its description only
    only_offered_run: bool = False  # a call to a tool the request did not offer fails instead of running
    outline: int = 60  # workspace paths a user message's context lists
    open_file_text: bool = True  # the open file's text goes with the message (else its name only)
    skills_listed: bool = True  # the skills' listing goes with a request that offers tools
    plans: bool = True  # a long ask gets the numbered-plan instruction
    continuations: int = 5  # answers cut by the output limit continued in a row, before it stops
    dialect: Literal["native", "json"] = "native"  # where `auto` starts, before it learns the endpoint
    images: bool = False  # reads the images of results when the user's `vision` setting is `auto`


REMOTE = ModelProfile()
