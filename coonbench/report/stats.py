"""Error bars done right (Miller, "Adding Error Bars to Evals", arXiv 2411.00640), from scipy and numpy.

- a mean with its naive and cluster-robust standard error: questions from one source item (a dataset, a Dart file)
  are correlated, so inference is clustered at the coarsest level the data declares, with CR2 (bias-reduced)
  standard errors and Student's t on Imbens–Kolesár degrees of freedom (``coonbench.report.cluster``), which hold
  their level with few or uneven clusters where CR1 with t(G − 1) does not (``benchmarks/null_montecarlo.py``);
- a proportion's interval: when answers cluster, Wilson's score interval with the design effect of the jackknife
  (CR3) variance and t on those degrees of freedom (never narrower than Wilson on n), which holds its level where
  the plain t interval does not (few effective clusters, accuracies near 0 or 1); Wilson when each question is its
  own cluster or there is one cluster (flagged), Clopper-Pearson when every answer is the same;
- paired comparisons of two formats on the same questions: the cluster-robust t test of the mean paired
  difference (exact McNemar when every question is its own cluster), 95% and Bonferroni-simultaneous intervals
  from the same t, a leave-one-cluster-out check of results that rest on few clusters, a seeded cluster bootstrap
  for the ratio of accuracy per 1K tokens, Holm's correction across a family, and the minimum detectable
  difference at 80% power at the family's corrected α (``coonbench.report.detect``, which ``coonbench plan``
  uses too) — so a report says "cannot tell apart" rather than rank noise. Every formula is written here or in
``cluster`` and ``detect`` from its closed form (Wilson, Clopper-Pearson, exact McNemar, Holm): statsmodels, which
the tests use as an independent check, takes seconds to import and seconds more in per-call overhead.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from coonbench.report import cluster, detect

ALPHA = detect.ALPHA
POWER = detect.POWER
BOOTSTRAP_RESAMPLES = 2000
SEED = 20241104  # the bootstrap's seed: the same logs give the same intervals
# A clustered test on fewer degrees of freedom decides nothing: at a Holm step (α/m ≤ 0.5%) Student's t needs more
# than 7 standard errors (t(0.9975, 3) = 7.45; 14.1 on 2 df), so only a wholesale difference could be declared.
MIN_DF = 3.0
FEW_CLUSTERS = 30  # below this many clusters a finding is checked by leaving each cluster out in turn

# How an interval was made (the ``interval`` column): the report's header and captions say which were used.
CLUSTER_T = "cluster-robust t (CR2, IK df)"
CLUSTER_WILSON = "cluster-robust wilson (CR3 deff, IK df)"
WILSON = "wilson"
WILSON_ONE_CLUSTER = "wilson, 1 cluster"
EXACT = "clopper-pearson, no variance"
T_NAIVE = "t"
NO_VARIANCE = "none: no variance"
CLUSTERED_METHODS = (CLUSTER_WILSON, CLUSTER_T)

# How a paired comparison was tested and its interval made (the ``test`` column).
TEST_CLUSTERED = "cluster-robust t (CR2, IK df)"
TEST_MCNEMAR = "exact McNemar"
TEST_MCNEMAR_ONE_CLUSTER = "exact McNemar, 1 cluster"
TEST_MCNEMAR_FLAT = "exact McNemar, no variance between clusters"  # discordant pairs cancel in every cluster
TEST_AGREE = "exact, all pairs agree"


@dataclass(frozen=True)
class ClusteredMean:
    """A mean with its CR2 cluster-robust SE, the t test of mean = 0 on the Imbens–Kolesár degrees of freedom
    (``coonbench.report.cluster``), and the naive SE."""

    n: int
    clusters: int
    mean: float
    se: float  # CR2 (NaN with fewer than two clusters)
    se_naive: float
    df: float  # Imbens–Kolesár: Bell–McCaffrey under a random-effects working model
    p_value: float  # two-sided, H0: mean = 0

    def interval(self, alpha: float = ALPHA) -> tuple[float, float]:
        """mean ± t(1 − α/2, df) × SE."""
        if not (math.isfinite(self.se) and self.df > 0):
            return math.nan, math.nan
        crit = float(stats.t.ppf(1 - alpha / 2, self.df))
        return self.mean - crit * self.se, self.mean + crit * self.se


def clustered_mean(x: np.ndarray, groups: np.ndarray) -> ClusteredMean:
    """The mean of ``x`` with its CR2 standard error and the t test on Imbens–Kolesár degrees of freedom, clusters
    ``groups`` (``cluster.cr2_tests``)."""
    x = np.asarray(x, dtype=float)
    codes = cluster.codes_of(groups)
    g = int(codes.max()) + 1 if codes.size else 0
    naive = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else math.nan
    if g < 2:
        return ClusteredMean(int(x.size), g, float(x.mean()) if x.size else math.nan, math.nan, naive, 0.0, math.nan)
    mean, se, df, p = cluster.cr2_tests(x, codes)
    return ClusteredMean(int(x.size), g, float(mean[0]), float(se[0]), naive, float(df[0]), float(p[0]))


def detectable_difference(se: float, df: float, alpha: float = ALPHA, power: float = POWER) -> float:
    """Smallest |difference| a two-sided t test at level ``alpha`` detects with probability ``power``, given the
    standard error of the estimated difference and the test's degrees of freedom: (t₁₋α/₂ + t_power) × SE.

    ``alpha`` is the level one comparison is tested at: α/m for the first step of Holm's correction over m
    comparisons (the level a comparison needs to be declared at all); ``df`` the test's degrees of freedom.
    """
    if not (math.isfinite(se) and df > 0):
        return math.nan
    return float((stats.t.ppf(1 - alpha / 2, df) + stats.t.ppf(power, df)) * se)


def power_at(difference: float, se: float, df: float, alpha: float = ALPHA) -> float:
    """Probability that a two-sided t test at level ``alpha`` (``df`` degrees of freedom) detects a true
    ``difference`` whose estimate has standard error ``se`` (the approximation ``detectable_difference`` inverts)."""
    if not (math.isfinite(se) and se > 0 and df > 0):
        return math.nan
    crit = float(stats.t.ppf(1 - alpha / 2, df))
    return float(stats.t.cdf(abs(difference) / se - crit, df))


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


def design_effect(se_naive: float, se_clustered: float) -> float:
    """How many times the clustering inflates the variance of the mean (Kish), never below 1."""
    if not (math.isfinite(se_naive) and math.isfinite(se_clustered)) or se_naive <= 0:
        return 1.0
    return max(1.0, (se_clustered / se_naive) ** 2)


def score_interval(p: np.ndarray | float, kappa: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """The proportions π with (p̂ − π)² ≤ κ·π(1 − π): centre (p̂ + κ/2)/(1 + κ), half-width
    √(κ·p̂(1−p̂) + κ²/4)/(1 + κ), within [0, 1]. Wilson's interval is κ = z²/n; the clustered one
    (``clustered_proportion``) κ = t²·deff/n. Vectorised (one value in, 0-d arrays out)."""
    p, kappa = np.asarray(p, dtype=float), np.asarray(kappa, dtype=float)
    centre = (p + kappa / 2) / (1 + kappa)
    half = np.sqrt(kappa * np.maximum(p * (1 - p), 0.0) + kappa * kappa / 4) / (1 + kappa)
    return np.maximum(0.0, centre - half), np.minimum(1.0, centre + half)


def wilson(successes: float, n: float, alpha: float = ALPHA) -> tuple[float, float]:
    """Wilson score interval of a proportion (Wilson 1927): centre (p̂ + z²/2n)/(1 + z²/n), half-width
    z/(1 + z²/n)·√(p̂(1−p̂)/n + z²/4n²), clipped to [0, 1] (``score_interval`` with κ = z²/n)."""
    if n <= 0:
        return math.nan, math.nan
    z = float(stats.norm.ppf(1 - alpha / 2))
    low, high = score_interval(successes / n, z * z / n)
    return float(low), float(high)


def clustered_proportion(p: np.ndarray | float, n: int, se_jackknife: np.ndarray | float, df: np.ndarray | float,
                         alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Interval of a proportion p̂ of n answers in clusters (vectorised over p̂, SE and df): Wilson's score interval
    with the design effect of the jackknife (CR3) variance, deff = SE² / (p̂(1−p̂)/n), and Student's t on the
    Imbens–Kolesár degrees of freedom in place of z — (p̂ − π)² ≤ t²·deff·π(1 − π)/n, the "modified Wilson" of
    survey statistics with the effective sample size n/deff and Korn & Graubard's (1998) degrees-of-freedom
    adjustment — never narrower than Wilson on n (κ at least z²/n).

    Why not mean ± t × CR2 SE: with few effective clusters (TOON's csv subset: three datasets hold 96% of the
    answers, about 2 degrees of freedom) and accuracies that differ between datasets within bounds, the t ratio
    has lighter tails than Student's t assumes and that interval misses the true accuracy up to 7% of the time at
    95% (``benchmarks/null_montecarlo.py``); the jackknife variance is larger exactly where one cluster holds a
    large share, and the score form keeps the interval inside [0, 1] and asymmetric near 0 or 1, where the
    variance of a proportion shrinks with it.
    """
    p = np.asarray(p, dtype=float)
    t = stats.t.ppf(1 - alpha / 2, np.asarray(df, dtype=float))
    z = float(stats.norm.ppf(1 - alpha / 2))
    spread = p * (1 - p)
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = np.where(spread > 0, t * t * np.asarray(se_jackknife, dtype=float) ** 2 / spread, 0.0)
    return score_interval(p, np.maximum(kappa, z * z / n))


