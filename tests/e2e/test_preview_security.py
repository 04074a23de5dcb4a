"""The preview runs what was approved, sees only what it needs, and has no network (docs/preview.md,
"Reloads", "What the frame receives", "No network"): an agent's write does not rerun an open preview
unless the chat auto-approves `js` (the user's Reload is the yes; the user's own edits reload at once);
a page cannot read a workspace file it does not name; and no RTCPeerConnection is left to it, in its own
window, in a frame it makes or in a Worker, so a real STUN listener and a real HTTP listener on this machine
hear nothing from it."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Frame, Page

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import open_app
from tests.e2e.scripted_support import approve_through, start, wait_idle
from tests.e2e.test_demo_scenarios import card
from tests.e2e.test_preview import frame_of, logs, revision, wait_log, wait_revision_after, write_files
from tests.e2e.test_ui_settings import open_settings

WAIT_MS = 30_000

# Each run of the page says so once: "run <marker> <n>" (its own localStorage counts the runs).
COUNTER = {
    "/index.html": '<!doctype html><title>Counter</title><p id="out"></p><script src="app.js"></script>\n',
    "/app.js": (
        'const n = Number(localStorage.getItem("runs") || 0) + 1;\nlocalStorage.setItem("runs", String(n));\n'
        'console.log("run first " + n);\ndocument.getElementById("out").textContent = "first";\n'
    ),
}


def app_js(marker: str) -> str:
    return COUNTER["/app.js"].replace("first", marker)


def runs(page: Page) -> list[str]:
    return [text for _level, text in logs(page) if text.startswith("run ")]


def agent_writes(page: Page, model_server: ModelServer, marker: str) -> None:
    """The scripted model rewrites /app.js (approved as an overwrite: not as running it)."""
    with model_server.lock:
        model_server.queue.clear()  # the last answer of a script stays for any later request
    model_server.script(
        Scripted(chunks=tool_call_chunks(("write_file", {"path": "/app.js", "content": app_js(marker)}))),
        Scripted(chunks=text_chunks("Rewrote it.")),
    )
    count = page.locator("[data-testid=tool-card][data-tool=write_file]").count()
    page.fill("[data-testid=chat-input]", f"write {marker}")
    page.press("[data-testid=chat-input]", "Enter")
    card(page, "write_file", count).wait_for(timeout=WAIT_MS)
    assert approve_through(page, card(page, "write_file", count)) == "completed"
    wait_idle(page)


def test_an_agents_write_waits_for_reload_unless_js_is_auto_approved(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    start(page, origin, model_server)
    write_files(page, COUNTER)
    page.click("[data-testid=preview-open]")
    frame_of(page)
    wait_log(page, "run first 1")
    first = revision(page)

    agent_writes(page, model_server, "agent")
    page.wait_for_selector("[data-testid=preview-pending]", state="visible", timeout=WAIT_MS)
    assert "agent changed this page" in page.inner_text("[data-testid=preview-pending]")
    time.sleep(1.0)  # a reload would have started 20 ms after the write
    assert revision(page) == first
    assert runs(page) == ["run first 1"], runs(page)
    # The user's own edit does not run the agent's change either while it waits.
    write_files(page, {"/notes.txt": "mine\n"})
    time.sleep(0.5)
    assert revision(page) == first and runs(page) == ["run first 1"]

    page.click("[data-testid=preview-pending-reload]")  # the user's yes
    wait_revision_after(page, first)
    wait_log(page, "run agent 2")
    assert page.is_hidden("[data-testid=preview-pending]")

    before = revision(page)  # the user's edit reloads by itself
    write_files(page, {"/app.js": app_js("user")})
    wait_revision_after(page, before)
    wait_log(page, "run user 3")

    open_settings(page)  # the chats may run JavaScript unasked: then the agent's write reloads too
    page.check("input[name=auto_approve][value=js]")
    page.click("[data-testid=settings-save]")
    before = revision(page)
    agent_writes(page, model_server, "allowed")
    wait_revision_after(page, before)
    wait_log(page, "run allowed 4")
    assert page.is_hidden("[data-testid=preview-pending]")


def test_preview_page_with_approval_still_runs_the_agents_page(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(chunks=tool_call_chunks(("write_file", {"path": "/app.js", "content": app_js("tool")}))),
        Scripted(chunks=tool_call_chunks(("preview_page", {"path": "/index.html"}))),
        Scripted(chunks=text_chunks("Looked.")),
    )
    start(page, origin, model_server)
    write_files(page, COUNTER)
    page.click("[data-testid=preview-open]")
    wait_log(page, "run first 1")
    page.fill("[data-testid=chat-input]", "change and look")
    page.press("[data-testid=chat-input]", "Enter")
    assert approve_through(page, card(page, "write_file")) == "completed"
    assert approve_through(page, card(page, "preview_page")) == "completed"
    wait_idle(page)
    wait_log(page, "run tool 2")
    assert page.is_hidden("[data-testid=preview-pending]")


# A page that never names /secret.env or /.env tries to read them, and a file it does name.
READER = {
    "/index.html": (
        '<!doctype html><title>Reader</title><pre id="out"></pre>\n<script type="module">\n'
        "const out = {};\n"
        'for (const path of ["/secret" + ".env", "/" + ".env", "data.json"]) {\n'
        "  const r = await fetch(path);\n"
        "  out[path] = [r.status, await r.text()];\n"
        "  const x = new XMLHttpRequest();\n"
        "  x.open('GET', path, false);\n"
        "  x.send();\n"
        "  out['xhr ' + path] = [x.status, x.responseText];\n"
        "}\n"
        'document.getElementById("out").textContent = JSON.stringify(out);\n'
        "</script>\n"
    ),
    "/data.json": '{"ok": true}',
    "/secret.env": "API_KEY=sk-preview-secret\n",
    "/.env": "API_KEY=sk-preview-dotenv\n",
}


def preview_out(page: Page, origin: str, files: dict[str, str]) -> tuple[Frame, dict[str, Any]]:
    """Preview `files` in a fresh app; the frame and the JSON its page writes into #out."""
    open_app(page, origin)
    write_files(page, files)
    page.click("[data-testid=preview-open]")
    frame = frame_of(page)
    frame.wait_for_function("document.getElementById('out').textContent !== ''", timeout=WAIT_MS)
    return frame, json.loads(frame.inner_text("#out"))


