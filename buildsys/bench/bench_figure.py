"""A benchmark's figure: the leaf every `bench_*` module and the runner (`bench.py`) share, so the
runner can import the benchmarks at the top and no module imports the runner back. A benchmark that
cannot be measured becomes a `Missing` row with its reason; one whose prerequisite is absent says so
before its run by raising `Unmeasurable`."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from buildsys.common import BuildError


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    floor: float | None = None  # the floor's own measurement, same unit
    runs: int = 1
    goal: str = ""

    @property
    def ratio(self) -> float | None:
        return None if not self.floor else self.value / self.floor

    def to_json(self) -> dict:
        ratio = self.ratio
        return {
            "value": round(self.value, 3),
            "unit": self.unit,
            "floor": None if self.floor is None else round(self.floor, 3),
            "ratio": None if ratio is None else round(ratio, 3),
            "runs": self.runs,
        }


def median(values: list[float]) -> float:
    return statistics.median(values)


class Unmeasurable(Exception):
    """What a benchmark needs is missing (a file, a tool): raised before its run, at once, with what is
    missing and how to get it, instead of a wait that ends in a timeout."""


@dataclass(frozen=True)
class Missing:
    """A benchmark that could not be measured, and why: a row of the table and an entry of the JSON."""

    name: str
    reason: str

    @classmethod
    def of(cls, name: str, error: Exception) -> Missing:
        """The reason on one line: the error's own words, its type when they do not say what failed."""
        text = " ".join(str(error).split())
        if not isinstance(error, (Unmeasurable, BuildError)):
            text = f"{type(error).__name__}: {text}" if text else type(error).__name__
        return cls(name, text[:500] or "no reason given")

    def to_json(self) -> dict[str, str | None]:
        return {"value": None, "missing": self.reason}
