"""The problems one change introduced or fixed: the difference of two pictures, never the backlog.

Problems are matched by what they are (path, code, message), not by where: an edit that inserts lines
above a problem moves it without introducing it. Of several copies of one problem, those at the same
position are paired first; what is left over is introduced (after) or fixed (before). Pure.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from agentlite.problems.problem import Problem, Problems

SHOWN = 20  # problems listed per side; the rest are counted


@dataclass(frozen=True)
class ProblemDiff:
    introduced: tuple[Problem, ...] = ()
    fixed: tuple[Problem, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.introduced or self.fixed)


def diff(before: Problems, after: Problems) -> ProblemDiff:
    """What `after` has that `before` had not (introduced) and the reverse (fixed), in path/line order.
    Only the files named in `after` or `before` are compared; a file missing from one side has none."""
    old, new = _by_key(before), _by_key(after)
    introduced: list[Problem] = []
    fixed: list[Problem] = []
    for key in old.keys() | new.keys():
        gained, lost = _unpaired(old.get(key, []), new.get(key, []))
        introduced += gained
        fixed += lost
    return ProblemDiff(tuple(sorted(introduced)), tuple(sorted(fixed)))


def _by_key(problems: Problems) -> dict[tuple[str, str, str], list[Problem]]:
    grouped: dict[tuple[str, str, str], list[Problem]] = defaultdict(list)
    for rows in problems.values():
        for problem in rows:
            grouped[problem.key].append(problem)
    return grouped


def _unpaired(old: list[Problem], new: list[Problem]) -> tuple[list[Problem], list[Problem]]:
    """(new ones left over, old ones left over) after pairing same positions, then the rest in order."""
    at = {(p.line, p.col) for p in old} & {(p.line, p.col) for p in new}
    old_rest = sorted(p for p in old if (p.line, p.col) not in at)
    new_rest = sorted(p for p in new if (p.line, p.col) not in at)
    paired = min(len(old_rest), len(new_rest))
    return new_rest[paired:], old_rest[paired:]


def render(result: ProblemDiff, cap: int = SHOWN) -> str:
    """The lines the model reads: introduced first, then fixed, each capped; "" when nothing changed."""
    lines: list[str] = []
    for label, problems in (("introduced", result.introduced), ("fixed", result.fixed)):
        if problems:
            lines.append(f"Problems this change {label} ({len(problems)}):")
            lines += [problem.line_text() for problem in problems[:cap]]
            if len(problems) > cap:
                lines.append(f"... and {len(problems) - cap} more (check_problems lists them all)")
    return "\n".join(lines)
