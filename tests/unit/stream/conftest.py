"""Hypothesis profiles of the stream tests.

`stream` (the default) keeps the whole directory within about a minute for every CI run (500 examples per
property test); `fuzz` runs 6000 per test (`HYPOTHESIS_PROFILE=fuzz python -m pytest tests/unit/stream`).
Each decoder has at least two property tests of its own (test_properties.py), so in the fuzz profile every
decoder gets at least 12,000 examples. The tests pick their profile explicitly (properties.PROFILE), so a
profile loaded elsewhere in the session does not change their counts.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    "print_blob": True,
}
settings.register_profile("stream", max_examples=500, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("fuzz", max_examples=6000, **_COMMON)  # type: ignore[arg-type]

if os.environ.get("HYPOTHESIS_PROFILE") in ("stream", "fuzz"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
