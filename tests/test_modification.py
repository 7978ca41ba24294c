"""The modification dataset: edits computed on the tree, gold 100% in COON and in Dart."""

from __future__ import annotations

from collections import Counter

import pytest
from inspect_ai import eval as inspect_eval

from coonbench.dart import parse_dart
from coonbench.dart.equivalence import ast_equivalent
from coonbench.dart.requirements import check_requirements, normalise_program, parse_requirements
from coonbench.dart.edits import EDIT_KINDS as MODIFICATION_KINDS
from coonbench.dart.edits import Edit, apply_edits
from coonbench.datasets.modification import build_modification_tasks, modification_dataset
from coonbench.evals.modification import modification
from coonbench.solvers.gold import gold
from tests.conftest import code_formats


@pytest.fixture(scope="module")
def tasks() -> list:
    return build_modification_tasks()


def test_enough_tasks_of_every_kind(tasks: list) -> None:
    counts = Counter(t.kind for t in tasks)
    assert len(tasks) >= 50, counts
    assert set(counts) == set(MODIFICATION_KINDS), counts
    fix = Counter(t.subtype for t in tasks if t.kind == "fix-bug")
    assert set(fix) == {"wrong-property", "missing-setstate", "null-safety"}, fix


def test_edits_are_real_and_parse(tasks: list) -> None:
    for t in tasks:
        parse_dart(t.before)
        parse_dart(t.after)
        assert not ast_equivalent(normalise_program(t.before), normalise_program(t.after)), t.id


def test_refactor_checks_accept_the_gold_and_reject_the_input(tasks: list) -> None:
    for t in tasks:
        if t.check != "requirements":
            continue
        reqs = parse_requirements(t.requirements)
        assert all(r.met for r in check_requirements(t.after, reqs)), t.id
        assert not all(r.met for r in check_requirements(t.before, reqs)), t.id


def test_fix_bug_gold_is_the_corpus_source(tasks: list) -> None:
    from coonbench.datasets.corpus import load_corpus

    source = {s.id: s.source for s in load_corpus()}
    for t in tasks:
        if t.kind == "fix-bug":
            assert t.after == source[t.sample_id], t.id


def test_apply_edits_orders_ranges() -> None:
    assert apply_edits("abcdef", [Edit(0, 1, "X"), Edit(4, 6, "")]) == "Xbcd"


def test_deterministic(tasks: list) -> None:
    again = build_modification_tasks()
    assert [(t.id, t.instruction, t.after) for t in again] == [(t.id, t.instruction, t.after) for t in tasks]
    assert len({t.id for t in tasks}) == len(tasks)


def test_unknown_input_format_is_named() -> None:
    with pytest.raises(ValueError, match="unknown format 'json': 'json' is a kind=\"data\" format.*registered code formats: .*coon"):
        modification_dataset(input_format="json")


def test_small_bands_fit_a_small_context() -> None:
    ds = modification_dataset(bands="simple,composed", input_format=",".join(code_formats()))
    assert max(s.metadata["input_tokens"] for s in ds) <= 1500  # type: ignore[index]


@pytest.mark.parametrize(
    "bands", ["composed,stateful", pytest.param(None, marks=pytest.mark.slow, id="all-bands")]
)
@pytest.mark.parametrize("input_format", code_formats())
def test_gold_scores_100_percent(input_format: str, bands: str | None) -> None:
    [log] = inspect_eval(
        modification(input_format=input_format, bands=bands),
        solver=gold(),
        model="mockllm/model",
        display="none",
        log_dir=None,
    )  # type: ignore[arg-type]
    assert log.status == "success", log.error
    assert log.results is not None
    metrics = {s.name: s.metrics for s in log.results.scores}
    assert metrics["correct"]["mean"].value == 1.0
    for kind in MODIFICATION_KINDS:
        assert metrics["correct"][f"coonbench/by_kind_{kind}"].value == 1.0
    assert metrics["correct"][f"coonbench/by_format_{input_format}"].value == 1.0


def test_normalised_comparison_keeps_the_annotation_gap() -> None:
    """``normalise_program`` spaces every token; ``@x(`` (arguments) and ``@x (`` (a record type follows) must still
    differ after it, and the same program laid out differently must not."""
    laid_out = "class A extends B {\n  @override\n  (int, int) get p => (1, 2);\n  @M(1)\n  void f() {}\n}\n"
    one_line = " ".join(laid_out.split())
    glued = one_line.replace("@override (", "@override(")
    assert ast_equivalent(normalise_program(laid_out), normalise_program(one_line))
    assert not ast_equivalent(normalise_program(laid_out), normalise_program(glued))
    assert not ast_equivalent(normalise_program(laid_out), normalise_program(one_line.replace("@M(1)", "@M (1)")))
