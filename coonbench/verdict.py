"""The COON design's success criteria (seeds/000 §8), in one place: the comprehension task's ``verdict`` metric
and ``coonbench report`` both decide with these thresholds, so a log and its report can never disagree."""

from __future__ import annotations

import math

# Minimum viable figures (§8.1) and the success / partial / failure indicators (§8.2).
MIN_ACCURACY = 0.75
MAX_GAP = 0.05
MIN_EFFICIENCY_GAIN = 1.5
PARTIAL_ACCURACY = 0.65
VERDICT_VALUES = {"success": 1.0, "partial": 0.5, "failure": 0.0}


def decide(accuracy: float, gap: float, gain: float) -> str:
    """'failure' below 65% accuracy whatever the efficiency; 'success' when accuracy ≥ 75%, the gap to the
    baseline ≤ 5 points and the efficiency gain ≥ 1.5×; 'partial' otherwise (a NaN gain is not a gain)."""
    if accuracy < PARTIAL_ACCURACY:
        return "failure"
    gained = not math.isnan(gain) and gain >= MIN_EFFICIENCY_GAIN
    return "success" if accuracy >= MIN_ACCURACY and gap <= MAX_GAP and gained else "partial"
