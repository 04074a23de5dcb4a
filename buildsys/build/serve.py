"""`python build.py serve`: a static server for dist/ with correct MIME types and cache headers.

Also used by the end-to-end tests (`StaticServer`), so they exercise what users run. A file that has a
precompressed copy (`name.br`, `name.gz`, see buildsys/build/compress.py) is sent as that copy when the
request's Accept-Encoding allows it, with `Content-Encoding` and `Vary: Accept-Encoding`.

The deployment headers file in the served folder (`_headers`, buildsys/build/deploy_headers.py) adds its
headers as Netlify or Cloudflare Pages would (docs/deploying.md): the framing refusals among them.

Caching (docs/caching.md): a URL that names its file's content (`?v=` + the start of the file's sha256,
written by buildsys/build/asset_urls.py) is cached for a year as immutable; every other URL is revalidated
(`no-cache`), with a strong ETag (the sha256 of the bytes sent) and Last-Modified, answered by 304.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
import urllib.parse
from pathlib import Path
from typing import ClassVar

from buildsys.build import deploy_headers
from buildsys.common import DIST, say, sha256_file

MIME = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".map": "application/json",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}


ENCODINGS = (("br", ".br"), ("gzip", ".gz"))  # preferred first
# The sandbox frame's document: an opaque origin whatever frame loads it (its own CSP is in the file).
FRAME_HEADERS = {"/sandbox/frame.html": "sandbox allow-scripts", "/sandbox/pdf.html": "sandbox allow-scripts"}


IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
VERSION_PARAM = "v"
MIN_VERSION_CHARS = 16  # 64 bits of the sha256: a URL that names its content


def cache_control(query: str, sha256: str | None) -> str:
    """Immutable only when the query's `v` is (the start of) the sha256 of the file served, so a URL
    carrying a stale or made-up version is revalidated like any other."""
    versions = urllib.parse.parse_qs(query).get(VERSION_PARAM, [])
    named = len(versions) == 1 and len(versions[0]) >= MIN_VERSION_CHARS
    if sha256 and named and sha256.startswith(versions[0].lower()):
        return IMMUTABLE
    return REVALIDATE


@functools.lru_cache(maxsize=1024)
def _content_sha256(path: str, size: int, mtime_ns: int) -> str:
    return sha256_file(Path(path))


def content_sha256(path: str) -> str:
    """The file's sha256, hashed once per (size, mtime): the Pyodide wasm is 10 MB."""
    stat = os.stat(path)
    return _content_sha256(path, stat.st_size, stat.st_mtime_ns)


def etag_matches(header: str | None, etag: str) -> bool:
    """Whether an If-None-Match header names `etag` (weak comparison, as RFC 9110 asks for it)."""
    if not header:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in header.split(",")]
    return "*" in tags or etag in tags


def accepted_encodings(header: str) -> set[str]:
    """The content codings an Accept-Encoding header allows (a `q=0` coding is refused)."""
    allowed = set()
    for part in header.split(","):
        name, *params = (piece.strip() for piece in part.split(";"))
        quality = next((p[2:] for p in params if p.lower().startswith("q=")), "1")
        try:
            if name and float(quality) > 0:
                allowed.add(name.lower())
        except ValueError:
            continue
    return allowed


