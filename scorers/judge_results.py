"""What one judge returned: its result per criteria list and its counts of calls, parse failures and re-asks.

Why apart: ``scorers.judge_ask`` fills these and ``scorers.judge_values`` turns them into numbers; both import them
from here, so neither imports the other.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any

from coonbench.scorers.judge_parsing import Grade


@dataclass
class ListResult:
    """One judge's result for one criteria list."""

    score: float
    verdicts: list[dict[str, Any]] | None = None
    report: str | None = None
    grade: Grade | None = None


@dataclass
class JudgeResult:
    """One judge (role) over both lists; ``ok`` is False when any list stayed unusable after the re-asks."""

    role: str
    model: str
    lists: dict[str, ListResult] = field(default_factory=dict)
    calls: int = 0
    parse_failures: int = 0
    reasks: int = 0
    errors: list[str] = field(default_factory=list)
    ok: bool = True

    def list_score(self, name: str) -> float:
        return self.lists[name].score if self.ok and name in self.lists else math.nan

    def combined(self) -> float:
        values = [r.score for r in self.lists.values()] if self.ok else []
        return statistics.fmean(values) if values else math.nan
