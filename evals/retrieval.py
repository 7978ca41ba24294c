"""Retrieval over data formats: TOON-style exact questions, or a TeaLeaf task file analysed in every format.

    inspect eval evals/retrieval.py -T formats=json,toon,tealeaf-compact --model …
    inspect eval evals/retrieval.py -T questions_file=my/questions.jsonl --model …
    inspect eval evals/retrieval.py -T tasks_file=../shared/reference/tealeaf/tasks/synthetic.json --model …
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.solver import generate

from coonbench.datasets.retrieval import analysis_samples, retrieval_dataset
from scorers.answer import answer_match
from scorers.expected_elements import expected_elements
from scorers.judge import with_judge
from solvers.sample_config import generate_from_metadata


@task(name="coonbench/retrieval")
def retrieval(
    formats: str | Sequence[str] | None = None,
    questions_file: str | None = None,
    tasks_file: str | None = None,
    judge: Literal["none", "weighted", "graded"] = "none",
) -> Task:
    """Exact-answer retrieval (default, or ``questions_file``) or TeaLeaf analysis (``tasks_file``).

    Args:
      formats: comma-separated format names (default json,json-compact,toon,tealeaf-compact,yaml,xml,csv);
        a format that cannot hold a dataset (CSV on nested data) is skipped for it, with a warning.
      questions_file: a JSONL of {id, dataset, question, answer, answer_type} (dataset relative to the file).
      tasks_file: a TeaLeaf task-definition JSON, used unchanged; scored with TeaLeaf's heuristic rubric.
      judge: in tasks_file mode, also grade with the LLM judge (``weighted`` or ``graded``; role ``judge``).
    """
    if tasks_file is not None:
        if questions_file is not None:
            raise ValueError("retrieval: give questions_file or tasks_file, not both")
        samples, rejected = analysis_samples(tasks_file, formats)
        scorers = with_judge(expected_elements(), judge)
        name = f"retrieval-analysis ({len(rejected)} rejected)" if rejected else "retrieval-analysis"
        return Task(dataset=MemoryDataset(samples, name=name), solver=generate_from_metadata(), scorer=scorers)
    if judge != "none":
        raise ValueError("retrieval: judge applies to tasks_file mode only (exact answers need no judge)")
    return Task(dataset=retrieval_dataset(formats, questions_file), solver=generate(), scorer=answer_match())
