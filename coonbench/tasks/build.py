"""One task builder: the pipeline every task that lists its samples runs, and the ``-T`` options they share.

A task function (``evals/<task>.py``) checks its arguments and builds through here::

    run = task_run(comprehension, unknown, tokenizer=tokenizer, questions=questions, seed=seed, stop=stop,
                   stop_margin=stop_margin, stop_on=stop_on, prompts=prompts)
    conditions = ...                                  # the task's own arguments, parsed before anything is built
    return run.build("comprehension", lambda ctx: comprehension_pending(...), dataset_name=..., solver=...,
                     scorer=...)

``task_run`` stops a misspelled ``-T`` name (``reject_unknown``) and a bad ``questions``/``seed`` before the task's
own checks; ``TaskRun.build`` lists the samples (under every prompt template ``prompts`` chooses:
``each_prompt_pending``) for the ``BuildContext`` of the tokenizer the task counts in (``counted_for_model``),
reports what was skipped (``print_skips``), builds the drawn subset (``build_subset``) and wraps the ``Task`` in
``stop_when``. The shared options are documented once, in ``SHARED_OPTIONS`` (and docs/usage.md, "Options every
task shares").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample

from coonbench.tasks.conditions import Skip, print_skips, skip_summary
from coonbench.tasks.context import BuildContext
from coonbench.tasks.prompts import each_prompt_pending
from coonbench.tasks.samples import reject_unknown
from coonbench.tasks.stopping import stop_when
from coonbench.tasks.subset import Pending, build_subset, check_subset
from coonbench.tasks.tokenizer import counted_for_model

SHARED_OPTIONS = """\
tokenizer: the tokenizer the samples' ``input_tokens`` count in (``coonbench tokens --encoding all`` lists them;
  default: the model under test's family, docs/usage.md "Tokenizers"); ``input_tokens_o200k`` always.
questions: keep this many whole questions, every selected format condition of each, drawn with ``seed`` and
  balanced over band and question type (``coonbench.tasks.subset``): a small run that stays paired (``--limit``
  takes the first samples, so the formats get different questions).
seed: the seed of the ``questions`` draw.
stop: ``budget`` (ask every question) or ``decided``: stop asking new questions once every paired comparison of
  formats is decided by an anytime-valid confidence sequence (``coonbench.tasks.stopping``; docs/planning.md
  "Stop when decided").
stop_margin: with ``stop=decided``, the equivalence margin in accuracy (default 0.05): a comparison whose interval
  lies inside ±margin is decided as equivalent.
stop_on: with ``stop=decided``, the comparisons to decide, ``a:b,…`` or ``all`` (default: the design's, each format
  against the baseline it declares, e.g. ``coon:dart``; without one, every pair of formats).
prompts: ``all``, or prompt template ids (default, reworded, question-first, system): each question under each (ids
  gain ``@<template>``, metadata ``prompt_template``; docs/prompts.md); default: the default only.
"""
"""What the options every listing task shares mean (a task's docstring names them and points here)."""

Listing = Callable[[BuildContext], "tuple[list[Pending], list[Skip] | None]"]
"""Lists a task's samples unbuilt for a context, and what was skipped (None: the task skips nothing, and reports no
skips)."""


@dataclass(frozen=True)
class TaskRun:
    """A task's shared ``-T`` options, checked (``task_run``)."""

    tokenizer: str | None = None
    questions: int | None = None
    seed: int = 0
    stop: str = "budget"
    stop_margin: float | None = None
    stop_on: str | list[str] | None = None
    prompts: str | Sequence[str] | None = None

    def build(
        self,
        category: str,
        listing: Listing,
        *,
        dataset_name: str,
        solver: Any,
        scorer: Any,
        metrics: Any = None,
        epochs: Any = None,
        sandbox: Any = None,
        metadata: dict[str, Any] | None = None,
    ) -> Task:
        """The task: ``listing`` run under each chosen prompt template in the task's tokenizer, its skips reported
        (printed, and in the task's metadata), the drawn subset built, the ``Task`` as ``stop`` asks."""
        ctx = self.context()
        pending, skips = each_prompt_pending(self.prompts, listing, ctx)
        if skips is not None:
            print_skips(category, skips, kept=len(pending))
        samples = self.drawn(pending, ctx)
        summary = skip_summary(skips) if skips is not None else {}
        task = Task(
            dataset=MemoryDataset(samples, name=dataset_name),
            solver=solver,
            scorer=scorer,
            metrics=metrics,
            epochs=epochs,
            sandbox=sandbox,
            metadata={**(metadata or {}), "tokenizer": ctx.tokenizer, **summary},
        )
        return self.stopped(task)

    def context(self) -> BuildContext:
        """The context the task's samples are built in: its tokenizer (``counted_for_model``)."""
        return counted_for_model(self.tokenizer)

    def drawn(self, pending: Sequence[Pending], ctx: BuildContext) -> list[Sample]:
        """The samples of the ``questions`` drawn (all by default), built for ``ctx`` (``build_subset``)."""
        return build_subset(pending, self.questions, self.seed, ctx)

    def stopped(self, task: Task) -> Task:
        """``task`` as ``-T stop=`` asks (``stop_when``)."""
        return stop_when(task, self.stop, self.stop_margin, self.seed, self.stop_on)


def task_run(task: Callable[..., Any], unknown: dict[str, Any], **shared: Any) -> TaskRun:
    """The shared options of a call of ``task``: TaskArgumentError for a ``-T`` name the task does not take
    (``unknown``, what its ``**unknown`` caught) or a bad ``questions``/``seed``, before anything is built."""
    reject_unknown(task, unknown)
    run = TaskRun(**shared)
    check_subset(run.questions, run.seed)  # before anything is built: a typo stops the run at once
    return run
