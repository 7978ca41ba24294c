"""The report's statistics against independent oracles: closed forms written here, textbook values, and the
definitions (Holm's step-down, the cluster sandwich, the binomial McNemar) — never the statsmodels calls the code
makes. Each oracle is shown to reject a plausible wrong implementation (a mutated copy defined in this file), so
a test that passes says something.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest

from coonbench.report import cluster, detect, stats
from coonbench.report.load import is_reference
from coonbench.report.sections import accuracy_section
from coonbench.report.tables import accuracy_rows, comparisons

Z975 = 1.959963984540054  # the standard normal's 97.5% point

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Statistics in Medicine 17:857-872,
# Table I, method 3 (Wilson score interval without continuity correction), to 4 decimals.
NEWCOMBE_WILSON = {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605), (0, 20): (0.0000, 0.1611),
                   (1, 29): (0.0061, 0.1718)}


def wilson_closed_form(k: float, n: float, z: float = Z975) -> tuple[float, float]:
    """Wilson (1927): centre (p̂ + z²/2n)/(1 + z²/n), half-width z/(1 + z²/n)·√(p̂(1−p̂)/n + z²/4n²)."""
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def wald_mutant(k: float, n: float) -> tuple[float, float]:
    """A wrong 'Wilson': the Wald interval p̂ ± z√(p̂(1−p̂)/n)."""
    p = k / n
    half = Z975 * math.sqrt(p * (1 - p) / n)
    return p - half, p + half


def _is_wilson(impl: Callable[[int, int], tuple[float, float]]) -> bool:
    cases = [(k, n) for n in (5, 20, 57, 263) for k in (0, 1, n // 3, n - 1, n)]
    closed = all(np.allclose(impl(k, n), wilson_closed_form(k, n), atol=1e-9) for k, n in cases)
    textbook = all(np.allclose(np.round(impl(k, n), 4), v, atol=1e-9) for (k, n), v in NEWCOMBE_WILSON.items())
    return closed and textbook


def test_wilson_matches_its_closed_form_and_newcombes_table() -> None:
    assert _is_wilson(stats.wilson)
    assert not _is_wilson(wald_mutant)


def test_clopper_pearson_for_no_variance_is_the_exact_closed_form() -> None:
    """0 of n: upper = 1 − (α/2)^(1/n); n of n: lower = (α/2)^(1/n) (the binomial tail solved exactly)."""
    for n in (5, 20, 100):
        assert stats.clopper_pearson(0, n) == pytest.approx((0.0, 1 - 0.025 ** (1 / n)))
        assert stats.clopper_pearson(n, n) == pytest.approx((0.025 ** (1 / n), 1.0))
    assert stats.clopper_pearson(0, 20)[1] == pytest.approx(0.1684, abs=5e-5)  # the textbook "rule of 3.7/n"
    none = stats.mean_estimate(np.zeros(5), np.arange(5))
    assert (none.ci_low, none.ci_high, none.interval) == (0.0, pytest.approx(1 - 0.025 ** 0.2), stats.EXACT)


def holm_step_down(pvalues: list[float]) -> list[float]:
    """Holm (1979) by definition: sort ascending; adjusted p_(i) = max over j ≤ i of min(1, (m − j + 1)·p_(j))."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def bonferroni_mutant(pvalues: list[float]) -> list[float]:
    return [min(1.0, len(pvalues) * p) for p in pvalues]


def _is_holm(impl: Callable[[list[float]], list[float]]) -> bool:
    rng = np.random.default_rng(11)
    cases = [[0.01, 0.02, 0.04], [0.04, 0.01, 0.03, 0.005, 0.2], *[list(rng.random(9) ** 3) for _ in range(20)]]
    return all(np.allclose(impl(ps), holm_step_down(ps), atol=1e-12) for ps in cases)


def test_holm_is_the_step_down_definition() -> None:
    assert _is_holm(stats.holm)
    assert not _is_holm(bonferroni_mutant)
    assert holm_step_down([0.01, 0.02, 0.04]) == pytest.approx([0.03, 0.04, 0.04])  # by hand: 3·.01, 2·.02, 1·.04


def sandwich_se(x: np.ndarray, clusters: np.ndarray) -> float:
    """Cluster-robust SE of a mean by the sandwich V = (X'X)⁻¹ (Σ_c X_c'e_c e_c'X_c) (X'X)⁻¹ with X = 1."""
    X = np.ones((x.size, 1))
    e = x - x.mean()
    bread = np.linalg.inv(X.T @ X)
    meat = np.zeros((1, 1))
    for c in np.unique(clusters):
        s = X[clusters == c].T @ e[clusters == c]
        meat += np.outer(s, s)
    return float(np.sqrt((bread @ meat @ bread)[0, 0]))


def cr1_se(x: np.ndarray, clusters: np.ndarray) -> float:
    """The earlier few-cluster correction (Stata's CR1): the sandwich SE × √(G/(G−1)) (K = 1)."""
    g = np.unique(clusters).size
    return sandwich_se(x, clusters) * math.sqrt(g / (g - 1))


