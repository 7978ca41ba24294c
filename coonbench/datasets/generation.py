"""The generation dataset: write COON from Dart, fill a hole in COON, or write COON from a description.

Every task comes from one corpus sample (``data/dart/``) and is computed by code, so the ground truth follows the
source:

- ``dart-to-coon``: the model sees the Dart source; the answer must decode to a program AST-equivalent to it.
- ``coon-completion``: the model sees the COON encoding of the source with one widget subtree replaced by the hole
  marker ``⟨HOLE⟩`` and an English description of the missing subtree, generated from the subtree itself (type,
  shown text, every argument in source order), so it determines the subtree. The answer must decode to a program
  AST-equivalent to the whole source: this implies that it validates and contains the removed subtree in its
  place. The score explanation says whether the subtree was at least present somewhere.
- ``nl-to-coon``: the model sees a list of requirements read off the source's tree (class and superclass, widgets
  with their texts, literal properties and an ancestor, ``setState`` in callbacks). The answer must decode and
  satisfy every requirement (``coonbench.dart.requirements``); the source itself is one right answer (the gold).

The gold reply (``metadata["gold"]``) is the encoded source in a code fence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from coonbench.tasks.conditions import LABEL_SUFFIX, Condition, Skip, conditions_language, parse_conditions, refusal
from coonbench.judging.criteria import sample_criteria
from coonbench.datasets.corpus import CorpusSample
from coonbench.datasets.user_corpus import select_corpus
from coonbench.tokens import count_tokens
from coonbench.formats import FormatError, format_label, get_format, language_of
from coonbench.languages import Language
from coonbench.tasks.context import BuildContext
from coonbench.tasks.prompts import DEFAULT_TEMPLATE, PromptTemplate, Rendered, prompt_words, render, template_set
from coonbench.tasks.samples import choose, sample_metadata, split_param
from coonbench.tasks.subset import Pending

GENERATION_KINDS: tuple[str, ...] = ("dart-to-coon", "coon-completion", "nl-to-coon")
HOLE = "⟨HOLE⟩"
_PLACEHOLDER = "coonbenchHole"  # an identifier standing for the hole while the program is encoded

DART_TO_COON_PROMPT = """Convert this {language} code to {format_label}.

```{source_fence}
{code}
```

Reply with the complete program in {format_name}, in one ```{fence} code block."""

COMPLETION_PROMPT = """Below is a program in {format_label} with one part missing, marked {hole}.
The missing part is {description}.

```{fence}
{code}
```

Reply with the complete program, with the hole filled in, in one ```{fence} code block."""

NL_PROMPT = """Write a {unit} in {format_label} that meets every requirement below.

{requirements}

Reply with the complete program in {format_name}, in one ```{fence} code block."""

# Equivalent wordings of each kind's prompt (``-T prompts=``; ``coonbench.tasks.prompts``): same fields, same content.
DART_TO_COON_TEMPLATES = template_set(
    PromptTemplate(DEFAULT_TEMPLATE, DART_TO_COON_PROMPT),
    PromptTemplate("reworded", """Rewrite the {language} program below in {format_label}.

```{source_fence}
{code}
```

Give back the whole program in {format_name}, inside a single ```{fence} code block."""),
    PromptTemplate("question-first", """Convert the {language} code at the end of this message to {format_label}. Reply with the complete \
program in {format_name}, in one ```{fence} code block.

```{source_fence}
{code}
```"""),
    PromptTemplate("system", system="""You convert {language} code to {format_label}. Reply with the complete program in \
{format_name}, in one ```{fence} code block.""", user="""```{source_fence}
{code}
```"""),
)
COMPLETION_TEMPLATES = template_set(
    PromptTemplate(DEFAULT_TEMPLATE, COMPLETION_PROMPT),
    PromptTemplate("reworded", """This program, written in {format_label}, has a gap marked {hole}.
What belongs in the gap is {description}.

```{fence}
{code}
```

Fill the gap and give back the whole program, in a single ```{fence} code block."""),
    PromptTemplate("question-first", """Fill in the part marked {hole} in the program below: the missing part is {description}.
Reply with the complete program, with the hole filled in, in one ```{fence} code block.

