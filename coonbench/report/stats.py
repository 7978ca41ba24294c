"""Error bars done right (Miller, "Adding Error Bars to Evals", arXiv 2411.00640), from scipy and statsmodels.

- a mean with its naive and cluster-robust standard error (questions from one source item are correlated);
- a proportion's interval: Wilson at the design-effect sample size when answers cluster, Wilson when each
  question is its own cluster or there is one cluster (flagged), Clopper-Pearson when every answer is the same;
- paired comparisons of two formats on the same questions: exact McNemar, a seeded cluster bootstrap for the
  accuracy difference (95% per comparison and Bonferroni-simultaneous over the family) and for the ratio of accuracy
  per 1K tokens, Holm's correction across a family, and the minimum detectable difference at 80% power at the
  family's corrected α with the clustering's design effect — so a report says "cannot tell apart" rather than
  rank noise.

statsmodels is imported module by module, inside the functions that use it: ``statsmodels.api`` alone takes
seconds to import.
"""

from __future__ import annotations

import functools
import gc
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

ALPHA = 0.05
POWER = 0.80
BOOTSTRAP_RESAMPLES = 2000
SEED = 20241104  # the bootstrap's seed: the same logs give the same intervals
MIN_BOOTSTRAP_CLUSTERS = 10  # below this many source items a cluster bootstrap is too narrow to trust

# How an interval was made (the ``interval`` column): the report's header and captions say which were used.
WILSON_DEFF = "wilson, design effect"
WILSON = "wilson"
WILSON_ONE_CLUSTER = "wilson, 1 cluster"
EXACT = "clopper-pearson, no variance"
T_CLUSTERED = "t, clustered"
T_NAIVE = "t"
NO_VARIANCE = "none: no variance"
CLUSTERED_METHODS = (WILSON_DEFF, T_CLUSTERED)


@dataclass(frozen=True)
class MeanEstimate:
    """A mean with naive and clustered standard errors, its 95% CI and how the CI was made."""

    n: int
    clusters: int
    mean: float
    se_naive: float
    se_clustered: float
    ci_low: float
    ci_high: float
    interval: str
    design_effect: float


def ols_standard_errors(x: np.ndarray, groups: np.ndarray) -> tuple[float, float]:
    """(naive, cluster-robust) standard error of the mean of ``x``: statsmodels OLS on a constant.

    The clustered one is Miller's eq. 4, ``sqrt(Σ_c (Σ_i (x_ic − x̄))²) / n``: statsmodels' cluster covariance
    without its small-sample factor; NaN with fewer than two clusters.
    """
    from statsmodels.regression.linear_model import OLS

    exog = np.ones((x.size, 1))
    naive = float(OLS(x, exog).fit().bse[0])
    if np.unique(groups).size < 2:
        return naive, math.nan
    fit = OLS(x, exog).fit(cov_type="cluster", cov_kwds={"groups": groups, "use_correction": False})
    return naive, float(fit.bse[0])


def design_effect(se_naive: float, se_clustered: float) -> float:
    """How many times the clustering inflates the variance of the mean (Kish), never below 1."""
    if not (math.isfinite(se_naive) and math.isfinite(se_clustered)) or se_naive <= 0:
        return 1.0
    return max(1.0, (se_clustered / se_naive) ** 2)


def wilson(successes: float, n: float, alpha: float = ALPHA) -> tuple[float, float]:
    """Wilson interval of a proportion (statsmodels ``proportion_confint``); ``n`` may be an effective size."""
    from statsmodels.stats.proportion import proportion_confint

    if n <= 0:
        return math.nan, math.nan
    low, high = proportion_confint(successes, n, alpha=alpha, method="wilson")
    return float(low), float(high)


def clopper_pearson(successes: int, n: int, alpha: float = ALPHA) -> tuple[float, float]:
    """Exact (Clopper-Pearson) interval of a proportion (statsmodels ``proportion_confint(method="beta")``)."""
    from statsmodels.stats.proportion import proportion_confint

    if n <= 0:
        return math.nan, math.nan
    low, high = proportion_confint(successes, n, alpha=alpha, method="beta")
    return float(np.nan_to_num(low)), float(np.nan_to_num(high, nan=1.0))


def _groups(clusters: np.ndarray | pd.Series | None, keep: np.ndarray, n: int) -> np.ndarray:
    if clusters is None:
        return np.arange(n)
    return pd.factorize(np.asarray(clusters, dtype=object)[keep])[0]


