"""Import of a zip of a git working copy (docs/git.md): the files of its HEAD commit, as ONE recorded change.

The `.git/` folder is unpacked into a scratch folder and read with dulwich, which reads loose objects and
packs (deltas included), as a clone stores them. Only HEAD's tree is imported, not the history: the
workspace keeps its own history and the import is one change in it that can be undone. The working
copy's other files (uncommitted changes, untracked files) and the `.git/` folder itself are not imported.
Symbolic links and submodules have no file content to import; they are skipped and named in the change.

Nothing is inflated before the budget passed (`import_budget`): the tree is walked and every file counted
on the size its object's header declares (`git_sizes`), the total counting each path that names a blob;
then each blob is read once (dulwich stops at the size an object declares) and shared by every path that
names it, so a tree naming one blob 450 times holds it once in memory and stores it once.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import unicodedata
import zipfile

from dulwich.objects import Blob, Commit, Tree, parse_tree
from dulwich.repo import Repo

from agentlite.limits import IMPORT_BYTES
from agentlite.workspace import paths
from agentlite.workspace.archive import budget_of, git_root, import_plan, open_zip
from agentlite.workspace.change_plan import Plan
from agentlite.workspace.committer import Committer
from agentlite.workspace.git_sizes import DeclaredSizes
from agentlite.workspace.import_budget import Budget, case_note, read_member
from agentlite.workspace.results import Change
from agentlite.workspace.workspace_errors import FileTooLarge, InvalidArgument, InvalidPath, size_text

REGULAR = (0o100644, 0o100755, 0o100664)
TREE = 0o040000


def _unpack_git_dir(archive: zipfile.ZipFile, root: str, into: str) -> None:
    """The members under `<root>.git/`, written below `into` (names are checked: no `..`, no absolute);
    each inflated within the import's total (the zip's directory declared it: `archive.open_zip`)."""
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
            out.write(read_member(archive, info, IMPORT_BYTES, info.filename))


def _open_head(folder: str, budget: Budget) -> tuple[Repo, bytes, Commit]:
    try:
        repo = Repo(folder)
        repo.object_store.loose_object_size_limit = (
            budget.file_bytes
        )  # dulwich inflates no loose object past it
        head = repo.head()
        commit = repo[head]
    except Exception as exc:  # a damaged or empty repository: the user learns why
        raise InvalidArgument(f"the archive's .git folder has no readable HEAD commit ({exc})") from exc
    if not isinstance(commit, Commit):
        raise InvalidArgument("the archive's HEAD is not a commit")
    return repo, head, commit


def _head_listing(
    repo: Repo, root: bytes, sizes: DeclaredSizes, budget: Budget
) -> tuple[dict[str, bytes], list[str]]:
    """(path -> blob id of HEAD's regular files, the paths skipped), counted against `budget` on the sizes
    the objects declare. Trees are walked here (not `iter_tree_contents`): each is parsed once however
    often it is named, and every folder visited counts, so a tree naming one subtree 16 times, 6 levels
    deep, stops at the budget's count instead of walking 16**6 folders."""
    listing: dict[str, bytes] = {}
    skipped: list[str] = []
    trees: dict[bytes, list[tuple[str, int, bytes]]] = {}
    stack = [("", root)]
    for visits in itertools.count(1):
        if not stack:
            break
        if visits > budget.max_files:
            raise InvalidArgument(
                f"{budget.source} has more than {budget.max_files:,} files and folders; nothing was imported"
            )
        prefix, sha = stack.pop()
        for name, mode, item in trees.get(sha) or trees.setdefault(sha, _tree_items(repo, sha, prefix)):
            path = _joined(prefix, name)
            if mode == TREE:
                stack.append((path, item))
            elif mode in REGULAR:
                budget.add(path, _declared(sizes, item, path))
                listing[path] = item
            else:
                skipped.append(path)
    return listing, skipped


def _tree_items(repo: Repo, sha: bytes, where: str) -> list[tuple[str, int, bytes]]:
    tree = repo[sha]
    if not isinstance(tree, Tree):
        raise InvalidArgument(f"the archive's HEAD names {where or '/'} as a folder, but it is not one")
    items = []
    # Parsed from its stored bytes: dulwich's Tree keeps one item per name, so two at one name would vanish.
    for raw, mode, item in parse_tree(b"".join(tree.as_raw_chunks()), repo.object_format.oid_length):
        name = unicodedata.normalize("NFC", raw.decode("utf-8", "replace"))
        paths.check_name(name, f"{where}/{name}")  # once per tree, not once per path naming it
        items.append((name, mode, item))
    return items


def _joined(folder: str, name: str) -> str:
    """`folder`/`name` (both checked already), refused past the longest path the workspace takes."""
    path = f"{folder}/{name}"
    if len(path) > paths.MAX_PATH_BYTES // 4 and len(path.encode("utf-8")) > paths.MAX_PATH_BYTES:
        raise InvalidPath(
            f"the archive's HEAD has a path longer than {paths.MAX_PATH_BYTES} bytes", path=path
        )
    return path


def _declared(sizes: DeclaredSizes, sha: bytes, path: str) -> int:
    try:
        return sizes.size(sha)
    except ValueError as exc:
        raise InvalidArgument(f"{path}: {exc}; nothing was imported", path=path) from exc


def _read_blobs(repo: Repo, sizes: DeclaredSizes, listing: dict[str, bytes], limit: int) -> dict[str, bytes]:
    """path -> content, each blob read (and held) once however many paths name it: a loose one inflated
    into one buffer (`git_sizes`), a packed one by dulwich (which stops at the size its header states)."""
    contents: dict[bytes, bytes] = {}
    for path, sha in listing.items():
        if sha not in contents:
            try:
                loose = sizes.loose_blob(sha, limit)
                contents[sha] = loose if loose is not None else _packed_blob(repo, sha, path)
            except (ValueError, KeyError) as exc:
                message = (
                    f"{path} cannot be read from the archive's .git folder ({exc}); nothing was imported"
                )
                raise InvalidArgument(message, path=path) from exc
            if len(contents[sha]) > limit:
                raise FileTooLarge(f"{path} is over {size_text(limit)}; nothing was imported", path=path)
    return {path: contents[sha] for path, sha in listing.items()}


def _packed_blob(repo: Repo, sha: bytes, path: str) -> bytes:
    try:
        blob = repo[sha]
    except Exception as exc:  # dulwich refuses an object larger than it declared, or damaged
        raise ValueError(str(exc)) from exc
    if not isinstance(blob, Blob):
        raise ValueError(f"{path} is not a file")
    return blob.as_raw_string()


def _head_files(folder: str, budget: Budget) -> tuple[str, dict[str, bytes], list[str]]:
    """(HEAD's commit id, path -> content of its regular files, the paths skipped)."""
    repo, head, commit = _open_head(folder, budget)
    try:
        sizes = DeclaredSizes(repo.controldir())
        listing, skipped = _head_listing(repo, commit.tree, sizes, budget)
        files = _read_blobs(repo, sizes, listing, budget.file_bytes)
    finally:
        repo.close()
    return head.decode(), files, skipped


async def import_git(
    committer: Committer, data: bytes, replace_all: bool, turn: str | None, author: str | None
) -> Change:
    archive = open_zip(data)
    root = git_root(archive.namelist())
    if root is None:
        raise InvalidArgument("the archive holds no .git folder")
    budget = budget_of(committer, "the archive's HEAD commit")
    with tempfile.TemporaryDirectory(prefix="agentlite-git-") as scratch:
        _unpack_git_dir(archive, root, scratch)
        head, files, skipped = _head_files(scratch, budget)

    async def build(plan: Plan) -> None:
        import_plan(plan, set(), files, replace_all)
        plan.note = f"import of git HEAD {head[:12]}" + case_note(files)
        if skipped:
            plan.note += f" (skipped links and submodules: {', '.join(skipped[:10])})"

    return await committer.mutate(build, turn, author)
