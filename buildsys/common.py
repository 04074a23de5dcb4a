"""Paths, logging, subprocess and hashing helpers shared by the build commands."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
# AGENTLITE_DIST builds and tests into another folder, so two checkouts of work can share one tree.
DIST = Path(os.environ.get("AGENTLITE_DIST") or ROOT / "dist").resolve()
CACHE = ROOT / ".cache"
DIST_CACHE = CACHE if DIST == ROOT / "dist" else CACHE / f"dist-{DIST.name}"
NODE_MODULES = WEB / "node_modules"


class BuildError(Exception):
    """A failure the user can act on: printed as one clear line, no traceback."""


def say(message: str) -> None:
    print(f"[build] {message}", flush=True)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fingerprint(*items: Path | str) -> str:
    """A hash of files (by content), folders (every file below, by relative path) and strings."""
    digest = hashlib.sha256()
    for item in items:
        if isinstance(item, str):
            digest.update(item.encode())
        elif item.is_dir():
            for path in sorted(p for p in item.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
                digest.update(str(path.relative_to(item)).encode())
                digest.update(sha256_file(path).encode())
        elif item.exists():
            digest.update(sha256_file(item).encode())
        digest.update(b"\0")
    return digest.hexdigest()


def run(cmd: list[str], what: str, cwd: Path = ROOT, quiet: bool = True) -> str:
    """Run a command; on failure raise BuildError naming `what` and the last lines of its output."""
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=quiet, text=True, stdin=subprocess.DEVNULL)
    except FileNotFoundError as exc:
        raise BuildError(f"{what}: {cmd[0]} is not installed") from exc
    if proc.returncode != 0:
        tail = "\n".join(((proc.stdout or "") + (proc.stderr or "")).strip().splitlines()[-12:])
        raise BuildError(f"{what} failed (exit {proc.returncode})" + (f":\n{tail}" if tail else ""))
    return proc.stdout or ""


class Stamps:
    """Remembers the input fingerprint of each build step, so unchanged steps are skipped."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data: dict[str, str] = json.loads(path.read_text()) if path.exists() else {}

    def fresh(self, step: str, value: str, *outputs: Path) -> bool:
        return self.data.get(step) == value and all(out.exists() for out in outputs)

    def mark(self, step: str, value: str) -> None:
        self.data[step] = value
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(self.data, indent=1, sort_keys=True))


def python() -> str:
    return sys.executable
