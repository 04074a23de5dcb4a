"""Hypothesis profiles for the workspace tests.

`HYPOTHESIS_PROFILE=fuzz` runs the state machine and the property tests with >= 500 examples; the default
keeps this directory well under a minute on two cores. The profiles are applied per test (through
`helpers.PROFILE`), so loading them here changes nothing for other test directories.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}

settings.register_profile("workspace", max_examples=100, stateful_step_count=30, **COMMON)
settings.register_profile("workspace-fuzz", max_examples=500, stateful_step_count=40, **COMMON)
try:
    settings.get_profile("fuzz")
except Exception:  # not registered by another directory's conftest yet
    settings.register_profile("fuzz", max_examples=500, stateful_step_count=40, **COMMON)

SELECTED = "workspace-fuzz" if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" else "workspace"