def clopper_pearson(successes: int, n: int, alpha: float = ALPHA) -> tuple[float, float]:
    """Exact (Clopper-Pearson) interval of a proportion: the beta quantiles B(α/2; k, n − k + 1) and
    B(1 − α/2; k + 1, n − k), 0 and 1 at the ends."""
    if n <= 0:
        return math.nan, math.nan
    low = float(stats.beta.ppf(alpha / 2, successes, n - successes + 1)) if successes > 0 else 0.0
    high = float(stats.beta.ppf(1 - alpha / 2, successes + 1, n - successes)) if successes < n else 1.0
    return low, high


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
    est = clustered_mean(x, groups)
    deff = design_effect(est.se_naive, est.se)
    method = interval_rule(binary, n_clusters, n)
    if method == CLUSTER_WILSON:
        bounds = clustered_proportion(mean, n, cluster.cr3_se(x, groups)[0], est.df)
        low, high = float(bounds[0]), float(bounds[1])
    elif method == CLUSTER_T:
        low, high = est.interval()
    elif binary:
        low, high = wilson(mean * n, n)
    else:
        crit = float(stats.t.ppf(1 - ALPHA / 2, n - 1))
        low, high = mean - crit * est.se_naive, mean + crit * est.se_naive
    return MeanEstimate(n, n_clusters, mean, est.se_naive, est.se, low, high, method, deff)


