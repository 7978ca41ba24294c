"""Comprehension: can a model answer questions about Flutter code it reads in COON, Dart or minified Dart?"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.solver import generate

from coonbench.datasets.comprehension import comprehension_dataset
from coonbench.formats.coon import widget_aliases
from scorers.answer import answer_match, answer_metrics
from scorers.efficiency import verdict
from solvers.primer import format_primer


@task(name="coonbench/comprehension")
def comprehension(
    formats: str | list[str] = "coon,coon-noprimer,dart,dart-minified",
    bands: str | list[str] | None = None,
    question_types: str | list[str] | None = None,
    primer: str = "short",
) -> Task:
    """AST-derived questions about the Dart corpus, each shown in every selected format condition.

    Args:
      formats: conditions to compare: coon, coon-noprimer, dart, dart-minified.
      bands: corpus bands to keep: simple, composed, stateful, complex, edge (default all).
      question_types: widget_identification, property_retrieval, structure, relationship, semantic.
      primer: primer variant, short or full.
    """
    return Task(
        dataset=comprehension_dataset(formats, bands, question_types, primer_variant=primer),
        solver=[format_primer(primer), generate()],  # type: ignore[arg-type]
        scorer=answer_match(aliases=widget_aliases()),  # widget names may be answered as COON abbreviations
        metrics=[*answer_metrics(("format", "question_type", "complexity"), baseline="dart"), verdict()],
    )
