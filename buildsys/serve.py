"""`python build.py serve`: a static server for dist/ with correct MIME types and cache headers.

Also used by the end-to-end tests (`StaticServer`), so they exercise what users run.
"""

from __future__ import annotations

import functools
import http.server
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


class Handler(http.server.SimpleHTTPRequestHandler):
    """`no-cache`: the browser keeps every file but revalidates it (304) so a rebuild is never stale.
    `Access-Control-Allow-Origin: *`: the opaque-origin sandbox frames fetch the runtime files."""

    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


class StaticServer:
    """Serve a folder on 127.0.0.1 in a background thread (port 0 picks a free one)."""

    def __init__(self, root: Path = DIST, port: int = 0) -> None:
        handler = functools.partial(Handler, directory=str(root))
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
