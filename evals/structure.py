"""Structure awareness: does a model know COON's own conventions — abbreviations both ways, prefixes, syntax?

    inspect eval evals/structure.py -T primer=none --model …
    inspect eval evals/structure.py -T kinds=syntax_validity -T primer=none,short,full --model …
"""

from __future__ import annotations

from typing import Any

from collections.abc import Sequence

from inspect_ai import Task, task
from inspect_ai.solver import generate

from coonbench.tasks.build import task_run
from coonbench.tasks.samples import TaskArgumentError
from coonbench.datasets.format_syntax import format_syntax_pending
from coonbench.datasets.structure import structure_pending
from coonbench.scorers.answer import SOURCE_BASELINE, answer_match, answer_metrics
from coonbench.solvers.primer import format_primer


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
    formats: str | list[str] | None = None,
    corpus: str | None = None,
    **unknown: Any,
) -> Task:
    """Questions generated from the COON dialect's tables, codec and validator.

    Args:
      kinds: question types to keep: abbrev_to_full, full_to_abbrev, prefix_meaning, syntax_validity (default all).
      primer: none (prior knowledge: format ``coon-noprimer``), short (``coon``) or full (``coon-fullprimer``: the
        tables themselves, so abbreviation questions become a lookup); comma-separate several to compare them.
      formats: instead of COON's questions, syntax validity in these code formats of one language (any registered
        lossless code format, e.g. ``python,python-minified,python-minifier,python-json-ast``): a fragment of
        each corpus file shown valid and with a bracket deleted (``coonbench.datasets.format_syntax``); ``kinds``
        and ``primer`` are then not used (a format's primer follows its condition, ``:noprimer``).
      corpus: with ``formats``, a directory of files of their language to take the fragments from instead of the
        built-in corpus.
      tokenizer, questions, seed, stop, stop_margin, stop_on, prompts: the options every task shares
        (``coonbench.tasks.build.SHARED_OPTIONS``; docs/usage.md "Options every task shares").
    """
    run = task_run(structure, unknown, tokenizer=tokenizer, questions=questions, seed=seed, stop=stop,
                   stop_margin=stop_margin, stop_on=stop_on, prompts=prompts)
    # -T questions=N renders only the N questions drawn (under each template -T prompts= chooses)
    if corpus and not formats:
        raise TaskArgumentError("-T corpus= needs -T formats=: COON's structure questions come from its tables")
    listing = (lambda _: format_syntax_pending(formats, corpus)) if formats else (
        lambda _: (structure_pending(kinds, primer), None))  # every question is asked in every primer: no skips
    return run.build(
        "structure",
        listing,
        dataset_name="coonbench-structure",
        solver=[format_primer(), generate()],  # the variant (or no primer) comes from each sample's metadata
        scorer=answer_match(),
        metrics=answer_metrics(("format", "question_type", "complexity"),
                               baseline=SOURCE_BASELINE if formats else "coon"),
    )
