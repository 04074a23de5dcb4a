"""load_skill: the body of an Agent Skill, or one of its files (docs/skills.md).

The model sees only the names and descriptions of the workspace's valid skills (`skills.skill_listing`);
this tool gives the rest when a task calls for one: the SKILL.md without its frontmatter and the list of
the skill's other files, or with `file` one of those files. A `file` stays inside its skill's folder:
absolute paths, `..` and anything that leaves the folder are tool errors, so a skill never becomes a way
to read past it. The skill's scripts run with shell_exec like any workspace file.
"""

from __future__ import annotations

import re

from pydantic import Field

from agentlite.skills.skill_discovery import Found, find_skills
from agentlite.skills.skill_frontmatter import parse
from agentlite.skills.skill_rules import Skill
from agentlite.tools.common import ToolArgs, cap_text, prose
from agentlite.tools.context import ToolContext
from agentlite.tools.registry import Risk, Tool
from agentlite.tools.result import ToolErrorType, ToolResult
from agentlite.workspace import Workspace, WorkspaceError, paths

LISTED_FILES = 100  # of a skill's other files
NAMES_SHOWN = 50  # in the error for an unknown name


class LoadSkillArgs(ToolArgs):
    name: str = Field(min_length=1, max_length=200, description="The skill's name, as listed.")
    file: str = Field(
        default="",
        max_length=1000,
        description="A file of the skill, relative to its folder (e.g. 'references/forms.md'); "
        "omit it for the skill's instructions.",
    )


async def load_skill(context: ToolContext, args: LoadSkillArgs) -> ToolResult:
    found = await find_skills(context.workspace)
    skill = found.named(args.name.strip())
    if skill is None:
        return _unknown(args.name, found)
    if not args.file.strip():
        return await _body(context, skill)
    return await _file(context, skill, args.file)


def _unknown(name: str, found: Found) -> ToolResult:
    names = [s.name for s in found.valid]
    invalid = next((s for s in found.skills if s.name == name and not s.valid), None)
    why = f"the skill {name!r} is not valid: {invalid.reason}" if invalid else f"there is no skill {name!r}"
    more = len(names) - NAMES_SHOWN
    listed = ", ".join(names[:NAMES_SHOWN]) + (f" and {more} more" if more > 0 else "")
    known = f"The skills are: {listed}." if names else "The workspace has no valid skills."
    return ToolResult.failure(ToolErrorType.NOT_FOUND, f"{why}. {known}", {"skills": names})


async def _body(context: ToolContext, skill: Skill) -> ToolResult:
    text = await context.workspace.read_text(skill.path) or ""
    body = parse(text).body.strip()
    others = await _other_files(context.workspace, skill)
    listing = "\n".join(f"- {f}" for f in others[:LISTED_FILES]) or "(none)"
    if len(others) > LISTED_FILES:
        listing += f"\n- ... and {len(others) - LISTED_FILES} more"
    message = (
        f"Skill {skill.name} ({skill.path}). Follow these instructions for the task.\n\n"
        f"{cap_text(body, context.settings.read_chars)}\n\n"
        f"Files of the skill (load_skill(name, file=...) reads one; run a script with shell_exec, e.g. "
        f"`python {skill.folder}/scripts/x.py`):\n{listing}"
    )
    return ToolResult.success(message, {"skill": skill.name, "folder": skill.folder, "files": len(others)})


async def _other_files(workspace: Workspace, skill: Skill) -> list[str]:
    start = len(skill.folder) + 1
    entries = await workspace.list(skill.folder, recursive=True)
    return [e["path"][start:] for e in entries if e.get("kind") == "file" and e["path"] != skill.path]


async def _file(context: ToolContext, skill: Skill, file: str) -> ToolResult:
    path = _inside(skill, file)
    if path is None:
        return ToolResult.failure(
            ToolErrorType.INVALID_ARGUMENT,
            f"the file {file[:200]!r} is not inside the skill's folder {skill.folder}/: give a path relative "
            "to it, such as 'references/guide.md' (no '..', no leading '/')",
        )
    stat = await context.workspace.stat(path)
    if stat is None or stat.get("kind") != "file":
        others = await _other_files(context.workspace, skill)
        shown = ", ".join(others[:20]) or "(none)"
        return ToolResult.failure(
            ToolErrorType.NOT_FOUND, f"the skill {skill.name} has no file {file!r}; its files: {shown}"
        )
    if stat.get("binary"):
        return ToolResult.failure(
            ToolErrorType.INVALID_ARGUMENT,
            f"{path} is a binary file: use it from a script run with shell_exec",
        )
    text = await context.workspace.read_text(path) or ""
    return ToolResult.success(
        f"{path}:\n{cap_text(text, context.settings.read_chars)}", {"skill": skill.name, "path": path}
    )


_ESCAPING = re.compile(r"(^|/)\.\.(/|$)")


def _inside(skill: Skill, file: str) -> str | None:
    """The workspace path of `file` in the skill's folder, or None when it would leave the folder."""
    file = file.strip()
    if file.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", file) or _ESCAPING.search(file):
        return None
    try:
        path = paths.normalize(f"{skill.folder}/{file}", allow_root=False)
    except WorkspaceError:
        return None
    return path if path.startswith(skill.folder + "/") else None


LOAD_SKILL = prose(
    """Load an Agent Skill of this workspace by name: returns its instructions (SKILL.md without the
frontmatter) and the list of its other files. With `file`, returns that file of the skill instead
(relative to the skill's folder, e.g. 'references/guide.md'). Call it when a task matches a listed
skill's description, before doing the task. The skill's scripts (its scripts/ folder: Python, JavaScript,
shell) run with shell_exec, from the workspace root: `python /.agents/skills/<name>/scripts/x.py`."""
)

TOOL = Tool(
    "load_skill",
    LOAD_SKILL,
    LoadSkillArgs,
    load_skill,
    Risk.READ,
)
