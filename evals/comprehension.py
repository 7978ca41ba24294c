"""Comprehension: can a model answer questions about Flutter code it reads in COON, Dart or minified Dart?"""

from __future__ import annotations

from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset

from coonbench.tasks.stopping import stop_when
from coonbench.tasks.prompts import each_prompt_pending
from coonbench.tasks.samples import reject_unknown
from coonbench.tasks.tokenizer import counted_for_model
from coonbench.tasks.conditions import print_skips, skip_summary
from coonbench.tasks.subset import build_subset, check_subset
from coonbench.datasets.comprehension import comprehension_pending
from coonbench.scorers.answer import SOURCE_BASELINE, answer_match, answer_metrics, epoch_mean
from coonbench.scorers.efficiency import verdict
from coonbench.solvers.primer import primed_generate


@task(name="comprehension")
def comprehension(
    formats: str | list[str] = "coon,coon-noprimer,dart,dart-minified",
    bands: str | list[str] | None = None,
    question_types: str | list[str] | None = None,
    primer: str = "short",
    corpus: str | None = None,
    tokenizer: str | None = None,
    questions: int | None = None,
    seed: int = 0,
    stop: str = "budget",
    stop_margin: float | None = None,
    stop_on: str | list[str] | None = None,
    prompts: str | list[str] | None = None,
    **unknown: Any,
) -> Task:
    """AST-derived questions about the Dart corpus, each shown in every selected format condition.

    Args:
      formats: format conditions to compare: any registered code format (``coonbench formats``), with
        ``:noprimer`` (``coon-noprimer`` is an alias), ``:full`` or ``:legend`` for the primer shown.
      bands: corpus bands to keep: simple, composed, stateful, complex, edge (default all); with ``corpus``:
        gci-low, gci-mid, gci-high.
      question_types: widget_identification, property_retrieval, structure, relationship, semantic.
      primer: primer variant of plain conditions: short, full, or legend (only what the document shown uses,
        and the document economised for it; formats without a legend show their short primer).
      corpus: a directory of Dart files to ask about instead of the built-in corpus (questions from their ASTs).
      tokenizer: the tokenizer the samples' ``input_tokens`` count in (``coonbench tokens --encoding all`` lists
        them; default: the model under test's family, docs/usage.md "Tokenizers"); ``input_tokens_o200k`` always.
      questions: keep this many whole questions, every selected format of each, drawn with ``seed`` and balanced
        over band and question type (``coonbench.tasks.subset``): a small run that stays paired (``--limit``
        takes the first samples, so the formats get different questions).
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
    reject_unknown(comprehension, unknown)
    check_subset(questions, seed)  # before anything is built: a typo stops the run at once
    with counted_for_model(tokenizer) as counted_in:  # the legend's economy too counts in it
        # -T questions=N renders only the N questions drawn (under each template -T prompts= chooses)
        pending, skips = each_prompt_pending(prompts, lambda: comprehension_pending(
            formats, bands, question_types, primer_variant=primer, corpus=corpus))
        print_skips("comprehension", skips, kept=len(pending))
        samples = build_subset(pending, questions, seed)
    return stop_when(Task(
        dataset=MemoryDataset(samples, name="coonbench-comprehension"),
        solver=primed_generate(primer),
        scorer=answer_match(aliases="coon"),  # widget names may be answered as COON abbreviations
        metrics=[*answer_metrics(("format", "question_type", "complexity"), baseline=SOURCE_BASELINE), verdict()],
        epochs=Epochs(1, epoch_mean()),
        metadata={"corpus": corpus, "tokenizer": counted_in, **skip_summary(skips)},
    ), stop, stop_margin, seed, stop_on)