def mean_estimate(values: np.ndarray | pd.Series, clusters: np.ndarray | pd.Series | None = None) -> MeanEstimate:
    """Mean of ``values`` (NaN dropped) with its SEs and a 95% CI chosen by ``interval_rule``."""
    x = np.asarray(values, dtype=float)
    keep = ~np.isnan(x)
    x = x[keep]
    n = int(x.size)
    if n == 0:
        return MeanEstimate(0, 0, math.nan, math.nan, math.nan, math.nan, math.nan, NO_VARIANCE, math.nan)
    groups = _groups(clusters, keep, n)
    n_clusters = int(np.unique(groups).size)
    mean = float(x.mean())
    binary = bool(np.all((x == 0) | (x == 1)))
    if n < 2 or np.all(x == x[0]):
        low, high = clopper_pearson(int(x.sum()), n) if binary else (math.nan, math.nan)
        return MeanEstimate(n, n_clusters, mean, 0.0, 0.0, low, high, EXACT if binary else NO_VARIANCE, math.nan)
    naive, clustered = ols_standard_errors(x, groups)
    deff = design_effect(naive, clustered)
    method = interval_rule(binary, n_clusters, n)
    if binary:
        low, high = wilson(mean * n / deff, n / deff)
    else:
        se = max(clustered, naive) if math.isfinite(clustered) else naive
        df = (n_clusters if method == T_CLUSTERED else n) - 1
        crit = float(stats.t.ppf(1 - ALPHA / 2, df))
        low, high = mean - crit * se, mean + crit * se
    return MeanEstimate(n, n_clusters, mean, naive, clustered, low, high, method, deff)


def interval_rule(binary: bool, clusters: int, n: int) -> str:
    """Which 95% interval a mean gets (its answers vary).

    0/1 answers: Wilson at the effective sample size n ÷ design effect when several questions share a source item
    (never narrower than Wilson on n), Wilson when each question is its own cluster, and Wilson flagged
    "1 cluster" when every question comes from one item (no clustered interval can be estimated). Other values:
    Student's t on the larger of the naive and clustered SE with clusters − 1 degrees of freedom, or the naive t.
    """
    if binary:
        if clusters < 2:
            return WILSON_ONE_CLUSTER
        return WILSON_DEFF if clusters < n else WILSON
    return T_CLUSTERED if 1 < clusters < n else T_NAIVE


@dataclass(frozen=True)
class PairedComparison:
    """Format A against format B on the questions both answered (same system, question and epoch)."""

    pairs: int
    clusters: int
    acc_a: float
    acc_b: float
    diff: float  # acc_a − acc_b
    diff_low: float  # 95% CI, this comparison alone
    diff_high: float
    sim_low: float  # simultaneous CI over the family (Bonferroni level 1 − α/m)
    sim_high: float
    a_only: int  # A right, B wrong
    b_only: int
    p_mcnemar: float
    tokens_a: float
    tokens_b: float
    eff_ratio: float  # (acc/1K tokens of A) ÷ (acc/1K tokens of B)
    eff_ratio_low: float
    eff_ratio_high: float
    mdd: float  # minimum detectable |difference| at 80% power and α/m, design effect included
    family: int  # m: comparisons in the Holm family
    interval: str  # "cluster bootstrap", "exact on discordant pairs, few clusters" / "…, 1 cluster", "exact, all pairs agree"


def mcnemar_exact(a_only: int, b_only: int, both: int = 0, neither: int = 0) -> float:
    """Exact McNemar p-value (statsmodels): a binomial test on the discordant pairs."""
    from statsmodels.stats.contingency_tables import mcnemar

    if a_only + b_only == 0:
        return 1.0
    table = np.array([[both, a_only], [b_only, neither]])
    return float(mcnemar(table, exact=True).pvalue)


def minimum_detectable_difference(
    diffs: np.ndarray, p_pooled: float, clusters: np.ndarray | None = None, alpha: float = ALPHA
) -> float:
    """Smallest |accuracy difference| a two-sided paired test at level ``alpha`` detects with 80% power.

    MDD = (t₁₋α/₂ + t₀.₈) × SE of the mean paired difference, the SE the larger of the naive and clustered ones
    (so the design effect is in it), df = clusters − 1 (or pairs − 1). When every pair agrees the SE is
    √(2p̄(1−p̄)/n) (independent answers, p̄ kept ≥ 1/2n from 0 and 1).
    """
    d = np.asarray(diffs, dtype=float)
    n = int(d.size)
    if n < 2:
        return math.nan
    groups = np.arange(n) if clusters is None else pd.factorize(np.asarray(clusters, dtype=object))[0]
    g = int(np.unique(groups).size)
    if np.all(d == d[0]):
        p = min(max(p_pooled, 0.5 / n), 1 - 0.5 / n)
        se = math.sqrt(2 * p * (1 - p) / n)
    else:
        naive, clustered = ols_standard_errors(d, groups)
        se = max(naive, clustered) if math.isfinite(clustered) else naive
    df = (g if 1 < g < n else n) - 1
    return float((stats.t.ppf(1 - alpha / 2, df) + stats.t.ppf(POWER, df)) * se)


