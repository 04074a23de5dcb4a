"""A benchmark's figure: the leaf every `bench_*` module and the runner (`bench.py`) share, so the
runner can import the benchmarks at the top and no module imports the runner back."""

from __future__ import annotations

import statistics
from dataclasses import dataclass


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
