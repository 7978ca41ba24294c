"""The report's hand-written statistics held against maintained libraries on the same data, so that a formula
error cannot hide behind a test that re-derives our own formula.

- CR3 (the jackknife variance behind the design-effect Wilson interval) against pyfixest's ``CRV3``;
- CR2 with its Bell–McCaffrey / Imbens–Kolesár t test against statsmodels' cluster-robust OLS, where the two must
  agree exactly (clusters of equal size), and bracketed by pyfixest's CRV1 and CRV3 elsewhere: no registry
  package implements CR2 (R's clubSandwich does; its Python ports do not install);
- the report's CR2 t test against a wild cluster bootstrap (``wildboottest``), a different test of the same
  hypothesis that should give a similar p-value (the report has no bootstrap test of its own to compare);
- Wilson's interval, and the design-effect ("modified") Wilson interval, against statsmodels'
  ``proportion_confint`` at the effective sample size.

The betting confidence sequence (``coonbench.tasks.anytime``) is held against ``confseq``'s ``betting_cs`` in
``tests/test_anytime_confseq.py``, which runs where confseq could be built (its docstring says why a clean install
cannot: a pinned pybind11 that fails on Python 3.11 and NumPy 1 names); ``expectation``'s current releases need a
newer Python than the project's 3.11 (pip offers only 0.0.2, which has no betting sequence). Its coverage under
continuous monitoring is also checked by simulation (``tests/test_stopping.py``).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pyfixest as pf  # the dev extra's: a missing one fails here rather than skip the comparison
import pytest
import statsmodels.api as sm
import wildboottest.wildboottest as wild
from scipy import stats as scipy_stats
from statsmodels.stats import proportion

from coonbench.report import cluster, stats

SIZES = [1, 2, 3, 5, 8, 2, 1, 10, 4, 4, 13, 1]  # uneven, as TOON's datasets and the Dart files are


def _clustered(seed: int, sizes: list[int] = SIZES, binary: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Answers with a cluster effect: 0/1 (an accuracy) or paired differences in {−1, 0, 1}."""
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(len(sizes)), sizes)
    effect = rng.normal(0.0, 0.25, len(sizes))[groups]
    if binary:
        return (rng.random(groups.size) < np.clip(0.5 + effect, 0.05, 0.95)).astype(float), groups
    return np.clip(np.round(0.1 + effect + rng.normal(0.0, 0.6, groups.size)), -1, 1), groups


def _feols_se(y: np.ndarray, groups: np.ndarray, vcov: str, adjust: bool) -> float:
    data = pd.DataFrame({"y": y, "cl": groups})
    ssc = pf.ssc(k_adj=adjust, G_adj=adjust)
    return float(pf.feols("y ~ 1", data=data, vcov={vcov: "cl"}, ssc=ssc).se().iloc[0])


@pytest.mark.parametrize("seed", range(4))
def test_cr3_is_pyfixests_crv3(seed: int) -> None:
    """pyfixest's CRV3 is the jackknife Σ_g (β̂₍₋g₎ − β̂)² times its small-sample factor G/(G − 1): ours is the
    jackknife itself, so equal with the factor off and smaller by exactly √((G − 1)/G) with it on."""
    y, groups = _clustered(seed)
    ours = float(cluster.cr3_se(y, groups)[0])
    g = len(SIZES)
    assert ours == pytest.approx(_feols_se(y, groups, "CRV3", adjust=False), rel=1e-9)
    assert ours * math.sqrt(g / (g - 1)) == pytest.approx(_feols_se(y, groups, "CRV3", adjust=True), rel=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_cr2_with_equal_clusters_is_statsmodels_cluster_robust_t_test(seed: int) -> None:
    """With clusters of one size CR2's (1 − h_g)^(−1/2) is the constant √(G/(G − 1)) of statsmodels' CR1 (its
    (n − 1)/(n − k) is 1 for a mean), and the Bell–McCaffrey / Imbens–Kolesár degrees of freedom are G − 1, the
    ones statsmodels uses: standard error, degrees of freedom and p-value must agree."""
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(9), 6)
    y = rng.normal(0.2, 1.0, groups.size) + rng.normal(0.0, 0.7, 9)[groups]
    fit = sm.OLS(y, np.ones((y.size, 1))).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)
    ours = stats.clustered_mean(y, groups)
    assert ours.se == pytest.approx(float(fit.bse[0]), rel=1e-9)
    assert ours.df == pytest.approx(8.0, rel=1e-9)
    assert ours.p_value == pytest.approx(float(fit.pvalues[0]), rel=1e-7)


