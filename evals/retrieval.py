"""Retrieval over data formats: TOON-style exact questions, or a TeaLeaf task file analysed in every format.

    inspect eval evals/retrieval.py -T formats=json,toon,tealeaf-compact --model …
    inspect eval evals/retrieval.py -T questions_file=my/questions.jsonl --model …
    inspect eval evals/retrieval.py -T tasks_file=../shared/reference/tealeaf/tasks/synthetic.json --model …
    inspect eval evals/retrieval.py -T suite=../shared/reference/toon/generated -T formats=markdown-kv --model …
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.solver import generate

from coonbench.tasks.prompts import each_prompt_pending
from coonbench.datasets.hf import hf_retrieval_pending
from coonbench.datasets.retrieval import analysis_pending, parse_conditions, retrieval_pending, skip_summary
from coonbench.datasets.retrieval.common import given_path
from coonbench.datasets.retrieval.conditions import check_formats_argument
from coonbench.datasets.retrieval.suite import SUITE_BASELINE, load_suite, suite_pending
from coonbench.tasks.build import task_run
from coonbench.tasks.samples import split_param
from coonbench.tasks.subset import Pending
from coonbench.scorers.answer import answer_match, answer_metrics
from coonbench.scorers.expected_elements import expected_elements
from coonbench.scorers.judge import check_judge_mode, with_judge
from coonbench.solvers.sample_config import generate_from_metadata


@task(name="retrieval")
def retrieval(
    formats: str | Sequence[str] | None = None,
    questions_file: str | None = None,
    tasks_file: str | None = None,
    judge: Literal["none", "weighted", "graded"] = "none",
    suite: str | None = None,
    suite_formats: str | Sequence[str] | None = None,
    tokenizer: str | None = None,
    questions: int | None = None,
    seed: int = 0,
    stop: str = "budget",
    stop_margin: float | None = None,
    stop_on: str | list[str] | None = None,
    prompts: str | list[str] | None = None,
    **unknown: Any,
) -> Task:
    """Exact-answer retrieval (default, or ``questions_file``) or TeaLeaf analysis (``tasks_file``).

    Args:
      formats: comma-separated registered data-format conditions (``NAME``, ``NAME:noprimer``, ``NAME:full``), or
        ``all`` (default json,json-compact,toon,
        tealeaf-compact,yaml,xml,csv; with ``suite``: none of ours unless given). A format that cannot hold a
        dataset (CSV on nested data) is skipped for it; the skips and reasons are in the eval's metadata.
      questions_file: a JSONL of {id, dataset, question, answer, answer_type} (dataset relative to the file),
        or a Hugging Face dataset folder / .parquet written by ``coonbench.datasets.hf.save_hf("retrieval", …)``
        (read through Inspect's ``hf_dataset``).
      tasks_file: a TeaLeaf task-definition JSON, used unchanged; scored with TeaLeaf's heuristic rubric.
      judge: in tasks_file mode, also grade with the LLM judge (``weighted`` or ``graded``; role ``judge``).
      suite: a folder in TOON's published layout (questions.json, datasets.json, encoded.json, formats.json),
        run unchanged; ``formats`` then adds our formats (labelled ``coonbench-<name>``) computed from its data.
      suite_formats: which of the suite's own formats to run (default: all of them).
      tokenizer, questions, seed, stop, stop_margin, stop_on, prompts: the options every task shares
        (``coonbench.tasks.build.SHARED_OPTIONS``; docs/usage.md "Options every task shares").
    """
    run = task_run(retrieval, unknown, tokenizer=tokenizer, questions=questions, seed=seed, stop=stop,
                   stop_margin=stop_margin, stop_on=stop_on, prompts=prompts)
    if tasks_file is None:  # (a TeaLeaf task file names its own formats)
        check_formats_argument(formats)
    ctx = run.context()
    # every mode: -T questions=N renders only the N questions drawn (under each template -T prompts= chooses)
    task = _retrieval(formats, questions_file, tasks_file, judge, suite, suite_formats,
                      lambda pending: run.drawn(each_prompt_pending(run.prompts, lambda _: pending, ctx), ctx))
    task.metadata = {**(task.metadata or {}), "tokenizer": ctx.tokenizer}
    return run.stopped(task)


def _retrieval(
    formats: str | Sequence[str] | None,
    questions_file: str | None,
    tasks_file: str | None,
    judge: Literal["none", "weighted", "graded"],
    suite: str | None,
    suite_formats: str | Sequence[str] | None,
    select: Callable[[list[Pending]], list[Sample]],
) -> Task:
    """The task ``retrieval`` describes, with the samples ``select`` builds of those its mode lists (counted in
    the tokenizer in use); the dataset's name and metadata count what every listed question skipped."""
    check_judge_mode(judge)
    suite = given_path("suite", suite, "a folder in TOON's published suite layout")
    questions_file = given_path("questions_file", questions_file, "a JSONL question file or a Hugging Face dataset")
    tasks_file = given_path("tasks_file", tasks_file, "a TeaLeaf task-definition JSON file")
    if tasks_file is not None:
        if questions_file is not None:
            raise ValueError("retrieval: give questions_file or tasks_file, not both")
        pending, rejected = analysis_pending(tasks_file, formats)
        samples = select(pending)
        scorers = with_judge(expected_elements(), judge)
        name = f"retrieval-analysis ({len(rejected)} rejected)" if rejected else "retrieval-analysis"
        return Task(dataset=MemoryDataset(samples, name=name), solver=generate_from_metadata(), scorer=scorers)
    if judge != "none":
        raise ValueError("retrieval: judge applies to tasks_file mode only (exact answers need no judge)")
    if suite is not None:
        if questions_file is not None:
            raise ValueError("retrieval: give suite or questions_file, not both")
        ours = parse_conditions(formats) if formats is not None else []
        pending, skips = suite_pending(load_suite(suite), split_param(suite_formats), ours)
        samples = select(pending)
        return Task(dataset=MemoryDataset(samples, name=f"retrieval-suite ({suite})"), solver=generate(),
                    scorer=answer_match(), metrics=answer_metrics(baseline=SUITE_BASELINE),
                    metadata={"suite": str(suite), "skipped": skip_summary(skips)})
    if questions_file is not None and (Path(questions_file).is_dir() or questions_file.endswith(".parquet")):
        pending, skipped = hf_retrieval_pending(questions_file, formats)
    else:
        pending, skipped = retrieval_pending(formats, questions_file)
    samples = select(pending)
    note = "; ".join(f"{fmt} skips {len(ids)}" for fmt, ids in sorted(skipped.items()))
    return Task(dataset=MemoryDataset(samples, name=f"retrieval ({note})" if note else "retrieval"),
                solver=generate(), scorer=answer_match(), metadata={"skipped": skip_summary(skipped)})