The program, in {format_label}:

```{fence}
{code}
```"""),
    PromptTemplate("system", system="""You complete programs written in {format_label}. The user's program has one part missing, \
marked {hole}. Reply with the complete program, with the hole filled in, in one ```{fence} code block.""",
                   user="""The missing part is {description}.

```{fence}
{code}
```"""),
)
NL_TEMPLATES = template_set(
    PromptTemplate(DEFAULT_TEMPLATE, NL_PROMPT),
    PromptTemplate("reworded", """Requirements for a {unit}, to be written in {format_label}:

{requirements}

Give back the whole program in {format_name}, inside a single ```{fence} code block, meeting every requirement."""),
    PromptTemplate("question-first", """Reply with a complete {program} in {format_name}, in one ```{fence} code block: a widget in \
{format_label} that meets every requirement below.

{requirements}"""),
    PromptTemplate("system", system="""You write {unit}s in {format_label}. Meet every requirement the user lists, and reply \
with the complete program in {format_name}, in one ```{fence} code block.""", user="""{requirements}"""),
)


@dataclass(frozen=True)
class GenerationTask:
    """One generation task: what the model sees and how its answer is judged."""

    id: str
    sample_id: str
    kind: str
    band: str
    prompt: str  # the user message, under the template current when the task was built (``coonbench.tasks.prompts``)
    gold_program: str  # Dart source of a right answer
    check: str  # "ast" (AST-equivalent to reference) or "requirements"
    reference: str | None = None  # Dart source an "ast" answer must equal
    requirements: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    system: str | None = None  # the template's system message, if it has one


def fenced(text: str, fence: str) -> str:
    """A reply containing ``text`` in one code fence."""
    return f"```{fence}\n{text.strip(chr(10))}\n```"


# ----------------------------------------------------------------------------------------------- builders


def dart_to_coon_task(sample_id: str, band: str, source: str, fmt_name: str, ctx: BuildContext) -> GenerationTask:
    fmt = get_format(fmt_name)
    prompt = render(
        DART_TO_COON_TEMPLATES,
        ctx,
        **prompt_words(language_of(fmt)),
        format_label=format_label(fmt_name, prompt=True),
        format_name=fmt_name.upper() if fmt_name == "coon" else fmt_name,
        fence=fmt.fence,
        code=source.strip("\n"),
    )
    return GenerationTask(
        id=f"generation-{sample_id}-dart-to-coon-{fmt_name}",
        sample_id=sample_id,
        kind="dart-to-coon",
        band=band,
        prompt=prompt.user,
        system=prompt.system,
        gold_program=source,
        check="ast",
        reference=source,
    )


def completion_task(sample_id: str, band: str, source: str, fmt_name: str, ctx: BuildContext) -> GenerationTask | None:
    """Hole = the part of the program the language chooses (``Language.completion_hole``); None if none."""
    hole = language_of(fmt_name).completion_hole(sample_id, source)
    if hole is None:
        return None
    data = source.encode("utf-8")
    start, end, desc = hole.start, hole.end, hole.description
    holed = (data[:start] + _PLACEHOLDER.encode() + data[end:]).decode("utf-8")
    fmt = get_format(fmt_name)
    try:
        encoded = fmt.encode(holed)
    except FormatError:
        return None
    if encoded.count(_PLACEHOLDER) != 1:
        return None
    shown = encoded.replace(_PLACEHOLDER, HOLE)
    prompt = render(
        COMPLETION_TEMPLATES,
        ctx,
        **prompt_words(language_of(fmt)),
        format_label=format_label(fmt_name, prompt=True),
        hole=HOLE,
        description=desc,
        fence=fmt.fence,
        code=shown.strip("\n"),
    )
    return GenerationTask(
        id=f"generation-{sample_id}-coon-completion-{fmt_name}",
        sample_id=sample_id,
        kind="coon-completion",
        band=band,
        prompt=prompt.user,
        system=prompt.system,
        gold_program=source,
        check="ast",
        reference=source,
        extra={"hole_subtree": data[start:end].decode("utf-8"), "normalise": True},
    )


