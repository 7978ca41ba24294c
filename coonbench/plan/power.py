"""What a planned run can detect: the report's minimum detectable difference per paired comparison, in advance.

The report compares every two formats of a system on the questions both answered (``coonbench.report.tables``),
one Holm family of m comparisons per system, and gives each the minimum detectable difference at 80% power and
α/m, clustered by source item (``stats.minimum_detectable_difference``). Before the run the answers are unknown;
what decides the figure is the share of pairs where the two formats disagree (the discordance) and how much
answers from one source item agree (the design effect). Without a pilot both are assumed and said; a pilot's
logs (``--from``) give them per comparison: its discordance, and its intra-cluster correlation carried to the
planned cluster sizes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from coonbench.report import detect, stats
from coonbench.report.blocks import question_blocks, restrict
from coonbench.report.cluster import Design
from coonbench.report.load import is_reference

ASSUMED_DISCORDANCE = 0.30
"""Share of paired answers where two formats disagree, assumed without a pilot (one right, the other wrong)."""


@dataclass(frozen=True)
class Estimate:
    """What a pilot says about one comparison: discordance, intra-cluster correlation, and how many pairs."""

    discordance: float
    icc: float
    pairs: int
    epochs: int


@dataclass(frozen=True)
class PlannedComparison:
    format_a: str
    format_b: str
    questions: int
    pairs: int  # questions × epochs: the rows the report pairs
    clusters: int
    discordance: float
    design_effect: float
    source: str  # "assumed" or "pilot (N pairs)"
    family: int
    mdd: float

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def pilot_estimates(pilot: pd.DataFrame, model: str) -> dict[tuple[str, str], Estimate]:
    """Per format pair: the pilot's discordance and intra-cluster correlation of the paired difference, from the
    model's own answers when the pilot has them, else from every model under test in it (never the references)."""
    data = pilot[pilot["correct"].notna() & ~pilot["system"].map(is_reference)] if "correct" in pilot else pilot[:0]
    if (data["model"] == model).any():
        data = data[data["model"] == model]
    out: dict[tuple[str, str], Estimate] = {}
    if data.empty:
        return out
    key = data["system"] + "\x1f" + data["pair"]
    data = data.assign(_key=key)
    wide = data.pivot_table(index=["_key", "epoch"], columns="format", values="correct", aggfunc="first")
    clusters = data.groupby(["_key", "epoch"])["cluster"].first()
    epochs = int(data["epoch"].max())
    for fa, fb in itertools.combinations(sorted(wide.columns), 2):
        both = wide[[fa, fb]].dropna()
        if len(both) < 2:
            continue
        d = (both[fa] - both[fb]).to_numpy(dtype=float)
        groups = pd.factorize(clusters.reindex(both.index).to_numpy())[0]
        icc = 0.0
        g = int(np.unique(groups).size)
        if not np.all(d == d[0]) and 1 < g < d.size:
            est = stats.clustered_mean(d, groups)
            icc = max(0.0, (stats.design_effect(est.se_naive, est.se) - 1) / (d.size / g - 1))
        q = max(float(np.mean(d != 0)), 0.5 / d.size)  # none disagreeing in n pairs is not a discordance of 0
        out[(fa, fb)] = Estimate(q, icc, int(d.size), epochs)
    return out


def design_effect(questions: int, clusters: int, epochs: int, estimate: Estimate | None) -> float:
    """The variance inflation assumed for ``questions`` questions from ``clusters`` source items, ``epochs`` each.

    Without a pilot: questions independent, and the epochs of one question agreeing (they add cost, not pairs:
    a design effect of ``epochs``). With one: 1 + (pairs per cluster − 1) × the pilot's intra-cluster
    correlation, times ``epochs`` when the pilot ran one epoch (its correlation knows nothing of repeats).
    """
    if estimate is None:
        return float(epochs)
    if estimate.epochs > 1 or epochs == 1:
        per_cluster = questions * epochs / max(clusters, 1)
        return 1 + max(per_cluster - 1, 0) * estimate.icc
    return (1 + max(questions / max(clusters, 1) - 1, 0) * estimate.icc) * epochs


