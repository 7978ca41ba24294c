"""LLM-as-judge grading after EPAM AI/RUN: one scorer, two modes, several judges, their agreement, formula v2.

Why: some answers have no single right text (a modification done several ways, a screen that meets a description,
an analysis). AI/RUN grades those against criteria in two lists — accuracy (constraints) and completeness
(features). Its first design (an evaluator's Pass/Fail report, then a separate 1–5 grader weighted by logprobs) was
dropped for variance; its second (a JSON verdict per weighted criterion) is deterministic in structure. We offer
both so they can be measured against each other. See docs/judge.md.

A task puts the criteria in ``Sample.metadata["criteria"]`` (build it with ``coonbench.criteria.sample_criteria``);
judges come from model roles (``--model-role judge=…``, several roles are averaged).

The module is split along its seams: prompts and fencing in ``scorers.judge_prompts``, reply parsing in
``scorers.judge_parsing``, metrics and the reducer in ``scorers.judge_metrics``; this module runs the judges and
scores. Every public name stays importable from here.
"""

from __future__ import annotations

import asyncio
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
    get_model,
)
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from coonbench.criteria import CRITERIA_KEY, Criterion, CriteriaSet, criteria_from_dict
from coonbench.samples import split_param
from scorers.judge_metrics import (
    airun_v2,
    judge_agreement,
    judge_best,
    judge_scores,
)
from scorers.judge_parsing import (
    CONFIDENT_P,
    GRADES,
    MAX_JSON_DEPTH,
    MAX_REPLY_CHARS,
    Grade,
    JudgeParseError,
    Verdict,
    extract_json,
    json_spans,
    parse_grade,
    parse_report,
    parse_verdicts,
    grade_schema,
    report_schema,
)
from scorers.judge_prompts import (
    DATA_NOTICE,
    EVALUATOR_PROMPT,
    GRADE_REASK_PROMPT,
    GRADER_PROMPT,
    JSON_REASK_PROMPT,
    LIST_DESCRIPTIONS,
    QUESTION_BLOCK,
    SCORING_GUIDE,
    Mode,
    evaluator_prompt,
    fence,
    grader_prompt,
)

__all__ = [
    "CONFIDENT_P", "DATA_NOTICE", "EVALUATOR_PROMPT", "GRADES", "GRADE_REASK_PROMPT", "GRADER_PROMPT",
    "JSON_REASK_PROMPT", "LIST_DESCRIPTIONS", "MAX_JSON_DEPTH", "MAX_REPLY_CHARS", "QUESTION_BLOCK",
    "SCORING_GUIDE", "Grade", "JudgeParseError", "JudgeResult",
    "ListResult", "Mode", "Verdict", "airun_v2", "evaluator_prompt", "extract_json", "fence", "generation_rate",
    "grade_to_unit", "grader_prompt", "json_spans", "judge", "judge_agreement", "judge_best", "judge_scores",
    "grade_schema", "parse_grade", "parse_report", "parse_verdicts", "report_schema", "run_judge", "weighted_score",
    "with_judge",
]

T = TypeVar("T")


def weighted_score(items: Sequence[Criterion], verdicts: Sequence[Verdict]) -> float:
    """AI/RUN gen 2: Σ weight(passed) / Σ weight, with OUR weights (a judge's echo of a weight is ignored)."""
    total = sum(c.weight for c in items)
    return sum(c.weight for c, v in zip(items, verdicts, strict=True) if v.passed) / total



def grade_to_unit(grade: float) -> float:
    """Map a 1–5 grade onto [0, 1]: (g − 1) / 4."""
    return (grade - 1.0) / 4.0


# ---------------------------------------------------------------------------------------------------------------
# One judge
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class ListResult:
    """One judge's result for one criteria list."""

    score: float
    verdicts: list[dict[str, Any]] | None = None
    report: str | None = None
    grade: Grade | None = None


