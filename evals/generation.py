"""Generation: can a model write COON — from Dart, into a hole, or from a list of requirements?"""

from __future__ import annotations

from typing import Literal

from inspect_ai import Task, task

from coonbench.datasets.generation import generation_dataset
from scorers.code import code_check
from scorers.judge import with_judge
from solvers.primer import format_primer
from solvers.retry import retry_generate


@task(name="coonbench/generation")
def generation(
    kinds: str | list[str] = "dart-to-coon,coon-completion,nl-to-coon",
    bands: str | list[str] | None = None,
    max_retries: int = 2,
    primer: str = "short",
    judge: Literal["none", "weighted", "graded"] = "none",
    format: str = "coon",
) -> Task:
    """Corpus-derived generation tasks, answered in ``format`` (COON) with validator feedback retries.

    Args:
      kinds: dart-to-coon, coon-completion, nl-to-coon (comma-separated).
      bands: corpus bands to keep: simple, composed, stateful, complex, edge (default all).
      max_retries: feedback rounds after a reply that does not validate or decode.
      primer: primer variant of the format, short or full.
      judge: also grade with the LLM judge (role ``judge``; ``weighted`` or ``graded``) beside the
        deterministic check, so the two can be compared per sample.
      format: the format answers are written in (a registered lossless code format; coon by default).
    """
    return Task(
        dataset=generation_dataset(kinds, bands, format),
        solver=[format_primer(primer), retry_generate(max_retries)],  # type: ignore[arg-type]
        scorer=with_judge(code_check(), judge),
    )
