"""Retrieval over data formats: seeded Faker datasets, code-generated exact-answer questions, and the loaders.

Split by seam (each module says why it exists):

* ``common``    — paths, seed, the TOON-style prompt, corruption kinds;
* ``generate``  — the seeded Faker datasets and their question specs;
* ``questions`` — exact-answer question generation and the files in ``data/retrieval`` (``--write``/``--check``);
* ``conditions`` — ``-T formats=`` entries (``NAME[:noprimer|:full]``, ``all``) checked against the data formats;
* ``corrupt``   — structural corruption applied to encoded text, per format;
* ``load``      — a questions JSONL and its datasets → Inspect Samples in every chosen format;
* ``analysis``  — TeaLeaf task files analysed in every chosen format;
* ``suite``     — a peer's suite folder (TOON's published layout) run unchanged, our formats beside it.

The public names stay importable from ``coonbench.datasets.retrieval``.
"""

from __future__ import annotations

from coonbench.datasets.retrieval.analysis import TEALEAF_HINT_KEYS, analysis_pending, analysis_samples
from coonbench.datasets.retrieval.common import (
    CATEGORY,
    CORRUPTIONS,
    DATASET_VERSION,
    DEFAULT_FORMATS,
    PROMPT,
    QUESTIONS_FILE,
    REQUIRED_FIELDS,
    RETRIEVAL_DIR,
    ROW_FORMATS,
    SEED,
    VALIDATION_QUESTION,
    format_label,
)
from coonbench.datasets.retrieval.conditions import DataCondition, data_format_names, parse_conditions, parse_formats
from coonbench.datasets.retrieval.corrupt import corrupt_encoded
from coonbench.datasets.retrieval.generate import DOMAINS, Field, Spec, dataset_specs, validation_bases
from coonbench.datasets.retrieval.load import (
    QuestionsFileError,
    build_prompt,
    question_sample,
    read_questions,
    retrieval_dataset,
    retrieval_pending,
    retrieval_samples,
    retrieval_samples_with_skips,
    skip_summary,
)
from coonbench.datasets.retrieval.questions import generate_questions, main, render_files, write

__all__ = [
    "CATEGORY", "CORRUPTIONS", "DATASET_VERSION", "DEFAULT_FORMATS", "DOMAINS", "PROMPT",
    "QUESTIONS_FILE", "REQUIRED_FIELDS", "RETRIEVAL_DIR", "ROW_FORMATS", "SEED", "TEALEAF_HINT_KEYS",
    "VALIDATION_QUESTION", "DataCondition", "Field", "parse_conditions", "QuestionsFileError", "Spec", "analysis_pending", "analysis_samples", "build_prompt",
    "corrupt_encoded", "dataset_specs", "format_label", "generate_questions", "main", "parse_formats",
    "question_sample", "read_questions", "render_files", "retrieval_dataset", "retrieval_pending", "retrieval_samples", "data_format_names",
    "retrieval_samples_with_skips", "skip_summary", "validation_bases", "write",
]