@dataclass
class JudgeResult:
    """One judge (role) over both lists; ``ok`` is False when any list stayed unusable after the re-asks."""

    role: str
    model: str
    lists: dict[str, ListResult] = field(default_factory=dict)
    calls: int = 0
    parse_failures: int = 0
    reasks: int = 0
    errors: list[str] = field(default_factory=list)
    ok: bool = True

    def list_score(self, name: str) -> float:
        return self.lists[name].score if self.ok and name in self.lists else math.nan

    def combined(self) -> float:
        values = [r.score for r in self.lists.values()] if self.ok else []
        return statistics.fmean(values) if values else math.nan


async def _ask(
    model: Model,
    prompt: str,
    config: GenerateConfig,
    parse: Callable[[ModelOutput], T],
    reask: Callable[[str], str],
    max_reasks: int,
    result: JudgeResult,
    label: str,
) -> T | None:
    """Generate and parse, with at most ``max_reasks`` re-asks that tell the judge what was wrong."""
    messages: list[ChatMessage] = [ChatMessageUser(content=prompt)]
    for attempt in range(max_reasks + 1):
        output = await model.generate(messages, config=config)
        result.calls += 1
        try:
            return parse(output)
        except JudgeParseError as exc:
            result.parse_failures += 1
            result.errors.append(f"{label} reply {attempt + 1}: {exc}; reply began {output.completion[:160]!r}")
            if attempt == max_reasks:
                return None
            result.reasks += 1
            messages = [
                *messages,
                ChatMessageAssistant(content=output.completion or "(empty reply)"),
                ChatMessageUser(content=reask(str(exc))),
            ]
    return None


async def run_judge(
    role: str,
    model: Model,
    mode: Mode,
    criteria: CriteriaSet,
    answer: str,
    *,
    question: str | None,
    max_reasks: int,
    temperature: float | None,
    salt: str,
) -> JudgeResult:
    """Evaluate both lists with one judge model (lists in sequence, so scripted judges answer in a known order)."""
    result = JudgeResult(role=role, model=str(model))
    for list_name, items in criteria.items():
        prompt = evaluator_prompt(list_name, items, answer, question=question, salt=salt)
        config = GenerateConfig(temperature=temperature, response_schema=report_schema(items))
        reask = lambda err, n=len(items): JSON_REASK_PROMPT.format(error=err, count=n)  # noqa: E731
        if mode == "weighted":
            verdicts = await _ask(
                model,
                prompt,
                config,
                lambda out, items=items: parse_verdicts(out.completion, items),
                reask,
                max_reasks,
                result,
                f"{list_name} evaluator",
            )
            if verdicts is None:
                result.ok = False
                return result
            result.lists[list_name] = ListResult(
                score=weighted_score(items, verdicts),
                verdicts=[
                    {**v.model_dump(), "criterion": c.text, "weight": c.weight}
                    for c, v in zip(items, verdicts, strict=True)
                ],
            )
        else:
            report = await _ask(
                model,
                prompt,
                config,
                lambda out, items=items: parse_report(out.completion, items),
                reask,
                max_reasks,
                result,
                f"{list_name} evaluator",
            )
            if report is None:
                result.ok = False
                return result
            grade = await _ask(
                model,
                grader_prompt(list_name, report, salt=salt),
                GenerateConfig(
                    temperature=temperature, logprobs=True, top_logprobs=5, response_schema=grade_schema()
                ),
                parse_grade,
                lambda err: GRADE_REASK_PROMPT.format(error=err),
                max_reasks,
                result,
                f"{list_name} grader",
            )
            if grade is None:
                result.ok = False
                return result
            result.lists[list_name] = ListResult(score=grade_to_unit(grade.expected), report=report, grade=grade)
    return result


# ---------------------------------------------------------------------------------------------------------------
# The scorer
# ---------------------------------------------------------------------------------------------------------------


def _nanmean(values: Sequence[float]) -> float:
    finite = [v for v in values if isinstance(v, int | float) and math.isfinite(v)]
    return statistics.fmean(finite) if finite else math.nan


