"""The comprehension dataset: AST-derived questions over the Dart corpus, shown to the model in each format.

``python -m coonbench.datasets.comprehension --write`` regenerates ``data/comprehension/questions.v1.jsonl`` from
``data/dart/`` (byte-identical on every run; a test checks it). The loader renders every question in every chosen
format condition: ``coon`` (with its primer), ``coon-noprimer``, ``dart`` and ``dart-minified``.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from coonbench.dart.questions import Question, generate_questions
from coonbench.datasets.corpus import CorpusSample, load_corpus
from coonbench.formats import get_format
from coonbench.paths import DATA_DIR
from coonbench.samples import FORMAT_LABELS, sample_metadata, split_param

DATASET_VERSION = 1
QUESTIONS_FILE = DATA_DIR / "comprehension" / f"questions.v{DATASET_VERSION}.jsonl"
SEED = 20261121

# condition name → (registry format, primer shown)
CONDITIONS: dict[str, tuple[str, bool]] = {
    "coon": ("coon", True),
    "coon-noprimer": ("coon", False),
    "dart": ("dart", True),
    "dart-minified": ("dart-minified", True),
}
DEFAULT_CONDITIONS = ("coon", "coon-noprimer", "dart", "dart-minified")

USER_PROMPT = """Below is Flutter/Dart code written in {format_label}.

```{fence}
{code}
```

Question: {question}

{rules}
Reply with the answer only, on one line, with no explanation."""

ANSWER_RULES: dict[str, str] = {
    "integer": "Answer with a single integer.",
    "number": "Answer with a single number.",
    "boolean": "Answer YES or NO.",
    "string": "Answer with the exact text (no quotes).",
    "widget-name": "Answer with a single Flutter widget class name.",
    "csv-list-unordered": "Answer with a comma-separated list of Flutter widget class names, in any order.",
    "csv-list-ordered": "Answer with a comma-separated list, in order.",
}


def build_questions(seed: int = SEED) -> list[Question]:
    """All questions for the corpus, in corpus order (deterministic)."""
    questions: list[Question] = []
    for sample in load_corpus():
        questions.extend(generate_questions(sample.id, sample.source, seed=seed))
    return questions


def render_jsonl(questions: list[Question]) -> str:
    """The JSONL text of a question list (one record a line, keys sorted, version tagged)."""
    lines = [
        json.dumps({"version": DATASET_VERSION, **q.to_record()}, sort_keys=True, ensure_ascii=False)
        for q in questions
    ]
    return "\n".join(lines) + "\n"


def load_questions(path: Path = QUESTIONS_FILE) -> list[Question]:
    """Questions from a JSONL file; a malformed line raises ValueError naming file, line and field."""
    fields = set(Question.__dataclass_fields__)
    out: list[Question] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise ValueError(f"{path}:{lineno}: invalid JSON: {err.msg}") from None
        missing = sorted(fields - {"normalize_options"} - set(record))
        if missing:
            raise ValueError(f"{path}:{lineno}: missing field '{missing[0]}'")
        out.append(Question(**{k: record[k] for k in fields if k in record}))
    return out


@lru_cache(maxsize=None)
def _encoded(source: str, registry_format: str) -> str:
    return get_format(registry_format).encode(source)


def primer_text(condition: str, variant: str = "short") -> str | None:
    """The system primer for a condition, or None when the condition shows none."""
    registry_format, with_primer = CONDITIONS[condition]
    return get_format(registry_format).primer(variant) if with_primer else None  # type: ignore[arg-type]


def question_sample(
    q: Question, condition: str, sample: CorpusSample, primer_variant: str = "short"
) -> Sample:
    """One question rendered in one format condition."""
    registry_format, _ = CONDITIONS[condition]
    fmt = get_format(registry_format)
    prompt = USER_PROMPT.format(
        format_label=FORMAT_LABELS.get(registry_format, registry_format),
        fence=fmt.fence,
        code=_encoded(sample.source, registry_format).strip("\n"),
        question=q.question,
        rules=ANSWER_RULES[q.answer_type if q.answer_type in ANSWER_RULES else "string"],
    )
    primer = primer_text(condition, primer_variant)
    return Sample(
        id=f"{q.id}-{condition}",
        input=prompt,
        target=q.answer,
        metadata=sample_metadata(
            format=condition,
            category="comprehension",
            question_type=q.question_type,
            complexity=sample.band,
            input_text=f"{primer}\n\n{prompt}" if primer else prompt,
            encoding=registry_format,
            primer=primer is not None,
            primer_variant=primer_variant,
            subtype=q.subtype,
            sample_id=q.sample_id,
            answer_type=q.answer_type,
            normalize_options=q.normalize_options,
        ),
    )


def comprehension_dataset(
    formats: str | list[str] | None = None,
    bands: str | list[str] | None = None,
    question_types: str | list[str] | None = None,
    primer_variant: str = "short",
    questions_file: str | Path | None = None,
) -> MemoryDataset:
    """Every selected question in every selected format condition (format-major within each question)."""
    conditions = split_param(formats) or list(DEFAULT_CONDITIONS)
    unknown = [c for c in conditions if c not in CONDITIONS]
    if unknown:
        raise ValueError(f"unknown format '{unknown[0]}' (expected one of {', '.join(CONDITIONS)})")
    corpus = {s.id: s for s in load_corpus()}
    wanted_bands = split_param(bands)
    wanted_types = split_param(question_types)
    questions = load_questions(Path(questions_file) if questions_file else QUESTIONS_FILE)
    samples = [
        question_sample(q, c, corpus[q.sample_id], primer_variant)
        for q in questions
        if (wanted_bands is None or corpus[q.sample_id].band in wanted_bands)
        and (wanted_types is None or q.question_type in wanted_types)
        for c in conditions
    ]
    return MemoryDataset(samples, name="coonbench-comprehension")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help=f"write {QUESTIONS_FILE}")
    args = parser.parse_args(argv)
    questions = build_questions()
    text = render_jsonl(questions)
    if args.write:
        QUESTIONS_FILE.parent.mkdir(parents=True, exist_ok=True)
        QUESTIONS_FILE.write_text(text, encoding="utf-8")
    counts: dict[str, Any] = Counter(q.question_type for q in questions)
    print(f"{len(questions)} questions: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
