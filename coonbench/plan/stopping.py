"""Where ``-T stop=decided`` is expected to stop: the task's own stopping rule, simulated on the planned design.

Each simulated run draws the source items in a random order (as the task does), each item's questions giving
every comparison the run decides on (``-T stop_on``, ``coonbench.tasks.stop_on``) paired differences in {−1, 0, 1}
with the assumed discordance q and true difference δ (P(+1) = (q + δ)/2, P(−1) = (q − δ)/2, questions independent,
comparisons simulated apart), feeds the items' mean differences to the same confidence sequences
(``coonbench.tasks.anytime``, Bonferroni over the comparisons) and stops after the first item at which every
comparison is decided or futile (the items left cannot decide it: ``BettingCS.decidable``, checked as the task
checks it). Two cases: every comparison differs by δ, and no format differs (δ = 0: the run can only stop at
equivalence, for futility, or at its budget).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from coonbench.tasks.anytime import BettingCS, decide
from coonbench.tasks.stop_on import check_stop_on, resolve_stop_on
from coonbench.tasks.stopping import ALPHA, DEFAULT_MARGIN, futility_every

SIMULATIONS = 100
ASSUMED_DIFFERENCE = 0.10  # without --detect: the difference the "formats differ" case assumes


def simulate_stop(sizes: np.ndarray, comparisons: int, difference: float, discordance: float,
                  margin: float = DEFAULT_MARGIN, sims: int = SIMULATIONS, seed: int = 0
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Questions asked before the rule stops, per simulated run (the budget, ``sizes.sum()``, where it never
    does), and whether it stopped with a comparison futile; ``sizes``: questions per source item."""
    rng = np.random.default_rng(seed)
    q = max(discordance, abs(difference))
    probs = np.array([(q + difference) / 2, 1 - q, (q - difference) / 2])
    cs = BettingCS(ALPHA / max(comparisons, 1), (sims, comparisons))
    order = np.argsort(rng.random((sims, len(sizes))), axis=1)
    asked = np.cumsum(sizes[order], axis=1)
    stop = np.full(sims, int(sizes.sum()))
    running = np.ones(sims, dtype=bool)
    futile = np.zeros((sims, comparisons), dtype=bool)
    for k in range(len(sizes)):
        n = np.broadcast_to(sizes[order[:, k]][:, None], (sims, comparisons))
        counts = rng.multinomial(n, probs)
        cs.update((counts[..., 0] - counts[..., 2]) / n, active=running[:, None])
        low, high = cs.interval()
        decided = decide(low, high, margin) != ""
        left = len(sizes) - k - 1
        check = running[:, None] & ~decided & ~futile  # as the task's Monitor._check_futility
        if left and check.any() and (k + 1) % futility_every(len(sizes)) == 0:
            futile |= check & ~_decidable(cs, check, left, margin)
        done = (decided | futile).all(axis=1) & running
        stop[done] = asked[done, k]
        running &= ~done
        if not running.any():
            break
    return stop, futile.any(axis=1) & (stop < sizes.sum())


def _decidable(cs: BettingCS, check: np.ndarray, left: int, margin: float) -> np.ndarray:
    """``cs.decidable`` on the sequences ``check`` marks only (the others: True)."""
    rows = np.flatnonzero(check.reshape(-1))
    part = BettingCS(cs.alpha, (rows.size,))
    for name in ("log_up", "log_down", "alive", "t", "sum_x", "sum_sq"):
        whole = getattr(cs, name)
        setattr(part, name, whole.reshape(-1, *whole.shape[2:])[rows])
    out = np.ones(check.size, dtype=bool)
    out[rows] = part.decidable(left, margin)[0]
    return out.reshape(check.shape)


def stop_prediction(frame: pd.DataFrame, discordance: float, difference: float | None = None,
                    margin: float = DEFAULT_MARGIN, sims: int = SIMULATIONS, stop_on: object = None
                    ) -> dict[str, Any]:
    """The expected stopping point of ``frame`` (one system's planned samples: format, pair, cluster) when every
    comparison of ``stop_on`` (``-T stop_on``; default the design's) differs by ``difference`` (default 10
    points) and when none does."""
    formats = [str(f) for f in sorted(frame["format"].unique())]
    pairs = resolve_stop_on(check_stop_on("decided", stop_on), formats)
    m = len(pairs)
    sizes = frame.drop_duplicates("pair").groupby("cluster")["pair"].nunique().to_numpy()
    delta = ASSUMED_DIFFERENCE if difference is None else difference
    out: dict[str, Any] = {"questions": int(sizes.sum()), "clusters": len(sizes), "comparisons": m,
                           "stop_on": [f"{a}:{b}" for a, b in pairs],
                           "margin": margin, "simulations": sims, "discordance": discordance, "cases": []}
    if m == 0:
        return out
    for label, d in (("differ", delta), ("same", 0.0)):
        stops, futile = simulate_stop(sizes, m, d, discordance, margin, sims)
        out["cases"].append({"case": label, "difference": d, "mean_questions": float(stops.mean()),
                             "median_questions": float(np.median(stops)),
                             "stopped_early": float((stops < sizes.sum()).mean()),
                             "stopped_futile": float(futile.mean())})
    return out


def describe(pred: dict[str, Any]) -> list[str]:
    """The prediction as lines of the plan."""
    if not pred["cases"]:
        return ["  -T stop=decided: one format only, nothing to decide: the run asks every question"]
    on = ", ".join(pred.get("stop_on") or []) or "every pair"
    lines = [f"  -T stop=decided on {on} (margin ±{pred['margin'] * 100:g} points, {pred['comparisons']} "
             f"comparison{'s' if pred['comparisons'] > 1 else ''}, {pred['simulations']} simulated runs at "
             f"discordance {pred['discordance']:.0%}):"]
    for c in pred["cases"]:
        what = (f"if every comparison differs by {c['difference'] * 100:g} points" if c["case"] == "differ"
                else "if no format differs")
        lines.append(f"    {what}: stops after {c['mean_questions']:,.0f} of {pred['questions']:,} questions on "
                     f"average (median {c['median_questions']:,.0f}); stops early in {c['stopped_early']:.0%} of runs"
                     f", {c.get('stopped_futile', 0.0):.0%} for futility (a comparison the questions left cannot "
                     "decide)")
    return lines
