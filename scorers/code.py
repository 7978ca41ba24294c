"""Scorers for written programs: AST equivalence with a reference, or structural requirements.

Both read the final reply, extract and decode it exactly as the retry solver did (``coonbench.answers.check``)
and return a dict ``Score.value``: ``syntax_valid``, ``decodable``, ``correct``, ``first_attempt_success`` and
``attempts`` (1 when no retry solver ran), and what the sample cost: ``input_tokens`` (primer and
prompt, from metadata), ``output_tokens`` (the final reply, in the sample's ``tokenizer``), ``usage_input_tokens`` /
``usage_output_tokens`` (what the provider reported for the final attempt; NaN when it reported nothing). The explanation starts with the error kind (``PARSE_ERROR``,
``DECODE_ERROR``, ``WRONG_OUTPUT``, ``NO_ANSWER``) and, for a wrong program, names the first differing node or
the first unmet requirement. Metrics: the mean of each key, ``correct`` per question type and per format, and per
format the mean input tokens, accuracy per 1K of them and the paired input/output token change against the
language's source format (``dart``; ``scorers.answer.format_tokens`` / ``input_token_change``, as in comprehension).

A reply that cannot be read is scored INCORRECT with an explanation; these scorers do not raise for any reply.
"""

from __future__ import annotations

import math
from typing import Any

from inspect_ai.scorer import Metric, Score, Scorer, Target, grouped, mean, metric, scorer, stderr
from inspect_ai.solver import TaskState

from coonbench.answers.check import (
    NO_ANSWER,
    PARSE_ERROR,
    WRONG_OUTPUT,
    AnswerCheck,
    answer_format,
    check_answer,
)
from coonbench.formats import get_format, language_of
from coonbench.languages import LanguageSyntaxError
from coonbench.tasks.state import retry_state
from coonbench.tokens import DEFAULT_ENCODING, count_tokens
from coonbench.scorers.answer import SOURCE_BASELINE, format_tokens, input_token_change, reported_input_tokens

SCORE_KEYS = ("syntax_valid", "decodable", "correct", "first_attempt_success", "attempts")
TOKEN_KEYS = ("input_tokens", "output_tokens", "usage_input_tokens", "usage_output_tokens")
TOKEN_BASELINE = SOURCE_BASELINE  # token changes against the task in its language's plain source (plain Dart)


@metric
def by_kind() -> Metric:
    """Mean per question type (the generation or modification kind)."""
    return grouped(mean(), "question_type", all=False)


@metric
def by_format() -> Metric:
    """Mean per input format."""
    return grouped(mean(), "format", all=False)


@metric
def by_band() -> Metric:
    """Mean per corpus band."""
    return grouped(mean(), "complexity", all=False)


def code_metrics() -> list[Any]:
    """Mean of every key; ``correct`` also with stderr and per kind, input format and band."""
    return [
        {
            "correct": [mean(), stderr(), by_kind(), by_format(), by_band()],
            "syntax_valid": [mean()],
            "decodable": [mean()],
            "first_attempt_success": [mean()],
            "attempts": [mean()],
            **{key: [mean()] for key in TOKEN_KEYS},
        },
        format_tokens(),
        input_token_change(baseline=TOKEN_BASELINE),
        input_token_change(baseline=TOKEN_BASELINE, token_key="output_tokens", label="output_token_change"),
    ]


def token_values(state: TaskState) -> dict[str, float]:
    """The sample's token cost: shown input (metadata), final reply (in the tokenizer the input was counted in), and
    the provider's usage if any."""
    usage = state.output.usage if state.output is not None else None
    completion = state.output.completion if state.output else ""
    return {
        "input_tokens": float(state.metadata.get("input_tokens", math.nan)),
        "output_tokens": float(count_tokens(completion or "", state.metadata.get("tokenizer", DEFAULT_ENCODING))),
        "usage_input_tokens": reported_input_tokens(state),
        "usage_output_tokens": float(usage.output_tokens) if usage is not None and usage.output_tokens else math.nan,
    }


def _attempts(state: TaskState) -> tuple[int, list[dict[str, Any]]]:
    records = retry_state(state.store).attempts
    return max(len(records), 1), list(records)


def _value(check: AnswerCheck, correct: bool, attempts: int) -> dict[str, float]:
    syntax = check.error_kind not in (NO_ANSWER, PARSE_ERROR)
    return {
        "syntax_valid": float(syntax),
        "decodable": float(check.ok),
        "correct": float(correct),
        "first_attempt_success": float(correct and attempts == 1),
        "attempts": float(attempts),
    }


