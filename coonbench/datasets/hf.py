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
from pathlib import Path
from typing import Any, Literal

from inspect_ai.dataset import Sample, hf_dataset

from coonbench.datasets.retrieval.common import CATEGORY, QUESTIONS_FILE
from coonbench.datasets.retrieval.conditions import parse_conditions
from coonbench.datasets.retrieval.corrupt import corrupt_encoded
from coonbench.datasets.retrieval.load import build_prompt, read_questions
from coonbench.formats import FormatError, get_format
from coonbench.resources import DATA_DIR
from coonbench.tasks.samples import sample_metadata

HfName = Literal["dart-corpus", "comprehension", "retrieval"]
HF_NAMES: tuple[str, ...] = ("dart-corpus", "comprehension", "retrieval")
COMPREHENSION_FILE = DATA_DIR / "comprehension" / "questions.v1.jsonl"
CORPUS_DIR = DATA_DIR / "dart"


def _rows(name: str) -> list[dict[str, Any]]:
    if name == "dart-corpus":
        manifest = json.loads((CORPUS_DIR / "manifest.json").read_text(encoding="utf-8"))
        return [{**{k: (json.dumps(v) if isinstance(v, (list, dict)) else v) for k, v in entry.items()},
                 "source": (CORPUS_DIR / entry["path"]).read_text(encoding="utf-8")} for entry in manifest["samples"]]
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
    path: str | Path, formats: str | Sequence[str] | None = None
) -> tuple[list[Sample], dict[str, list[dict[str, str]]]]:
    """Retrieval samples from a dataset folder written by ``save_hf("retrieval", …)`` (or any folder/file with
    the same columns), read through Inspect's ``hf_dataset``; refused formats are skipped with the reason."""
    conditions = parse_conditions(formats)
    skipped: dict[str, list[dict[str, str]]] = {}
    required = ("id", "question", "answer", "answer_type", "data")

    def to_samples(record: dict[str, Any]) -> list[Sample]:
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
        out = []
        for cond in conditions:
            fmt, label = cond.format, cond.label
            try:
                if corruption != "none":
                    text = corrupt_encoded(data, fmt, corruption)
                else:
                    text = get_format(fmt).encode(data)
            except FormatError as err:
                skipped.setdefault(label, []).append({"id": record["id"], "dataset": str(record.get("dataset", "")),
                                                    "reason": err.message})
                continue
            prompt = build_prompt(fmt, text, record["question"], cond.primer_text() if cond.primer != "short" else "")
            meta = sample_metadata(
                format=label, category=CATEGORY, question_type=record.get("question_type") or "custom",
                complexity=record.get("complexity") or "custom", input_text=prompt.text(),
                answer_type=record["answer_type"], normalize_options=options, pair_id=record["id"],
                dataset=record.get("dataset"), corruption=corruption, encoding=fmt, primer=cond.primer != "none",
            )
            out.append(Sample(id=f"{CATEGORY}-{record['id']}-{label}", input=prompt.input, target=str(record["answer"]),
                              metadata=meta))
        return out

    source = Path(path)
    kwargs: dict[str, Any] = {}
    if source.is_file():  # a single parquet/json(l) file: name the builder
        builder = {".parquet": "parquet", ".json": "json", ".jsonl": "json"}.get(source.suffix)
        if builder is None:
            raise ValueError(f"{path}: expected a dataset folder or a .parquet/.json/.jsonl file")
        kwargs = {"data_files": str(source)}
        dataset = hf_dataset(builder, split="train", sample_fields=to_samples, cached=False, retry=False, **kwargs)
    else:
        dataset = hf_dataset(str(source), split="train", sample_fields=to_samples, cached=False, retry=False)
    return list(dataset), skipped
