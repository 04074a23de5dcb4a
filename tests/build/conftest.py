"""Every test here runs isolated (tests/isolation.py): the process state put back after it, an `async
def` test in a fresh, bounded event loop of its own."""

from tests.isolation import process_state_kept as process_state_kept
from tests.isolation import pytest_pyfunc_call as pytest_pyfunc_call