def plan_comparisons(
    frame: pd.DataFrame, epochs: int, estimates: dict[tuple[str, str], Estimate] | None = None
) -> list[PlannedComparison]:
    """Every comparison the report will make on ``frame`` (one system's samples: format, pair, cluster), on the
    report's question sets (``blocks.question_blocks``: a format run on a subset is compared on that subset), with
    its minimum detectable difference in one Holm family of them all (the report's family)."""
    data = frame.assign(system="plan", correct=1.0, epoch=1)
    sets = []
    for block in question_blocks(data):
        rows = restrict(data, block.formats)
        by_format = {f: g.drop_duplicates("pair").set_index("pair")["cluster"] for f, g in rows.groupby("format")}
        sets.append((list(itertools.combinations(sorted(by_format), 2)), by_format))
    family = sum(len(pairs) for pairs, _ in sets)
    out = []
    for pairs, by_format in sets:
        for fa, fb in pairs:
            shared = by_format[fa].loc[by_format[fa].index.intersection(by_format[fb].index)]
            sizes = shared.value_counts().to_numpy()
            out.append(comparison(fa, fb, len(shared), len(sizes), epochs, family, (estimates or {}).get((fa, fb)),
                                  sizes))
    return out


def comparison(
    fa: str, fb: str, questions: int, clusters: int, epochs: int, family: int, estimate: Estimate | None,
    sizes: np.ndarray | None = None,
) -> PlannedComparison:
    """One planned comparison of ``questions`` questions from ``clusters`` source items (of ``sizes`` questions
    each; equal sizes when not given): its detectable difference at the report's test's degrees of freedom."""
    deff = design_effect(questions, clusters, epochs, estimate)
    q = estimate.discordance if estimate is not None else ASSUMED_DISCORDANCE
    source = f"pilot ({estimate.pairs} pairs)" if estimate is not None else "assumed"
    n = questions * epochs
    per_cluster = n / max(clusters, 1)  # the report's rule takes the design effect as 1 + (m − 1) × icc
    icc = (deff - 1) / (per_cluster - 1) if per_cluster > 1 else 0.0
    if sizes is None:
        sizes = np.full(max(clusters, 1), per_cluster)
    df = float(Design.from_sizes(np.asarray(sizes, dtype=float) * epochs).df(icc)) if clusters > 1 else math.nan
    mdd = detect.planned_detectable_difference(n, clusters, q, icc, comparisons=family, df=df)
    return PlannedComparison(fa, fb, questions, n, clusters, q, deff, source, family, mdd)


MAX_QUESTIONS = 10**7  # beyond this the answer is "not by adding questions"


def _first_reaching(worst: Callable[[int], float], low: int, high: int, target: float) -> int:
    """The first n in [low, high] with worst(n) <= target (worst falls as n grows; worst(high) reaches it)."""
    while low < high:
        mid = (low + high) // 2
        if worst(mid) <= target:
            high = mid
        else:
            low = mid + 1
    return low


def questions_needed(
    draw: Callable[[int], pd.DataFrame], available: int, epochs: int, target: float,
    estimates: dict[tuple[str, str], Estimate] | None = None,
) -> tuple[int | None, float, bool]:
    """The fewest questions ``n`` whose paired subset detects ``target`` (a difference in accuracy, 0-1) in every
    comparison, the largest MDD then, and whether ``n`` is more than the ``available`` questions.

    Up to ``available``, ``draw(n)`` gives the rows ``-T questions=n`` keeps; beyond, questions are extrapolated
    from all of them (same formats, source items in the same proportion). (None, nan, True) when not even
    ``MAX_QUESTIONS`` would do."""
    full = draw(available)
    per_cluster = full["pair"].nunique() / max(full["cluster"].nunique(), 1)
    planned = plan_comparisons(full, epochs, estimates)
    family = len(planned)

    def worst(n: int) -> float:
        if n <= available:
            return max((c.mdd for c in plan_comparisons(draw(n), epochs, estimates)), default=math.nan)
        g = max(round(n / per_cluster), 2)
        return max((comparison(c.format_a, c.format_b, n, g, epochs, family,
                               (estimates or {}).get((c.format_a, c.format_b))).mdd for c in planned), default=math.nan)

    if available < 2 or family == 0:
        return None, math.nan, False
    if worst(available) <= target:
        n = _first_reaching(worst, 2, available, target)
        return n, worst(n), False
    high = available
    while not worst(high) <= target:
        if high >= MAX_QUESTIONS:
            return None, math.nan, True
        high *= 2
    n = _first_reaching(worst, available + 1, high, target)
    return n, worst(n), True
