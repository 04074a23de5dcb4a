"""The browsers of the engine suite, behind one small interface: open a URL, evaluate a JS expression.

Firefox ESR is driven by puppeteer-core over WebDriver BiDi through `firefox_driver.mjs` (a Node child
that answers JSON lines); WebKitGTK by Selenium's WebKitGTK driver with MiniBrowser `--automation` under
a private Xvfb display. Every call is bounded here as well as in the browser's driver: a script against a
frozen page never returns by itself, and a hung call must fail the test, not the run.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[2]
FIREFOX = Path("/usr/bin/firefox-esr")
WEBKIT_DRIVER = Path("/usr/bin/WebKitWebDriver")
MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
SLACK_S = 15.0  # on top of a call's own bound, for the driver to answer that it gave up


class EngineTimeout(AssertionError):
    """The browser did not answer a call in time (a frozen page, or a hung driver)."""


class ScriptError(AssertionError):
    """The page's script threw, or the driver refused the call."""


class Engine(Protocol):
    name: str

    def goto(self, url: str, timeout_s: float = 60.0) -> None: ...

    def eval(self, expression: str, timeout_s: float = 30.0) -> Any: ...

    def upload(self, selector: str, path: Path, timeout_s: float = 30.0) -> None:
        """Hand `path` (a file or a folder) to the file input at `selector` as a user's choice would;
        ScriptError when the driver refuses."""
        ...

    def frame_eval(self, selector: str, expression: str, timeout_s: float = 30.0) -> Any:
        """Evaluate `expression` in the document of the iframe at `selector`, whatever its origin."""
        ...

    def close(self) -> None: ...


class Firefox:
    """Firefox ESR through the Node child `firefox_driver.mjs`."""

    name = "firefox"

    def __init__(self) -> None:
        script = Path(__file__).with_name("firefox_driver.mjs")
        self.proc = subprocess.Popen(
            ["node", str(script)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "AGENTLITE_FIREFOX": str(FIREFOX)},
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 1
        self.version = self._answer(0, 120.0)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")

    def _answer(self, wanted: int, timeout_s: float) -> Any:
        while True:
            try:
                line = self.lines.get(timeout=timeout_s)
            except queue.Empty:
                raise EngineTimeout(f"firefox: no answer within {timeout_s:.0f} s") from None
            if not line:
                raise ScriptError(f"firefox: the driver ended (exit code {self.proc.wait()})")
            message = json.loads(line)
            if message["id"] != wanted:
                continue  # the late answer of a call that already timed out
            if not message["ok"]:
                error = str(message["error"])
                kind = EngineTimeout if error.startswith("no answer within") else ScriptError
                raise kind(f"firefox: {error}")
            return message.get("value")

    def _call(self, op: str, arg: str, timeout_s: float) -> Any:
        ident, self.next_id = self.next_id, self.next_id + 1
        assert self.proc.stdin is not None
        command = {"id": ident, "op": op, "arg": arg, "timeout_ms": int(timeout_s * 1000)}
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        return self._answer(ident, timeout_s + SLACK_S)

    def goto(self, url: str, timeout_s: float = 60.0) -> None:
        self._call("goto", url, timeout_s)

    def eval(self, expression: str, timeout_s: float = 30.0) -> Any:
        return self._call("eval", expression, timeout_s)

    def upload(self, selector: str, path: Path, timeout_s: float = 30.0) -> None:
        self._call("upload", json.dumps({"selector": selector, "path": str(path)}), timeout_s)

    def frame_eval(self, selector: str, expression: str, timeout_s: float = 30.0) -> Any:
        return self._call(
            "frameEval", json.dumps({"selector": selector, "expression": expression}), timeout_s
        )

    def close(self) -> None:
        with contextlib.suppress(AssertionError):
            self._call("close", "", 10.0)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class WebKit:
    """WebKitGTK's MiniBrowser through Selenium and WebKitWebDriver, on a private Xvfb display."""

    name = "webkit"

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        self.xvfb, display = start_xvfb()
        options = Options()
        options.binary_location = str(MINIBROWSER)
        options.add_argument("--automation")
        service = Service(executable_path=str(WEBKIT_DRIVER), env={**os.environ, "DISPLAY": display})
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.driver = self._bounded(lambda: webdriver.WebKitGTK(options=options, service=service), 120.0)
        self.version = str(self.driver.capabilities.get("browserVersion", "?"))

    def _bounded(self, call: Any, timeout_s: float) -> Any:
        try:
            return self.pool.submit(call).result(timeout=timeout_s + SLACK_S)
        except FutureTimeout:
            raise EngineTimeout(f"webkit: no answer within {timeout_s:.0f} s") from None

    def goto(self, url: str, timeout_s: float = 60.0) -> None:
        self.driver.set_page_load_timeout(timeout_s)
        self._bounded(lambda: self.driver.get(url), timeout_s)

    def eval(self, expression: str, timeout_s: float = 30.0) -> Any:
        from selenium.common.exceptions import TimeoutException, WebDriverException

        try:
            return self._bounded(lambda: self._script(expression, timeout_s), timeout_s)
        except TimeoutException:
            raise EngineTimeout(f"webkit: no answer within {timeout_s:.0f} s") from None
        except WebDriverException as exc:
            raise ScriptError(f"webkit: {exc.msg}") from None

    def frame_eval(self, selector: str, expression: str, timeout_s: float = 30.0) -> Any:
        from selenium.common.exceptions import TimeoutException, WebDriverException
        from selenium.webdriver.common.by import By

        def in_frame() -> Any:
            self.driver.switch_to.frame(self.driver.find_element(By.CSS_SELECTOR, selector))
            try:
                return self._script(expression, timeout_s)
            finally:
                self.driver.switch_to.default_content()

        try:
            return self._bounded(in_frame, timeout_s)
        except TimeoutException:
            raise EngineTimeout(f"webkit: no answer within {timeout_s:.0f} s") from None
        except WebDriverException as exc:
            raise ScriptError(f"webkit: {exc.msg}") from None

    def _script(self, expression: str, timeout_s: float) -> Any:
        """The value of `expression` in the current browsing context (on the pool: see _bounded)."""
        self.driver.set_script_timeout(timeout_s)
        script = (
            "const done = arguments[arguments.length - 1];"
            f"(async () => ({expression}))().then("
            "(value) => done({ok: true, value: value === undefined ? null : value}),"
            "(error) => done({ok: false, error: String((error && error.message) || error)}));"
        )
        answer = self.driver.execute_async_script(script)
        if not answer["ok"]:
            raise ScriptError(f"webkit: {answer['error']}")
        return answer["value"]

    def upload(self, selector: str, path: Path, timeout_s: float = 30.0) -> None:
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.common.by import By

        def send() -> None:
            self.driver.find_element(By.CSS_SELECTOR, selector).send_keys(str(path))

        try:
            self._bounded(send, timeout_s)
        except WebDriverException as exc:
            raise ScriptError(f"webkit: {exc.msg}") from None

    def close(self) -> None:
        with contextlib.suppress(EngineTimeout):
            self._bounded(self.driver.quit, 20.0)
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.xvfb.terminate()
        self.xvfb.wait(timeout=10)


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """An Xvfb server on the first free display (it writes the number it took to a pipe)."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise ScriptError("Xvfb is missing (apt xvfb)")
    read, write = os.pipe()
    proc = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        proc.kill()
        raise ScriptError("Xvfb did not start")
    return proc, f":{number}"
