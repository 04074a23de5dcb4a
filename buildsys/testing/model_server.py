"""A scripted OpenAI-compatible endpoint on 127.0.0.1 for end-to-end tests and benchmarks.

Queue responses with `script(...)`; each POST /v1/chat/completions takes the next one (the last one
repeats). Bodies stream with chunked transfer encoding, paced by `delay`, and can drop the connection
midway (`drop_after`: a TCP reset after that many chunks), or hold the response headers back
(`header_delay`; a client that closes its connection meanwhile sets `abandoned`). Every request is
recorded (headers included, with its arrival time) so tests can count rounds and check what was sent.
CORS headers are on unless `cors=False` (to test the page's CORS diagnosis). `failure()` scripts an
HTTP error (with or without Retry-After); `tool_call_chunks()` a native reply that calls tools.
"""

from __future__ import annotations

import json
import select
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

_PY = str(Path(__file__).resolve().parents[2] / "py")
if _PY not in sys.path:  # the benches run from build.py, where the package is not installed
    sys.path.insert(0, _PY)

from agentlite.stream.sse_encode import sse_events  # noqa: E402


@dataclass
class Scripted:
    status: int = 200
    chunks: list[bytes] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    drop_after: int | None = None  # close the connection after this many chunks
    header_delay: float = 0.0  # seconds before the status line, while watching for the client to leave


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    at: float = field(default_factory=time.monotonic)  # arrival, for the waits between retries


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the page went away or gave up on a reply: nothing to report
        super().handle_error(request, client_address)


class ModelServer:
    def __init__(self, cors: bool = True) -> None:
        self.cors = cors
        self.queue: list[Scripted] = []
        self.requests: list[Recorded] = []
        self.models = ["test-model"]
        self.sent: list[tuple[bytes, float]] = []  # (chunk, time.time() when written): latency benches
        self.lock = threading.Lock()
        self.abandoned = threading.Event()  # a client closed its connection while headers were held back
        self.httpd = _Server(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def script(self, *responses: Scripted) -> None:
        with self.lock:
            self.queue.extend(responses)

    def completions(self) -> list[Recorded]:
        return [r for r in self.requests if r.path.endswith("/chat/completions") and r.method == "POST"]

    def next_response(self) -> Scripted:
        with self.lock:
            if not self.queue:
                return Scripted(status=500, chunks=[b'{"error": {"message": "nothing scripted"}}'])
            return self.queue.pop(0) if len(self.queue) > 1 else self.queue[0]

    def __enter__(self) -> ModelServer:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Each chunk leaves when it is written, as streaming servers send them: with Nagle's algorithm
            # a small write waits for the last one's ACK (delayed up to 40 ms), which timed the socket.
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: object) -> None:
                pass

            def _cors(self) -> None:
                if server.cors:
                    self.send_header("Access-Control-Allow-Origin", "*")
                    self.send_header("Access-Control-Allow-Headers", "authorization, content-type")
                    self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
                    self.send_header("Access-Control-Expose-Headers", "retry-after")

            def _record(self, body: Any) -> None:
                with server.lock:
                    server.requests.append(Recorded(self.command, self.path, dict(self.headers), body))

            def do_OPTIONS(self) -> None:
                self._record(None)
                self.send_response(204)
                self._cors()
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self) -> None:
                self._record(None)
                if not self.path.endswith("/models"):
                    return self._plain(404, b'{"error": {"message": "not found"}}')
                body = json.dumps(
                    {"object": "list", "data": [{"id": m, "object": "model"} for m in server.models]}
                )
                return self._plain(200, body.encode())

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    self._record(json.loads(raw or b"null"))
                except ValueError:
                    self._record(raw.decode("utf-8", "replace"))
                self._stream(server.next_response())

            def _plain(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self._cors()
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _stream(self, response: Scripted) -> None:
                if response.header_delay and not self._client_waits(response.header_delay):
                    server.abandoned.set()
                    self.close_connection = True
                    return
                self.send_response(response.status)
                self._cors()
                is_sse = response.status < 400
                self.send_header("Content-Type", "text/event-stream" if is_sse else "application/json")
                for name, value in response.headers.items():
                    self.send_header(name, value)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for index, chunk in enumerate(response.chunks):
                    if response.delay:  # also before a drop, so what was sent is read before the reset
                        time.sleep(response.delay)
                    if response.drop_after is not None and index >= response.drop_after:
                        return self._drop()
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.flush()
                    server.sent.append((chunk, time.time()))
                if response.drop_after is not None:
                    return self._drop()
                self.wfile.write(b"0\r\n\r\n")

            def _client_waits(self, seconds: float) -> bool:
                """Wait `seconds`; False as soon as the client closes its end (an aborted fetch)."""
                deadline = time.monotonic() + seconds
                while (left := deadline - time.monotonic()) > 0:
                    readable, _, _ = select.select([self.connection], [], [], min(left, 0.05))
                    if not readable:
                        continue
                    try:
                        if not self.connection.recv(1, socket.MSG_PEEK):
                            return False
                    except OSError:
                        return False
                    time.sleep(left)  # the client sent more (a pipelined request): just wait
                return True

            def _drop(self) -> None:
                self.wfile.flush()
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
                )
                self.close_connection = True
                self.connection.close()

        return Handler


def sse(*payloads: dict[str, Any], done: bool = True) -> list[bytes]:
    """SSE chunks for the given chunk objects (non-ASCII escaped), ending with [DONE]."""
    return sse_events(*payloads, done=done, ascii_only=True)


def failure(status: int, message: str, retry_after: str | None = None) -> Scripted:
    """An HTTP error reply in the OpenAI error shape; `retry_after` adds that header (exposed by CORS)."""
    body = json.dumps({"error": {"message": message, "type": "error", "code": status}}).encode()
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return Scripted(status=status, chunks=[body], headers=headers)


def tool_call_chunks(*calls: tuple[str, dict[str, Any]], text: str = "", done: bool = True) -> list[bytes]:
    """A native streamed reply: optional text, then each (name, arguments) call, its arguments in two
    pieces, and finish_reason "tool_calls"."""
    deltas: list[dict[str, Any]] = []
    if text:
        deltas.append({"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]})
    for index, (name, arguments) in enumerate(calls):
        encoded = json.dumps(arguments)
        half = len(encoded) // 2
        head = {"index": index, "id": f"call_{index}", "type": "function"}
        pieces = [
            {**head, "function": {"name": name, "arguments": encoded[:half]}},
            {"index": index, "function": {"arguments": encoded[half:]}},
        ]
        deltas += [{"choices": [{"index": 0, "delta": {"tool_calls": [p]}}]} for p in pieces]
    deltas.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return sse(*deltas, done=done)


def text_chunks(*pieces: str, finish: str = "stop") -> list[bytes]:
    deltas = [{"choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]} for p in pieces]
    deltas.append({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    return sse(*deltas)