@pytest.mark.parametrize("seed", range(4))
def test_cr2_lies_between_pyfixests_crv1_without_adjustment_and_crv3(seed: int) -> None:
    """Uneven clusters, where no library has CR2: its variance scales each cluster's squared residual sum by
    1/(1 − h_g), between CR0's 1 (pyfixest's CRV1 with its small-sample factors off) and the jackknife's
    1/(1 − h_g)² (pyfixest's CRV3 likewise), strictly when clusters differ in size."""
    y, groups = _clustered(seed)
    ours = float(cluster.cr2_se(y, groups)[0])
    assert _feols_se(y, groups, "CRV1", adjust=False) < ours < _feols_se(y, groups, "CRV3", adjust=False)


@pytest.mark.slow  # six bootstraps of 9,999 draws: 15-60 s on a loaded machine
def test_the_cr2_t_test_agrees_with_a_wild_cluster_bootstrap() -> None:
    """The wild cluster bootstrap (restricted, Webb's six-point weights for few clusters, 9,999 draws; MacKinnon
    & Webb) is a different test of mean = 0 with few uneven clusters; on the same paired differences its p-value
    should be close to the CR2 t test's on Imbens–Kolesár degrees of freedom. The tolerance is one the usual
    CR1 t test on G − 1 degrees of freedom misses on these very draws (checked below), so a formula error of
    that size in ours would fail it too."""
    ours_gaps, cr1_gaps = [], []
    for seed in range(6):
        d, groups = _clustered(seed, [1, 1, 2, 3, 5, 8, 12, 2, 3, 6, 1, 9, 4, 2, 7, 3, 1, 5, 10, 2], binary=False)
        model = sm.OLS(pd.Series(d), pd.DataFrame({"const": np.ones(d.size)}))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            boot = wild.wildboottest(model, param="const", cluster=groups, B=9999, seed=1, weights_type="webb",
                                     show=False)
        p_boot = float(boot["p-value"].iloc[0])
        cr1 = model.fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)
        ours_gaps.append(abs(stats.clustered_mean(d, groups).p_value - p_boot))
        cr1_gaps.append(abs(float(cr1.pvalues.iloc[0]) - p_boot))
    tolerance = 0.025
    assert max(ours_gaps) < tolerance, ours_gaps
    assert max(cr1_gaps) > tolerance, cr1_gaps  # the check can tell a worse test apart


@pytest.mark.parametrize("successes,n", [(0, 20), (3, 20), (61, 150), (149, 150), (7, 9)])
def test_wilson_is_statsmodels_wilson(successes: int, n: int) -> None:
    low, high = proportion.proportion_confint(successes, n, alpha=0.05, method="wilson")
    assert stats.wilson(successes, n) == pytest.approx((low, high), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_the_design_effect_wilson_interval_is_wilson_at_the_effective_sample_size(seed: int) -> None:
    """The clustered interval is Wilson's on the effective sample size n/deff (deff from pyfixest's CRV3
    jackknife variance) with t on the Imbens–Kolesár degrees of freedom in place of z: statsmodels' Wilson at
    that n and at the α whose z is that t gives the same bounds."""
    y, groups = _clustered(seed)
    n, p = y.size, float(y.mean())
    se_jack = _feols_se(y, groups, "CRV3", adjust=False)
    df = float(stats.clustered_mean(y, groups).df)
    deff = se_jack**2 / (p * (1 - p) / n)
    t = float(scipy_stats.t.ppf(0.975, df))
    alpha = 2 * float(scipy_stats.norm.sf(t))  # the level whose normal quantile is t
    n_eff = n / deff
    if t * t / n_eff < 1.959964**2 / n:  # ours never goes narrower than Wilson on n
        pytest.skip("this draw's design effect is below 1: the floor applies, compared in the Wilson test")
    low, high = proportion.proportion_confint(p * n_eff, n_eff, alpha=alpha, method="wilson")
    ours = stats.clustered_proportion(p, n, se_jack, df)
    assert (float(ours[0]), float(ours[1])) == pytest.approx((low, high), abs=1e-9)