def _failed(check: AnswerCheck, attempts: int, records: list[dict[str, Any]]) -> Score:
    return Score(
        value=_value(check, False, attempts),
        answer=check.code or "",
        explanation=f"{check.error_kind}: {check.error}",
        metadata={"error_kind": check.error_kind, "attempt_log": records},
    )


def _reference(state: TaskState, target: Target, fmt_name: str) -> str:
    ref = state.metadata.get("reference")
    if ref:
        return str(ref)
    return str(get_format(fmt_name).decode(target.text))


def compare_ast(state: TaskState, target: Target, decoded: str) -> tuple[bool, str, dict[str, Any]]:
    """(equal, explanation, metadata) of the decoded answer against the reference program."""
    language = language_of(answer_format(state))
    reference = _reference(state, target, answer_format(state))
    if state.metadata.get("normalise"):
        reference, decoded_cmp = language.normalise_program(reference), language.normalise_program(decoded)
    else:
        decoded_cmp = decoded
    diff = language.ast_diff(reference, decoded_cmp)
    if diff is None:
        return True, "the program is AST-equivalent to the reference", {}
    meta: dict[str, Any] = {"first_difference": diff.path}
    explanation = f"{WRONG_OUTPUT}: first difference at {diff.path}: expected {diff.left!r}, got {diff.right!r}"
    hole = state.metadata.get("hole_subtree")
    if hole:
        present = language.contains_expression(decoded, str(hole))
        meta["contains_removed_subtree"] = present
        explanation += "; the removed subtree is " + ("present" if present else "missing")
    return False, explanation, meta


def compare_requirements(state: TaskState, decoded: str) -> tuple[bool, str, dict[str, Any]]:
    """(all met, explanation, metadata) of the decoded answer against the sample's requirements."""
    results = language_of(answer_format(state)).check_requirements(decoded, state.metadata.get("requirements") or [])
    unmet = [r for r in results if not r.met]
    meta = {"requirements": [r.model_dump() for r in results]}
    if not unmet:
        return True, f"all {len(results)} requirements hold", meta
    first = unmet[0]
    return (
        False,
        f"{WRONG_OUTPUT}: {len(unmet)} of {len(results)} requirements unmet; first: {first.requirement} "
        f"({first.detail})",
        meta,
    )


def score_code(state: TaskState, target: Target, mode: str) -> Score:
    """Score the final reply by ``mode`` ("ast" or "requirements"), with its token cost; never raises for a bad reply."""
    result = _score_code(state, target, mode)
    assert isinstance(result.value, dict)
    result.value.update(token_values(state))
    return result


def _score_code(state: TaskState, target: Target, mode: str) -> Score:
    attempts, records = _attempts(state)
    check = check_answer(state.output.completion if state.output else "", answer_format(state))
    if not check.ok or check.decoded is None:
        return _failed(check, attempts, records)
    try:
        if mode == "requirements":
            correct, explanation, meta = compare_requirements(state, check.decoded)
        else:
            correct, explanation, meta = compare_ast(state, target, check.decoded)
    except LanguageSyntaxError as err:
        check.error_kind, check.error = "DECODE_ERROR", f"the decoded program does not parse: {err}"
        return _failed(check, attempts, records)
    except Exception as err:  # noqa: BLE001 - a reply must never crash scoring; say what happened
        correct, explanation, meta = False, f"{WRONG_OUTPUT}: comparison failed ({type(err).__name__}: {err})", {}
    meta.update({"error_kind": None if correct else WRONG_OUTPUT, "attempt_log": records})
    return Score(value=_value(check, correct, attempts), answer=check.code or "", explanation=explanation, metadata=meta)


@scorer(name="ast_equivalence", metrics=code_metrics())
def ast_equivalence() -> Scorer:
    """Correct when the decoded reply is AST-equivalent to ``metadata['reference']`` (else the decoded target)."""

    async def score(state: TaskState, target: Target) -> Score:
        return score_code(state, target, "ast")

    return score


@scorer(name="requirements", metrics=code_metrics())
def requirements() -> Scorer:
    """Correct when the decoded reply satisfies every requirement in ``metadata['requirements']``."""

    async def score(state: TaskState, target: Target) -> Score:
        return score_code(state, target, "requirements")

    return score


@scorer(name="code_check", metrics=code_metrics())
def code_check() -> Scorer:
    """Per sample, ``ast_equivalence`` or ``requirements`` as ``metadata['check']`` says (tasks mixing both)."""

    async def score(state: TaskState, target: Target) -> Score:
        mode = "requirements" if state.metadata.get("check") == "requirements" else "ast"
        return score_code(state, target, mode)

    return score
