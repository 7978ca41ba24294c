"""A format's design thresholds: the success criteria its own design document sets (COON's §8), and the verdicts
they give.

A format plug-in declares them through ``Format.design_thresholds()``; a format that declares none gets paired
comparisons but no verdict — one design's targets are not a yardstick for another project's formats. Two deciders:
``decide`` on point estimates (the comprehension task's ``verdict`` metric, printed by Inspect) and
``decide_intervals`` on 95% intervals (the report): a condition counts as met or missed only when its whole
interval is on one side of the threshold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SUCCESS, PARTIAL, FAILURE, UNDECIDED = "success", "partial", "failure", "undecided"
MET, MISSED, OPEN = "met", "missed", "open"  # one condition on its interval
VERDICT_VALUES = {SUCCESS: 1.0, PARTIAL: 0.5, FAILURE: 0.0}  # the metric's numbers (undecided: NaN, "n/a")


@dataclass(frozen=True)
class DesignThresholds:
    """Success = accuracy ≥ ``min_accuracy``, gap to ``baseline`` ≤ ``max_gap`` and efficiency gain ≥
    ``min_efficiency_gain``; failure = accuracy < ``partial_accuracy``; partial otherwise."""

    baseline: str  # the format the design compares against (COON: raw Dart)
    min_accuracy: float
    partial_accuracy: float
    max_gap: float  # baseline accuracy − format accuracy, as a fraction (0.05 = 5 points)
    min_efficiency_gain: float  # (accuracy per token) ÷ the baseline's
    source: str  # where the numbers come from, cited in the report
    min_generation_validity: float | None = None  # share of generated programs that are valid in the format

    def decide_validity(self, validity: tuple[float, float]) -> str:
        """Generation validity on its 95% interval: 'success' when the whole interval reaches the target,
        'failure' when it lies wholly below, else 'undecided' (the design's §8.1 gives no partial band)."""
        if self.min_generation_validity is None:
            return UNDECIDED
        if validity[0] >= self.min_generation_validity:
            return SUCCESS
        return FAILURE if validity[1] < self.min_generation_validity else UNDECIDED

    def decide(self, accuracy: float, gap: float, gain: float) -> str:
        """On point estimates: 'failure' below ``partial_accuracy`` whatever the efficiency; 'success' when all three
        targets are met; 'partial' otherwise (a NaN gain is not a gain)."""
        if accuracy < self.partial_accuracy:
            return FAILURE
        gained = not math.isnan(gain) and gain >= self.min_efficiency_gain
        return SUCCESS if accuracy >= self.min_accuracy and gap <= self.max_gap and gained else PARTIAL

    def criteria(self, accuracy: tuple[float, float], gap: tuple[float, float],
                 gain: tuple[float, float]) -> dict[str, str]:
        """Each condition on its 95% interval (low, high): 'met' or 'missed' when the whole interval is on one side
        of its threshold, 'open' when it straddles it (what the report's prose says of each, never retyped)."""
        met = {"accuracy": accuracy[0] >= self.min_accuracy, "gap": gap[1] <= self.max_gap,
               "efficiency gain": _finite(gain[0]) and gain[0] >= self.min_efficiency_gain}
        missed = {"accuracy": accuracy[1] < self.min_accuracy, "gap": gap[0] > self.max_gap,
                  "efficiency gain": _finite(gain[1]) and gain[1] < self.min_efficiency_gain}
        return {name: MET if met[name] else MISSED if missed[name] else OPEN for name in met}

    def decide_intervals(self, accuracy: tuple[float, float], gap: tuple[float, float],
                         gain: tuple[float, float]) -> tuple[str, list[str]]:
        """On 95% intervals (low, high): (verdict, the conditions the intervals cannot settle).

        failure: the whole accuracy interval is below ``partial_accuracy``; success: every target met by the whole
        interval (accuracy low ≥ target, gap high ≤ target, gain low ≥ target); partial: accuracy shown ≥
        ``partial_accuracy`` and one target shown missed; otherwise 'undecided', naming what straddles a threshold.
        """
        acc_low, acc_high = accuracy
        if acc_high < self.partial_accuracy:
            return FAILURE, []
        status = self.criteria(accuracy, gap, gain)
        met = {name: s == MET for name, s in status.items()}
        missed = {name: s == MISSED for name, s in status.items()}
        if all(met.values()):
            return SUCCESS, []
        open_ = [name for name in met if not met[name] and not missed[name]]
        if acc_low >= self.partial_accuracy and any(missed.values()):
            return PARTIAL, open_
        if acc_low < self.partial_accuracy:
            open_.insert(0, f"accuracy against {self.partial_accuracy:.0%}")
        return UNDECIDED, open_


def _finite(value: float) -> bool:
    return isinstance(value, float | int) and math.isfinite(value)
