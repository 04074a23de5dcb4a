"""Real projects' own test suites, run by pytest in the sandbox (an e2e test and `pytest_sandbox`).

Each is a source distribution pinned in pins.toml (`[[suite]]`), downloaded with pip into
.cache/suites/ (sha256-checked) and unpacked there; `files` gives its files (all text) as a
workspace would hold them, `folder` the unpacked tree for the same run on CPython, and `arguments` the
pytest options that replace what the sandbox does not ship and leave out the few tests that cannot give
the same outcome in both.
"""

from __future__ import annotations

import tarfile
from pathlib import Path

from buildsys.build import pins as pinning
from buildsys.build.fetch import run_download
from buildsys.common import CACHE, BuildError, python

SUITES = CACHE / "suites"
# Tests left out of every run, here and on CPython, each with its reason: what a browser cannot do, and
# what only one Python version runs (the sandbox's Python is 3.14; this machine's may be older).
DESELECTED = {
    "toolz": (
        "toolz/sandbox/tests/test_parallel.py::test_fold",  # multiprocessing.Pool: no processes in a browser
        "toolz/tests/test_functoolz.py::test_compose_annotations_formats",  # skipped before Python 3.14
    ),
}


def _pin(name: str) -> pinning.Suite:
    for suite in pinning.load().suites:
        if suite.name == name:
            return suite
    raise BuildError(f"no [[suite]] named {name} in pins.toml")


def folder(name: str) -> Path:
    """The unpacked source tree of the pinned suite `name`, downloaded first when missing."""
    suite = _pin(name)
    archive = SUITES / suite.file
    tree = SUITES / f"{suite.name}-{suite.version}"
    if tree.is_dir():
        return tree
    SUITES.mkdir(parents=True, exist_ok=True)
    if not archive.exists():
        requirement = SUITES / f"{suite.name}.txt"
        requirement.write_text(f"{suite.name}=={suite.version} --hash=sha256:{suite.sha256}\n")
        cmd = [python(), "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "--require-hashes"]
        cmd += ["-r", str(requirement), "-d", str(SUITES), "--disable-pip-version-check", "--quiet"]
        run_download(cmd, f"downloading the {name} suite", SUITES)
    pinning.verify(archive, suite.sha256)
    with tarfile.open(archive) as tar:
        tar.extractall(SUITES, filter="data")
    if not tree.is_dir():
        raise BuildError(f"{archive.name} did not unpack into {tree.name}/")
    return tree


def files(name: str, under: str = "/") -> dict[str, str]:
    """The suite's text files as {workspace path: text}, placed below `under`."""
    tree = folder(name)
    base = under.rstrip("/")
    return {
        f"{base}/{path.relative_to(tree).as_posix()}": path.read_text()
        for path in sorted(tree.rglob("*"))
        if path.is_file()
    }


# Options a suite's own configuration asks for that the sandbox does not ship, replaced here and on CPython.
OVERRIDES = {
    "parse": ("-o", "addopts=--doctest-modules --doctest-glob=README.rst"),  # its addopts want pytest-cov
}


def arguments(name: str) -> list[str]:
    """pytest arguments for the suite: its OVERRIDES, then what leaves out its DESELECTED tests."""
    return [
        *OVERRIDES.get(name, ()),
        *(arg for test in DESELECTED.get(name, ()) for arg in ("--deselect", test)),
    ]
