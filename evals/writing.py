"""Writing data formats: the model writes the records it is given as a document in the format under test, with up
to ``repairs`` rounds of the decoder's error (or the first data difference) fed back.

    inspect eval evals/writing.py -T formats=json,json-structured,toon,yaml,csv --model …
    inspect eval evals/writing.py -T sources=json -T shapes=flat,invoice -T repairs=0 --model …
    inspect eval evals/writing.py -T questions=6 -T sizes=small,medium --model …
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai import Task, task

from coonbench.datasets.writing import parse_sources, parse_writing_conditions, writing_pending
from coonbench.datasets.writing.cases import SHAPES, SIZES
from coonbench.scorers.writing import writing_scorer
from coonbench.solvers.writing import DEFAULT_REPAIRS, writing_protocol
from coonbench.tasks.build import task_run
from coonbench.tasks.conditions import Skip
from coonbench.tasks.context import BuildContext
from coonbench.tasks.samples import TaskArgumentError, choose
from coonbench.tasks.subset import Pending


@task(name="writing")
def writing(
    formats: str | Sequence[str] | None = None,
    sources: str | Sequence[str] | None = None,
    shapes: str | Sequence[str] | None = None,
    sizes: str | Sequence[str] | None = None,
    repairs: int = DEFAULT_REPAIRS,
    questions: int | None = None,
    seed: int = 0,
    tokenizer: str | None = None,
    stop: str = "budget",
    stop_margin: float | None = None,
    **unknown: Any,
) -> Task:
    """Write each case's data as a document in each format; graded by decoding it with the format's own decoder.

    Args:
      formats: comma-separated data-format conditions (``NAME``, ``NAME:noprimer``, ``NAME:full``) and
        ``json-structured`` (JSON with the case's JSON schema as the response schema: constrained decoding where the
        provider honours it, a llama.cpp grammar on ``gguf/``); ``all`` (default): every data format with a
        decoder, and json-structured. A format that cannot hold a case (CSV on nested data) skips it; the skips and
        reasons are in the eval's metadata.
      sources: what the model is given: ``description`` (a line per value, computed fields as rules) and/or data
        formats the same data is shown in (default ``description,json``; a format is not asked to copy itself).
      shapes: flat, nested, arrays, irregular, invoice, config (default all).
      sizes: small, medium, large (3, 8, 20 records; configs 2, 3, 5 levels deep; default all).
      repairs: rounds of feedback after a wrong document (default 3; 0: one attempt).
      questions: keep this many whole cases, every selected format and source of each, drawn with ``seed`` and
        balanced over size and shape (``coonbench.tasks.subset``; ``--limit`` would give the formats different
        cases); only cases every selected format can hold are drawn (CSV holds the flat ones only).
      seed: the seed the cases are generated with (0: the published cases), and of the ``questions`` draw.
      tokenizer: the tokenizer ``input_tokens`` count in (default: the model under test's family).
      stop: ``budget`` or ``decided`` (stop once every paired comparison of formats is decided; docs/planning.md).
      stop_margin: with ``stop=decided``, the equivalence margin (default 0.05).
    """
    run = task_run(writing, unknown, tokenizer=tokenizer, questions=questions, seed=seed, stop=stop,
                   stop_margin=stop_margin)
    if not isinstance(repairs, int) or isinstance(repairs, bool) or repairs < 0:
        raise TaskArgumentError(f"-T repairs={repairs}: must be a whole number (0 or more)")
    conditions, refused = parse_writing_conditions(formats)
    chosen_sources = parse_sources(sources)
    chosen_shapes = choose("shapes", shapes, SHAPES, "shape") or list(SHAPES)
    chosen_sizes = choose("sizes", sizes, list(SIZES), "size") or list(SIZES)

    def listing(_: BuildContext) -> tuple[list[Pending], list[Skip]]:
        pending, skips = writing_pending(conditions, chosen_sources, chosen_shapes, chosen_sizes, seed)
        return pending, refused + skips

    return run.build("writing", listing, dataset_name="writing", solver=writing_protocol(repairs=repairs),
                     scorer=writing_scorer(), metadata={"repairs": repairs, "seed": seed})
