"""The modification dataset: edit a program given in COON (or Dart) and reply with the whole edited program.

Each task is derived from one corpus sample by code: an edit is chosen on the syntax tree and applied to the Dart
source as byte-range replacements, which gives the expected program (the gold). Kinds:

- ``add-widget``: append a given widget to a static ``children:`` list;
- ``change-property``: change one literal in a named argument (a number, an enum/colour member, a string) or the
  text of a ``Text``;
- ``remove-widget``: remove a widget from a static list, or an optional named child (``appBar:``, ``leading:``…);
- ``refactor``: extract a widget subtree into a new ``StatelessWidget`` class and use it in its place. Several
  answers are right here, so it is checked by requirements: the class exists and extends ``StatelessWidget``, and
  inlining its ``build`` expression back into its uses gives the original program;
- ``fix-bug``: a seeded defect to undo — ``wrong-property`` (a ``MainAxisAlignment`` given to
  ``crossAxisAlignment:`` or the reverse), ``missing-setstate`` (a state change taken out of its ``setState``),
  ``null-safety`` (a non-nullable field stripped of its initialiser).

The answer is expected in the format of the input (``input_format``: any lossless registered code format, as a
condition of ``coonbench.tasks.conditions``; ``corpus=DIR`` derives the tasks from a user's Dart directory). Edits other than the
refactor are scored by AST equivalence with the gold after ``normalise_program`` (docs/normalisation.md).
Widgets are named in instructions only by descriptions that match exactly one widget of their class.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from coonbench.datasets.generation import fenced, judge_criteria, requirement_lines
from coonbench.formats import format_label, language_of
from coonbench.languages import Language, default_language
from coonbench.tasks.conditions import (
    Condition,
    Skip,
    conditions_language,
    encoded,
    parse_condition,
    parse_conditions,
    refusal,
)
from coonbench.datasets.corpus import CorpusSample
from coonbench.datasets.user_corpus import select_corpus
from coonbench.tasks.context import BuildContext
from coonbench.tasks.prompts import DEFAULT_TEMPLATE, PromptTemplate, prompt_words, render, template_set
from coonbench.tasks.samples import TaskArgumentError, choose, sample_metadata, split_param
from coonbench.tasks.subset import Pending
from coonbench.tokens import count_tokens

MODIFICATION_PROMPT = """Here is a {program} in {format_label}.

```{fence}
{code}
```

Task: {instruction}

Reply with the complete modified program in {format_name}, in one ```{fence} code block. Change nothing else."""

# Equivalent wordings of MODIFICATION_PROMPT (``-T prompts=``; ``coonbench.tasks.prompts``): same fields, same content.
TEMPLATES = template_set(
    PromptTemplate(DEFAULT_TEMPLATE, MODIFICATION_PROMPT),
    PromptTemplate("reworded", """The {program} below is written in {format_label}.

```{fence}
{code}
```

Make this change: {instruction}

Leave everything else as it is, and give back the whole edited program in {format_name}, in one ```{fence} code block."""),
    PromptTemplate("question-first", """Task: {instruction}

Reply with the complete modified program in {format_name}, in one ```{fence} code block. Change nothing else.

The {program} to modify, in {format_label}:

```{fence}
{code}
```"""),
    PromptTemplate("system", system="""You edit {program}s written in {format_label}. Apply the task the user gives to the program \
they show, change nothing else, and reply with the complete modified program in {format_name}, in one ```{fence} code \
block.""", user="""```{fence}
{code}
```

