"""TeaLeaf's heuristic rubric (no judge): completeness, relevance, coherence, factual accuracy, actionability.

Why: TeaLeaf's published format comparison uses exactly these heuristics (``analysis/metrics.rs``), so reproducing
them lets us compare formats the way TeaLeaf did; a judge (``scorers/judge.py``) can be swapped in by the task.
Rules (see ../shared/notes/findings.md):
* an element is detected by its ``validation_pattern`` (regex search) or, without one, by any of the first 5
  description words longer than 3 bytes appearing case-insensitively;
* completeness = detected / all elements (1.0 without elements); relevance = description words (> 3 bytes) found
  / all such words; coherence = min(1, 0.5 + 0.2·m/7 + 0.15·[≥ 3 paragraphs] + 0.15·[100 ≤ words ≤ 2000]) with m
  the markers ``## ### ** "- " 1. 2. 3.`` present; factual accuracy = patterned elements matched / patterned
  (1.0 without); actionability = min(1, k/3) over recommendation words for recommendation tasks, else 1.0;
* composite = .25·completeness + .25·relevance + .20·coherence + .20·factual + .10·actionability.
Hostile answers: TeaLeaf's patterns (from task files) run on model text, and some have adjacent optional
quantifiers (``\\d+\\.?\\d*%`` is cubic in Python's ``re``: 1,000 digits took 1 s, 2,000 took 9 s). So patterns
run on the ``regex`` engine with a ``PATTERN_TIMEOUT_S`` limit per search (a search that times out counts as not
detected, and the explanation says so), and the rubric examines at most the first ``MAX_CONTENT_CHARS`` of an
answer.
Savings = (format input tokens − JSON input tokens) / JSON over the tasks where every format succeeded
(a non-empty answer), the ``input_token_change`` metric with ``require_key="succeeded"``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import regex

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, mean, metric, scorer
from inspect_ai.solver import TaskState

from coonbench.scorers.answer import input_token_change, reported_input_tokens

WEIGHTS: dict[str, float] = {
    "completeness": 0.25,
    "relevance": 0.25,
    "coherence": 0.20,
    "factual_accuracy": 0.20,
    "actionability": 0.10,
}
STRUCTURE_MARKERS = ("##", "###", "**", "- ", "1.", "2.", "3.")
RECOMMENDATION_WORDS = (
    "recommend", "should", "suggest", "consider", "advise", "action", "implement", "improve", "optimize",
    "prioritize", "next step", "immediate", "critical", "important",
)
ELEMENTS_KEY = "expected_elements"  # metadata: list of {element_type, description, required, validation_pattern}
OUTPUT_TYPE_KEY = "output_type"
MAX_CONTENT_CHARS = 200_000
"""Characters of an answer the rubric examines (an analysis answer is a few thousand; the rest is noise)."""
PATTERN_TIMEOUT_S = 0.05
"""Seconds one validation-pattern search may take; a search past it counts as not detected."""


def _long_words(description: str) -> list[str]:
    """Whitespace-separated words longer than 3 bytes (UTF-8), as TeaLeaf's Rust ``w.len() > 3``."""
    return [w for w in description.split() if len(w.encode("utf-8")) > 3]


@lru_cache(maxsize=1024)
def _compile(pattern: str) -> Any:
    try:
        return regex.compile(pattern)
    except (regex.error, ValueError, TypeError, RecursionError):
        return None


def _pattern_of(element: Mapping[str, Any]) -> Any:
    """The element's compiled ``validation_pattern``, or None when it has none or it does not compile."""
    pattern = element.get("validation_pattern")
    if not pattern or not isinstance(pattern, str):
        return None
    return _compile(pattern)


@lru_cache(maxsize=64)
def _search_cached(pattern: str, content: str) -> bool | None:
    compiled = _compile(pattern)
    if compiled is None:
        return False
    try:
        return compiled.search(content[:MAX_CONTENT_CHARS], timeout=PATTERN_TIMEOUT_S) is not None
    except TimeoutError:
        return None


def _search(pattern: Any, content: str) -> bool | None:
    """Whether ``pattern`` occurs in ``content``; None when the search ran out of time (memoised, so that the
    rubric, the found/missing lists and the explanation share one search per element and answer)."""
    return _search_cached(pattern.pattern, content)


def detect_element(content: str, element: Mapping[str, Any]) -> bool:
    """Regex when the element has a (valid) pattern, else any of the first 5 long description words."""
    pattern = _pattern_of(element)
    if pattern is not None:
        return bool(_search(pattern, content))
    lower = content[:MAX_CONTENT_CHARS].lower()
    return any(word.lower() in lower for word in _long_words(str(element.get("description", "")))[:5])