def interval_rule(binary: bool, clusters: int, n: int) -> str:
    """Which 95% interval a mean gets (its answers vary).

    Several questions share a source item (1 < clusters < n): for 0/1 answers Wilson's score interval with the
    jackknife design effect and t on the Imbens–Kolesár degrees of freedom (``clustered_proportion``), for other
    means Student's t on those degrees of freedom with the CR2 cluster-robust SE. Each question its own cluster:
    Wilson (0/1) or the naive t. One cluster: Wilson flagged "1 cluster" (no clustered interval can be
    estimated).
    """
    if 1 < clusters < n:
        return CLUSTER_WILSON if binary else CLUSTER_T
    if binary:
        return WILSON_ONE_CLUSTER if clusters < 2 else WILSON
    return T_NAIVE


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
    p_value: float  # the test named in ``test``
    p_mcnemar: float  # exact McNemar, each pair independent (for reference: it ignores clustering)
    p_loo_min: float  # leave-one-cluster-out range of p_value (few clusters only; NaN otherwise)
    p_loo_max: float
    tokens_a: float
    tokens_b: float
    eff_ratio: float  # (acc/1K tokens of A) ÷ (acc/1K tokens of B)
    eff_ratio_low: float
    eff_ratio_high: float
    mdd: float  # minimum detectable |difference| at 80% power and α/m, clustering included
    family: int  # m: comparisons in the Holm family
    df: float  # the clustered test's degrees of freedom (Imbens–Kolesár; NaN for the exact tests)
    test: str  # TEST_CLUSTERED, TEST_MCNEMAR, TEST_MCNEMAR_ONE_CLUSTER or TEST_AGREE


