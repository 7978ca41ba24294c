"""Error bars done right (Miller, "Adding Error Bars to Evals", arXiv 2411.00640), from scipy and statsmodels.

- a mean with its naive and cluster-robust standard error (questions from one source item are correlated);
- a proportion's Wilson interval;
- paired comparisons of two formats on the same questions: exact McNemar, a seeded cluster bootstrap CI for the
  accuracy difference and for the ratio of accuracy per 1K tokens, Holm's correction across a table, and the
  minimum detectable difference at 80% power — so a report says "cannot tell apart" rather than rank noise.
"""

from __future__ import annotations

import functools
import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import TTestPower
from statsmodels.stats.proportion import proportion_confint

ALPHA = 0.05
POWER = 0.80
BOOTSTRAP_RESAMPLES = 2000
SEED = 20241104  # the bootstrap's seed: the same logs give the same intervals


@dataclass(frozen=True)
class MeanEstimate:
    """A mean with naive and clustered standard errors and the 95% CI built on the clustered one."""

    n: int
    clusters: int
    mean: float
    se_naive: float
    se_clustered: float
    ci_low: float
    ci_high: float


def mean_estimate(values: np.ndarray | pd.Series, clusters: np.ndarray | pd.Series | None = None) -> MeanEstimate:
    """Mean of ``values`` (NaN dropped), SEs from statsmodels OLS on a constant (plain and cluster-robust).

    The clustered SE is Miller's eq. 4, ``sqrt(Σ_c (Σ_i (x_ic − x̄))²) / n``: statsmodels' cluster covariance without
    its small-sample factor. With one sample per cluster it equals the naive SE (up to the n/(n−1) factor).

    The CI is honest on small samples: it uses the larger of the two SEs (a cluster-robust SE from a handful of
    clusters underestimates), Student's t with clusters − 1 degrees of freedom below 30 clusters, and for 0/1
    values it is widened to contain the Wilson interval (so 0 of 5 is not reported as "0%–0%").
    """
    x = np.asarray(values, dtype=float)
    keep = ~np.isnan(x)
    x = x[keep]
    n = int(x.size)
    if n == 0:
        return MeanEstimate(0, 0, math.nan, math.nan, math.nan, math.nan, math.nan)
    groups = np.arange(n) if clusters is None else pd.factorize(np.asarray(clusters, dtype=object)[keep])[0]
    n_clusters = int(np.unique(groups).size)
    mean = float(x.mean())
    binary = bool(np.all((x == 0) | (x == 1)))
    w_low, w_high = wilson(int(x.sum()), n) if binary else (mean, mean)
    if n < 2 or np.all(x == x[0]):
        return MeanEstimate(n, n_clusters, mean, 0.0, 0.0, min(mean, w_low), max(mean, w_high))
    exog = np.ones((n, 1))
    naive = float(sm.OLS(x, exog).fit().bse[0])
    if n_clusters > 1:
        fit = sm.OLS(x, exog).fit(cov_type="cluster", cov_kwds={"groups": groups, "use_correction": False})
        clustered = float(fit.bse[0])
    else:
        clustered = math.nan
    se = max(clustered, naive) if math.isfinite(clustered) else naive
    df = (n_clusters if math.isfinite(clustered) else n) - 1
    crit = float(stats.t.ppf(1 - ALPHA / 2, df)) if df < 30 else float(stats.norm.ppf(1 - ALPHA / 2))
    low, high = mean - crit * se, mean + crit * se
    return MeanEstimate(n, n_clusters, mean, naive, clustered, min(low, w_low), max(high, w_high))


def wilson(successes: int, n: int) -> tuple[float, float]:
    """95% Wilson interval of a proportion (statsmodels ``proportion_confint``)."""
    if n == 0:
        return math.nan, math.nan
    low, high = proportion_confint(successes, n, alpha=ALPHA, method="wilson")
    return float(low), float(high)


@dataclass(frozen=True)
class PairedComparison:
    """Format A against format B on the questions both answered (same system, question and epoch)."""

    pairs: int
    clusters: int
    acc_a: float
    acc_b: float
    diff: float  # acc_a − acc_b
    diff_low: float
    diff_high: float
    a_only: int  # A right, B wrong
    b_only: int
    p_mcnemar: float
    tokens_a: float
    tokens_b: float
    eff_ratio: float  # (acc/1K tokens of A) ÷ (acc/1K tokens of B)
    eff_ratio_low: float
    eff_ratio_high: float
    mdd: float  # minimum detectable |difference| at 80% power for this many pairs


