"""Downloads: npm packages (`npm ci`, integrity from package-lock.json) and the browser wheels
(`pip download` with `--require-hashes`), each checked against pins.toml."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from buildsys.build import pins as pinning
from buildsys.common import CACHE, NODE_MODULES, ROOT, WEB, BuildError, Stamps, fingerprint, python, say

WHEEL_CACHE = CACHE / "wheels"
NETWORK_HINTS = re.compile(
    r"ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|network|NewConnectionError|"
    r"Failed to establish|Temporary failure in name resolution|Max retries exceeded|ConnectTimeout",
    re.IGNORECASE,
)


def run_download(cmd: list[str], what: str, cwd: Path) -> None:
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    except FileNotFoundError as exc:
        raise BuildError(f"{what}: `{cmd[0]}` is not installed (install Node.js and npm)") from exc
    if proc.returncode == 0:
        return
    output = proc.stdout + proc.stderr
    if NETWORK_HINTS.search(output):
        raise BuildError(f"{what}: the package registry cannot be reached (no network?); nothing was changed")
    hashes = re.search(r"THESE PACKAGES DO NOT MATCH THE HASHES.*", output, re.DOTALL)
    if hashes:
        raise BuildError(f"{what}: sha256 mismatch against pins.toml:\n{hashes.group(0).strip()[:600]}")
    tail = "\n".join(output.strip().splitlines()[-8:])
    raise BuildError(f"{what} failed (exit {proc.returncode}):\n{tail}")


def npm_packages(stamps: Stamps) -> None:
    """`npm ci` when package-lock.json changed or node_modules is missing."""
    lock = WEB / "package-lock.json"
    key = fingerprint(lock, WEB / "package.json")
    if stamps.fresh("npm", key, NODE_MODULES / ".package-lock.json"):
        return
    if shutil.which("npm") is None:
        raise BuildError("npm is not installed: install Node.js 20+ and npm, then run again")
    say("npm ci (web/package-lock.json)")
    run_download(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], "npm ci", WEB)
    stamps.mark("npm", key)


def wheels(pins: pinning.Pins) -> dict[str, Path]:
    """The pinned browser wheels in the cache, downloaded when missing; every one sha256-checked."""
    WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
    missing = [w for w in pins.wheels if not (WHEEL_CACHE / w.file).exists()]
    if missing:
        say(f"downloading {len(missing)} wheel(s) for {pins.platform}: " + ", ".join(w.name for w in missing))
        requirements = WHEEL_CACHE / "requirements.txt"
        requirements.write_text("".join(f"{w.name}=={w.version} --hash=sha256:{w.sha256}\n" for w in missing))
        cmd = [python(), "-m", "pip", "download", "--no-deps", "--require-hashes", "--only-binary=:all:"]
        cmd += ["--platform", pins.platform, "--python-version", pins.python, "--implementation", "cp"]
        cmd += ["--abi", pins.abi, "--abi", "none", "-d", str(WHEEL_CACHE), "-r", str(requirements)]
        cmd += ["--disable-pip-version-check", "--quiet"]
        run_download(cmd, "downloading wheels", WHEEL_CACHE)
    found = {}
    for wheel in pins.wheels:
        path = WHEEL_CACHE / wheel.file
        pinning.verify(path, wheel.sha256)
        found[wheel.name] = path
    return found


def build_tools() -> None:
    """The build's own Python packages, installed when missing: brotli for the `.br` copies, Zig for the
    local engine's SIMD kernels. Without a network the build goes on without them, and says so; without
    Zig it then stops at the engine's wasm files, which are pinned with the kernels (engine_pin.py)."""
    from buildsys.build.compress import BROTLI_PIN, brotli_codec
    from buildsys.engine.local_kernels import ZIG_PIN, compiler

    if brotli_codec() is None:
        _install_tool(BROTLI_PIN, "brotli copies of the large files", "gzip copies only")
    if compiler() != ZIG_PIN:  # missing, or another version
        _install_tool(ZIG_PIN, "the local engine's SIMD kernels", "no kernels: the engine's pins will refuse")


def _install_tool(pin: str, purpose: str, fallback: str) -> None:
    say(f"installing {pin} ({purpose})")
    cmd = [python(), "-m", "pip", "install", "-q", "--disable-pip-version-check", pin]
    try:
        run_download(cmd, f"pip install {pin}", ROOT)
    except BuildError as exc:
        say(f"{exc}; going on with {fallback}")
