"""The agent worker's watchdog (web/src/agent/page/watchdog.js) under Node, on a clock the test moves: a
worker that answers is never restarted, one that stops answering is restarted once after the limit, and a page
that was itself frozen (a background tab) does not count its own pause against the worker."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

MODULE = (Path(__file__).resolve().parents[2] / "web/src/agent/page/watchdog.js").as_uri()
# argv[1]: steps, each ["tick", ms_later] or ["answer"] (the newest ping) or ["answer_old"] (an earlier one).
SCRIPT = """
import { Watchdog } from "%s";
let now = 0;
const sent = [];
const hangs = [];
const dog = new Watchdog({ send: (id) => sent.push(id), onHang: (ms) => hangs.push(ms), now: () => now,
                           every: 1000, hangMs: 30000 });
for (const [step, ms] of JSON.parse(process.argv[1])) {
  if (step === "tick") { now += ms; dog.tick(); }
  if (step === "answer") dog.answered(sent.at(-1));
  if (step === "answer_old") dog.answered(sent.at(-1) - 1);
}
console.log(JSON.stringify({ sent: sent.length, hangs, longest: dog.longestMs }));
"""


def run(steps: list[list[object]]) -> dict[str, object]:
    done = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT % MODULE, json.dumps(steps)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs node (as `python build.py` does)")


@needs_node
def test_a_worker_that_answers_is_never_restarted() -> None:
    steps: list[list[object]] = []
    for _ in range(100):
        steps += [["tick", 1000], ["answer"]]
    steps += [["tick", 1000], *[["tick", 1000] for _ in range(20)], ["answer"]]  # a 20 s step, then free
    found = run(steps)
    assert found["hangs"] == []
    assert found["longest"] == 20_000


@needs_node
def test_a_worker_that_stops_answering_is_restarted_once() -> None:
    found = run([["tick", 1000], ["answer"], *[["tick", 1000] for _ in range(60)]])
    assert found["hangs"] == [30_000]


@needs_node
def test_an_answer_to_an_earlier_ping_does_not_count() -> None:
    steps: list[list[object]] = [["tick", 1000], ["answer"], ["tick", 1000]]
    steps += [x for _ in range(40) for x in (["tick", 1000], ["answer_old"])]
    assert run(steps)["hangs"] == [30_000]


@needs_node
def test_a_frozen_page_does_not_blame_the_worker() -> None:
    # A background tab: the page's own timer fires once a minute; each late tick measures afresh.
    found = run([["tick", 1000], *[["tick", 60_000] for _ in range(10)]])
    assert found["hangs"] == []
    assert found["sent"] == 11
