"""AGENTS.md, the project-instructions convention (docs/agents-md.md): the second prompt layer.

`/AGENTS.md` goes into every request of every chat while it exists, read again before each request, so an
edit applies from the next one. AGENTS.md files in folders follow the convention: each applies to the
files of its folder and below, and the nearest one to a file wins where they disagree. All of them are
sent, each with the folder it governs, root first then deeper ones, so the model can apply the nearest
one to whatever file it works on (in one request it may work on several).

The text is ONE user message right after the system prompt, never inside it: the system prompt stays
the same for every request of a chat, and this message changes only when an AGENTS.md file does, so a
provider's prompt cache keeps the prefix. Plain text, no Markdown, as the other prompt layers. What is
over `MAX_CHARS` in all is cut, with a note saying so.
"""

from __future__ import annotations

from typing import Any

from agentlite.tools.registry import ToolRegistry
from agentlite.workspace import Workspace

NAME = "AGENTS.md"
MAX_CHARS = 24_000

HEAD = (
    "Project instructions from the workspace's AGENTS.md files. Follow them. Each file applies to the files "
    "in its folder and below; where two disagree, the one nearest to the file being worked on wins. The "
    "user's own requests in this chat come first."
)


def instruction_paths(entries: list[dict[str, Any]]) -> list[str]:
    """The AGENTS.md files among workspace entries, the root's first, then by depth and path."""
    found = [e["path"] for e in entries if e.get("kind") == "file" and e["path"].rsplit("/", 1)[-1] == NAME]
    return sorted(found, key=lambda p: (p.count("/"), p))


def render(files: list[tuple[str, str]]) -> str:
    """The message text for (path, text) pairs; "" when there are none."""
    if not files:
        return ""
    parts, left = [HEAD], MAX_CHARS
    for path, text in files:
        folder = path[: -len(NAME)]
        scope = "the whole workspace" if folder == "/" else f"files under {folder}"
        body = text.strip()
        if len(body) > left:
            body = (
                body[:left]
                + f"\n[the rest of {path} was left out: the instructions are over {MAX_CHARS:,} characters]"
            )
        left = max(0, left - len(body))
        parts.append(f"From {path} (applies to {scope}):\n{body}")
    return "\n\n".join(parts)


async def read_instructions(workspace: Workspace | None) -> str:
    """The message text from the workspace as it is now ("" without AGENTS.md files or a workspace)."""
    if workspace is None:
        return ""
    files = []
    for path in instruction_paths(await workspace.list("/", recursive=True)):
        data = await workspace.read_bytes(path)
        if data is not None:
            files.append((path, data.decode("utf-8", "replace")))
    return render(files)


CHANGED = (
    "The project instructions changed in this turn ({files}). They go into every request of every chat "
    "from now on: check that they say what you want."
)


async def instructions_changed(
    workspace: Workspace | None, sent: str, calls: list[Any], registry: ToolRegistry
) -> str | None:
    """The chat's notice when a call of this round that changes files left the instructions in the
    workspace different from those `sent` with the round's request (it created, changed, moved or
    deleted an AGENTS.md), else None. Rounds of reads only are not looked at again."""
    changed = any(c.status == "completed" and _changes_files(registry, c.name) for c in calls)
    if workspace is None or not changed:
        return None
    now = await read_instructions(workspace)
    if now == sent:
        return None
    files = instruction_paths(await workspace.list("/", recursive=True))
    return CHANGED.format(files=", ".join(files) if files else f"no {NAME} is left")


def _changes_files(registry: ToolRegistry, name: str) -> bool:
    tool = registry.get(name)
    return tool is not None and tool.kind != "read"


def instructions_message(text: str) -> list[dict[str, Any]]:
    """The request messages that carry `text` (none when it is empty)."""
    return (
        [{"role": "user", "content": f"<project-instructions>\n{text}\n</project-instructions>"}]
        if text
        else []
    )