def test_a_page_cannot_read_files_it_does_not_name(page: Page, origin: str) -> None:
    _frame, out = preview_out(page, origin, READER)
    for path in ["/secret.env", "/.env"]:  # .git/ cannot be written (a unit test covers its exclusion)
        assert out[path] == [404, f"not found: {path}"], out
        assert out[f"xhr {path}"] == [404, f"not found: {path}"], out
    assert out["data.json"] == [200, '{"ok": true}']


@dataclass
class Listeners:
    """A UDP socket (STUN) and a TCP socket (HTTP, WebSocket, preconnect) on 127.0.0.1 that count what
    reaches them."""

    udp: socket.socket
    tcp: socket.socket
    packets: list[bytes] = field(default_factory=list)
    connections: list[bytes] = field(default_factory=list)

    @property
    def udp_port(self) -> int:
        return int(self.udp.getsockname()[1])

    @property
    def tcp_port(self) -> int:
        return int(self.tcp.getsockname()[1])


@pytest.fixture
def listeners() -> Iterator[Listeners]:
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(16)
    found = Listeners(udp, tcp)
    udp.settimeout(0.2)
    tcp.settimeout(0.2)
    done = threading.Event()

    def hear() -> None:
        while not done.is_set():
            with contextlib.suppress(OSError):
                found.packets.append(udp.recvfrom(4096)[0])
            try:
                conn, _ = tcp.accept()
                conn.settimeout(2.0)
                try:
                    found.connections.append(conn.recv(4096))
                except OSError:
                    found.connections.append(b"")
                conn.close()
            except OSError:
                pass

    thread = threading.Thread(target=hear, daemon=True)
    thread.start()
    yield found
    done.set()
    thread.join(2)
    udp.close()
    tcp.close()


