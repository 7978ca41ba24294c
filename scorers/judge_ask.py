"""One judge's calls: ask with bounded re-asks, and run a judge over both criteria lists in either mode.

Why apart from the scorer: asking is where a judge's reply becomes a typed value or an unusable one; the scorer
only aggregates ``JudgeResult``s. The arithmetic of a list's score lives in ``scorers.judge_values``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageUser, GenerateConfig, Model, ModelOutput

from coonbench.judging.criteria import CriteriaSet, Criterion
from coonbench.scorers.judge_parsing import (
    Grade,
    JudgeParseError,
    grade_schema,
    parse_grade,
    parse_report,
    parse_verdicts,
    report_schema,
)
from coonbench.scorers.judge_prompts import GRADE_REASK_PROMPT, JSON_REASK_PROMPT, Mode, evaluator_prompt, grader_prompt
from coonbench.scorers.judge_results import JudgeResult, ListResult
from coonbench.scorers.judge_values import grade_to_unit, weighted_score

T = TypeVar("T")


async def ask(
    model: Model,
    prompt: str,
    config: GenerateConfig,
    parse: Callable[[ModelOutput], T],
    reask: Callable[[str], str],
    max_reasks: int,
    result: JudgeResult,
    label: str,
) -> T | None:
    """Generate and parse, with at most ``max_reasks`` re-asks that tell the judge what was wrong.

    Counts calls, parse failures and re-asks on ``result``; None when the last reply is still unusable.
    """
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


def _json_reask(count: int) -> Callable[[str], str]:
    return lambda err: JSON_REASK_PROMPT.format(error=err, count=count)


async def _weighted_list(
    model: Model, prompt: str, items: Sequence[Criterion], config: GenerateConfig, max_reasks: int,
    result: JudgeResult, label: str,
) -> ListResult | None:
    """AI/RUN gen 2: one JSON verdict per criterion, scored by weight."""
    verdicts = await ask(model, prompt, config, lambda out: parse_verdicts(out.completion, items),
                         _json_reask(len(items)), max_reasks, result, label)
    if verdicts is None:
        return None
    return ListResult(
        score=weighted_score(items, verdicts),
        verdicts=[
            {**v.model_dump(), "criterion": c.text, "weight": c.weight} for c, v in zip(items, verdicts, strict=True)
        ],
    )


async def _graded_list(
    model: Model, prompt: str, items: Sequence[Criterion], config: GenerateConfig, max_reasks: int,
    result: JudgeResult, list_name: str, *, temperature: float | None, salt: str,
) -> ListResult | None:
    """AI/RUN gen 1: a Pass/Fail report, then a separate grader's 1–5 grade of that report alone."""
    label = f"{list_name} evaluator"
    report = await ask(model, prompt, config, lambda out: parse_report(out.completion, items),
                       _json_reask(len(items)), max_reasks, result, label)
    if report is None:
        return None
    grade = await ask(
        model,
        grader_prompt(list_name, report, salt=salt),
        GenerateConfig(temperature=temperature, logprobs=True, top_logprobs=5, response_schema=grade_schema()),
        parse_grade,
        lambda err: GRADE_REASK_PROMPT.format(error=err),
        max_reasks,
        result,
        f"{list_name} grader",
    )
    if grade is None:
        return None
    return ListResult(score=grade_to_unit(grade.expected), report=report, grade=grade)


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
        if mode == "weighted":
            listed = await _weighted_list(model, prompt, items, config, max_reasks, result, f"{list_name} evaluator")
        else:
            listed = await _graded_list(model, prompt, items, config, max_reasks, result, list_name,
                                        temperature=temperature, salt=salt)
        if listed is None:
            result.ok = False
            return result
        result.lists[list_name] = listed
    return result
