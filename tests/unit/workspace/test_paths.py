"""Path normalisation and every rejection, with messages fit for a model."""

from __future__ import annotations

import pytest

from agentlite.workspace import InvalidPath, paths
from agentlite.workspace.globs import glob_set


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("/", "/"),
        ("", "/"),
        ("src/a.ts", "/src/a.ts"),
        ("/src/a.ts", "/src/a.ts"),
        ("./src/./a.ts", "/src/a.ts"),
        ("src/lib/../a.ts", "/src/a.ts"),
        ("src/", "/src"),
        ("  /notes/x.md  ", "/notes/x.md"),
        ("/dir with space/файл.txt", "/dir with space/файл.txt"),
        ("/cafe\u0301", "/caf\u00e9"),  # NFC
    ],
)
def test_normalize(raw: str, expected: str) -> None:
    assert paths.normalize(raw) == expected


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ("../etc/passwd", "above the workspace root"),
        ("/a/../../b", "above the workspace root"),
        ("/a\x00b", "control character"),
        ("/a\nb", "control character"),
        ("/a\x7fb", "control character"),
        ("/a//b", "empty name"),
        ("/a\\b", "backslash"),
        ("/" + "x" * 256, "longer than 255 bytes"),
        ("/" + "é" * 128, "longer than 255 bytes"),
        ("/" + "/".join(["d" * 200] * 6), "longer than 1024 bytes"),
        ("/a/   /b", "blank name"),
    ],
)
def test_rejections_say_what_is_wrong(raw: str, fragment: str) -> None:
    with pytest.raises(InvalidPath) as caught:
        paths.normalize(raw)
    assert fragment in str(caught.value)
    assert caught.value.code == "invalid_path"


def test_root_is_not_a_file_name() -> None:
    with pytest.raises(InvalidPath, match="needs a name"):
        paths.normalize("/", allow_root=False)


def test_not_a_string() -> None:
    with pytest.raises(InvalidPath, match="must be text"):
        paths.normalize(42)  # type: ignore[arg-type]


def test_helpers() -> None:
    assert paths.parent("/a/b/c") == "/a/b"
    assert paths.parent("/a") == "/"
    assert paths.name_of("/a/b.txt") == "b.txt"
    assert paths.ancestors("/a/b/c") == ["/a", "/a/b"]
    assert paths.is_within("/a/b", "/a") and paths.is_within("/a", "/a") and not paths.is_within("/ab", "/a")
    assert paths.is_below("/a/b", "/a") and not paths.is_below("/a", "/a")
    assert paths.rebase("/a/b/c", "/a/b", "/x") == "/x/c"
    assert paths.relative("/a/b/c", "/a") == "b/c"
    assert paths.relative("/a/b", "/") == "a/b"
    with pytest.raises(InvalidPath):
        paths.check_name("a/b")
    with pytest.raises(InvalidPath):
        paths.check_name("..")


@pytest.mark.parametrize(
    ("patterns", "path", "expected"),
    [
        ("*.py", "/src/a.py", True),
        ("*.py", "/src/a.pyc", False),
        ("*.{ts,tsx}", "/web/App.tsx", True),
        ("src/**/*.ts", "/src/a/b/c.ts", True),
        ("src/**/*.ts", "/src/c.ts", True),
        ("src/*.ts", "/src/a/c.ts", False),
        ("node_modules", "/web/node_modules/x/index.js", True),
        ("docs/", "/docs/readme.md", True),
        ("test_?.py", "/test_a.py", True),
        ("[ab].txt", "/b.txt", True),
        ("[!ab].txt", "/b.txt", False),
        ("*.md, *.txt", "/x.txt", True),
        ("src/**.ts", "/src/a/b.ts", True),
        ("src/**.ts", "/src/b.ts", True),
        ("**/a/b", "/x/a/c/a/b", True),
        ("**/a/b", "/x/a/c/a/d", False),
        ("src/**", "/src/x", True),
        ("src/**", "/src", False),
        ("**", "/anything/at/all", True),
        ("a/**/b/**/c", "/a/b/x/c", True),
        ("a/**/b/**/c", "/a/c/b", False),
    ],
)
def test_globs(patterns: str, path: str, expected: bool) -> None:
    assert glob_set(patterns).matches(path, path.lstrip("/")) is expected


def test_glob_relative_to_search_folder() -> None:
    globs = glob_set(["lib/*.js"])
    assert globs.matches("/web/lib/a.js", "lib/a.js")
    assert not globs.matches("/web/lib/a.js", None)
