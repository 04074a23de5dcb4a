"""The sandbox in Chromium: model-written JS, shell and Python run in a Worker of an opaque-origin iframe
that reaches no storage, no parent and no network, and whose runaway loop does not freeze the page.

The SandboxHost is driven directly through a harness page served at the app's own origin (the
worker -> page path is tested with the tools)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Response

from tests.e2e.conftest import pipe_console

HARNESS = "__sandbox_harness.html"
GUARD_MS = 150_000  # a harness-side bound on each run, so no evaluate can hang

HTML = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sandbox harness</title></head>
<body>
<script type="module">
import {{ SandboxHost }} from "./sandbox-host.js";
window.host = new SandboxHost();
window.ticks = 0;
(function tick() {{ window.ticks++; requestAnimationFrame(tick); }})();
window.windowMessages = 0;
addEventListener("message", () => window.windowMessages++);
// Never rejects: a result, or the error's name/type/message.
window.sbx = (kind, payload, timeoutMs) => {{
  const guard = new Promise((resolve) =>
    setTimeout(() => resolve({{ ok: false, type: "harness_guard", message: "no answer" }}), {GUARD_MS}));
  const run = window.host.run(kind, payload, timeoutMs).then(
    (result) => ({{ ok: true, result }}),
    (err) => ({{ ok: false, name: err.name, type: err.type, message: err.message }}));
  return Promise.race([run, guard]);
}};
window.harnessReady = true;
</script>
</body></html>
"""

PRIMES = """
let sum = 0;
for (let n = 2; n < 1000; n++) {
  let prime = true;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) { prime = false; break; }
  if (prime) sum += n;
}
sum
"""


@dataclass
class Traffic:
    requests: list[Request] = field(default_factory=list)
    failed: list[Request] = field(default_factory=list)
    responses: list[Response] = field(default_factory=list)

    def touching(self, marker: str) -> tuple[list[str], list[str], list[str]]:
        pick = lambda items: [i.url for i in items if marker in i.url]  # noqa: E731
        return pick(self.requests), pick(self.failed), pick(self.responses)


@dataclass
class Harness:
    page: Page
    origin: str
    traffic: Traffic

    def run(self, kind: str, payload: dict[str, Any], timeout_ms: int = 30_000) -> dict[str, Any]:
        outcome: dict[str, Any] = self.page.evaluate(
            "([kind, payload, timeout]) => window.sbx(kind, payload, timeout)", [kind, payload, timeout_ms]
        )
        assert outcome.get("type") != "harness_guard", f"the host never answered a {kind} run"
        return outcome

    def ok(self, kind: str, payload: dict[str, Any], timeout_ms: int = 30_000) -> dict[str, Any]:
        outcome = self.run(kind, payload, timeout_ms)
        assert outcome["ok"], f"{kind} run failed: {outcome}"
        result: dict[str, Any] = outcome["result"]
        return result

    def eval(self, code: str) -> dict[str, Any]:
        return self.ok("js", {"code": code})

    def shell(
        self, command: str, files: dict[str, str], cwd: str = "/", timeout_ms: int = 30_000
    ) -> dict[str, Any]:
        return self.ok("shell", {"command": command, "files": files, "cwd": cwd}, timeout_ms)


@pytest.fixture
def harness(page: Page, origin: str) -> Iterator[Harness]:
    traffic = Traffic()
    page.context.on("request", lambda request: traffic.requests.append(request))
    page.context.on("requestfailed", lambda request: traffic.failed.append(request))
    page.context.on("response", lambda response: traffic.responses.append(response))
    pipe_console(page)
    page.route(f"{origin}/{HARNESS}", lambda route: route.fulfill(content_type="text/html", body=HTML))
    page.goto(f"{origin}/{HARNESS}")
    page.wait_for_function("window.harnessReady === true", timeout=30_000)
    yield Harness(page, origin, traffic)


def test_eval_returns_the_last_value_console_lines_and_errors(harness: Harness) -> None:
    result = harness.eval("console.log('hello', {a: [1, 2]}); console.warn('careful'); ({x: 1, y: 'two'})")
    assert result["value"] == '{"x": 1, "y": "two"}'
    assert result["type"] == "object"
    assert result["error"] is None
    assert result["logs"] == [
        {"level": "log", "text": 'hello {"a": [1, 2]}'},
        {"level": "warn", "text": "careful"},
    ]

    assert harness.eval("let u; u")["value"] == "undefined"
    assert harness.eval("'text'")["value"] == '"text"'
    assert harness.eval("[1, 'a', null, undefined]")["value"] == '[1, "a", null, undefined]'
    # top-level await, and the value of the last expression after it
    awaited = harness.eval("const v = await new Promise((r) => setTimeout(() => r(21), 10));\nv * 2")
    assert awaited["value"] == "42"

    failed = harness.eval("console.error('before');\nnull.property")
    assert failed["value"] is None
    assert failed["error"]["name"] == "TypeError"
    assert "null" in failed["error"]["message"]
    assert failed["error"]["line"] == "code:2:6"
    assert failed["logs"] == [{"level": "error", "text": "before"}]

    syntax = harness.eval("const ok = 1;\nlet broken = ;")
    assert syntax["error"]["name"] == "SyntaxError"
    assert syntax["error"]["line"] == "code:2:14"

    thrown = harness.eval("throw new RangeError('out of range')")
    assert thrown["error"]["name"] == "RangeError"
    assert thrown["error"]["message"] == "out of range"