def _cluster_sums(a: np.ndarray, b: np.ndarray, ta: np.ndarray, tb: np.ndarray, clusters: np.ndarray) -> np.ndarray:
    codes = pd.factorize(clusters)[0]
    g = int(codes.max()) + 1
    return np.stack([np.bincount(codes, weights=w, minlength=g) for w in (a, b, ta, tb, np.ones_like(a))], axis=1)


@functools.lru_cache(maxsize=8)
def resample_counts(g: int, seed: int = SEED) -> np.ndarray:
    """How often each of g clusters is drawn in each resample (B × g); the same for every comparison of g
    clusters, since the seed fixes the draws (computed once per g)."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, g, size=(BOOTSTRAP_RESAMPLES, g)) + g * np.arange(BOOTSTRAP_RESAMPLES)[:, None]
    counts = np.bincount(draws.ravel(), minlength=BOOTSTRAP_RESAMPLES * g).reshape(BOOTSTRAP_RESAMPLES, g)
    counts = counts.astype(float)
    counts.flags.writeable = False
    return counts


def bootstrap_intervals(sums: np.ndarray, levels: tuple[float, ...], seed: int = SEED) -> dict[str, list[tuple[float, float]]]:
    """Percentile intervals of the accuracy difference and efficiency ratio, resampling whole clusters.

    ``sums`` holds per cluster (Σa, Σb, Σtokens_a, Σtokens_b, count); each resample draws g clusters with
    replacement, counted per cluster, so one matrix product gives every resample's totals.
    """
    total = resample_counts(sums.shape[0], seed) @ sums
    with np.errstate(divide="ignore", invalid="ignore"):
        acc_a, acc_b = total[:, 0] / total[:, 4], total[:, 1] / total[:, 4]
        series = {"diff": acc_a - acc_b, "ratio": (acc_a / total[:, 2]) / (acc_b / total[:, 3])}
    out: dict[str, list[tuple[float, float]]] = {}
    for name, values in series.items():
        values = values[np.isfinite(values)]
        out[name] = [
            (float(np.percentile(values, 50 * (1 - lv))), float(np.percentile(values, 50 * (1 + lv))))
            if values.size else (math.nan, math.nan)
            for lv in levels
        ]
    return out


def _agreeing_interval(n: int, family: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Every pair agrees: the difference is within ± the exact upper bound of the discordant rate (0 of n)."""
    u95 = clopper_pearson(0, n)[1]
    usim = clopper_pearson(0, n, ALPHA / family)[1]
    return (-u95, u95), (-usim, usim)


def discordant_interval(a_only: int, b_only: int, n: int, alpha: float = ALPHA) -> tuple[float, float]:
    """Interval of the paired difference (a_only − b_only) / n from the discordant pairs alone: given d = a_only +
    b_only, a_only ~ Binomial(d, π) and the difference is d/n · (2π − 1), so the Clopper-Pearson interval of π
    maps onto it — the interval that goes with the exact McNemar test (used when too few source items for a
    cluster bootstrap)."""
    d = a_only + b_only
    low, high = clopper_pearson(a_only, d, alpha)
    return d / n * (2 * low - 1), d / n * (2 * high - 1)


