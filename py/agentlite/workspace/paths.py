"""Workspace paths: absolute POSIX paths from `/`, normalised and checked.

A path without a leading `/` is relative to the root (`src/a.ts` is `/src/a.ts`). `.` parts are dropped,
`..` steps up but never above the root. A trailing `/` is allowed (`src/`), an empty name inside a path
(`a//b`) is not. Names are NFC-normalised UTF-8 of at most 255 bytes; a whole path is at most 1,024 bytes.
A path written to (`writable`) also names no spelling of git's `.git` folder and holds no invisible or
bidi control character (`names`): existing files with such names can still be read, moved and deleted.
"""

from __future__ import annotations

import re
import unicodedata

from agentlite.workspace.names import name_problem
from agentlite.workspace.workspace_errors import InvalidArgument, InvalidPath

ROOT = "/"
MAX_NAME_BYTES = 255
MAX_PATH_BYTES = 1024
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def normalize(path: str, *, allow_root: bool = True) -> str:
    """The canonical form of `path`, or InvalidPath with a message that says what to fix."""
    if not isinstance(path, str):
        raise InvalidPath(f"a path must be text, not {type(path).__name__}")
    bad = _CONTROL.search(path)
    if bad:
        raise InvalidPath(
            f"the path {path!r} contains the control character {bad.group()!r}; use printable names",
            path=path,
        )
    if "\\" in path:
        raise InvalidPath(f"the path {path!r} contains a backslash; separate folders with '/'", path=path)
    text = unicodedata.normalize("NFC", path.strip())
    parts: list[str] = []
    pieces = text.split("/")
    for index, name in enumerate(pieces):
        if name == "":
            if 0 < index < len(pieces) - 1:
                raise InvalidPath(f"the path {path!r} has an empty name ('//')", path=path)
            continue
        if name == ".":
            continue
        if name == "..":
            if not parts:
                raise InvalidPath(f"the path {path!r} goes above the workspace root '/'", path=path)
            parts.pop()
            continue
        check_name(name, path)
        parts.append(name)
    result = "/" + "/".join(parts)
    if len(result.encode("utf-8")) > MAX_PATH_BYTES:
        raise InvalidPath(f"the path {_short(path)} is longer than {MAX_PATH_BYTES} bytes", path=path)
    if result == ROOT and not allow_root:
        raise InvalidPath("a file needs a name: '/' is the workspace root folder", path=path)
    return result


def writable(path: str, *, allow_root: bool = True) -> str:
    """`normalize`, for a path about to be written or created: InvalidPath when a name of it is one the
    workspace takes no new file under (a spelling of `.git`, a name that can pose as another)."""
    result = normalize(path, allow_root=allow_root)
    for name in result.split("/")[1:] if result != ROOT else []:
        check_new_name(name, result)
    return result


def check_new_name(name: str, path: str | None = None) -> None:
    """`check_name` and `names.name_problem` for a name about to be made."""
    check_name(name, path)
    problem = name_problem(name)
    if problem:
        where = f" (in {_short(path)})" if path is not None and path != name else ""
        raise InvalidPath(f"{problem}{where}; choose another name", path=path)


def check_name(name: str, path: str | None = None) -> None:
    """One path component: not empty, no '/', no control characters, at most 255 UTF-8 bytes."""
    where = f" in {_short(path)}" if path is not None and path != name else ""
    if not name or not name.strip():
        raise InvalidPath(f"empty or blank name{where}", path=path)
    if "/" in name:
        raise InvalidPath(f"the name {name!r} contains '/'; give a single name", path=path)
    if name in (".", ".."):
        raise InvalidPath(f"{name!r} is not a file name", path=path)
    if _CONTROL.search(name) or "\\" in name:
        raise InvalidPath(f"the name {name!r} contains a control character or a backslash", path=path)
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        raise InvalidPath(f"the name {_short(name)} is longer than {MAX_NAME_BYTES} bytes{where}", path=path)


def parent(path: str) -> str:
    """The folder holding `path` (`/` for a top-level name and for the root itself)."""
    head = path.rsplit("/", 1)[0]
    return head or ROOT


def name_of(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def join(folder: str, name: str) -> str:
    return folder.rstrip("/") + "/" + name


def ancestors(path: str) -> list[str]:
    """The folders above `path`, outermost first, without the root: `/a/b/c` -> [`/a`, `/a/b`]."""
    parts = path.strip("/").split("/")[:-1]
    return ["/" + "/".join(parts[: index + 1]) for index in range(len(parts))]


def is_within(path: str, folder: str) -> bool:
    """True when `path` is `folder` itself or lies somewhere below it."""
    if folder == ROOT:
        return True
    return path == folder or path.startswith(folder + "/")


def is_below(path: str, folder: str) -> bool:
    """True when `path` lies strictly below `folder`."""
    return path != folder and is_within(path, folder)


def rebase(path: str, old: str, new: str) -> str:
    """`path` (within `old`) moved to `new`."""
    return new + path[len(old) :] if path != old else new


def relative(path: str, folder: str) -> str:
    """`path` relative to `folder` (no leading slash); `path` must be within `folder`."""
    if folder == ROOT:
        return path.lstrip("/")
    return path[len(folder) + 1 :]


def check_label(value: str, what: str, limit: int = 200) -> str:
    """A turn id or author: printable, non-empty, at most `limit` characters."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgument(f"the {what} must be a non-empty string")
    if len(value) > limit or _CONTROL.search(value):
        raise InvalidArgument(f"the {what} {_short(value)} is too long or has control characters")
    return value


def _short(text: str | None) -> str:
    text = text or ""
    return repr(text if len(text) <= 60 else text[:57] + "...")


INSTRUCTIONS = "agents.md"  # project instructions (docs/agents-md.md), compared case-folded


def is_instructions(path: str) -> bool:
    """Whether `path` names an AGENTS.md, in any case (on a case-insensitive disk they are one file)."""
    return name_of(path.rstrip("/")).casefold() == INSTRUCTIONS


SKILL_ROOTS = ((".agents", "skills"), (".claude", "skills"))  # Agent Skills (docs/skills.md), case-folded


def is_skill(path: str) -> bool:
    """Whether `path` is inside a skill's folder (`/.agents/skills/<name>/...`, `/.claude/skills/...`),
    in any case: a skill is instructions the model follows, as an AGENTS.md is."""
    parts = tuple(p.casefold() for p in path.split("/") if p)
    return len(parts) > 2 and parts[:2] in SKILL_ROOTS
