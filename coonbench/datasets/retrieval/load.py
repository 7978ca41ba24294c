"""Loading: a questions JSONL (ours or a user's) and its JSON datasets → Inspect Samples in every chosen format.

Each JSONL line is ``{id, dataset, question, answer, answer_type[, question_type][, complexity]
[, normalize_options][, corruption]}`` with ``dataset`` a JSON file path relative to the JSONL file (only the
first five keys are required).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from coonbench.datasets.retrieval.common import (
    CATEGORY,
    CORRUPTIONS,
    QUESTIONS_FILE,
    REQUIRED_FIELDS,
    TEMPLATES,
    format_label,
)
from coonbench.datasets.question_files import json_object_line, jsonl_lines
from coonbench.datasets.retrieval.corrupt import corrupt_encoded
from coonbench.datasets.retrieval.conditions import DataCondition, parse_conditions
from coonbench.formats import FormatError, get_format
from coonbench.tasks.context import BuildContext
from coonbench.tasks.prompts import Rendered, render
from coonbench.tasks.samples import sample_metadata
from coonbench.tasks.subset import Pending

logger = logging.getLogger(__name__)

class QuestionsFileError(ValueError):
    """A malformed questions JSONL: names file, line and field."""


def read_questions(path: str | Path) -> list[dict[str, Any]]:
    """Validated question records of a JSONL file; ``dataset`` resolved against the file's folder."""
    source = Path(path)
    lines = jsonl_lines(source, QuestionsFileError)
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        rec = json_object_line(line, f"{source}:{lineno}", QuestionsFileError)
        for name in REQUIRED_FIELDS:
            if name not in rec or rec[name] is None or (isinstance(rec[name], str) and not rec[name].strip()):
                raise QuestionsFileError(f"{source}:{lineno}: field '{name}' is missing or empty")
        for name in ("id", "dataset", "question", "answer_type"):
            if not isinstance(rec[name], str):
                raise QuestionsFileError(f"{source}:{lineno}: field '{name}' must be a string")
        from coonbench.answers.normalize import NormalizeOptions, answer_types

        if rec["answer_type"] not in answer_types():
            raise QuestionsFileError(f"{source}:{lineno}: field 'answer_type': unknown type {rec['answer_type']!r} "
                                     f"(expected one of {', '.join(answer_types())})")
        try:
            NormalizeOptions.coerce(rec.get("normalize_options"))
        except (TypeError, ValueError) as err:
            raise QuestionsFileError(f"{source}:{lineno}: field 'normalize_options': {err}") from err
        if rec.get("corruption", "none") not in CORRUPTIONS:
            raise QuestionsFileError(f"{source}:{lineno}: field 'corruption': expected one of {', '.join(CORRUPTIONS)}")
        if rec["id"] in seen:
            raise QuestionsFileError(f"{source}:{lineno}: field 'id': duplicate id {rec['id']!r}")
        seen.add(rec["id"])
        data_path = (source.parent / rec["dataset"]).resolve()
        if not data_path.is_file():
            raise QuestionsFileError(f"{source}:{lineno}: field 'dataset': file {data_path} not found")
        out.append({**rec, "_data_path": str(data_path), "_line": lineno})
    return out


