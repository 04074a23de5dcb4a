"""Search: literal and regex, case, globs, context, the cap, bad patterns, output format."""

from __future__ import annotations

import pytest

from agentlite.workspace import BadPattern, InvalidArgument, NotFound, Workspace
from tests.unit.workspace.helpers import aio, open_workspace


async def sample() -> Workspace:
    ws = await open_workspace()
    await ws.write("/src/app.py", "import os\n\ndef main():\n    print('Hello')\n    return main_loop()\n")
    await ws.write("/src/util.py", "def helper():\n    return 'hello'\n")
    await ws.write("/web/app.ts", "export function main() {}\n")
    await ws.write("/web/node_modules/lib/index.js", "function main() {}\n")
    await ws.write("/docs/readme.md", "Call main() to start.\n")
    await ws.write("/logo.png", b"\x89PNG\r\n\x1a\nmain")
    return ws


@aio
async def test_literal_search_reports_path_line_text() -> None:
    ws = await sample()
    result = await ws.search("main(")
    assert [h.format() for h in result.hits] == [
        "/docs/readme.md:1: Call main() to start.",
        "/src/app.py:3: def main():",
        "/web/app.ts:1: export function main() {}",
        "/web/node_modules/lib/index.js:1: function main() {}",
    ]
    assert result.files_searched == 5 and result.files_matched == 4 and not result.truncated


@aio
async def test_case_options() -> None:
    ws = await sample()
    assert len((await ws.search("hello")).hits) == 1
    assert len((await ws.search("hello", case_sensitive=False)).hits) == 2
    assert len((await ws.search("hello", case_sensitive=None)).hits) == 2  # smart case
    assert len((await ws.search("Hello", case_sensitive=None)).hits) == 1


@aio
async def test_regex_and_whole_word() -> None:
    ws = await sample()
    result = await ws.search(r"^def \w+\(", regex=True)
    assert [(h.path, h.line) for h in result.hits] == [("/src/app.py", 3), ("/src/util.py", 1)]
    assert len((await ws.search("main", whole_word=True, include="*.py")).hits) == 1
    with pytest.raises(BadPattern, match="invalid"):
        await ws.search("(unclosed", regex=True)
    assert (await ws.search("(unclosed")).hits == []  # literal: fine


@aio
async def test_globs_and_folder() -> None:
    ws = await sample()
    only_py = await ws.search("main", include="*.py")
    assert {h.path for h in only_py.hits} == {"/src/app.py"}
    no_deps = await ws.search("main", exclude=["node_modules", "*.md"])
    assert {h.path for h in no_deps.hits} == {"/src/app.py", "/web/app.ts"}
    in_web = await ws.search("main", path="web", include="node_modules/lib/*.js")
    assert {h.path for h in in_web.hits} == {"/web/node_modules/lib/index.js"}
    one_file = await ws.search("return", path="/src/util.py")
    assert [h.line for h in one_file.hits] == [2]
    with pytest.raises(NotFound):
        await ws.search("x", path="/nope")


@aio
async def test_context_lines_and_format() -> None:
    ws = await sample()
    result = await ws.search("print", context=1)
    hit = result.hits[0]
    assert hit.before == ((3, "def main():"),) and hit.after == ((5, "    return main_loop()"),)
    assert result.format().splitlines() == [
        "/src/app.py-3- def main():",
        "/src/app.py:4:     print('Hello')",
        "/src/app.py-5-     return main_loop()",
    ]
    assert "No matches" in (await ws.search("zzz")).format()
    with pytest.raises(InvalidArgument):
        await ws.search("x", context=99)
    with pytest.raises(InvalidArgument):
        await ws.search("")


@aio
async def test_result_cap_and_one_hit_per_line() -> None:
    ws = await open_workspace()
    await ws.write("/many.txt", "x x x\n" * 50)
    capped = await ws.search("x", max_results=10)
    assert len(capped.hits) == 10 and capped.truncated
    assert "stopped after 10 matches" in capped.format()
    full = await ws.search("x", max_results=50)
    assert len(full.hits) == 50 and not full.truncated
    assert [h.line for h in full.hits[:3]] == [1, 2, 3]


@aio
async def test_search_sees_changes_and_long_lines_are_cut() -> None:
    ws = await open_workspace()
    await ws.write("/a.txt", "old")
    await ws.write("/a.txt", "new " + "y" * 1000 + " needle " + "z" * 1000)
    assert (await ws.search("old")).hits == []
    hit = (await ws.search("needle")).hits[0]
    assert "needle" in hit.text and len(hit.text) < 500
    await ws.move("/a.txt", "/b.txt")
    assert (await ws.search("needle")).hits[0].path == "/b.txt"
