"""Import of a zip of a git working copy (docs/git.md): the files of its HEAD commit, as ONE recorded change.

The `.git/` folder is unpacked into a scratch folder and read with dulwich, which reads loose objects and
packs (deltas included), as a clone stores them. Only HEAD's tree is imported, not the history: the
workspace keeps its own history and the import is one change in it that can be undone. The working
copy's other files (uncommitted changes, untracked files) and the `.git/` folder itself are not imported.
Symbolic links and submodules have no file content to import; they are skipped and named in the change.
"""

from __future__ import annotations

import os
import tempfile
import zipfile

from dulwich.object_store import iter_tree_contents
from dulwich.objects import Commit
from dulwich.repo import Repo

from agentlite.workspace import paths
from agentlite.workspace.archive import git_root, import_plan, open_zip
from agentlite.workspace.change_plan import Plan
from agentlite.workspace.committer import Committer
from agentlite.workspace.results import Change
from agentlite.workspace.workspace_errors import InvalidArgument

REGULAR = (0o100644, 0o100755, 0o100664)


def _unpack_git_dir(archive: zipfile.ZipFile, root: str, into: str) -> None:
    """The members under `<root>.git/`, written below `into` (names are checked: no `..`, no absolute)."""
    prefix = root + ".git/"
    for info in archive.infolist():
        if not info.filename.startswith(prefix) or info.is_dir():
            continue
        parts = info.filename[len(root) :].split("/")
        if any(part in ("", ".", "..") for part in parts) or "\\" in info.filename:
            raise InvalidArgument(f"the archive has an unsafe name {info.filename!r} in its .git folder")
        target = os.path.join(into, *parts)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as out:
            out.write(archive.read(info))


def _head_files(folder: str) -> tuple[str, dict[str, bytes], list[str]]:
    """(HEAD's commit id, path -> content of its regular files, the paths skipped)."""
    try:
        repo = Repo(folder)
        head = repo.head()
        commit = repo[head]
    except Exception as exc:  # a damaged or empty repository: the user learns why
        raise InvalidArgument(f"the archive's .git folder has no readable HEAD commit ({exc})") from exc
    if not isinstance(commit, Commit):
        raise InvalidArgument("the archive's HEAD is not a commit")
    files: dict[str, bytes] = {}
    skipped: list[str] = []
    for entry in iter_tree_contents(repo.object_store, commit.tree):
        path = "/" + entry.path.decode("utf-8", "replace")
        if entry.mode in REGULAR:
            files[path] = repo[entry.sha].as_raw_string()
        else:
            skipped.append(path)
    repo.close()
    return head.decode(), files, skipped


async def import_git(
    committer: Committer, data: bytes, replace_all: bool, turn: str | None, author: str | None
) -> Change:
    archive = open_zip(data)
    root = git_root(archive.namelist())
    if root is None:
        raise InvalidArgument("the archive holds no .git folder")
    with tempfile.TemporaryDirectory(prefix="agentlite-git-") as scratch:
        _unpack_git_dir(archive, root, scratch)
        head, found, skipped = _head_files(scratch)
    files: dict[str, bytes] = {}
    for name, content in found.items():
        path = paths.normalize(name)
        committer.check_size(path, len(content))
        files[path] = content

    async def build(plan: Plan) -> None:
        import_plan(plan, set(), files, replace_all)
        plan.note = f"import of git HEAD {head[:12]}"
        if skipped:
            plan.note += f" (skipped links and submodules: {', '.join(skipped[:10])})"

    return await committer.mutate(build, turn, author)
