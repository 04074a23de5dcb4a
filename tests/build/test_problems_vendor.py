"""The problem checkers' files (buildsys/build/problems_vendor.py): never fetched before a first visit is
ready, kept by the service worker after it activates (so a checker works offline after one visit), and
TypeScript's bundle leaves Node's own modules out."""

from __future__ import annotations

import json

from buildsys.build import offline, problems_vendor


def test_the_checkers_are_not_precached_but_kept_after_activation() -> None:
    names = ("index.html", *sorted(problems_vendor.AFTER_START))
    manifest = {"build": "0123abcd", "files": {name: {"size": 1, "sha256": name * 2} for name in names}}
    build = json.loads(offline.render(manifest, "").split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    assert set(build["files"]) == {"index.html"}
    assert set(build["later"]) == set(problems_vendor.AFTER_START)
    assert not set(build["onUse"]) & problems_vendor.AFTER_START


def test_only_the_typescript_bundle_leaves_nodes_modules_out() -> None:
    assert "--external:fs" in problems_vendor.bundler_flags(problems_vendor.TS_BUNDLE)
    assert problems_vendor.bundler_flags(problems_vendor.RUFF_BUNDLE) == []