def mcnemar_exact(a_only: int, b_only: int, both: int = 0, neither: int = 0) -> float:
    """Exact McNemar p-value: the two-sided binomial test at 1/2 on the discordant pairs, 2·P(X ≤ min) capped at
    1 (concordant pairs do not enter it)."""
    d = a_only + b_only
    if d == 0:
        return 1.0
    return float(min(1.0, 2 * stats.binom.cdf(min(a_only, b_only), d, 0.5)))


def minimum_detectable_difference(diffs: np.ndarray, clusters: np.ndarray | None = None, alpha: float = ALPHA
                                  ) -> float:
    """Smallest true accuracy difference the report's paired test at level ``alpha`` detects with 80% power on a
    design like these pairs (``detect.paired_detectable_difference``): their discordance, their design effect (the
    CR2 variance over the naive one, never below 1) and the clustered test's degrees of freedom; exact McNemar's
    power when each pair is its own cluster (or all come from one)."""
    d = np.asarray(diffs, dtype=float)
    n = int(d.size)
    if n < 2:
        return math.nan
    q = float(np.mean(d != 0))
    codes = np.arange(n) if clusters is None else cluster.codes_of(clusters)
    g = int(codes.max()) + 1
    if not 1 < g < n:
        return detect.paired_detectable_difference(n, q, 1.0, None, alpha)
    if np.all(d == d[0]):  # no variance to estimate a correlation from: independent answers, the design's df
        return detect.paired_detectable_difference(n, q, 1.0, float(cluster.Design.of(codes).df(0.0)), alpha)
    est = clustered_mean(d, codes)
    return detect.paired_detectable_difference(n, q, design_effect(est.se_naive, est.se), est.df, alpha)


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


def bootstrap_ratio(sums: np.ndarray, seed: int = SEED) -> tuple[float, float]:
    """95% percentile interval of the efficiency ratio (acc_a/tokens_a) ÷ (acc_b/tokens_b), resampling whole
    clusters: ``sums`` holds per cluster (Σa, Σb, Σtokens_a, Σtokens_b, count); one matrix product gives every
    resample's totals."""
    total = resample_counts(sums.shape[0], seed) @ sums
    with np.errstate(divide="ignore", invalid="ignore"):
        acc_a, acc_b = total[:, 0] / total[:, 4], total[:, 1] / total[:, 4]
        ratio = (acc_a / total[:, 2]) / (acc_b / total[:, 3])
    ratio = ratio[np.isfinite(ratio)]
    if not ratio.size:
        return math.nan, math.nan
    return float(np.percentile(ratio, 100 * ALPHA / 2)), float(np.percentile(ratio, 100 * (1 - ALPHA / 2)))


