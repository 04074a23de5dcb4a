"""Every test of tests/unit, tests/page and tests/build (each folder's conftest.py takes these two
from here) starts from the same process state: what one changes (cwd, argv, sys.path, the
environment) is put back after it, so the suite passes in any order and in two worker processes
(`python build.py check` runs it with `-n 2`).

The one async harness: an `async def` test runs in a fresh event loop of its own (asyncio.run), so its
objects, locks and tasks all live in one loop and none outlives it; bounded, so a test that waits on a
server that never answers fails instead of hanging the run.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator

import pytest

from tests.process_state import kept


@pytest.fixture(autouse=True)
def process_state_kept() -> Iterator[None]:
    with kept():
        yield


ASYNC_TEST_LIMIT_S = 120


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    arguments = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    asyncio.run(asyncio.wait_for(pyfuncitem.obj(**arguments), ASYNC_TEST_LIMIT_S))
    return True
