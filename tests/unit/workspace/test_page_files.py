"""vfs.pageFiles: the preview's copy of the workspace, sending only what the page does not have yet."""

from __future__ import annotations

import base64

from agentlite.workspace.page_files import page_files
from tests.unit.tools.conftest import workspace_with
from tests.unit.workspace.helpers import aio

PNG = b"\x89PNG\r\n\x1a\n\x00\x01"


@aio
async def test_every_file_comes_once_then_only_what_changed() -> None:
    workspace = await workspace_with({"index.html": "<p>hi</p>", "img/a.png": PNG, "empty/": ""})
    first = await page_files(workspace)
    by_path = {item["path"]: item for item in first["files"]}
    assert set(by_path) == {"/index.html", "/img/a.png"}
    assert by_path["/index.html"]["text"] == "<p>hi</p>"
    assert base64.b64decode(by_path["/img/a.png"]["base64"]) == PNG
    known = {path: item["sha256"] for path, item in by_path.items()}

    await workspace.write("/index.html", "<p>changed</p>", turn="t2", author="user")
    second = await page_files(workspace, known)
    assert [item["path"] for item in second["files"]] == ["/index.html"]
    assert second["files"][0]["text"] == "<p>changed</p>"
    assert second["kept"] == ["/img/a.png"]
    assert second["skipped"] == []