def mcnemar_exact(a_only: int, b_only: int, both: int = 0, neither: int = 0) -> float:
    """Exact McNemar p-value (statsmodels): a binomial test on the discordant pairs."""
    if a_only + b_only == 0:
        return 1.0
    table = np.array([[both, a_only], [b_only, neither]])
    return float(mcnemar(table, exact=True).pvalue)


def minimum_detectable_difference(diffs: np.ndarray, p_pooled: float) -> float:
    """Smallest |accuracy difference| a paired test detects at 80% power and α=0.05 with this many pairs.

    statsmodels' paired (one-sample) t-test power gives the effect in SDs of the per-question difference; the SD is the
    observed one, or √(2p̄(1−p̄)) (independent answers, p̄ kept ≥ 1/2n from 0 and 1) when every pair agrees.
    """
    n = int(diffs.size)
    if n < 2:
        return math.nan
    sd = float(np.std(diffs, ddof=1))
    if sd == 0:
        p = min(max(p_pooled, 0.5 / n), 1 - 0.5 / n)
        sd = math.sqrt(2 * p * (1 - p))
    return _effect_size(n) * sd


@functools.lru_cache(maxsize=4096)
def _effect_size(n: int) -> float:
    """Detectable effect (in SDs) of a two-sided paired t-test with n pairs (an iterative solve: cached per n)."""
    effect = TTestPower().solve_power(nobs=n, alpha=ALPHA, power=POWER, alternative="two-sided")
    return float(np.ravel(effect)[0])


def _cluster_sums(a: np.ndarray, b: np.ndarray, ta: np.ndarray, tb: np.ndarray, clusters: np.ndarray) -> np.ndarray:
    codes = pd.factorize(clusters)[0]
    g = int(codes.max()) + 1
    return np.stack(
        [np.bincount(codes, weights=w, minlength=g) for w in (a, b, ta, tb, np.ones_like(a))], axis=1
    )


def _bootstrap(sums: np.ndarray, statistic: str, seed: int) -> tuple[float, float]:
    """Percentile 95% CI of a statistic of cluster sums, resampling whole clusters (scipy ``bootstrap``)."""
    g = sums.shape[0]
    if g < 2:
        return math.nan, math.nan

    def stat(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        picked = sums[idx.astype(int)]  # (..., g, 5)
        total = picked.sum(axis=-2)
        acc_a, acc_b = total[..., 0] / total[..., 4], total[..., 1] / total[..., 4]
        if statistic == "diff":
            return acc_a - acc_b
        with np.errstate(divide="ignore", invalid="ignore"):
            return (acc_a / total[..., 2]) / (acc_b / total[..., 3])

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.bootstrap(
            (np.arange(g),), stat, vectorized=True, n_resamples=BOOTSTRAP_RESAMPLES, confidence_level=1 - ALPHA,
            method="percentile", random_state=np.random.default_rng(seed),
        )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return low, high


def paired_comparison(
    a: np.ndarray, b: np.ndarray, tokens_a: np.ndarray, tokens_b: np.ndarray, clusters: np.ndarray, seed: int = SEED
) -> PairedComparison:
    """Compare two formats' 1/0 correctness on aligned pairs (same question, system, epoch)."""
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
    if np.all(a == b):
        d_low = d_high = acc_a - acc_b
    else:
        d_low, d_high = _bootstrap(sums, "diff", seed)
    e_low, e_high = _bootstrap(sums, "ratio", seed) if math.isfinite(eff) else (math.nan, math.nan)
    return PairedComparison(
        pairs=n, clusters=int(sums.shape[0]), acc_a=acc_a, acc_b=acc_b, diff=acc_a - acc_b,
        diff_low=d_low, diff_high=d_high, a_only=a_only, b_only=b_only,
        p_mcnemar=mcnemar_exact(a_only, b_only, both, neither), tokens_a=mean_ta, tokens_b=mean_tb,
        eff_ratio=eff, eff_ratio_low=e_low, eff_ratio_high=e_high,
        mdd=minimum_detectable_difference(a - b, (acc_a + acc_b) / 2),
    )


def holm(pvalues: list[float]) -> list[float]:
    """Holm-adjusted p-values across the comparisons of one table (statsmodels ``multipletests``)."""
    if not pvalues:
        return []
    return [float(p) for p in multipletests(pvalues, alpha=ALPHA, method="holm")[1]]


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
