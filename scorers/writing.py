"""Scores of the writing task, one dict per sample (the correction task's metrics, for documents).

Keys (``nan`` = not applicable; Inspect leaves NaN out of a key's metrics):
- ``correct``: the final document decodes to the case's data (1/0);
- ``first_attempt_success``: document 1 does; ``parse_success``: document 1 decodes;
- ``semantic_correct``: document 1 holds the data, among first documents that decode (nan when it did not);
- ``iterations``: documents needed (1 … repairs+1); never correct = ``repairs + 2``;
- ``iterations_solved``: the same, nan when never correct (mean over solved samples);
- ``attempts``: documents written; ``n_no_document``, ``n_parse_error``, ``n_wrong_data``: documents that ended so;
- ``output_tokens``: output tokens of every attempt (the model's usage; counted in the sample's tokenizer where a
  provider reports none); ``input_tokens``: the request with its primer (the sample's, counted at build time);
- ``correct_output_tokens``: ``output_tokens`` when correct, else nan (the report's tokens per correct document
  divides their sum by the correct count).
When the solver did not run the repair loop (``--solver coonbench/gold``, a baseline), the reply is attempt 1.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState

from coonbench.answers.document import source_of, OUTCOMES, PASS, PARSE_ERROR, NO_DOCUMENT, check_document
from coonbench.tasks.state import writing_state
from coonbench.scorers.correction import attempt_metrics
from coonbench.tokens import DEFAULT_ENCODING, count_tokens

NAN = float("nan")
ERROR_KEYS = {o: f"n_{o.lower()}" for o in OUTCOMES if o != PASS}
SCORE_KEYS = ["correct", "first_attempt_success", "parse_success", "semantic_correct", "iterations",
              "iterations_solved", "attempts", *ERROR_KEYS.values(), "output_tokens", "input_tokens",
              "correct_output_tokens"]


def score_documents(attempts: list[dict[str, Any]], max_attempts: int, input_tokens: float) -> dict[str, float]:
    """The score dict from the attempt records (pure; unit-tested)."""
    final_ok = attempts[-1]["outcome"] == PASS
    output_tokens = float(sum(a.get("output_tokens") or 0 for a in attempts))
    return {
        **attempt_metrics(attempts, max_attempts, passed=PASS, unparsed=(PARSE_ERROR, NO_DOCUMENT),
                          error_keys=ERROR_KEYS),
        "output_tokens": output_tokens,
        "input_tokens": float(input_tokens),
        "correct_output_tokens": output_tokens if final_ok else NAN,
    }


def explain(attempts: list[dict[str, Any]]) -> str:
    """One line per attempt: its outcome and what was (or would have been) fed back."""
    return "\n".join(f"attempt {a['attempt']}: {a['outcome']}" + (f" ({a['feedback']})" if a["feedback"] else "")
                     for a in attempts)


@scorer(name="writing_scorer", metrics={key: [mean()] for key in SCORE_KEYS})
def writing_scorer() -> Scorer:
    """Score the repair loop's documents (or the single reply when the loop did not run)."""

    async def score(state: TaskState, target: Target) -> Score:
        record = writing_state(state.store)
        attempts: list[dict[str, Any]] = list(record.attempts)
        max_attempts = record.max_attempts
        if not attempts:
            reply = state.output.completion if state.output else ""
            check = check_document(reply, state.metadata["encoding"], state.metadata["expected"],
                                   source_of(state.metadata))
            usage = state.output.usage if state.output else None
            attempts = [check.record(1, usage.output_tokens if usage is not None else None)]
            max_attempts = 1
        tokenizer = state.metadata.get("tokenizer", DEFAULT_ENCODING)
        for a in attempts:  # a provider that reports no usage (mockllm, the gold solver): count the document
            if a.get("output_tokens") is None:
                a["output_tokens"] = count_tokens(a["document"] or "", tokenizer)
        value = score_documents(attempts, max_attempts, state.metadata.get("input_tokens") or 0)
        return Score(value=value, answer=attempts[-1]["document"] or "", explanation=explain(attempts),
                     metadata={"outcomes": [a["outcome"] for a in attempts],
                               "first_error_type": None if attempts[0]["outcome"] == PASS else attempts[0]["outcome"],
                               "differences": [a["difference"] for a in attempts if a.get("difference")]})

    return score
