"""`skills_tokens`: the share of a 32k-token window that the listing of 30 installed Agent Skills takes
(docs/skills.md), counted with the real tokenizer as `bench_tokens` counts requests.

The skills (tests/data/skills_thirty.json) have descriptions of the length public skills have. Their
listing is rendered as the engine renders it before each request (`skills.skill_listing`, within 2% of
the window) and measured as the one message it is. `skills_tokens_full` is the same listing with no
budget, to show what the budget saves. The goal is ≤ 2%; there is no floor.
"""

from __future__ import annotations

import json

from buildsys.bench.bench_figure import Figure
from buildsys.bench.bench_tokens import Tally, _agentlite, count_tokens
from buildsys.common import ROOT

SKILLS = ROOT / "tests" / "data" / "skills_thirty.json"
WINDOW = 32_768


def _listing(budget: int | None) -> str:
    _, tokens, _, _ = _agentlite()
    from agentlite.skills.skill_listing import budget_for, render, skills_message
    from agentlite.skills.skill_rules import Skill

    listed = json.loads(SKILLS.read_text(encoding="utf-8"))["skills"]
    skills = [Skill(s["name"], f"/.agents/skills/{s['name']}", s["description"]) for s in listed]
    text = render(skills, budget_for(WINDOW) if budget is None else budget, tokens.TokenCounter().text)
    return str(skills_message(text)[0]["content"])


def skills_tokens() -> list[Figure]:
    _, tokens, _, _ = _agentlite()
    texts = {"": _listing(None), "_full": _listing(10**9)}
    counts = count_tokens(list(texts.values()))
    figures = []
    for kind, text in texts.items():
        tally = Tally([text], tokens.MESSAGE_OVERHEAD)
        figures.append(Figure(f"skills_tokens{kind}", tally.total(counts) / WINDOW, "share"))
    return [Figure(figures[0].name, figures[0].value, "share", goal="≤ 0.02"), figures[1]]