def test_the_sum_of_the_primes_below_1000_is_76127(harness: Harness) -> None:
    result = harness.eval(PRIMES)
    assert result["value"] == "76127"
    assert result["type"] == "number"


def test_eval_has_its_own_dom(harness: Harness) -> None:
    code = "document.body.innerHTML = '<ul><li>a</li><li>b</li></ul>'; document.querySelectorAll('li').length"
    assert harness.eval(code)["value"] == "2"
    # and the page's own document is untouched
    assert harness.page.evaluate("document.querySelectorAll('li').length") == 0


def test_eval_output_is_capped_with_a_marker(harness: Harness) -> None:
    limit = 64 * 1024
    big = harness.eval("'x'.repeat(200000)")
    value = big["value"]
    assert value.startswith('"' + "x" * 1000)
    head, marker = value.rsplit("\n", 1)
    assert len(value.encode()) <= limit and set(head[1:]) == {"x"}  # the marker fits in the limit
    assert marker == f"[output truncated: {200002 - len(head)} more bytes]"  # the quotes count too

    chatty = harness.eval("for (let i = 0; i < 20000; i++) console.log('line ' + i); 'done'")
    logs = chatty["logs"]
    assert chatty["value"] == '"done"'
    assert logs[0] == {"level": "log", "text": "line 0"}
    assert logs[-1] == {"level": "info", "text": "[console output truncated]"}
    assert 1000 < len(logs) < 20000
    assert [entry["text"] for entry in logs[:-1]] == [f"line {i}" for i in range(len(logs) - 1)]
    assert sum(len(entry["text"]) + 1 for entry in logs[:-1]) <= limit


def test_the_frame_is_sandboxed_with_allow_scripts_only(harness: Harness) -> None:
    harness.eval("1")
    frame = harness.page.locator("iframe[data-sandbox=js]")
    assert frame.get_attribute("sandbox") == "allow-scripts"
    assert harness.eval("origin")["value"] == '"null"'


def test_eval_reaches_no_storage_no_parent_and_no_network(harness: Harness) -> None:
    origin = harness.origin
    blocked = {
        "localStorage": "localStorage.setItem('k', 'v')",
        "indexedDB": "indexedDB.open('agentlite')",
        "parent": "parent.document.title",
        "top": "top.location.href",
        "fetch": f"await fetch('{origin}/index.html?probe=fetch')",
        "fetch-relative": "await fetch('/pyodide/agentlite-lock.json?probe=relative')",
        "importScripts": f"importScripts('{origin}/start.js?probe=import-scripts')",
        "import": f"await import('{origin}/start.js?probe=import')",
    }
    for name, code in blocked.items():
        result = harness.eval(code)
        assert result["error"] is not None, f"{name} was reachable: {result}"

    # The document of the code is not rendered: an image it makes is never fetched.
    image = harness.eval(
        f"const img = new Image(); img.src = '{origin}/styles.css?probe=image'; img.outerHTML"
    )
    assert image["error"] is None and "probe=image" in image["value"]

    harness.page.wait_for_timeout(200)  # let any late network event arrive
    requests, failed, responses = harness.traffic.touching("probe=")
    assert responses == [], f"a sandboxed request reached the server: {responses}"
    assert sorted(requests) == sorted(failed), "every request the frame tried was refused by the browser"