def anova_icc(x: np.ndarray, clusters: np.ndarray) -> float:
    """One-way ANOVA intra-cluster correlation (Searle's n₀), by loops, truncated to [0, 0.99]."""
    labels = list(dict.fromkeys(clusters.tolist()))
    groups = [x[clusters == c] for c in labels]
    n, g = x.size, len(groups)
    if g < 2 or n <= g:
        return 0.0
    grand = x.mean()
    msb = sum(len(v) * (v.mean() - grand) ** 2 for v in groups) / (g - 1)
    msw = sum(((v - v.mean()) ** 2).sum() for v in groups) / (n - g)
    n0 = (n - sum(len(v) ** 2 for v in groups) / n) / (g - 1)
    denom = msb + (n0 - 1) * msw
    return min(max((msb - msw) / denom, 0.0), 0.99) if denom > 0 else 0.0


def cr2_direct(x: np.ndarray, clusters: np.ndarray, rho: float | None = None) -> tuple[float, float]:
    """(CR2 SE, degrees of freedom) of the mean of x by the general matrices (Bell & McCaffrey 2002; Imbens &
    Kolesár 2016 §3): A_g = (I − H_gg)^(−1/2) by eigendecomposition, V = M Σ_g X_g'A_g e_g e_g'A_g X_g M, and the
    Satterthwaite df (Σλ)²/Σλ² of the eigenvalues λ of G'ΩG, G's column g = (I − H)_g' A_g X_g M, Ω the working
    model: (1 − ρ)I + ρ·(same cluster), ρ the ANOVA estimate unless given (ρ = 0: Bell–McCaffrey)."""
    n = x.size
    X = np.ones((n, 1))
    M = np.linalg.inv(X.T @ X)
    H = X @ M @ X.T
    e = x - H @ x
    meat, cols = 0.0, []
    for c in dict.fromkeys(clusters.tolist()):
        idx = clusters == c
        w, v = np.linalg.eigh(np.eye(idx.sum()) - H[np.ix_(idx, idx)])
        A = v @ np.diag(w ** -0.5) @ v.T
        s = (X[idx].T @ A @ e[idx]).item()
        meat += s * s
        cols.append(((np.eye(n) - H)[:, idx] @ A @ X[idx] @ M).ravel())
    G = np.array(cols).T
    r = anova_icc(x, clusters) if rho is None else rho
    omega = (1 - r) * np.eye(n) + r * (clusters[:, None] == clusters[None, :])
    lam = np.linalg.eigvalsh(G.T @ omega @ G)
    return float(np.sqrt(M.item() ** 2 * meat)), float(lam.sum() ** 2 / (lam ** 2).sum())


def _designs() -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(7)
    out = []
    for sizes in ([6] * 12, [20] * 5, [3] * 30, [41, 33, 30, 1, 1, 1, 1, 1], [12, 9, 2, 1, 7]):
        clusters = np.repeat(np.arange(len(sizes)), sizes)
        effect = rng.random(len(sizes))[clusters]  # answers within a file share a difficulty: correlated
        out.append(((rng.random(clusters.size) < effect).astype(float), clusters))
    return out


def _is_cr2(impl: Callable[[np.ndarray, np.ndarray], tuple[float, float]]) -> bool:
    return all(np.allclose(impl(x, c), cr2_direct(x, c), rtol=1e-9) for x, c in _designs())


def test_clustered_se_and_df_are_cr2_with_imbens_kolesar_df_by_the_general_matrices() -> None:
    assert _is_cr2(lambda x, c: (stats.clustered_mean(x, c).se, stats.clustered_mean(x, c).df))
    assert _is_cr2(lambda x, c: (stats.mean_estimate(x, c).se_clustered, stats.clustered_mean(x, c).df))
    assert not _is_cr2(lambda x, c: (cr1_se(x, c), np.unique(c).size - 1.0))  # the earlier CR1 with t(G − 1)
    assert not _is_cr2(lambda x, c: (sandwich_se(x, c), cr2_direct(x, c)[1]))  # no bias reduction
    assert not _is_cr2(lambda x, c: (cr2_direct(x, c)[0], cr2_direct(x, c, 0.0)[1]))  # BM df ignores the ICC


def test_bell_mccaffrey_df_closed_form_is_the_matrix_one_and_g_minus_1_when_balanced() -> None:
    for x, c in _designs():
        assert cluster.bm_df(np.bincount(c)) == pytest.approx(cr2_direct(x, c, 0.0)[1], rel=1e-9)
        for rho in (0.0, 0.2, 0.6):
            assert float(cluster.Design.of(c).df(rho)) == pytest.approx(cr2_direct(x, c, rho)[1], rel=1e-9)
        assert float(cluster.icc(x, c)[0]) == pytest.approx(anova_icc(x, c))
    assert cluster.bm_df(np.full(9, 4)) == pytest.approx(8)  # equal clusters: G − 1
    assert cluster.bm_df(np.array([41, 33, 30, 1, 1, 1, 1, 1])) < 3  # TOON's csv subset: far below G − 1 = 7


def test_with_singleton_clusters_cr2_is_hc2() -> None:
    """Every question its own cluster: CR2 is HC2 (statsmodels' OLS ``cov_type="HC2"``, an independent code)."""
    from statsmodels.regression.linear_model import OLS

    rng = np.random.default_rng(4)
    for n in (5, 40, 300):
        x = rng.integers(-1, 2, n).astype(float)
        hc2 = float(OLS(x, np.ones((n, 1))).fit(cov_type="HC2").bse[0])
        assert float(cluster.cr2_se(x, np.arange(n))[0]) == pytest.approx(hc2, rel=1e-9)
        assert cr2_direct(x, np.arange(n))[0] == pytest.approx(hc2, rel=1e-9)


