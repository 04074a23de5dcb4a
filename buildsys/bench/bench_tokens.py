"""Tokens per dialect, counted with a real tokenizer (gpt-tokenizer, o200k_base, run by node).

Every text is built by the project's own code: requests by `agentlite.stream.request.build_request` with
the agent's system prompt and tool definitions; replies as each dialect writes them (native: the call's
name and arguments JSON; json: `assistant_text`, the line the model writes; ndjson and ndjson-text: the
records of `NdjsonWriter`, with `"hash": null` as the prompt asks of a model). Messages are counted as
the engine's estimator counts them (content plus a fixed overhead per message), with exact token counts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

from buildsys.bench.bench_figure import Figure
from buildsys.common import ROOT

COUNTER = ROOT / "web" / "bench" / "count-tokens.mjs"
BUTTON = """import React from "react";

type ButtonProps = {
  label: string;
  onClick?: () => void;
  disabled?: boolean;
};

export function Button({ label, onClick, disabled = false }: ButtonProps) {
  return (
    <button className="button" onClick={onClick} disabled={disabled}>
      {label}
    </button>
  );
}

export default Button;
"""
APP_OLD = "export default function App() {\n  return <h1>Old Title</h1>;\n}\n"
APP_NEW = "export default function App() {\n  return <h1>New Title</h1>;\n}\n"


@dataclass(frozen=True)
class Step:
    tool: str
    arguments: dict[str, Any]
    result: str


@dataclass(frozen=True)
class Scenario:
    """One of the client-tools note's scenarios (§5): the user's words, one tool call per round, the
    answer."""

    user: str
    steps: tuple[Step, ...]
    answer: str


SCENARIOS = (
    Scenario(
        "计算 1000 以内的所有素数之和。",
        (
            Step(
                "browser_js_eval",
                {
                    "code": "let s = 0;\nfor (let n = 2; n < 1000; n++) {\n  let p = true;\n"
                    "  for (let d = 2; d * d <= n; d++) if (n % d === 0) { p = false; break; }\n"
                    "  if (p) s += n;\n}\ns"
                },
                "76127",
            ),
        ),
        "结果是 76127。",
    ),
    Scenario(
        "帮我创建一个简单的 React 组件 `Button.tsx`。",
        (Step("write_file", {"path": "/src/Button.tsx", "content": BUTTON}, "Success"),),
        "组件已创建，路径为 /src/Button.tsx。",
    ),
    Scenario(
        "看看 src 目录下有什么，帮我把 App.tsx 的标题改一下。",
        (
            Step("list_directory", {"path": "/src"}, '["App.tsx", "index.tsx"]'),
            Step("read_file", {"path": "/src/App.tsx"}, APP_OLD),
            Step("write_file", {"path": "/src/App.tsx", "content": APP_NEW}, "Success"),
        ),
        "I've updated the title in App.tsx.",
    ),
)


@dataclass
class Tally:
    """Texts to count and fixed overheads, summed once the tokenizer has run."""

    texts: list[str] = field(default_factory=list)
    overhead: int = 0

    def total(self, counts: dict[str, int]) -> int:
        return self.overhead + sum(counts[text] for text in self.texts)


def _agentlite() -> Any:
    """The package from the source tree: the tool definitions, prompt and request builder it uses."""
    if str(ROOT / "py") not in sys.path:
        sys.path.insert(0, str(ROOT / "py"))
    import agentlite.engine.prompt as prompt
    import agentlite.engine.tokens as tokens
    import agentlite.stream.request as request
    from agentlite.tools.catalog import default_registry

    return prompt, tokens, request, default_registry().definitions()


def count_tokens(texts: list[str]) -> dict[str, int]:
    unique = sorted(set(texts))
    done = subprocess.run(
        ["node", str(COUNTER)], input=json.dumps(unique), capture_output=True, text=True, check=True
    )
    return dict(zip(unique, json.loads(done.stdout), strict=True))


def request_tally(body: dict[str, Any], tally: Tally) -> None:
    """A request's messages (and native `tools`) as the engine's estimator counts them."""
    _, tokens, _, _ = _agentlite()
    tally.overhead += tokens.REPLY_PRIMING
    for message in body["messages"]:
        tally.overhead += tokens.MESSAGE_OVERHEAD
        tally.texts.append(str(message.get("content") or ""))
        if message.get("tool_call_id"):
            tally.texts.append(str(message["tool_call_id"]))
        for call in message.get("tool_calls") or ():
            tally.overhead += tokens.MESSAGE_OVERHEAD
            tally.texts.append(json.dumps(call["function"], ensure_ascii=False))
    if body.get("tools"):
        tally.texts.append(json.dumps(body["tools"], ensure_ascii=False))


def reply_text(dialect: str, content: str, calls: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
    """What the model writes for one reply in the dialect."""
    _, _, request, _ = _agentlite()
    from agentlite.stream.ndjson_writer import NdjsonWriter

    if dialect == "native":
        return content + "".join(c["name"] + json.dumps(c["arguments"], ensure_ascii=False) for c in calls)
    if dialect == "json":
        return str(request.assistant_text("json", {"content": content, "tool_calls": calls}, tools))
    streamed = {str(t["name"]): tuple(t.get("streamed") or ()) for t in tools}
    writer = NdjsonWriter(base64=dialect == "ndjson", hashes=False, prefix="b")
    for call in calls:
        writer.tool(call["id"], call["name"], call["arguments"], streamed.get(call["name"], ()))
    if content:
        writer.text(content)
    writer.done()
    return writer.render()


def scenario_tally(dialect: str, scenario: Scenario) -> Tally:
    """Every round of the scenario: the request sent, then the reply received."""
    prompt, _, request, tools = _agentlite()
    system = prompt.system_prompt("agent")
    history: list[dict[str, Any]] = [{"role": "user", "content": scenario.user}]
    tally = Tally()
    for index, step in enumerate(scenario.steps):
        call = {"id": f"call_{index + 1}", "name": step.tool, "arguments": step.arguments}
        request_tally(request.build_request("bench", dialect, history, tools, system=system), tally)
        tally.texts.append(reply_text(dialect, "", [call], tools))
        history.append({"role": "assistant", "content": "", "tool_calls": [call]})
        history.append(
            {
                "role": "tool",
                "tool_call_id": call["id"],
                "name": step.tool,
                "content": step.result,
                "ok": True,
            }
        )
    request_tally(request.build_request("bench", dialect, history, tools, system=system), tally)
    tally.texts.append(reply_text(dialect, scenario.answer, [], tools))
    return tally


def five_hundred_lines() -> str:
    return "".join(f"def handler_{n}(event):\n    return dispatch(event, {n})\n" for n in range(250))


def tokens_by_dialect() -> list[Figure]:
    """The same write_file call in each dialect (floor: the file's own tokens), the three scenarios of
    origins: client-tools (floor: the native dialect; for native itself, the json dialect), and a one-line
    edit of a 500-line file against rewriting it."""
    *_, tools = _agentlite()
    from agentlite.stream.decoder import DIALECTS

    write = {
        "id": "call_1",
        "name": "write_file",
        "arguments": {"path": "/src/Button.tsx", "content": BUTTON},
    }
    calls = {d: reply_text(d, "", [write], tools) for d in DIALECTS}
    scenarios = {(d, i): scenario_tally(d, s) for d in DIALECTS for i, s in enumerate(SCENARIOS, 1)}
    source = five_hundred_lines()
    line = "    return dispatch(event, 137)\n"
    edit = {
        "path": "/src/handlers.py",
        "originalCode": line,
        "newCode": line.replace("137", "137, retry=True"),
    }
    edit_call = reply_text("native", "", [{"id": "e", "name": "edit_file", "arguments": edit}], tools)
    rewrite = {"path": "/src/handlers.py", "content": source.replace(line, edit["newCode"])}
    rewrite_call = reply_text("native", "", [{"id": "w", "name": "write_file", "arguments": rewrite}], tools)
    texts = [BUTTON, *calls.values(), edit_call, rewrite_call]
    counts = count_tokens(texts + [t for tally in scenarios.values() for t in tally.texts])
    figures = [Figure(f"tokens_{d}", counts[calls[d]], "tokens", counts[BUTTON], goal="") for d in DIALECTS]
    for (dialect, number), tally in scenarios.items():
        native = scenarios[("native", number)].total(counts)
        name, total = f"tokens_{dialect}_scenario{number}", tally.total(counts)
        if dialect == "native":  # the goal: native costs at most 10% more than the json dialect
            json_total = scenarios[("json", number)].total(counts)
            figures.append(Figure(name, total, "tokens", json_total, goal="≤ 1.1× floor"))
        else:
            figures.append(Figure(name, total, "tokens", native))
    figures.append(
        Figure("edit_tokens", counts[edit_call], "tokens", counts[rewrite_call], goal="≤ 0.1× floor")
    )
    return figures
