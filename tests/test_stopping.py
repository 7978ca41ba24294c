"""``-T stop=decided``: the confidence sequence covers under continuous monitoring, the rule keeps pairs whole, and
a real run on a scripted model stops early when formats differ and says why in its log and its report."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, get_model

from coonbench.cli import load_task
from coonbench.report import build_report
from coonbench.tasks.anytime import BettingCS, decide
from coonbench.tasks.samples import TaskArgumentError
from coonbench.tasks.stopping import MANAGER, Monitor, check_stop, decided_order, score_value
from coonbench.tasks.subset import question_group


def _miscoverage(draw: Any, truth: float, alpha: float, sims: int, steps: int, seed: int) -> float:
    """The share of simulated sequences whose interval excludes ``truth`` at some look (every step is a look)."""
    rng = np.random.default_rng(seed)
    cs = BettingCS(alpha, (sims,))
    missed = np.zeros(sims, dtype=bool)
    for _ in range(steps):
        cs.update(draw(rng, sims))
        low, high = cs.interval()
        missed |= (low > truth) | (high < truth)
    return float(missed.mean())


# (name, draw(rng, n) of paired differences in [-1, 1], its true mean computed from the same numbers)
P = (0.30, 0.55, 0.15)  # P(+1), P(0), P(−1)
Q = (0.10, 0.50, 0.40)  # the other half of the clusters: the other format is better there
CLUSTER_SIZES = np.array([1, 1, 2, 5, 9])


def _cluster_means(rng: np.random.Generator, n: int) -> np.ndarray:
    sizes = rng.choice(CLUSTER_SIZES, size=n)
    counts = np.where(rng.random(n)[:, None] < 0.5, rng.multinomial(sizes, P), rng.multinomial(sizes, Q))
    return (counts[:, 0] - counts[:, 2]) / sizes
CASES = [
    ("paired answers, small effect", lambda rng, n: rng.choice([1.0, 0.0, -1.0], p=P, size=n), P[0] - P[2]),
    ("no difference", lambda rng, n: rng.choice([1.0, 0.0, -1.0], p=(0.2, 0.6, 0.2), size=n), 0.0),
    ("near the edge", lambda rng, n: rng.choice([1.0, -1.0], p=(0.95, 0.05), size=n), 0.95 - 0.05),
    # cluster means of uneven clusters whose questions share a cluster effect (a skewed, discrete distribution)
    ("cluster means", lambda rng, n: _cluster_means(rng, n), 0.5 * (P[0] - P[2]) + 0.5 * (Q[0] - Q[2])),
]


@pytest.mark.parametrize("name,draw,truth", CASES, ids=[c[0] for c in CASES])
def test_coverage_under_continuous_monitoring_is_at_least_nominal(name: str, draw: Any, truth: float) -> None:
    alpha, sims = 0.1, 300
    missed = _miscoverage(draw, truth, alpha, sims, steps=100, seed=7)
    # at most α plus two Monte Carlo standard errors (the sequence is conservative: typically well under α)
    assert missed <= alpha + 2 * math.sqrt(alpha * (1 - alpha) / sims), f"{name}: missed {missed:.3f}"


def test_a_clear_difference_is_decided_within_few_observations() -> None:
    cs = BettingCS(0.05)
    steps = 0
    while not str(decide(*cs.interval(), 0.05)) and steps < 100:
        cs.update(1.0)
        steps += 1
    low, high = cs.interval()
    assert str(decide(low, high, 0.05)) == "differ" and low > 0 and steps <= 12


def test_intervals_only_shrink_and_equivalence_needs_the_margin() -> None:
    rng = np.random.default_rng(3)
    cs = BettingCS(0.05)
    widths = []
    for d in rng.choice([1.0, 0.0, -1.0], p=(0.05, 0.9, 0.05), size=300):
        cs.update(d)
        low, high = cs.interval()
        widths.append(float(high - low))
    assert all(b <= a + 1e-12 for a, b in zip(widths, widths[1:]))
    assert str(decide(low, high, 0.5)) == "equivalent" and str(decide(low, high, 0.001)) == ""


def _samples(questions: int, formats: tuple[str, ...] = ("json", "toon"), per_item: int = 3) -> list[Sample]:
    return [Sample(id=f"q{q}-{f}", input="?", metadata={"format": f, "dataset": f"d{q // per_item}"})
            for q in range(questions) for f in formats]


def _monitor(samples: list[Sample], margin: float = 0.05) -> Monitor:
    return Monitor([(str(s.id), s.metadata or {}) for s in samples], margin=margin)


def test_decided_order_keeps_questions_and_items_whole_and_is_seeded() -> None:
    samples = _samples(30)
    ordered = decided_order(samples, seed=1)
    assert sorted(str(s.id) for s in ordered) == sorted(str(s.id) for s in samples)
    assert [s.id for s in decided_order(samples, seed=1)] == [s.id for s in ordered]
    assert [s.id for s in decided_order(samples, seed=2)] != [s.id for s in ordered]
    groups = [question_group(str(s.id), s.metadata or {}) for s in ordered]
    items = [(s.metadata or {})["dataset"] for s in ordered]
    for seq in (groups, items):  # each run of equal values is contiguous
        runs = [v for i, v in enumerate(seq) if i == 0 or seq[i - 1] != v]
        assert len(runs) == len(set(seq))


def test_the_rule_stops_once_decided_but_finishes_started_questions() -> None:
    samples = _samples(60)
    monitor = _monitor(samples)
    asked = []
    for s in samples:
        sid = str(s.id)
        if monitor.ask(sid):
            asked.append(sid)
            monitor.record(sid, 1, 1.0 if sid.endswith("-json") else 0.0)
    summary = monitor.summary()
    assert summary["stopped_early"] and summary["reason"].startswith("decided")
    assert summary["questions_asked"] < 30 and summary["comparisons"][0]["decision"] == "differ"
    assert len(asked) == 2 * summary["questions_asked"]  # every question asked in both formats
    started = _monitor(samples)
    started.stopped_at = {"time": "", "questions_asked": 0, "items_observed": 0}
    assert not started.ask("q5-json")
    started.stopped_at = None
    assert started.ask("q5-json")
    started.stopped_at = {"time": "", "questions_asked": 1, "items_observed": 0}
    assert started.ask("q5-toon") and not started.ask("q6-json")  # its question's other format still runs


def test_items_enter_the_sequence_in_their_drawn_order_whatever_order_they_finish() -> None:
    samples = _samples(6, per_item=3)  # items d0 (q0-q2) and d1 (q3-q5)
    monitor = _monitor(samples)
    for s in samples:
        monitor.ask(str(s.id))
    for sid in [str(s.id) for s in samples][6:]:  # d1 finishes first: nothing is fed yet
        monitor.record(sid, 1, 1.0)
    assert monitor.next_item == 0 and monitor.units[("json", "toon")] == 0
    for sid in [str(s.id) for s in samples][:6]:
        monitor.record(sid, 1, 0.0)
    assert monitor.next_item == 2 and monitor.units[("json", "toon")] == 2


def test_without_a_difference_the_rule_stops_for_futility_and_claims_nothing() -> None:
    samples = _samples(150)  # 50 source items: too few to show equivalence within ±5 points
    monitor = _monitor(samples)
    for s in samples:
        if monitor.ask(str(s.id)):
            monitor.record(str(s.id), 1, 1.0)
    summary = monitor.summary()
    [cmp] = summary["comparisons"]
    seen = cmp["futile_after_items"]
    assert summary["stopped_early"] and summary["questions_asked"] == 3 * seen < 150
    assert summary["reason"].startswith("futile") and f"json vs toon cannot be decided in the {50 - seen}" in \
        summary["reason"]
    assert cmp["decision"] == "undecided" and cmp["futile"]
    _assert_no_continuation_decides([0.0] * seen, 50 - seen, 0.05)  # the claim, checked by feeding them
    _assert_no_continuation_decides([0.0], 49, 0.05, decides=True)  # after the first item it could still be
    wide = _monitor(samples, margin=0.5)  # a margin these items can show: equivalence, never futility
    for s in samples:
        if wide.ask(str(s.id)):
            wide.record(str(s.id), 1, 1.0)
    summary = wide.summary()
    assert summary["reason"].startswith("decided") and summary["comparisons"][0]["decision"] == "equivalent"
    assert not summary["comparisons"][0]["futile"] and summary["questions_asked"] < 45


def _assert_no_continuation_decides(seen: list[float], left: int, margin: float, decides: bool = False) -> None:
    """Feed ``seen``, then each continuation ``decidable`` claims to try (the interval's ends, and 0) ``left``
    times, with plain ``update``: none decides (or, ``decides``, one does within the steps it reported)."""
    cs = BettingCS(0.05)
    for d in seen:
        cs.update(d)
    low, high = (float(v) for v in cs.interval())
    can, steps = cs.decidable(left, margin)
    outcomes = []
    for value in (high, low, min(max(0.0, low), high)):
        trial = BettingCS(0.05)
        for d in [*seen, *[value] * left]:
            trial.update(d)
        outcomes.append(str(decide(*trial.interval(), margin)))
    assert bool(can) == decides and any(outcomes) == decides, (outcomes, can, steps)
    if decides:
        assert 0 < int(steps) <= left


def test_decidable_matches_feeding_its_continuations() -> None:
    rng = np.random.default_rng(11)
    for _ in range(6):
        seen = list(rng.choice([1.0, 0.5, 0.0, -0.5, -1.0], p=(0.1, 0.2, 0.4, 0.2, 0.1), size=int(rng.integers(3, 30))))
        cs = BettingCS(0.05)
        for d in seen:
            cs.update(d)
        if str(decide(*cs.interval(), 0.05)):
            continue
        left = int(rng.integers(1, 40))
        _assert_no_continuation_decides(seen, left, 0.05, decides=bool(cs.decidable(left, 0.05)[0]))


def test_score_values_are_read_like_the_report_reads_them() -> None:
    from inspect_ai.scorer import SampleScore, Score

    def scored(value: Any) -> dict[str, Any]:
        return {"s": SampleScore(score=Score(value=value))}

    assert score_value(scored({"correct": 1.0, "answered": 1.0})) == 1.0
    assert score_value(scored("I")) == 0.0 and score_value(scored(True)) == 1.0
    assert math.isnan(score_value(scored({"a": 1.0, "b": 0.0}))) and math.isnan(score_value({}))


@pytest.mark.parametrize("stop,margin,message", [
    ("sometimes", None, "-T stop=sometimes"), ("budget", 0.1, "only with -T stop=decided"),
    ("decided", 0, "above 0"), ("decided", "wide", "stop_margin=wide"), ("decided", True, "stop_margin=True"),
])
def test_bad_stop_arguments_are_one_line_errors(stop: Any, margin: Any, message: str) -> None:
    with pytest.raises(TaskArgumentError, match=message):
        check_stop(stop, margin)
    assert check_stop("decided", "0.1") == ("decided", 0.1) and check_stop("budget", None)[0] == "budget"


def _scripted(task: Any, right: str) -> Any:
    """A mockllm model that answers every question of format ``right`` correctly and every other one wrongly,
    finding the question by its prompt."""
    answers = {}
    for s in task.dataset:
        key = s.input if isinstance(s.input, str) else s.input[-1].text
        answers[key] = (str(s.target) if (s.metadata or {}).get("format") == right else "certainly not this")

    def reply(messages: list[Any], *_: Any) -> ModelOutput:
        user = [m.text for m in messages if m.role == "user"]
        text = next((answers[u] for u in reversed(user) if u in answers), "no idea")
        return ModelOutput.from_content(model="mockllm", content=text)

    return get_model("mockllm/model", custom_outputs=reply)


def _run(tmp_path: Path, right: str, questions: int, formats: str = "formats=coon,dart") -> Any:
    task = load_task("comprehension", [formats, f"questions={questions}", "stop=decided"])
    [log] = inspect_eval(task, model=_scripted(task, right), log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    return log


@pytest.mark.slow  # a comprehension run of 120 questions and its report: about 20 s idle
def test_a_run_whose_formats_differ_stops_early_and_says_why(tmp_path: Path) -> None:
    log = _run(tmp_path / "logs", right="dart", questions=120)
    stopping = log.results.early_stopping
    assert stopping is not None and stopping.manager == MANAGER
    meta = stopping.metadata
    assert meta["stopped_early"] and meta["reason"].startswith("decided")
    assert meta["questions_asked"] <= meta["questions_budget"] // 2 and len(stopping.early_stops) > 0
    [cmp] = meta["comparisons"]
    assert cmp["decision"] == "differ" and cmp["high"] < 0  # coon − dart
    formats: dict[str, set[str]] = {}
    for s in log.samples:  # every question asked was asked in both formats
        formats.setdefault(question_group(str(s.id), s.metadata), set()).add(s.metadata["format"])
    assert len(formats) == meta["questions_asked"] and all(f == {"coon", "dart"} for f in formats.values())
    paths = build_report([str(tmp_path / "logs")], tmp_path / "out")
    text = paths.markdown.read_text(encoding="utf-8")
    assert "Stopped when decided" in text and "anytime-valid" in text and meta["reason"] in text


@pytest.mark.slow  # a comprehension run of the four default formats: about 30 s idle
def test_the_default_design_stops_well_before_its_budget_when_only_dart_is_right(tmp_path: Path) -> None:
    """The four default formats, a model right only in Dart: the run decides the design's comparisons (COON and
    COON without its primer against Dart), not the pairs of equally wrong formats, and says so."""
    log = _run(tmp_path, right="dart", questions=120, formats="formats=coon,coon-noprimer,dart,dart-minified")
    meta = log.results.early_stopping.metadata
    assert meta["stop_on"] == ["coon:dart", "coon-noprimer:dart"]
    assert meta["stopped_early"] and meta["questions_asked"] <= 40 and meta["questions_budget"] == 120
    assert meta["reason"].startswith("decided: every comparison decided")
    assert "coon vs dart differ" in meta["reason"] and "coon-noprimer vs dart differ" in meta["reason"]
    assert all(c["decision"] == "differ" and c["high"] < 0 for c in meta["comparisons"])


@pytest.mark.slow  # a comprehension run that stops about halfway: 15-30 s on a loaded machine
def test_a_run_whose_formats_agree_stops_for_futility_and_says_so(tmp_path: Path) -> None:
    # no format is answered right: every difference is 0; 120 questions, so that Inspect's concurrent samples
    # (all scheduled before the first is scored) are not the whole budget
    log = _run(tmp_path, right="neither", questions=120)
    meta = log.results.early_stopping.metadata
    assert meta["stopped_early"] and meta["questions_asked"] < meta["questions_budget"] == 120
    assert meta["reason"].startswith("futile") and "coon vs dart cannot be decided" in meta["reason"]
    assert meta["comparisons"][0]["decision"] == "undecided" and meta["comparisons"][0]["futile"]


def test_the_plan_predicts_an_early_stop_only_where_formats_differ() -> None:
    import pandas as pd

    from coonbench.plan.stopping import describe, stop_prediction

    frame = pd.DataFrame([{"format": f, "pair": f"q{q}", "cluster": f"d{q // 2}"}
                          for q in range(160) for f in ("coon", "dart")])
    pred = stop_prediction(frame, discordance=0.4, difference=0.4, sims=40)
    differ, same = pred["cases"]
    assert pred["questions"] == 160 and pred["clusters"] == 80 and pred["comparisons"] == 1
    assert pred["stop_on"] == ["coon:dart"]  # the design's comparison
    assert differ["mean_questions"] < 100 and differ["stopped_early"] > 0.9 and differ["stopped_futile"] < 0.1
    # ±5 points needs far more than 80 items: the rule gives up for futility instead of asking all 160
    assert same["stopped_futile"] > 0.9 and same["mean_questions"] < 160
    assert "stops after" in "\n".join(describe(pred)) and "for futility" in "\n".join(describe(pred))