def test_messages_from_anything_but_the_channel_are_ignored(harness: Harness) -> None:
    harness.eval("1")
    page = harness.page
    # A forged result posted to the page's window while a run is waiting does nothing.
    page.evaluate(
        "window.pendingDone = false;"
        "window.pending = window.sbx('js', {code: 'await new Promise(r => setTimeout(r, 1500)); 7'})"
        ".then((outcome) => { window.pendingDone = true; return outcome; });"
        "null"
    )
    page.evaluate(
        "for (let id = 0; id < 50; id++) window.postMessage("
        "{type: 'result', id, ok: true, result: {value: 'forged', logs: []}}, '*')"
    )
    page.wait_for_function("window.windowMessages >= 50")
    assert page.evaluate("window.pendingDone") is False  # the forgeries came while the run was waiting
    assert page.evaluate("window.pending")["result"]["value"] == "7"
    # Code in the sandbox cannot even name the page's window: it runs in a Worker of the frame.
    reach = harness.eval("[typeof parent, typeof top, typeof opener, typeof frameElement].join(' ')")
    assert reach["value"] == '"undefined undefined undefined undefined"'
    # A second boot message to the frame (a new port, another runtime) is not taken.
    page.evaluate(
        """() => {
        const channel = new MessageChannel();
        const runtime = "export function start(port) { port.postMessage({type: 'ready'}); }";
        document.querySelector('iframe[data-sandbox=js]').contentWindow.postMessage(
          {type: 'agentlite-sandbox-boot', runtime}, '*', [channel.port2]);
      }"""
    )
    assert harness.eval("6 * 7")["value"] == "42"


def test_a_runaway_loop_times_out_without_freezing_the_page(harness: Harness) -> None:
    page = harness.page
    harness.eval("1")  # the frame is up, so the timeout measures the loop only
    page.evaluate(
        "window.loopDone = false;"
        "window.looping = window.sbx('js', {code: 'while (true) {}'}, 3000)"
        ".then((outcome) => { window.loopDone = true; return outcome; });"
        "null"  # do not wait for the run here
    )
    start = page.evaluate("window.ticks")
    # The page keeps painting while the loop still runs (the frame has its own process).
    page.wait_for_function(f"window.ticks > {start} + 5 && !window.loopDone", timeout=30_000)
    outcome = page.evaluate("window.looping")
    assert outcome["ok"] is False
    assert outcome["name"] == "SandboxError"
    assert outcome["type"] == "timeout"
    assert page.locator("iframe[data-sandbox=js]").count() == 0  # the watchdog removed the frame
    # the next run gets a new frame and works
    assert harness.eval(PRIMES)["value"] == "76127"
    assert page.locator("iframe[data-sandbox=js]").count() == 1


WORKSPACE = {
    "/README.md": "# Demo\nhello from the readme\n",
    "/src/app.py": "def greet():\n    return 'hello'\n",
    "/src/notes.txt": "alpha\nbeta\ngamma hello\n",
    "/data/numbers.txt": "3\n4\n5\n",
}


def test_the_shell_runs_commands_over_the_given_files(harness: Harness) -> None:
    listing = harness.shell("ls /src && ls", WORKSPACE)
    assert listing["exit_code"] == 0
    assert listing["stdout"].startswith("app.py\nnotes.txt\n")
    assert "README.md" in listing["stdout"] and "data" in listing["stdout"]
    assert listing["changed"] == {} and listing["deleted"] == []

    grep = harness.shell("grep -rn hello . | sort", WORKSPACE)
    assert grep["stdout"].splitlines() == [
        "README.md:2:hello from the readme",
        "src/app.py:2:    return 'hello'",
        "src/notes.txt:3:gamma hello",
    ]

    edit = harness.shell(
        "cat data/numbers.txt | awk '{s += $1} END {print s}' > /data/sum.txt"
        " && sed -i 's/alpha/ALPHA/' src/notes.txt && rm README.md && echo done",
        WORKSPACE,
    )
    assert edit["stdout"] == "done\n"
    assert edit["exit_code"] == 0
    assert edit["changed"] == {"/data/sum.txt": "12\n", "/src/notes.txt": "ALPHA\nbeta\ngamma hello\n"}
    assert edit["deleted"] == ["/README.md"]

    folders = harness.ok(
        "shell",
        {"command": "mkdir -p new/inner && rmdir old", "files": WORKSPACE, "dirs": ["/old", "/empty"]},
    )
    assert folders["created_dirs"] == ["/new", "/new/inner"]
    assert folders["deleted_dirs"] == ["/old"]
    assert folders["changed"] == {} and folders["deleted"] == []

    failing = harness.shell("cat /missing.txt; echo after >&2; exit 3", WORKSPACE, cwd="/src")
    assert failing["exit_code"] == 3
    assert "missing.txt" in failing["stderr"] and "after" in failing["stderr"]

    where = harness.shell("pwd && jq '.a' /cfg.json", {"/cfg.json": '{"a": [1, 2]}'}, cwd="/src")
    assert where["stdout"] == "/src\n[\n  1,\n  2\n]\n"


def test_shell_output_is_capped_per_stream(harness: Harness) -> None:
    result = harness.shell("seq 1 40000", {})
    assert result["exit_code"] == 0
    assert len(result["stdout"].encode()) <= 64 * 1024 + 100
    assert result["stdout"].startswith("1\n2\n3\n")
    assert "[output truncated:" in result["stdout"]


