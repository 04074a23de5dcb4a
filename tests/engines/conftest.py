"""The engine suite: the app and its sandbox in Firefox ESR and WebKitGTK (the engine of Safari), one
browser start per engine, against dist/ served with the sandbox harness (harness.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from buildsys.build.serve import StaticServer
from buildsys.common import DIST
from tests.engines.drivers import Engine, Firefox, WebKit
from tests.engines.harness import HarnessHandler
from tests.engines.probe import Probe

ENGINES = {"firefox": Firefox, "webkit": WebKit}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/engines" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="module", params=sorted(ENGINES))
def served(request: pytest.FixtureRequest) -> Iterator[tuple[Probe, StaticServer]]:
    """One browser of the engine and its own server of dist/ (the offline test stops the server)."""
    if not (DIST / "index.html").exists():
        pytest.fail("dist/ is not built: run `python build.py` (or `python build.py test`)")
    engine: Engine = ENGINES[request.param]()
    server = StaticServer(DIST, handler_class=HarnessHandler).__enter__()
    try:
        yield Probe(engine, server.origin), server
    finally:
        engine.close()
        server.__exit__(None, None, None)


@pytest.fixture
def probe(served: tuple[Probe, StaticServer]) -> Probe:
    return served[0]
