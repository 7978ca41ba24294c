"""The comprehension dataset: AST-derived questions over the Dart corpus, shown to the model in each format.

``python -m coonbench.datasets.comprehension --write`` regenerates ``data/comprehension/questions.v1.jsonl`` from
``data/dart/`` (byte-identical on every run; a test checks it). The loader renders every question in every chosen
format condition (``coonbench.tasks.conditions``: any registered code format, ``:noprimer``/``:full`` for the primer);
by default ``coon`` (with its primer), ``coon-noprimer``, ``dart`` and ``dart-minified``. ``corpus=DIR`` asks
questions generated on the spot from any directory of the formats' language (``coonbench.datasets.user_corpus``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, partial
from pathlib import Path

from inspect_ai.dataset import MemoryDataset, Sample

from coonbench.tasks.conditions import (
    Condition,
    Skip,
    conditions_language,
    lossy_roundtrip,
    parse_condition,
    parse_conditions,
    refusal,
)
from coonbench.datasets.corpus import CorpusSample, corpus_of, load_corpus
from coonbench.languages import DEFAULT_LANGUAGE, Language, Question, default_language
from coonbench.datasets.question_files import questions_main, read_records, render_records
from coonbench.datasets.user_corpus import select_corpus
from coonbench.formats import format_label, language_of
from coonbench.resources import DATA_DIR
from coonbench.tasks.context import BuildContext
from coonbench.tasks.prompts import DEFAULT_TEMPLATE, PromptTemplate, prompt_words, render, template_set
from coonbench.tasks.samples import choose, sample_metadata, split_param
from coonbench.tasks.subset import Pending

DATASET_VERSION = 1
QUESTIONS_FILE = DATA_DIR / "comprehension" / f"questions.v{DATASET_VERSION}.jsonl"
SEED = 20261121

# The default comparison (``coon-noprimer`` is the alias of ``coon:noprimer``; see ``coonbench.tasks.conditions``).
DEFAULT_CONDITIONS = ("coon", "coon:noprimer", "dart", "dart-minified")

USER_PROMPT = """Below is {language} code written in {format_label}.

```{fence}
{code}
```

Question: {question}

{rules}
Reply with the answer only, on one line, with no explanation."""

# Equivalent wordings of USER_PROMPT (``-T prompts=``; ``coonbench.tasks.prompts``): same fields, same content.
TEMPLATES = template_set(
    PromptTemplate(DEFAULT_TEMPLATE, USER_PROMPT),
    PromptTemplate("reworded", """The following {language} program is given in {format_label}.

```{fence}
{code}
```

Please answer this question about it: {question}

{rules}
Give only the answer, on a single line, without explaining it."""),
    PromptTemplate("question-first", """Question: {question}

{rules}
Reply with the answer only, on one line, with no explanation.

The question is about this {language} code, written in {format_label}:

```{fence}
{code}
```"""),
    PromptTemplate("system", system="""You answer questions about {language} code written in {format_label}.
{rules}
Reply with the answer only, on one line, with no explanation.""", user="""```{fence}
{code}
```

