"""What one test may change in the process that runs many: the working directory, `sys.argv`,
`sys.path` and the environment. `kept()` puts them back as they were, so no test leans on what an
earlier one left, whichever order or worker process the tests run in (tests/isolation.py)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

# pytest's own note of the running test and its phase: it changes between setup and teardown.
PYTEST_OWN = frozenset({"PYTEST_CURRENT_TEST"})


@contextmanager
def kept() -> Iterator[None]:
    """Restore cwd, argv, sys.path and os.environ on exit, however the body left them."""
    cwd, argv, path, environ = os.getcwd(), list(sys.argv), list(sys.path), dict(os.environ)
    try:
        yield
    finally:
        os.chdir(cwd)
        sys.argv = argv
        sys.path[:] = path
        _restore_environ(environ)


def _restore_environ(saved: dict[str, str]) -> None:
    """As httpx's `clean_environ`, but touching only what changed (each write is a putenv)."""
    for name in set(os.environ) - set(saved) - PYTEST_OWN:
        del os.environ[name]
    for name, value in saved.items():
        if name not in PYTEST_OWN and os.environ.get(name) != value:
            os.environ[name] = value
