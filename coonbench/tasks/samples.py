"""The metadata every Sample carries, so ``samples_df`` and our reports can slice any task the same way."""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from coonbench.tasks.errors import OneLineError
from coonbench.tokens import DEFAULT_ENCODING, count_tokens

GOLD_KEY = "gold"  # metadata key: the reply a perfect model would give (read by the coonbench/gold solver)
# Metadata keys naming the source item a question was drawn from (one Dart file, one dataset, one problem): answers
# from the same item are correlated, so standard errors are clustered on the first key present (Miller 2024 §3);
# without one, on the question (the sample id less its format suffix), which pools one question's formats/models.
# The report clusters on them, and so does -T stop=decided (coonbench.tasks.stopping).
CLUSTER_KEYS = ("dataset", "sample_id", "source", "problem_id")

def split_param(value: str | Sequence[str] | None) -> list[str] | None:
    """A task parameter given as ``-T kinds=a,b`` (comma-separated, blanks dropped) or as a list; None stays None."""
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else [str(v) for v in value]
    return [v.strip() for v in items if v.strip()]


class TaskArgumentError(OneLineError, ValueError):
    """A task argument (``-T name=value``) that names nothing usable. The message is one line naming the argument,
    the value and what would be valid; ``inspect eval`` prints it as its only line of error (``OneLineError``)."""


def shown(value: object) -> str:
    """How a task argument's value was written on the command line (a list as its comma form)."""
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def did_you_mean(value: str, choices: Sequence[str], quote: str = "'") -> str:
    """``; did you mean 'coon'?`` naming the choice closest to a mistyped ``value`` (difflib), or ``""``."""
    close = difflib.get_close_matches(value, list(choices), n=1)
    return f"; did you mean {quote}{close[0]}{quote}?" if close else ""


def choose(
    param: str, value: str | Sequence[str] | None, choices: Sequence[str], what: str = "value"
) -> list[str] | None:
    """The items of the comma-list task argument ``param`` (None when not given), each one of ``choices``;
    TaskArgumentError naming the argument, the first unknown item and the choices otherwise."""
    items = split_param(value)
    unknown = [item for item in items or [] if item not in choices]
    if unknown:
        raise TaskArgumentError(
            f"-T {param}={shown(value)}: unknown {what} '{unknown[0]}'{did_you_mean(unknown[0], choices)} "
            f"(choose from {', '.join(choices)})"
        )
    return items


def reject_unknown(task: Callable[..., Any], unknown: Mapping[str, Any]) -> None:
    """Stop a task given an argument it does not have (``unknown``: what its ``**unknown`` caught).

    Inspect hands a task only the ``-T`` names in its signature and merely warns about the rest, so a misspelled
    name (``-T primr=full``) would run the defaults to the end; every task takes ``**unknown`` to see such names
    and calls this, which raises TaskArgumentError naming the first one, the closest real name, and them all."""
    if not unknown:
        return
    name, value = next(iter(unknown.items()))
    params = [p.name for p in inspect.signature(task).parameters.values() if p.kind is not p.VAR_KEYWORD]
    hint = did_you_mean(name, params, quote="")
    raise TaskArgumentError(f"-T {name}={shown(value)}: unknown argument{hint} (this task takes {', '.join(params)})")


def sample_metadata(
    *,
    format: str,
    category: str,
    question_type: str,
    complexity: str,
    input_text: str,
    tokenizer: str = DEFAULT_ENCODING,
    gold: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Standard metadata: format, category, question type, complexity (band) and input tokens.

    ``input_text`` is everything the model is shown (primer included). Its tokens are recorded in ``tokenizer``, the
    one the task counts in (``input_tokens``, named by metadata ``tokenizer``: the model under test's, passed down
    in the ``BuildContext``) and in ``o200k_base`` (``input_tokens_o200k``), so that runs of different models
    compare on one scale. A report groups ``input_tokens`` by ``tokenizer`` and never adds counts of two tokenizers;
    a sample without ``tokenizer`` (older logs) counted in ``o200k_base``. Every builder of coonbench passes the
    tokenizer of its ``BuildContext`` (``tests/test_layers.py`` checks); the default serves a plug-in's own task.
    """
    tokens = count_tokens(input_text, tokenizer)
    meta: dict[str, Any] = {
        "format": format,
        "category": category,
        "question_type": question_type,
        "complexity": complexity,
        "input_tokens": tokens,
        "tokenizer": tokenizer,
        "input_tokens_o200k": tokens if tokenizer == DEFAULT_ENCODING else count_tokens(input_text),
    }
    if gold is not None:
        meta[GOLD_KEY] = gold
    meta.update(extra)
    return meta
