"""The metadata every Sample carries, so ``samples_df`` and our reports can slice any task the same way."""

from __future__ import annotations

from typing import Any

from coonbench.tokens import count_tokens

GOLD_KEY = "gold"  # metadata key: the reply a perfect model would give (read by the coonbench/gold solver)


def sample_metadata(
    *,
    format: str,
    category: str,
    question_type: str,
    complexity: str,
    input_text: str,
    gold: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Standard metadata: format, category, question type, complexity (band) and o200k input tokens.

    ``input_text`` is everything the model is shown (primer included); its token count is recorded.
    """
    meta: dict[str, Any] = {
        "format": format,
        "category": category,
        "question_type": question_type,
        "complexity": complexity,
        "input_tokens": count_tokens(input_text),
    }
    if gold is not None:
        meta[GOLD_KEY] = gold
    meta.update(extra)
    return meta
