"""`async def` tests run as the tool tests do (a fresh event loop each)."""

from tests.unit.tools.conftest import pytest_pyfunc_call

__all__ = ["pytest_pyfunc_call"]
