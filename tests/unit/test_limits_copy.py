"""The page's copy of the settings both sides check (web/src/limits.json) against the agent's
own definitions: a dialect, approval kind or bound changed on one side only fails here."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from pathlib import Path

from agentlite.engine.approvals import WHOLE_KINDS
from agentlite.limits import (
    FILE_BYTES,
    IMPORT_BYTES,
    IMPORT_FILES,
    SANDBOX_BOOT_MS,
    SANDBOX_START_ALLOWANCE_MS,
    SETTING_BOUNDS,
)
from agentlite.page_jobs import DEFAULT_GRACE_MS
from agentlite.settings import DIALECT_CHOICES, MAX_WINDOW, Settings
from agentlite.stream.decoder import DIALECTS

WEB = Path(__file__).resolve().parents[2] / "web"
SHARED = json.loads((WEB / "src" / "limits.json").read_text())


def test_the_page_offers_the_dialects_the_agent_decodes() -> None:
    assert SHARED["dialects"] == list(DIALECT_CHOICES) == ["auto", *DIALECTS]


def test_the_page_offers_the_approval_kinds_the_agent_asks_for() -> None:
    assert SHARED["approval_kinds"] == [kind.value for kind in WHOLE_KINDS]


def test_the_page_clamps_numbers_to_the_agents_bounds() -> None:
    assert SHARED["bounds"] == {name: asdict(bound) for name, bound in SETTING_BOUNDS.items()}


def test_the_agent_waits_out_the_sandbox_frames_start() -> None:
    sandbox = SHARED["sandbox"]
    assert (sandbox["boot_timeout_ms"], sandbox["start_allowance_ms"]) == (
        SANDBOX_BOOT_MS,
        SANDBOX_START_ALLOWANCE_MS,
    )
    assert sandbox["boot_timeout_ms"] + sandbox["start_allowance_ms"] < DEFAULT_GRACE_MS


def test_the_page_budgets_an_import_as_the_agent_does() -> None:
    assert SHARED["imports"] == {"total_bytes": IMPORT_BYTES, "files": IMPORT_FILES, "file_bytes": FILE_BYTES}


def test_the_agent_accepts_every_window_the_page_lets_through() -> None:
    high = SHARED["bounds"]["context_window"]["high"]
    assert high == MAX_WINDOW
    assert Settings.from_message({"context_window": high}).context_window == high
    assert Settings.from_message({"context_window": high + 1}).context_window == 0


def test_no_page_module_spells_a_bound_or_dialect_list_itself() -> None:
    settings_js = (WEB / "src" / "settings" / "settings.js").read_text()
    assert not re.search(r"\[\s*\"auto\",\s*\"native\"", settings_js)
    assert not re.search(r"max_rounds:\s*\[|context_window:\s*\[\d", settings_js)
