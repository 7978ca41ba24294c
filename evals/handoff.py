"""Handoff: agent A passes a Dart program on in a told format; agent B, seeing only A's message, answers or edits.

    inspect eval evals/handoff.py --model mockllm/model --solver coonbench/gold -T formats=coon,dart
    inspect eval evals/handoff.py -T formats=coon,dart-minified,dart,free -T modes=modification --model …
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai import Epochs, Task, task

from coonbench.datasets.handoff import DEFAULT_FORMATS, handoff_samples
from coonbench.scorers.answer import epoch_mean
from coonbench.scorers.handoff import handoff_score
from coonbench.solvers.handoff import handoff_agents
from coonbench.tasks.build import task_run
from coonbench.tasks.conditions import Skip
from coonbench.tasks.context import BuildContext
from coonbench.tasks.subset import Pending, check_questions


@task(name="handoff")
def handoff(
    formats: str | Sequence[str] = DEFAULT_FORMATS,
    modes: str | Sequence[str] = "comprehension",
    tokenizer: str | None = None,
    questions: int | None = None,
    seed: int = 0,
    **unknown: Any,
) -> Task:
    """Multi-agent code transfer: A reads Dart and hands it over; B answers a comprehension question or makes an
    edit from A's message alone.

    Args:
      formats: what A is told to write: lossless code formats (``coon``, ``dart-minified``, ``dart``, a plug-in's;
        ``NAME:noprimer`` without the primer, which A and B otherwise both get) and ``free`` (A's choice).
      modes: B's task: ``comprehension`` (the comprehension task's questions) and/or ``modification`` (its edits,
        answered in Dart).
      tokenizer: the tokenizer handed tokens are counted in (default: the model under test's family).
      questions: keep this many whole questions or edits (every format of each), drawn with ``seed`` and
        balanced over band and question type before any sample is built.
      seed: the seed of the ``questions`` draw.
    """
    run = task_run(handoff, unknown, tokenizer=tokenizer, seed=seed)  # its own draw: over base items, below
    if questions is not None:
        check_questions(questions)  # before anything is built

    def listing(ctx: BuildContext) -> tuple[list[Pending], list[Skip]]:
        samples, skips = handoff_samples(formats, modes, questions, seed, ctx=ctx)
        return [Pending.of(s) for s in samples], skips

    return run.build("handoff", listing, dataset_name="coonbench-handoff", solver=handoff_agents(),
                     scorer=handoff_score(), epochs=Epochs(1, epoch_mean()))