Question: {question}"""),
)

ANSWER_RULES: dict[str, str] = {
    "integer": "Answer with a single integer.",
    "number": "Answer with a single number.",
    "boolean": "Answer YES or NO.",
    "string": "Answer with the exact text (no quotes).",
    "csv-list-unordered": "Answer with a comma-separated list, in any order.",
    "csv-list-ordered": "Answer with a comma-separated list, in order.",
}
"""The rule a prompt gives per answer type; a language words its own types, and its lists, itself
(``Language.answer_rules``)."""


def build_questions(seed: int = SEED, language: Language | None = None) -> list[Question]:
    """All questions for the language's corpus (the default language's by default), in corpus order
    (deterministic)."""
    language = language or default_language()
    questions: list[Question] = []
    for sample in load_corpus(language=language):
        questions.extend(language.generate_questions(sample.id, sample.source, seed=seed))
    return questions


def render_jsonl(questions: list[Question]) -> str:
    """The JSONL text of a question list (one record a line, keys sorted, version tagged)."""
    return render_records(questions, DATASET_VERSION)


def load_questions(path: Path = QUESTIONS_FILE) -> list[Question]:
    """Questions from a JSONL file; a malformed line raises ValueError naming file, line and field."""
    return read_records(path, Question, DATASET_VERSION)


@lru_cache(maxsize=None)
def _shown(source: str, cond: Condition, primer_variant: str, tokenizer: str) -> tuple[str, str | None]:
    """The document and primer a condition shows for ``source`` (a legend is made for its document, economised in
    ``tokenizer``, the one the samples count in)."""
    return cond.show(source, primer_variant, economise_in=tokenizer)


def primer_text(condition: str, variant: str = "short") -> str | None:
    """The system primer for a condition (``coon``, ``coon:noprimer``, ``coon-noprimer``…), or None."""
    return parse_condition(condition).primer_text(variant)


def answer_rule(answer_type: str, language: Language) -> str:
    """The rule the prompt gives for an answer type: the language's wording, else the task's (``string``'s for a
    type with none)."""
    rules = {**ANSWER_RULES, **language.answer_rules}
    return rules[answer_type if answer_type in rules else "string"]


def question_sample(
    q: Question, condition: str | Condition, sample: CorpusSample, primer_variant: str, ctx: BuildContext
) -> Sample:
    """One question rendered in one format condition for ``ctx`` (the format must be able to encode the source)."""
    cond = parse_condition(condition) if isinstance(condition, str) else condition
    fmt = cond.fmt
    language = language_of(fmt)
    code, primer = _shown(sample.source, cond, primer_variant, ctx.tokenizer)
    prompt = render(
        TEMPLATES,
        ctx,
        **prompt_words(language),
        format_label=format_label(cond.format, f"{cond.format} ({fmt.description})", prompt=True),
        fence=fmt.fence,
        code=code.strip("\n"),
        question=q.question,
        rules=answer_rule(q.answer_type, language),
    )
    return Sample(
        id=f"{q.id}-{cond.label}",
        input=prompt.input,
        target=q.answer,
        metadata=sample_metadata(
            format=cond.label,
            category="comprehension",
            question_type=q.question_type,
            complexity=sample.band,
            input_text=prompt.text(primer),
            tokenizer=ctx.tokenizer,
            **cond.metadata(primer_variant, primer, tokenizer=ctx.tokenizer),
            **dict(lossy_roundtrip(cond.format, sample.source)),
            pair_id=q.id,
            subtype=q.subtype,
            sample_id=q.sample_id,
            answer_type=q.answer_type,
            **({"normalize_options": q.normalize_options} if q.normalize_options else {}),
            # the scorer does not take a widget the question itself names as the answer (the question is in the
            # input too: metadata carries it only where the scorer reads it, since Inspect copies metadata often)
            **({"question": q.question} if q.answer_type in language.answer_types() else {}),
        ),
    )


def comprehension_samples(
    formats: str | list[str] | None = None,
    bands: str | list[str] | None = None,
    question_types: str | list[str] | None = None,
    primer_variant: str = "short",
    questions_file: str | Path | None = None,
    corpus: str | Path | None = None,
    ctx: BuildContext | None = None,
) -> tuple[list[Sample], list[Skip]]:
    """Every selected question in every selected condition, built for ``ctx`` (the default context when None), and
    what was skipped (with the reason).

    With ``corpus`` (a directory of the language's files), questions are generated from its files' ASTs
    (``questions_file`` is then not used); files that do not parse are skipped. A (file, condition) whose format
    refuses the file, or whose lossless encoding does not decode back to an equivalent program, is skipped for that
    condition. Lossy formats are accepted: the model only reads them, and the answers are computed from the
    source.
    """
    pending, skips = comprehension_pending(formats, bands, question_types, primer_variant, questions_file, corpus)
    ctx = ctx if ctx is not None else BuildContext()
    return [p.build(ctx) for p in pending], skips


def generated_questions(files: Sequence[CorpusSample], language: Language, skips: list[Skip]) -> list[Question]:
    """The questions the language's generators ask of ``files`` (a file with none is appended to ``skips``)."""
    questions: list[Question] = []
    for f in files:
        found = language.generate_questions(f.id, f.source, seed=SEED)
        if not found:
            skips.append(Skip(f.id, "*", "no questions: the generators found no widget class to ask about"))
        questions.extend(found)
    return questions


def executed_questions_file(language: str) -> Path:
    """Where the questions of a language's built-in corpus whose answers came from running its code live (output
    prediction: ``coonbench.datasets.output_prediction`` writes Python's)."""
    return DATA_DIR / "comprehension" / f"{language}-outputs.v{DATASET_VERSION}.jsonl"


def executed_questions(language: Language, files: Sequence[CorpusSample]) -> list[Question]:
    """The committed run-derived questions about ``files`` (none for a language without such a file): committed,
    so that building a task never runs code."""
    path = executed_questions_file(language.name)
    known = {f.id for f in files}
    return [q for q in load_questions(path) if q.sample_id in known] if path.is_file() else []


def builtin_questions(language: Language) -> tuple[list[CorpusSample], list[Question]]:
    """The language's built-in corpus and its questions: the committed ``QUESTIONS_FILE`` for the default language
    (a change of its generators shows in review), generated on the spot for another, with its run-derived ones."""
    files = load_corpus(language=language)
    if language.name == DEFAULT_LANGUAGE:
        return files, load_questions()
    return files, generated_questions(files, language, []) + executed_questions(language, files)


def comprehension_pending(
    formats: str | list[str] | None = None,
    bands: str | list[str] | None = None,
    question_types: str | list[str] | None = None,
    primer_variant: str = "short",
    questions_file: str | Path | None = None,
    corpus: str | Path | None = None,
) -> tuple[list[Pending], list[Skip]]:
    """``comprehension_samples``' samples not built yet (``coonbench.tasks.subset.Pending``: ``-T questions=N``
    renders only the questions drawn), and the skips; every (file, condition) is checked, since the draw keeps
    only questions every condition can show."""
    conditions = parse_conditions(formats, DEFAULT_CONDITIONS)
    language = conditions_language(conditions)
    wanted_bands = split_param(bands)
    wanted_types = choose("question_types", question_types, language.question_types, "question type")
    if corpus or (questions_file is None and language.name != DEFAULT_LANGUAGE):
        files, skips = select_corpus(corpus, wanted_bands, language)
        questions = generated_questions(files, language, skips) + ([] if corpus else executed_questions(language, files))
    else:
        choose("bands", wanted_bands, corpus_of(language).bands, "band")
        files, skips = load_corpus(language=language), []
        questions = load_questions(Path(questions_file) if questions_file else QUESTIONS_FILE)
    by_id = {s.id: s for s in files}
    refused: dict[tuple[str, str], str | None] = {}
    pending: list[Pending] = []
    for q in questions:
        source = by_id.get(q.sample_id)
        if source is None:
            raise ValueError(f"question {q.id}: sample '{q.sample_id}' is not in the corpus")
        if (wanted_bands is not None and source.band not in wanted_bands) or (
            wanted_types is not None and q.question_type not in wanted_types
        ):
            continue
        for c in conditions:
            key = (source.id, c.label)
            if key not in refused:  # checked once per file and condition, recorded once
                refused[key] = refusal(c.format, source.source, need_roundtrip=True)
                if refused[key] is not None:
                    skips.append(Skip(source.id, c.label, str(refused[key])))
            if refused[key] is None:  # pair_id, complexity, question_type and format, as question_sample writes them
                build = partial(question_sample, q, c, source, primer_variant)
                pending.append(Pending(q.id, (source.band, q.question_type), c.label, build))
    return pending, skips


def comprehension_dataset(
    formats: str | list[str] | None = None,
    bands: str | list[str] | None = None,
    question_types: str | list[str] | None = None,
    primer_variant: str = "short",
    questions_file: str | Path | None = None,
    corpus: str | Path | None = None,
) -> MemoryDataset:
    """Every selected question in every selected format condition (format-major within each question)."""
    samples, _ = comprehension_samples(formats, bands, question_types, primer_variant, questions_file, corpus)
    return MemoryDataset(samples, name="coonbench-comprehension")


def main(argv: list[str] | None = None) -> int:
    return questions_main(argv, __doc__, QUESTIONS_FILE, DATASET_VERSION, build_questions)


if __name__ == "__main__":
    raise SystemExit(main())
