"""The service worker `dist/sw.js`: web/service-worker.js with this build's manifest written in front.

What it caches is decided here, at build time, so the worker holds one fixed list of files and their
sha256: it can check every byte it stores against the build it belongs to and never mix two builds.
The cache is named after the build id (`cache_name`); old builds' caches share the prefix and are
deleted when a newer worker activates. Files pinned `on_demand` (pytest's wheels, pins.toml) are not
fetched at install: the worker fetches and keeps them after it activates (`later`), and so it does the
problem checkers' files (`problems_vendor.AFTER_START`), so a checker never used online still works
offline. The files of the model in the page (`local_engine.ON_USE`, about 100 MB with a model's engine
builds) are kept only once used (`onUse`).
"""

from __future__ import annotations

import json
from pathlib import Path

from buildsys.build import pins as pinning
from buildsys.build import problems_vendor
from buildsys.common import WEB
from buildsys.engine import local_engine

TEMPLATE = WEB / "service-worker.js"
SERVICE_WORKER = "sw.js"
CACHE_PREFIX = "agentlite-build-"
# Served but never needed offline: source maps (fetched by developer tools only) and the bench pages; and
# never served by a host that reads it: the deployment headers file (docs/deploying.md).
NOT_PRECACHED_SUFFIXES = (".map",)
NOT_PRECACHED_NAMES = {"bare.html", "bare.js", "bare-worker.js", "bare-pdf.html", "_headers"}
ON_USE = local_engine.ON_USE  # kept by the service worker once the page uses them


def cache_name(build: str) -> str:
    """The Cache Storage name of one build: a new build id is a new cache."""
    if not build or not all(c in "0123456789abcdef" for c in build):
        raise ValueError(f"not a build id: {build!r}")
    return CACHE_PREFIX + build


def on_demand_names(pins: pinning.Pins) -> frozenset[str]:
    """The served paths of the wheels pinned `on_demand`."""
    return frozenset(f"pyodide/{wheel.file}" for wheel in pins.wheels if wheel.on_demand)


def kept(files: dict[str, dict]) -> dict[str, str]:
    """path -> sha256 of every file the worker answers, sorted by path."""
    return {
        name: files[name]["sha256"]
        for name in sorted(files)
        if not name.endswith(NOT_PRECACHED_SUFFIXES) and name not in NOT_PRECACHED_NAMES
    }


def precached(files: dict[str, dict], on_demand: frozenset[str] = frozenset()) -> dict[str, str]:
    """path -> sha256 of the files the worker stores at install, sorted by path."""
    after = on_demand | problems_vendor.AFTER_START | ON_USE
    return {name: sha for name, sha in kept(files).items() if name not in after}


def later(files: dict[str, dict], on_demand: frozenset[str]) -> dict[str, str]:
    """path -> sha256 of the files the worker stores after it activates (or when first asked for)."""
    return {name: sha for name, sha in kept(files).items() if name in on_demand | problems_vendor.AFTER_START}


def on_use(files: dict[str, dict]) -> dict[str, str]:
    """path -> sha256 of the files the worker stores only when the page first uses them."""
    return {name: sha for name, sha in kept(files).items() if name in ON_USE}


def render(manifest: dict, template: str, on_demand: frozenset[str] = frozenset()) -> str:
    """The worker's source: one `const BUILD = {...};` line, then the template."""
    build = {
        "build": manifest["build"],
        "cache": cache_name(manifest["build"]),
        "prefix": CACHE_PREFIX,
        "files": precached(manifest["files"], on_demand),
        "later": later(manifest["files"], on_demand),
        "onUse": on_use(manifest["files"]),
        "manifest": manifest,
    }
    header = "// Written by `python build.py` (buildsys/build/offline.py): this build's id and files.\n"
    return f"{header}const BUILD = {json.dumps(build, sort_keys=True)};\n\n{template}"


def write(dist: Path, manifest: dict) -> Path:
    target = dist / SERVICE_WORKER
    target.write_text(render(manifest, TEMPLATE.read_text(), on_demand_names(pinning.load())))
    return target