def _load_json(path: str, cache: dict[str, Any]) -> Any:
    if path not in cache:
        try:
            cache[path] = json.loads(Path(path).read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise QuestionsFileError(f"{path}:{err.lineno}: dataset is not valid JSON: {err.msg}") from err
    return cache[path]


def build_prompt(fmt: str, data_text: str, question: str, primer: str | None = "",
                 ctx: BuildContext | None = None) -> Rendered:
    """The full prompt for one question in one format (TOON's layout, under ``ctx``'s template, the default when
    None: ``coonbench.tasks.prompts``); ``primer`` None shows none, "" the format's short primer."""
    f = get_format(fmt)
    shown = render(TEMPLATES, ctx if ctx is not None else BuildContext(),
                   primer=f.primer("short") if primer == "" else (primer or ""), format_label=format_label(fmt),
                   fence=f.fence, data=data_text.rstrip("\n"), question=question)
    return replace(shown, user=shown.user.removeprefix("\n\n")) if primer is None else shown


def retrieval_samples_with_skips(
    formats: str | Sequence[str] | None = None, questions_file: str | Path | None = None,
    ctx: BuildContext | None = None,
) -> tuple[list[Sample], dict[str, list[dict[str, str]]]]:
    """Samples for every question in every format, built for ``ctx`` (the default context when None), and per
    format the questions skipped because the format refused their dataset (``{id, dataset, reason}``, the reason
    being the format's own error message)."""
    pending, skipped = retrieval_pending(formats, questions_file)
    ctx = ctx if ctx is not None else BuildContext()
    return [p.build(ctx) for p in pending], skipped


def retrieval_pending(
    formats: str | Sequence[str] | None = None, questions_file: str | Path | None = None
) -> tuple[list[Pending], dict[str, list[dict[str, str]]]]:
    """``retrieval_samples_with_skips``' samples not built yet (``coonbench.tasks.subset.Pending``: ``-T
    questions=N`` renders and counts the tokens of only the questions drawn), and the skips. Every dataset is
    encoded in every format (once per dataset, format and corruption): whether a format can hold a dataset is what
    its encoder says, and the draw keeps only questions every format can show."""
    conditions = parse_conditions(formats)
    records = read_questions(questions_file or QUESTIONS_FILE)
    cache: dict[str, Any] = {}
    encoded: dict[tuple[str, str, str], str | FormatError] = {}
    pending: list[Pending] = []
    skipped: dict[str, list[dict[str, str]]] = {}
    for rec in records:
        data = _load_json(rec["_data_path"], cache)
        corruption = rec.get("corruption", "none")
        for cond in conditions:
            fmt, label = cond.format, cond.label
            key = (rec["_data_path"], fmt, corruption)
            if key not in encoded:
                try:
                    encoded[key] = corrupt_encoded(data, fmt, corruption)  # "none": the plain encoding
                except FormatError as err:
                    encoded[key] = err
            text = encoded[key]
            if isinstance(text, FormatError):
                skipped.setdefault(label, []).append({"id": rec["id"], "dataset": rec["dataset"], "reason": text.message})
                continue
            stratum = (str(rec.get("complexity", "custom")), str(rec.get("question_type", "custom")))
            pending.append(Pending(str(rec["id"]), stratum, label, partial(question_sample, rec, cond, text)))
    for fmt, items in skipped.items():
        logger.warning("retrieval: format %s cannot hold the data of %d questions (skipped; first reason: %s)",
                       fmt, len(items), items[0]["reason"])
    return pending, skipped


def question_sample(rec: Mapping[str, Any], cond: DataCondition, text: str, ctx: BuildContext) -> Sample:
    """One question record shown in one format (``text``: its dataset in that format, corrupted as the record
    says), built for ``ctx``; the record's keys as in a questions file."""
    fmt, label = cond.format, cond.label
    prompt = build_prompt(fmt, text, rec["question"], cond.primer_text() if cond.primer != "short" else "", ctx)
    meta = sample_metadata(
        format=label, category=CATEGORY, question_type=rec.get("question_type", "custom"),
        complexity=rec.get("complexity", "custom"), input_text=prompt.text(), tokenizer=ctx.tokenizer,
        answer_type=rec["answer_type"], normalize_options=rec.get("normalize_options"),
        pair_id=rec["id"], dataset=rec["dataset"], corruption=rec.get("corruption", "none"), encoding=fmt,
        primer=cond.primer != "none",
    )
    return Sample(id=f"{CATEGORY}-{rec['id']}-{label}", input=prompt.input, target=str(rec["answer"]), metadata=meta)


def retrieval_samples(
    formats: str | Sequence[str] | None = None, questions_file: str | Path | None = None
) -> tuple[list[Sample], dict[str, list[str]]]:
    """Samples for every question in every format, and the (format → question ids) skipped because the
    format cannot hold the data (CSV on nested data)."""
    samples, skipped = retrieval_samples_with_skips(formats, questions_file)
    return samples, {fmt: [item["id"] for item in items] for fmt, items in skipped.items()}


def skip_summary(skipped: dict[str, list[dict[str, str]]]) -> dict[str, Any]:
    """What goes in the eval's metadata: per format, how many questions were skipped, and why (per dataset)."""
    out: dict[str, Any] = {}
    for fmt, items in sorted(skipped.items()):
        reasons: dict[str, str] = {}
        for item in items:
            reasons.setdefault(item["dataset"], item["reason"])
        out[fmt] = {"questions": len(items), "ids": [i["id"] for i in items], "reasons": reasons}
    return out


def retrieval_dataset(
    formats: str | Sequence[str] | None = None, questions_file: str | Path | None = None
) -> MemoryDataset:
    """The Inspect dataset (skipped questions are noted in the dataset name; ``evals/retrieval.py`` records the
    full list with reasons in the eval's metadata)."""
    samples, skipped = retrieval_samples_with_skips(formats, questions_file)
    note = "; ".join(f"{fmt} skips {len(ids)}" for fmt, ids in sorted(skipped.items()))
    return MemoryDataset(samples, name=f"retrieval{' (' + note + ')' if note else ''}")
