"""Scorers of mined edits and multi-turn sessions: exact (AST-equivalent to the real or cumulative gold program)
and graded (``Language.edit_overlap``, Dart's ``coonbench.dart.edit_diff``: the leaf changes the reply shares with the reference edit
over the larger of the two change sets, so a near miss is visible; 0 for a reply that changes nothing or cannot
be read).

``edit_check`` scores one edit: ``code_check``'s values (``scorers.code``) plus ``graded``. ``session_check``
scores every turn of a session (``metadata["turns"]``) from ``SessionState``: ``turn_<k>`` (exact at turn k,
against the program after the first k edits), ``graded_<k>``, ``valid_<k>`` and ``resumed_<k>`` (turn k went on
from the gold state after an unreadable reply); ``correct``, ``graded``, ``syntax_valid`` and ``decodable`` are
the last turn's, ``turns_correct`` the share of turns right. A reply that cannot be read is INCORRECT at its turn
with the reason; nothing here raises for a reply.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, mean, metric, scorer
from inspect_ai.solver import TaskState

from coonbench.answers.check import NO_ANSWER, PARSE_ERROR, WRONG_OUTPUT, answer_format, check_answer
from coonbench.formats import language_of
from coonbench.languages import Language, LanguageSyntaxError, default_language
from coonbench.scorers.code import code_metrics, score_code, token_values
from coonbench.tasks.state import session_state


def graded(start: str, reference: str, decoded: str | None, normalise: bool = False,
           language: Language | None = None) -> float:
    """``Language.edit_overlap`` of a decoded reply (0.0 when there is none or it does not parse); ``language``:
    the default code language's when not given."""
    if decoded is None:
        return 0.0
    
    language = language or default_language()
    try:
        if normalise:
            start, reference, decoded = (language.normalise_program(x) for x in (start, reference, decoded))
        return language.edit_overlap(start, reference, decoded)
    except LanguageSyntaxError:
        return 0.0


def _metrics(keys: tuple[str, ...], *more: Any) -> list[Any]:
    """``code_metrics`` with the mean of ``keys`` too, and ``more`` metrics."""
    base = code_metrics()
    base[0] = {**base[0], **{key: [mean()] for key in keys}}
    return [*base, *more]


@metric(name="by_turn")
def by_turn() -> Metric:
    """Exact accuracy per turn (``turn_<k>``) and per turn and format (``turn_<k>/<format>``)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        sums: dict[str, list[float]] = defaultdict(list)
        for s in scores:
            value = s.score.value if isinstance(s.score.value, dict) else {}
            fmt = str((s.sample_metadata or {}).get("format", "?"))
            for key, v in value.items():
                if key.startswith("turn_") and isinstance(v, (int, float)) and not math.isnan(v):
                    sums[key].append(float(v))
                    sums[f"{key}/{fmt}"].append(float(v))
        return {k: sum(v) / len(v) for k, v in sorted(sums.items())}

    return compute


@scorer(name="edit_check", metrics=_metrics(("graded",)))
def edit_check() -> Scorer:
    """AST equivalence with the real after-file, plus the graded score."""

    async def score(state: TaskState, target: Target) -> Score:
        result = score_code(state, target, "ast")
        check = check_answer(state.output.completion if state.output else "", answer_format(state))
        assert isinstance(result.value, dict)
        result.value["graded"] = graded(str(state.metadata.get("before", "")), str(state.metadata["reference"]),
                                        check.decoded, bool(state.metadata.get("normalise")),
                                        language_of(answer_format(state)))
        return result

    return score


def _turn(reply: str, fmt: str, turn: dict[str, Any], start: str, normalise: bool) -> tuple[dict[str, float], str]:
    """(values, explanation) of one turn's reply against the cumulative gold ``turn["reference"]``."""
    check = check_answer(reply, fmt)
    syntax = float(check.error_kind not in (NO_ANSWER, PARSE_ERROR))
    if not check.ok or check.decoded is None:
        return {"correct": 0.0, "graded": 0.0, "syntax_valid": syntax, "decodable": 0.0}, \
            f"{check.error_kind}: {check.error}"
    reference, decoded = str(turn["reference"]), check.decoded
    language = language_of(fmt)
    try:
        left, right = (language.normalise_program(reference), language.normalise_program(decoded)) if normalise \
            else (reference, decoded)
        diff = language.ast_diff(left, right)
    except LanguageSyntaxError as err:
        return {"correct": 0.0, "graded": 0.0, "syntax_valid": syntax, "decodable": 0.0}, \
            f"DECODE_ERROR: the decoded program does not parse: {err}"
    text = "AST-equivalent to the gold state" if diff is None else \
        f"{WRONG_OUTPUT}: first difference at {diff.path}: expected {diff.left!r}, got {diff.right!r}"
    return {"correct": float(diff is None), "graded": graded(start, reference, decoded, normalise, language),
            "syntax_valid": syntax, "decodable": 1.0}, text


@scorer(name="session_check", metrics=_metrics(("graded", "turns_correct"), by_turn()))
def session_check() -> Scorer:
    """Every turn of a session against the cumulative gold (see the module doc)."""

    async def score(state: TaskState, target: Target) -> Score:
        turns = list(state.metadata.get("turns") or [])
        records = session_state(state.store).turns
        fmt, start = answer_format(state), str(state.metadata.get("before", ""))
        normalise = bool(state.metadata.get("normalise"))
        value: dict[str, float] = {}
        lines, last = [], {}
        for k, turn in enumerate(turns, start=1):
            rec = records[k - 1] if k - 1 < len(records) else {"reply": "", "resumed_from_gold": False}
            last, why = _turn(str(rec.get("reply") or ""), fmt, turn, start, normalise)
            value.update({f"turn_{k}": last["correct"], f"graded_{k}": last["graded"],
                          f"valid_{k}": last["decodable"], f"resumed_{k}": float(bool(rec.get("resumed_from_gold")))})
            lines.append(f"turn {k}{' (from the gold state)' if rec.get('resumed_from_gold') else ''}: {why}")
        attempts = sum(max(1, len(r.get("attempts") or [])) for r in records) or 1
        value.update(last)
        value.update({"turns_correct": sum(value[f"turn_{k}"] for k in range(1, len(turns) + 1)) / max(1, len(turns)),
                      "first_attempt_success": float(last.get("correct", 0.0) == 1.0 and attempts == len(turns)),
                      "attempts": float(attempts)})
        value.update(token_values(state))
        return Score(value=value, answer=str(records[-1]["reply"]) if records else "", explanation="\n".join(lines),
                     metadata={"turns": [{k: v for k, v in r.items() if k != "reply"} for r in records]})

    return score