Task: {instruction}"""),
)

@dataclass(frozen=True)
class ModificationTask:
    """One edit of one corpus sample: the program shown, the instruction, and how the reply is judged."""

    id: str
    sample_id: str
    kind: str
    subtype: str
    band: str
    instruction: str
    before: str  # Dart source shown (in the input format)
    after: str  # Dart source of the expected program
    check: str = "ast"  # "ast" or "requirements"
    requirements: list[dict[str, Any]] = field(default_factory=list)


def tasks_for_sample(
    sample_id: str, band: str, source: str, kinds: Sequence[str], language: Language
) -> list[ModificationTask]:
    """Every applicable edit of ``kinds`` for one sample (the language's edit makers: at most one per kind and
    fix-bug subtype)."""
    return [
        ModificationTask(
            id=f"modification-{sample_id}-{e.suffix}",
            sample_id=sample_id,
            kind=e.kind,
            subtype=e.subtype,
            band=band,
            instruction=e.instruction,
            before=e.before,
            after=e.after,
            check=e.check,
            requirements=e.requirements,
        )
        for e in language.make_edits(sample_id, source, kinds)
    ]


def build_modification_tasks(
    kinds: str | Sequence[str] | None = None,
    bands: str | Sequence[str] | None = None,
    *,
    files: Sequence[CorpusSample] | None = None,
    language: Language | None = None,
) -> list[ModificationTask]:
    """Every modification task over the chosen corpus bands (or ``files``) of ``language`` (default: the default
    code language's): file order, then kind order."""
    from coonbench.datasets.corpus import load_corpus

    language = language or default_language()
    wanted = edit_kinds(kinds, language)
    band_list = split_param(bands)
    if files is None:
        files = load_corpus(bands=band_list, language=language) if band_list else load_corpus(language=language)
    tasks: list[ModificationTask] = []
    for sample in files:
        tasks.extend(tasks_for_sample(sample.id, sample.band, sample.source, wanted, language))
    return tasks


def edit_kinds(kinds: str | Sequence[str] | None, language: Language) -> list[str]:
    """The chosen edit kinds (all of the language's by default); TaskArgumentError for one the language has no
    maker of, or a language with none."""
    if not language.edit_kinds:
        raise TaskArgumentError(f"modification: the language '{language.name}' has no edit maker")
    return choose("kinds", kinds, language.edit_kinds, "modification kind") or list(language.edit_kinds)


def modification_sample(task: ModificationTask, input_format: str | Condition, primer_variant: str,
                        ctx: BuildContext) -> Sample:
    """One task shown in a condition's format, built for ``ctx``; the reply is expected in the same format."""
    cond = parse_condition(input_format) if isinstance(input_format, str) else input_format
    fmt = cond.fmt
    # a legend of the plain encoding: the reply is checked to be COON's own spelling, not Dart
    shown, primer = cond.show(task.before, primer_variant, economise_in=None)
    gold_text = encoded(fmt, task.after)  # checked by refusal: encoded once
    label = format_label(cond.format, prompt=True)
    prompt = render(
        TEMPLATES,
        ctx,
        **prompt_words(language_of(fmt)),
        format_label=label,
        format_name="COON" if cond.format == "coon" else label,
        fence=fmt.fence,
        code=shown.strip("\n"),
        instruction=task.instruction,
    )
    gold = fenced(gold_text, fmt.fence)
    return Sample(
        id=f"{task.id}-{cond.label}",
        input=prompt.input,
        target=gold_text,
        metadata=sample_metadata(
            format=cond.label,
            category="modification",
            question_type=task.kind,
            complexity=task.band,
            input_text=prompt.text(primer),
            tokenizer=ctx.tokenizer,
            gold=gold,
            **cond.metadata(primer_variant, primer, tokenizer=ctx.tokenizer),
            answer_format=cond.format,
            pair_id=task.id,
            gold_output_tokens=count_tokens(gold, ctx.tokenizer),
            subtype=task.subtype,
            sample_id=task.sample_id,
            check=task.check,
            reference=task.after if task.check == "ast" else None,
            start=fenced(shown.strip("\n"), fmt.fence),  # the program shown: the no-edit baseline's reply
            requirements=task.requirements,
            normalise=True,
            criteria=judge_criteria(
                label, requirement_lines(language_of(fmt), task.requirements, task.after), [task.instruction]
            ),
        ),
    )


def modification_samples(
    kinds: str | Sequence[str] | None = None,
    bands: str | Sequence[str] | None = None,
    input_format: str | Sequence[str] = "coon",
    corpus: str | None = None,
    primer_variant: str = "short",
    ctx: BuildContext | None = None,
) -> tuple[list[Sample], list[Skip]]:
    """Samples of every task in every condition (task-major) for ``ctx`` (the default context when None), and the
    (task, condition) pairs left out, with the reason: the format cannot carry the program before or after the edit
    (lossy formats are refused up front, since the reply is decoded)."""
    pending, skips = modification_pending(kinds, bands, input_format, corpus, primer_variant)
    ctx = ctx if ctx is not None else BuildContext()
    return [p.build(ctx) for p in pending], skips


def modification_pending(
    kinds: str | Sequence[str] | None = None,
    bands: str | Sequence[str] | None = None,
    input_format: str | Sequence[str] = "coon",
    corpus: str | None = None,
    primer_variant: str = "short",
) -> tuple[list[Pending], list[Skip]]:
    """``modification_samples``' samples not built yet (``coonbench.tasks.subset.Pending``: ``-T questions=N``
    renders only the tasks drawn), and the skips; every (task, condition) is checked, since the draw keeps only
    tasks every condition can show."""
    conditions = parse_conditions(input_format, ("coon",), need_decode=True, param="input_format")
    language = conditions_language(conditions)
    files, skips = select_corpus(corpus, split_param(bands), language)
    pending: list[Pending] = []
    for task in build_modification_tasks(kinds, None, files=files, language=language):
        for cond in conditions:
            reason = refusal(cond.format, task.before, need_roundtrip=True)
            if reason is None:
                after = refusal(cond.format, task.after, need_roundtrip=True)
                reason = None if after is None else f"{after} (the edited program)"
            if reason is None:  # pair_id, complexity, question_type and format, as modification_sample writes them
                build = partial(modification_sample, task, cond, primer_variant)
                pending.append(Pending(task.id, (task.band, task.kind), cond.label, build))
            else:
                skips.append(Skip(task.id, cond.label, reason))
    return pending, skips


def modification_dataset(
    kinds: str | Sequence[str] | None = None,
    bands: str | Sequence[str] | None = None,
    input_format: str | Sequence[str] = "coon",
    corpus: str | None = None,
) -> MemoryDataset:
    """Modification samples in each chosen input format condition (task-major)."""
    samples, _ = modification_samples(kinds, bands, input_format, corpus)
    return MemoryDataset(samples, name="coonbench-modification")
