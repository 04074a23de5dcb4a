"""The workspace as a git repository, checked with the real `git` CLI: export (fsck, status, log, the
files at each commit) and import of a git working copy's HEAD (loose objects and delta packs)."""

from __future__ import annotations

import io
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from agentlite.workspace import InvalidArgument, InvalidPath, Workspace
from tests.unit.workspace.helpers import aio, open_workspace

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")
GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent", "PATH": "/usr/bin:/bin"}


def git(where: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=where, capture_output=True, env=GIT_ENV, check=True)
    return done.stdout.decode()


def unzip(data: bytes, into: Path) -> Path:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(into)
    return into


async def files_of(ws: Workspace) -> dict[str, bytes]:
    return {
        e["path"]: await ws.read_bytes(e["path"])
        for e in await ws.list("/", recursive=True)
        if e["kind"] == "file"
    }


async def sample() -> Workspace:
    ws = await open_workspace()
    await ws.write("/src/a.py", "print('a')\n", turn="t1", author="agent")
    await ws.write("/src/b/c.txt", "c", turn="t1", author="agent")
    await ws.write("/README.md", "hi\n", turn="u1", author="user")
    await ws.create_folder("/empty", turn="u2")  # no file changed: no commit
    await ws.move("/src/b", "/lib", turn="t3", author="agent")
    await ws.write("/logo.png", b"\x89PNG\r\n\x1a\n\x00\xff", turn="t4", author="agent")
    await ws.delete("/src", turn="t5", author="disk")
    return ws


@aio
async def test_export_is_a_clean_repository_with_one_commit_per_turn_that_changed_files(
    tmp_path: Path,
) -> None:
    ws = await sample()
    data, count = await ws.export_git({"t1": "Make a and c\n\nTool calls: write_file /src/a.py"})
    where = unzip(data, tmp_path)
    git(where, "fsck", "--strict", "--no-dangling")
    assert git(where, "status", "--porcelain", "--untracked-files=all") == ""
    log = git(where, "log", "--reverse", "--format=%an|%at|%s").splitlines()
    assert count == 5
    assert [line.split("|")[0] for line in log] == ["agent", "user", "agent", "agent", "disk"]
    assert log[0].split("|")[2] == "Make a and c"
    times = [int(line.split("|")[1]) for line in log]
    assert times == sorted(times)
    assert (where / "empty").is_dir()
    for path, content in (await files_of(ws)).items():
        assert (where / path[1:]).read_bytes() == content
    assert git(where, "ls-tree", "-r", "--name-only", "HEAD").split() == [
        "README.md",
        "lib/c.txt",
        "logo.png",
    ]


@aio
async def test_each_commit_holds_the_files_of_its_moment(tmp_path: Path) -> None:
    ws = await sample()
    where = unzip((await ws.export_git())[0], tmp_path)
    commits = git(where, "log", "--reverse", "--format=%H").split()
    assert git(where, "show", f"{commits[0]}:src/b/c.txt") == "c"
    assert git(where, "ls-tree", "-r", "--name-only", commits[2]).split() == [
        "README.md",
        "lib/c.txt",
        "src/a.py",
    ]
    assert (
        subprocess.run(
            ["git", "show", f"{commits[4]}:src/a.py"], cwd=where, capture_output=True, env=GIT_ENV
        ).returncode
        != 0
    )
    body = git(where, "log", "-1", "--format=%B", commits[3])
    assert "/logo.png" in body and "AgentLite-Turn: t4" in body


@aio
async def test_an_empty_workspace_and_git_paths(tmp_path: Path) -> None:
    data, count = await (await open_workspace()).export_git()
    assert count == 0
    git(unzip(data, tmp_path / "empty"), "status")
    ws = await open_workspace()
    with pytest.raises(InvalidPath, match="git's own folder"):
        await ws.write("/.git/config", "not ours", turn="t1")
    # An import may hold them (the workspace keeps what it was given): every spelling of `.git` a
    # Windows or macOS checkout would open as git's own folder stays out of the export.
    spellings = ["/.git/config", "/.GIT/hooks/pre-commit", "/.git./x", "/GIT~1/y", "/b/.g\u200cit/HEAD"]
    await ws.import_files(dict.fromkeys(spellings, b"not ours"))
    await ws.write("/a.txt", "a", turn="t2")
    where = unzip((await ws.export_git())[0], tmp_path / "dotgit")
    git(where, "fsck", "--strict")
    assert git(where, "ls-tree", "-r", "--name-only", "HEAD").split() == ["a.txt"]


def zip_dir(folder: Path, prefix: str = "") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(folder.rglob("*")):
            archive.write(path, prefix + path.relative_to(folder).as_posix())
    return buffer.getvalue()


def real_repository(where: Path, packed: bool) -> Path:
    where.mkdir()
    git(where, "init", "-q", "-b", "trunk")
    for number in range(3):
        (where / "docs").mkdir(exist_ok=True)
        (where / "docs" / "notes.md").write_text("line\n" * 200 + f"edit {number}\n")
        (where / f"f{number}.txt").write_bytes(bytes(range(256)) * (number + 1))
        git(where, "add", "-A")
        git(where, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", f"c{number}")
    if packed:
        git(where, "gc", "-q", "--aggressive")
        assert list((where / ".git" / "objects" / "pack").glob("*.pack"))
    (where / "f0.txt").write_text("uncommitted")
    (where / "untracked.txt").write_text("not in HEAD")
    return where


@pytest.mark.parametrize("packed", [False, True])
@aio
async def test_import_of_a_git_working_copy_takes_its_head_tree(tmp_path: Path, packed: bool) -> None:
    source = real_repository(tmp_path / "repo", packed)
    ws = await open_workspace()
    change = await ws.import_zip(zip_dir(source, "project/"), turn="imp", author="user")
    files = await files_of(ws)
    assert sorted(files) == ["/docs/notes.md", "/f0.txt", "/f1.txt", "/f2.txt"]
    assert files["/f0.txt"] == bytes(range(256))
    assert files["/docs/notes.md"].endswith(b"edit 2\n")
    assert change.turn == "imp"
    assert len(await ws.history("/f1.txt")) == 1


@aio
async def test_export_then_import_gives_the_same_files(tmp_path: Path) -> None:
    ws = await sample()
    again = await open_workspace()
    await again.import_zip((await ws.export_git())[0])
    assert await files_of(again) == await files_of(ws)


@aio
async def test_a_damaged_or_unsafe_git_folder_is_refused() -> None:
    ws = await open_workspace()
    no_objects = {".git/HEAD": b"ref: refs/heads/main\n", ".git/refs/heads/main": b"0" * 40 + b"\n"}
    unsafe = {".git/HEAD": b"ref: refs/heads/main\n", ".git/../../evil": b"x"}
    for members in (no_objects, unsafe):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, data in members.items():
                archive.writestr(name, data)
        with pytest.raises(InvalidArgument):
            await ws.import_zip(buffer.getvalue())
    assert await ws.list("/") == []
