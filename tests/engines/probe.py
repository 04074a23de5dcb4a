"""In-page probes for the engine suite: short scripts, each bounded, that read the page or start work in
it; long waits poll (never one script that waits for minutes). Shared by every engine."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from tests.engines.drivers import Engine, EngineTimeout

POLL_S = 0.25
# Warnings the page logs after `ready` (a call the worker refused, a restart), kept for `story`.
KEEP_WARNINGS = (
    "(() => { if (window.keptWarnings) return true; const kept = (window.keptWarnings = []);"
    " const say = (args) => kept.push(args.map((a) => (a && a.message ? `${a.message}` : String(a)))"
    ".join(' ').slice(0, 500));"
    " for (const level of ['warn', 'error']) { const log = console[level].bind(console);"
    " console[level] = (...args) => { say([level, ...args]); log(...args); }; }"
    " addEventListener('error', (e) => say(['uncaught', e.message]));"
    " addEventListener('unhandledrejection', (e) => say(['unhandled', e.reason]));"
    " return true; })()"
)
STORY = (
    "(() => { const app = document.querySelector('[data-testid=app]');"
    " const text = (e) => (e.innerText || '').trim().slice(0, 300);"
    " return { state: app && app.dataset.state, warnings: window.keptWarnings || [],"
    " notices: [...document.querySelectorAll('[role=alert], [role=status]')].map(text).filter(Boolean),"
    " messages: [...document.querySelectorAll('[data-testid=message]')].slice(-4)"
    ".map((m) => ({ role: m.dataset.role, state: m.dataset.state, text: text(m) })),"
    " cards: [...document.querySelectorAll('[data-testid=tool-card]')]"
    ".map((c) => `${c.dataset.tool}:${c.dataset.status}`) }; })()"
)
READY_S = 180.0  # Pyodide's first start in a slow engine on a loaded 2-core machine
ANSWER_WITHIN_S = 180.0  # the answer to a tool's result: 60 s was once too short under load


@dataclass
class Probe:
    engine: Engine
    origin: str

    def open(self, path: str) -> None:
        self.engine.goto(f"{self.origin}/{path}", timeout_s=120.0)

    def value(self, expression: str, timeout_s: float = 20.0) -> Any:
        return self.engine.eval(expression, timeout_s)

    def wait_for(self, expression: str, timeout_s: float, what: str) -> Any:
        """Poll `expression` until it is truthy; its value. Each poll is bounded on its own."""
        deadline = time.monotonic() + timeout_s
        last: Any = None
        while time.monotonic() < deadline:
            last = self.value(expression)
            if last:
                return last
            time.sleep(POLL_S)
        raise EngineTimeout(f"{self.engine.name}: {what} not within {timeout_s:.0f} s (last: {last!r})")

    # The sandbox harness (tests/engines/harness.py)

    def start_run(self, name: str, kind: str, payload: dict[str, Any], timeout_ms: int = 30_000) -> None:
        args = ", ".join(json.dumps(a) for a in (name, kind, payload, timeout_ms))
        self.value(f"window.startRun({args})")

    def outcome(self, name: str, timeout_s: float = 200.0) -> dict[str, Any]:
        found: dict[str, Any] = self.wait_for(f"window.runs[{json.dumps(name)}]", timeout_s, f"run {name}")
        assert found.get("type") != "harness_guard", f"the host never answered run {name}"
        return found

    def ok(self, name: str, kind: str, payload: dict[str, Any], timeout_ms: int = 30_000) -> dict[str, Any]:
        self.start_run(name, kind, payload, timeout_ms)
        found = self.outcome(name)
        assert found["ok"], f"{self.engine.name}: {kind} run failed: {found}"
        result: dict[str, Any] = found["result"]
        return result

    # The app

    def wait_ready(self) -> None:
        state = self.wait_for(
            "(document.querySelector('[data-testid=app]') || {dataset: {}}).dataset.state"
            " !== 'loading' && document.querySelector('[data-testid=app]')?.dataset.state",
            READY_S,
            "the app's start",
        )
        if state != "ready":
            why = self.value("(document.querySelector('[data-testid=load-progress]') || {}).innerText || ''")
            raise AssertionError(
                f"{self.engine.name}: the app did not start: {state}: {why}\nthe page: {self.story()}"
            )
        self.value(KEEP_WARNINGS)

    def story(self) -> str:
        """What the page shows and said since `ready`: told when a wait runs out, so a failure far away
        (a slow CI machine) says what happened instead of only what did not."""
        try:
            return json.dumps(self.value(STORY), indent=1)[:4000]
        except Exception as err:  # the page itself may be what broke
            return f"(the page could not be read: {err})"

    def count(self, selector: str) -> int:
        return int(self.value(f"document.querySelectorAll({json.dumps(selector)}).length"))

    def settled(self, selector: str, quiet_s: float = 2.0) -> int:
        """How many elements match once the number has not changed for `quiet_s` (a chat restored
        after `ready` shows up a moment later)."""
        last, since = self.count(selector), time.monotonic()
        while time.monotonic() - since < quiet_s:
            time.sleep(POLL_S)
            now = self.count(selector)
            if now != last:
                last, since = now, time.monotonic()
        return last

    def turn(self, text: str, tool: str, final_within_s: float = 120.0) -> tuple[str, str]:
        """Send `text`, approve the `tool` call it makes; the call's final status and the answer's text.
        Counts what was there before (once a restored chat has settled), so an earlier chat's cards and
        answers are never taken."""
        cards_selector = f"[data-testid=tool-card][data-tool={tool}]"
        answers_selector = "[data-testid=message][data-role=assistant]"
        self.settled(answers_selector)  # a restored chat has settled before the count of cards is taken
        cards = self.settled(cards_selector)
        self.send(text)
        card = f"document.querySelectorAll({json.dumps(cards_selector)})[{cards}]"
        final = ["completed", "failed", "rejected"]
        began = time.monotonic()
        try:
            status = self.wait_for(
                f"(() => {{ const c = {card}; if (!c) return null; const s = c.dataset.status;"
                " if (s === 'awaiting-approval') c.querySelector('[data-testid=tool-approve]').click();"
                f" return {json.dumps(final)}.includes(s) ? s : null; }})()",
                final_within_s,
                f"a {tool} card's end",
            )
        except EngineTimeout as err:
            raise EngineTimeout(f"{err}\nthe page: {self.story()}") from None
        print(f"{self.engine.name}: {tool} card ended {status} after {time.monotonic() - began:.0f} s")
        # The answer is the first assistant message after the one that holds the card: the card's own
        # message is over as soon as the call streamed, before the model has answered the result.
        text = self.wait_for(
            f"(() => {{ const c = {card};"
            f" const all = [...document.querySelectorAll({json.dumps(answers_selector)})];"
            " const at = all.findIndex((m) => m.contains(c)); const m = at < 0 ? null : all[at + 1];"
            " if (!m) return null;"
            " const over = ['done', 'error', 'interrupted'].includes(m.dataset.state);"
            " return over ? m.innerText || ' ' : null; })()",
            ANSWER_WITHIN_S,
            "the answer",
        )
        return str(status), str(text)

    def send(self, text: str) -> None:
        """Type `text` into the composer and send it."""
        self.value(
            "(() => { const input = document.querySelector('[data-testid=chat-input]');"
            f" input.value = {json.dumps(text)}; input.dispatchEvent(new Event('input', {{bubbles: true}}));"
            " document.querySelector('[data-testid=chat-send]').click(); return true; })()"
        )

    def vfs(self, method: str, *args: str) -> Any:
        call = ", ".join(json.dumps(a) for a in args)
        return self.value(f"window.agentlite.vfs.{method}({call})")
