"""`mcp_tools_tokens`: the share of a 32k-token window that a 40-tool MCP server's listing takes, per
dialect, counted with the real tokenizer as `bench_tokens` counts requests.

The listing (tests/data/mcp_forty_tools.json) is modeled on the GitHub and filesystem MCP servers' tools,
descriptions and schemas as they list them; it becomes registry tools through
`agentlite.mcp.remote_tool.remote_tools`, as a connected server's would, fitted with the real tokenizer
installed (`bench_counter.RealCounter`), as the worker fits them for every request once it has it.
The share is the request with the agent's own tools and the server's, less the same request without the
server's, over the window. `mcp_tools_tokens` is the largest share of the dialects; `…_<dialect>` each
one; `…_<dialect>_full` the listing as offered before the listing budget (docs/mcp.md, "The listing
budget"); `mcp_tools_offered` how many of the 40 tools a 32k window offers. `mcp_tools_tokens_8k` is the
largest share of an 8k window (a small model's) the tools offered in it take, and `mcp_tools_offered_8k`
how many there are.
"""

from __future__ import annotations

import json
from typing import Any

from buildsys.bench.bench_counter import RealCounter
from buildsys.bench.bench_figure import Figure
from buildsys.bench.bench_tokens import Tally, _agentlite, count_tokens, request_tally
from buildsys.common import ROOT

LISTING = ROOT / "tests" / "data" / "mcp_forty_tools.json"
WINDOW = 32_768
SMALL_WINDOW = 8_192
SERVER = "github"


class _NoCalls:
    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        raise AssertionError("the benchmark calls no tool")


def remote_definitions(listing_budget: int) -> list[dict[str, Any]]:
    """The server's tools as the registry offers them under `listing_budget` (tokens of the tokenizer
    installed, else the count before it)."""
    from agentlite.mcp.remote_tool import remote_tools

    listed = json.loads(LISTING.read_text(encoding="utf-8"))["tools"]
    offered = remote_tools(_NoCalls(), SERVER, listed, listing_budget=listing_budget)
    return [tool.definition() for tool in offered]


def offered_by_window() -> dict[str, list[dict[str, Any]]]:
    """The server's tools as offered in a 32k window, an 8k one, and unbounded ("_full"), fitted with the
    real tokenizer as the worker fits them."""
    from agentlite.engine import tokens
    from agentlite.mcp.listing import server_budget

    counter = RealCounter()
    try:
        tokens.use(counter)
        return {
            "": remote_definitions(server_budget(WINDOW, 1)),
            "_8k": remote_definitions(server_budget(SMALL_WINDOW, 1)),
            "_full": remote_definitions(10**9),
        }
    finally:
        tokens.use(None)
        counter.close()


def _tally(dialect: str, tools: list[dict[str, Any]]) -> Tally:
    prompt, _, request, _ = _agentlite()
    history = [{"role": "user", "content": "List the open issues of octo/demo."}]
    body = request.build_request("bench", dialect, history, tools, system=prompt.system_prompt("agent"))
    tally = Tally()
    request_tally(body, tally)
    return tally


def mcp_tools_tokens() -> list[Figure]:
    *_, own = _agentlite()
    from agentlite.stream.decoder import DIALECTS

    offered = offered_by_window()
    tallies = {(d, k): _tally(d, own + tools) for d in DIALECTS for k, tools in offered.items()}
    bare = {d: _tally(d, own) for d in DIALECTS}
    counts = count_tokens([t for tally in [*tallies.values(), *bare.values()] for t in tally.texts])
    figures, small = [], []
    for (dialect, kind), tally in tallies.items():
        tokens = tally.total(counts) - bare[dialect].total(counts)
        if kind == "_8k":
            small.append(tokens / SMALL_WINDOW)
        else:
            figures.append(Figure(f"mcp_tools_tokens_{dialect}{kind}", tokens / WINDOW, "share"))
    capped = [f.value for f in figures if not f.name.endswith("_full")]
    print(f"[bench] mcp_tools_offered: {len(offered[''])} of 40 (8k window: {len(offered['_8k'])})")
    return [
        Figure("mcp_tools_tokens", max(capped), "share", goal="≤ 0.1"),
        Figure("mcp_tools_offered", len(offered[""]), "tools", goal="40"),
        Figure("mcp_tools_tokens_8k", max(small), "share", goal="≤ 0.1"),
        Figure("mcp_tools_offered_8k", len(offered["_8k"]), "tools"),
        *figures,
    ]