def jackknife_se(x: np.ndarray, clusters: np.ndarray) -> float:
    """√Σ_g (mean without cluster g − mean)², by leaving each cluster out in turn."""
    return math.sqrt(sum((x[clusters != c].mean() - x.mean()) ** 2 for c in np.unique(clusters)))


def score_roots(p: float, kappa: float) -> tuple[float, float]:
    """The two roots π of (p − π)² = κ·π(1 − π): (1 + κ)π² − (2p + κ)π + p² = 0, by the quadratic formula."""
    a, b, c = 1 + kappa, -(2 * p + kappa), p * p
    disc = math.sqrt(b * b - 4 * a * c)
    return (-b - disc) / (2 * a), (-b + disc) / (2 * a)


def clustered_wilson_direct(x: np.ndarray, clusters: np.ndarray, se: Callable[[np.ndarray, np.ndarray], float]
                            = jackknife_se, crit: Callable[[float], float] | None = None) -> tuple[float, float]:
    """The clustered proportion's interval from its definition: κ = t²(0.975, df)·SE²/(p̂(1 − p̂)), df by the
    general matrices (``cr2_direct``), never below Wilson's z²/n."""
    from scipy import stats as sps

    p, n = float(x.mean()), x.size
    df = cr2_direct(x, clusters)[1]
    t = crit(df) if crit else float(sps.t.ppf(0.975, df))
    return score_roots(p, max(t * t * se(x, clusters) ** 2 / (p * (1 - p)), Z975 * Z975 / n))


def _uneven_binary_designs() -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(11)
    out = []
    for sizes in ([41, 33, 30, 1, 1, 1, 1, 1], [8] * 10, [12, 9, 2, 1, 7], [17, 18, 29, 30, 30, 33, 41, 41, 1, 1]):
        clusters = np.repeat(np.arange(len(sizes)), sizes)
        p = 0.5 + 0.4 * rng.random(len(sizes))  # accuracy differs between source items
        out.append(((rng.random(clusters.size) < p[clusters]).astype(float), clusters))
    return out


def test_clustered_proportion_is_wilson_with_the_jackknife_design_effect_and_t_on_imbens_kolesar_df() -> None:
    from scipy import stats as sps

    def report(x: np.ndarray, c: np.ndarray) -> tuple[float, float]:
        est = stats.mean_estimate(x, c)
        assert est.interval == stats.CLUSTER_WILSON
        return est.ci_low, est.ci_high

    designs = _uneven_binary_designs()
    for x, c in designs:
        assert cluster.cr3_se(x, c)[0] == pytest.approx(jackknife_se(x, c), rel=1e-12)
        assert report(x, c) == pytest.approx(clustered_wilson_direct(x, c), rel=1e-9)
    # a plausible wrong implementation is told apart: the CR2 SE, or z in place of t, or no clustering at all
    wrong = [lambda x, c: clustered_wilson_direct(x, c, se=lambda x_, c_: cr2_direct(x_, c_)[0]),
             lambda x, c: clustered_wilson_direct(x, c, crit=lambda df: Z975),
             lambda x, c: wilson_closed_form(x.sum(), x.size)]
    for mutant in wrong:
        assert not all(np.allclose(report(x, c), mutant(x, c), rtol=1e-6) for x, c in designs)
    # TOON's csv shape (three datasets hold 96% of the answers): wider than mean ± t × CR2 SE where it reaches
    x, c = designs[0]
    se, df = cr2_direct(x, c)
    half = sps.t.ppf(0.975, df) * se
    low, high = report(x, c)
    assert low < x.mean() - half and 0 <= low < high <= 1


def test_clustered_proportion_stays_in_bounds_and_leans_toward_the_middle_near_one() -> None:
    """19 of 20 answers right in each of three source items, 1 of 1 in two more: the interval is inside [0, 1],
    never narrower than Wilson on n, and reaches further below p̂ than above it (a proportion's variance shrinks
    near 1)."""
    clusters = np.repeat(np.arange(5), [20, 20, 20, 1, 1])
    x = np.ones(clusters.size)
    x[[0, 20, 45]] = 0.0
    est = stats.mean_estimate(x, clusters)
    plain = wilson_closed_form(x.sum(), x.size)
    assert 0 < est.ci_low <= plain[0] and plain[1] <= est.ci_high <= 1
    assert x.mean() - est.ci_low > est.ci_high - x.mean()


def test_toon_pooled_interval_reflects_its_13_datasets() -> None:
    """Pooled toon on TOON's published results, clustered by the 13 datasets of its question file: the interval
    is about 62–83%, not the 67.8–76.3% of answers taken as independent (the issue's lower bound: ≤ 66%)."""
    import json

    from tests.conftest import reference_path

    root = reference_path("toon")
    questions = {q["id"]: q["dataset"] for q in json.loads((root / "generated" / "questions.json").read_text())}
    answers = [r for p in sorted((root / "benchmarks" / "results" / "accuracy" / "models").glob("*.json"))
               for r in json.loads(p.read_text()) if r["format"] == "toon"]
    x = np.array([float(r["isCorrect"]) for r in answers])
    clusters = np.array([questions[r["questionId"]] for r in answers])
    est = stats.mean_estimate(x, clusters)
    assert est.clusters == 13 and est.ci_low <= 0.66 and est.ci_high >= 0.78
    assert est.mean == pytest.approx(0.722, abs=5e-4)


