"""The Markdown page of `python build.py bench --markdown FILE`."""

from __future__ import annotations

from pathlib import Path

from buildsys.bench import bench_markdown
from buildsys.bench.bench_figure import Figure

FACTS = {"CPU": "Test CPU", "cores": "2", "Chromium": "Chromium 140.0", "Pyodide": "314.0.7", "date": "today"}


def test_every_figure_is_a_row_with_median_floor_ratio_runs_goal_and_note() -> None:
    figures = [
        Figure("ndjson_throughput", 12.5, "MB/s", 500.0, 7, "≥ 0.2× floor"),
        Figure("undo_turn", 320.0, "ms", None, 5, "≤ 500 ms"),
    ]
    page = bench_markdown.render(figures, FACTS)
    row = next(line for line in page.splitlines() if line.startswith("| `ndjson_throughput`"))
    assert row.split(" | ")[1:6] == ["12.5 MB/s", "500 MB/s", "0.025×", "7", "≥ 0.2× floor"]
    assert "bytes.split" in row
    undo = next(line for line in page.splitlines() if line.startswith("| `undo_turn`"))
    assert undo.split(" | ")[1:4] == ["320 ms", "—", "—"]


def test_the_machine_is_listed() -> None:
    page = bench_markdown.render([], FACTS)
    assert "- CPU: Test CPU" in page
    assert "- Chromium: Chromium 140.0" in page
    assert "- Pyodide: 314.0.7" in page


def test_expected_figures_missing_from_the_run_are_marked_not_measured() -> None:
    page = bench_markdown.render([Figure("ready_warm", 3100.0, "ms", 2900.0, 7, "≤ 1.15× floor")], FACTS)
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    names = [row.split("`")[1] for row in rows]
    assert names[0] == "ready_warm"
    assert set(names) == set(bench_markdown.EXPECTED)
    assert "not measured" not in rows[0]
    assert all("not measured in this run" in row for row in rows[1:])


def test_pipes_in_a_cell_do_not_break_the_table() -> None:
    row = bench_markdown.figure_row(Figure("x", 1.0, "a|b", None, 1, "goal | other"))
    assert row.count(" | ") == 6


def test_write_creates_the_file_with_the_machine(tmp_path: Path) -> None:
    target = tmp_path / "docs" / "benchmarks.md"
    bench_markdown.write(str(target), [Figure("edit_tokens", 44.0, "tokens", 4020.0, 1, "≤ 0.1× floor")])
    text = target.read_text()
    assert text.startswith("# Benchmarks")
    assert "- cores: " in text and "- OS: " in text and "- date: " in text
    assert "| `edit_tokens` | 44 tokens | 4020 tokens | 0.0109× |" in text


def test_write_keeps_the_hand_written_property_test_section(tmp_path: Path) -> None:
    target = tmp_path / "benchmarks.md"
    target.write_text("# Benchmarks\n\nold figures\n\n## Property tests\n\n- 12,000 examples\n")
    bench_markdown.write(str(target), [Figure("edit_tokens", 44.0, "tokens", 4020.0, 1, "≤ 0.1× floor")])
    page = target.read_text()
    assert "old figures" not in page
    assert "| `edit_tokens`" in page
    assert page.endswith("\n## Property tests\n\n- 12,000 examples\n")
