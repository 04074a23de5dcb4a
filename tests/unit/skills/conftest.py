"""`async def` tests run as the tool tests do (a fresh event loop each); each test starts with no skill
kept from another (discovery keeps what it parsed by content)."""

import pytest

from agentlite.skills import skill_discovery, skill_listing
from tests.unit.tools.conftest import pytest_pyfunc_call

__all__ = ["pytest_pyfunc_call"]


@pytest.fixture(autouse=True)
def _nothing_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(skill_discovery, "PARSED", skill_discovery.Parsed())
    monkeypatch.setattr(skill_listing, "_last", [])
