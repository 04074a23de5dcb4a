"""The task plan: when to ask for one, how it is read, how steps are ticked."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agentlite.engine.task_plan import (
    MAX_CHECKLIST,
    Plan,
    Step,
    checklist,
    is_complex,
    read_checklist,
    read_plan,
    read_steps,
)


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


def test_a_checklist_is_read_with_its_ticks_outside_code_fences() -> None:
    text = (
        "Found two things.\n\n- [ ] Read /a.md\n* [x] Edit /b.md: fix it\n  1. [ ] Report back\n"
        "```md\n- [ ] an example, not a step\n```\n- [] not a box\n-[ ] no space\n- [ ]    \n+ [X] Last"
    )
    assert [(s.text, s.done) for s in read_checklist(text)] == [
        ("Read /a.md", False),
        ("Edit /b.md: fix it", True),
        ("Report back", False),
        ("Last", True),
    ]
    assert read_checklist("") == [] and read_checklist("```\n- [ ] x") == []
    assert len(read_checklist("- [ ] step\n" * 100)) == MAX_CHECKLIST


def test_a_plan_is_its_checklist_else_its_first_list() -> None:
    assert [s.text for s in read_plan("1. List /src\n2. Read /src/App.tsx")] == [
        "List /src",
        "Read /src/App.tsx",
    ]
    assert [s.text for s in read_plan("1. one\n2. two\n\n- [ ] the step")] == ["the step"]
    assert read_plan("no plan here") == []


def test_a_proposed_plan_round_trips_and_a_broken_record_is_no_plan() -> None:
    plan = Plan([Step("one")], turn="t1", proposed=True)
    assert Plan.from_dict(plan.to_dict()) == plan
    assert Plan.from_dict({"steps": [{"text": "one"}], "turn": "t1"}) == Plan([Step("one")])
    for broken in ({"steps": "x"}, {"steps": [1, None]}, {"steps": []}, ["steps"]):
        assert Plan.from_dict(broken) is None  # type: ignore[arg-type]


STEP_TEXT = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=60
).map(str.strip).filter(bool)  # fmt: skip
PROSE = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="-*+•[`~"), max_size=80)


@given(st.lists(st.tuples(STEP_TEXT, st.booleans()), max_size=MAX_CHECKLIST), PROSE, PROSE)
def test_a_written_checklist_reads_back_between_any_prose(
    items: list[tuple[str, bool]], before: str, after: str
) -> None:
    steps = [Step(text, done) for text, done in items]
    text = f"{before}\n{checklist(steps)}\n{after}"
    found = read_checklist(text)
    assert [(s.text, s.done) for s in found] == items
    assert read_checklist(checklist(found)) == found


@given(st.text(max_size=400))
def test_any_text_gives_single_line_steps_and_never_fails(text: str) -> None:
    for step in read_plan(text):
        assert step.text and step.text == step.text.strip() and len(step.text.splitlines()) == 1
