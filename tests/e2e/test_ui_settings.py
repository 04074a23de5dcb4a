"""Settings: presets, persistence across a reload (the key only when remembered, never elsewhere in
the DOM or storage), forget key, and the connection test's diagnoses: unreachable, CORS (a server
without CORS headers), refused key, model not found, and success."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import wait_ready

KEY = "sk-uc-secret-7f3a9d"
WAIT_MS = 60_000
RESULT = "[data-testid=settings-test-result]"

# Everything the page keeps or shows, except the key field's own value.
KEY_LEAKS = """
(key) => {
  const field = document.querySelector("[data-testid=settings-api-key]");
  const values = [...document.querySelectorAll("input, textarea, select, output")]
    .filter((el) => el !== field).map((el) => el.value || "");
  const stored = [localStorage, sessionStorage].flatMap((s) => Object.keys(s).map((k) => k + s.getItem(k)));
  return {
    html: document.documentElement.outerHTML.includes(key),
    text: document.body.innerText.includes(key),
    values: values.some((v) => v.includes(key)),
    storage: stored.some((v) => v.includes(key)),
  };
}
"""


class KeyedEndpoint:
    """/v1/models that answers 401 unless the right key is sent, with CORS, listing one tool model."""

    def __init__(self, key: str) -> None:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def _cors(self) -> None:
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Access-Control-Allow-Headers", "authorization, content-type, accept")

            def do_OPTIONS(self) -> None:
                self.send_response(204)
                self._cors()
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self) -> None:
                allowed = self.headers.get("Authorization") == f"Bearer {key}"
                listing = {"data": [{"id": "tool-model", "capabilities": ["completion", "tools"]}]}
                body = json.dumps(listing if allowed else {"error": {"message": "bad key"}}).encode()
                endpoint.seen.append(self.headers.get("Authorization") or "")
                self.send_response(200 if allowed else 401)
                self._cors()
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.seen: list[str] = []
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def keyed() -> Iterator[KeyedEndpoint]:
    server = KeyedEndpoint(KEY)
    yield server
    server.close()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def open_settings(page: Page) -> None:
    page.click("[data-testid=settings-open]")
    expect(page.locator("dialog.settings")).to_be_visible()


def fill_form(page: Page, **values: str) -> None:
    for name, value in values.items():
        page.fill(f"[data-testid=settings-{name.replace('_', '-')}]", value)


def leaks(page: Page) -> dict[str, Any]:
    return page.evaluate(KEY_LEAKS, KEY)


def test_settings_persist_and_the_key_only_when_remembered(app: Page) -> None:
    open_settings(app)
    app.select_option("[data-testid=settings-preset]", "ollama")
    assert app.input_value("[data-testid=settings-base-url]") == "http://127.0.0.1:11434/v1"
    fill_form(app, model="qwen3:8b", api_key=KEY, max_rounds="5", eval_timeout="20", context_window="32768")
    app.check("input[name=auto_approve][value=shell]")
    app.select_option("[data-testid=settings-dialect]", "json")
    app.click("[data-testid=settings-save]")
    assert leaks(app) == {"html": False, "text": False, "values": False, "storage": False}

    app.reload()
    wait_ready(app)
    open_settings(app)
    assert app.input_value("[data-testid=settings-base-url]") == "http://127.0.0.1:11434/v1"
    assert app.input_value("[data-testid=settings-model]") == "qwen3:8b"
    assert app.input_value("[data-testid=settings-dialect]") == "json"
    assert app.input_value("[data-testid=settings-max-rounds]") == "5"
    assert app.input_value("[data-testid=settings-eval-timeout]") == "20"
    assert app.input_value("[data-testid=settings-context-window]") == "32768"
    assert app.input_value("[data-testid=settings-preset]") == "ollama"
    assert app.is_checked("input[name=auto_approve][value=shell]")
    assert not app.is_checked("input[name=auto_approve][value=delete]")
    assert app.input_value("[data-testid=settings-api-key]") == "", "an unremembered key survived a reload"

    fill_form(app, api_key=KEY)
    app.check("[data-testid=settings-remember-key]")
    app.click("[data-testid=settings-save]")
    assert leaks(app)["storage"] is True
    assert leaks(app)["html"] is False
    app.reload()
    wait_ready(app)
    open_settings(app)
    assert app.input_value("[data-testid=settings-api-key]") == KEY
    assert {k: v for k, v in leaks(app).items() if k != "storage"} == {
        "html": False,
        "text": False,
        "values": False,
    }

    app.click("[data-testid=settings-forget-key]")
    assert app.input_value("[data-testid=settings-api-key]") == ""
    assert leaks(app)["storage"] is False
    app.reload()
    wait_ready(app)
    open_settings(app)
    assert app.input_value("[data-testid=settings-api-key]") == ""


def test_connection_test_tells_cors_from_unreachable(app: Page, origin: str) -> None:
    from buildsys.testing.model_server import ModelServer

    with ModelServer(cors=False) as no_cors:
        open_settings(app)
        app.select_option("[data-testid=settings-preset]", "ollama")  # an Ollama on another port
        fill_form(app, base_url=no_cors.base_url, model="test-model")
        app.click("[data-testid=settings-test]")
        expect(app.locator(RESULT)).to_have_attribute("data-outcome", "cors", timeout=WAIT_MS)
        fix = app.locator(f"{RESULT} .connection-fix").inner_text()
        assert (
            fix == f"Fix: Start Ollama with this page's origin allowed: OLLAMA_ORIGINS={origin} ollama serve"
        )
        assert any(r.path.endswith("/models") for r in no_cors.requests), "the server was never asked"

        app.select_option("[data-testid=settings-preset]", "vllm")
        fill_form(app, base_url=no_cors.base_url)
        app.click("[data-testid=settings-test]")
        expect(app.locator(f"{RESULT} .connection-fix")).to_contain_text(
            f"--allowed-origins '[\"{origin}\"]'"
        )

    fill_form(app, base_url=f"http://127.0.0.1:{closed_port()}/v1")
    app.click("[data-testid=settings-test]")
    expect(app.locator(RESULT)).to_have_attribute("data-outcome", "unreachable", timeout=WAIT_MS)

    app.select_option("[data-testid=settings-preset]", "ollama")
    fill_form(app, base_url="http://127.0.0.1:11434/v1")
    app.evaluate(
        "document.querySelector('[data-testid=settings-base-url]').dispatchEvent(new Event('change'))"
    )
    assert app.input_value("[data-testid=settings-preset]") == "ollama"


def test_connection_test_reports_refused_key_missing_model_and_success(
    app: Page, keyed: KeyedEndpoint, model_server: Any
) -> None:
    open_settings(app)
    fill_form(app, base_url=keyed.base_url, model="tool-model", api_key="sk-wrong")
    app.click("[data-testid=settings-test]")
    expect(app.locator(RESULT)).to_have_attribute("data-outcome", "auth", timeout=WAIT_MS)

    fill_form(app, api_key=KEY)
    app.click("[data-testid=settings-test]")
    expect(app.locator(RESULT)).to_have_attribute("data-outcome", "ok", timeout=WAIT_MS)
    assert "calls tools natively" in app.inner_text(RESULT)
    assert keyed.seen[-2:] == ["Bearer sk-wrong", f"Bearer {KEY}"]
    assert leaks(app) == {"html": False, "text": False, "values": False, "storage": False}

    fill_form(app, base_url=model_server.base_url, model="no-such-model", api_key="")
    app.click("[data-testid=settings-test]")
    expect(app.locator(RESULT)).to_have_attribute("data-outcome", "model_not_found", timeout=WAIT_MS)
    assert "test-model" in app.inner_text(RESULT)
    options = app.locator("#settings-models option")
    expect(options).to_have_count(1)
    assert options.first.get_attribute("value") == "test-model"

    fill_form(app, model="test-model")
    app.click("[data-testid=settings-test]")
    expect(app.locator(RESULT)).to_have_attribute("data-outcome", "ok", timeout=WAIT_MS)


def test_the_model_list_is_fetched_when_the_dialog_opens(app: Page, model_server: Any) -> None:
    model_server.models = ["test-model", "other-model"]
    open_settings(app)
    fill_form(app, base_url=model_server.base_url, model="test-model")
    app.click("[data-testid=settings-save]")
    options = app.locator("#settings-models option")
    expect(options).to_have_count(0)  # only the dialog fills this list
    open_settings(app)
    expect(options).to_have_count(2, timeout=WAIT_MS)
    assert [o.get_attribute("value") for o in options.all()] == ["test-model", "other-model"]
    assert app.locator(RESULT).inner_text() == ""  # listed quietly: no test result until asked


RECORD_SETTINGS = """
window.__settings = [];
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (message, ...rest) {
  if (message && message.type === "call" && message.method === "settings.apply") {
    window.__settings.push(message.args.settings);
  }
  return post.call(this, message, ...rest);
};
"""


def test_the_embedding_model_is_saved_and_sent(page: Page, origin: str) -> None:
    page.add_init_script(RECORD_SETTINGS)
    page.goto(f"{origin}/index.html")
    wait_ready(page)
    open_settings(page)
    field = page.locator("[data-testid=settings-embedding-model]")
    expect(page.locator("label", has=field)).to_contain_text("Embedding model (optional, for memory search)")
    field.fill("nomic-embed-text")
    page.click("[data-testid=settings-save]")
    assert page.evaluate("window.__settings.at(-1).embedding_model") == "nomic-embed-text"
    page.reload()
    wait_ready(page)
    assert page.evaluate("window.__settings[0].embedding_model") == "nomic-embed-text"
    open_settings(page)
    expect(field).to_have_value("nomic-embed-text")
