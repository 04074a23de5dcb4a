"""What a previewed page asks for at run time resolves as a browser opening the folder would
(docs/preview.md, "What resolves"): XMLHttpRequest of workspace files, `new URL(x, import.meta.url)` for
fetch, XHR, images, a worker and import(), page-relative fetch and images from a module in a subfolder,
`url()` in a stylesheet of a subfolder; the network stays blocked and says so in the console pane."""

from __future__ import annotations

import json

from playwright.sync_api import Page

from tests.e2e.conftest import open_app
from tests.e2e.test_preview import WAIT_MS, frame_of, logs, wait_log, write_files

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="10"><rect width="{w}" height="10"/></svg>'

MAIN = """const results = (window.results = {});
const put = (name, value) => (results[name] = value);
function xhr(url, type = "", how = "onload") {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    const states = [];
    request.onreadystatechange = () => states.push(request.readyState);
    request.open("GET", url);
    request.responseType = type;
    const done = (event) => resolve({ status: request.status, response: event.target.response, states });
    if (how === "onload") request.onload = done;
    else request.addEventListener("load", done);
    request.onerror = () => resolve({ status: "error", states });
    request.send();
  });
}
const image = (src, set) =>
  new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(img.naturalWidth);
    img.onerror = () => resolve("error");
    set(img, src);
  });

put("meta", import.meta.url);
const text = await xhr("data/items.json");
put("xhrText", [text.status, text.response, text.states.join(",")]);
const json = await xhr("/data/items.json", "json", "listener");
put("xhrJson", [json.status, json.response.items]);
const buffer = await xhr("pics/a.svg", "arraybuffer");
put("xhrBuffer", [buffer.status, buffer.response.byteLength]);
const blob = await xhr(new URL("./local.json", import.meta.url), "blob");
put("xhrBlob", [blob.status, blob.response.type, await blob.response.text()]);
const missing = await xhr("data/none.json");
put("xhrMissing", [missing.status, missing.response]);
put("xhrNetwork", (await xhr("https://example.com/x.json")).status);
const sync = new XMLHttpRequest();
sync.open("GET", "data/items.json", false);
sync.send();
put("xhrSync", [sync.status, sync.readyState, JSON.parse(sync.responseText).items.length]);
const local = new XMLHttpRequest();
local.open("GET", URL.createObjectURL(new Blob(["made here"])), false);
local.send();
put("xhrSyncBlob", [local.status, local.responseText]);
const away = new XMLHttpRequest();
away.open("GET", "https://example.com/sync", false);
try {
  away.send();
  put("xhrSyncNetwork", "answered");
} catch (err) {
  put("xhrSyncNetwork", [err.name, away.readyState, away.status]);
}

put("fetchMeta", await (await fetch(new URL("./local.json", import.meta.url))).json());
put("fetchPage", (await (await fetch("data/items.json")).json()).items);
put("fetchBase", (await (await fetch(new URL("data/items.json", document.baseURI))).json()).items);
put("baseURI", document.baseURI);
put("imgMeta", await image(new URL("../../pics/b.svg", import.meta.url), (img, src) => (img.src = src)));
put("imgPage", await image("pics/a.svg", (img, src) => (img.src = src)));
put("imgAttribute", await image("/pics/b.svg", (img, src) => img.setAttribute("src", src)));
put("imgMissing", await image("pics/none.png", (img, src) => (img.src = src)));
const sheet = document.createElement("link");
sheet.rel = "stylesheet";
sheet.href = "styles/extra.css";
await new Promise((resolve) => {
  sheet.onload = sheet.onerror = resolve;
  document.head.append(sheet);
});
put("cssLink", getComputedStyle(document.getElementById("out")).color);
const sound = new Audio(new URL("../../sounds/a.wav", import.meta.url));
put("audio", [sound instanceof Audio, sound instanceof HTMLAudioElement, sound.src.slice(0, 5)]);
const holder = document.createElement("div");
document.body.append(holder);
holder.innerHTML = '<img id="inner" src="pics/a.svg"><a id="away" href="other.html">other</a>';
await new Promise((resolve) => setTimeout(resolve, 0));
const inner = document.getElementById("inner");
put("imgInner", await inner.decode().then(() => inner.naturalWidth, () => "error"));
put("linkInner", document.getElementById("away").getAttribute("href"));
const lazy = await import(new URL("./lazy.js", import.meta.url).href);
put("importMeta", lazy.default);
const name = "lazy";
put("importComputed", (await import("./" + name + ".js")).default);
put("css", getComputedStyle(document.getElementById("bg")).backgroundImage.slice(0, 10));
try {
  const worker = new Worker(new URL("./worker.js", import.meta.url));
  put("worker", await new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => resolve("error: " + event.message);
    worker.postMessage(21);
  }));
} catch (err) {
  put("worker", "throws: " + err.message);
}
document.getElementById("out").textContent = "done";
"""

