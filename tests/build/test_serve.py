"""buildsys/build/serve.py: the static server of `python build.py serve` and of the end-to-end tests.

The sandbox frames have an opaque origin, so every runtime file they fetch is a cross-origin request:
without `Access-Control-Allow-Origin` the shell's Python could not start."""

from __future__ import annotations

import hashlib
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from buildsys.build.serve import IMMUTABLE, REVALIDATE, StaticServer, cache_control
from buildsys.common import WEB


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


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


PLAIN_JS = b"console.log('plain');\n"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (f"v={sha256_hex(PLAIN_JS)[:16]}", IMMUTABLE),
        (f"v={sha256_hex(PLAIN_JS)}", IMMUTABLE),
        (f"v={sha256_hex(PLAIN_JS)[:16].upper()}", IMMUTABLE),
        (f"base_url=x&v={sha256_hex(PLAIN_JS)[:16]}", IMMUTABLE),
        (f"v={sha256_hex(PLAIN_JS)[:15]}", REVALIDATE),  # too short to name the content
        (f"v={sha256_hex(b'another build')[:16]}", REVALIDATE),  # a stale URL
        (f"v={sha256_hex(PLAIN_JS)[:16]}&v={sha256_hex(PLAIN_JS)[:16]}", REVALIDATE),
        ("v=", REVALIDATE),
        ("", REVALIDATE),
        ("build=5147111936ec576d", REVALIDATE),
    ],
)
def test_only_a_url_that_names_the_files_content_is_immutable(query: str, expected: str) -> None:
    assert cache_control(query, sha256_hex(PLAIN_JS)) == expected
    assert cache_control(query, None) == REVALIDATE


def fetch_with(url: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:  # 304 comes as an "error" from urllib
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def test_the_server_sends_immutable_for_the_current_content_and_no_cache_for_a_stale_url(
    compressed_site: Path,
) -> None:
    version = sha256_hex(PLAIN_JS)[:16]
    with StaticServer(compressed_site) as server:
        _, named, _ = fetch_encoded(f"{server.origin}/app.js?v={version}", "br")
        _, stale, _ = fetch_encoded(f"{server.origin}/app.js?v={sha256_hex(b'old')[:16]}", "br")
        _, bare, _ = fetch_encoded(f"{server.origin}/app.js", "br")
    assert named["cache-control"] == "public, max-age=31536000, immutable"
    assert stale["cache-control"] == bare["cache-control"] == "no-cache"


def test_a_revalidated_file_answers_304_to_its_etag_and_to_its_date(compressed_site: Path) -> None:
    with StaticServer(compressed_site) as server:
        url = server.origin + "/pyodide/pyodide.mjs"
        status, first, body = fetch_with(url, {})
        etag, modified = first["etag"], first["last-modified"]
        by_tag = fetch_with(url, {"If-None-Match": etag})
        by_weak_tag = fetch_with(url, {"If-None-Match": f'"nope", W/{etag}'})
        by_date = fetch_with(url, {"If-Modified-Since": modified})
        other_tag = fetch_with(url, {"If-None-Match": '"0000"'})
    assert (status, body) == (200, b"export const x = 1;\n")
    assert etag == f'"{sha256_hex(body)[:32]}"'
    for answer in (by_tag, by_weak_tag, by_date):
        assert (answer[0], answer[2]) == (304, b"")
        assert answer[1]["etag"] == etag and answer[1]["cache-control"] == "no-cache"
    assert (other_tag[0], other_tag[2]) == (200, body)


def test_each_encoding_has_its_own_etag_and_a_304_keeps_vary(compressed_site: Path) -> None:
    with StaticServer(compressed_site) as server:
        url = server.origin + "/app.js"
        tags = {
            accept: fetch_with(url, {"Accept-Encoding": accept})[1]["etag"]
            for accept in ("br", "gzip", "identity")
        }
        plain_tag_with_br = fetch_with(url, {"Accept-Encoding": "br", "If-None-Match": tags["identity"]})
        again = fetch_with(url, {"Accept-Encoding": "br", "If-None-Match": tags["br"]})
    assert len(set(tags.values())) == 3
    assert plain_tag_with_br[0] == 200 and plain_tag_with_br[2] == b"BR"
    assert again[0] == 304 and again[1]["vary"] == "Accept-Encoding" and "content-encoding" not in again[1]


def test_a_missing_file_has_no_etag_after_a_found_one(site: Path) -> None:
    """An error page is about no file: no ETag, revalidated, even right after a file was sent."""
    import http.client

    with StaticServer(site) as server:
        connection = http.client.HTTPConnection(server.origin.removeprefix("http://"), timeout=10)
        connection.request("GET", "/index.html")
        found = connection.getresponse()
        found.read()
        connection.request("GET", "/missing.js")
        missing = connection.getresponse()
        missing.read()
        connection.close()
    assert found.getheader("ETag") and found.status == 200
    assert missing.status == 404 and missing.getheader("ETag") is None
    assert missing.getheader("Cache-Control") == "no-cache"


def test_the_deployment_headers_file_is_sent_as_a_host_would(site: Path) -> None:
    """What web/_headers says (copied to dist/ by the build) is what `python build.py serve` sends."""
    shutil.copy(WEB / "_headers", site / "_headers")
    (site / "sandbox").mkdir()
    (site / "sandbox" / "frame.html").write_text("<!doctype html>\n")
    with StaticServer(site) as server:
        _, index, _ = fetch(server.origin + "/index.html?base_url=x")
        _, root, _ = fetch(server.origin + "/")
        _, script, _ = fetch(server.origin + "/pyodide/pyodide.mjs")
        _, frame, _ = fetch(server.origin + "/sandbox/frame.html")
        _, missing, _ = fetch(server.origin + "/nothing-here.html")
    for page in (index, root):
        assert (
            page["x-frame-options"] == "DENY" and page["content-security-policy"] == "frame-ancestors 'none'"
        )
        assert page["referrer-policy"] == "no-referrer" and page["x-content-type-options"] == "nosniff"
    for other in (script, missing):
        assert other["x-frame-options"] == "SAMEORIGIN"
        assert other["content-security-policy"] == "frame-ancestors 'self'"
    assert frame["x-frame-options"] == "SAMEORIGIN"


def test_a_folder_without_the_file_gets_only_nosniff(site: Path) -> None:
    with StaticServer(site) as server:
        _, index, _ = fetch(server.origin + "/index.html")
    assert index["x-content-type-options"] == "nosniff"
    assert "x-frame-options" not in index and "referrer-policy" not in index