def test_one_cluster_is_flagged_and_never_narrower_than_two() -> None:
    """7 of 10 from one source item: plain Wilson, flagged; from two items it can only widen."""
    x = np.array([1.0] * 7 + [0.0] * 3)
    one = stats.mean_estimate(x, np.zeros(10))
    two = stats.mean_estimate(x, np.array([0] * 5 + [1] * 5))
    assert one.interval == stats.WILSON_ONE_CLUSTER and math.isnan(one.se_clustered)
    assert (one.ci_low, one.ci_high) == pytest.approx(wilson_closed_form(7, 10))
    assert two.ci_high - two.ci_low >= one.ci_high - one.ci_low - 1e-12


def test_small_samples_get_sane_intervals() -> None:
    """2 of 5 is not '0–100%' and 0 of 5 is not '0–0%'; from two source items it is wider, within [0, 1]."""
    x = np.array([1.0, 1, 0, 0, 0])
    own = stats.mean_estimate(x, np.arange(5))
    assert (own.ci_low, own.ci_high) == pytest.approx(wilson_closed_form(2, 5)) and 0 < own.ci_low < own.ci_high < 1
    two = stats.mean_estimate(x, np.array(["a", "a", "b", "b", "b"]))
    assert 0.0 <= two.ci_low <= own.ci_low and own.ci_high <= two.ci_high <= 1.0
    none = stats.mean_estimate(np.zeros(5), np.arange(5))
    assert none.ci_high > 0


def binomial_mcnemar(a_only: int, b_only: int) -> float:
    """Exact McNemar by definition: two-sided binomial test of the discordant pairs at 1/2, summed with comb."""
    n, k = a_only + b_only, min(a_only, b_only)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2**n)


def test_mcnemar_p_value_is_the_binomial_test_on_discordant_pairs() -> None:
    for a_only, b_only in ((17, 7), (0, 6), (3, 3), (40, 61)):
        assert stats.mcnemar_exact(a_only, b_only, both=40, neither=20) == pytest.approx(binomial_mcnemar(a_only, b_only))
    a = [1.0] * 17 + [0.0] * 7 + [1.0] * 40 + [0.0] * 20
    b = [0.0] * 17 + [1.0] * 7 + [1.0] * 40 + [0.0] * 20
    frame = pd.concat([_frame(a, [f"f{i}" for i in range(len(a))], "x"), _frame(b, [f"f{i}" for i in range(len(b))], "y")])
    row = comparisons(frame).iloc[0]
    assert (row["a_only"], row["b_only"], row["pairs"]) == (17, 7, len(a))
    assert row["p_mcnemar"] == pytest.approx(binomial_mcnemar(17, 7))
    assert row["diff"] == pytest.approx(10 / len(a))
    assert row["sim_low"] <= row["diff_low"] < row["diff"] < row["diff_high"] <= row["sim_high"]


def test_all_pairs_agreeing_get_an_exact_interval_not_zero_width() -> None:
    a = np.array([1.0, 0.0] * 10)
    cmp = stats.paired_comparison(a, a, np.ones(20), np.ones(20), np.arange(20), family=3)
    assert cmp.diff == 0 and cmp.test == stats.TEST_AGREE
    assert cmp.diff_high == pytest.approx(1 - 0.025 ** (1 / 20)) and cmp.diff_low == -cmp.diff_high
    assert cmp.sim_high == pytest.approx(1 - (0.05 / 3 / 2) ** (1 / 20))


def exact_mcnemar_power(delta: float, n: int, q: float, alpha: float) -> float:
    """Power of exact McNemar by enumerating every (A only, B only) count of n independent pairs (trinomial with
    P(A only) = (q + δ)/2, P(B only) = (q − δ)/2) and testing each with the binomial oracle."""
    q = max(q, delta)
    pa, pb = (q + delta) / 2, (q - delta) / 2
    total = 0.0
    for k in range(n + 1):
        for j in range(n - k + 1):
            if k + j and binomial_mcnemar(k, j) < alpha:
                total += math.comb(n, k) * math.comb(n - k, j) * pa ** k * pb ** j * (1 - pa - pb) ** (n - k - j)
    return total


def test_minimum_detectable_difference_has_80_percent_power_at_the_corrected_alpha() -> None:
    """Independent pairs: at the MDD exact McNemar (the report's test there) rejects with probability 80%, by
    enumeration; the variance moves with the difference (a difference above the discordance brings its own)."""
    rng = np.random.default_rng(3)
    d = rng.choice([-1.0, 0.0, 0.0, 0.0, 1.0], 30)
    q = float(np.mean(d != 0))
    for m in (1, 6):
        mdd = stats.minimum_detectable_difference(d, alpha=0.05 / m)
        assert exact_mcnemar_power(mdd, 30, q, 0.05 / m) == pytest.approx(0.80, abs=0.002)
        assert exact_mcnemar_power(mdd * 0.9, 30, q, 0.05 / m) < 0.78
    assert stats.minimum_detectable_difference(d, alpha=0.05 / 15) > stats.minimum_detectable_difference(d)
    clusters = np.repeat(np.arange(40), 10)
    correlated = np.repeat(rng.integers(-1, 2, 40).astype(float), 10)
    assert (stats.minimum_detectable_difference(correlated, clusters)
            > 2 * stats.minimum_detectable_difference(correlated))  # the design effect is in it
    agree = stats.minimum_detectable_difference(np.zeros(50), alpha=0.05)  # no discordance seen: still finite
    assert 0 < agree < 1 and exact_mcnemar_power(agree, 50, 0.0, 0.05) == pytest.approx(0.80, abs=0.002)


