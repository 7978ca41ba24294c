"""The generation dataset: enough tasks, built by code, whose gold answers score 100%."""

from __future__ import annotations

from collections import Counter

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.dart.equivalence import ast_equivalent
from coonbench.dart.requirements import check_requirements, contains_expression, parse_requirements
from coonbench.datasets.generation import (
    GENERATION_KINDS,
    HOLE,
    build_generation_tasks,
    generation_dataset,
)
from coonbench.dart.generation import derive_requirements
from coonbench.formats import FormatError, get_format
from coonbench.evals.generation import generation
from coonbench.solvers.gold import gold


def _answer_format() -> str:
    try:
        get_format("coon")
        return "coon"
    except FormatError:
        return "dart"


FMT = _answer_format()


@pytest.fixture(scope="module")
def tasks() -> list:
    return build_generation_tasks(fmt_name=FMT)


def test_enough_tasks_of_every_kind(tasks: list) -> None:
    counts = Counter(t.kind for t in tasks)
    assert len(tasks) >= 60, counts
    assert set(counts) == set(GENERATION_KINDS)
    assert min(counts.values()) >= 10, counts


def test_deterministic(tasks: list) -> None:
    again = build_generation_tasks(fmt_name=FMT)
    assert [(t.id, t.prompt, t.requirements) for t in again] == [(t.id, t.prompt, t.requirements) for t in tasks]
    assert len({t.id for t in tasks}) == len(tasks)


def test_ground_truth_holds_on_the_source(tasks: list) -> None:
    fmt = get_format(FMT)
    for t in tasks:
        assert ast_equivalent(fmt.decode(fmt.encode(t.gold_program)), t.gold_program), t.id
        if t.kind == "nl-to-coon":
            reqs = parse_requirements(t.requirements)
            assert len(reqs) >= 2
            assert all(r.met for r in check_requirements(t.gold_program, reqs)), t.id
        if t.kind == "coon-completion":
            assert t.prompt.split("```")[1].count(HOLE) == 1, t.id  # once, inside the code block
            assert contains_expression(t.gold_program, t.extra["hole_subtree"]), t.id


def test_derived_requirements_are_all_kept() -> None:
    """Derivation never produces a requirement its own source fails (the builder's filter is a no-op)."""
    from coonbench.datasets.corpus import load_corpus

    for sample in load_corpus():
        reqs = derive_requirements(sample.source)
        assert all(r.met for r in check_requirements(sample.source, reqs)), sample.id


def test_requirements_tell_programs_apart(tasks: list) -> None:
    """An nl task's requirements reject most other corpus programs (they are not vacuous)."""
    nl = [t for t in tasks if t.kind == "nl-to-coon"]
    for t in nl[:30]:
        reqs = parse_requirements(t.requirements)
        others = [o for o in nl if o.sample_id != t.sample_id][:20]
        passing = [o.sample_id for o in others if all(r.met for r in check_requirements(o.gold_program, reqs))]
        assert not passing, (t.id, passing)


def test_small_bands_fit_a_small_context() -> None:
    ds = generation_dataset(bands="simple,composed", fmt_name=FMT)
    assert len(ds) > 0
    assert max(s.metadata["input_tokens"] for s in ds) <= 1500  # type: ignore[index]


def test_unknown_kind_is_named() -> None:
    with pytest.raises(ValueError, match="unknown generation kind 'poetry'"):
        build_generation_tasks(kinds="poetry")


@pytest.mark.parametrize(
    "bands", ["simple,composed", pytest.param(None, marks=pytest.mark.slow, id="all-bands")]
)
def test_gold_scores_100_percent(bands: str | None) -> None:
    [log] = inspect_eval(
        generation(format=FMT, bands=bands), solver=gold(), model="mockllm/model", display="none", log_dir=None
    )  # type: ignore[arg-type]
    assert log.status == "success", log.error
    assert log.results is not None
    metrics = {s.name: s.metrics for s in log.results.scores}
    assert metrics["correct"]["mean"].value == 1.0
    assert metrics["decodable"]["mean"].value == 1.0
    for kind in GENERATION_KINDS:
        assert metrics["correct"][f"coonbench/by_kind_{kind}"].value == 1.0
    assert log.samples and all(s.scores["code_check"].value["attempts"] == 1 for s in log.samples)  # type: ignore[index]
