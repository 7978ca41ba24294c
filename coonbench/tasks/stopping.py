"""``-T stop=decided``: stop asking questions once every comparison asked about is decided, or can no longer be
(Inspect's EarlyStopping).

Every task takes ``-T stop=budget`` (the default: ask every planned question) or ``-T stop=decided`` with
``-T stop_margin=M`` (the equivalence margin, a difference in accuracy; default 0.05) and ``-T stop_on=a:b,…``
(the comparisons to decide, ``coonbench.tasks.stop_on``: by default the design's, COON against Dart, else every
pair of formats). With ``decided`` the task's
questions are put in a seeded random order of source items (clusters: the report's cluster keys, else the
question), each item's questions together and each question's formats together, and ``DecidedStopping`` watches
the scores: once every sample of a source item has been scored it adds the item's mean paired difference (per
comparison) to an anytime-valid confidence sequence (``coonbench.tasks.anytime``; Bonferroni over the comparisons,
95% simultaneous), items entering in their drawn order whatever order they finish in. A comparison is decided when
its interval excludes 0 or lies inside ±margin, and futile when the source items left cannot decide it, not even
if each showed a difference at an end of the interval so far, or none (``BettingCS.decidable``). When every comparison is decided or
futile it schedules no new question: a question already started runs to its end (its formats stay paired), the
rest are recorded as stopped early. The run's log holds why and when (``results.early_stopping.metadata``), which
``coonbench report`` reads. Stopping for futility claims nothing: a futile comparison stays undecided.

Treating a source item's mean difference as the unit keeps the sequence valid when questions of one item are
correlated (the item is the independent draw, as in the report's clustered tests); the random order makes the
items that come first a fair sample of all of them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

import numpy as np
from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.util import EarlyStop

from coonbench.tasks.anytime import METHOD, BettingCS, decide
from coonbench.tasks.samples import CLUSTER_KEYS, TaskArgumentError
from coonbench.tasks.stop_on import Pair, check_stop_on, resolve_stop_on
from coonbench.tasks.subset import question_group

STOP_RULES = ("budget", "decided")
DEFAULT_MARGIN = 0.05  # the equivalence margin: ±5 points of accuracy
ALPHA = 0.05  # simultaneous over the comparisons (Bonferroni)
MANAGER = "coonbench/decided"
SCORE_KEY = "correct"  # the score the comparisons are on (the first scorer's)


def check_stop(stop: object, stop_margin: object) -> tuple[str, float]:
    """``-T stop=`` and ``-T stop_margin=`` checked; TaskArgumentError naming the one that is wrong."""
    if stop not in STOP_RULES:
        raise TaskArgumentError(f"-T stop={stop}: expected one of {', '.join(STOP_RULES)}")
    if stop_margin is None:
        return str(stop), DEFAULT_MARGIN
    if stop != "decided":
        raise TaskArgumentError(f"-T stop_margin={stop_margin}: only with -T stop=decided")
    try:
        margin = float(stop_margin)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        margin = math.nan
    if isinstance(stop_margin, bool) or not 0 < margin < 1:
        raise TaskArgumentError(f"-T stop_margin={stop_margin}: expected a difference in accuracy above 0 and "
                                "below 1 (0.05 is five points)")
    return str(stop), margin


def cluster_of(sample_id: str, metadata: Mapping[str, Any]) -> str:
    """The source item a sample's question comes from: the first of the report's cluster keys, else its question."""
    value = next((metadata[k] for k in CLUSTER_KEYS if metadata.get(k) is not None), None)
    return str(value) if value is not None else question_group(sample_id, metadata)


def decided_order(samples: Sequence[Sample], seed: int) -> list[Sample]:
    """``samples`` with their source items in a random order seeded by ``seed``, each item's questions together
    (in the dataset's order) and each question's formats together."""
    items: dict[str, dict[str, list[Sample]]] = {}
    for s in samples:
        meta = s.metadata or {}
        items.setdefault(cluster_of(str(s.id), meta), {}).setdefault(question_group(str(s.id), meta), []).append(s)
    order = list(items)
    random.Random(seed).shuffle(order)
    return [s for key in order for group in items[key].values() for s in group]


def stop_when(task: Task, stop: str = "budget", stop_margin: float | None = None, seed: int = 0,
              stop_on: str | list[str] | None = None) -> Task:
    """``task`` as ``-T stop=`` asks: unchanged for ``budget``; for ``decided``, its samples in ``decided_order``
    and ``DecidedStopping`` on the ``stop_on`` comparisons as its early-stopping manager."""
    rule, margin = check_stop(stop, stop_margin)
    entries = check_stop_on(rule, stop_on)
    if rule == "decided":
        name = getattr(task.dataset, "name", None)
        samples = list(task.dataset)
        pairs = resolve_stop_on(entries, [str((s.metadata or {}).get("format", "default")) for s in samples])
        task.dataset = MemoryDataset(decided_order(samples, seed), name=name)
        task.early_stopping = DecidedStopping(margin, pairs=pairs)
        task.metadata = {**(task.metadata or {}), "stop": rule, "stop_margin": margin,
                         "stop_on": [f"{a}:{b}" for a, b in pairs]}
    return task


def score_value(scores: Mapping[str, Any]) -> float:
    """The first scorer's ``correct`` (or its only value) as a number in [0, 1]; NaN when there is none."""
    for sample_score in scores.values():
        value = getattr(getattr(sample_score, "score", sample_score), "value", None)
        if isinstance(value, Mapping):
            value = value.get(SCORE_KEY, next(iter(value.values()), None) if len(value) == 1 else None)
        if isinstance(value, str):
            value = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}.get(value.strip().upper())
        if isinstance(value, bool | int | float) and math.isfinite(float(value)):
            return min(max(float(value), 0.0), 1.0)
        return math.nan
    return math.nan


