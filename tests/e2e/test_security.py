"""Security properties of the whole app (issue 8): the API key stays where it belongs, sandbox frames are
`allow-scripts` only, messages posted to the page cause nothing, and the page's CSP holds its minimums.

The key test runs a session that touches every place a key could leak to (a tool turn, a refused
request, the workspace, an export) and then searches for the key string everywhere afterwards.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Page, Request, expect

from buildsys.bench.bench_startup import agent_worker
from buildsys.common import DIST
from buildsys.testing.model_server import ModelServer, Scripted, failure, text_chunks, tool_call_chunks
from tests.e2e.conftest import open_app, pipe_console, send, wait_ready
from tests.e2e.scripted_support import (
    WAIT_MS,
    approve_through,
    messages,
    start,
    tool_results,
    wait_idle,
)
from tests.e2e.test_demo_scenarios import FINAL, card, vfs, wait_reply, wait_status

KEY = "sk-leakcheck-7f3a9c1e5b2d4086"

DUMP_INDEXEDDB = """async () => {
  const text = (value) => {
    if (value instanceof Blob) return value.text();
    if (value instanceof ArrayBuffer) return new TextDecoder().decode(value);
    if (ArrayBuffer.isView(value)) return new TextDecoder().decode(value);
    return JSON.stringify(value, (_k, v) => (ArrayBuffer.isView(v) ? new TextDecoder().decode(v) : v));
  };
  const parts = [];
  for (const info of await indexedDB.databases()) {
    const db = await new Promise((ok, fail) => {
      const req = indexedDB.open(info.name);
      req.onsuccess = () => ok(req.result);
      req.onerror = () => fail(req.error);
    });
    for (const store of db.objectStoreNames) {
      const all = await new Promise((ok, fail) => {
        const req = db.transaction(store).objectStore(store).getAll();
        req.onsuccess = () => ok(req.result);
        req.onerror = () => fail(req.error);
      });
      for (const value of all) parts.push(await text(value));
    }
    db.close();
  }
  return parts;
}"""

DOM_OUTSIDE_THE_KEY_FIELD = """() => {
  const field = document.querySelector('[data-testid=settings-api-key]');
  const values = [...document.querySelectorAll('input, textarea, select')]
    .filter((el) => el !== field).map((el) => el.value);
  return [document.documentElement.outerHTML, document.body.innerText, ...values];
}"""


def key_session_model() -> list[Scripted]:
    return [
        Scripted(chunks=tool_call_chunks(("create_file", {"path": "/notes/a.md", "content": "# A\n"}))),
        Scripted(chunks=text_chunks("Created the note.")),
        failure(401, "Invalid API key provided"),
    ]


def workspace_texts(page: Page, folder: str = "/") -> list[str]:
    texts: list[str] = []
    for entry in vfs(page, "list", folder):
        if entry["kind"] == "dir":
            texts += workspace_texts(page, entry["path"])
        else:
            texts.append(vfs(page, "readText", entry["path"]) or "")
    return texts


def export_zip(page: Page) -> list[str]:
    """Click export and return the text of every member of the downloaded zip."""
    with page.expect_download(timeout=WAIT_MS) as download:
        page.click("[data-testid=export-workspace]")
    data = Path(download.value.path()).read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [archive.read(name).decode("utf-8", "replace") for name in archive.namelist()]


def sent_headers(request: Request) -> dict[str, str]:
    """The headers a request went out with. Playwright never delivers the raw headers that
    all_headers() waits for to a request cut off (the snapshot maker's, when a turn ends that worker)
    nor to a nested worker's own script (the maker's): for those, the headers it was given are all
    there is."""
    if request.failure or urlsplit(request.url).path.endswith("/snapshot-maker.js"):
        return request.headers
    return request.all_headers()


def test_the_api_key_appears_only_in_the_model_requests_authorization_header(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    console: list[str] = []
    requests: list[Request] = []
    page.on("console", lambda message: console.append(message.text))
    page.on("worker", lambda w: w.on("console", lambda m: console.append(m.text)))
    page.context.on("request", lambda request: requests.append(request))
    model_server.script(*key_session_model())
    start(page, origin, model_server)
    page.click("[data-testid=settings-open]")
    page.fill("[data-testid=settings-api-key]", KEY)
    page.click("[data-testid=settings-save]")

    send(page, "write a note")
    assert wait_status(page, card(page, "create_file"), FINAL) == "completed"
    wait_reply(page, "Created the note.")
    send(page, "and again")
    page.locator("[data-testid=error-banner][data-error-type=auth]").wait_for(timeout=WAIT_MS)
    page.click("[data-testid=decision-cancel]")
    wait_idle(page)

    # The snapshot maker's requests are over once it has stored the snapshot (docs/startup.md).
    agent_worker(page).evaluate("async () => await self.agentliteSnapshotStored")
    sent = model_server.completions()
    assert len(sent) == 3 and all(r.headers.get("Authorization") == f"Bearer {KEY}" for r in sent)
    for recorded in model_server.requests:  # nothing but that header carries it, not even the body
        others = {k: v for k, v in recorded.headers.items() if k.lower() != "authorization"}
        assert KEY not in json.dumps([recorded.path, others, recorded.body])
    for request in requests:
        headers = sent_headers(request)
        carries = headers.get("authorization") == f"Bearer {KEY}"
        assert not carries or request.url.startswith(model_server.base_url + "/"), request.url
        rest = {k: v for k, v in headers.items() if k != "authorization"}
        assert KEY not in json.dumps([request.url, rest, request.post_data or ""]), request.url

    places: dict[str, list[str]] = {
        "IndexedDB": page.evaluate(DUMP_INDEXEDDB),
        "web storage": page.evaluate(
            "[JSON.stringify({...localStorage}), JSON.stringify({...sessionStorage})]"
        ),
        "workspace": workspace_texts(page),
        "export": export_zip(page),
        "console": console,
        "DOM": page.evaluate(DOM_OUTSIDE_THE_KEY_FIELD),
    }
    assert places["IndexedDB"], "nothing was read from IndexedDB: the search would prove nothing"
    assert any("Created the note." in text for text in places["IndexedDB"]), "the chat is not where we look"
    assert "# A\n" in places["workspace"] and any("# A" in text for text in places["export"])
    leaks = [where for where, texts in places.items() if any(KEY in text for text in texts)]
    assert leaks == [], f"the API key leaked into {leaks}"
    assert page.input_value("[data-testid=settings-api-key]") == KEY  # it is still where it belongs


def test_a_link_to_another_endpoint_does_not_get_the_remembered_key(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    """A key remembered for endpoint A is not sent to endpoint B that a crafted link names; the user is
    told why the key field is empty, and the key still works for A."""
    model_server.script(Scripted(chunks=text_chunks("Hello from A.")))
    start(page, origin, model_server)
    page.click("[data-testid=settings-open]")
    page.fill("[data-testid=settings-api-key]", KEY)
    page.check("[data-testid=settings-remember-key]")
    page.click("[data-testid=settings-save]")

    with ModelServer() as other:
        other.script(Scripted(chunks=text_chunks("Hello from B.")))
        open_app(page, origin, base_url=other.base_url, model="test-model", dialect="native")
        page.click("[data-testid=endpoint-use]")  # the link names another endpoint: the user agrees
        send(page, "hello")
        wait_reply(page, "Hello from B.")
        page.click("[data-testid=settings-open]")
        assert page.input_value("[data-testid=settings-api-key]") == ""
        note = page.locator("[data-testid=settings-key-note]")
        expect(note).to_be_visible()
        expect(note).to_contain_text(f"belongs to {model_server.base_url.removesuffix('/v1')}")
        assert other.completions(), "the message never reached B"
        assert all(KEY not in json.dumps([r.path, r.headers, r.body]) for r in other.requests)
        assert all("Authorization" not in r.headers for r in other.completions())

    page.goto(f"{origin}/index.html")  # the saved endpoint again: its key is still remembered
    wait_ready(page)
    page.get_by_text("Hello from B.").wait_for(timeout=WAIT_MS)  # the saved chats are back
    page.click("[data-testid=chat-tab-new]")
    send(page, "hello again")
    wait_reply(page, "Hello from A.")
    assert model_server.completions()[-1].headers.get("Authorization") == f"Bearer {KEY}"


def test_every_sandbox_frame_is_allow_scripts_only(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(chunks=tool_call_chunks(("browser_js_eval", {"code": "origin"}))),
        Scripted(chunks=tool_call_chunks(("shell_exec", {"command": "echo shell"}))),
        Scripted(chunks=text_chunks("Both ran.")),
    )
    start(page, origin, model_server)
    send(page, "run js and a shell")
    assert approve_through(page, card(page, "browser_js_eval")) == "completed"
    assert approve_through(page, card(page, "shell_exec")) == "completed"
    wait_reply(page, "Both ran.")
    frames = page.evaluate(
        "[...document.querySelectorAll('iframe')].map((f) => [f.dataset.sandbox, f.getAttribute('sandbox')])"
    )
    assert sorted(realm for realm, _ in frames) == ["js", "shell"]
    assert all(attribute == "allow-scripts" for _, attribute in frames), frames
    assert '"null"' in card(page, "browser_js_eval").inner_text()  # an opaque origin


FORGERIES = """() => {
  const forged = [
    {type: 'event', chat: 'chat-1', event: {kind: 'message_start', id: 'x', role: 'assistant'}},
    {type: 'event', chat: 'chat-1', event: {kind: 'text', text: 'FORGED'}},
    {type: 'page_job', id: 999, kind: 'js', payload: {code: '1'}, timeout_ms: 1000},
    {type: 'send', chat: 'chat-1', text: 'FORGED send'},
    {type: 'call', id: 1, method: 'vfs.writeText', args: {path: '/forged.txt', text: 'FORGED'}},
    {type: 'result', id: 1, ok: true, result: {value: 'FORGED', logs: []}},
    {type: 'agentlite-sandbox-boot', runtime: 'export function start() {}'},
  ];
  for (const message of forged) {
    window.postMessage(message, '*');
    window.postMessage(JSON.stringify(message), '*');
  }
  return forged.length * 2;
}"""
# Sandboxed code runs in a Worker of the frame (docs/execution.md): it cannot even name the page's window.
# Were `parent` there, these forgeries would go to the page.
FROM_THE_FRAME = (
    "if (typeof parent === 'undefined') 'no parent'; else { "
    "for (const type of ['event', 'send', 'call', 'result', 'page_job']) "
    "parent.postMessage({type, chat: 'chat-1', text: 'FORGED', event: {kind: 'text', text: 'FORGED'},"
    " method: 'vfs.writeText', args: {path: '/forged.txt', text: 'FORGED'}}, '*'); 'posted' }"
)


def page_state(page: Page, server: ModelServer) -> dict[str, Any]:
    return {
        "messages": messages(page, "assistant").count() + messages(page, "user").count(),
        "frames": page.locator("iframe").count(),
        "requests": len(server.completions()),
        "files": vfs(page, "list", "/"),
        "forged text": page.get_by_text("FORGED").count(),
    }


def test_messages_posted_to_the_page_cause_nothing(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(chunks=tool_call_chunks(("browser_js_eval", {"code": FROM_THE_FRAME}))),
        Scripted(chunks=text_chunks("Posted.")),
    )
    start(page, origin, model_server)
    page.evaluate("window.__heard = 0; addEventListener('message', () => window.__heard++)")
    send(page, "post some messages")
    assert approve_through(page, card(page, "browser_js_eval")) == "completed"
    wait_reply(page, "Posted.")
    wait_idle(page)
    assert "no parent" in tool_results(model_server)[0]
    before = page_state(page, model_server)
    heard = page.evaluate("window.__heard")
    posted = page.evaluate(FORGERIES)
    page.wait_for_function(f"window.__heard >= {heard} + {posted}", timeout=WAIT_MS)
    page.wait_for_timeout(500)  # anything they could set off has had its chance
    assert page_state(page, model_server) == before
    assert before["forged text"] == 0 and vfs(page, "readText", "/forged.txt") is None


CSP_MINIMUMS = {"object-src": {"'none'"}, "base-uri": {"'none'"}}
LOCAL_SOURCES = {"'self'", "data:", "blob:", "'none'"}


def csp_directives(html: str) -> dict[str, set[str]]:
    found = re.search(r'http-equiv="Content-Security-Policy"\s+content="([^"]+)"', html)
    assert found, "index.html has no CSP meta tag"
    directives: dict[str, set[str]] = {}
    for part in found.group(1).split(";"):
        name, *sources = part.split()
        directives[name] = set(sources)
    return directives


def test_the_page_csp_meets_its_minimums(page: Page, origin: str) -> None:
    served = csp_directives((DIST / "index.html").read_text())
    page.goto(f"{origin}/index.html")
    live = csp_directives(page.content())
    assert live == served
    for name, wanted in CSP_MINIMUMS.items():
        assert served.get(name) == wanted, f"{name}: {served.get(name)}"
    images = served.get("img-src", served.get("default-src", set()))
    assert images and images <= LOCAL_SOURCES, f"img-src allows remote images: {images}"
    scripts = served.get("script-src", served.get("default-src", set()))
    # No eval of any kind on the page, not even of WebAssembly: the engine of the model in the page
    # compiles its wasm inside its own worker, a file of this origin (docs/local-model.md).
    assert scripts <= LOCAL_SOURCES - {"data:", "blob:"}, f"script-src is too wide: {scripts}"
    assert served.get("worker-src") == {"'self'"}, f"worker-src: {served.get('worker-src')}"
    # On the page, wasm is refused compilation; validating it (the engine's relaxed-SIMD probe) is not
    # compiling, and still answers.
    empty_module = "new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])"
    compiled = page.evaluate(f"WebAssembly.compile({empty_module}).then(() => 'compiled', (e) => e.name)")
    assert compiled == "CompileError", compiled
    relaxed = page.evaluate(
        "import(new URL('local-engine.js', location.href).href).then((m) => m.hasRelaxedSimd())"
    )
    assert relaxed is True
    # The page itself talks only to its own origin: model requests are made by the agent worker.
    assert served.get("connect-src") == {"'self'"}, f"connect-src: {served.get('connect-src')}"


def test_the_browser_enforces_the_page_csp_against_another_origin(page: Page, origin: str) -> None:
    """A remote image and a fetch from the page reach no server; a real server on another origin records
    every hit, and sees the one request the page's CSP does not govern (the agent worker's: a meta CSP
    does not apply to workers, which must reach the configured model endpoint)."""
    with ModelServer() as elsewhere:
        target = elsewhere.base_url.removesuffix("/v1")
        pipe_console(page)
        page.goto(f"{origin}/index.html")
        wait_ready(page)
        page.evaluate(
            "(url) => { const img = new Image(); img.src = url; document.body.append(img); }",
            f"{target}/pixel.png?d=image",
        )
        page.wait_for_function("document.images[document.images.length - 1].complete")
        assert page.evaluate("document.images[document.images.length - 1].naturalWidth") == 0
        fetched = page.evaluate(
            "(url) => fetch(url).then(() => 'reached', (err) => 'refused: ' + err.message)",
            f"{target}/v1/models?d=fetch",
        )
        assert fetched.startswith("refused"), fetched
        worker = next(w for w in page.workers if w.url.endswith("/worker.js"))
        status = worker.evaluate("(url) => fetch(url).then((r) => r.status)", f"{target}/v1/models")
        assert status == 200
        assert [r.path for r in elsewhere.requests] == ["/v1/models"]
