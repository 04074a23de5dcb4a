"""Every unit test starts from the same process state: what one changes (cwd, argv, sys.path, the
environment) is put back after it, so the suite passes in any order and in two worker processes
(`python build.py check` runs it with `-n 2`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.process_state import kept


@pytest.fixture(autouse=True)
def _process_state_kept() -> Iterator[None]:
    with kept():
        yield
