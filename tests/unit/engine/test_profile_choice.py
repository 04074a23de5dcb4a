"""Which profile a model link carries (agentlite.profiles): the model in the page's, the demo model's, a
remote model's, a family that reads images; chosen once by the settings' room; and a turn does what its
link's profile says, whatever the base URL."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import agentlite.profiles.profile as profile_module
from agentlite.commands import PageSettings
from agentlite.engine.lean import LEAN_AGENT
from agentlite.engine.loopguard import MAX_CONTINUATIONS
from agentlite.engine.model_link import ModelLink
from agentlite.engine.prompt import AGENT
from agentlite.profiles import DEMO, IN_PAGE, LOCAL_BASE, REMOTE, profile_for
from agentlite.rooms.settings_room import SettingsRoom
from agentlite.settings import Settings
from tests.unit.engine.support import SETTINGS, Harness, cut, say, turn_options


def test_the_model_in_the_page_gets_its_own_profile() -> None:
    profile = Settings(base_url=LOCAL_BASE, model="SmolLM2-135M").profile
    assert profile == IN_PAGE and profile.name == "in-page"
    assert profile.prompt == "lean" and profile.dialect == "json" and profile.continuations == 0
    assert profile.tools == ("list_directory", "read_file", "write_file", "edit_file")
    assert profile.brief_tools and profile.only_offered_run and not profile.skills_listed
    assert profile.outline == 10 and not profile.open_file_text and not profile.plans


def test_the_demo_model_is_a_remote_one_that_takes_no_images() -> None:
    assert Settings().profile == DEMO == Settings.from_message({}).profile
    assert profile_for("", "gpt-4o") == DEMO  # no endpoint set yet: the demo model
    assert profile_for("http://x/v1", "demo") == DEMO
    assert replace(DEMO, name=REMOTE.name) == REMOTE and not DEMO.images


def test_a_network_model_keeps_the_full_behaviour() -> None:
    profile = Settings(base_url="http://127.0.0.1:11434/v1", model="llama-3.1-8b").profile
    assert profile == REMOTE and profile.prompt == "full" and profile.dialect == "native"
    assert profile.tools is None and not profile.only_offered_run and profile.skills_listed
    assert profile.outline == 60 and profile.continuations == MAX_CONTINUATIONS == 5


def test_a_family_known_to_read_images_says_so_in_its_profile_only() -> None:
    reading = profile_for("http://x/v1", "Qwen/Qwen2.5-VL-7B-Instruct")
    assert reading == replace(REMOTE, images=True)
    assert profile_for(LOCAL_BASE, "qwen2-vl-2b") == replace(IN_PAGE, images=True)
    assert Settings(base_url="http://x/v1", model="gpt-4o", vision="no").profile.images  # the user's word
    assert not Settings(base_url="http://x/v1", model="gpt-4o", vision="no").takes_images  # decides


def test_every_field_of_the_profile_is_documented_where_it_is_declared() -> None:
    text = Path(str(profile_module.__file__)).read_text(encoding="utf-8")
    for field in fields(REMOTE):
        line = next(line for line in text.splitlines() if line.strip().startswith(f"{field.name}:"))
        assert "#" in line, f"{field.name} has no comment saying what it is for"


def _closed(work: Coroutine[Any, Any, None]) -> None:
    work.close()  # the room's window reading: not wanted here


def test_the_settings_room_chooses_the_profile_once_for_the_link() -> None:
    harness = Harness([])
    harness.setup()
    engine, transport = harness.engine, harness.transport
    assert engine is not None and transport is not None
    room = SettingsRoom(engine, lambda _settings: transport, _closed)
    assert room.turn_link().profile == DEMO  # before any settings
    room.apply(PageSettings.from_message({"base_url": LOCAL_BASE, "model": "local"}))
    assert room.link is not None and room.link.profile == IN_PAGE
    room.learn_window(LOCAL_BASE, "local", 4096)  # a new link for the window keeps the profile
    assert room.link.window == 4096 and room.link.profile == IN_PAGE
    room.apply(PageSettings.from_message({"base_url": "http://x/v1", "model": "m"}))
    assert room.link.profile == REMOTE


def _run_with(profile_of: Any, settings: Settings, text: str, *responses: Any) -> Harness:
    """A turn whose link carries the profile `profile_of` makes of the settings' own."""
    harness = Harness(list(responses))

    async def scenario() -> None:
        chat = harness.setup()
        assert harness.transport is not None
        link = ModelLink.of(settings, harness.transport)
        chat.start_turn(text, replace(link, profile=profile_of(link.profile)), turn_options(chat, {}))
        assert chat.task is not None
        await chat.task

    asyncio.run(scenario())
    return harness


def test_a_turn_follows_its_links_profile_not_the_base_url() -> None:
    lean = _run_with(lambda _own: IN_PAGE, SETTINGS, "hi", cut("Cut. "), say("never"))
    body = lean.requests()[0]
    assert str(body["messages"][0]["content"]).startswith(LEAN_AGENT)  # a network URL, the lean prompt
    assert len(lean.requests()) == 1 and lean.of("stopped")[0]["reason"] == "length"
    auto = Settings(base_url=LOCAL_BASE, model="local", dialect="auto")
    full = _run_with(lambda _own: REMOTE, auto, "hi", say("Hello!"))
    body = full.requests()[0]
    assert str(body["messages"][0]["content"]).startswith(AGENT.strip()[:40])  # `local:`, the full one
    assert {tool["function"]["name"] for tool in body["tools"]} >= {"delete_file", "shell_exec"}  # native
