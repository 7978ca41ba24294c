"""Our corpora and question sets as Hugging Face ``datasets``, and retrieval questions read back through Inspect's
``hf_dataset`` — so they can be published, versioned and loaded by anyone's tooling.

    to_hf("dart-corpus")     one row per Dart file: manifest entry (id, band, metrics) + its source text
    to_hf("comprehension")   data/comprehension/questions.v1.jsonl as rows
    to_hf("retrieval")       our retrieval questions, each with its dataset inlined as JSON text (``data``)
    save_hf(name, out_dir)   writes ``out_dir/train.parquet``: a folder ``datasets.load_dataset`` and Inspect's
                             ``hf_dataset(out_dir, split="train")`` read offline

Columns whose values vary in shape (``normalize_options``, ``data``, list metrics) are JSON text so the Arrow
schema is fixed. ``-T questions_file=<folder>`` of the retrieval task reads such a folder (see
``hf_retrieval_samples``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any, Literal

from inspect_ai.dataset import Sample, hf_dataset

from coonbench.datasets.retrieval.common import QUESTIONS_FILE
from coonbench.datasets.retrieval.conditions import parse_conditions
from coonbench.datasets.retrieval.corrupt import corrupt_encoded
from coonbench.datasets.retrieval.load import question_sample, read_questions
from coonbench.datasets.corpus import corpus_of
from coonbench.formats import FormatError
from coonbench.languages import get_language
from coonbench.resources import DATA_DIR
from coonbench.tasks.context import BuildContext
from coonbench.tasks.subset import Pending

HfName = Literal["dart-corpus", "comprehension", "retrieval"]
HF_NAMES: tuple[str, ...] = ("dart-corpus", "comprehension", "retrieval")
COMPREHENSION_FILE = DATA_DIR / "comprehension" / "questions.v1.jsonl"


def _rows(name: str) -> list[dict[str, Any]]:
    if name == "dart-corpus":
        root = corpus_of(get_language("dart")).root  # the Dart language's built-in corpus
        manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
        return [{**{k: (json.dumps(v) if isinstance(v, (list, dict)) else v) for k, v in entry.items()},
                 "source": (root / entry["path"]).read_text(encoding="utf-8")} for entry in manifest["samples"]]
    if name == "comprehension":
        rows = [json.loads(line) for line in COMPREHENSION_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]
        return [{k: (json.dumps(v) if isinstance(v, (list, dict)) else v) for k, v in r.items()} for r in rows]
    if name == "retrieval":
        out = []
        for rec in read_questions(QUESTIONS_FILE):
            data_text = Path(rec["_data_path"]).read_text(encoding="utf-8")
            out.append({
                "id": rec["id"], "dataset": rec["dataset"], "question": rec["question"], "answer": str(rec["answer"]),
                "answer_type": rec["answer_type"], "question_type": rec.get("question_type", "custom"),
                "complexity": rec.get("complexity", "custom"), "corruption": rec.get("corruption", "none"),
                "normalize_options": json.dumps(rec.get("normalize_options")), "data": data_text,
            })
        return out
    raise ValueError(f"unknown dataset {name!r} (expected one of {', '.join(HF_NAMES)})")


def to_hf(name: HfName) -> Any:
    """A ``datasets.Dataset`` of one of our corpora or question sets."""
    from datasets import Dataset

    return Dataset.from_list(_rows(name))


def save_hf(name: HfName, out_dir: str | Path) -> Path:
    """Write ``out_dir/train.parquet`` (a folder ``load_dataset`` / ``hf_dataset`` read); returns the folder."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    to_hf(name).to_parquet(str(out / "train.parquet"))
    return out


def hf_retrieval_samples(
    path: str | Path, formats: str | Sequence[str] | None = None, ctx: BuildContext | None = None
) -> tuple[list[Sample], dict[str, list[dict[str, str]]]]:
    """Retrieval samples from a dataset folder written by ``save_hf("retrieval", …)`` (or any folder/file with
    the same columns), read through Inspect's ``hf_dataset`` and built for ``ctx`` (the default context when None);
    refused formats are skipped with the reason."""
    pending, skipped = hf_retrieval_pending(path, formats)
    ctx = ctx if ctx is not None else BuildContext()
    return [p.build(ctx) for p in pending], skipped


def hf_retrieval_pending(
    path: str | Path, formats: str | Sequence[str] | None = None
) -> tuple[list[Pending], dict[str, list[dict[str, str]]]]:
    """``hf_retrieval_samples``' samples not built yet (``coonbench.tasks.subset.Pending``), and the skips: every
    record is read and its dataset encoded in every format (a refusal keeps the question out of the draw); the
    prompt and its token counts wait for the draw."""
    conditions = parse_conditions(formats)
    skipped: dict[str, list[dict[str, str]]] = {}
    pending: list[Pending] = []
    required = ("id", "question", "answer", "answer_type", "data")

    def read(record: dict[str, Any]) -> list[Sample]:
        """Lists the record's samples in ``pending``; returns none (``hf_dataset`` wants samples back)."""
        for key in required:
            if record.get(key) in (None, ""):
                raise ValueError(f"{path}: record {record.get('id', '?')!r}: field '{key}' is missing or empty")
        try:
            data = json.loads(record["data"])
            options = json.loads(record.get("normalize_options") or "null")
        except json.JSONDecodeError as err:
            raise ValueError(f"{path}: record {record['id']!r}: field 'data'/'normalize_options' is not JSON: "
                             f"{err.msg}") from None
        corruption = record.get("corruption") or "none"
        rec = {"id": record["id"], "question": record["question"], "answer": record["answer"],
               "answer_type": record["answer_type"], "question_type": record.get("question_type") or "custom",
               "complexity": record.get("complexity") or "custom", "normalize_options": options,
               "dataset": record.get("dataset"), "corruption": corruption}  # as a questions file has them
        for cond in conditions:
            try:
                text = corrupt_encoded(data, cond.format, corruption)  # "none": the plain encoding
            except FormatError as err:
                skipped.setdefault(cond.label, []).append({"id": record["id"], "dataset": str(record.get("dataset", "")),
                                                           "reason": err.message})
                continue
            stratum = (str(rec["complexity"]), str(rec["question_type"]))
            pending.append(Pending(str(rec["id"]), stratum, cond.label, partial(question_sample, rec, cond, text)))
        return []

    source = Path(path)
    if source.is_file():  # a single parquet/json(l) file: name the builder
        builder = {".parquet": "parquet", ".json": "json", ".jsonl": "json"}.get(source.suffix)
        if builder is None:
            raise ValueError(f"{path}: expected a dataset folder or a .parquet/.json/.jsonl file")
        hf_dataset(builder, split="train", sample_fields=read, cached=False, retry=False, data_files=str(source))
    else:
        hf_dataset(str(source), split="train", sample_fields=read, cached=False, retry=False)
    return pending, skipped
