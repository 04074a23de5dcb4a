"""The Preview panel (docs/preview.md, contract §7): a workspace page as a browser opens it from a folder,
offline, in an opaque-origin frame; TypeScript/React pages; reload on every write; the console pane;
preview_page for the agent; browser_js_eval importing workspace modules."""

from __future__ import annotations

from playwright.sync_api import Frame, Page

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import open_app, send
from tests.e2e.scripted_support import approve_through, start, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import card

WAIT_MS = 30_000

VANILLA = {
    "/index.html": """<!doctype html>
<html><head><title>Vanilla page</title>
<link rel="stylesheet" href="css/site.css">
<script src="js/classic.js"></script>
<script type="module" src="./js/main.js"></script>
</head>
<body>
<h1 id="title">Hello preview</h1>
<img id="logo" src="img/logo.svg" alt="logo">
<p id="classic"></p><p id="module"></p><p id="data"></p><p id="store"></p>
<script>
console.info("inline says hi");
</script>
</body></html>
""",
    "/css/site.css": "h1 { color: rgb(255, 0, 0); }\nbody { background: url(../img/logo.svg) no-repeat; }\n",
    "/img/logo.svg": (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30"/></svg>'
    ),
    "/js/classic.js": "window.classicRan = 'classic ok';\n",
    "/js/main.js": (
        'import { shout } from "../lib/text.js";\n'
        'import { twice } from "/lib/math.js";\n'
        'document.getElementById("classic").textContent = window.classicRan;\n'
        'document.getElementById("module").textContent = shout("module") + " " + twice(21);\n'
        'const data = await (await fetch("data/items.json")).json();\n'
        'document.getElementById("data").textContent = data.items.join(",");\n'
        'localStorage.setItem("visits", String(Number(localStorage.getItem("visits") || 0) + 1));\n'
        'sessionStorage.setItem("s", "1");\n'
        'document.getElementById("store").textContent = "visits " + localStorage.getItem("visits");\n'
        'console.log("main loaded", 42);\n'
        'console.warn("careful");\n'
        'fetch("https://example.com/x").catch(() => {});\n'
        "setTimeout(() => { null.boom; }, 0);\n"
    ),
    "/lib/text.js": 'export const shout = (s) => s.toUpperCase() + "!";\n',
    "/lib/math.js": 'import { one } from "./one.js";\nexport const twice = (n) => n * 2 + one - 1;\n',
    "/lib/one.js": "export const one = 1;\n",
    "/data/items.json": '{"items": ["a", "b", "c"]}',
}

# browser_js_eval: /lib/math.js imports ./one.js; /lib/text.js is found by its absolute path too.
IMPORTING = (
    'const { twice } = await import("/lib/math.js");\n'
    'const { shout } = await import("/lib/text.js");\n'
    '`${twice(21)} ${shout("module")}`'
)

TSX = {
    "/index.html": (
        '<!doctype html><html><head><title>TSX app</title></head><body><div id="root"></div>'
        '<script type="module" src="/src/main.tsx"></script></body></html>'
    ),
    "/src/main.tsx": (
        'import { createRoot } from "react-dom/client";\n'
        'import App from "./App";\n'
        'createRoot(document.getElementById("root")!).render(<App title="Counter" />);\n'
    ),
    "/src/App.tsx": (
        'import { useState } from "react";\n'
        'import { Button } from "./components/Button.tsx";\n'
        'import { label } from "./label.ts";\n'
        "interface Props { title: string }\n"
        "export default function App({ title }: Props) {\n"
        "  const [count, setCount] = useState<number>(0);\n"
        '  return (<main><h1>{title}</h1><p id="count">{label(count)}</p>'
        "<Button onClick={() => setCount((c) => c + 1)} /></main>);\n"
        "}\n"
    ),
    "/src/components/Button.tsx": (
        "type P = { onClick: () => void };\n"
        "export function Button({ onClick }: P) {\n"
        '  return <button id="inc" onClick={onClick}>more</button>;\n'
        "}\n"
    ),
    "/src/label.ts": "export const label = (n: number): string => `count is ${n}`;\n",
}


def write_files(page: Page, files: dict[str, str]) -> None:
    page.evaluate(
        "async (files) => { for (const [p, t] of Object.entries(files))"
        " await window.agentlite.vfs.writeText(p, t); }",
        files,
    )


def frame_of(page: Page) -> Frame:
    handle = page.wait_for_selector("[data-testid=preview-frame][data-state=ready]", timeout=WAIT_MS)
    assert handle is not None
    frame = handle.content_frame()
    assert frame is not None
    return frame


def revision(page: Page) -> int:
    return int(page.get_attribute("[data-testid=preview-frame]", "data-revision") or "0")


def logs(page: Page) -> list[tuple[str, str]]:
    items = page.locator("[data-testid=preview-console] [data-testid=preview-log]")
    return [(str(i.get_attribute("data-level")), i.inner_text()) for i in items.all()]


def wait_revision_after(page: Page, before: int) -> None:
    page.wait_for_function(
        "(n) => Number(document.querySelector('[data-testid=preview-frame]')?.dataset.revision) > n",
        arg=before,
        timeout=WAIT_MS,
    )


def wait_log(page: Page, needle: str) -> None:
    page.wait_for_function(
        """(needle) => [...document.querySelectorAll('[data-testid=preview-log]')]
              .some((e) => e.textContent.includes(needle))""",
        arg=needle,
        timeout=WAIT_MS,
    )


