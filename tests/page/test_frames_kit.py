"""The frames kit's formatter, levels and console capture (web/src/frames/), in Node: what the model
reads for a value logged or returned in a sandbox or the preview (docs/execution.md, "browser_js_eval")."""

from __future__ import annotations

from typing import Any

from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "frames_kit_runner.mjs"


def texts(*names: str) -> dict[str, Any]:
    return {row["name"]: row.get("text", row) for row in run_node(RUNNER, list(names))}


def test_maps_and_sets_show_their_size_and_entries() -> None:
    got = texts("map", "map-keys", "set")
    assert got["map"] == "Map(1) {1: 2}"
    assert got["map-keys"] == 'Map(2) {"a": {"b": [1]}, {"k": 1}: Set(1) ["x"]}'
    assert got["set"] == 'Set(3) [1, "two", null]'


def test_nesting_is_cut_at_depth_four() -> None:
    got = texts("nested")
    assert got["nested"] == '{"a": {"b": {"c": {"d": [Object]}}}, "list": [[1, [2, [Array]]]]}'


def test_cycles_are_named_and_a_value_seen_twice_is_not_a_cycle() -> None:
    got = texts("cyclic", "cyclic-array", "cyclic-map", "shared-not-circular")
    assert got["cyclic"] == '{"name": "a", "self": [Circular]}'
    assert got["cyclic-array"] == "[1, [Circular]]"
    assert got["cyclic-map"] == 'Map(1) {"me": [Circular]}'
    assert got["shared-not-circular"] == '[{"x": 1}, {"x": 1}]'


def test_scalars_specials_and_nodes() -> None:
    got = texts("scalars", "special", "node", "long", "console")
    assert got["scalars"] == '[undefined, null, -0, 1n, true, Symbol(s), "q", [Function named]]'
    assert got["special"] == "[Error: bad, 1970-01-01T00:00:00.000Z, /x+/g, Promise]"
    assert got["node"] == "<p>hi</p>"
    assert got["long"].endswith("99, … 2 more]")
    assert got["console"] == 'a 1 {"b": "c"} Map(1) {1: 2}'


def test_the_console_capture_reports_by_level_and_restores_the_console() -> None:
    [row] = run_node(RUNNER, ["capture"])
    assert row["lines"] == [
        ["log", "Map(1) {1: 2}"],
        ["debug", "t"],
        ["log", '{"a": 1}'],
        ["warn", "[unprintable: no]"],
    ]
    assert row["after"] is True


def test_one_level_table_for_every_frame() -> None:
    [row] = run_node(RUNNER, ["levels"])
    assert row["accepted"] == ["log", "info", "warn", "error", "debug"]
    assert row["methods"]["trace"] == "debug"
    assert row["methods"]["table"] == "log"
