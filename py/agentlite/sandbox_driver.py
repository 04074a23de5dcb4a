"""The Python sandbox's driver: runs one `python` command of the shell frame as a real interpreter would.

It does not run in the agent: the build embeds this file's text in the shell sandbox's runtime
(web/src/sandbox/frame-worker/python-runtime.js), whose own Pyodide executes it once and then calls
`run_command` for every command. It is a module of the package so that it is linted, typed and
tested on CPython like the rest. argv, cwd, `SystemExit` and tracebacks behave as under `python`.
pytest (`pytest`, `python -m pytest`) runs with one plugin of ours: it never collects the sandbox's own
folders, which a desktop project never holds but the workspace, at `/`, sits above.

No `from __future__` import here: `compile()` below would pass it on to the user's code.
"""

import os
import sys
import time
import traceback
from typing import Any, SupportsIndex

LIBRARY = ("/lib/",)  # where the sandbox's own modules live; any other module came from the user's files
# The interpreter's own folders in the frame: never the user's, so pytest never collects them (a
# workspace folder /lib is the user's, so only Python's own ones below it).
_VERSION = f"{sys.version_info.major}.{sys.version_info.minor}"
SYSTEM_FOLDERS = (
    f"/lib/python{_VERSION}",
    f"/lib/python{_VERSION.replace('.', '')}.zip",
    "/dev",
    "/proc",
    "/sys",
    "/home/pyodide",
)


class SandboxFolders:
    """pytest plugin: skip the sandbox's own folders when collecting from the workspace root."""

    def __init__(self, folders: tuple[str, ...] = SYSTEM_FOLDERS) -> None:
        self.folders = folders

    def pytest_ignore_collect(self, collection_path: os.PathLike[str]) -> bool | None:
        path = os.fspath(collection_path)
        return True if any(path == f or path.startswith(f + "/") for f in self.folders) else None


MONITOR_TOOL = 4  # a sys.monitoring tool id no one else uses (5 is the optimizer's)


class DeadlineExceeded(BaseException):
    """Raised inside the user's code when its time is up. A BaseException, so that the user's
    `except Exception` cannot swallow it."""


class Deadline:
    """Stops Python code that runs past `seconds` from inside the interpreter: on every backward jump
    (each loop iteration) a `sys.monitoring` callback looks at the clock, and `time.sleep` sleeps no
    longer than the time left. For engines that cannot end a Worker spinning in WebAssembly
    (docs/execution.md, "The watchdog"); it slows tight loops, so it is on only where needed.
    Without `sys.monitoring` (CPython < 3.12) it does nothing."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self.seconds = seconds
        self.hit = False
        self._sleep = time.sleep
        self._monitoring: Any = getattr(sys, "monitoring", None)

    def __enter__(self) -> "Deadline":
        mon = self._monitoring
        if mon is not None:
            mon.use_tool_id(MONITOR_TOOL, "agentlite-deadline")
            mon.register_callback(MONITOR_TOOL, mon.events.JUMP, self._on_jump)
            mon.set_events(MONITOR_TOOL, mon.events.JUMP)
        time.sleep = self._guarded_sleep
        return self

    def __exit__(self, *exc: object) -> None:
        time.sleep = self._sleep
        mon = self._monitoring
        if mon is not None:
            mon.set_events(MONITOR_TOOL, 0)
            mon.register_callback(MONITOR_TOOL, mon.events.JUMP, None)
            mon.free_tool_id(MONITOR_TOOL)

    def expire(self) -> None:
        # Events off first: else every later jump (in `except` blocks, in tracebacks) would raise again.
        if self._monitoring is not None:
            self._monitoring.set_events(MONITOR_TOOL, 0)
        self.hit = True
        raise DeadlineExceeded(f"ran longer than {self.seconds:.1f} s")

    def _on_jump(self, code: object, source: int, target: int) -> None:
        if time.monotonic() > self.at:
            self.expire()

    def _guarded_sleep(self, seconds: "float | SupportsIndex") -> None:
        seconds = float(seconds)
        left = self.at - time.monotonic()
        self._sleep(max(0.0, min(seconds, left)))
        if seconds > left:
            self.expire()


def run_command(
    mode: str,
    target: str,
    argv: list[str],
    cwd: str,
    library: tuple[str, ...] = LIBRARY,
    deadline_s: float | None = None,
) -> int | None:
    """Run `target` (a script path for "file", a module name for "module" or for "entry", an installed
    command such as `pytest`, which unlike `python -m` does not put `cwd` on sys.path; else source
    code) in `cwd` with `argv`; the exit code, or None when `deadline_s` (if given) ran out first.
    Modules imported from the user's files are forgotten afterwards, so the next run sees their new
    content."""
    if deadline_s is None:
        return _run(mode, target, argv, cwd, library)
    with Deadline(deadline_s) as deadline:
        try:
            code = _run(mode, target, argv, cwd, library)
        except DeadlineExceeded:
            return None
    return None if deadline.hit else code  # hit but swallowed by a bare `except:` in the code


def _run(mode: str, target: str, argv: list[str], cwd: str, library: tuple[str, ...]) -> int:
    import runpy  # here, not above: the agent ships this module but never runs it, so never loads runpy

    saved_path = list(sys.path)
    try:
        os.chdir(cwd)
        sys.argv = list(argv)
        if mode == "file":
            sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
            runpy.run_path(target, run_name="__main__")
        elif mode in ("module", "entry"):
            if mode == "module":
                sys.path.insert(0, cwd)
            if target == "pytest":
                _run_pytest()
            else:
                runpy.run_module(target, run_name="__main__", alter_sys=True)
        else:
            sys.path.insert(0, cwd)
            exec(compile(target, "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
        return 0
    except SystemExit as exc:
        return _exit_code(exc)
    except DeadlineExceeded:
        raise
    except BaseException:
        kind, value, tb = sys.exc_info()
        traceback.print_exception(kind, value, tb.tb_next if tb else None)
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.path[:] = saved_path
        _forget_user_modules(library)


def _run_pytest() -> None:
    """What pytest's own `__main__` does (exit with `console_main()`), with our plugin added."""
    import pytest

    code = pytest.main(plugins=[SandboxFolders()])
    sys.stdout.flush()
    raise SystemExit(int(code))


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)
    return 1


def _forget_user_modules(library: tuple[str, ...]) -> None:
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None) or ""
        if path and not path.startswith(library):
            del sys.modules[name]
