"""Subsets that stay paired: ``-T questions=N -T seed=S`` keeps N whole questions, every format of each.

``--limit N`` takes the first N samples, and tasks list a question's formats one after the other, so a small limit
runs the first question's first formats only (no baseline at all), and a larger one gives the formats different
questions: the report's paired tests lose their pairs. ``paired_subset`` instead draws N questions (a question is a
``pair_id``, or a sample id less its ``-<format>`` suffix) with a seeded generator, balanced over the corpus bands
(metadata ``complexity``) and the question types, and keeps every selected format condition of each: the formats
see the same questions. Only questions that every format of the run can show are drawn (a format that refuses a
source file leaves that question incomplete), so every paired comparison gets all N.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai.dataset import Sample

from coonbench.tasks.context import BuildContext
from coonbench.tasks.samples import TaskArgumentError

STRATA = ("complexity", "question_type")
"""Sample metadata keys the draw is balanced over: the corpus band and the question type."""


def question_group(sample_id: str, metadata: Mapping[str, Any]) -> str:
    """The question a sample asks, across formats: ``pair_id`` or the id without its ``-<format>`` suffix."""
    if metadata.get("pair_id") is not None:
        return str(metadata["pair_id"])
    fmt = str(metadata.get("format", ""))
    return sample_id[: -len(fmt) - 1] if fmt and sample_id.endswith("-" + fmt) else sample_id


def groups_of(samples: Sequence[Sample]) -> dict[str, list[Sample]]:
    """Samples by question, in the order questions first appear."""
    out: dict[str, list[Sample]] = {}
    for s in samples:
        out.setdefault(question_group(str(s.id), s.metadata or {}), []).append(s)
    return out


def balanced_draw(strata: Mapping[str, tuple[str, ...]], n: int, seed: int) -> list[str]:
    """``n`` keys of ``strata`` (key → its value on each stratifying variable), drawn so that every variable's
    values are represented in proportion to the population (at each draw, from the cell whose values are most
    behind their share), the cell's member and ties chosen by a generator seeded with ``seed``."""
    rng = random.Random(seed)
    cells: dict[tuple[str, ...], list[str]] = {}
    for key in sorted(strata):
        cells.setdefault(strata[key], []).append(key)
    for members in cells.values():
        rng.shuffle(members)
    order = sorted(cells)
    rng.shuffle(order)  # ties between equally deserving cells: seeded, not alphabetical
    total = len(strata)
    share = [Counter(cell[i] for cell in strata.values()) for i in range(len(STRATA))]
    taken: list[Counter[str]] = [Counter() for _ in STRATA]
    chosen: list[str] = []
    for step in range(1, n + 1):
        def behind(cell: tuple[str, ...]) -> float:
            return sum(share[i][v] * step / total - taken[i][v] for i, v in enumerate(cell))

        best = max((c for c in order if cells[c]), key=behind)  # max keeps the first of equals: the seeded order
        chosen.append(cells[best].pop())
        for i, v in enumerate(best):
            taken[i][v] += 1
    return chosen


def check_questions(questions: object) -> int:
    """``-T questions=`` as a count of questions; TaskArgumentError unless a whole number, 1 or more."""
    if isinstance(questions, bool) or not isinstance(questions, int) or questions < 1:
        raise TaskArgumentError(f"-T questions={questions}: expected a whole number of questions, 1 or more")
    return questions


def check_subset(questions: object, seed: object) -> None:
    """``-T questions=`` and ``-T seed=`` checked before a task builds its samples (which may take a minute), so
    that a mistyped one stops the run in its first second; TaskArgumentError naming the argument."""
    if questions is not None:
        check_questions(questions)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TaskArgumentError(f"-T seed={seed}: expected a whole number (the seed of the questions' draw)")


def too_few_questions(questions: int, complete: int, total: int, formats: set[str] | None = None) -> TaskArgumentError:
    """The error for more questions than every format can show."""
    named = f" ({', '.join(sorted(formats))})" if formats else ""
    return TaskArgumentError(
        f"-T questions={questions}: only {complete} of the {total} questions can be shown in every selected "
        f"format{named}; ask for at most {complete}, or for all of them"
    )


def paired_subset(samples: Sequence[Sample], questions: int | None, seed: int = 0) -> list[Sample]:
    """``questions`` whole questions of ``samples`` (every format of each, in the dataset's order), drawn with
    ``seed`` and balanced over band and question type; all of them when ``questions`` is None or not below the
    number of questions. TaskArgumentError when ``questions`` is below 1 or above the questions every format has."""
    return build_subset([Pending.of(s) for s in samples], questions, seed)


@dataclass(frozen=True)
class Pending:
    """A sample not built yet: what the draw reads of it (its question, stratum and format, as ``question_group``,
    ``STRATA`` and metadata ``format`` give them for the built sample) and how to build it. A loader that lists its
    samples this way lets ``-T questions=N`` build only the N questions drawn (``build_subset``); ``build`` takes
    the ``BuildContext`` the sample is built for."""

    key: str
    stratum: tuple[str, ...]
    format: str
    build: Callable[[BuildContext], Sample]

    @classmethod
    def of(cls, sample: Sample) -> Pending:
        """A sample already built, as the draw reads it."""
        meta = sample.metadata or {}
        return cls(question_group(str(sample.id), meta), tuple(str(meta.get(key, "-")) for key in STRATA),
                   str(meta.get("format")), lambda _: sample)


def drawn_questions(pending: Sequence[Pending], questions: int, seed: int) -> set[str] | None:
    """The questions (``Pending.key``) ``-T questions=`` keeps, or None for all of them; only questions that every
    format of the run has are drawn. TaskArgumentError when ``questions`` is below 1 or above those."""
    check_questions(questions)
    strata: dict[str, tuple[str, ...]] = {}
    formats_of: dict[str, set[str]] = {}
    for p in pending:
        strata.setdefault(p.key, p.stratum)  # a question's stratum is its first sample's
        formats_of.setdefault(p.key, set()).add(p.format)
    if questions >= len(strata):
        return None
    formats = {p.format for p in pending}
    complete = {key: stratum for key, stratum in strata.items() if formats_of[key] == formats}
    if questions > len(complete):
        raise too_few_questions(questions, len(complete), len(strata), formats)
    return set(balanced_draw(complete, questions, seed))


def build_subset(pending: Sequence[Pending], questions: int | None, seed: int = 0,
                 ctx: BuildContext | None = None) -> list[Sample]:
    """``paired_subset`` of samples not built yet: only the drawn questions' samples are built, for ``ctx`` (the
    default context when None), all of them when ``questions`` is None or not below the number of questions, in
    the same order."""
    chosen = None if questions is None else drawn_questions(pending, questions, seed)
    ctx = ctx if ctx is not None else BuildContext()
    if chosen is None:
        return [p.build(ctx) for p in pending]
    groups: dict[str, list[Pending]] = {}
    for p in pending:
        groups.setdefault(p.key, []).append(p)
    return [p.build(ctx) for key, group in groups.items() if key in chosen for p in group]
