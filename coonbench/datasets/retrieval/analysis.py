"""TeaLeaf-compatible analysis mode: a TeaLeaf task file rendered in every chosen format."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_ai.dataset import Sample

from coonbench.datasets.retrieval.common import format_label
from coonbench.datasets.retrieval.conditions import parse_formats
from coonbench.formats import FormatError, get_format
from coonbench.tasks.context import BuildContext
from coonbench.tasks.samples import sample_metadata
from coonbench.tasks.subset import Pending

if TYPE_CHECKING:
    from coonbench.tasks.tealeaf_files import LoadedTask

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
    tasks_file: str | Path, formats: str | Sequence[str] | None = None, ctx: BuildContext | None = None
) -> tuple[list[Sample], list[str]]:
    """Every runnable TeaLeaf task rendered in every chosen format for ``ctx`` (the default context when None), and
    the rejection messages."""
    pending, rejected = analysis_pending(tasks_file, formats)
    ctx = ctx if ctx is not None else BuildContext()
    return [p.build(ctx) for p in pending], rejected


def analysis_pending(
    tasks_file: str | Path, formats: str | Sequence[str] | None = None
) -> tuple[list[Pending], list[str]]:
    """``analysis_samples``' samples not built yet (``coonbench.tasks.subset.Pending``: the prompt, the judge's
    criteria and the token counts wait for the draw), and the rejections: every task's data is read and encoded in
    every format, since a format that cannot hold it keeps the task out of the draw."""
    from coonbench.tasks.tealeaf_files import available_tasks, load_task_file

    names = parse_formats(formats)
    loaded, rejected = available_tasks(load_task_file(tasks_file))
    if not loaded:
        raise ValueError(f"{tasks_file}: no runnable tasks ({'; '.join(rejected) or 'the file lists none'})")
    pending: list[Pending] = []
    for item in loaded:
        task = item.task
        data = item.load_data()
        for fmt in names:
            try:
                text = get_format(fmt).encode(data) if data is not None else ""
            except FormatError as err:
                message = f"{item.source}: task '{task.id}': format {fmt} cannot hold its data ({err.message})"
                logger.warning(message)
                rejected.append(message)
                continue
            stratum = (str(task.complexity), str(task.output_type))  # complexity, question_type: as the sample has
            pending.append(Pending(str(task.id), stratum, fmt, partial(_analysis_sample, item, fmt, text)))
    return pending, rejected


def _analysis_sample(item: LoadedTask, fmt: str, text: str, ctx: BuildContext) -> Sample:
    """One TeaLeaf task shown in one format (``text``: its data in that format), counted in ``ctx``'s tokenizer."""
    task = item.task
    elements = [e.model_dump(exclude_none=False) for e in task.expected_elements]
    prompt = item.render(text.rstrip("\n"), format_label(fmt), TEALEAF_HINT_KEYS.get(fmt))
    extra: dict[str, Any] = {}
    criteria = _judge_criteria(elements)
    if criteria is not None:
        extra["criteria"] = criteria
    meta = sample_metadata(
        format=fmt, category=task.category, question_type=task.output_type, complexity=task.complexity,
        input_text=prompt, tokenizer=ctx.tokenizer, pair_id=task.id, task_id=task.id, output_type=task.output_type,
        expected_elements=elements,
        generate_config={"max_tokens": task.max_tokens, "temperature": task.temperature}, **extra,
    )
    return Sample(id=f"analysis-{task.id}-{fmt}", input=prompt, target="", metadata=meta)
