"""``-T stop_on=``: the comparisons ``-T stop=decided`` decides, written ``a:b`` (``coon:dart,coon-noprimer:dart``)
or ``all``; by default the design's own (every condition of a format that declares a baseline, against that
baseline: COON against Dart), else every pair of formats.

The report judges a format's design on exactly those comparisons (``coonbench.report.verdicts``); deciding every
pair instead makes a run wait on comparisons nobody asked about, such as two conditions that are equally wrong and
would have to be proved equivalent.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from coonbench.tasks.samples import TaskArgumentError, did_you_mean, shown, split_param

ALL = "all"
Pair = tuple[str, str]


def check_stop_on(stop: str, stop_on: object) -> list[str] | None:
    """``-T stop_on=`` checked for its form before anything is built (its names are checked against the task's
    formats once they are known: ``resolve_stop_on``); None when not given."""
    if stop_on is None:
        return None
    if stop != "decided":
        raise TaskArgumentError(f"-T stop_on={shown(stop_on)}: only with -T stop=decided")
    entries = split_param(stop_on if isinstance(stop_on, str | list | tuple) else str(stop_on)) or []
    if not entries:
        raise TaskArgumentError(f"-T stop_on={shown(stop_on)}: expected comparisons a:b (e.g. coon:dart) or all")
    for entry in entries:
        if entry != ALL and ":" not in entry:
            raise TaskArgumentError(f"-T stop_on={shown(stop_on)}: '{entry}' is not a comparison: write two formats "
                                    "as a:b (e.g. coon:dart), or all")
    if ALL in entries and len(entries) > 1:
        raise TaskArgumentError(f"-T stop_on={shown(stop_on)}: 'all' stands alone")
    return entries


def design_pairs(labels: Sequence[str]) -> list[Pair]:
    """(condition, baseline) for every condition whose format declares design thresholds whose baseline is among
    ``labels``: the comparisons the report's design verdicts are made on."""
    from coonbench.tasks.conditions import parse_condition

    out = []
    for label in labels:
        for kind in ("code", "data"):
            try:
                design = parse_condition(label, kind).fmt.design_thresholds()
            except Exception:  # noqa: BLE001 - a label no plug-in of this kind has: no design known
                continue
            if design is not None and design.baseline in labels and design.baseline != label:
                out.append((label, design.baseline))
            break
    return out


def _split(entry: str, labels: Sequence[str], given: str) -> Pair:
    """``a:b`` as two of ``labels`` (a label may hold a colon itself: ``coon:full:dart``)."""
    parts = entry.split(":")
    found = [(a, b) for i in range(1, len(parts))
             if (a := ":".join(parts[:i]).strip()) in labels and (b := ":".join(parts[i:]).strip()) in labels]
    if len(found) == 1 and found[0][0] != found[0][1]:
        return found[0]
    if found:
        raise TaskArgumentError(f"-T stop_on={given}: '{entry}' compares a format with itself")
    side = next((s.strip() for s in parts if s.strip() not in labels), entry)
    raise TaskArgumentError(f"-T stop_on={given}: no format '{side}' in this run{did_you_mean(side, labels)} "
                            f"(its formats: {', '.join(labels)})")


def resolve_stop_on(entries: list[str] | None, labels: Sequence[str]) -> list[Pair]:
    """The comparisons to decide among the run's format ``labels``: those named, or ``all`` pairs, or (none named)
    ``design_pairs`` where there are any, else all pairs."""
    labels = sorted(set(labels))
    every = list(itertools.combinations(labels, 2))
    if entries is None:
        return design_pairs(labels) or every
    if entries == [ALL]:
        return every
    given = ",".join(entries)
    out: list[Pair] = []
    for entry in entries:
        pair = _split(entry, labels, given)
        if pair not in out and pair[::-1] not in out:
            out.append(pair)
    return out
