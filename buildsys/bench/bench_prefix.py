"""`prefix_reuse`: of each round's request, the share of tokens that repeats the previous request from
its first byte (what provider prompt caches bill at a tenth), over the rounds of the client-tools note's
scenarios in every dialect. Reported per scenario as prefix tokens over request tokens summed over its
rounds after the first (the scenario's turn, then a follow-up turn with another file open); the figure
is the lowest scenario (0–1, no floor; goal ≥ 0.95). A round can repeat at most the whole previous
request: what it appends (the call, its result, the next message) is new. `prefix_kept` says how much
of the previous request each round repeats (1: every round only appends, nothing before changes).
"""

from __future__ import annotations

import itertools
import sys

from buildsys.bench.bench_figure import Figure
from buildsys.bench.bench_tokens import SCENARIOS, count_tokens
from buildsys.common import ROOT, say

DIALECTS = ("native", "json", "ndjson", "ndjson-text")


def shares() -> tuple[dict[tuple[str, int], float], float]:
    """(dialect, scenario number) → its share of repeated prefix tokens; and the lowest share of a
    previous request that the next one repeated."""
    if str(ROOT / "py") not in sys.path:
        sys.path.insert(0, str(ROOT / "py"))
    from buildsys.bench import bench_prefix_load as load  # imports agentlite from py/

    pairs: dict[tuple[str, int], list[tuple[str, str]]] = {}
    kept = 1.0
    for dialect in DIALECTS:
        for number, scenario in enumerate(SCENARIOS, 1):
            rounds = list(itertools.pairwise(load.requests(scenario, dialect)))
            pairs[(dialect, number)] = [(load.common_prefix(a, b), b) for a, b in rounds]
            kept = min([kept, *(len(load.common_prefix(a, b)) / len(a) for a, b in rounds)])
    counts = count_tokens([text for items in pairs.values() for pair in items for text in pair])
    result = {}
    for key, items in pairs.items():
        repeated = sum(counts[prefix] for prefix, _ in items)
        total = sum(counts[request] for _, request in items)
        result[key] = repeated / total if total else 1.0
    return result, kept


def prefix_reuse() -> list[Figure]:
    found, kept = shares()
    for (dialect, number), share in sorted(found.items()):
        say(f"prefix_reuse {dialect} scenario {number}: {share:.3f}")
    runs = len(found)
    return [
        Figure("prefix_reuse", min(found.values()), "share", None, runs=runs, goal="≥ 0.95"),
        Figure("prefix_kept", kept, "share", None, runs=runs, goal="1"),
    ]