def _frame(correct: list[float], clusters: list[str], fmt: str = "a", system: str = "m") -> pd.DataFrame:
    n = len(correct)
    return pd.DataFrame({
        "system": system, "format": fmt, "correct": correct, "cluster": clusters, "input_tokens": 100.0,
        "usage_input_tokens": np.nan, "usage_output_tokens": np.nan, "pair": [f"q{i}" for i in range(n)], "epoch": 1,
        "model": system, "question_type": "t", "complexity": "simple",
    })


def test_k_of_n_in_the_accuracy_row() -> None:
    rng = np.random.default_rng(1)
    correct = (rng.random(57) < 0.6).astype(float).tolist()
    k, n = int(sum(correct)), len(correct)
    row = accuracy_rows(_frame(correct, [f"f{i}" for i in range(n)]), ["system", "format"]).iloc[0]
    assert (row["correct"], row["n"]) == (k, n) and row["accuracy"] == pytest.approx(k / n)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(wilson_closed_form(k, n))
    assert row["acc_per_1k_tokens"] == pytest.approx(k / n / 100 * 1000)  # a fraction per 1K tokens, as Inspect


def test_bootstrap_is_seeded_and_the_simultaneous_interval_is_wider() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 2, 200).astype(float), rng.integers(0, 2, 200).astype(float)
    tok = np.full(200, 100.0)
    cl = np.array([f"f{i // 4}" for i in range(200)], dtype=object)
    first = stats.paired_comparison(a, b, tok, tok * 2, cl, family=6)
    second = stats.paired_comparison(a, b, tok, tok * 2, cl, family=6)
    assert (first.diff_low, first.diff_high, first.sim_low) == (second.diff_low, second.diff_high, second.sim_low)
    assert first.eff_ratio == pytest.approx(2 * a.mean() / b.mean())
    assert first.eff_ratio_low < first.eff_ratio < first.eff_ratio_high
    assert first.sim_low < first.diff_low and first.sim_high > first.diff_high


def _systems_frame(systems: dict[str, list[float]]) -> pd.DataFrame:
    rows = []
    for system, answers in systems.items():
        for q, correct in enumerate(answers):
            for fmt, tokens in (("dart", 200), ("coon", 100)):
                rows.append({"system": system, "model": system.split(" ")[0], "format": fmt, "correct": correct,
                             "cluster": f"file{q % 3}", "pair": f"q{q}", "epoch": 1, "input_tokens": tokens,
                             "usage_input_tokens": np.nan, "usage_output_tokens": np.nan, "question_type": "t",
                             "complexity": "simple"})
    return pd.DataFrame(rows)


def test_references_are_never_pooled_and_get_no_findings() -> None:
    gold, floor = "mockllm/model [coonbench/gold]", "mockllm/model [coonbench/baseline_constant]"
    models = {"a/one": [1, 0, 1, 0, 1, 0], "b/two": [0, 0, 1, 1, 0, 0]}
    frame = _systems_frame({**models, gold: [1] * 6, floor: [0] * 6})
    assert is_reference(gold) and is_reference(floor) and not is_reference("a/one")
    sec = accuracy_section("comprehension", frame)
    acc = next(t.frame for t in sec.tables if t.name == "comprehension_accuracy")
    pooled = acc[acc["system"] == "all"].set_index("format")
    assert pooled.loc["dart", "n"] == 12 and pooled.loc["dart", "correct"] == sum(models["a/one"]) + sum(models["b/two"])
    order = list(dict.fromkeys(acc["system"]))
    assert order[0] == "all" and set(order[-2:]) == {gold, floor}
    cmp = next(t.frame for t in sec.tables if t.name == "comprehension_comparisons")
    assert not set(cmp["system"]) & {gold, floor}
    assert not any("coonbench/" in f for f in sec.findings)


def test_a_tie_is_never_ranked() -> None:
    """Four formats at the same accuracy: no 'most accurate', every format named as indistinguishable."""
    rows = []
    for fmt in ("a", "b", "c", "d"):
        answers = [1.0 if (q + ord(fmt)) % 10 == 0 else 0.0 for q in range(40)]
        rows.append(_frame(answers, [f"f{q}" for q in range(40)], fmt, "m/one"))
    sec = accuracy_section("retrieval", pd.concat(rows, ignore_index=True))
    text = " ".join([sec.headline, *sec.summary])
    assert "most accurate" not in text.lower()
    assert "all 4 formats" in sec.headline and "cannot be told apart" in sec.headline


