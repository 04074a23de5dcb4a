"""The project's Ruff config, mapped to what the page's Ruff can honour."""

from __future__ import annotations

from agentlite.problems.ruff_settings import ruff_settings


def test_pyproject_tool_ruff_maps_the_rules_and_line_length() -> None:
    text = (
        '[tool.ruff]\nline-length = 100\nexclude = ["x"]\n'
        '[tool.ruff.lint]\nselect = ["E", "F"]\nignore = ["E501"]\n'
        "[tool.ruff.lint.isort]\nforce-single-line = true\n"
        '[tool.ruff.lint.per-file-ignores]\n"x.py" = ["F"]\n'
    )
    assert ruff_settings({"/pyproject.toml": text}) == {
        "line-length": 100,
        "lint": {"select": ["E", "F"], "ignore": ["E501"], "isort": {"force-single-line": True}},
    }


def test_ruff_toml_wins_and_the_old_top_level_spelling_counts() -> None:
    configs = {"/ruff.toml": 'select = ["F"]\n', "/pyproject.toml": "[tool.ruff]\nline-length = 80\n"}
    assert ruff_settings(configs) == {"lint": {"select": ["F"]}}


def test_a_broken_or_absent_config_gives_the_defaults() -> None:
    assert ruff_settings({"/pyproject.toml": "[tool.ruff\n"}) == {}
    assert ruff_settings({"/pyproject.toml": "[project]\nname = 'x'\n"}) == {}
    assert ruff_settings({"/ruff.toml": "lint = 3\nselect = [1, 2]\nline-length = 1.5\n"}) == {}