def nl_task(sample_id: str, band: str, source: str, fmt_name: str, ctx: BuildContext) -> GenerationTask | None:
    language = language_of(fmt_name)
    reqs = language.derive_requirements(source)
    if len(reqs) < 2:
        return None
    fmt = get_format(fmt_name)
    lines = "\n".join(f"{i}. It contains {language.describe_requirement(r)}." for i, r in enumerate(reqs, start=1))
    prompt = render(
        NL_TEMPLATES,
        ctx,
        **prompt_words(language),
        format_label=format_label(fmt_name, prompt=True),
        format_name=fmt_name.upper() if fmt_name == "coon" else fmt_name,
        fence=fmt.fence,
        requirements=lines,
    )
    return GenerationTask(
        id=f"generation-{sample_id}-nl-to-coon-{fmt_name}",
        sample_id=sample_id,
        kind="nl-to-coon",
        band=band,
        prompt=prompt.user,
        system=prompt.system,
        gold_program=source,
        check="requirements",
        requirements=reqs,
    )


def build_generation_tasks(
    kinds: str | Sequence[str] | None = None,
    bands: str | Sequence[str] | None = None,
    fmt_name: str = "coon",
    *,
    files: Sequence[CorpusSample] | None = None,
    skips: list[Skip] | None = None,
    label: str | None = None,
    ctx: BuildContext | None = None,
) -> list[GenerationTask]:
    """Every task of the chosen kinds over the chosen corpus bands (or ``files``), in file order then kind order,
    its prompt rendered for ``ctx`` (the default context when None).

    A file the format cannot carry (the encoder refuses it, or it does not decode back to an AST-equivalent
    program, so no gold answer exists) gets no task; its reason is appended to ``skips`` (tagged ``label``).
    """
    from coonbench.datasets.corpus import load_corpus

    wanted = choose("kinds", kinds, GENERATION_KINDS, "generation kind") or list(GENERATION_KINDS)
    band_list = split_param(bands)
    if files is None:
        files = load_corpus(bands=band_list) if band_list else load_corpus()
    ctx = ctx if ctx is not None else BuildContext()
    tasks: list[GenerationTask] = []
    for sample in files:
        reason = refusal(fmt_name, sample.source, need_roundtrip=True)
        if reason is not None:
            if skips is not None:
                skips.append(Skip(sample.id, label or fmt_name, reason))
            continue
        for kind in wanted:
            task: GenerationTask | None
            if kind == "dart-to-coon":
                task = dart_to_coon_task(sample.id, sample.band, sample.source, fmt_name, ctx)
            elif kind == "coon-completion":
                task = completion_task(sample.id, sample.band, sample.source, fmt_name, ctx)
            else:
                task = nl_task(sample.id, sample.band, sample.source, fmt_name, ctx)
            if task is not None:
                tasks.append(task)
    return tasks


JUDGE_ACCURACY = (
    "Verify the answer is one complete program written in {format_label}, not in another notation",
    "Verify the program adds no widget, property or text that the task does not call for",
)


def judge_criteria(
    format_label: str, requirements: Sequence[str], instructions: Sequence[str] = ()
) -> dict[str, list[dict[str, Any]]]:
    """Criteria for the LLM judge (``metadata["criteria"]``), from the same requirements the deterministic check uses.

    Completeness lists what the program must show (the instructions, then each requirement in English:
    ``Language.describe_requirement``), so the judge's verdict and the requirement check can be compared sample by
    sample.
    """
    return sample_criteria(
        accuracy=[c.format(format_label=format_label) for c in JUDGE_ACCURACY],
        completeness=[
            *(f"Verify the program carries out this instruction: {i}" for i in instructions),
            *(f"Verify the program contains {r}" for r in requirements),
        ],
    )


def requirement_lines(language: Language, requirements: Sequence[dict[str, Any]], program: str) -> list[str]:
    """Each requirement in words; with none given, those the language derives from ``program`` (the judge's
    completeness criteria of a task checked by AST)."""
    return [language.describe_requirement(r) for r in (requirements or language.derive_requirements(program))]