# Every way to a peer connection the page has: its own window, a frame it makes (about:blank, srcdoc by
# property, attribute, Attr node and innerHTML, a javascript: URL, a blob: page), a srcdoc frame in its
# HTML, a Worker; then every other network path, to the TCP listener.
def rtc_page(udp: int, tcp: int) -> dict[str, str]:
    probe = "<script>parent.postMessage(['NAME', typeof RTCPeerConnection], '*');" + stun(udp) + "</script>"
    return {
        "/index.html": (
            '<!doctype html><title>RTC</title><pre id="out"></pre>\n'
            f'<iframe srcdoc="{probe.replace("NAME", "static")}"></iframe>\n'
            '<script src="rtc.js"></script>\n'
        ),
        "/rtc.js": RTC_JS.replace("UDP_PORT", str(udp))
        .replace("TCP_PORT", str(tcp))
        .replace("__PROBE__", json.dumps(probe)),
        "/worker.js": "postMessage([typeof RTCPeerConnection, typeof webkitRTCPeerConnection]);\n",
    }


def stun(port: int) -> str:
    return (
        "try { const pc = new RTCPeerConnection({iceServers: [{urls: 'stun:127.0.0.1:"
        f"{port}'}}]}}); pc.createDataChannel('x');"
        " pc.createOffer().then((o) => pc.setLocalDescription(o)); }"
        " catch (e) {}"
    )


RTC_JS = """
const out = { seen: {} };
addEventListener("message", (event) => {
  if (Array.isArray(event.data)) out.seen[event.data[0]] = event.data[1];
});
const PROBE = __PROBE__;
const probe = (name) => PROBE.replace("NAME", name);
const attempt = (name, run) => {
  try { out[name] = run(); } catch (err) { out[name] = "refused: " + err.name; }
};
const NAMES = ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "RTCIceTransport"];
for (const name of [...NAMES, "RTCSctpTransport"]) {
  out["typeof " + name] = typeof window[name];
}
attempt("new", () => new RTCPeerConnection({ iceServers: [{ urls: "stun:127.0.0.1:UDP_PORT" }] }) && "made");
const blank = document.createElement("iframe");
document.body.append(blank);
attempt("blank", () => typeof blank.contentWindow.RTCPeerConnection);
attempt("blankMade", () => new blank.contentWindow.RTCPeerConnection() && "made");
attempt("frames0", () => typeof window[0].RTCPeerConnection);
const add = (name, set) =>
  attempt(name, () => {
    const f = document.createElement("iframe");
    set(f);
    document.body.append(f);
    return "added";
  });
add("srcdocProperty", (f) => (f.srcdoc = probe("srcdocProperty")));
add("srcdocAttribute", (f) => f.setAttribute("srcdoc", probe("srcdocAttribute")));
add("srcdocAttr", (f) => {
  const a = document.createAttribute("srcdoc");
  a.value = probe("srcdocAttr");
  f.setAttributeNode(a);
});
add("javascriptUrl", (f) => (f.src = "javascript:parent.postMessage(['javascriptUrl', 1], '*')"));
const page = (name) => URL.createObjectURL(new Blob([probe(name)], { type: "text/html" }));
add("blobPage", (f) => (f.src = page("blobPage")));
attempt("innerHTML", () => {
  const div = document.createElement("div");
  div.innerHTML = '<iframe srcdoc="' + probe("innerHTML").replace(/"/g, "&quot;") + '"></iframe>';
  document.body.append(div);
  return "added";
});
attempt("ownPolicy", () => {
  const policy = trustedTypes.createPolicy("mine", { createHTML: (s) => s });
  const f = document.createElement("iframe");
  f.srcdoc = policy.createHTML(probe("ownPolicy"));
  document.body.append(f);
  return "added";
});
const worker = new Worker("worker.js");
worker.onmessage = (event) => (out.worker = event.data);
// Every other way out, to the TCP listener: each must be refused before it leaves the browser.
const http = "http://127.0.0.1:TCP_PORT/";
attempt("fetch", () => (fetch(http + "fetch").catch(() => {}), "tried"));
attempt("beacon", () => navigator.sendBeacon(http + "beacon", "x"));
attempt("websocket", () => (new WebSocket("ws://127.0.0.1:TCP_PORT/ws"), "tried"));
attempt("eventsource", () => (new EventSource(http + "sse"), "tried"));
attempt("webtransport", () => (new WebTransport(`https://127.0.0.1:TCP_PORT/wt`).ready.catch(() => {}), 1));
attempt("image", () => ((new Image().src = http + "img"), "tried"));
attempt("open", () => String(window.open(http + "open")));
for (const rel of ["prefetch", "preconnect", "dns-prefetch", "preload"]) {
  const link = document.createElement("link");
  link.rel = rel;
  link.href = http + rel;
  if (rel === "preload") link.as = "fetch";
  document.head.append(link);
}
const form = document.createElement("form");
form.action = http + "form";
form.method = "post";
document.body.append(form);
attempt("form", () => (form.submit(), "tried"));
setTimeout(() => (document.getElementById("out").textContent = JSON.stringify(out)), 2500);
"""


