"""The structure-awareness dataset: does a model know COON's own conventions (issue 4, item 3)?

Its questions are generated from the dialect's tables, codec and validator (``coonbench.datasets.structure_questions``,
the ground truth) and shipped as ``data/structure/questions.v1.jsonl``: ``python -m coonbench.datasets.structure
--write`` regenerates the file (byte-identical on every run; a test regenerates it and compares). The loader reads
the file and renders every question under each chosen primer condition (``none``, ``short``, ``full``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

from inspect_ai.dataset import MemoryDataset, Sample

from coonbench.datasets.question_files import questions_main, read_records, render_records
from coonbench.datasets.structure_questions import (  # QUESTION_TYPES: what the task's ``kinds`` takes
    QUESTION_TYPES,
    SEED,
    StructureQuestion,
    build_questions,
    question_types,
)
from coonbench.formats import get_format
from coonbench.resources import DATA_DIR
from coonbench.tasks.context import BuildContext
from coonbench.tasks.prompts import DEFAULT_TEMPLATE, PromptTemplate, Rendered, render, template_set
from coonbench.tasks.samples import choose, sample_metadata
from coonbench.tasks.subset import Pending

DATASET_VERSION = 1
QUESTIONS_FILE = DATA_DIR / "structure" / f"questions.v{DATASET_VERSION}.jsonl"
CATEGORY = "structure"

# primer parameter value → (metadata format, primer shown, primer variant)
CONDITIONS: dict[str, tuple[str, bool, str]] = {
    "none": ("coon-noprimer", False, "short"),
    "short": ("coon", True, "short"),
    "full": ("coon-fullprimer", True, "full"),
}

# --- prompts ---------------------------------------------------------------------------------------------------

USER_PROMPT = """This is a question about COON, a compressed notation for Flutter/Dart source code.

{question}

{rules}
Reply with the answer only, on one line, with no explanation."""

# Equivalent wordings of USER_PROMPT (``-T prompts=``; ``coonbench.tasks.prompts``): same fields, same content.
TEMPLATES = template_set(
    PromptTemplate(DEFAULT_TEMPLATE, USER_PROMPT),
    PromptTemplate("reworded", """The question below concerns COON, a compact notation in which Flutter/Dart source code is written.

{question}

{rules}
Give only the answer, on a single line, without explaining it."""),
    PromptTemplate("question-first", """{rules}
Reply with the answer only, on one line, with no explanation.

{question}

(This is a question about COON, a compressed notation for Flutter/Dart source code.)"""),
    PromptTemplate("system", system="""You answer questions about COON, a compressed notation for Flutter/Dart source code.
{rules}
Reply with the answer only, on one line, with no explanation.""", user="{question}"),
)

# --- questions -------------------------------------------------------------------------------------------------


def render_jsonl(questions: list[StructureQuestion]) -> str:
    """The JSONL text of a question list (one record a line, keys sorted, version tagged)."""
    return render_records(questions, DATASET_VERSION)


def load_questions(path: Path = QUESTIONS_FILE) -> list[StructureQuestion]:
    """Questions from a JSONL file; a malformed line raises ValueError naming file, line and field."""
    return read_records(path, StructureQuestion, DATASET_VERSION)


def select_questions(kinds: str | Sequence[str] | None = None, seed: int = SEED) -> list[StructureQuestion]:
    """The selected question types' questions in the generator's order: read from the shipped file, which holds
    the generator's questions for ``SEED``; only another seed generates them (every snippet encoded and validated)."""
    if seed != SEED:
        return build_questions(kinds, seed)
    wanted = question_types(kinds)
    return [q for q in load_questions() if q.question_type in wanted]


def render_prompt(q: StructureQuestion, ctx: BuildContext) -> Rendered:
    """The prompt of a question under ``ctx``'s template (``coonbench.tasks.prompts``)."""
    return render(TEMPLATES, ctx, question=q.question, rules=q.rules)


def question_sample(q: StructureQuestion, primer: str, ctx: BuildContext) -> Sample:
    """One question under one primer condition (``none``, ``short`` or ``full``), built for ``ctx``."""
    condition, shown, variant = CONDITIONS[primer]
    prompt = render_prompt(q, ctx)
    primer_text = get_format("coon").primer(variant) if shown else None  # type: ignore[arg-type]
    return Sample(
        id=f"{q.id}-{condition}",
        input=prompt.input,
        target=q.answer,
        metadata=sample_metadata(
            format=condition,
            category=CATEGORY,
            question_type=q.question_type,
            complexity=q.complexity,
            input_text=prompt.text(primer_text),
            tokenizer=ctx.tokenizer,
            encoding="coon",
            primer=shown,
            primer_variant=variant,
            answer_type=q.answer_type,
            normalize_options=dict(q.normalize_options),
            source=q.source,
        ),
    )


def structure_pending(
    kinds: str | Sequence[str] | None = None, primer: str | Sequence[str] = "short", seed: int = SEED
) -> list[Pending]:
    """``structure_dataset``'s samples not built yet (``coonbench.tasks.subset.Pending``): ``-T questions=N``
    renders and counts the tokens of only the questions drawn. The questions are read from the shipped file (the
    draw needs every question's type and band); none is generated."""
    conditions = choose("primer", primer, list(CONDITIONS), "primer") or ["short"]
    return [Pending(q.id, (q.complexity, q.question_type), CONDITIONS[c][0], partial(question_sample, q, c))
            for q in select_questions(kinds, seed) for c in conditions]  # the key: the id less ``-<condition>``


def structure_dataset(
    kinds: str | Sequence[str] | None = None, primer: str | Sequence[str] = "short", seed: int = SEED
) -> MemoryDataset:
    """Every selected question under every selected primer condition (condition-major within each question), built
    for the default context."""
    ctx = BuildContext()
    return MemoryDataset([p.build(ctx) for p in structure_pending(kinds, primer, seed)], name="coonbench-structure")


def main(argv: list[str] | None = None) -> int:
    return questions_main(argv, __doc__, QUESTIONS_FILE, DATASET_VERSION, build_questions)


if __name__ == "__main__":
    raise SystemExit(main())
