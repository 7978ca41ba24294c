"""The judge's parts one by one: asking with re-asks, per-criterion weighting, a sample's score dict, agreement
between judges and AI/RUN's formula v2 — each against numbers worked out by hand or a closed form written here."""

from __future__ import annotations

import asyncio
import itertools
import math
from typing import Any

import pytest
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, get_model
from inspect_ai.scorer import SampleScore, Score

from coonbench.judging.agreement import interval_alpha
from coonbench.judging.criteria import Criterion
from coonbench.scorers.judge_ask import ask
from coonbench.scorers.judge_results import JudgeResult, ListResult
from coonbench.scorers.judge_metrics import airun_v2, judge_agreement, judge_ratings, v2_formula
from coonbench.scorers.judge_parsing import JudgeParseError, Verdict
from coonbench.scorers.judge_values import empty_answer_value, failed_value, grade_to_unit, judged_value, weighted_score


def scripted(replies: list[str], seen: list[list[ChatMessage]]) -> Any:
    """A mockllm model that answers ``replies`` in order and records the conversation of every call."""
    queue = iter(replies)

    def respond(messages: list[ChatMessage], tools: Any, tool_choice: Any, config: GenerateConfig) -> ModelOutput:
        seen.append(list(messages))
        return ModelOutput.from_content(model="judge", content=next(queue))

    return get_model("mockllm/model", custom_outputs=respond, memoize=False)


def parse_int(output: ModelOutput) -> int:
    text = output.completion.strip()
    if not text.isdigit():
        raise JudgeParseError(f"not a number: {text[:10]!r}")
    return int(text)


def run_ask(replies: list[str], max_reasks: int) -> tuple[int | None, JudgeResult, list[list[ChatMessage]]]:
    seen: list[list[ChatMessage]] = []
    result = JudgeResult(role="judge", model="mock")
    value = asyncio.run(ask(scripted(replies, seen), "give a number", GenerateConfig(), parse_int,
                            lambda err: f"REASK because {err}", max_reasks, result, "test"))
    return value, result, seen


def test_ask_reasks_with_the_error_and_counts_every_call() -> None:
    value, result, seen = run_ask(["lots", "42"], max_reasks=1)
    assert value == 42
    assert (result.calls, result.parse_failures, result.reasks) == (2, 1, 1)
    second = seen[1]
    assert [m.role for m in second] == ["user", "assistant", "user"]
    assert second[1].content == "lots" and "REASK because not a number: 'lots'" in str(second[2].content)


def test_ask_gives_up_after_max_reasks() -> None:
    value, result, seen = run_ask(["a", "b", "c"], max_reasks=1)
    assert value is None and len(seen) == 2
    assert (result.calls, result.parse_failures, result.reasks) == (2, 2, 1)
    assert result.errors[-1].startswith("test reply 2: not a number")
    value, result, _ = run_ask(["x"], max_reasks=0)
    assert value is None and (result.calls, result.reasks) == (1, 0)


def verdict(passed: bool) -> Verdict:
    return Verdict(criterion="c", weight=1, passed=passed, confidence=90, explanation="e")


def test_weighted_score_uses_our_weights() -> None:
    items = [Criterion(text="a", weight=2.0), Criterion(text="b", weight=1.0), Criterion(text="c", weight=0.5)]
    assert weighted_score(items, [verdict(True), verdict(False), verdict(True)]) == pytest.approx(2.5 / 3.5)
    assert weighted_score(items, [verdict(False)] * 3) == 0.0
    with pytest.raises(ValueError):
        weighted_score(items, [verdict(True)])  # one verdict per criterion, never a silent zip
    assert [grade_to_unit(g) for g in (1, 3, 5)] == [0.0, 0.5, 1.0]


def judge_result(role: str, accuracy: float | None, completeness: float | None, *, ok: bool = True) -> JudgeResult:
    lists = {name: ListResult(score=v) for name, v in (("accuracy", accuracy), ("completeness", completeness))
             if v is not None}
    return JudgeResult(role=role, model="m", lists=lists, ok=ok, parse_failures=0 if ok else 2, reasks=1)