def _agreeing_interval(n: int, family: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Every pair agrees: the difference is within ± the exact upper bound of the discordant rate (0 of n)."""
    u95 = clopper_pearson(0, n)[1]
    usim = clopper_pearson(0, n, ALPHA / family)[1]
    return (-u95, u95), (-usim, usim)


def discordant_interval(a_only: int, b_only: int, n: int, alpha: float = ALPHA) -> tuple[float, float]:
    """Interval of the paired difference (a_only − b_only) / n from the discordant pairs alone: given d = a_only +
    b_only, a_only ~ Binomial(d, π) and the difference is d/n · (2π − 1), so the Clopper-Pearson interval of π
    maps onto it — the interval that goes with the exact McNemar test (independent pairs)."""
    d = a_only + b_only
    low, high = clopper_pearson(a_only, d, alpha)
    return d / n * (2 * low - 1), d / n * (2 * high - 1)


def leave_one_cluster_out(d: np.ndarray, clusters: np.ndarray) -> tuple[float, float]:
    """(min, max) of the cluster-robust p-value with each cluster left out in turn: a result whose conclusion
    changes when one source item is dropped rests on that item."""
    codes = pd.factorize(np.asarray(clusters, dtype=object))[0]
    ps = [clustered_mean(d[codes != c], codes[codes != c]).p_value for c in range(int(codes.max()) + 1)]
    ps = [p for p in ps if math.isfinite(p)]
    return (min(ps), max(ps)) if ps else (math.nan, math.nan)


def paired_comparison(
    a: np.ndarray, b: np.ndarray, tokens_a: np.ndarray, tokens_b: np.ndarray, clusters: np.ndarray,
    family: int = 1, seed: int = SEED,
) -> PairedComparison:
    """Compare two formats' 1/0 correctness on aligned pairs (same question, system, epoch) in a family of m.

    Pairs that share source items (fewer clusters than pairs): the cluster-robust t test of the mean paired
    difference (``clustered_mean``), its 95% and simultaneous (α/m) intervals from the same t, and, with fewer than
    ``FEW_CLUSTERS`` clusters and p < α, the leave-one-cluster-out range of its p-value. Each pair its own cluster, or a
    single cluster: exact McNemar with the interval of the discordant pairs that goes with it.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ta, tb = np.asarray(tokens_a, dtype=float), np.asarray(tokens_b, dtype=float)
    n = int(a.size)
    a_only, b_only = int(np.sum((a == 1) & (b == 0))), int(np.sum((a == 0) & (b == 1)))
    both, neither = int(np.sum((a == 1) & (b == 1))), int(np.sum((a == 0) & (b == 0)))
    acc_a, acc_b = float(a.mean()), float(b.mean())
    mean_ta = float(np.nanmean(ta)) if np.isfinite(ta).any() else math.nan  # NaN: tokens not comparable
    mean_tb = float(np.nanmean(tb)) if np.isfinite(tb).any() else math.nan
    eff = (acc_a / mean_ta) / (acc_b / mean_tb) if acc_b and mean_ta and mean_tb else math.nan
    cl = np.asarray(clusters, dtype=object)
    sums = _cluster_sums(a, b, np.nan_to_num(ta), np.nan_to_num(tb), cl)
    g = int(sums.shape[0])
    p_mcnemar = mcnemar_exact(a_only, b_only, both, neither)
    loo, df = (math.nan, math.nan), math.nan
    if np.all(a == b):
        (d_low, d_high), (s_low, s_high) = _agreeing_interval(n, family)
        p, test = 1.0, TEST_AGREE
    elif 1 < g < n and (est := clustered_mean(a - b, cl)).se > 0:
        (d_low, d_high), (s_low, s_high) = est.interval(ALPHA), est.interval(ALPHA / family)
        p, test, df = est.p_value, TEST_CLUSTERED, est.df
        if g < FEW_CLUSTERS and p < ALPHA:  # a finding that could pass Holm: does one cluster carry it?
            loo = leave_one_cluster_out(a - b, cl)
    else:  # independent pairs, one cluster, or discordant pairs that cancel within every cluster (CR2 SE 0)
        d_low, d_high = discordant_interval(a_only, b_only, n, ALPHA)
        s_low, s_high = discordant_interval(a_only, b_only, n, ALPHA / family)
        p, test = p_mcnemar, (TEST_MCNEMAR if g == n else TEST_MCNEMAR_ONE_CLUSTER if g < 2 else TEST_MCNEMAR_FLAT)
    # a difference of two rates lies in [−1, 1]: with very few clusters t's tails would reach past it
    d_low, s_low = max(d_low, -1.0), max(s_low, -1.0)
    d_high, s_high = min(d_high, 1.0), min(s_high, 1.0)
    if g < 2:  # one source item: the efficiency ratio resamples questions
        sums = _cluster_sums(a, b, np.nan_to_num(ta), np.nan_to_num(tb), np.arange(n))
    e_low, e_high = bootstrap_ratio(sums, seed) if n > 1 and math.isfinite(eff) else (math.nan, math.nan)
    return PairedComparison(
        pairs=n, clusters=g, acc_a=acc_a, acc_b=acc_b, diff=acc_a - acc_b,
        diff_low=d_low, diff_high=d_high, sim_low=s_low, sim_high=s_high, a_only=a_only, b_only=b_only,
        p_value=p, p_mcnemar=p_mcnemar, p_loo_min=loo[0], p_loo_max=loo[1], tokens_a=mean_ta, tokens_b=mean_tb,
        eff_ratio=eff, eff_ratio_low=e_low, eff_ratio_high=e_high,
        mdd=minimum_detectable_difference(a - b, cl, ALPHA / family),
        family=family, df=df, test=test,
    )


def holm(pvalues: list[float]) -> list[float]:
    """Holm-adjusted p-values across the comparisons of one family (Holm 1979): sorted ascending, the i-th
    (0-based) is scaled by m − i, capped at 1, and made non-decreasing (step-down)."""
    if not pvalues:
        return []
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (p.size - np.arange(p.size)) * p[order])
    adjusted = np.empty_like(p)
    adjusted[order] = np.maximum.accumulate(scaled)
    return [float(v) for v in adjusted]


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