def test_independent_pairs_get_the_interval_that_goes_with_exact_mcnemar() -> None:
    """Each question its own cluster: the difference's interval excludes 0 exactly when the exact McNemar p < α."""
    for a_only in range(0, 12):
        for b_only in range(0, 12):
            if a_only + b_only == 0:
                continue
            low, high = stats.discordant_interval(a_only, b_only, 30)
            assert low <= (a_only - b_only) / 30 <= high
            assert (low > 0 or high < 0) == (binomial_mcnemar(a_only, b_only) < 0.05), (a_only, b_only)
    a = np.array([1.0, 1, 1, 0, 0] * 2)
    b = np.array([0.0, 0, 0, 0, 0] * 2)
    cmp = stats.paired_comparison(a, b, np.ones(10), np.ones(10), np.arange(10))
    assert cmp.test == stats.TEST_MCNEMAR and cmp.p_value == pytest.approx(binomial_mcnemar(6, 0))
    assert (cmp.diff_low, cmp.diff_high) == pytest.approx(stats.discordant_interval(6, 0, 10))


def clustered_t_oracle(d: np.ndarray, clusters: np.ndarray, alpha: float) -> tuple[float, float, float]:
    """(p, low, high) of the cluster-robust t test of mean(d) = 0 by hand: CR2 SE, t on the Imbens–Kolesár df."""
    from scipy import stats as sps

    se, df = cr2_direct(d, clusters)
    t = d.mean() / se
    crit = sps.t.ppf(1 - alpha / 2, df)
    return 2 * sps.t.sf(abs(t), df), d.mean() - crit * se, d.mean() + crit * se


def test_clustered_pairs_get_the_cluster_robust_t_test_and_its_intervals() -> None:
    """Pairs that share source items: p and both intervals are the CR2 t test's, so the simultaneous interval
    excludes 0 exactly when p < α/m; McNemar (which takes the pairs as independent) is kept only for reference."""
    rng = np.random.default_rng(9)
    clusters = np.repeat(np.arange(13), 12)
    a = (rng.random(clusters.size) < 0.75).astype(float)
    b = (rng.random(clusters.size) < 0.6 + 0.2 * (clusters % 2)).astype(float)
    cmp = stats.paired_comparison(a, b, np.ones(a.size), np.ones(a.size), clusters, family=10)
    p, low, high = clustered_t_oracle(a - b, clusters, 0.05)
    _, s_low, s_high = clustered_t_oracle(a - b, clusters, 0.005)
    assert cmp.test == stats.TEST_CLUSTERED and cmp.clusters == 13
    assert cmp.p_value == pytest.approx(p) and (cmp.diff_low, cmp.diff_high) == pytest.approx((low, high))
    assert (cmp.sim_low, cmp.sim_high) == pytest.approx((s_low, s_high))
    assert (cmp.sim_low > 0 or cmp.sim_high < 0) == (cmp.p_value < 0.005)
    assert cmp.p_value >= 0.05 and math.isnan(cmp.p_loo_min)  # not a finding: no leave-one-out check needed
    strong = stats.paired_comparison(a, b * (clusters % 3 == 0), np.ones(a.size), np.ones(a.size), clusters, family=10)
    assert strong.p_value < 0.05 and strong.p_loo_min <= strong.p_value <= strong.p_loo_max  # 13 < 30 clusters


def test_power_functions_invert_each_other_and_plan_like_the_report() -> None:
    """``power_at`` of the ``detectable_difference`` is the power asked for; a planned design with the observed
    discordance and no intra-cluster correlation detects what the report's mdd says for independent pairs."""
    for se, df in ((0.02, 12), (0.01, 200)):
        for alpha in (0.05, 0.005):
            mdd = stats.detectable_difference(se, df, alpha)
            assert stats.power_at(mdd, se, df, alpha) == pytest.approx(0.80, abs=0.02)
    rng = np.random.default_rng(2)
    d = rng.choice([-1.0, 0.0, 0.0, 1.0], 400)
    planned = detect.planned_detectable_difference(400, 400, float(np.mean(d != 0)), comparisons=3)
    assert planned == pytest.approx(stats.minimum_detectable_difference(d, alpha=0.05 / 3), rel=1e-6)
    fewer = detect.planned_detectable_difference(400, 13, float(np.mean(d != 0)), icc=0.05, comparisons=3)
    assert fewer > 1.5 * planned  # 13 clusters of ~31 pairs with ICC 0.05: design effect 2.5


def _pair_frame(answers: dict[str, list[float]], tokens: dict[str, int], files: int) -> pd.DataFrame:
    rows = []
    for fmt, values in answers.items():
        for q, correct in enumerate(values):
            rows.append({"system": "m/one", "model": "m/one", "format": fmt, "correct": correct,
                         "cluster": f"file{q % files}", "cluster_level": "sample_id", "pair": f"q{q}", "epoch": 1,
                         "input_tokens": float(tokens[fmt]), "usage_input_tokens": np.nan,
                         "usage_output_tokens": np.nan, "question_type": "t", "complexity": "simple"})
    return pd.DataFrame(rows)