def rubric(content: str, elements: Sequence[Mapping[str, Any]], output_type: str) -> dict[str, float]:
    """The five TeaLeaf metrics and their weighted composite for one answer."""
    content = content[:MAX_CONTENT_CHARS]
    lower = content.lower()
    completeness = sum(detect_element(content, e) for e in elements) / len(elements) if elements else 1.0

    words = [w for e in elements for w in _long_words(str(e.get("description", "")))]
    relevance = sum(w.lower() in lower for w in words) / len(words) if words else 1.0

    markers = sum(marker in content for marker in STRUCTURE_MARKERS)
    coherence = 0.5 + markers / len(STRUCTURE_MARKERS) * 0.2
    if len(content.split("\n\n")) >= 3:
        coherence += 0.15
    if 100 <= len(content.split()) <= 2000:
        coherence += 0.15
    coherence = min(1.0, coherence)

    patterned = [e for e in elements if e.get("validation_pattern")]
    if patterned:
        matched = 0
        for e in patterned:
            pattern = _pattern_of(e)
            matched += bool(pattern is not None and _search(pattern, content))
        factual = matched / len(patterned)
    else:
        factual = 1.0

    if output_type == "recommendation":
        actionability = min(1.0, sum(word in lower for word in RECOMMENDATION_WORDS) / 3)
    else:
        actionability = 1.0

    values = {
        "completeness": completeness,
        "relevance": relevance,
        "coherence": coherence,
        "factual_accuracy": factual,
        "actionability": actionability,
    }
    values["composite"] = sum(values[k] * w for k, w in WEIGHTS.items()) / sum(WEIGHTS.values())
    return values


@metric(name="composite_by_format")
def composite_by_format() -> Metric:
    """Per format: mean composite and mean of each TeaLeaf metric, keyed ``<metric>/<format>``."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        groups: dict[str, list[SampleScore]] = defaultdict(list)
        for s in scores:
            groups[str((s.sample_metadata or {}).get("format", "?"))].append(s)
        out: dict[str, float] = {}
        for fmt, members in sorted(groups.items()):
            for key in ("composite", *WEIGHTS):
                vals = [float(s.score.value[key]) for s in members if isinstance(s.score.value, dict)]
                vals = [v for v in vals if not math.isnan(v)]
                out[f"{key}/{fmt}"] = round(sum(vals) / len(vals), 6) if vals else math.nan
        return out

    return compute


@scorer(
    name="expected_elements",
    metrics=[
        {"composite": [mean()], "succeeded": [mean()]},
        composite_by_format(),
        input_token_change(baseline="json", require_key="succeeded"),
        input_token_change(baseline="json", token_key="usage_input_tokens", require_key="succeeded",
                           label="usage_token_change"),
    ]
)
def expected_elements() -> Scorer:
    """Score an analysis answer with TeaLeaf's heuristic rubric (elements and output type from metadata)."""

    async def score(state: TaskState, target: Target) -> Score:
        meta = state.metadata or {}
        elements = [e for e in (meta.get(ELEMENTS_KEY) or []) if isinstance(e, Mapping)]
        output_type = str(meta.get(OUTPUT_TYPE_KEY, "analysis"))
        content = state.output.completion if state.output is not None else ""
        succeeded = bool(content.strip()) and not (state.output is not None and state.output.error)
        values = rubric(content, elements, output_type)
        detected = [detect_element(content, e) for e in elements]
        found = [str(e.get("description")) for e, hit in zip(elements, detected) if hit]
        missing = [str(e.get("description")) for e, hit in zip(elements, detected) if not hit]
        timed_out = [str(e.get("description")) for e in elements
                     if (p := _pattern_of(e)) is not None and _search(p, content) is None]
        value = {
            **{k: round(v, 6) for k, v in values.items()},
            "succeeded": 1.0 if succeeded else 0.0,
            "input_tokens": float(meta.get("input_tokens", math.nan)),
            "usage_input_tokens": reported_input_tokens(state),
        }
        explanation = (
            f"composite {values['composite']:.3f} ("
            + ", ".join(f"{k} {values[k]:.2f}" for k in WEIGHTS)
            + f"); found {found or 'none'}; missing {missing or 'none'}"
            + ("" if succeeded else "; empty answer (task not counted in token changes)")
            + (f"; pattern search timed out (counted as missing): {timed_out}" if timed_out else "")
            + (f"; only the first {MAX_CONTENT_CHARS:,} characters examined" if len(content) > MAX_CONTENT_CHARS
               else "")
        )
        return Score(value=value, answer=content[:2000], explanation=explanation)

    return score
