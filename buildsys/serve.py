"""`python build.py serve`: a static server for dist/ with correct MIME types and cache headers.

Also used by the end-to-end tests (`StaticServer`), so they exercise what users run. A file that has a
precompressed copy (`name.br`, `name.gz`, see buildsys/compress.py) is sent as that copy when the
request's Accept-Encoding allows it, with `Content-Encoding` and `Vary: Accept-Encoding`.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path
from typing import ClassVar

from buildsys.common import DIST, say

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
FRAME_HEADERS = {"/sandbox/frame.html": "sandbox allow-scripts"}


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
    """`no-cache` on every file: the browser keeps it but revalidates (304), so a rebuild is never stale;
    no URL of dist/ names its content, so none may be cached as immutable (the service worker keeps the
    offline copy, one cache per build). `Access-Control-Allow-Origin: *`: sandbox frames are opaque."""

    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}
    encoding: str | None = None
    has_variants = False

    def send_head(self):  # type: ignore[no-untyped-def]
        self.encoding, self.has_variants = None, False  # per request: a connection serves several
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

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


class StaticServer:
    """Serve a folder on 127.0.0.1 in a background thread (port 0 picks a free one)."""

    def __init__(self, root: Path = DIST, port: int = 0, handler_class: type[Handler] = Handler) -> None:
        handler = functools.partial(handler_class, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.httpd.daemon_threads = True
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
