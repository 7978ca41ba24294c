"""LLM-as-judge grading after EPAM AI/RUN: one scorer, two modes, several judges, their agreement, formula v2.

Why: some answers have no single right text (a modification done several ways, a screen that meets a description,
an analysis). AI/RUN grades those against criteria in two lists — accuracy (constraints) and completeness
(features). Its first design (an evaluator's Pass/Fail report, then a separate 1–5 grader weighted by logprobs) was
dropped for variance; its second (a JSON verdict per weighted criterion) is deterministic in structure. We offer
both so they can be measured against each other. See docs/judge.md.

A task puts the criteria in ``Sample.metadata["criteria"]`` (build it with ``coonbench.judging.criteria.sample_criteria``);
judges come from model roles (``--model-role judge=…``, several roles are averaged).

The module is split along its seams: prompts and fencing in ``scorers.judge_prompts``, reply parsing in
``scorers.judge_parsing``, asking a judge (with re-asks) in ``scorers.judge_ask``, per-criterion weighting and a
sample's score dict in ``scorers.judge_values``, agreement between judges, AI/RUN's formula v2 and the reducer in
``scorers.judge_metrics``; this module is the scorer. Every public name is importable from here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, get_args

from inspect_ai.model import get_model
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from coonbench.judging.criteria import CRITERIA_KEY, criteria_from_dict
from coonbench.tasks.samples import choose, split_param
from coonbench.scorers.judge_ask import ask, run_judge
from coonbench.scorers.judge_results import JudgeResult, ListResult
from coonbench.scorers.judge_metrics import (
    airun_v2,
    judge_agreement,
    judge_best,
    judge_scores,
)
from coonbench.scorers.judge_parsing import (
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
from coonbench.scorers.judge_prompts import (
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
from coonbench.scorers.judge_values import (
    base_value,
    empty_answer_value,
    explanation,
    failed_value,
    generation_rate,
    grade_to_unit,
    judged_value,
    judges_metadata,
    weighted_score,
)

__all__ = [
    "CONFIDENT_P", "DATA_NOTICE", "EVALUATOR_PROMPT", "GRADES", "GRADE_REASK_PROMPT", "GRADER_PROMPT",
    "JSON_REASK_PROMPT", "LIST_DESCRIPTIONS", "MAX_JSON_DEPTH", "MAX_REPLY_CHARS", "QUESTION_BLOCK",
    "SCORING_GUIDE", "Grade", "JudgeParseError", "JudgeResult",
    "ListResult", "Mode", "Verdict", "airun_v2", "evaluator_prompt", "extract_json", "fence", "generation_rate",
    "grade_to_unit", "grader_prompt", "json_spans", "judge", "judge_agreement", "judge_best", "judge_scores",
    "grade_schema", "parse_grade", "parse_report", "parse_verdicts", "report_schema", "run_judge", "weighted_score",
    "with_judge", "ask",
]


def _roles(roles: Sequence[str] | str | None) -> list[str]:
    if roles is None:
        return ["judge"]
    names = split_param(roles) or []
    if not names:
        raise ValueError("judge(): roles must name at least one model role")
    if len(set(names)) != len(names):
        raise ValueError(f"judge(): duplicate roles in {names}")
    return names


@scorer(metrics=[judge_scores(), judge_agreement(), airun_v2()], name="judge")
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
    if mode not in get_args(Mode):
        raise ValueError(f"judge(): mode must be one of {get_args(Mode)}, got {mode!r}")
    if max_reasks < 0:
        raise ValueError("judge(): max_reasks must be >= 0")
    role_names = _roles(roles)

    async def score(state: TaskState, target: Target) -> Score:
        criteria = criteria_from_dict(
            state.metadata.get(criteria_key), source=f"sample {state.sample_id!r} metadata[{criteria_key!r}]"
        )
        answer = state.output.completion if state.output is not None else ""
        base = base_value(state.output, state.epoch)
        if not answer.strip():
            present = [name for name, _ in criteria.items()]
            return Score(value={**empty_answer_value(present, role_names, mode), **base}, answer="",
                         explanation="empty answer: every criterion fails (no judge asked)")
        question = state.input_text if include_question else None
        results = await asyncio.gather(
            *(
                run_judge(role, get_model(role=role), mode, criteria, answer, question=question,
                          max_reasks=max_reasks, temperature=temperature, salt=str(state.sample_id))
                for role in role_names
            )
        )
        metadata: dict[str, Any] = {"mode": mode, "criteria_source": criteria.source,
                                    "judges": judges_metadata(results)}
        why = explanation(results, mode)
        if not any(r.ok for r in results):
            # Unscored on every quality key, but a dict rather than Score.unscored()'s bare NaN: Inspect hands
            # bare-NaN samples to no metric, and the failures must count.
            failed = failed_value(results, mode)
            return Score(
                value={**failed, **base},
                reason="grader_failed",
                answer=answer,
                explanation=f"every judge failed after {max_reasks} re-ask(s)\n{why}",
                metadata={**metadata, "parse_failures": failed["parse_failures"]},
            )
        return Score(value={**judged_value(results, mode), **base}, answer=answer, explanation=why, metadata=metadata)

    return score


JUDGE_MODES: tuple[str, ...] = ("none", *get_args(Mode))
"""What ``-T judge=`` takes: no judge, or the judge with its weighted or graded rubric."""


def check_judge_mode(mode: str) -> None:
    """A TaskArgumentError naming ``-T judge=``, the value and the modes, unless ``mode`` is one of them."""
    choose("judge", mode, JUDGE_MODES, "judge mode")


def with_judge(deterministic: Scorer, mode: str, *, include_question: bool = False) -> list[Scorer]:
    """A task's scorers: its deterministic scorer, plus the judge when ``mode`` is not ``none``.

    Tasks take ``-T judge=none|weighted|graded``; both scores land on every sample, so their agreement can be
    read from the log (``coonbench.judging.agreement`` / ``samples_df``).
    """
    check_judge_mode(mode)
    if mode == "none":
        return [deterministic]
    return [deterministic, judge(mode=mode, include_question=include_question)]  # type: ignore[arg-type]
