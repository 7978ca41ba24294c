"""Generation: can a model write COON — from Dart, into a hole, or from a list of requirements?"""

from __future__ import annotations

from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset

from coonbench.tasks.stopping import stop_when
from coonbench.tasks.prompts import each_prompt_pending
from coonbench.tasks.samples import reject_unknown
from coonbench.tasks.tokenizer import counted_for_model
from coonbench.tasks.conditions import pick_conditions, print_skips, skip_summary
from coonbench.datasets.generation import generation_pending
from coonbench.scorers.code import code_check
from coonbench.scorers.judge import with_judge
from coonbench.solvers.primer import format_primer
from coonbench.solvers.retry import retry_generate
from coonbench.tasks.subset import build_subset, check_subset


@task(name="generation")
def generation(
    kinds: str | list[str] = "dart-to-coon,coon-completion,nl-to-coon",
    bands: str | list[str] | None = None,
    max_retries: int = 2,
    primer: str = "short",
    judge: Literal["none", "weighted", "graded"] = "none",
    format: str | list[str] = "coon",
    corpus: str | None = None,
    formats: str | list[str] | None = None,
    tokenizer: str | None = None,
    questions: int | None = None,
    seed: int = 0,
    stop: str = "budget",
    stop_margin: float | None = None,
    stop_on: str | list[str] | None = None,
    prompts: str | list[str] | None = None,
    **unknown: Any,
) -> Task:
    """Corpus-derived generation tasks, answered in ``format`` (COON) with validator feedback retries.

    Args:
      kinds: dart-to-coon, coon-completion, nl-to-coon (comma-separated).
      bands: corpus bands to keep: simple, composed, stateful, complex, edge (default all).
      max_retries: feedback rounds after a reply that does not validate or decode.
      primer: primer variant of the format: short, full, or legend (only what the program's plain encoding
        uses; formats without a legend show their short primer).
      judge: also grade with the LLM judge (role ``judge``; ``weighted`` or ``graded``) beside the
        deterministic check, so the two can be compared per sample.
      format: the format(s) answers are written in: registered lossless code formats, comma-separated, each
        with ``:noprimer``, ``:full`` or ``:legend`` for the primer (coon by default; a lossy format is refused).
      formats: the same as ``format`` (the name every code task shares); give one of the two.
      questions: keep this many whole questions, every selected format condition of each, seeded and
        balanced over band and kind (``coonbench.tasks.subset``; ``--limit`` would give the conditions different
        questions).
      seed: the seed of the ``questions`` draw.
      prompts: ``all``, or prompt template ids (default, reworded, question-first, system): each question under
        each (ids gain ``@<template>``, metadata ``prompt_template``; docs/prompts.md); default: the default only.
      corpus: a directory of Dart files to derive the tasks from instead of the built-in corpus.
      tokenizer: the tokenizer the samples' ``input_tokens`` count in (``coonbench tokens --encoding all`` lists
        them; default: the model under test's family, docs/usage.md "Tokenizers"); ``input_tokens_o200k`` always.
      stop: ``budget`` (ask every question) or ``decided``: stop asking new questions once every paired
        comparison of formats is decided by an anytime-valid confidence sequence (``coonbench.tasks.stopping``;
        docs/planning.md "Stop when decided").
      stop_margin: with ``stop=decided``, the equivalence margin in accuracy (default 0.05): a comparison whose
        interval lies inside ±margin is decided as equivalent.
      stop_on: with ``stop=decided``, the comparisons to decide, ``a:b,…`` or ``all`` (default: the design's,
        each format against the baseline it declares, e.g. ``coon:dart``; without one, every pair of formats).
    """
    reject_unknown(generation, unknown)
    check_subset(questions, seed)  # before anything is built: a typo stops the run at once
    conditions = pick_conditions(formats, format, "format")
    with counted_for_model(tokenizer) as counted_in:
        # -T questions=N renders only the N tasks drawn (under each template -T prompts= chooses)
        pending, skips = each_prompt_pending(prompts, lambda: generation_pending(
            kinds, bands, conditions, corpus, primer_variant=primer))
        print_skips("generation", skips, kept=len(pending))
        samples = build_subset(pending, questions, seed)
    return stop_when(Task(
        dataset=MemoryDataset(samples, name="coonbench-generation"),
        metadata={"corpus": corpus, "tokenizer": counted_in, **skip_summary(skips)},
        solver=[format_primer(primer), retry_generate(max_retries)],  # type: ignore[arg-type]
        scorer=with_judge(code_check(), judge),
    ), stop, stop_margin, seed, stop_on)
