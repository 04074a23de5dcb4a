"""What hostile text in the workspace costs the agent before a request (docs/skills.md, "Bounded whatever
the workspace holds"), in CPython (Pyodide in the page runs the same code about 3x slower).

- `skills_listing_worst`: 200 hostile SKILL.md files (values of 16,000 spaces, of `#`s, of doubled
  quotes, thousands of continuation lines or list items, flow lists of thousands of items; half of them
  valid with 1,024-character descriptions, so the listing must be cut) -> the listing the engine puts in
  a 32k-token request (`skills.skill_listing.read_listing`), from nothing parsed: ms (goal ≤ 500 ms).
- `skills_listing_worst_cached`: the same listing again with the workspace unchanged, as before every
  later request: no SKILL.md is read or parsed, the listing is kept.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from collections.abc import Callable

from buildsys.bench.bench_figure import Figure
from buildsys.common import ROOT

SKILLS = 200
WINDOW = 32_768
RUNS = 5
FILL = 16_000  # characters of hostile text a frontmatter holds (it must close within 16 KiB)

HOSTILE: list[Callable[[str], str]] = [
    lambda name: f"description: a{' ' * FILL}b\n",
    lambda name: f"description: a{' ' * FILL}#b\n",
    lambda name: f"description: {'a#' * (FILL // 2)}\n",
    lambda name: "description: '" + "'' " * (FILL // 3) + "'\n",
    lambda name: "description: a\n" + "  w\n" * (FILL // 4),
    lambda name: "description: d\nmetadata:\n" + "  - x\n" * (FILL // 6),
    lambda name: "description: d\nallowed-tools: [" + "a, " * (FILL // 3) + "b]\n",
    lambda name: 'description: "' + "\\t" * (FILL // 2) + '"\n',
]


def skill_md(index: int) -> tuple[str, str]:
    name = f"hostile-{index:03d}"
    if index % 2:
        description = (f"Skill {index} does one thing. " * 40)[:1024]
        front = f"description: {description}\nmetadata:\n  note: {'x' * (FILL - 1200)}\n"
    else:
        front = HOSTILE[index // 2 % len(HOSTILE)](name)
    return f"/.agents/skills/{name}/SKILL.md", f"---\nname: {name}\n{front}---\nDo the thing.\n"


def _agentlite() -> None:
    if str(ROOT / "py") not in sys.path:
        sys.path.insert(0, str(ROOT / "py"))


async def _listing_ms() -> tuple[float, float, int]:
    """(ms from nothing parsed, ms again unchanged, characters of the listing)."""
    from agentlite.engine.tokens import TokenCounter
    from agentlite.skills import skill_discovery, skill_listing
    from agentlite.workspace import MemoryStorage, Workspace

    workspace = await Workspace.open(MemoryStorage())
    for index in range(SKILLS):
        await workspace.write(*skill_md(index), turn="setup", author="user")
    skill_discovery.PARSED = skill_discovery.Parsed()
    skill_listing._last.clear()
    count = TokenCounter().text
    start = time.perf_counter()
    text = await skill_listing.read_listing(workspace, WINDOW, count)
    cold = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    again = await skill_listing.read_listing(workspace, WINDOW, count)
    cached = (time.perf_counter() - start) * 1000
    if again != text or skill_discovery.PARSED.parses != SKILLS:
        raise AssertionError("the unchanged workspace was parsed again or listed differently")
    return cold, cached, len(text)


def skills_listing_worst() -> list[Figure]:
    _agentlite()
    runs = [asyncio.run(_listing_ms()) for _ in range(RUNS)]
    cold = statistics.median(r[0] for r in runs)
    cached = statistics.median(r[1] for r in runs)
    return [
        Figure("skills_listing_worst", cold, "ms", runs=RUNS, goal="≤ 500 ms"),
        Figure("skills_listing_worst_cached", cached, "ms", runs=RUNS, goal="no parse"),
    ]
