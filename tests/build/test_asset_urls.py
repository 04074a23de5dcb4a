"""buildsys/build/asset_urls.py: index.html names its bundle and style sheet by their content, so the server
may send them as immutable, and every build stamps the current content again."""

from __future__ import annotations

import hashlib
import urllib.request
from pathlib import Path

from buildsys.build import asset_urls
from buildsys.build.serve import IMMUTABLE, StaticServer, cache_control

PAGE = """<!doctype html>
<link rel="stylesheet" href="styles.css">
<script type="module" src="app.js"></script>
<a href="app.json">not a versioned file</a>
<script src="other.js"></script>
"""


APP = b"let a = 1;\n"
STYLES = b"body {}\n"
NEW_APP = b"let a = 2;\n"


def make_dist(tmp_path: Path, app: bytes = APP) -> Path:
    (tmp_path / "index.html").write_text(PAGE)
    (tmp_path / "app.js").write_bytes(app)
    (tmp_path / "styles.css").write_bytes(STYLES)
    return tmp_path


def short(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def test_the_page_names_its_bundle_and_styles_by_content_and_nothing_else(tmp_path: Path) -> None:
    dist = make_dist(tmp_path)
    versions = asset_urls.write(dist)
    page = (dist / "index.html").read_text()
    assert versions == {"app.js": short(APP), "styles.css": short(STYLES)}
    assert f'src="app.js?v={short(APP)}"' in page
    assert f'href="styles.css?v={short(STYLES)}"' in page
    assert 'href="app.json"' in page and 'src="other.js"' in page


def test_a_rebuild_stamps_the_new_content_and_an_unchanged_one_changes_nothing(tmp_path: Path) -> None:
    dist = make_dist(tmp_path)
    asset_urls.write(dist)
    first = (dist / "index.html").read_text()
    asset_urls.write(dist)
    assert (dist / "index.html").read_text() == first
    (dist / "app.js").write_bytes(NEW_APP)
    asset_urls.write(dist)
    page = (dist / "index.html").read_text()
    assert page.count("app.js?v=") == 1 and f"app.js?v={short(NEW_APP)}" in page


def test_a_missing_file_keeps_its_reference(tmp_path: Path) -> None:
    dist = make_dist(tmp_path)
    (dist / "styles.css").unlink()
    asset_urls.write(dist)
    assert 'href="styles.css"' in (dist / "index.html").read_text()


def test_the_stamped_urls_are_the_ones_the_server_sends_as_immutable(tmp_path: Path) -> None:
    dist = make_dist(tmp_path)
    versions = asset_urls.write(dist)
    for name, version in versions.items():
        assert (
            cache_control(f"v={version}", hashlib.sha256((dist / name).read_bytes()).hexdigest()) == IMMUTABLE
        )
    with StaticServer(dist) as server:
        url = f"{server.origin}/app.js?v={versions['app.js']}"
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.headers["Cache-Control"] == IMMUTABLE
