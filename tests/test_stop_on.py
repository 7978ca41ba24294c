"""``-T stop_on=``: which comparisons ``-T stop=decided`` decides — the design's by default (each format that
declares a baseline against it), all pairs without one, or those named — and one-line errors for the rest."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from coonbench.formats import get_format
from coonbench.tasks.samples import TaskArgumentError
from coonbench.tasks.stop_on import check_stop_on, design_pairs, resolve_stop_on
from coonbench.tasks.stopping import Monitor

COMPREHENSION = ["coon", "coon-noprimer", "dart", "dart-minified"]


def test_the_default_is_the_design_comparison_of_each_format_that_declares_a_baseline() -> None:
    baseline = get_format("coon").design_thresholds().baseline  # COON's design document: raw Dart
    expected = [(label, baseline) for label in COMPREHENSION if label.startswith("coon")]
    assert resolve_stop_on(None, COMPREHENSION) == design_pairs(COMPREHENSION) == expected
    assert all(get_format(a.split("-")[0]).design_thresholds() is not None for a, _ in expected)


def test_without_a_declared_baseline_every_pair_is_decided() -> None:
    data = ["json", "toon", "yaml"]
    assert get_format("toon").design_thresholds() is None and get_format("json").design_thresholds() is None
    assert resolve_stop_on(None, data) == list(itertools.combinations(data, 2))
    assert resolve_stop_on(None, ["coon", "dart-minified"]) == [("coon", "dart-minified")]  # its baseline absent


def test_named_comparisons_keep_their_order_and_labels_may_hold_a_colon() -> None:
    labels = ["coon", "coon:full", "dart", "dart-minified"]
    assert resolve_stop_on(["coon:full:dart", "dart:coon", "coon:dart"], labels) == [("coon:full", "dart"),
                                                                                  ("dart", "coon")]
    assert resolve_stop_on(["all"], labels) == list(itertools.combinations(sorted(labels), 2))


@pytest.mark.parametrize("stop,value,message", [
    ("budget", "coon:dart", "only with -T stop=decided"),
    ("decided", "coon", "'coon' is not a comparison"),
    ("decided", "", "expected comparisons a:b"),
    ("decided", "all,coon:dart", "'all' stands alone"),
])
def test_bad_stop_on_forms_are_one_line_errors(stop: str, value: Any, message: str) -> None:
    with pytest.raises(TaskArgumentError, match=message):
        check_stop_on(stop, value)


@pytest.mark.parametrize("value,message", [
    ("coon:drat", "no format 'drat' in this run; did you mean 'dart'"),
    ("coon:coon", "compares a format with itself"),
])
def test_names_are_checked_against_the_runs_formats(value: str, message: str) -> None:
    with pytest.raises(TaskArgumentError, match=message):
        resolve_stop_on(check_stop_on("decided", value), COMPREHENSION)


def test_the_monitor_decides_only_the_comparisons_asked_about() -> None:
    """Two equally wrong conditions (COON with and without its primer) need not be shown equivalent: with the
    design's comparisons the rule stops once both differ from Dart."""
    samples = [(f"q{q}-{f}", {"format": f, "dataset": f"d{q}"}) for q in range(60) for f in COMPREHENSION]
    right = {"dart"}
    runs = {}
    for pairs in (None, resolve_stop_on(["all"], COMPREHENSION)):
        monitor = Monitor(samples, pairs=pairs)
        for sid, meta in samples:
            if monitor.ask(sid):
                monitor.record(sid, 1, 1.0 if meta["format"] in right else 0.0)
        runs["design" if pairs is None else "all"] = monitor.summary()
    design, every = runs["design"], runs["all"]
    assert design["stop_on"] == ["coon:dart", "coon-noprimer:dart"] and design["reason"].startswith("decided")
    assert len(every["comparisons"]) == 6 and design["questions_asked"] < every["questions_asked"]
    assert every["reason"].startswith("futile")  # the equal pairs: not decidable in the items left
    assert design["alpha_per_comparison"] == pytest.approx(0.05 / 2)