def paired_comparison(
    a: np.ndarray, b: np.ndarray, tokens_a: np.ndarray, tokens_b: np.ndarray, clusters: np.ndarray,
    family: int = 1, seed: int = SEED,
) -> PairedComparison:
    """Compare two formats' 1/0 correctness on aligned pairs (same question, system, epoch) in a family of m."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ta, tb = np.asarray(tokens_a, dtype=float), np.asarray(tokens_b, dtype=float)
    n = int(a.size)
    a_only, b_only = int(np.sum((a == 1) & (b == 0))), int(np.sum((a == 0) & (b == 1)))
    both, neither = int(np.sum((a == 1) & (b == 1))), int(np.sum((a == 0) & (b == 0)))
    acc_a, acc_b = float(a.mean()), float(b.mean())
    mean_ta, mean_tb = float(np.nanmean(ta)), float(np.nanmean(tb))
    eff = (acc_a / mean_ta) / (acc_b / mean_tb) if acc_b and mean_ta and mean_tb else math.nan
    cl = np.asarray(clusters, dtype=object)
    sums = _cluster_sums(a, b, np.nan_to_num(ta), np.nan_to_num(tb), cl)
    g = int(sums.shape[0])
    if g < 2:  # one source item: the efficiency ratio resamples questions
        sums = _cluster_sums(a, b, np.nan_to_num(ta), np.nan_to_num(tb), np.arange(n))
    boot = bootstrap_intervals(sums, (1 - ALPHA, 1 - ALPHA / family), seed) if n > 1 else None
    if np.all(a == b):
        (d_low, d_high), (s_low, s_high) = _agreeing_interval(n, family)
        how = "exact, all pairs agree"
    elif g < MIN_BOOTSTRAP_CLUSTERS:
        d_low, d_high = discordant_interval(a_only, b_only, n, ALPHA)
        s_low, s_high = discordant_interval(a_only, b_only, n, ALPHA / family)
        how = "exact on discordant pairs, " + ("1 cluster" if g < 2 else "few clusters")
    else:
        assert boot is not None
        (d_low, d_high), (s_low, s_high) = boot["diff"]
        how = "cluster bootstrap"
    e_low, e_high = boot["ratio"][0] if boot is not None and math.isfinite(eff) else (math.nan, math.nan)
    return PairedComparison(
        pairs=n, clusters=g, acc_a=acc_a, acc_b=acc_b, diff=acc_a - acc_b,
        diff_low=d_low, diff_high=d_high, sim_low=s_low, sim_high=s_high, a_only=a_only, b_only=b_only,
        p_mcnemar=mcnemar_exact(a_only, b_only, both, neither), tokens_a=mean_ta, tokens_b=mean_tb,
        eff_ratio=eff, eff_ratio_low=e_low, eff_ratio_high=e_high,
        mdd=minimum_detectable_difference(a - b, (acc_a + acc_b) / 2, cl, ALPHA / family),
        family=family, interval=how,
    )


def holm(pvalues: list[float]) -> list[float]:
    """Holm-adjusted p-values across the comparisons of one family (statsmodels ``multipletests``)."""
    from statsmodels.stats.multitest import multipletests

    if not pvalues:
        return []
    gc.freeze()  # its Holm branch calls gc.collect(): with the logs in memory, a second per call
    try:
        adjusted = multipletests(pvalues, alpha=ALPHA, method="holm")[1]
    finally:
        gc.unfreeze()
    return [float(p) for p in adjusted]


def consistency(correct: pd.Series, keys: pd.DataFrame) -> pd.DataFrame:
    """Per question across epochs: share of repeats agreeing with the majority answer, and whether it is mixed."""
    frame = keys.assign(correct=correct.to_numpy())
    grouped = frame.groupby(list(keys.columns), dropna=False)["correct"]
    out = grouped.agg(["mean", "count"]).reset_index()
    out["agreement"] = np.maximum(out["mean"], 1 - out["mean"])
    out["mixed"] = (out["mean"] > 0) & (out["mean"] < 1)
    return out


def percentile(values: pd.Series, q: float) -> float:
    x = pd.to_numeric(values, errors="coerce").dropna().to_numpy(dtype=float)
    return float(np.percentile(x, q)) if x.size else math.nan


def planned_mdd(pairs: int, clusters: int, discordance: float, deff: float = 1.0, family: int = 1) -> float:
    """The minimum detectable difference ``minimum_detectable_difference`` would give a run not made yet: ``pairs``
    paired answers from ``clusters`` source items, a share ``discordance`` of them where the two formats disagree
    (the variance of a 1/0 difference near no difference), the clustering inflating that variance ``deff`` times;
    at the family's level α/m, with the same degrees of freedom. ``coonbench plan`` states what it assumed."""
    if pairs < 2 or not 0 < discordance <= 1:
        return math.nan
    se = math.sqrt(discordance * max(deff, 1.0) / pairs)
    df = (clusters if 1 < clusters < pairs else pairs) - 1
    alpha = ALPHA / family
    return float((stats.t.ppf(1 - alpha / 2, df) + stats.t.ppf(POWER, df)) * se)
