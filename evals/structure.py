"""Structure awareness: does a model know COON's own conventions — abbreviations both ways, prefixes, syntax?

    inspect eval evals/structure.py -T primer=none --model …
    inspect eval evals/structure.py -T kinds=syntax_validity -T primer=none,short,full --model …
"""

from __future__ import annotations

from typing import Any

from collections.abc import Sequence

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.solver import generate

from coonbench.tasks.stopping import stop_when
from coonbench.tasks.prompts import each_prompt_pending
from coonbench.tasks.samples import reject_unknown
from coonbench.tasks.tokenizer import counted_for_model
from coonbench.datasets.structure import structure_pending
from coonbench.scorers.answer import answer_match, answer_metrics
from coonbench.solvers.primer import format_primer
from coonbench.tasks.subset import build_subset, check_subset


@task(name="structure")
def structure(
    kinds: str | Sequence[str] | None = None,
    primer: str | Sequence[str] = "short",
    questions: int | None = None,
    seed: int = 0,
    tokenizer: str | None = None,
    stop: str = "budget",
    stop_margin: float | None = None,
    stop_on: str | list[str] | None = None,
    prompts: str | list[str] | None = None,
    **unknown: Any,
) -> Task:
    """Questions generated from the COON dialect's tables, codec and validator.

    Args:
      kinds: question types to keep: abbrev_to_full, full_to_abbrev, prefix_meaning, syntax_validity (default all).
      primer: none (prior knowledge: format ``coon-noprimer``), short (``coon``) or full (``coon-fullprimer``: the
        tables themselves, so abbreviation questions become a lookup); comma-separate several to compare them.
      tokenizer: the tokenizer the samples' ``input_tokens`` count in (``coonbench tokens --encoding all`` lists
        them; default: the model under test's family, docs/usage.md "Tokenizers"); ``input_tokens_o200k`` always.
      questions: keep this many whole questions, every selected primer condition of each, seeded and
        balanced over question type and complexity (``coonbench.tasks.subset``; ``--limit`` would give the
        conditions different questions).
      seed: the seed of the ``questions`` draw.
      stop: ``budget`` (ask every question) or ``decided``: stop asking new questions once every paired
        comparison of formats is decided by an anytime-valid confidence sequence (``coonbench.tasks.stopping``;
        docs/planning.md "Stop when decided").
      stop_margin: with ``stop=decided``, the equivalence margin in accuracy (default 0.05): a comparison whose
        interval lies inside ±margin is decided as equivalent.
      stop_on: with ``stop=decided``, the comparisons to decide, ``a:b,…`` or ``all`` (default: the design's,
        each format against the baseline it declares, e.g. ``coon:dart``; without one, every pair of formats).
      prompts: ``all``, or prompt template ids (default, reworded, question-first, system): each question under
        each (ids gain ``@<template>``, metadata ``prompt_template``; docs/prompts.md); default: the default only.
    """
    reject_unknown(structure, unknown)
    check_subset(questions, seed)  # before anything is built: a typo stops the run at once
    with counted_for_model(tokenizer) as counted_in:
        # -T questions=N renders only the N questions drawn (under each template -T prompts= chooses)
        samples = build_subset(each_prompt_pending(prompts, lambda: structure_pending(kinds, primer)), questions, seed)
    return stop_when(Task(
        dataset=MemoryDataset(samples, name="coonbench-structure"),
        solver=[format_primer(), generate()],  # the variant (or no primer) comes from each sample's metadata
        scorer=answer_match(),
        metrics=answer_metrics(("format", "question_type", "complexity"), baseline="coon"),
        metadata={"tokenizer": counted_in},
    ), stop, stop_margin, seed, stop_on)