def task_sample(
    task: GenerationTask,
    category: str,
    fmt_name: str | Condition,
    input_format: str | None,
    primer_variant: str,
    ctx: BuildContext,
) -> Sample:
    """An Inspect Sample for a task, counted in ``ctx``'s tokenizer: the answer is expected in the condition's format
    (decoded before checking).

    ``fmt_name`` is a registry name or a parsed condition (a condition without primer appends ``-noprimer`` to
    the id and to ``metadata["format"]``).
    """
    cond = fmt_name if isinstance(fmt_name, Condition) else Condition(fmt_name)
    fmt = cond.fmt
    # a legend of the plain encoding: what the model may be shown (a completion's program) or is to write
    gold_text, primer = cond.show(task.gold_program, primer_variant, economise_in=None)
    label = format_label(cond.format, prompt=True)
    return Sample(
        id=task.id + LABEL_SUFFIX[cond.primer],
        input=Rendered(task.prompt, task.system).input,
        target=gold_text,
        metadata=sample_metadata(
            format=input_format or cond.label,
            category=category,
            question_type=task.kind,
            complexity=task.band,
            input_text=Rendered(task.prompt, task.system).text(primer),
            tokenizer=ctx.tokenizer,
            gold=fenced(gold_text, fmt.fence),
            **cond.metadata(primer_variant, primer, tokenizer=ctx.tokenizer),
            answer_format=cond.format,
            pair_id=task.id.removesuffix("-" + cond.format),
            gold_output_tokens=count_tokens(fenced(gold_text, fmt.fence), ctx.tokenizer),
            sample_id=task.sample_id,
            check=task.check,
            reference=task.reference,
            requirements=task.requirements,
            criteria=judge_criteria(label, requirement_lines(language_of(fmt), task.requirements, task.gold_program)),
            **task.extra,
        ),
    )


def generation_samples(
    kinds: str | Sequence[str] | None = None,
    bands: str | Sequence[str] | None = None,
    formats: str | Sequence[str] | None = "coon",
    corpus: str | None = None,
    primer_variant: str = "short",
    ctx: BuildContext | None = None,
) -> tuple[list[Sample], list[Skip]]:
    """Samples of every task in every condition (``coonbench.tasks.conditions``; lossy formats are refused, since the
    answer is decoded) for ``ctx`` (the default context when None), and the files a condition could not carry,
    with the reason."""
    ctx = ctx if ctx is not None else BuildContext()
    pending, skips = generation_pending(kinds, bands, formats, corpus, primer_variant, ctx=ctx)
    return [p.build(ctx) for p in pending], skips


def generation_pending(
    kinds: str | Sequence[str] | None = None,
    bands: str | Sequence[str] | None = None,
    formats: str | Sequence[str] | None = "coon",
    corpus: str | None = None,
    primer_variant: str = "short",
    *,
    ctx: BuildContext,
) -> tuple[list[Pending], list[Skip]]:
    """``generation_samples``' samples not built yet (``coonbench.tasks.subset.Pending``: ``-T questions=N``
    renders only the tasks drawn), their prompts rendered for ``ctx`` as they are listed, and the skips."""
    conditions = parse_conditions(formats, ("coon",), need_decode=True, param="format")
    files, skips = select_corpus(corpus, split_param(bands), conditions_language(conditions))
    by_pair: dict[str, list[Pending]] = {}  # task-major, like the other tasks: --limit keeps every condition
    for cond in conditions:
        for task in build_generation_tasks(kinds, None, cond.format, files=files, skips=skips, label=cond.label,
                                           ctx=ctx):
            pair = task.id.removesuffix("-" + cond.format)  # pair_id, complexity, question_type, format: task_sample's
            build = partial(task_sample, task, "generation", cond, None, primer_variant)
            by_pair.setdefault(pair, []).append(Pending(pair, (task.band, task.kind), cond.label, build))
    return [p for group in by_pair.values() for p in group], skips


def generation_dataset(
    kinds: str | Sequence[str] | None = None,
    bands: str | Sequence[str] | None = None,
    fmt_name: str = "coon",
    corpus: str | None = None,
) -> MemoryDataset:
    """The generation samples (answers in each condition of ``fmt_name``, COON by default)."""
    samples, _ = generation_samples(kinds, bands, fmt_name, corpus)
    return MemoryDataset(samples, name="coonbench-generation")
