"""conversation_summary: sections parsed, handed to the engine's hook (sync or async), errors."""

from __future__ import annotations

from agentlite.tools.context import ConversationSummary
from agentlite.tools.result import ToolErrorType
from agentlite.tools.summary import parse_summary
from tests.unit.tools.conftest import call, context_with

SUMMARY = """Goal: rename the title in /src/App.tsx to "New".
Done:
- read /src/App.tsx (lines 1-40)
- changed <h1>Old</h1> to <h1>New</h1>
To do: run the tests"""


def test_plain_sections() -> None:
    summary = parse_summary(SUMMARY)
    assert summary.goal == 'rename the title in /src/App.tsx to "New".'
    assert summary.done == "- read /src/App.tsx (lines 1-40)\n- changed <h1>Old</h1> to <h1>New</h1>"
    assert summary.todo == "run the tests"
    assert summary.text == SUMMARY


def test_markdown_headings_and_bold_labels() -> None:
    summary = parse_summary("## Goal\nship it\n\n## Completed\n- a\n\n**Next steps:** b, c\n")
    assert (summary.goal, summary.done, summary.todo) == ("ship it", "- a", "b, c")


def test_no_sections_keeps_the_text() -> None:
    summary = parse_summary("we talked about things: many")
    assert summary == ConversationSummary("we talked about things: many")


async def test_stored_through_a_sync_hook() -> None:
    stored: list[ConversationSummary] = []
    context = await context_with(save_summary=stored.append)
    result = await call(context, "conversation_summary", summary=SUMMARY)
    assert result.ok and result.message.startswith("Summary stored")
    assert result.data == {"sections": ["goal", "done", "todo"]}
    assert stored[0].todo == "run the tests"


async def test_stored_through_an_async_hook_and_missing_sections_are_named() -> None:
    stored: list[ConversationSummary] = []

    async def save(summary: ConversationSummary) -> None:
        stored.append(summary)

    context = await context_with(save_summary=save)
    result = await call(context, "conversation_summary", summary="Goal: x")
    assert stored[0].goal == "x"
    assert "It has no Done / To do section" in result.message


async def test_no_hook_and_empty_summary() -> None:
    result = await call(await context_with(), "conversation_summary", summary="Goal: x")
    assert result.error_type == ToolErrorType.INTERNAL
    result = await call(await context_with(save_summary=print), "conversation_summary", summary="")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and "`summary`" in result.message
