"""TeaLeaf-compatible analysis mode: a TeaLeaf task file rendered in every chosen format."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample

from coonbench.datasets.retrieval.common import format_label
from coonbench.datasets.retrieval.conditions import parse_formats
from coonbench.formats import FormatError, get_format
from coonbench.tasks.samples import sample_metadata

logger = logging.getLogger(__name__)

TEALEAF_HINT_KEYS = {"tealeaf": "tl", "tealeaf-compact": "tl", "json": "json", "json-compact": "json", "toon": "toon"}


def _judge_criteria(elements: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Criteria for the swappable LLM judge, derived from the expected elements (None if unavailable)."""
    try:
        from coonbench.judging.criteria import sample_criteria
    except ImportError:  # pragma: no cover - the judge module is optional
        return None
    completeness = [f"Verify the answer addresses: {e['description']}" for e in elements]
    accuracy = [f"Verify the answer states {e['description']} correctly from the data" for e in elements
                if e.get("validation_pattern")] or ["Verify every figure the answer quotes agrees with the data"]
    try:
        return sample_criteria(accuracy=accuracy, completeness=completeness or ["Verify the answer addresses the task"])
    except ValueError:
        return None


def analysis_samples(
    tasks_file: str | Path, formats: str | Sequence[str] | None = None
) -> tuple[list[Sample], list[str]]:
    """Every runnable TeaLeaf task rendered in every chosen format, and the rejection messages."""
    from coonbench.tasks.tealeaf_files import available_tasks, load_task_file

    names = parse_formats(formats)
    loaded, rejected = available_tasks(load_task_file(tasks_file))
    if not loaded:
        raise ValueError(f"{tasks_file}: no runnable tasks ({'; '.join(rejected) or 'the file lists none'})")
    samples: list[Sample] = []
    for item in loaded:
        task = item.task
        data = item.load_data()
        elements = [e.model_dump(exclude_none=False) for e in task.expected_elements]
        for fmt in names:
            try:
                text = get_format(fmt).encode(data) if data is not None else ""
            except FormatError as err:
                message = f"{item.source}: task '{task.id}': format {fmt} cannot hold its data ({err.message})"
                logger.warning(message)
                rejected.append(message)
                continue
            prompt = item.render(text.rstrip("\n"), format_label(fmt), TEALEAF_HINT_KEYS.get(fmt))
            extra: dict[str, Any] = {}
            criteria = _judge_criteria(elements)
            if criteria is not None:
                extra["criteria"] = criteria
            meta = sample_metadata(
                format=fmt, category=task.category, question_type=task.output_type, complexity=task.complexity,
                input_text=prompt, pair_id=task.id, task_id=task.id, output_type=task.output_type,
                expected_elements=elements,
                generate_config={"max_tokens": task.max_tokens, "temperature": task.temperature}, **extra,
            )
            samples.append(Sample(id=f"analysis-{task.id}-{fmt}", input=prompt, target="", metadata=meta))
    return samples, rejected
