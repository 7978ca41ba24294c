"""Scores of the iterative-correction protocol (Goth's metrics), one dict per sample.

Every attempt is graded after the dialogue (``attempts.grade_attempts``): an attempt passes when it passes every
test, the grading set included, which no feedback reflected; its error type is the one it was graded with. The
generated part of a problem file's grading set is drawn fresh for each grading run (``datasets.grading_draw``,
seeded by the sample, the epoch and a random salt kept in the score's ``grading_salt``), so that nothing learnt
about one run's grading inputs helps another.
Keys (``nan`` = not applicable; Inspect leaves NaN out of a key's metrics):
- ``correct``: the final attempt passes every test (1/0);
- ``first_attempt_success``: attempt 1 passes; ``parse_success``: attempt 1 parses;
- ``semantic_correct``: attempt 1 passes, among first attempts that parse (nan when it did not parse);
- ``iterations``: attempts needed (1 … max_retries+1); never correct = ``max_retries + 2`` (Goth's "MAX");
- ``iterations_solved``: the same, nan when never correct (mean over solved samples);
- ``attempts``: attempts made; ``n_parse_error`` … ``n_timeout``: attempts that ended with that error type;
- ``final_tokens``: tokens of the final program (in the sample's ``tokenizer``) (nan when the reply had no code);
- ``token_ratio``: final program tokens / Python reference tokens, when the final program is correct;
- ``reference_token_ratio``: this target's reference program tokens / Python reference tokens;
- ``debruijn_error``: Goth targets, attempt 1 parsed and failed: 1 when re-assigning one declaration's De Bruijn
  indices makes it pass every test (``coonbench.execution.debruijn``), else 0; nan otherwise (its mean is the
  seed's "index errors as a share of semantic errors").
When the solver did not run the protocol (e.g. ``--solver coonbench/gold``), the reply is run as attempt 1.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from coonbench.datasets.correction import problem_by_id
from coonbench.datasets.grading_draw import draw_grading
from coonbench.execution import ERROR_TYPES, Outcome, get_executor
from coonbench.execution.debruijn import VARIANTS, index_error
from coonbench.execution.attempts import GRADED, DEFAULT_CASE_TIMEOUT, attempt_record, feedback_attempt, grade_attempts
from coonbench.tasks.state import correction_state
from coonbench.tokens import DEFAULT_ENCODING, count_tokens

NAN = float("nan")
SEMANTIC_EXCLUDED = (Outcome.PASS.value, Outcome.PARSE_ERROR.value)
"""First attempts that are no semantic error: passed, or did not parse."""
ERROR_KEYS = {o.value: f"n_{o.value.lower()}" for o in ERROR_TYPES}
SCORE_KEYS = [
    "correct",
    "first_attempt_success",
    "parse_success",
    "semantic_correct",
    "iterations",
    "iterations_solved",
    "attempts",
    *ERROR_KEYS.values(),
    "final_tokens",
    "token_ratio",
    "reference_token_ratio",
    "debruijn_error",
]


def attempt_metrics(attempts: list[dict[str, Any]], max_attempts: int, *, passed: str, unparsed: tuple[str, ...],
                    error_keys: dict[str, str]) -> dict[str, float]:
    """The seed's correction metrics of a run of attempts, for any task with a retry loop (programs here, documents in
    the writing task): ``passed`` is the outcome that counts as correct, ``unparsed`` those that did not parse;
    never correct counts as ``max_attempts + 1`` iterations."""
    first, final = attempts[0], attempts[-1]
    solved_at = next((a["attempt"] for a in attempts if a["outcome"] == passed), None)
    first_parsed = first["outcome"] not in unparsed
    first_ok = first["outcome"] == passed
    return {
        "correct": float(final["outcome"] == passed),
        "first_attempt_success": float(first_ok),
        "parse_success": float(first_parsed),
        "semantic_correct": float(first_ok) if first_parsed else NAN,
        "iterations": float(solved_at if solved_at is not None else max_attempts + 1),
        "iterations_solved": float(solved_at) if solved_at is not None else NAN,
        "attempts": float(len(attempts)),
        **{key: float(sum(a["outcome"] == kind for a in attempts)) for kind, key in error_keys.items()},
    }


def score_attempts(
    attempts: list[dict[str, Any]],
    max_attempts: int,
    python_tokens: int,
    reference_tokens: int | None,
    tokenizer: str = DEFAULT_ENCODING,
) -> dict[str, float]:
    """The score dict from the attempt records (pure; unit-tested); ``tokenizer``: the one the sample's reference
    tokens were counted in (its metadata ``tokenizer``), in which the final program is counted too. An attempt's
    outcome is its grade (``GRADED``) where it has one."""
    attempts = [{**a, "outcome": a.get(GRADED, a["outcome"])} for a in attempts]
    final = attempts[-1]
    final_ok = final["outcome"] == Outcome.PASS.value
    final_tokens = count_tokens(final["code"], tokenizer) if final.get("code") else None
    value: dict[str, float] = {
        **attempt_metrics(attempts, max_attempts, passed=Outcome.PASS.value, unparsed=(Outcome.PARSE_ERROR.value,),
                          error_keys=ERROR_KEYS),
        "final_tokens": float(final_tokens) if final_tokens is not None else NAN,
        "token_ratio": final_tokens / python_tokens if final_ok and final_tokens and python_tokens else NAN,
        "reference_token_ratio": reference_tokens / python_tokens if reference_tokens and python_tokens else NAN,
        "debruijn_error": NAN,
    }
    return value


def explain(attempts: list[dict[str, Any]]) -> str:
    """One line per attempt."""
    lines = []
    for a in attempts:
        where = f" on {a['call']}" if a.get("call") else ""
        grade = f" -> graded {a[GRADED]}" if a.get(GRADED, a["outcome"]) != a["outcome"] else ""
        lines.append(f"attempt {a['attempt']}: {a['outcome']}{grade}{where} ({a['passed']}/{a['total']} tests"
                     f"{_grading_counts(a)}) {a['message']}".strip())
    return "\n".join(lines)


def _grading_counts(attempt: dict[str, Any]) -> str:
    if "graded_total" not in attempt:
        return ""
    return f", grading set {attempt['graded_passed']}/{attempt['graded_total']}"


@scorer(name="correction_scorer", metrics={key: [mean()] for key in SCORE_KEYS})
def correction_scorer(case_timeout: float = DEFAULT_CASE_TIMEOUT) -> Scorer:
    """Score the protocol's attempts (or run the single reply when the protocol did not run)."""

    async def score(state: TaskState, target: Target) -> Score:
        record = correction_state(state.store)
        attempts: list[dict[str, Any]] = record.attempts
        max_attempts = record.max_attempts
        executor = get_executor(state.metadata["target"])
        problem = problem_by_id(state.metadata["problem_id"], state.metadata.get("goth_checkout"))
        if not attempts:
            reply = state.output.completion if state.output else ""
            code, result = await feedback_attempt(executor, problem, reply, case_timeout)
            attempts = [attempt_record(1, reply, code, result)]
            max_attempts = 1
        grading, salt = None, None
        if any(a["outcome"] == Outcome.PASS.value for a in attempts):
            salt = secrets.token_hex(16)  # fresh per grading run: nothing an earlier run saw describes this one
            grading = await asyncio.to_thread(draw_grading, problem, state.sample_id, state.epoch, salt)
        attempts = await grade_attempts(executor, problem, attempts, case_timeout, grading_tests=grading)
        value = score_attempts(
            attempts,
            max_attempts,
            int(state.metadata.get("python_reference_tokens") or 0),
            state.metadata.get("reference_tokens"),
            state.metadata.get("tokenizer", DEFAULT_ENCODING),
        )
        first = attempts[0]
        index_fix = None
        if executor.name in VARIANTS and first.get("code") and first[GRADED] not in SEMANTIC_EXCLUDED:
            index_fix = await index_error(executor, first["code"], problem, case_timeout)
            value["debruijn_error"] = float(index_fix is not None)
        final = attempts[-1]
        return Score(
            value=value,
            answer=final.get("code") or "",
            explanation=explain(attempts),
            metadata={
                "outcomes": [a[GRADED] for a in attempts],
                "feedback_outcomes": [a["outcome"] for a in attempts],
                "first_error_type": attempts[0][GRADED] if attempts[0][GRADED] != "PASS" else None,
                "final_outcome": final[GRADED],
                "debruijn_fix": index_fix,
                "grading_salt": salt if grading is not None else None,  # draw_grading(problem, id, epoch, salt)
            },
        )

    return score
