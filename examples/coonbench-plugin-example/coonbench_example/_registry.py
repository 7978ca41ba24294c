"""Inspect entry point of the plug-in: importing it registers the task and scorer below by name.

Inspect prefixes the names with the package (``coonbench_example/lookup``, ``coonbench_example/exact``).
"""

from __future__ import annotations

from importlib.resources import files

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState, generate

from coonbench.formats import get_format
from coonbench.tasks.samples import sample_metadata
from coonbench.solvers.primer import format_primer

PROMPT = "Here is a record in {fmt}:\n\n```{fence}\n{doc}\n```\n\n{question}\nReply with the value only."


def load_records(fmt_name: str) -> MemoryDataset:
    """A dataset loader: questions from the package's JSONL, each record shown in ``fmt_name``."""
    import json

    fmt = get_format(fmt_name)
    samples = []
    lines = files("coonbench_example").joinpath("questions.jsonl").read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, start=1):
        row = json.loads(line)
        prompt = PROMPT.format(fmt=fmt.description, fence=fmt.fence, doc=fmt.encode(row["record"]), question=row["q"])
        samples.append(
            Sample(
                id=f"example-{n}-{fmt_name}",
                input=prompt,
                target=str(row["answer"]),
                metadata=sample_metadata(
                    format=fmt_name, category="example", question_type="lookup", complexity="simple", input_text=prompt
                ),
            )
        )
    return MemoryDataset(samples, name="coonbench-example")


@scorer(name="exact", metrics=[accuracy(), stderr()])
def exact() -> Scorer:
    """Correct when the reply, stripped, equals the target exactly."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = (state.output.completion if state.output else "").strip()
        return Score(value=CORRECT if answer == target.text else INCORRECT, answer=answer)

    return score


@task(name="lookup")
def lookup(format: str = "example-sorted-json") -> Task:
    """Look one value up in a record shown in ``format`` (any registered data format)."""
    return Task(dataset=load_records(format), solver=[format_primer(), generate()], scorer=exact())