class Monitor:
    """The stopping rule on plain data: which questions to ask, the scores seen, the confidence sequences."""

    def __init__(self, samples: Sequence[tuple[str, Mapping[str, Any]]], epochs: int = 1,
                 margin: float = DEFAULT_MARGIN, alpha: float = ALPHA, pairs: Sequence[Pair] | None = None) -> None:
        self.margin, self.alpha, self.epochs = margin, alpha, max(epochs, 1)
        self.group_of: dict[str, str] = {}
        self.format_of: dict[str, str] = {}
        self.members: dict[str, list[str]] = {}  # question → sample ids
        self.items: dict[str, list[str]] = {}  # source item → questions, in the order first seen
        for sid, meta in samples:
            group = question_group(sid, meta)
            self.group_of[sid], self.format_of[sid] = group, str(meta.get("format", "default"))
            self.members.setdefault(group, []).append(sid)
            questions = self.items.setdefault(cluster_of(sid, meta), [])
            if group not in questions:
                questions.append(group)
        self.item_order = list(self.items)
        labels = sorted(set(self.format_of.values()))
        self.pairs = list(pairs) if pairs is not None else resolve_stop_on(None, labels)
        level = alpha / max(len(self.pairs), 1)
        self.cs = {p: BettingCS(level) for p in self.pairs}
        self.units = {p: 0 for p in self.pairs}
        self.futile: dict[Pair, int] = {}  # comparison → source items observed when it was found futile
        self.values: dict[tuple[str, int], float] = {}
        self.opened: set[str] = set()
        self.next_item = 0
        self.stopped_at: dict[str, Any] | None = None

    def ask(self, sample_id: str) -> bool:
        """Whether to run a sample: always within a question already started, else only while undecided."""
        group = self.group_of.get(sample_id, sample_id)
        if group in self.opened:
            return True
        if self.stopped_at is not None:
            return False
        self.opened.add(group)
        return True

    def record(self, sample_id: str, epoch: int, value: float) -> None:
        """A scored sample; feeds every source item now complete, in the drawn order, and checks the decision."""
        self.values[(sample_id, epoch)] = value
        while self.next_item < len(self.item_order) and self._complete(self.item_order[self.next_item]):
            self._feed(self.item_order[self.next_item])
            self.next_item += 1
            if self.stopped_at is None and self.pairs:
                self._check_futility()
                if all(d or p in self.futile for p, d in zip(self.pairs, self.decisions())):
                    self.stopped_at = self._moment()

    def _check_futility(self) -> None:
        """Mark each open comparison that the source items left cannot decide (``BettingCS.decidable``), after
        every ``futility_every``-th source item."""
        left = len(self.item_order) - self.next_item
        if not left or self.next_item % futility_every(len(self.item_order)):
            return  # with nothing left the run is at its budget, not stopping for futility
        for p, decision in zip(self.pairs, self.decisions()):
            if not decision and p not in self.futile and not bool(self.cs[p].decidable(left, self.margin)[0]):
                self.futile[p] = self.next_item

    def _complete(self, item: str) -> bool:
        return all((sid, e) in self.values for g in self.items[item] for sid in self.members[g]
                   for e in range(1, self.epochs + 1))

    def _per_format(self, group: str) -> dict[str, float]:
        out = {}
        for sid in self.members[group]:
            seen = [self.values[(sid, e)] for e in range(1, self.epochs + 1) if not math.isnan(self.values[(sid, e)])]
            if seen:
                out[self.format_of[sid]] = float(np.mean(seen))
        return out

    def _feed(self, item: str) -> None:
        scored = [self._per_format(g) for g in self.items[item]]
        for a, b in self.pairs:
            diffs = [s[a] - s[b] for s in scored if a in s and b in s]
            if diffs:
                self.cs[(a, b)].update(float(np.mean(diffs)))
                self.units[(a, b)] += 1

    def decisions(self) -> list[str]:
        out = []
        for p in self.pairs:
            low, high = self.cs[p].interval()
            out.append(str(decide(low, high, self.margin)))
        return out

    def _moment(self) -> dict[str, Any]:
        return {"time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "questions_asked": len(self.opened), "items_observed": self.next_item}

    def summary(self) -> dict[str, Any]:
        """What the log records: the rule, why and when it stopped, and each comparison's interval."""
        comparisons = []
        for p, decision in zip(self.pairs, self.decisions()):
            low, high = self.cs[p].interval()
            comparisons.append({
                "format_a": p[0], "format_b": p[1], "units": self.units[p],
                "difference": _num(self.cs[p].estimate()), "low": _num(low), "high": _num(high),
                "decision": decision or "undecided", "futile": not decision and p in self.futile,
                "futile_after_items": self.futile.get(p) if not decision else None,
            })
        done = self.stopped_at is not None and len(self.opened) < len(self.members)  # a question was saved
        return {
            "rule": "decided", "reason": self._reason(comparisons), "stopped_early": done,
            "stopped_at": self.stopped_at, "stop_on": [f"{a}:{b}" for a, b in self.pairs],
            "questions_budget": len(self.members), "questions_asked": len(self.opened), "items_budget": len(self.items),
            "items_observed": self.next_item, "margin": self.margin, "alpha": self.alpha,
            "alpha_per_comparison": self.alpha / max(len(self.pairs), 1), "unit": "source item (cluster) mean",
            "method": METHOD, "comparisons": comparisons,
        }

    def _reason(self, comparisons: list[dict[str, Any]]) -> str:
        """Why the run stopped (or ran to its budget), naming each comparison's outcome."""
        questions = len(self.members)
        decided = [f"{c['format_a']} vs {c['format_b']} {c['decision']}" for c in comparisons
                   if c["decision"] != "undecided"]
        futile = [c for c in comparisons if c["futile"]]
        parts = []
        if decided:
            parts.append("decided: " + ", ".join(decided))
        if futile:
            parts.append("futile: " + ", ".join(
                f"{c['format_a']} vs {c['format_b']} cannot be decided in the "
                f"{len(self.items) - c['futile_after_items']} source items left after {c['futile_after_items']}"
                for c in futile) + " (not even if each showed a difference at an end of the interval so far, or none)")
        if self.stopped_at is not None:
            head = "futile" if futile else "decided"
            what = "every comparison decided" if not futile else "nothing left to decide"
            return (f"{head}: {what} after {self.stopped_at['items_observed']} of {len(self.items)} source items; "
                    f"{self.stopped_at['questions_asked']} of {questions} questions asked"
                    + (f" ({'; '.join(parts)})" if parts else ""))
        undecided = "" if all(c["decision"] != "undecided" for c in comparisons) else ", some comparisons undecided"
        return f"budget: all {len(self.opened)} of {questions} questions asked{undecided}" + (
            f" ({'; '.join(parts)})" if parts else "")


FUTILITY_LOOKS = 20  # futility is checked at about this many source items of a run, evenly spaced


def futility_every(items: int) -> int:
    """Check futility after every this many source items (every item of a run of at most ``FUTILITY_LOOKS``):
    each check replays the items left, which a plan's simulation repeats for every simulated run."""
    return max(1, math.ceil(items / FUTILITY_LOOKS))


def _num(value: Any) -> float | None:
    v = float(np.asarray(value))
    return round(v, 6) if math.isfinite(v) else None


class DecidedStopping:
    """Inspect's ``EarlyStopping`` protocol over a ``Monitor``."""

    def __init__(self, margin: float = DEFAULT_MARGIN, alpha: float = ALPHA, pairs: Sequence[Pair] | None = None
                 ) -> None:
        self.margin, self.alpha, self.pairs = margin, alpha, pairs
        self.monitor: Monitor | None = None

    async def start_task(self, task: Any, samples: list[Sample], epochs: int) -> str:
        self.monitor = Monitor([(str(s.id), s.metadata or {}) for s in samples], epochs, self.margin, self.alpha,
                               self.pairs)
        return MANAGER

    async def schedule_sample(self, id: str | int, epoch: int) -> EarlyStop | None:
        assert self.monitor is not None, "start_task comes first"
        if self.monitor.ask(str(id)):
            return None
        return EarlyStop(id=id, epoch=epoch, reason="decided: every comparison was decided or futile before this "
                                                    "question",
                         metadata={"questions_asked": len(self.monitor.opened)})

    async def complete_sample(self, id: str | int, epoch: int, scores: dict[str, Any]) -> None:
        assert self.monitor is not None, "start_task comes first"
        self.monitor.record(str(id), epoch, score_value(scores))

    async def complete_task(self) -> dict[str, Any]:
        assert self.monitor is not None, "start_task comes first"
        return self.monitor.summary()
