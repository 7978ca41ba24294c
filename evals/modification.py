"""Modification: can a model edit a program given in COON (or Dart) and reply with the edited program?"""

from __future__ import annotations

from functools import partial
from typing import Any, Literal

from inspect_ai import Task, task

from coonbench.tasks.build import task_run
from coonbench.tasks.conditions import pick_conditions
from coonbench.datasets.edits.samples import check_modification_source, edit_pending
from coonbench.datasets.modification import modification_pending
from coonbench.datasets.sessions import modification_session_pending
from coonbench.scorers.edits import edit_check, session_check
from coonbench.solvers.session import session_generate
from coonbench.scorers.code import code_check
from coonbench.scorers.judge import with_judge
from coonbench.solvers.primer import format_primer
from coonbench.solvers.retry import retry_generate


@task(name="modification")
def modification(
    input_format: str | list[str] = "coon",
    kinds: str | list[str] | None = None,
    bands: str | list[str] | None = None,
    max_retries: int = 2,
    primer: str = "short",
    judge: Literal["none", "weighted", "graded"] = "none",
    corpus: str | None = None,
    formats: str | list[str] | None = None,
    tokenizer: str | None = None,
    questions: int | None = None,
    seed: int = 0,
    stop: str = "budget",
    stop_margin: float | None = None,
    stop_on: str | list[str] | None = None,
    prompts: str | list[str] | None = None,
    source: Literal["synthetic", "edits"] = "synthetic",
    edits: str | None = None,
    after: str | None = None,
    turns: int = 1,
    **unknown: Any,
) -> Task:
    """Corpus-derived edits; the reply is expected in the input's format and checked against a computed program.

    Args:
      input_format: registered lossless code formats (comma-separated), each with ``:noprimer``, ``:full`` or
        ``:legend`` for the primer (coon by default); replies are expected in the same format.
      kinds: edit kinds (comma-separated; default every kind of the formats' language): Dart's add-widget,
        change-property, remove-widget, refactor, fix-bug; Python's change-default, add-parameter, change-return,
        remove-method.
      bands: corpus bands to keep: simple, composed, stateful, complex, edge (default all).
      max_retries: feedback rounds after a reply that does not validate or decode.
      primer: primer variant of the format: short, full, or legend (only what the program shown uses;
        formats without a legend show their short primer).
      judge: also grade with the LLM judge (role ``judge``; ``weighted`` or ``graded``) beside the
        deterministic check, so the two can be compared per sample.
      formats: the same as ``input_format`` (the name every code task shares); give one of the two.
      corpus: a directory of files of the formats' language to derive the edits from instead of the built-in
        corpus.
      source: ``synthetic`` (edits computed on the corpus) or ``edits`` (edits mined from real commits,
        docs/edits.md), scored exactly against the real after-file, with a ``graded`` score beside.
      edits: a folder ``coonbench mine-edits`` wrote (default: the shipped set, data/edits); with source=edits.
      after: keep mined edits committed after this date (YYYY-MM-DD), e.g. a model's training cut-off.
      turns: edits per session (default 1): N edits of one file in one conversation, each applied by the model to
        its own previous reply, every turn scored against the cumulative gold (synthetic: chained add-widget,
        change-property and remove-widget edits; mined: N consecutive commits of one file).
      tokenizer, questions, seed, stop, stop_margin, stop_on, prompts: the options every task shares
        (``coonbench.tasks.build.SHARED_OPTIONS``; docs/usage.md "Options every task shares").
    """
    run = task_run(modification, unknown, tokenizer=tokenizer, questions=questions, seed=seed, stop=stop,
                   stop_margin=stop_margin, stop_on=stop_on, prompts=prompts)
    conditions = pick_conditions(formats, input_format, "input_format")
    check_modification_source(source, edits, after, turns, judge, prompts)
    listed = (  # -T questions=N renders only the N tasks drawn
        partial(edit_pending, edits, after, conditions, turns, primer) if source == "edits"
        else partial(modification_session_pending, kinds, bands, conditions, corpus, turns, primer) if turns > 1
        else partial(modification_pending, kinds, bands, conditions, corpus, primer_variant=primer)
    )
    check = session_check() if turns > 1 else edit_check() if source == "edits" else code_check()
    return run.build(
        "modification",
        lambda _: listed(),  # the listing renders nothing: its samples are rendered as they are built
        dataset_name="coonbench-modification",
        solver=[format_primer(primer), session_generate(max_retries) if turns > 1 else retry_generate(max_retries)],
        scorer=with_judge(check, judge, include_question=True),
        metadata={"corpus": corpus, "source": source, "turns": turns},
    )
