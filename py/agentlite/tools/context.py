"""What a tool receives besides its arguments: the workspace, the sandbox, the turn, and the engine's hooks.

The engine builds one `ToolContext` per turn (and may update `editor_path` when the user opens another
file). Tools never reach outside it: no globals, so tests give each tool a fresh workspace and a fake
sandbox.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from agentlite.limits import EVAL_TIMEOUT_S
from agentlite.workspace import Workspace

if TYPE_CHECKING:
    from agentlite.problems.problem_watch import ProblemWatch

SHELL_AUTHOR = "shell"


class SandboxRunner(Protocol):
    """What tools need of `agentlite.page_jobs.PageJobClient` (its fake: `page_jobs.ScriptedSandbox`).

    `kind` is `js` (payload `{code}`, result `{value, type, logs, error}`), `shell` (payload
    `{command, files, cwd, dirs}`, result `{stdout, stderr, exit_code, changed, deleted, created_dirs,
    deleted_dirs}`), `preview` (the Preview panel's report) or `pdf` (the page's PDF reader's text).
    A run that cannot finish raises `agentlite.page_jobs.SandboxError`, whose `type` says why.
    """

    async def run(self, kind: str, payload: dict[str, Any], timeout_ms: int) -> dict[str, Any]: ...


@dataclass(frozen=True)
class ConversationSummary:
    """A structured summary of the conversation: the goal, what is done, what is left.

    `text` is the summary as the model wrote it; the sections are parsed from it (empty when absent).
    """

    text: str
    goal: str = ""
    done: str = ""
    todo: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"text": self.text, "goal": self.goal, "done": self.done, "todo": self.todo}


SummaryHook = Callable[[ConversationSummary], Awaitable[Any] | Any]


@dataclass(frozen=True)
class ToolSettings:
    """Limits that keep tool results useful to the model and bounded in size."""

    eval_timeout_ms: int = EVAL_TIMEOUT_S.default * 1000  # browser_js_eval
    shell_timeout_ms: int = 30_000  # shell_exec
    output_chars: int = 16_000  # per output stream (stdout, stderr, console, value) sent to the model
    read_chars: int = 60_000  # one read_file page; fewer lines are shown when they are longer
    list_entries: int = 1_000  # list_directory
    shell_files_bytes: int = 4 * 1024 * 1024  # text files handed to shell_exec, all together
    shell_file_bytes: int = 1024 * 1024  # one file handed to shell_exec
    takes_images: bool = False  # the model reads the images of results (preview_page says so when not)


@dataclass
class ToolContext:
    """Everything a tool may use. Mutable on purpose: the engine updates `editor_path` as the user works.

    Changes are recorded under `turn_id` by `author`; shell_exec records its file changes under the same
    turn by `shell`, so undoing the turn undoes them together with the rest of the reply.
    """

    workspace: Workspace
    turn_id: str
    author: str = "agent"
    sandbox: SandboxRunner | None = None
    save_summary: SummaryHook | None = None  # the engine's chat memory keeps the summary
    editor_path: str | None = None  # the file open in the editor, if any
    settings: ToolSettings = field(default_factory=ToolSettings)
    pdf_texts: dict[str, str] = field(default_factory=dict)  # read_file's PDF texts of this turn, by sha256
    problems: ProblemWatch | None = None  # the page's checkers, where there is a page (docs/problems.md)
    stage: str | None = None  # the chat whose stage `workspace` is (docs/stage.md); None: writes land at once
