"""The judge's numbers: a list's score from its verdicts or grade, and a sample's ``Score.value`` from its judges.

Why apart: these are pure functions of the judges' results (no model calls), so each is tested on its own; the
scorer in ``scorers.judge`` only asks and hands the results here.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from inspect_ai.model import ModelOutput

from coonbench.judging.criteria import Criterion
from coonbench.scorers.judge_parsing import Verdict
from coonbench.scorers.judge_prompts import Mode
from coonbench.scorers.judge_results import JudgeResult

LISTS = ("accuracy", "completeness")
PARTS = (*LISTS, "combined")
GRADE_KEYS = ("accuracy_grade", "completeness_grade", "grade_confident")


def weighted_score(items: Sequence[Criterion], verdicts: Sequence[Verdict]) -> float:
    """AI/RUN gen 2: Σ weight(passed) / Σ weight, with OUR weights (a judge's echo of a weight is ignored)."""
    total = sum(c.weight for c in items)
    return sum(c.weight for c, v in zip(items, verdicts, strict=True) if v.passed) / total


def grade_to_unit(grade: float) -> float:
    """Map a 1–5 grade onto [0, 1]: (g − 1) / 4."""
    return (grade - 1.0) / 4.0


def nanmean(values: Sequence[float]) -> float:
    """Mean of the finite values; NaN when there is none (an unscored list stays unscored, never zero)."""
    finite = [v for v in values if isinstance(v, int | float) and math.isfinite(v)]
    return statistics.fmean(finite) if finite else math.nan


def generation_rate(output: ModelOutput | None) -> float:
    """Output tokens per second of the answer (AI/RUN's generation rate), NaN when usage or time is missing."""
    if output is None or output.usage is None or not output.time:
        return math.nan
    tokens = output.usage.output_tokens
    return tokens / output.time if tokens and output.time > 0 else math.nan


def base_value(output: ModelOutput | None, epoch: int) -> dict[str, float]:
    """Keys every judged sample carries; ``attempt``/``attempt_term`` are set by the ``judge_best`` reducer."""
    return {"generation_rate": generation_rate(output), "epoch": float(epoch), "attempt": math.nan,
            "attempt_term": math.nan}


def _unscored_judges(roles: Sequence[str], mode: Mode) -> dict[str, float]:
    value = {f"judge:{r}:{p}": math.nan for r in roles for p in PARTS}
    if mode == "graded":
        value.update({k: math.nan for k in GRADE_KEYS})
    return value


def empty_answer_value(present: Sequence[str], roles: Sequence[str], mode: Mode) -> dict[str, float]:
    """An empty answer fails every criterion without asking: 0 on the lists the sample has, NaN on the others."""
    return {
        **{name: 0.0 if name in present else math.nan for name in LISTS},
        "combined": 0.0, "judges_ok": 0.0, "judge_failures": 0.0, "parse_failures": 0.0, "reasks": 0.0,
        "unscored": 0.0,
        **_unscored_judges(roles, mode),
    }


def _counts(results: Sequence[JudgeResult]) -> dict[str, float]:
    ok = sum(1 for r in results if r.ok)
    return {"judges_ok": float(ok), "judge_failures": float(len(results) - ok),
            "parse_failures": float(sum(r.parse_failures for r in results)),
            "reasks": float(sum(r.reasks for r in results))}


def failed_value(results: Sequence[JudgeResult], mode: Mode) -> dict[str, float]:
    """Every judge failed: NaN on every quality key (skipped by the metrics, never a zero), failures counted."""
    return {**{p: math.nan for p in PARTS}, **_counts(results), "unscored": 1.0,
            **_unscored_judges([r.role for r in results], mode)}


def _grades(ok: Sequence[JudgeResult]) -> dict[str, float]:
    grades = [(name, lr.grade) for r in ok for name, lr in r.lists.items() if lr.grade is not None]
    flags = [1.0 if g.confident else 0.0 for _, g in grades if g.confident is not None]
    return {
        "accuracy_grade": nanmean([g.expected for n, g in grades if n == "accuracy"]),
        "completeness_grade": nanmean([g.expected for n, g in grades if n == "completeness"]),
        "grade_confident": nanmean(flags),
    }


def judged_value(results: Sequence[JudgeResult], mode: Mode) -> dict[str, float]:
    """At least one judge answered: the mean over usable judges, each judge's own scores, failures counted."""
    ok = [r for r in results if r.ok]
    value: dict[str, float] = {
        "accuracy": nanmean([r.list_score("accuracy") for r in ok]),
        "completeness": nanmean([r.list_score("completeness") for r in ok]),
        "combined": nanmean([r.combined() for r in ok]),
        **_counts(results),
        "unscored": 0.0,
    }
    for r in results:
        value[f"judge:{r.role}:accuracy"] = r.list_score("accuracy")
        value[f"judge:{r.role}:completeness"] = r.list_score("completeness")
        value[f"judge:{r.role}:combined"] = r.combined()
    if mode == "graded":
        value.update(_grades(ok))
    return value


def judges_metadata(results: Sequence[JudgeResult]) -> list[dict[str, Any]]:
    """What each judge said and how often it was asked, for the log."""
    return [
        {
            "role": r.role, "model": r.model, "ok": r.ok, "calls": r.calls, "parse_failures": r.parse_failures,
            "reasks": r.reasks, "errors": r.errors,
            "lists": {
                name: {
                    "score": lr.score, "verdicts": lr.verdicts, "report": lr.report,
                    "grade": None if lr.grade is None else {
                        "plain": lr.grade.plain, "expected": lr.grade.expected,
                        "probs": {str(g): p for g, p in lr.grade.probs.items()}, "max_p": lr.grade.max_p,
                        "confident": lr.grade.confident, "source": lr.grade.source,
                    },
                }
                for name, lr in r.lists.items()
            },
        }
        for r in results
    ]


def explanation(results: Sequence[JudgeResult], mode: Mode) -> str:
    """One line per judge (its list scores, or why it failed), then each failed criterion with the reason."""
    lines: list[str] = []
    for r in results:
        if not r.ok:
            lines.append(f"{r.role} ({r.model}): FAILED — {r.errors[-1] if r.errors else 'no usable reply'}")
            continue
        parts = []
        for name, lr in r.lists.items():
            if mode == "graded" and lr.grade is not None:
                parts.append(f"{name} {lr.score:.2f} (grade {lr.grade.expected:.2f}, {lr.grade.source})")
            else:
                parts.append(f"{name} {lr.score:.2f}")
        lines.append(f"{r.role} ({r.model}): " + ", ".join(parts))
        for name, lr in r.lists.items():
            for v in lr.verdicts or []:
                if not v["passed"]:
                    lines.append(f"  FAIL [{name}] {v['criterion']} — {v['explanation']}".rstrip(" —"))
    return "\n".join(lines)
