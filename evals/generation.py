"""Generation: can a model write COON — from Dart, into a hole, or from a list of requirements?"""

from __future__ import annotations

from typing import Any, Literal

from inspect_ai import Task, task

from coonbench.tasks.build import task_run
from coonbench.tasks.conditions import pick_conditions
from coonbench.datasets.generation import generation_pending
from coonbench.scorers.code import code_check
from coonbench.scorers.judge import with_judge
from coonbench.solvers.primer import format_primer
from coonbench.solvers.retry import retry_generate


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
      corpus: a directory of files of the formats' language to derive the tasks from instead of the built-in
        corpus.
      tokenizer, questions, seed, stop, stop_margin, stop_on, prompts: the options every task shares
        (``coonbench.tasks.build.SHARED_OPTIONS``; docs/usage.md "Options every task shares").
    """
    run = task_run(generation, unknown, tokenizer=tokenizer, questions=questions, seed=seed, stop=stop,
                   stop_margin=stop_margin, stop_on=stop_on, prompts=prompts)
    conditions = pick_conditions(formats, format, "format")
    # -T questions=N renders only the N tasks drawn (under each template -T prompts= chooses)
    return run.build(
        "generation",
        lambda ctx: generation_pending(kinds, bands, conditions, corpus, primer_variant=primer, ctx=ctx),
        dataset_name="coonbench-generation",
        solver=[format_primer(primer), retry_generate(max_retries)],
        scorer=with_judge(code_check(), judge),
        metadata={"corpus": corpus},
    )