PAGE = {
    "/index.html": (
        '<!doctype html><html><head><title>Resolve</title><link rel="stylesheet" href="styles/main.css">'
        '</head><body><div id="bg"></div><p id="out"></p>'
        '<script type="module" src="src/app/main.js"></script></body></html>'
    ),
    "/styles/main.css": "#bg { width: 20px; height: 10px; background-image: url(../pics/a.svg); }\n",
    "/styles/extra.css": "#out { color: rgb(0, 128, 0); }\n",
    "/pics/a.svg": SVG.format(w=40),
    "/sounds/a.wav": "RIFF",  # never played: only where its element points
    "/pics/b.svg": SVG.format(w=30),
    "/data/items.json": '{"items": ["a", "b", "c"]}',
    "/src/app/main.js": MAIN,
    "/src/app/local.json": '{"here": "src/app"}',
    "/src/app/lazy.js": 'import { dep } from "./dep";\nexport default "lazy " + dep;\n',
    "/src/app/dep.js": "export const dep = 7;\n",
    "/src/app/worker.js": "onmessage = (event) => postMessage(event.data * 2);\n",
}


def test_run_time_urls_resolve_to_workspace_files(page: Page, origin: str) -> None:
    open_app(page, origin)
    write_files(page, PAGE)
    page.click("[data-testid=preview-open]")
    frame = frame_of(page)
    frame.wait_for_function("document.getElementById('out').textContent === 'done'", timeout=WAIT_MS)
    results = frame.evaluate("window.results")
    print(json.dumps(results, indent=1))
    assert results["meta"] == "agentlite-ws:/src/app/main.js"
    assert results["xhrText"] == [200, '{"items": ["a", "b", "c"]}', "1,2,3,4"]
    assert results["xhrJson"] == [200, ["a", "b", "c"]]
    assert results["xhrBuffer"] == [200, len(PAGE["/pics/a.svg"])]
    assert results["xhrBlob"] == [200, "application/json", '{"here": "src/app"}']
    assert results["xhrMissing"] == [404, "not found: /data/none.json"]
    assert results["xhrNetwork"] == "error"
    assert results["xhrSync"] == [200, 4, 3]
    assert results["xhrSyncBlob"] == [200, "made here"]
    assert results["xhrSyncNetwork"] == ["NetworkError", 4, 0]
    assert results["fetchMeta"] == {"here": "src/app"}
    assert results["fetchPage"] == ["a", "b", "c"]  # against the page, not the module's folder
    assert results["fetchBase"] == ["a", "b", "c"]
    assert results["baseURI"] == "agentlite-ws:/index.html"
    assert results["imgMeta"] == 30
    assert results["imgPage"] == 40
    assert results["imgAttribute"] == 30
    assert results["imgMissing"] == "error"
    assert results["audio"] == [True, True, "blob:"]
    assert results["imgInner"] == 40  # from HTML the page inserted; its first, blocked try is not logged
    assert results["linkInner"] == "other.html"  # links stay for the preview's navigation
    assert results["importMeta"] == "lazy 7"
    assert results["importComputed"] == "lazy 7"
    assert results["css"] == 'url("blob:'
    assert results["cssLink"] == "rgb(0, 128, 0)"  # a stylesheet the page links at run time
    assert results["worker"] == 42
    wait_log(page, "Blocked: XMLHttpRequest(https://example.com/x.json): the preview has no network")
    wait_log(page, "Blocked: XMLHttpRequest(https://example.com/sync): the preview has no network")
    wait_log(page, "Not found: /pics/none.png (<img>)")
    errors = [text for level, text in logs(page) if level == "error"]
    assert len(errors) == 3, errors
