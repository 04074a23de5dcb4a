"""Hypothesis profiles for the workspace tests.

The state machine runs 500 examples of up to 40 steps by default (about half a minute on two cores) and
2,000 of up to 50 with `HYPOTHESIS_PROFILE=fuzz`; the property tests run 100 examples by default and
500 with `fuzz`. The profiles are applied per test (through `helpers.PROFILE` and
`helpers.MACHINE_PROFILE`), so loading them here changes nothing for other test directories.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}

settings.register_profile("workspace", max_examples=100, stateful_step_count=30, **COMMON)
settings.register_profile("workspace-fuzz", max_examples=500, stateful_step_count=40, **COMMON)
settings.register_profile("workspace-machine", max_examples=500, stateful_step_count=40, **COMMON)
settings.register_profile("workspace-machine-fuzz", max_examples=2000, stateful_step_count=50, **COMMON)
try:
    settings.get_profile("fuzz")
except Exception:  # not registered by another directory's conftest yet
    settings.register_profile("fuzz", max_examples=500, stateful_step_count=40, **COMMON)

FUZZ = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"
SELECTED = "workspace-fuzz" if FUZZ else "workspace"
SELECTED_MACHINE = "workspace-machine-fuzz" if FUZZ else "workspace-machine"