def test_judged_value_averages_usable_judges_and_keeps_each_judges_scores() -> None:
    results = [judge_result("a", 1.0, 0.5), judge_result("b", 0.5, 0.0), judge_result("c", None, None, ok=False)]
    value = judged_value(results, "weighted")
    assert value["accuracy"] == pytest.approx(0.75) and value["completeness"] == pytest.approx(0.25)
    assert value["combined"] == pytest.approx((0.75 + 0.25) / 2)
    assert (value["judges_ok"], value["judge_failures"], value["parse_failures"], value["reasks"]) == (2, 1, 2, 3)
    assert value["judge:a:combined"] == 0.75 and math.isnan(value["judge:c:accuracy"])
    assert "accuracy_grade" not in value


def test_failed_and_empty_values_are_unscored_or_zero_never_mixed() -> None:
    failed = failed_value([judge_result("a", None, None, ok=False)], "graded")
    assert failed["unscored"] == 1.0 and all(math.isnan(failed[k]) for k in ("accuracy", "combined", "accuracy_grade"))
    empty = empty_answer_value(["accuracy"], ["a", "b"], "weighted")
    assert (empty["accuracy"], empty["combined"], empty["unscored"]) == (0.0, 0.0, 0.0)
    assert math.isnan(empty["completeness"]) and math.isnan(empty["judge:b:combined"])


def alpha_closed_form(a: list[float], b: list[float]) -> float:
    """Krippendorff's interval α for two coders and no missing value: 1 − D_o / D_e over ordered pairs."""
    values = a + b
    n = len(values)
    d_o = sum(2 * (x - y) ** 2 for x, y in zip(a, b, strict=True)) / n
    d_e = sum((x - y) ** 2 for x, y in itertools.permutations(values, 2)) / (n * (n - 1))
    return 1 - d_o / d_e


def computed(metric: Any, scores: list[SampleScore]) -> dict[str, Any]:
    """A metric's figures (Inspect types a metric's input loosely; these metrics return a dict)."""
    out: dict[str, Any] = metric(scores)
    return out


def sample(**judges: float) -> SampleScore:
    parts = ("combined", "accuracy", "completeness")
    value = {f"judge:{role}:{part}": v for role, v in judges.items() for part in parts}
    return SampleScore(score=Score(value=value), sample_id="s")


def test_agreement_between_judges_matches_the_closed_form() -> None:
    a, b = [1.0, 0.5, 0.0, 1.0, 0.25], [1.0, 0.0, 0.0, 0.5, 0.25]
    scores = [sample(j1=x, j2=y) for x, y in zip(a, b, strict=True)]
    assert judge_ratings(scores, ["j1", "j2"], "combined") == [a, b]
    expected = alpha_closed_form(a, b)
    assert interval_alpha([a, b]) == pytest.approx(expected)
    assert computed(judge_agreement(), scores)["alpha_combined"] == pytest.approx(expected) and 0 < expected < 1
    assert computed(judge_agreement(), [sample(j1=1.0)])["alpha_combined"] is None


def test_v2_formula_by_hand() -> None:
    assert v2_formula(1.0, 0.5, 0.8, 1.0) == pytest.approx(0.4 + 0.2 + 0.08 + 0.1)
    assert v2_formula(1.0, 0.5, None, 1.0) == pytest.approx((0.4 + 0.2 + 0.1) / 0.9)
    scores = [SampleScore(score=Score(value={"accuracy": acc, "completeness": 1.0, "generation_rate": rate}),
                          sample_id=str(i)) for i, (acc, rate) in enumerate([(1.0, 10.0), (0.0, 30.0)])]
    out = computed(airun_v2(), scores)  # rate term: mean 20 over the run's highest 30; one attempt
    assert out["v2_generation_rate"] == pytest.approx(20 / 30) and out["v2_attempt_term"] == 1.0
    assert out["v2"] == pytest.approx(0.4 * 0.5 + 0.4 * 1.0 + 0.1 * 20 / 30 + 0.1)