def test_the_preview_has_no_webrtc_and_no_way_out(page: Page, origin: str, listeners: Listeners) -> None:
    frame, out = preview_out(page, origin, rtc_page(listeners.udp_port, listeners.tcp_port))
    for name in [
        "RTCPeerConnection",
        "webkitRTCPeerConnection",
        "RTCDataChannel",
        "RTCIceTransport",
        "RTCSctpTransport",
    ]:
        assert out[f"typeof {name}"] == "undefined", out
    assert out["new"] == "refused: ReferenceError", out
    assert out["blank"] in {"refused: SecurityError", "undefined"}, out
    assert out["blankMade"].startswith("refused: "), out
    assert out["frames0"] in {"refused: SecurityError", "undefined"}, out
    assert out["seen"] == {}, out  # no frame's script ran, with or without a peer connection
    assert out["worker"] == ["undefined", "undefined"], out
    # A link out, with a ping: refused before anything leaves (the frame stops the click).
    frame.evaluate(
        f"() => {{ const a = document.createElement('a'); a.href = 'http://127.0.0.1:{listeners.tcp_port}/away';"
        f" a.ping = 'http://127.0.0.1:{listeners.tcp_port}/ping'; document.body.append(a); a.click(); }}"
    )
    wait_log(page, f"Blocked: a link to http://127.0.0.1:{listeners.tcp_port}/away")
    time.sleep(2.0)
    assert listeners.packets == [], "a STUN packet left the preview"
    assert listeners.connections == [], listeners.connections
    lines = [text for _level, text in logs(page)]
    assert any("a script in an <iframe srcdoc>" in line for line in lines), lines

    # Last, as it replaces the page: the frame navigates itself away. The app's frame-src refuses it, but
    # Chromium connects to the host first (docs/preview.md, "What remains"): no request is sent on it.
    frame.evaluate(f"() => {{ location.href = 'http://127.0.0.1:{listeners.tcp_port}/navigate?secret'; }}")
    time.sleep(3.0)
    assert all(data == b"" for data in listeners.connections), listeners.connections

    # The listeners do hear a peer connection that is not in the preview: the app's own page has one.
    page.evaluate(f"() => {{ {stun(listeners.udp_port)} }}")
    deadline = time.monotonic() + 10
    while not listeners.packets and time.monotonic() < deadline:
        time.sleep(0.2)
    assert listeners.packets, "the STUN listener heard nothing even from the app's page"
