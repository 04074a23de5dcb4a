"""The model in the page gets the lean prompt (docs/local-model.md, "Prompt cost"): a short base prompt
and the four file tools, in the json dialect when `auto`; any other endpoint gets the full prompt."""

from __future__ import annotations

import asyncio
import json

from agentlite.engine.lean import LEAN_AGENT, brief, first_sentence
from agentlite.engine.model_link import ModelLink
from agentlite.engine.prompt import AGENT
from agentlite.engine.turn_deps import TurnOptions
from agentlite.profiles import IN_PAGE, LOCAL_BASE
from agentlite.settings import Settings
from agentlite.workspace import MemoryStorage, Workspace
from tests.unit.engine.support import SETTINGS, Harness, calls, cut, say

LOCAL = Settings(base_url=LOCAL_BASE, model="local", dialect="auto")


def system_text(body: dict) -> str:
    return str(body["messages"][0]["content"])


def test_a_turn_on_the_model_in_the_page_sends_the_lean_prompt_in_json() -> None:
    body = Harness([say("Hello!")]).run("hi", LOCAL).requests()[0]
    system = system_text(body)
    assert system.startswith(LEAN_AGENT) and "tools" not in body  # json: the protocol is in the prompt
    for name in IN_PAGE.tools or ():
        assert name in system
    assert "delete_file" not in system and "shell_exec" not in system
    assert len(system) < len(AGENT)


def test_a_turn_on_a_network_endpoint_keeps_the_full_prompt() -> None:
    body = Harness([say("Hello!")]).run("hi", SETTINGS).requests()[0]
    assert system_text(body).startswith(AGENT.strip()[:40])
    assert {tool["function"]["name"] for tool in body["tools"]} >= {"delete_file", "shell_exec"}


def test_an_answer_cut_by_the_output_limit_on_the_model_in_the_page_is_not_continued() -> None:
    h = Harness([cut("The same line again. "), say("never")]).run("long", LOCAL)
    assert len(h.requests()) == 1  # each continuation would cost minutes on a CPU
    assert h.of("stopped")[0]["reason"] == "length"
    assert h.text() == "The same line again. "


def test_the_lean_tools_are_described_by_their_first_sentence() -> None:
    defs = [{"name": "t", "description": "Read a file (1.5 MB at most). Then stop.\nMore.", "parameters": {}}]
    assert brief(defs)[0]["description"] == "Read a file (1.5 MB at most)."
    assert first_sentence("No full stop here") == "No full stop here"


def test_the_model_in_the_page_is_not_asked_for_a_plan() -> None:
    ask = (
        "Create /a.py, then edit /b.py, then run the tests, then delete /c.py and list /src and report back."
    )
    local = Harness([say("ok")]).run(ask, LOCAL).requests()[0]["messages"][-1]["content"]
    remote = Harness([say("ok")]).run(ask, SETTINGS).requests()[0]["messages"][-1]["content"]
    assert "numbered plan" in str(remote) and "numbered plan" not in str(local)


def test_a_lean_turn_names_the_open_file_lists_ten_paths_and_no_skills() -> None:
    from tests.unit.skills.test_skill_listing import skill_md

    harness = Harness([say("ok")])

    async def scenario() -> None:
        workspace = await Workspace.open(MemoryStorage())
        harness.setup(workspace=workspace)
        for n in range(30):
            await workspace.write(f"/src/f{n:02}.py", "print('x')\n" * 50)
        await workspace.write("/.agents/skills/pdf/SKILL.md", skill_md("pdf", "Fills PDF forms."))
        chat = harness.chat
        assert chat is not None and harness.transport is not None
        chat.start_turn("hi", ModelLink.of(LOCAL, harness.transport), TurnOptions(open_file="/src/f00.py"))
        assert chat.task is not None
        await chat.task

    asyncio.run(scenario())
    text = json.dumps(harness.requests()[0]["messages"])
    assert "Current document: /src/f00.py" in text and "print('x')" not in text
    assert "/src/f08.py" in text and "/src/f09.py" not in text and "... and 21 more" in text  # 31 files
    assert "<skills>" not in text


def test_a_tool_the_lean_turn_did_not_offer_is_refused_to_the_model() -> None:
    h = Harness([calls(("delete_file", {"path": "/a"}), dialect="json"), say("ok")]).run("tidy up", LOCAL)
    assert [e["status"] for e in h.of("tool_status")][-1] == "failed"
    follow_up = json.dumps(h.requests()[1]["messages"])
    assert (
        "delete_file is not offered here; use edit_file, list_directory, read_file, write_file" in follow_up
    )


def test_a_call_in_a_lean_turn_that_offers_no_tools_is_told_to_answer_in_text() -> None:
    h = Harness([calls(("read_file", {"path": "/a"}), dialect="json"), say("ok")]).run(
        "hi", LOCAL, mode="chat"
    )
    assert h.requests()[0].get("tools") is None
    follow_up = json.dumps(h.requests()[1]["messages"])
    assert "read_file is not offered here: this turn offers no tools, so answer in text" in follow_up