def test_coon_gets_a_verdict_on_intervals_and_other_formats_none() -> None:
    """COON declares its design's thresholds: with 200 questions its success is shown by every interval; with 20
    the point estimates pass (80% ≥ 75%) but the intervals cannot settle it. TOON declares none: no verdict."""
    from coonbench.formats.coon.format import DESIGN_THRESHOLDS as design

    many = [1.0] * 190 + [0.0] * 10
    sec = accuracy_section("comprehension", _pair_frame({"coon": many, "dart": many}, {"coon": 100, "dart": 300}, 40))
    [row] = next(t.frame for t in sec.tables if t.name == "comprehension_verdict").to_dict("records")
    assert (row["format"], row["baseline"], row["verdict"]) == ("coon", "dart", "success")
    assert row["accuracy_low"] >= design.min_accuracy and row["gap_high"] <= design.max_gap
    assert row["gain_low"] >= design.min_efficiency_gain
    few = [1.0] * 16 + [0.0] * 4
    sec = accuracy_section("comprehension", _pair_frame({"coon": few, "dart": few}, {"coon": 100, "dart": 300}, 10))
    [row] = next(t.frame for t in sec.tables if t.name == "comprehension_verdict").to_dict("records")
    assert design.decide(row["accuracy"], row["gap"], row["efficiency_gain"]) == "success"  # the points pass
    assert row["verdict"] == "undecided" and row["accuracy_low"] < design.min_accuracy < row["accuracy_high"]
    assert any("**undecided**" in f and "cannot settle" in f for f in sec.findings)
    sec = accuracy_section("retrieval", _pair_frame({"toon": many, "json": many}, {"toon": 100, "json": 300}, 40))
    assert "retrieval_verdict" not in {t.name for t in sec.tables}
    assert not any(w in f for f in sec.findings for w in ("success", "partial", "failure"))


def test_a_published_claim_is_decided_on_the_paired_interval_of_the_accuracy_lost() -> None:
    """Minified Python declares Pan et al.'s claim against the source: it holds when the whole interval of the
    accuracy lost is within the margin (200 questions, equal answers), is refuted when the whole interval is past it
    (a 40-point loss), and is unsettled on 20 questions that straddle it; the tokens saved are the inputs' ratio. A
    format that declares no claim (python-minifier) gets no row, and neither does the pair without its baseline."""
    from coonbench.formats.base import get_format

    [claim] = get_format("python-minified").claims()
    assert claim.baseline == "python" and get_format("python-minifier").claims() == ()
    many = [1.0] * 190 + [0.0] * 10

    def decided(minified: list[float], source: list[float], files: int) -> dict:
        answers = {"python-minified": minified, "python": source, "python-minifier": source}
        sec = accuracy_section("comprehension", _pair_frame(answers, {"python-minified": 70, "python": 100,
                                                                      "python-minifier": 90}, files))
        [row] = next(t.frame for t in sec.tables if t.name == "comprehension_claims").to_dict("records")
        assert row["token_saving"] == pytest.approx(0.30)
        assert any(f"**{row['verdict']}**" in f and "Pan et al." in f for f in sec.findings)
        return row

    row = decided(many, many, 40)
    assert (row["format"], row["baseline"], row["verdict"]) == ("python-minified", "python", "holds")
    assert row["loss_high"] <= claim.margin and row["loss"] == pytest.approx(0.0)
    row = decided([1.0] * 110 + [0.0] * 90, many, 40)
    assert row["verdict"] == "refuted" and row["loss_low"] > claim.margin
    assert row["loss"] == pytest.approx(0.40)
    row = decided([1.0] * 15 + [0.0] * 5, [1.0] * 16 + [0.0] * 4, 10)
    assert row["verdict"] == "unsettled" and row["loss_low"] <= claim.margin < row["loss_high"]
    alone = accuracy_section("comprehension", _pair_frame({"python-minified": many, "python-minifier": many},
                                                          {"python-minified": 70, "python-minifier": 90}, 40))
    assert "comprehension_claims" not in {t.name for t in alone.tables}


def test_generation_validity_gets_the_designs_verdict_on_its_interval() -> None:
    """COON's design asks ≥ 85% valid generated programs: 58 of 60 valid shows it on the whole interval, 6 of 10
    misses it on the whole interval, 9 of 10 cannot settle it; a format without a target (dart) and a reference
    system get no verdict. The interval is the accuracies' own (Wilson here: one program per cluster)."""
    from coonbench.formats.coon.format import DESIGN_THRESHOLDS as design
    from coonbench.report.sections import code_section

    def frame(valid: dict[str, list[float]], system: str = "m/one") -> pd.DataFrame:
        return pd.DataFrame([{"system": system, "format": fmt, "syntax_valid": v, "correct": v, "cluster": f"q{i}",
                              "input_tokens": 100.0, "question_type": "nl-to-coon", "reference": False}
                             for fmt, values in valid.items() for i, v in enumerate(values)])

    for valid, word in (([1.0] * 58 + [0.0] * 2, "success"), ([1.0] * 6 + [0.0] * 4, "failure"),
                        ([1.0] * 9 + [0.0], "undecided")):
        sec = code_section("generation", frame({"coon": valid, "dart": valid}))
        [row] = next(t.frame for t in sec.tables if t.name == "generation_validity_verdict").to_dict("records")
        low, high = stats.wilson(int(sum(valid)), len(valid))
        assert (row["format"], row["verdict"], row["programs"]) == ("coon", word, len(valid))
        assert (row["validity_low"], row["validity_high"]) == pytest.approx((low, high))
        assert word == ("success" if low >= design.min_generation_validity
                        else "failure" if high < design.min_generation_validity else "undecided")
        assert any(f"**{word}**" in f for f in sec.findings)
    assert "generation_validity_verdict" not in {t.name for t in code_section("modification", frame(
        {"coon": [1.0] * 10})).tables}
    reference = frame({"coon": [1.0] * 10}, "mockllm/model [coonbench/baseline_empty]").assign(reference=True)
    assert "generation_validity_verdict" not in {t.name for t in code_section("generation", reference).tables}


