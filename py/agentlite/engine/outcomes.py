"""Outcomes: every path a file operation would create, change, move or delete, for the approval rules.

A rule about project instructions and skills (engine.approvals) must look at where files END UP, not
only at the paths a call names: moving `/notes` to `/.agents` plants `/notes/skills/x/SKILL.md` as a
skill. So a move or a rename counts its source, everything below it, and each of those paths at its
landing: the destination itself, or the source's name inside the destination when that is an existing
folder or is written with a trailing `/` (as `workspace.operations.move` decides). When the destination
exists both landings count (the call may still find a folder there). A delete counts what is below it;
a write, an edit, a new file or folder count their path; the folders a call creates on the way to a
path (its missing parents) count too; the editor's tool counts the open file. Any other tool that
changes files counts its resources and what is below them.

The workspace is read through the approval rules' `Peek`, at the time of the check: the dispatcher checks
once when a call arrives and again just before it runs (engine.dispatch), when the paths are exact.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentlite.workspace import paths

if TYPE_CHECKING:
    from agentlite.tools.registry import Tool

Exists = Callable[[str], Awaitable[bool]]
ReadText = Callable[[str], Awaitable[str | None]]
FilesBelow = Callable[[str], Awaitable[list[str]]]


async def _no_text(_path: str) -> str | None:
    return None


async def _no_files(_path: str) -> list[str]:
    return []


@dataclass(frozen=True)
class Peek:
    """What the rules may look at in the workspace: whether a path exists, a file's text (for the size
    of an edit), the files below a folder (a moved folder may hold an AGENTS.md)."""

    exists: Exists
    text: ReadText = _no_text
    below: FilesBelow = _no_files
    editor: str | None = None  # the file open in the editor (what `edit_current_editor_document` replaces)


def as_peek(look: Peek | Exists) -> Peek:
    return look if isinstance(look, Peek) else Peek(look)


async def touched(tool: Tool, arguments: dict[str, Any], peek: Peek) -> list[str]:
    """The paths the call would create, change, move or delete, with the landings of what it moves."""
    if tool.name == "edit_current_editor_document":
        return [peek.editor] if peek.editor else []
    named = list(tool.resources(arguments))
    if tool.name in ("create_file", "write_file", "edit_file", "create_folder"):
        return [*named, *(a for path in named for a in paths.ancestors(path))]  # missing parents are made
    source = _path(arguments.get("path" if tool.name != "move_file" else "source"))
    if tool.name == "move_file" and source:
        return await _moved(source, await _landings(source, arguments.get("destination"), peek), peek)
    if tool.name == "rename_file" and source:
        return await _moved(source, _renamed(source, arguments.get("new_name")), peek)
    found = list(named)
    for path in named:
        found += await peek.below(path)
    return found


async def _moved(source: str, landings: list[str], peek: Peek) -> list[str]:
    """The source and everything below it, where they are and at each landing."""
    below = [p for p in await peek.below(source) if paths.is_below(p, source)]
    found = [source, *below]
    for landing in landings:
        found += [*paths.ancestors(landing), *(paths.rebase(p, source, landing) for p in [source, *below])]
    return found


async def _landings(source: str, destination: Any, peek: Peek) -> list[str]:
    """Where a move of `source` to `destination` may put it."""
    target = _path(destination)
    if target is None or target == source:
        return []
    inside = paths.join(target, paths.name_of(source))
    if str(destination).rstrip().endswith("/"):
        return [inside]
    if target != paths.ROOT and await peek.exists(target):
        return [inside, target]
    return [inside] if target == paths.ROOT else [target]


def _renamed(source: str, name: Any) -> list[str]:
    """Where a rename puts `source`: the new name beside it (none when the workspace refuses the name)."""
    try:
        paths.check_new_name(name)
    except Exception:  # not a name: the rename fails, nothing lands
        return []
    target = _path(paths.join(paths.parent(source), name))
    return [target] if target and target != source else []


def _path(value: Any) -> str | None:
    """A normalised path; None when it is not one (the tool refuses it, so nothing changes)."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return paths.normalize(value)
    except Exception:  # an invalid path: the call fails before it changes anything
        return None
