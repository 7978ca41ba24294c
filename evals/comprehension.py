"""Comprehension: can a model answer questions about Flutter code it reads in COON, Dart or minified Dart?"""

from __future__ import annotations

from typing import Any

from inspect_ai import Epochs, Task, task

from coonbench.tasks.build import task_run
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
      corpus: a directory of files of the formats' language to ask about instead of the built-in corpus
        (questions from their ASTs).
      tokenizer, questions, seed, stop, stop_margin, stop_on, prompts: the options every task shares
        (``coonbench.tasks.build.SHARED_OPTIONS``; docs/usage.md "Options every task shares").
    """
    run = task_run(comprehension, unknown, tokenizer=tokenizer, questions=questions, seed=seed, stop=stop,
                   stop_margin=stop_margin, stop_on=stop_on, prompts=prompts)
    # -T questions=N renders only the N questions drawn; the legend's economy too counts in the task's tokenizer
    return run.build(
        "comprehension",
        lambda _: comprehension_pending(formats, bands, question_types, primer_variant=primer, corpus=corpus),
        dataset_name="coonbench-comprehension",
        solver=primed_generate(primer),
        scorer=answer_match(aliases="coon"),  # widget names may be answered as COON abbreviations
        metrics=[*answer_metrics(("format", "question_type", "complexity"), baseline=SOURCE_BASELINE), verdict()],
        epochs=Epochs(1, epoch_mean()),
        metadata={"corpus": corpus},
    )
