"""Bounds the page and the agent both know, defined once: the settings' numbers, the sandbox's start times.

The page keeps a copy in `web/src/limits.json` (it bundles JSON, it cannot import Python);
`tests/unit/test_limits_copy.py` fails when the copy and these values disagree. Both sides clamp:
the page because stored settings may be old or edited, the agent because the page is not its only
caller (`window.agentlite`, tests).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bound:
    """An integer setting's lowest and highest allowed value, and the value it has when not set."""

    low: int
    high: int
    default: int


# Tool rounds of one turn (engine/session.py says why a turn may need 8; past 50 it is a runaway loop).
MAX_ROUNDS = Bound(1, 50, 8)
# The user's context window in tokens; 0 means "not set" (the model's own window is used). A larger
# number than the high bound is a typo, not a model.
CONTEXT_WINDOW = Bound(0, 10_000_000, 0)
# Seconds a browser_js_eval may run.
EVAL_TIMEOUT_S = Bound(1, 300, 10)

# How long the page's sandbox host lets a frame start, and Pyodide start inside a frame (once per
# frame, not counted against the run's own time): the agent waits that long past a run's timeout.
# WebKitGTK compiles Pyodide's wasm far more slowly than Chromium: 35-45 s for the first Python run on
# 2 cores, over 60 s when the machine is busy (measured; docs/execution.md); hence two minutes.
SANDBOX_BOOT_MS = 30_000
SANDBOX_START_ALLOWANCE_MS = 120_000

# What one import may bring in (a zip, a git working copy, a history, a local folder): the bytes of the
# files it would create, counted as declared before anything is inflated (a git tree naming one blob 450
# times counts 450 times, though the blob is held once), their number, and one file's size. The page
# checks a folder's `File.size`s against the same numbers before it reads a byte (docs/folders.md).
IMPORT_BYTES = 512 * 1024 * 1024
IMPORT_FILES = 100_000
FILE_BYTES = 10 * 1024 * 1024

SETTING_BOUNDS = {
    "max_rounds": MAX_ROUNDS,
    "context_window": CONTEXT_WINDOW,
    "eval_timeout_s": EVAL_TIMEOUT_S,
}
