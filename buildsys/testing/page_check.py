"""The page's own gate: TypeScript's checker over web/src (JavaScript with JSDoc, `checkJs`) and Biome's
linter and format check. Both are pinned in web/package.json; `npm ci` installs them when the lock changed."""

from __future__ import annotations

import subprocess

from buildsys.build import fetch
from buildsys.common import DIST_CACHE, NODE_MODULES, WEB, Stamps, say

# The page and the sandbox frames see the DOM; the agent worker sees the worker's globals.
TS_PROJECTS = (
    "tsconfig.json",
    "tsconfig.worker.json",
    "tsconfig.frame-worker.json",
    "tsconfig.common.json",
    "tsconfig.page-workers.json",
    "tsconfig.service-worker.json",
)


def _step(name: str, cmd: list[str]) -> bool:
    say(name)
    return subprocess.run(cmd, cwd=WEB, stdin=subprocess.DEVNULL).returncode == 0


def page_checks() -> list[str]:
    """Type check and lint the page's JavaScript; returns the names of the failed checks."""
    fetch.npm_packages(Stamps(DIST_CACHE / "build-stamps.json"))
    bin_dir = NODE_MODULES / ".bin"
    failed = []
    for project in TS_PROJECTS:
        if not _step(f"tsc -p web/{project}", [str(bin_dir / "tsc"), "-p", project]):
            failed.append(f"page types ({project})")
    linted = ["src", "service-worker.js", "service-worker-env.d.ts"]
    if not _step(
        "biome ci web/src web/service-worker.js",
        [str(bin_dir / "biome"), "ci", "--error-on-warnings", *linted],
    ):
        failed.append("page lint/format (biome)")
    return failed
