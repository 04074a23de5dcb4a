"""The demo model's scenarios, end to end: real engine, real tools, real workspace, seen through the UI.

Each test drives the chat with one of the phrases of py/agentlite/demo/ and checks what the contract's
test ids show (tool cards, approvals, restore-turn, the file tree) and what the workspace holds
(`window.agentlite.vfs`). Waits are generous; nothing measures time.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from playwright.sync_api import Locator, Page

from tests.e2e.conftest import open_app, send

WAIT_MS = 60_000
# Every retry notice's text as it appears (a notice goes once its retry answered).
RECORD_RETRY_NOTICES = """
window.__retryNotices = [];
new MutationObserver((records) => {
  for (const r of records) for (const node of r.addedNodes) {
    if (node.nodeType !== 1 || !node.matches('[data-testid=retry-notice]')) continue;
    window.__retryNotices.push(node.textContent);
  }
}).observe(document, {subtree: true, childList: true});
"""
FINAL = {"completed", "failed", "rejected"}

APP_TSX = (
    'import "./app.css";\n'
    "\n"
    "// Café menu ✓ — the first page.\n"
    "export default function App() {\n"
    "  return (\n"
    "    <main>\n"
    "      <h1>Old Title</h1>\n"
    "    </main>\n"
    "  );\n"
    "}\n"
)

PREVIEW_LENGTHS = """
window.__previewLengths = [];
new MutationObserver(() => {
  const p = document.querySelector('[data-testid=tool-card] [data-testid=tool-preview]');
  if (!p) return;
  const n = p.textContent.length;
  if (window.__previewLengths.at(-1) !== n) window.__previewLengths.push(n);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


# --- helpers --------------------------------------------------------------------------------------------


def vfs(page: Page, method: str, *args: Any) -> Any:
    """Call `window.agentlite.vfs.<method>(...args)` and return its awaited result."""
    return page.evaluate(f"(args) => window.agentlite.vfs.{method}(...args)", list(args))


def card(page: Page, tool: str, nth: int = 0) -> Locator:
    return page.locator(f"[data-testid=tool-card][data-tool={tool}]").nth(nth)


def wait_status(page: Page, target: Locator, statuses: set[str]) -> str:
    """Wait until the card's data-status is one of `statuses`; return it."""
    target.wait_for(state="attached", timeout=WAIT_MS)
    page.wait_for_function(
        "([el, wanted]) => wanted.includes(el.dataset.status)",
        arg=[target.element_handle(), sorted(statuses)],
        timeout=WAIT_MS,
    )
    return str(target.get_attribute("data-status"))


def wait_reply(page: Page, contains: str) -> Locator:
    """Wait until the last assistant message is done and its own text (its tool cards left out, since a
    card's result may hold the same words) contains `contains`; return it."""
    page.wait_for_function(
        """(text) => {
          const all = document.querySelectorAll('[data-testid=message][data-role=assistant]');
          const last = all[all.length - 1];
          if (!last || last.dataset.state !== 'done') return false;
          const own = [...last.children].filter((el) => !el.matches('[data-testid=tool-card]'));
          return own.some((el) => el.innerText.includes(text));
        }""",
        arg=contains,
        timeout=WAIT_MS,
    )
    return page.locator("[data-testid=message][data-role=assistant]").last


def wait_file(page: Page, path: str, expected: str | None) -> None:
    """Poll the workspace until `path` holds `expected` (None: absent)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    actual = vfs(page, "readText", path)
    while actual != expected and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        actual = vfs(page, "readText", path)
    assert actual == expected, f"{path} holds {actual!r}, expected {expected!r}"


# --- scenarios ------------------------------------------------------------------------------------------


def test_sum_of_primes_runs_js_and_answers(app: Page) -> None:
    send(app, "What is the sum of the primes below 1000?")
    js = card(app, "browser_js_eval")
    status = wait_status(app, js, {"awaiting-approval", *FINAL})
    if status == "awaiting-approval":
        js.locator("[data-testid=tool-approve]").click()
    assert wait_status(app, js, FINAL) == "completed"
    reply = wait_reply(app, "76127")
    assert reply.get_attribute("data-state") == "done"
    assert app.locator("[data-testid=error-banner]").count() == 0


def test_create_button_component(app: Page) -> None:
    send(app, "Create a Button component")
    assert wait_status(app, card(app, "create_file"), FINAL) == "completed"
    wait_reply(app, "Created /src/Button.tsx")
    content = vfs(app, "readText", "/src/Button.tsx")
    assert content and "export default function Button" in content
    app.locator("[data-testid=file-item][data-path='/src/Button.tsx']").wait_for(timeout=WAIT_MS)
    history = vfs(app, "history", "/src/Button.tsx")
    assert len(history) == 1, history
    assert history[0]["op"] == "create"
    assert history[0]["turn"], history


def test_list_read_edit_then_restore_turn(app: Page) -> None:
    vfs(app, "writeText", "/src/App.tsx", APP_TSX)
    assert vfs(app, "readText", "/src/App.tsx") == APP_TSX
    send(app, "Change the title of App.tsx to 'Hello Lite'")
    wait_status(app, card(app, "edit_file"), FINAL)
    wait_reply(app, "Done: the title")
    cards = app.locator("[data-testid=tool-card]")
    seen = [(c.get_attribute("data-tool"), c.get_attribute("data-status")) for c in cards.all()]
    assert seen == [
        ("list_directory", "completed"),
        ("read_file", "completed"),
        ("edit_file", "completed"),
    ]
    edited = vfs(app, "readText", "/src/App.tsx")
    assert "<h1>Hello Lite</h1>" in edited and "Old Title" not in edited
    assert edited == APP_TSX.replace("Old Title", "Hello Lite")

    history = vfs(app, "history", "/src/App.tsx")
    turn = history[-1]["turn"]
    assert turn, history
    app.on("dialog", lambda dialog: dialog.accept())
    restore = app.locator(f"[data-testid=restore-turn][data-turn='{turn}']")
    restore.wait_for(timeout=WAIT_MS)
    restore.click()
    wait_file(app, "/src/App.tsx", APP_TSX)


def ask_to_delete(app: Page, path: str, index: int, answer: str) -> Locator:
    """Ask the demo to delete `path`, wait for its approval prompt and click `answer`."""
    send(app, f"delete {path}")
    found = card(app, "delete_file", index)
    assert wait_status(app, found, {"awaiting-approval", *FINAL}) == "awaiting-approval"
    found.locator(f"[data-testid={answer}]").wait_for(timeout=WAIT_MS)
    found.locator(f"[data-testid={answer}]").click()
    return found


def test_delete_asks_then_rejected_then_approved(app: Page) -> None:
    path = "/docs/draft.md"
    vfs(app, "writeText", path, "# Draft\n\nto be removed\n")

    first = ask_to_delete(app, path, 0, answer="tool-reject")
    assert wait_status(app, first, FINAL) == "rejected"
    wait_reply(app, "I left")
    assert vfs(app, "readText", path) == "# Draft\n\nto be removed\n"
    assert first.locator("[data-testid=tool-approve]").count() == 0

    second = ask_to_delete(app, path, 1, answer="tool-approve")
    assert wait_status(app, second, FINAL) == "completed"
    wait_reply(app, "Deleted")
    assert vfs(app, "readText", path) is None
    ops = [entry["op"] for entry in vfs(app, "history", path)]
    assert "delete" in ops, ops
    assert app.locator("[data-testid=error-banner]").count() == 0


def test_long_file_previews_while_streaming_in_ndjson(page: Page, origin: str) -> None:
    open_app(page, origin, dialect="ndjson")
    page.evaluate(PREVIEW_LENGTHS)
    send(page, "write a long file")
    write = card(page, "create_file")
    assert wait_status(page, write, FINAL) == "completed"
    wait_reply(page, "Wrote /notes/long-notes.md")
    lengths = page.evaluate("window.__previewLengths")
    assert len(lengths) >= 4, f"the preview did not grow in steps: {lengths}"
    assert all(a < b for a, b in itertools.pairwise(lengths)), lengths
    previewed = write.locator("[data-testid=tool-preview]").text_content()
    content = vfs(page, "readText", "/notes/long-notes.md")
    assert content is not None and content.startswith("# Long notes")
    assert content.count("\n") >= 150
    assert previewed == content
    assert lengths[-1] == len(content)


def test_rate_limit_is_retried_into_one_reply(app: Page) -> None:
    app.evaluate(RECORD_RETRY_NOTICES)
    send(app, "rate limit")
    wait_reply(app, "rate limited once")
    assert [n[: len("Retrying")] for n in app.evaluate("window.__retryNotices")] == ["Retrying"]
    replies = app.locator("[data-testid=message][data-role=assistant]")
    assert replies.count() == 1
    assert replies.first.get_attribute("data-state") == "done"
    assert app.locator("[data-testid=error-banner]").count() == 0
    assert app.locator("[data-testid=message][data-role=user]").count() == 1
