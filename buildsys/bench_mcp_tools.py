"""`mcp_tools_tokens`: the share of a 32k-token window that a 40-tool MCP server's listing takes, per
dialect, counted with the real tokenizer as `bench_tokens` counts requests.

The listing (tests/data/mcp_forty_tools.json) is modeled on the GitHub and filesystem MCP servers' tools,
descriptions and schemas as they list them; it becomes registry tools through
`agentlite.mcp.remote_tool.remote_tools`, as a connected server's would. The share is the request with
the agent's own tools and the server's, less the same request without the server's, over the window.
`mcp_tools_tokens` is the largest share of the dialects; `…_<dialect>` each one; `…_<dialect>_full` the
listing as offered before the listing budget (docs/mcp.md, "The listing budget").
"""

from __future__ import annotations

import json
from typing import Any

from buildsys.bench_figure import Figure
from buildsys.bench_tokens import Tally, _agentlite, count_tokens, request_tally
from buildsys.common import ROOT

LISTING = ROOT / "tests" / "data" / "mcp_forty_tools.json"
WINDOW = 32_768
SERVER = "github"


class _NoCalls:
    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        raise AssertionError("the benchmark calls no tool")


def remote_definitions(listing_budget: int) -> list[dict[str, Any]]:
    """The server's tools as the registry offers them under `listing_budget` (estimated tokens)."""
    from agentlite.mcp.remote_tool import remote_tools

    listed = json.loads(LISTING.read_text(encoding="utf-8"))["tools"]
    offered = remote_tools(_NoCalls(), SERVER, listed, listing_budget=listing_budget)
    return [tool.definition() for tool in offered]


def _tally(dialect: str, tools: list[dict[str, Any]]) -> Tally:
    prompt, _, request, _ = _agentlite()
    history = [{"role": "user", "content": "List the open issues of octo/demo."}]
    body = request.build_request("bench", dialect, history, tools, system=prompt.system_prompt("agent"))
    tally = Tally()
    request_tally(body, tally)
    return tally


def mcp_tools_tokens() -> list[Figure]:
    *_, own = _agentlite()
    from agentlite.mcp.listing import DEFAULT_BUDGET
    from agentlite.stream.decoder import DIALECTS

    offered = {"": remote_definitions(DEFAULT_BUDGET), "_full": remote_definitions(10**9)}
    tallies = {(d, k): _tally(d, own + tools) for d in DIALECTS for k, tools in offered.items()}
    bare = {d: _tally(d, own) for d in DIALECTS}
    counts = count_tokens([t for tally in [*tallies.values(), *bare.values()] for t in tally.texts])
    figures = []
    for (dialect, kind), tally in tallies.items():
        share = (tally.total(counts) - bare[dialect].total(counts)) / WINDOW
        figures.append(Figure(f"mcp_tools_tokens_{dialect}{kind}", share, "share"))
    capped = [f.value for f in figures if not f.name.endswith("_full")]
    return [Figure("mcp_tools_tokens", max(capped), "share", goal="≤ 0.1"), *figures]
