"""What a paired comparison can detect: the power of the report's own test at a true difference, and the smallest
difference it detects with 80% power — the same rule for ``coonbench plan`` (before a run) and the report's
``mdd`` column (after it).

Two formats answer the same questions; a pair's difference d is +1 (only A right), −1 (only B right) or 0. With a
share q of discordant pairs and a true difference δ = P(+1) − P(−1), Var(d) = q − δ²: the variance moves with the
difference, and a difference larger than the discordance needs more discordance (at least δ: every discordant
pair one way), so q(δ) = max(q, δ). Answers from one source item may agree (design effect ``deff``).

- Pairs that share source items, tested by the CR2 t test (``coonbench.report.cluster``): power is that of the
  noncentral t on the test's degrees of freedom, noncentrality δ / √(deff · (q(δ) − δ²) / n).
- Each pair its own cluster, tested by exact McNemar: power is exact, summed over the number of discordant pairs
  D ~ Binomial(n, q(δ)) and the split of each D, A ~ Binomial(D, (q(δ) + δ) / 2q(δ)).

The detectable difference solves power(δ) = 80% (power grows with δ) at the level a comparison of a Holm family
of m is first tested at, α/m. ``tests/test_plan.py`` checks it against a Monte Carlo of the report's test.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy import optimize, stats

ALPHA = 0.05
POWER = 0.80
MAX_EXACT_PAIRS = 20000  # beyond this many independent pairs the noncentral t is exact enough (and faster)


def _discordance(delta: float, discordance: float) -> float:
    return min(max(discordance, abs(delta)), 1.0)


def _t_power(pairs: int, discordance: float, deff: float, df: float, alpha: float) -> Callable[[float], float]:
    crit = float(stats.t.ppf(1 - alpha / 2, df))

    def power(delta: float) -> float:
        q = _discordance(delta, discordance)
        var = max(q - delta * delta, 0.0) * max(deff, 1.0) / pairs
        if var <= 0:
            return 1.0 if delta else 0.0
        ncp = abs(delta) / math.sqrt(var)
        found = float(stats.nct.sf(crit, df, ncp) + stats.nct.cdf(-crit, df, ncp))
        return found if math.isfinite(found) else float(ncp > crit)  # scipy's tails give NaN far out

    return power


def _mcnemar_power(pairs: int, discordance: float, alpha: float) -> Callable[[float], float]:
    d = np.arange(pairs + 1)
    k = stats.binom.ppf(alpha / 2, d, 0.5).astype(int)  # the largest k with 2·P(A ≤ k) < α is k or k − 1
    k = np.where(2 * stats.binom.cdf(k, d, 0.5) < alpha, k, k - 1)  # k = −1: no split of d rejects

    def power(delta: float) -> float:
        q = _discordance(delta, discordance)
        if q <= 0:
            return 0.0
        share = (q + abs(delta)) / (2 * q)
        reject = stats.binom.cdf(k, d, share) + stats.binom.sf(d - k - 1, d, share)
        return float(np.sum(stats.binom.pmf(d, pairs, q) * reject))

    return power


def power_function(pairs: int, discordance: float, deff: float = 1.0, df: float | None = None,
                   alpha: float = ALPHA) -> Callable[[float], float] | None:
    """δ ↦ the probability that the report's paired test at level ``alpha`` declares a true difference δ: exact
    McNemar when ``df`` is None (independent pairs), else the clustered t on ``df`` degrees of freedom; None when
    no test can be made (fewer than two pairs, no degrees of freedom)."""
    if pairs < 2:
        return None
    if df is None:
        if pairs <= MAX_EXACT_PAIRS:
            return _mcnemar_power(pairs, discordance, alpha)
        df = pairs - 1.0
    return _t_power(pairs, discordance, deff, df, alpha) if df > 0 else None


def paired_power(delta: float, pairs: int, discordance: float, deff: float = 1.0, df: float | None = None,
                 alpha: float = ALPHA) -> float:
    """Probability that the report's paired test at level ``alpha`` declares a true difference ``delta``."""
    power = power_function(pairs, discordance, deff, df, alpha)
    return power(delta) if power is not None else math.nan


def paired_detectable_difference(pairs: int, discordance: float, deff: float = 1.0, df: float | None = None,
                                 alpha: float = ALPHA, power: float = POWER) -> float:
    """The smallest true difference (0–1) the report's paired test detects with probability ``power``; NaN when
    no test can be made, inf when not even a difference of 100 points would be detected."""
    at = power_function(pairs, discordance, deff, df, alpha)
    if at is None:
        return math.nan
    if at(1.0) < power:
        return math.inf
    low, high = 1e-6, 1.0
    if at(low) >= power:
        return low
    # bracket the root near the normal approximation (variance at the discordance): fewer costly evaluations
    guess = (stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power)) * math.sqrt(max(discordance, 1e-4)
                                                                               * max(deff, 1.0) / pairs)
    if low < guess / 2 and at(guess / 2) < power:
        low = guess / 2
    if 2 * guess < high and at(2 * guess) >= power:
        high = 2 * guess
    return float(optimize.brentq(lambda delta: at(delta) - power, low, high, xtol=1e-4))


def planned_detectable_difference(pairs: int, clusters: int, discordance: float, icc: float = 0.0,
                                  comparisons: int = 1, alpha: float = ALPHA, power: float = POWER,
                                  df: float | None = None) -> float:
    """The minimum detectable accuracy difference of a planned paired comparison (``coonbench plan``).

    ``pairs`` questions answered in both formats, drawn from ``clusters`` source items; ``discordance`` the expected
    share of pairs where exactly one format is right; ``icc`` the intra-cluster correlation of paired differences,
    giving the design effect 1 + (pairs/clusters − 1)·icc; ``comparisons`` the m of the Holm family (tested at α/m,
    its first step); ``df`` the clustered test's degrees of freedom (``cluster.Design.df``: the planned cluster
    sizes; clusters − 1 when not given). Each pair its own cluster: exact McNemar.
    """
    if pairs < 2 or clusters < 2:
        return math.nan
    level = alpha / max(comparisons, 1)
    if clusters >= pairs:
        return paired_detectable_difference(pairs, discordance, 1.0, None, level, power)
    deff = 1 + (pairs / clusters - 1) * icc
    return paired_detectable_difference(pairs, discordance, deff, clusters - 1.0 if df is None else df, level, power)
