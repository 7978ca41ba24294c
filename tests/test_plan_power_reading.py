"""The plan's minimum detectable difference read independently: at the difference the plan names, a two-sided t
test with clusters − 1 degrees of freedom must have the planned power, computed here from the noncentral t
distribution (scipy), not from the plan's or the report's own formula.

The plan states, for each comparison, its pairs, clusters, assumed discordance and design effect; the standard
error of the mean paired difference follows from those (√(discordance × design effect / pairs)). Few clusters make
the degrees of freedom matter (equal clusters: the report's Imbens–Kolesár degrees of freedom are clusters − 1, and
the variance of a paired difference of δ is max(q, δ) − δ²): with 4 clusters the critical t is 3.18, with 12 pairs' 11 degrees of freedom 2.20,
so a plan whose degrees of freedom were wrong claims a difference it detects only about half the time.
"""

from __future__ import annotations

import math

import pytest
from scipy import stats as sps

from coonbench.plan import power
from coonbench.report.stats import ALPHA, POWER


def _power_at(difference: float, se: float, df: int, alpha: float) -> float:
    """Probability that a two-sided t test at level ``alpha`` rejects when the true difference is ``difference``
    and its estimate has standard error ``se`` (the noncentral t with noncentrality difference / se)."""
    crit = sps.t.ppf(1 - alpha / 2, df)
    shift = difference / se
    return float(sps.nct.sf(crit, df, shift) + sps.nct.cdf(-crit, df, shift))


@pytest.mark.parametrize(("questions", "clusters", "family"), [(12, 4, 1), (40, 8, 3), (60, 60, 6), (10, 5, 1)])
def test_the_planned_difference_is_detected_with_the_planned_power(questions: int, clusters: int, family: int) -> None:
    planned = power.comparison("a", "b", questions, clusters, 1, family, None)
    assert planned.pairs == questions and planned.clusters == clusters
    # the variance of a paired difference moves with it: discordance q(δ) = max(q, δ), variance q(δ) − δ²
    delta = planned.mdd
    se = math.sqrt((max(planned.discordance, delta) - delta**2) * planned.design_effect / planned.pairs)
    achieved = _power_at(planned.mdd, se, clusters - 1, ALPHA / family)
    # one cluster a pair: the plan uses exact McNemar (tests/test_report_stats.py enumerates its power), which the
    # noncentral t approximates less closely
    assert achieved == pytest.approx(POWER, abs=0.03 if clusters < questions else 0.05), (planned, achieved)
    if clusters < questions:  # the degrees of freedom of the pairs instead of the clusters would fall well short
        wrong = (sps.t.ppf(1 - ALPHA / family / 2, questions - 1) + sps.t.ppf(POWER, questions - 1)) * se
        assert _power_at(wrong, se, clusters - 1, ALPHA / family) < POWER - 0.1