def test_vanilla_page_scripts_css_images_fetch_storage_console(page: Page, origin: str) -> None:
    open_app(page, origin)
    write_files(page, VANILLA)
    page.click("[data-testid=preview-open]")
    frame = frame_of(page)
    assert page.get_attribute("[data-testid=preview-frame]", "data-entry") == "/index.html"
    assert page.input_value("[data-testid=preview-entry]") == "/index.html"
    frame.wait_for_function("document.getElementById('store').textContent !== ''", timeout=WAIT_MS)
    assert frame.inner_text("#classic") == "classic ok"
    assert frame.inner_text("#module") == "MODULE! 42"
    assert frame.inner_text("#data") == "a,b,c"
    assert frame.inner_text("#store") == "visits 1"
    assert frame.evaluate("getComputedStyle(document.querySelector('h1')).color") == "rgb(255, 0, 0)"
    assert frame.evaluate("document.getElementById('logo').naturalWidth") == 40
    assert frame.evaluate("self.origin") == "null"
    wait_log(page, "Cannot read properties of null")
    wait_log(page, "Blocked: fetch(https://example.com/x)")
    lines = logs(page)
    assert ("log", "main loaded 42") in lines
    assert ("warn", "careful") in lines
    assert ("info", "inline says hi") in lines
    errors = [text for level, text in lines if level == "error"]
    assert any("/js/main.js:13" in text for text in errors), errors

    # A write reloads the open preview by itself; its own localStorage survives the reload.
    before = revision(page)
    write_files(page, {"/lib/text.js": 'export const shout = (s) => s + "?";\n'})
    wait_revision_after(page, before)
    frame = frame_of(page)
    frame.wait_for_function("document.getElementById('store').textContent !== ''", timeout=WAIT_MS)
    assert frame.inner_text("#module") == "module? 42"
    assert frame.inner_text("#store") == "visits 2"
    assert page.evaluate("localStorage.getItem('visits')") is None  # the app's storage is untouched


def test_tsx_react_page(page: Page, origin: str) -> None:
    open_app(page, origin)
    write_files(page, TSX)
    page.click("[data-testid=preview-open]")
    frame = frame_of(page)
    frame.wait_for_selector("#count", timeout=WAIT_MS)
    assert frame.inner_text("h1") == "Counter"
    assert frame.inner_text("#count") == "count is 0"
    frame.click("#inc")
    frame.wait_for_function("document.getElementById('count').textContent === 'count is 1'", timeout=WAIT_MS)
    assert frame.title() == "TSX app"
    assert not [text for level, text in logs(page) if level == "error"]


def test_reload_button_and_entry_choice(page: Page, origin: str) -> None:
    open_app(page, origin)
    write_files(
        page, {"/a.html": "<title>A</title><p>page a</p>", "/b.html": "<title>B</title><p>page b</p>"}
    )
    page.click("[data-testid=preview-open]")
    frame = frame_of(page)
    assert page.input_value("[data-testid=preview-entry]") == "/a.html"
    assert frame.inner_text("p") == "page a"
    first = revision(page)
    page.click("[data-testid=preview-reload]")
    wait_revision_after(page, first)
    page.select_option("[data-testid=preview-entry]", "/b.html")
    page.wait_for_selector(
        "[data-testid=preview-frame][data-entry='/b.html'][data-state=ready]", timeout=WAIT_MS
    )
    assert frame_of(page).inner_text("p") == "page b"


def test_preview_page_tool_and_js_eval_imports_workspace_modules(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(chunks=tool_call_chunks(("preview_page", {"path": "/index.html"}))),
        Scripted(chunks=tool_call_chunks(("browser_js_eval", {"code": IMPORTING}))),
        Scripted(chunks=text_chunks("Looked at it.")),
    )
    start(page, origin, model_server)
    write_files(page, VANILLA)
    send(page, "check the page")
    assert approve_through(page, card(page, "preview_page")) == "completed"
    assert approve_through(page, card(page, "browser_js_eval")) == "completed"
    wait_idle(page)
    shown, evaluated = tool_results(model_server)
    assert "preview of /index.html: ready" in shown
    assert "title: Vanilla page" in shown
    assert "Hello preview" in shown and "MODULE! 42" in shown
    assert "[log] main loaded 42" in shown
    assert "uncaught errors (1)" in shown and "/js/main.js:13" in shown
    assert page.get_attribute("[data-testid=preview-frame]", "data-state") == "ready"
    assert '"42 MODULE!"' in evaluated, evaluated


def test_console_lines_read_as_the_sandbox_prints_them(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    """The preview's console and preview_page's report format values as browser_js_eval does (one
    formatter, frames/common/repr.js): a Map with its size and entries, not `{}`."""
    model_server.script(
        Scripted(chunks=tool_call_chunks(("preview_page", {"path": "/index.html"}))),
        Scripted(chunks=text_chunks("Looked at it.")),
    )
    start(page, origin, model_server)
    write_files(
        page, {"/index.html": "<title>Values</title><script>console.log(new Map([[1, 2]]));</script>"}
    )
    send(page, "check the page")
    assert approve_through(page, card(page, "preview_page")) == "completed"
    wait_idle(page)
    (shown,) = tool_results(model_server)
    assert "[log] Map(1) {1: 2}" in shown, shown
    wait_log(page, "Map(1)")  # preview_page opened the panel
    assert ("log", "Map(1) {1: 2}") in logs(page)
