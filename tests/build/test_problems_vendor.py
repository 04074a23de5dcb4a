"""The problem checkers' files (buildsys/build/problems_vendor.py): never fetched on a first visit, kept
by the service worker once used, and TypeScript's bundle leaves Node's own modules out."""

from __future__ import annotations

import json

from buildsys.build import offline, problems_vendor


def test_the_checkers_are_neither_precached_nor_kept_after_activation_only_on_use() -> None:
    names = ("index.html", *sorted(problems_vendor.ON_USE))
    manifest = {"build": "0123abcd", "files": {name: {"size": 1, "sha256": name * 2} for name in names}}
    build = json.loads(offline.render(manifest, "").split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    assert set(build["files"]) == {"index.html"}
    assert set(build["onUse"]) == set(problems_vendor.ON_USE)


def test_only_the_typescript_bundle_leaves_nodes_modules_out() -> None:
    assert "--external:fs" in problems_vendor.bundler_flags(problems_vendor.TS_BUNDLE)
    assert problems_vendor.bundler_flags(problems_vendor.RUFF_BUNDLE) == []
