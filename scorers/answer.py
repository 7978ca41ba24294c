"""Exact-answer scoring through the shared normaliser, with accuracy sliced by metadata and token-cost metrics.

The answer type and normaliser options come from the sample's metadata (``answer_type``, ``normalize_options``),
so one scorer serves every exact-answer task (retrieval, comprehension, structure). ``Score.value`` is a dict:
``correct`` (1/0), ``answered`` (1/0: readable as the answer type) and ``usage_input_tokens`` (what the model
reported; NaN when it reported nothing): what varies by epoch lives in the value, so it survives epochs. The count
(in the sample's ``tokenizer``) of everything shown is fixed per sample and read from the metadata (``input_tokens``).
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Metric,
    SampleScore,
    Score,
    Scorer,
    ScoreReducer,
    Target,
    mean_score,
    metric,
    score_reducer,
    scorer,
)
from inspect_ai.solver import TaskState

from coonbench.formats import get_format, language_of
from coonbench.tasks.conditions import parse_condition
from coonbench.answers.normalize import answer_types, check_answer, language_types, without_prompt
from coonbench.scorers.efficiency import by_format, efficiency

DEFAULT_GROUP_KEYS: tuple[str, ...] = ("format", "question_type", "complexity")
ANSWER_TYPE_KEY = "answer_type"
OPTIONS_KEY = "normalize_options"
PAIR_KEY = "pair_id"  # metadata: the same question/task across formats (for paired token savings)


def _value_of(score: SampleScore, key: str) -> float:
    value = score.score.value
    if isinstance(value, dict):
        raw = value.get(key, math.nan)
    elif key == "correct" and isinstance(value, str):
        raw = 1.0 if value == CORRECT else 0.0
    else:
        raw = math.nan
    try:
        return float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan


def _tokens_of(score: SampleScore, key: str) -> float:
    """A token figure from the score's value, else from the sample's metadata (``input_tokens`` is fixed per sample:
    the metadata holds it, and a value key would cost a reduction per sample each time Inspect computes metrics)."""
    value = score.score.value
    if isinstance(value, dict) and key in value:
        return _value_of(score, key)
    try:
        return float((score.sample_metadata or {}).get(key, math.nan))
    except (TypeError, ValueError):
        return math.nan


def _pair_of(score: SampleScore) -> str:
    meta = score.sample_metadata or {}
    if PAIR_KEY in meta:
        return str(meta[PAIR_KEY])
    sample_id = str(score.sample_id)
    fmt = str(meta.get("format", ""))
    return sample_id[: -len(fmt) - 1] if fmt and sample_id.endswith("-" + fmt) else sample_id


@metric(name="accuracy_by")
def accuracy_by(group_keys: Sequence[str] = DEFAULT_GROUP_KEYS) -> Metric:
    """Accuracy per metadata group, keyed ``<key>/<group>``: what Inspect's ``grouped(accuracy(), key)`` gives per
    key, in one pass over the scores (Inspect recomputes metrics for its display while a task runs, so their cost is
    paid many times per run).

    One metric for all keys because Inspect keeps only the first of several same-named metrics on a score key.
    Samples without a key, or without a correctness value, are left out of that key's groups.
    """
    keys = list(group_keys)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        sums: dict[str, dict[str, list[float]]] = {key: {} for key in keys}
        for s in scores:
            correct = _value_of(s, "correct")
            if math.isnan(correct):
                continue
            meta = s.sample_metadata or {}
            for key in keys:
                if key in meta:
                    total = sums[key].setdefault(str(meta[key]), [0.0, 0.0])
                    total[0] += correct
                    total[1] += 1
        return {f"{key}/{group}": total / n for key in keys for group, (total, n) in sums[key].items()}

    return compute


@metric(name="correct")
def correct() -> Metric:
    """Accuracy and its standard error (Inspect's ``accuracy`` and ``stderr``: the sample SD over √n) of
    ``Score.value["correct"]``, NaN values left out. One plain metric instead of Inspect's per-key form
    (``{"correct": [accuracy(), stderr()]}``), which deep-copies every sample score, metadata included, each time
    the metrics are computed (dozens of times a run, for the display): at 2,652 samples that was most of
    coonbench's overhead over a bare task."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values = [v for v in (_value_of(s, "correct") for s in scores) if not math.isnan(v)]
        n = len(values)
        mean = sum(values) / n if n else 0.0
        var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        return {"accuracy": mean, "stderr": math.sqrt(var / n) if n > 1 else 0.0}

    return compute


@metric(name="answered")
def answered() -> Metric:
    """Share of replies that could be read as the answer type, right or wrong (``Score.value["answered"]``; NaN
    values left out). A plain metric rather than Inspect's per-key form (``{"answered": [mean()]}``), which
    deep-copies every sample score, metadata included, each time the metrics are computed."""

    def compute(scores: list[SampleScore]) -> float:
        values = [v for v in (_value_of(s, "answered") for s in scores) if not math.isnan(v)]
        return sum(values) / len(values) if values else math.nan

    return compute


@metric(name="format_tokens")
def format_tokens() -> Metric:
    """Per format: mean input tokens (``tokens/<format>``, in the run's tokenizer) and accuracy per 1K of them (``acc_per_1k/<format>``,
    TOON's efficiency: accuracy% ÷ tokens × 1000, here with accuracy as a fraction)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        out: dict[str, float] = {}
        for fmt, (acc, tok, _) in sorted(by_format(scores).items()):
            out[f"tokens/{fmt}"] = round(tok, 1)
            out[f"acc_per_1k/{fmt}"] = round(efficiency(acc, tok), 6)
        return out

    return compute


SOURCE_BASELINE = "source"
"""``baseline`` of the code tasks: each format against its language's plain source format
(``Language.source_format``: coon and dart-minified against dart)."""


def _baseline_of(label: str, baseline: str) -> str:
    """The format a condition ``label`` is compared with: ``baseline``, or for ``SOURCE_BASELINE`` its language's
    source format (the label itself when it names no code format: no pair then)."""
    if baseline != SOURCE_BASELINE:
        return baseline
    return _source_format(label)


@lru_cache(maxsize=256)
def _source_format(label: str) -> str:
    try:
        return language_of(parse_condition(label).format).source_format
    except Exception:  # noqa: BLE001 - a label no code format answers to (a data task's, "?") pairs with nothing
        return label


@metric(name="input_token_change")
def input_token_change(
    baseline: str = "json", token_key: str = "input_tokens", require_key: str | None = None, label: str = "token_change"
) -> Metric:
    """Per format: (Σ format tokens − Σ baseline tokens) / Σ baseline tokens over paired samples (``baseline``: a
    format name, or ``SOURCE_BASELINE``: each format's language's source format).

    Pairs are the same ``pair_id`` (question or task) in both formats, so formats that cover fewer questions
    (CSV) are compared on their own questions. With ``require_key`` (e.g. ``succeeded``), only pairs where that
    value is 1 in EVERY format count (TeaLeaf's rule). Negative = fewer tokens than the baseline. Token values
    that are NaN (e.g. no reported usage) drop the pair.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        table: dict[str, dict[str, SampleScore]] = defaultdict(dict)
        formats: set[str] = set()
        for s in scores:
            fmt = str((s.sample_metadata or {}).get("format", "?"))
            formats.add(fmt)
            table[_pair_of(s)][fmt] = s
        if require_key is not None:
            table = {
                pair: row
                for pair, row in table.items()
                if set(row) == formats and all(_value_of(s, require_key) == 1.0 for s in row.values())
            }
        out: dict[str, float] = {}
        for fmt in sorted(formats):
            against = _baseline_of(fmt, baseline)
            if fmt == against:
                continue
            total = base = 0.0
            for row in table.values():
                if fmt in row and against in row:
                    a, b = _tokens_of(row[fmt], token_key), _tokens_of(row[against], token_key)
                    if math.isnan(a) or math.isnan(b):
                        continue
                    total, base = total + a, base + b
            out[f"{label}/{fmt}"] = round((total - base) / base, 6) if base else math.nan
        return out

    return compute


@score_reducer(name="coonbench/mean")
def epoch_mean() -> ScoreReducer:
    """Inspect's ``mean`` epoch reducer, with nothing to do for a sample scored once (its score is its mean).

    Inspect reduces every sample's scores each time it computes the metrics (again and again while a task runs, for
    its display), and its mean of one dict score costs a ``statistics.mean`` per value key: set as the task's
    reducer (``Task(epochs=Epochs(1, epoch_mean()))``; ``--epochs`` still sets the count), it keeps that cost off
    single-epoch runs and gives the same figures."""
    mean = mean_score()

    def reduce(scores: list[Score]) -> Score:
        return scores[0] if len(scores) == 1 else mean(scores)

    return reduce


def answer_metrics(
    group_keys: Sequence[str] = DEFAULT_GROUP_KEYS, baseline: str = "json"
) -> list[Metric | dict[str, list[Metric]]]:
    """Accuracy overall and per group key, mean tokens, accuracy per 1K tokens, and the relative token change against ``baseline`` (negative = fewer tokens).

    Pass to ``Task(metrics=…)`` to slice by other keys (e.g. comprehension's ``band``).
    """
    return [
        correct(),
        answered(),
        accuracy_by(list(group_keys)),
        format_tokens(),
        input_token_change(baseline=baseline),
        input_token_change(baseline=baseline, token_key="usage_input_tokens", label="usage_token_change"),
    ]


def _language_typed(kind: str, options: Any) -> bool:
    """Whether a sample's answer is of a language's own type (a widget name) or a list of them: the answers a
    format's aliases apply to."""
    types = language_types()
    return kind in types or (isinstance(options, dict) and options.get("item_type") in types)


def reported_input_tokens(state: TaskState) -> float:
    """The model's own input-token count (NaN when the provider reported none, e.g. the gold solver)."""
    usage = state.output.usage if state.output is not None else None
    if usage is None or not usage.input_tokens:
        return math.nan
    return float(usage.input_tokens)


@scorer(name="answer_match", metrics=answer_metrics())
def answer_match(
    answer_type: str | None = None, strip_output: bool = True, aliases: dict[str, str] | str | None = None
) -> Scorer:
    """Compare the completion with the target through the normaliser; garbage is INCORRECT, never an error.

    Args:
      answer_type: override for every sample; by default ``metadata['answer_type']`` (else ``string``).
      strip_output: strip surrounding whitespace before normalising (decorations are the normaliser's job).
      aliases: widget-name aliases for samples whose options name none — given once here rather than copied into
        every sample's metadata: a table (abbreviation → name), or the name of a registered format whose
        ``answer_aliases()`` are accepted (``"coon"``: its widget abbreviations). Inspect records a scorer's
        arguments in every score event, so a name keeps each sample's log a table shorter.
    """
    table = get_format(aliases).answer_aliases() if isinstance(aliases, str) else aliases

    async def score(state: TaskState, target: Target) -> Score:
        meta = state.metadata or {}
        kind = answer_type or str(meta.get(ANSWER_TYPE_KEY) or "string")
        options: Any = meta.get(OPTIONS_KEY) or None
        if table and _language_typed(kind, options):
            options = {"aliases": table, **(options or {})}
        if kind in language_types() and meta.get("question"):
            options = {**(options or {}), "context": str(meta["question"])}
        completion = state.output.completion if state.output is not None else ""
        completion = completion.strip() if strip_output else completion
        expected = target.text
        try:
            if kind not in answer_types():
                raise ValueError(f"unknown answer type '{kind}'")
            read = without_prompt(completion, state.input_text)
            check = check_answer(read, expected, kind, options)
            if read != completion and not check.correct:
                check = replace(check, why=f"{check.why} (the prompt it repeats not read)")
            ok, readable, why = check.correct, check.readable, check.why
        except (ValueError, TypeError) as err:  # a bad sample definition: scored wrong, with the reason
            ok, readable, why = False, False, f"cannot score: {err}"
        value = {
            "correct": 1.0 if ok else 0.0,
            "answered": 1.0 if readable else 0.0,
            "usage_input_tokens": reported_input_tokens(state),
        }
        # No Score.metadata: the verdict opens the explanation and the answer type is in the sample's metadata.
        # Inspect deep-copies every score for each per-key metric (``correct``) each time it recomputes metrics.
        return Score(value=value, answer=completion, explanation=f"{CORRECT if ok else INCORRECT}: {why}")

    return score
