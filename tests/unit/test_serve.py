"""buildsys/serve.py: the static server of `python build.py serve` and of the end-to-end tests.

The sandbox frames have an opaque origin, so every runtime file they fetch is a cross-origin request:
without `Access-Control-Allow-Origin` the shell's Python could not start."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from buildsys.serve import StaticServer


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\x00asm\x01\x00\x00\x00")
    (tmp_path / "pyodide" / "pyodide.mjs").write_text("export const x = 1;\n")
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>\n")
    return tmp_path


def fetch(url: str, origin: str = "null") -> tuple[int, dict[str, str], bytes]:
    """(status, headers with lower-case names, body)."""
    request = urllib.request.Request(url, headers={"Origin": origin})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, b""


@pytest.mark.parametrize(
    ("path", "mime", "body"),
    [
        ("/pyodide/pyodide.asm.wasm", "application/wasm", b"\x00asm\x01\x00\x00\x00"),
        ("/pyodide/pyodide.mjs", "text/javascript", b"export const x = 1;\n"),
        ("/index.html", "text/html; charset=utf-8", b"<!doctype html><title>t</title>\n"),
    ],
)
def test_files_are_served_to_any_origin_with_their_type_and_revalidated(
    site: Path, path: str, mime: str, body: bytes
) -> None:
    with StaticServer(site) as server:  # port 0: a free port
        assert server.origin.startswith("http://127.0.0.1:") and not server.origin.endswith(":0")
        status, headers, data = fetch(server.origin + path)
    assert (status, data) == (200, body)
    assert headers["access-control-allow-origin"] == "*"
    assert headers["content-type"] == mime
    assert headers["cache-control"] == "no-cache"
    assert headers["x-content-type-options"] == "nosniff"


def test_a_missing_file_is_404_and_still_readable_cross_origin(site: Path) -> None:
    with StaticServer(site) as server:
        status, headers, _ = fetch(server.origin + "/pyodide/missing.whl")
    assert status == 404 and headers["access-control-allow-origin"] == "*"


def fetch_encoded(url: str, accept: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": accept})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()


@pytest.fixture
def compressed_site(site: Path) -> Path:
    (site / "app.js").write_text("console.log('plain');\n")
    (site / "app.js.gz").write_bytes(b"GZ")
    (site / "app.js.br").write_bytes(b"BR")
    (site / "only-gz.js").write_text("plain\n")
    (site / "only-gz.js.gz").write_bytes(b"GZ")
    return site


@pytest.mark.parametrize(
    ("path", "accept", "encoding", "body"),
    [
        ("/app.js", "gzip, deflate, br, zstd", "br", b"BR"),
        ("/app.js", "gzip", "gzip", b"GZ"),
        ("/app.js", "br;q=0, gzip;q=0.5", "gzip", b"GZ"),
        ("/app.js", "identity", None, b"console.log('plain');\n"),
        ("/only-gz.js", "br, gzip", "gzip", b"GZ"),
    ],
)
def test_the_precompressed_copy_the_client_accepts_is_sent_with_its_encoding(
    compressed_site: Path, path: str, accept: str, encoding: str | None, body: bytes
) -> None:
    with StaticServer(compressed_site) as server:
        status, headers, data = fetch_encoded(server.origin + path, accept)
    assert (status, data) == (200, body)
    assert headers.get("content-encoding") == encoding
    assert headers["content-type"] == "text/javascript"
    assert headers["content-length"] == str(len(body))
    assert headers["vary"] == "Accept-Encoding"


def test_a_file_without_copies_has_no_encoding_and_no_vary(compressed_site: Path) -> None:
    with StaticServer(compressed_site) as server:
        _, headers, data = fetch_encoded(server.origin + "/pyodide/pyodide.mjs", "br, gzip")
        _, after, _ = fetch_encoded(server.origin + "/pyodide/pyodide.mjs", "br, gzip")
    assert data == b"export const x = 1;\n"
    assert "content-encoding" not in headers and "vary" not in headers and "vary" not in after


def test_the_sandbox_frame_is_sandboxed_by_its_header_too(site: Path) -> None:
    (site / "sandbox").mkdir()
    (site / "sandbox" / "frame.html").write_text("<!doctype html>\n")
    with StaticServer(site) as server:
        _, headers, _ = fetch(server.origin + "/sandbox/frame.html")
        _, index, _ = fetch(server.origin + "/index.html")
    assert headers["content-security-policy"] == "sandbox allow-scripts"
    assert "content-security-policy" not in index
