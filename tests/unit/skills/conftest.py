"""Each test starts with no skill kept from another (discovery keeps what it parsed by content)."""

import pytest

from agentlite.skills import skill_discovery, skill_listing


@pytest.fixture(autouse=True)
def _nothing_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(skill_discovery, "PARSED", skill_discovery.Parsed())
    monkeypatch.setattr(skill_listing, "_last", [])