class Handler(http.server.SimpleHTTPRequestHandler):
    """`no-cache` + ETag on every file whose URL does not name its content: the browser keeps it but
    revalidates (304), so a rebuild is never stale; a URL that names the content is immutable (see
    `cache_control`). `Access-Control-Allow-Origin: *`: sandbox frames are opaque."""

    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}
    reads_headers_file: ClassVar[bool] = True  # False: a host that sends none of `_headers`
    encoding: str | None = None
    has_variants = False
    etag: str | None = None
    caching = REVALIDATE

    def send_head(self):  # type: ignore[no-untyped-def]
        self.encoding, self.has_variants = None, False  # per request: a connection serves several
        self.etag, self.caching = None, REVALIDATE
        sent = self.translate_path(self.path)
        if os.path.isfile(sent):
            suffix = dict(ENCODINGS).get(self.encoding or "", "")
            plain = sent.removesuffix(suffix) if suffix else sent
            self.etag = f'"{content_sha256(sent)[:32]}"'
            self.caching = cache_control(urllib.parse.urlsplit(self.path).query, content_sha256(plain))
            if etag_matches(self.headers.get("If-None-Match"), self.etag):
                self.send_response(http.HTTPStatus.NOT_MODIFIED)
                self.end_headers()
                return None
        self.encoding, self.has_variants = None, False  # the parent translates the path again
        return super().send_head()

    def translate_path(self, path: str) -> str:
        """The precompressed copy of the file when the client accepts its coding, else the file."""
        plain = super().translate_path(path)
        if not os.path.isfile(plain):
            return plain
        accepted = accepted_encodings(self.headers.get("Accept-Encoding", ""))
        for coding, suffix in ENCODINGS:
            if os.path.isfile(plain + suffix):
                self.has_variants = True
                if coding in accepted and self.encoding is None:
                    self.encoding = coding
        suffix = dict(ENCODINGS).get(self.encoding or "", "")
        return plain + suffix

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        text = os.fspath(path)
        if self.encoding:
            text = text.removesuffix(dict(ENCODINGS)[self.encoding])
        return super().guess_type(text)

    def send_response(self, code: int, message: str | None = None) -> None:
        super().send_response(code, message)
        if code == 200 and self.encoding:
            self.send_header("Content-Encoding", self.encoding)
        if self.has_variants:
            self.send_header("Vary", "Accept-Encoding")
        sandbox = FRAME_HEADERS.get(self.path.split("?", 1)[0])
        if sandbox:
            self.send_header("Content-Security-Policy", sandbox)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        self.etag, self.caching = None, REVALIDATE  # an error page is about no file
        super().send_error(code, message, explain)

    def end_headers(self) -> None:
        if self.etag:
            self.send_header("ETag", self.etag)
        self.send_header("Cache-Control", self.caching)
        self.send_header("Access-Control-Allow-Origin", "*")
        for name, value in self.deployed_headers().items():
            self.send_header(name, value)
        super().end_headers()

    def deployed_headers(self) -> dict[str, str]:
        """nosniff, and what the served folder's `_headers` says of this path."""
        rules = deploy_headers.rules_in(self.directory) if self.reads_headers_file else []
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        found = deploy_headers.headers_for(rules, path)
        if not any(name.lower() == "x-content-type-options" for name in found):
            found["X-Content-Type-Options"] = "nosniff"
        return found

    def log_message(self, format: str, *args: object) -> None:
        pass


class ExtrasHandler(Handler):
    """dist/ as the app serves it, plus test or bench pages (`pages`: URL path -> HTML) and files from
    outside dist/ (`files`: URL path -> path, such as the test model, which dist/ never holds)."""

    pages: ClassVar[dict[str, bytes]] = {}
    files: ClassVar[dict[str, Path]] = {}

    def translate_path(self, path: str) -> str:
        extra = self.files.get(path.split("?", 1)[0])
        return str(extra) if extra is not None else super().translate_path(path)

    def do_GET(self) -> None:
        body = self.pages.get(self.path.split("?", 1)[0])
        if body is None:
            super().do_GET()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _Listener(http.server.ThreadingHTTPServer):
    # A first visit opens dozens of connections at once (the service worker's precache beside the
    # agent worker's packages and the snapshot maker's): more than the default backlog of 5 waits.
    request_queue_size = 128
    daemon_threads = True


class StaticServer:
    """Serve a folder on 127.0.0.1 in a background thread (port 0 picks a free one)."""

    def __init__(self, root: Path = DIST, port: int = 0, handler_class: type[Handler] = Handler) -> None:
        handler = functools.partial(handler_class, directory=str(root))
        self.httpd = _Listener(("127.0.0.1", port), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> StaticServer:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def serve(port: int) -> None:
    server = StaticServer(DIST, port)
    say(f"serving {DIST} at {server.origin}/ (Ctrl-C to stop)")
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        say("stopped")
    finally:
        server.httpd.server_close()
