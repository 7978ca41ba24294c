"""The report's statistics against scipy/statsmodels and hand computations (no Inspect run needed)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy import stats as scipy_stats
from statsmodels.stats.proportion import proportion_confint

from coonbench.report import stats
from coonbench.report.tables import accuracy_rows, accuracy_section, comparisons, is_reference


def _frame(correct: list[float], clusters: list[str], fmt: str = "a", system: str = "m") -> pd.DataFrame:
    n = len(correct)
    return pd.DataFrame({
        "system": system, "format": fmt, "correct": correct, "cluster": clusters,
        "input_tokens": 100.0, "pair": [f"q{i}" for i in range(n)], "epoch": 1,
    })


def test_k_of_n_and_wilson_interval_equal_statsmodels() -> None:
    rng = np.random.default_rng(1)
    correct = (rng.random(57) < 0.6).astype(float).tolist()
    k, n = int(sum(correct)), len(correct)
    row = accuracy_rows(_frame(correct, [f"f{i}" for i in range(n)]), ["system", "format"]).iloc[0]
    assert (row["correct"], row["n"]) == (k, n)
    assert row["accuracy"] == pytest.approx(k / n)
    low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
    assert (row["wilson_low"], row["wilson_high"]) == (pytest.approx(low), pytest.approx(high))


def test_clustered_se_is_miller_formula_and_statsmodels_cluster_covariance() -> None:
    rng = np.random.default_rng(7)
    clusters = np.repeat([f"file{i}" for i in range(12)], 6)
    x = rng.integers(0, 2, clusters.size).astype(float)
    est = stats.mean_estimate(x, clusters)
    # Miller 2024 eq. 4 by hand: sqrt(sum over clusters of (sum of residuals)^2) / n
    resid = pd.Series(x - x.mean()).groupby(clusters).sum().to_numpy()
    assert est.se_clustered == pytest.approx(math.sqrt(np.sum(resid**2)) / x.size)
    fit = sm.OLS(x, np.ones((x.size, 1))).fit(
        cov_type="cluster", cov_kwds={"groups": pd.factorize(clusters)[0], "use_correction": False}
    )
    assert est.se_clustered == pytest.approx(float(fit.bse[0]))
    # 12 clusters: Student's t with 11 degrees of freedom on the larger SE, widened to hold the Wilson interval
    t = scipy_stats.t.ppf(0.975, 11)
    se = max(est.se_clustered, est.se_naive)
    w_low, _ = proportion_confint(int(x.sum()), x.size, alpha=0.05, method="wilson")
    assert est.ci_low == pytest.approx(min(x.mean() - t * se, w_low))


def test_small_samples_get_honest_intervals() -> None:
    """1 of 5 from two files is not '8.9%–31.1%' (a clustered SE from two clusters) and 0 of 5 is not '0%–0%'."""
    one = stats.mean_estimate(np.array([1.0, 0, 0, 0, 0]), np.array(["a", "a", "a", "b", "b"]))
    assert one.ci_low <= 0.0 + 1e-9 and one.ci_high >= proportion_confint(1, 5, method="wilson")[1] - 1e-9
    none = stats.mean_estimate(np.zeros(5), np.arange(5))
    assert none.ci_low == 0.0 and none.ci_high == pytest.approx(proportion_confint(0, 5, method="wilson")[1])


def test_clustered_se_exceeds_naive_when_answers_are_correlated_within_a_file() -> None:
    # each file is answered all right or all wrong: strongly correlated within files
    files = [f"file{i}" for i in range(10) for _ in range(8)]
    correct = [float(i % 2 == 0) for i in range(10) for _ in range(8)]
    est = stats.mean_estimate(np.array(correct), np.array(files))
    assert est.se_clustered > 2 * est.se_naive
    independent = stats.mean_estimate(np.array(correct), np.arange(len(correct)))
    assert independent.se_clustered == pytest.approx(independent.se_naive, rel=0.02)


def test_mcnemar_p_value_is_the_binomial_test_on_discordant_pairs() -> None:
    a_only, b_only = 17, 7
    hand = scipy_stats.binomtest(a_only, a_only + b_only, 0.5, alternative="two-sided").pvalue
    assert stats.mcnemar_exact(a_only, b_only, both=40, neither=20) == pytest.approx(hand)
    # through the comparison table: built from answers, p computed from the pairs it found
    a = [1.0] * a_only + [0.0] * b_only + [1.0] * 40 + [0.0] * 20
    b = [0.0] * a_only + [1.0] * b_only + [1.0] * 40 + [0.0] * 20
    frame = pd.concat([_frame(a, [f"f{i}" for i in range(len(a))], "x"), _frame(b, [f"f{i}" for i in range(len(b))], "y")])
    row = comparisons(frame).iloc[0]
    assert (row["a_only"], row["b_only"], row["pairs"]) == (a_only, b_only, len(a))
    assert row["p_mcnemar"] == pytest.approx(hand)
    assert row["diff"] == pytest.approx((a_only - b_only) / len(a))
    assert row["diff_low"] < row["diff"] < row["diff_high"]


def test_holm_and_cannot_tell_apart() -> None:
    ps = [0.01, 0.02, 0.04]
    from statsmodels.stats.multitest import multipletests

    assert stats.holm(ps) == pytest.approx(list(multipletests(ps, method="holm")[1]))
    # identical accuracy on different questions: no significant difference, the report says so
    a = [1.0, 0.0] * 30
    b = [0.0, 1.0] * 30
    frame = pd.concat([_frame(a, [f"f{i}" for i in range(60)], "x"), _frame(b, [f"f{i}" for i in range(60)], "y")])
    row = comparisons(frame).iloc[0]
    assert row["conclusion"] == "cannot tell apart"
    assert row["p_mcnemar"] == pytest.approx(1.0)


def test_minimum_detectable_difference_shrinks_with_more_pairs() -> None:
    rng = np.random.default_rng(3)
    small = stats.minimum_detectable_difference(rng.integers(-1, 2, 50).astype(float), 0.5)
    large = stats.minimum_detectable_difference(rng.integers(-1, 2, 800).astype(float), 0.5)
    assert 0 < large < small
    assert large == pytest.approx(small * math.sqrt(50 / 800), rel=0.25)


def test_bootstrap_is_seeded() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 2, 200).astype(float), rng.integers(0, 2, 200).astype(float)
    tok = np.full(200, 100.0)
    cl = np.array([f"f{i // 4}" for i in range(200)], dtype=object)
    first = stats.paired_comparison(a, b, tok, tok * 2, cl)
    second = stats.paired_comparison(a, b, tok, tok * 2, cl)
    assert (first.diff_low, first.diff_high) == (second.diff_low, second.diff_high)
    assert first.eff_ratio == pytest.approx(2 * a.mean() / b.mean())
    assert first.eff_ratio_low < first.eff_ratio < first.eff_ratio_high


def _systems_frame(systems: dict[str, list[float]]) -> pd.DataFrame:
    """Two formats × a few questions per system; ``systems`` maps a system to its per-question correctness."""
    rows = []
    for system, answers in systems.items():
        for q, correct in enumerate(answers):
            for fmt, tokens in (("dart", 200), ("coon", 100)):
                rows.append({"system": system, "format": fmt, "correct": correct, "cluster": f"file{q % 3}",
                             "pair": f"q{q}", "epoch": 1, "input_tokens": tokens, "question_type": "t",
                             "complexity": "simple"})
    return pd.DataFrame(rows)


def test_references_are_never_pooled_and_rank_last() -> None:
    """Gold and trivial baselines keep their own rows, after the models; 'all' pools only systems under test."""
    gold, floor = "mockllm/model [coonbench/gold]", "mockllm/model [coonbench/baseline_constant]"
    models = {"a/one": [1, 0, 1, 0, 1, 0], "b/two": [0, 0, 1, 1, 0, 0]}
    frame = _systems_frame({**models, gold: [1] * 6, floor: [0] * 6})
    assert is_reference(gold) and is_reference(floor) and not is_reference("a/one")
    sec = accuracy_section("comprehension", frame)
    acc = next(t.frame for t in sec.tables if t.name == "comprehension_accuracy")
    pooled = acc[acc["system"] == "all"].set_index("format")
    assert pooled.loc["dart", "n"] == 12  # the two models' 6 questions each, not 24
    assert pooled.loc["dart", "correct"] == sum(models["a/one"]) + sum(models["b/two"])
    ranking = next(t.frame for t in sec.tables if t.name == "comprehension_efficiency")
    order = list(dict.fromkeys(ranking["system"]))
    assert order[0] == "all" and set(order[-2:]) == {gold, floor}
    assert "all:" in sec.findings[0]  # the headline speaks of the models, not of the oracle

    one_model = accuracy_section("comprehension", _systems_frame({"a/one": models["a/one"], gold: [1] * 6}))
    acc = next(t.frame for t in one_model.tables if t.name == "comprehension_accuracy")
    assert "all" not in set(acc["system"])  # one model and a reference: nothing to pool
    assert one_model.findings[0].startswith("a/one:")
