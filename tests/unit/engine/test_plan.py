"""The task plan: when to ask for one, how it is read, how steps are ticked."""

from __future__ import annotations

from agentlite.engine.task_plan import Plan, is_complex, read_steps


def test_complex_requests_cross_the_threshold() -> None:
    assert is_complex("Look at the src folder and change the title in App.tsx")
    assert is_complex("list the files, then delete the empty ones")
    assert is_complex("x" * 301)
    assert not is_complex("hello")
    assert not is_complex("read App.tsx")
    assert not is_complex("What is the sum of primes below 1000?")


def test_steps_are_read_from_the_first_list() -> None:
    reply = (
        "Sure.\n\n1. List /src\n2) Read `/src/App.tsx`\n3. Change its title.\n\nStarting now.\n- not a step"
    )
    assert read_steps(reply) == ["List /src", "Read `/src/App.tsx`", "Change its title"]
    assert read_steps("- only one") == []
    assert Plan.from_reply("no list here") is None


def test_steps_tick_off_by_tool_family_and_target() -> None:
    plan = Plan.from_reply("1. List /src\n2. Read /src/App.tsx\n3. Change its title\n4. Report back")
    assert plan is not None
    assert not plan.tick_tool("read_file", {"path": "/src/index.tsx"})  # names another file
    assert plan.tick_tool("list_directory", {"path": "/src"})
    assert plan.tick_tool("read_file", {"path": "/src/App.tsx"})
    assert plan.tick_tool("edit_file", {"path": "/src/App.tsx", "originalCode": "a", "newCode": "b"})
    assert not plan.finished
    assert plan.tick_answer()
    assert plan.finished


def test_the_plan_round_trips_through_its_record() -> None:
    plan = Plan.from_reply("1. one\n2. two")
    assert plan is not None
    plan.steps[0].done = True
    again = Plan.from_dict(plan.to_dict())
    assert again is not None and again.to_dict() == plan.to_dict()
    assert Plan.from_dict(None) is None