def generation_rate(output: ModelOutput | None) -> float:
    """Output tokens per second of the answer (AI/RUN's generation rate), NaN when usage or time is missing."""
    if output is None or output.usage is None or not output.time:
        return math.nan
    tokens = output.usage.output_tokens
    return tokens / output.time if tokens and output.time > 0 else math.nan


def _roles(roles: Sequence[str] | str | None) -> list[str]:
    if roles is None:
        return ["judge"]
    names = split_param(roles) or []
    if not names:
        raise ValueError("judge(): roles must name at least one model role")
    if len(set(names)) != len(names):
        raise ValueError(f"judge(): duplicate roles in {names}")
    return names


def _explanation(results: Sequence[JudgeResult], mode: Mode) -> str:
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



@scorer(metrics=[judge_scores(), judge_agreement(), airun_v2()], name="coonbench/judge")
def judge(
    mode: Mode = "weighted",
    roles: Sequence[str] | str | None = None,
    include_question: bool = False,
    max_reasks: int = 1,
    criteria_key: str = CRITERIA_KEY,
    temperature: float | None = 0.0,
) -> Scorer:
    """Grade the answer against the sample's criteria with one or more LLM judges (AI/RUN gen 2 or gen 1).

    Args:
      mode: "weighted" — a JSON verdict per criterion, score = Σ weight(passed)/Σ weight per list (gen 2);
        "graded" — the same verdicts written as a Pass/Fail report, then a separate grader's 1–5 grade of that
        report alone (Σ g·p with logprobs), mapped (g−1)/4 (gen 1).
      roles: model roles of the judges (default ["judge"]; a comma-separated string works from the CLI). An unbound
        role falls back to the model under test (Inspect's ``get_model(role=…)``); the model used is recorded.
      include_question: also show the judge the sample's input (fenced), for criteria that refer to the task.
      max_reasks: bounded re-asks after an unusable reply, each telling the judge what was wrong.
      criteria_key: the metadata key holding the criteria (``{"accuracy": [...], "completeness": [...]}``).
      temperature: judge sampling temperature (0 by default, for repeatable verdicts).
    """
    if mode not in ("weighted", "graded"):
        raise ValueError(f"judge(): mode must be 'weighted' or 'graded', got {mode!r}")
    if max_reasks < 0:
        raise ValueError("judge(): max_reasks must be >= 0")
    role_names = _roles(roles)

    async def score(state: TaskState, target: Target) -> Score:
        criteria = criteria_from_dict(
            state.metadata.get(criteria_key), source=f"sample {state.sample_id!r} metadata[{criteria_key!r}]"
        )
        answer = state.output.completion if state.output is not None else ""
        base: dict[str, float] = {
            "generation_rate": generation_rate(state.output),
            "epoch": float(state.epoch),
            "attempt": math.nan,  # set by the judge_best reducer
            "attempt_term": math.nan,
        }
        present = [name for name, _ in criteria.items()]

        def list_value(name: str, value: float) -> float:
            return value if name in present else math.nan

        if not answer.strip():
            value: dict[str, float] = {
                "accuracy": list_value("accuracy", 0.0),
                "completeness": list_value("completeness", 0.0),
                "combined": 0.0,
                "judges_ok": 0.0,
                "judge_failures": 0.0,
                "parse_failures": 0.0,
                "reasks": 0.0,
                "unscored": 0.0,
                **{f"judge:{r}:{p}": math.nan for r in role_names for p in ("accuracy", "completeness", "combined")},
                **({"accuracy_grade": math.nan, "completeness_grade": math.nan, "grade_confident": math.nan}
                   if mode == "graded" else {}),
                **base,
            }
            return Score(value=value, answer="", explanation="empty answer: every criterion fails (no judge asked)")

        question = state.input_text if include_question else None
        salt = str(state.sample_id)
        results = await asyncio.gather(
            *(
                run_judge(
                    role,
                    get_model(role=role),
                    mode,
                    criteria,
                    answer,
                    question=question,
                    max_reasks=max_reasks,
                    temperature=temperature,
                    salt=salt,
                )
                for role in role_names
            )
        )
        ok = [r for r in results if r.ok]
        metadata: dict[str, Any] = {
            "mode": mode,
            "criteria_source": criteria.source,
            "judges": [
                {
                    "role": r.role,
                    "model": r.model,
                    "ok": r.ok,
                    "calls": r.calls,
                    "parse_failures": r.parse_failures,
                    "reasks": r.reasks,
                    "errors": r.errors,
                    "lists": {
                        name: {
                            "score": lr.score,
                            "verdicts": lr.verdicts,
                            "report": lr.report,
                            "grade": None
                            if lr.grade is None
                            else {
                                "plain": lr.grade.plain,
                                "expected": lr.grade.expected,
                                "probs": {str(g): p for g, p in lr.grade.probs.items()},
                                "max_p": lr.grade.max_p,
                                "confident": lr.grade.confident,
                                "source": lr.grade.source,
                            },
                        }
                        for name, lr in r.lists.items()
                    },
                }
                for r in results
            ],
        }
        explanation = _explanation(results, mode)
        parse_failures = float(sum(r.parse_failures for r in results))
        if not ok:
            # Unscored on every quality key (NaN, skipped by the metrics, never a zero), but a dict rather than
            # Score.unscored()'s bare NaN: Inspect hands bare-NaN samples to no metric, and the failures must count.
            failed: dict[str, float] = {
                "accuracy": math.nan,
                "completeness": math.nan,
                "combined": math.nan,
                "judges_ok": 0.0,
                "judge_failures": float(len(results)),
                "parse_failures": parse_failures,
                "reasks": float(sum(r.reasks for r in results)),
                "unscored": 1.0,
                **{f"judge:{r.role}:{p}": math.nan for r in results for p in ("accuracy", "completeness", "combined")},
                **({"accuracy_grade": math.nan, "completeness_grade": math.nan, "grade_confident": math.nan}
                   if mode == "graded" else {}),
                **base,
            }
            return Score(
                value=failed,
                reason="grader_failed",
                answer=answer,
                explanation=f"every judge failed after {max_reasks} re-ask(s)\n{explanation}",
                metadata={**metadata, "parse_failures": parse_failures},
            )
        value = {
            "accuracy": _nanmean([r.list_score("accuracy") for r in ok]),
            "completeness": _nanmean([r.list_score("completeness") for r in ok]),
            "combined": _nanmean([r.combined() for r in ok]),
            "judges_ok": float(len(ok)),
            "judge_failures": float(len(results) - len(ok)),
            "parse_failures": parse_failures,
            "reasks": float(sum(r.reasks for r in results)),
            "unscored": 0.0,
        }
        for r in results:
            value[f"judge:{r.role}:accuracy"] = r.list_score("accuracy")
            value[f"judge:{r.role}:completeness"] = r.list_score("completeness")
            value[f"judge:{r.role}:combined"] = r.combined()
        if mode == "graded":
            grades = [(name, lr.grade) for r in ok for name, lr in r.lists.items() if lr.grade is not None]
            value["accuracy_grade"] = _nanmean([g.expected for n, g in grades if n == "accuracy"])
            value["completeness_grade"] = _nanmean([g.expected for n, g in grades if n == "completeness"])
            flags = [1.0 if g.confident else 0.0 for _, g in grades if g.confident is not None]
            value["grade_confident"] = _nanmean(flags)
        value.update(base)
        return Score(value=value, answer=answer, explanation=explanation, metadata=metadata)

    return score


def with_judge(deterministic: Scorer, mode: str, *, include_question: bool = False) -> list[Scorer]:
    """A task's scorers: its deterministic scorer, plus the judge when ``mode`` is not ``none``.

    Tasks take ``-T judge=none|weighted|graded``; both scores land on every sample, so their agreement can be
    read from the log (``coonbench.agreement`` / ``samples_df``).
    """
    if mode == "none":
        return [deterministic]
    if mode not in ("weighted", "graded"):
        raise ValueError(f"judge must be none, weighted or graded, not {mode!r}")
    return [deterministic, judge(mode=mode, include_question=include_question)]  # type: ignore[arg-type]
