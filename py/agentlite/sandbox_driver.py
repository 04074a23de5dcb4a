"""The Python sandbox's driver: runs one `python` command of the shell frame as a real interpreter would.

It does not run in the agent: the build embeds this file's text in the shell sandbox's runtime
(web/src/sandbox/python-runtime.js), whose own Pyodide executes it once and then calls
`run_command` for every command. It is a module of the package so that it is linted, typed and
tested on CPython like the rest. argv, cwd, `SystemExit` and tracebacks behave as under `python`.

No `from __future__` import here: `compile()` below would pass it on to the user's code.
"""

import os
import sys
import traceback

LIBRARY = ("/lib/",)  # where the sandbox's own modules live; any other module came from the user's files


def run_command(mode: str, target: str, argv: list[str], cwd: str, library: tuple[str, ...] = LIBRARY) -> int:
    """Run `target` (a script path for "file", a module name for "module", else source code) in `cwd`
    with `argv`; the exit code. Modules imported from the user's files are forgotten afterwards, so
    the next run sees their new content."""
    import runpy  # here, not above: the agent ships this module but never runs it, so never loads runpy

    saved_path = list(sys.path)
    try:
        os.chdir(cwd)
        sys.argv = list(argv)
        if mode == "file":
            sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
            runpy.run_path(target, run_name="__main__")
        elif mode == "module":
            sys.path.insert(0, cwd)
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        else:
            sys.path.insert(0, cwd)
            exec(compile(target, "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
        return 0
    except SystemExit as exc:
        return _exit_code(exc)
    except BaseException:
        kind, value, tb = sys.exc_info()
        traceback.print_exception(kind, value, tb.tb_next if tb else None)
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.path[:] = saved_path
        _forget_user_modules(library)


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
