"""`tests.process_state.kept`, behind every unit test's autouse fixture: whatever a test does to the
working directory, argv, sys.path or the environment, the next test starts from where it started."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.process_state import kept


def test_what_a_test_changes_is_put_back(tmp_path: Path) -> None:
    before = (os.getcwd(), list(sys.argv), list(sys.path), dict(os.environ))
    some = next(iter(os.environ))
    with kept():
        os.chdir(tmp_path)
        sys.argv = ["script.py", "--flag"]
        sys.path.insert(0, str(tmp_path))
        os.environ["AGENTLITE_TEST_ADDED"] = "1"
        os.environ[some] = "changed"
    assert (os.getcwd(), sys.argv, sys.path, dict(os.environ)) == before


def test_a_removed_variable_and_an_argv_changed_in_place_come_back() -> None:
    os.environ["AGENTLITE_TEST_KEPT"] = "there"
    before = (list(sys.argv), dict(os.environ))
    with pytest.raises(RuntimeError), kept():
        del os.environ["AGENTLITE_TEST_KEPT"]
        sys.argv.append("--more")
        raise RuntimeError("a test that fails still leaves nothing behind")
    assert (sys.argv, dict(os.environ)) == before
    del os.environ["AGENTLITE_TEST_KEPT"]
