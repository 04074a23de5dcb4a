"""The `changes` setting (web/src/settings/settings.js) under Node: `apply` unless the user chose `review`,
saved or by the URL parameter `changes=`; the URL's wins over what is saved, and an unknown value is
`apply`."""

from __future__ import annotations

from typing import Any

import pytest

from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "settings_changes_runner.mjs"


@pytest.mark.parametrize(
    ("stored", "search", "changes"),
    [
        (None, "", "apply"),
        (None, "?changes=review", "review"),
        ({"changes": "review"}, "", "review"),
        ({"changes": "review"}, "?changes=apply", "apply"),
        ({"changes": "review"}, "?changes=later", "review"),
        ({"changes": "<script>"}, "", "apply"),
        (None, "?changes=REVIEW", "apply"),
    ],
)
def test_changes_land_as_the_user_chose(stored: dict[str, Any] | None, search: str, changes: str) -> None:
    (answer,) = run_node(RUNNER, [{"stored": stored, "search": search}])
    assert answer == {"changes": changes}
