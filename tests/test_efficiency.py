"""The COON design's verdict and accuracy-per-token metrics, on hand-computed score sets."""

from __future__ import annotations

import pytest
from inspect_ai.scorer import SampleScore, Score

from coonbench.scorers.efficiency import accuracy_per_1k_tokens, by_format, verdict, verdict_of


def scores(rows: list[tuple[str, int, float]]) -> list[SampleScore]:
    """(format, correct, input tokens) rows as sample scores."""
    return [
        SampleScore(score=Score(value={"correct": c}), sample_id=i, sample_metadata={"format": f, "input_tokens": t})
        for i, (f, c, t) in enumerate(rows)
    ]


def test_success_when_all_three_criteria_hold() -> None:
    # coon: 4/5 = 0.8 at 100 tokens → 8.0 per 1K; dart: 4/5 = 0.8 at 200 tokens → 4.0 per 1K → gain 2.0
    rows = [("coon", 1, 100)] * 4 + [("coon", 0, 100)] + [("dart", 1, 200)] * 4 + [("dart", 0, 200)]
    word, figures = verdict_of(by_format(scores(rows)), "coon", "dart")
    assert word == "success"
    assert figures == pytest.approx({"accuracy": 0.8, "gap": 0.0, "efficiency_gain": 2.0})
    assert verdict()(scores(rows)) == {"verdict": 1.0, "gap": 0.0, "efficiency_gain": 2.0}


def test_partial_when_accurate_enough_but_not_efficient() -> None:
    # coon 0.7 at 100 → 7.0 per 1K; dart 0.7 at 120 → 5.83: gain 1.2 < 1.5, accuracy 65–75%
    rows = [("coon", 1, 100)] * 7 + [("coon", 0, 100)] * 3 + [("dart", 1, 120)] * 7 + [("dart", 0, 120)] * 3
    word, figures = verdict_of(by_format(scores(rows)), "coon", "dart")
    assert word == "partial"
    assert figures["efficiency_gain"] == pytest.approx(1.2)
    assert verdict()(scores(rows))["verdict"] == 0.5


def test_partial_when_accurate_and_efficient_but_the_gap_is_too_wide() -> None:
    # coon 0.8 at 100 → 8.0; dart 1.0 at 300 → 3.33: gain 2.4, but 20 points below Dart
    rows = [("coon", 1, 100)] * 4 + [("coon", 0, 100)] + [("dart", 1, 300)] * 5
    word, figures = verdict_of(by_format(scores(rows)), "coon", "dart")
    assert word == "partial" and figures["gap"] == pytest.approx(0.2)


def test_failure_below_65_percent_whatever_the_efficiency() -> None:
    # coon 0.6 at 10 tokens is 20× as efficient as dart 0.6 at 200, yet below 65%
    rows = [("coon", 1, 10)] * 3 + [("coon", 0, 10)] * 2 + [("dart", 1, 200)] * 3 + [("dart", 0, 200)] * 2
    word, figures = verdict_of(by_format(scores(rows)), "coon", "dart")
    assert word == "failure" and figures["efficiency_gain"] == pytest.approx(20.0)
    assert verdict()(scores(rows))["verdict"] == 0.0


def test_failure_when_nothing_is_answered() -> None:
    """Both formats at 0% (a gap of 0) is a failure, not a partial success."""
    rows = [("coon", 0, 100), ("dart", 0, 100)]
    assert verdict_of(by_format(scores(rows)), "coon", "dart")[0] == "failure"
    assert verdict()(scores(rows))["verdict"] == 0.0


def test_accuracy_per_1k_tokens_per_format() -> None:
    rows = [("coon", 1, 250), ("coon", 0, 250), ("dart", 1, 500)]
    assert accuracy_per_1k_tokens()(scores(rows)) == {"coon": 2.0, "dart": 2.0}


@pytest.mark.parametrize("seed", range(5))
def test_correct_metric_is_inspects_accuracy_and_stderr_of_the_correct_key(seed: int) -> None:
    """``correct()`` reads ``value["correct"]`` from whole scores (no per-key copies); its figures must be those of
    Inspect's per-key ``accuracy()`` and ``stderr()`` on the same values, with NaN (unscored) values left out."""
    import math
    import random

    from inspect_ai.scorer import accuracy, stderr

    from coonbench.scorers.answer import correct

    rng = random.Random(seed)
    values = [rng.choice([0.0, 1.0, 1.0, math.nan]) for _ in range(rng.randint(2, 60))]
    whole = [SampleScore(score=Score(value={"correct": v, "answered": 1.0}), sample_id=i, sample_metadata={"format": "x"})
             for i, v in enumerate(values)]
    kept = [SampleScore(score=Score(value=v), sample_id=i) for i, v in enumerate(values) if not math.isnan(v)]
    figures = correct()(whole)
    if len(kept) < 2:
        assert figures["stderr"] == 0.0
        return
    assert figures["accuracy"] == pytest.approx(accuracy()(kept))
    assert figures["stderr"] == pytest.approx(stderr()(kept))


def test_no_baseline_in_the_run_gives_n_a_not_failure() -> None:
    """Only COON ran (no Dart): the verdict cannot be computed, so every figure is NaN (Inspect prints "n/a"),
    never the 0.0 of a failure."""
    import math

    rows = [("coon", 1, 100)] * 4
    assert verdict_of(by_format(scores(rows)), "coon")[0] == "n/a"
    assert all(math.isnan(v) for v in verdict()(scores(rows)).values())


def test_a_format_that_declares_no_thresholds_gets_no_verdict() -> None:
    """TOON's design sets no COON thresholds: toon against json is a comparison, not a verdict."""
    import math

    rows = [("toon", 1, 100)] * 4 + [("json", 0, 200)] * 4
    assert verdict_of(by_format(scores(rows)), "toon", "json")[0] == "n/a"
    assert math.isnan(verdict("toon", "json")(scores(rows))["verdict"])


def test_coons_thresholds_are_its_design_documents() -> None:
    """The numbers COON's plug-in declares are those of §8 of COON's benchmark design (read from shared/seeds)."""
    import re

    from coonbench.formats.base import get_format
    from tests.conftest import SHARED_DIR

    seeds = sorted((SHARED_DIR / "seeds").glob("*.txt")) if (SHARED_DIR / "seeds").is_dir() else []
    design = next((p.read_text(encoding="utf-8") for p in seeds if "## 8. Success Criteria" in p.read_text(
        encoding="utf-8")), None)
    if design is None:
        pytest.skip(f"COON's design document is not under {SHARED_DIR / 'seeds'}")
    section = design.split("## 8. Success Criteria", 1)[1].split("\n## ", 1)[0]
    t = get_format("coon").design_thresholds()
    assert t is not None and t.baseline == "dart"
    assert re.search(r"COON Comprehension \| ≥(\d+)%", section).group(1) == f"{t.min_accuracy * 100:.0f}"
    assert float(re.search(r"Efficiency Gain \| ≥([\d.]+)x", section).group(1)) == t.min_efficiency_gain
    assert re.search(r"Comprehension Gap \| ≤(\d+)%", section).group(1) == f"{t.max_gap * 100:.0f}"
    assert re.search(r"Failure\*\*: Comprehension <(\d+)%", section).group(1) == f"{t.partial_accuracy * 100:.0f}"