def test_the_forest_plot_draws_the_comparison_table_rows() -> None:
    """Every plotted difference is its table row (oriented so the more accurate format comes first)."""
    rng = np.random.default_rng(4)
    answers = {f: (rng.random(60) < p).astype(float).tolist() for f, p in (("a", 0.5), ("b", 0.7), ("c", 0.8))}
    sec = accuracy_section("retrieval", _pair_frame(answers, {"a": 100, "b": 200, "c": 300}, 15))
    cmp = next(t.frame for t in sec.tables if t.name == "retrieval_comparisons")
    forest = sec.plot_data["retrieval_forest.png"]["points"]
    assert len(forest) == len(cmp) == 3
    for point in forest:
        row = cmp[(cmp["format_a"] == point["format_a"]) & (cmp["format_b"] == point["format_b"])]
        sign = 1
        if row.empty:
            row, sign = cmp[(cmp["format_a"] == point["format_b"]) & (cmp["format_b"] == point["format_a"])], -1
        row = row.iloc[0]
        assert point["diff"] == pytest.approx(sign * row["diff"]) and point["diff"] >= 0
        assert sorted((point["diff_low"], point["diff_high"])) == pytest.approx(
            sorted((sign * row["diff_low"], sign * row["diff_high"])))
    said = [f for f in sec.findings if " vs " in f]
    for f in said:  # the sentences agree in sign with the table too
        a, b = f.split(": ", 2)[1].split(" vs ")
        row = cmp[((cmp["format_a"] == a) & (cmp["format_b"] == b)) | ((cmp["format_a"] == b) & (cmp["format_b"] == a))]
        diff = row["diff"].iloc[0] * (1 if row["format_a"].iloc[0] == a else -1)
        assert f.split(": ", 2)[2].startswith(("+" if diff > 0 else "-" if diff < 0 else "0") )


def test_a_difference_interval_never_leaves_minus_to_plus_100_points() -> None:
    """Two clusters give t with 1 df (crit 12.7): the interval is as wide as that honestly is, but a difference of
    two rates cannot pass ±100 points."""
    a = np.array([1.0, 1, 0, 1, 0, 1])
    b = np.array([0.0, 1, 0, 0, 0, 0])
    cmp = stats.paired_comparison(a, b, np.ones(6), np.ones(6), np.array([0, 0, 0, 1, 1, 1]), family=3)
    assert cmp.test == stats.TEST_CLUSTERED
    assert -1 <= cmp.sim_low <= cmp.diff_low < cmp.diff < cmp.diff_high <= cmp.sim_high <= 1


def test_a_subset_is_tested_in_the_same_holm_family_and_the_paragraph_counts_all_of_it() -> None:
    """Formats a, b, c on 60 questions and d on the first 30: 3 comparisons on the 60 and 6 on the 30 are one
    family of 9 (Holm over all nine), and the clustering sentence counts the nine."""
    rng = np.random.default_rng(8)
    answers = {f: (rng.random(60) < p).astype(float).tolist() for f, p in (("a", 0.5), ("b", 0.7), ("c", 0.9))}
    frame = _pair_frame(answers, {"a": 100, "b": 200, "c": 300}, 12)
    d = _pair_frame({"d": (rng.random(60) < 0.6).astype(float).tolist()}, {"d": 150}, 12)
    frame = pd.concat([frame, d[d["pair"].isin([f"q{i}" for i in range(30)])]], ignore_index=True)
    sec = accuracy_section("retrieval", frame)
    cmp = next(t.frame for t in sec.tables if t.name == "retrieval_comparisons")
    assert len(cmp) == 9 and set(cmp["family"]) == {9} and cmp["questions"].nunique() == 2
    assert list(cmp["p_holm"]) == pytest.approx(holm_step_down(list(cmp["p_value"])))
    text = " ".join(sec.summary)
    assert "(of 9 in the Holm family, every question set)" in text


def test_too_few_effective_clusters_decide_nothing_and_rank_nothing() -> None:
    """Two big source items and three single questions: the clustered test has under 3 degrees of freedom
    (Bell–McCaffrey, from the sizes alone), so a comparison that does not pass Holm says it cannot decide, and the
    format is marked '?' against the leader, not tied with it."""
    clusters = ["f0"] * 30 + ["f1"] * 25 + ["f2", "f3", "f4"]
    assert cluster.bm_df(np.array([30, 25, 1, 1, 1])) < stats.MIN_DF
    rng = np.random.default_rng(2)
    rows = []
    for fmt, p in (("a", 0.6), ("b", 0.55)):
        answers = (rng.random(len(clusters)) < p).astype(float).tolist()
        rows.append(_frame(answers, clusters, fmt, "m/one"))
    sec = accuracy_section("retrieval", pd.concat(rows, ignore_index=True))
    [row] = next(t.frame for t in sec.tables if t.name == "retrieval_comparisons").to_dict("records")
    assert row["test"] == stats.TEST_CLUSTERED and row["df"] < stats.MIN_DF and row["p_holm"] >= 0.05
    assert row["conclusion"] == "too few clusters to decide"
    lead = next(t for t in sec.lead if t.name == "retrieval_summary")
    assert "undecided" in set(lead.frame["rank"]) and "?" in lead.display.to_string()
    assert "cannot be ranked" in sec.headline and "most accurate" not in sec.headline