REPORT_PY = """\
import json
import sys
from pathlib import Path

numbers = [int(n) for n in Path("data/numbers.txt").read_text().split()]
Path("data/report.json").write_text(json.dumps({"sum": sum(numbers), "args": sys.argv[1:]}))
print("total", sum(numbers))
"""


def test_python_in_the_shell_reads_given_files_and_writes_others(harness: Harness) -> None:
    files = {**WORKSPACE, "/tools/report.py": REPORT_PY}
    result = harness.shell("python tools/report.py --fast && cat data/report.json", files, timeout_ms=60_000)
    assert result["exit_code"] == 0, result["stderr"]
    assert result["stdout"].splitlines()[0] == "total 12"
    assert result["changed"] == {"/data/report.json": json.dumps({"sum": 12, "args": ["--fast"]})}

    # python3 -c, a deletion, a traceback and its exit code
    second = harness.shell(
        "python3 -c \"import os; os.remove('/data/numbers.txt'); print(os.listdir('/data'))\";"
        " python -c '1/0'; echo rc=$?",
        {"/data/numbers.txt": "1\n"},
    )
    assert second["stdout"] == "[]\nrc=1\n"
    assert "ZeroDivisionError" in second["stderr"]
    assert second["deleted"] == ["/data/numbers.txt"]
    assert second["changed"] == {}

    # the "python" kind runs code directly; files of earlier runs are gone
    direct = harness.ok(
        "python",
        {
            "code": "import os; print(open('/a.txt').read().upper(), os.path.exists('/tools'))",
            "files": {"/a.txt": "abc"},
        },
    )
    assert direct["stdout"] == "ABC False\n"
    assert direct["exit_code"] == 0

    # pip installs with micropip, from the wheels shipped with the app; nothing else: no network
    assert "micropip" not in harness.shell("pip list", {})["stdout"]
    pip = harness.shell(
        "pip install pydantic && python -c 'import pydantic; print(pydantic.VERSION)' && pip list", {}
    )
    assert pip["exit_code"] == 0, pip["stderr"]
    lines = pip["stdout"].splitlines()
    assert lines[0] == "Installing with micropip from the wheels shipped with the app (offline)"
    assert lines[1].startswith("Successfully installed ") and "pydantic-2.14.3" in lines[1].split()
    assert lines[2] == "2.14.3"
    listed = {line.split()[0] for line in lines[3:]}
    assert {"micropip", "pydantic", "pydantic-core"} <= listed  # micropip did the install
    again = harness.shell("pip install pydantic", {})
    assert again["stdout"].splitlines()[1] == "Requirement already satisfied: pydantic"
    unknown = harness.shell("pip install left-pad", {})
    assert unknown["exit_code"] == 1 and unknown["stdout"] == ""
    assert unknown["stderr"].startswith("ERROR: cannot install left-pad: The sandbox has no network access")
    assert "pydantic" in unknown["stderr"]  # what can be installed
    assert [r.url for r in harness.traffic.requests if "pypi" in r.url or "pythonhosted" in r.url] == []

    # a runaway Python loop is stopped like any other code, and the next run works
    stuck = harness.run("shell", {"command": "python -c 'while True: pass'", "files": {}}, 3_000)
    assert stuck["ok"] is False
    assert stuck["type"] == "timeout"
    assert harness.shell("echo again", {})["stdout"] == "again\n"


def test_with_its_own_deadline_python_stops_itself_before_the_watchdog(harness: Harness) -> None:
    # What WebKit gets (docs/execution.md, "The watchdog"), forced on here: the loop ends inside Python,
    # so the run fails as a timeout while its frame (and its Pyodide) stays.
    page = harness.page
    page.evaluate("window.host.options.pythonDeadline = true")
    assert harness.ok("python", {"code": "print(6 * 7)", "files": {}}, 120_000)["stdout"] == "42\n"
    loops = {
        "python": {"code": "try:\n    while True: pass\nexcept Exception:\n    print('caught')", "files": {}},
        "shell": {"command": "python3 -c 'while True: pass'; echo after", "files": {}},
    }
    for kind, payload in loops.items():
        stuck = harness.run(kind, payload, 10_000)
        assert (stuck["ok"], stuck["type"]) == (False, "timeout"), stuck
        assert stuck["message"] == "the code ran longer than 10.0 s and was stopped"
        assert page.locator("iframe[data-sandbox=shell]").count() == 1, "the watchdog ended it, not Python"
    # the same Pyodide runs the next code, unguarded tight loops included
    page.evaluate("window.host.options.pythonDeadline = false")
    after = harness.ok("python", {"code": "print(sum(i for i in range(10**5)))", "files": {}}, 10_000)
    assert after["stdout"] == "4999950000\n"
