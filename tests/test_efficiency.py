"""The COON design's verdict and accuracy-per-token metrics, on hand-computed score sets."""

from __future__ import annotations

import pytest
from inspect_ai.scorer import SampleScore, Score

from scorers.efficiency import accuracy_per_1k_tokens, by_format, verdict, verdict_of


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


def test_partial_when_cheaper_but_less_accurate() -> None:
    # coon 0.5 at 100 → 5.0; dart 1.0 at 300 → 3.33: gain 1.5 holds, accuracy and gap fail
    rows = [("coon", 1, 100), ("coon", 0, 100), ("dart", 1, 300), ("dart", 1, 300)]
    word, figures = verdict_of(by_format(scores(rows)), "coon", "dart")
    assert word == "partial"
    assert figures["gap"] == pytest.approx(0.5)
    assert figures["efficiency_gain"] == pytest.approx(1.5)


def test_failure_when_nothing_holds() -> None:
    rows = [("coon", 0, 100), ("dart", 1, 100)]
    assert verdict_of(by_format(scores(rows)), "coon", "dart")[0] == "failure"
    assert verdict()(scores(rows))["verdict"] == 0.0


def test_accuracy_per_1k_tokens_per_format() -> None:
    rows = [("coon", 1, 250), ("coon", 0, 250), ("dart", 1, 500)]
    assert accuracy_per_1k_tokens()(scores(rows)) == {"coon": 2.0, "dart": 2.0}
