"""The real tokenizer for the benchmarks that fit tools as the worker does: gpt-tokenizer's o200k_base
(the worker's tokenizer, `agentlite.browser.tokenizer`) in one node process, installed with
`agentlite.engine.tokens.use` so the listing budget is counted in its tokens."""

from __future__ import annotations

import json
import subprocess

from buildsys.common import ROOT

_NODE_COUNTER = """
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import readline from "node:readline";
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  process.stdout.write(countTokens(JSON.parse(line), { disallowedSpecial: new Set() }) + "\\n");
});
"""


class RealCounter:
    """o200k_base token counts from one node process (the text on a line as JSON, its count back)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            ["node", "--input-type=module", "-e", _NODE_COUNTER],
            cwd=ROOT / "web" / "bench",
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def __call__(self, text: str) -> int:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(text) + "\n")
        self.process.stdin.flush()
        return int(self.process.stdout.readline())

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(10)
