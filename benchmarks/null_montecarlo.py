"""Do the report's paired test and accuracy intervals hold their level? A null Monte Carlo on real designs (issue 44).

Designs, derived by code: TOON's (``../shared/reference/toon``: the 13 datasets of its question file, each question
answered by every model of its results, pooled as the report pools them; and the subset csv answered), one model
and pooled; and the project's own tasks (comprehension, retrieval, structure: questions per source item as the
tasks build them). In each replication every question's pair of answers differs by d ∈ {−1, 0, +1} with no true
effect: a per-cluster discordance q_g ~ U(0.1, 0.5) and a per-cluster difference δ_g = q_g · U(−s, s) whose mean
is zero (s = 0: no cluster effect; s = 1: some datasets favour one format, others the other, as far as their
discordance allows). The test is the report's own (``coonbench.report.cluster.cr2_tests``: CR2 errors, Student's
t on Imbens–Kolesár degrees of freedom; exact McNemar where its SE is 0), beside the earlier CR1 with t(G − 1).
Rejection rates are printed at 5% and at the levels a Holm family's first step tests at (0.5% = 0.05/10, and
0.05/25 = 0.2%: TOON's family of 10 comparisons on its 244 questions and 15 on the csv subset); goal: ≤ 5.5% at 5%
and ≤ 0.6% at 0.5% (Monte Carlo error at the default 40,000 replications: ±0.22 and ±0.07 points, two standard
errors). Two more tables check the report's accuracy interval the same way
(``coonbench.report.stats.clustered_proportion``: Wilson's score interval with the jackknife design effect and t
on Imbens–Kolesár degrees of freedom; a rejection is the true accuracy outside the interval at that level), on 0/1
answers with per-cluster accuracy p_g = c + w · U(−s, s): c = 70%, w = 20% (datasets between 50% and 90%) and, near
a bound, c = 92%, w = 6% (86–98%); beside it the interval the report used before (mean ± t × CR2 SE, never
narrower than Wilson on n) and CR1 with t(G − 1), and the median ratio of the report's 95% interval's width to the
earlier one's (width×).

    python benchmarks/null_montecarlo.py [--reps 40000] [--seed 0] [--no-tasks]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from scipy import stats as sps

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coonbench.report import cluster, stats  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TOON = ROOT.parent / "shared" / "reference" / "toon"
LEVELS = (0.05, 0.005, 0.002)
GOALS = {0.05: 0.055, 0.005: 0.006}
SPREADS = (0.0, 0.5, 1.0)
CHUNK = 4000


def toon_designs() -> dict[str, np.ndarray]:
    """Questions per dataset of TOON's main set and csv subset, one model and pooled over its models."""
    questions = {q["id"]: q["dataset"] for q in json.loads((TOON / "generated" / "questions.json").read_text())}
    results = sorted((TOON / "benchmarks" / "results" / "accuracy" / "models").glob("*.json"))
    records = json.loads(results[0].read_text())
    csv = {r["questionId"] for r in records if r["format"] == "csv"}
    out = {}
    for name, ids in (("main", set(questions)), ("csv subset", csv)):
        labels = [questions[i] for i in sorted(ids)]
        sizes = np.unique(labels, return_counts=True)[1]
        out[f"TOON {name}, 1 model"] = sizes
        out[f"TOON {name}, pooled over {len(results)}"] = sizes * len(results)
    return out


def task_designs() -> dict[str, np.ndarray]:
    """Questions per source item of the project's tasks with paired exact answers, as they build by default."""
    from coonbench.cli import load_task
    from coonbench.plan.workload import question_clusters

    out = {}
    for name in ("comprehension", "retrieval", "structure"):
        frame = question_clusters(load_task(name, [])).drop_duplicates("pair")
        sizes = frame["cluster"].value_counts().to_numpy()
        if 1 < sizes.size < len(frame):
            out[f"{name} ({len(frame)} questions)"] = sizes
    return out


def _fallback(d: np.ndarray, p: np.ndarray, se: np.ndarray) -> np.ndarray:
    """The report's exact McNemar where the clustered SE is 0 but the pairs disagree."""
    for i in np.flatnonzero((se <= 1e-12) & np.any(d != 0, axis=1)):
        p[i] = stats.mcnemar_exact(int(np.sum(d[i] == 1)), int(np.sum(d[i] == -1)))
    return p


def _cr1(x: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The earlier test: CR1 (sandwich × G/(G − 1)) with Student's t on G − 1 degrees of freedom."""
    g = int(codes.max()) + 1
    n = codes.size
    sums = (x - x.mean(axis=1, keepdims=True)) @ np.eye(g)[codes]
    se = np.sqrt((sums * sums).sum(axis=1) / (n * n) * g / (g - 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(se > 1e-12, 2 * sps.t.sf(np.abs(x.mean(axis=1)) / se, g - 1), 1.0)


def _outside(x: np.ndarray, codes: np.ndarray, se: np.ndarray, df: np.ndarray, truth: float
             ) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray]:
    """Per level, whether the true accuracy lies outside the report's interval, and outside the earlier one; and
    the ratio of their widths at 95%."""
    n = codes.size
    p = x.mean(axis=1)
    jack = cluster.cr3_se(x, codes)
    now, before, widths = [], [], []
    for a in LEVELS:
        low, high = stats.clustered_proportion(p, n, jack, df, a)
        now.append((truth < low) | (truth > high))
        w_low, w_high = stats.score_interval(p, sps.norm.ppf(1 - a / 2) ** 2 / n)
        half = sps.t.ppf(1 - a / 2, df) * se
        e_low, e_high = np.maximum(np.minimum(p - half, w_low), 0.0), np.minimum(np.maximum(p + half, w_high), 1.0)
        before.append((truth < e_low) | (truth > e_high))
        widths.append((high - low) / (e_high - e_low))
    return now, before, widths[0]


def null_rates(sizes: np.ndarray, spread: float, reps: int, rng: np.random.Generator,
               accuracy: tuple[float, float] | None = None
               ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, float]:
    """(median df, the report's rejection rates at LEVELS, the earlier accuracy interval's (NaN for differences),
    CR1's, the median width ratio of the report's accuracy interval to the earlier one's) under the null;
    ``accuracy`` = (c, w) checks accuracy intervals, None paired differences."""
    codes = np.repeat(np.arange(sizes.size), sizes)
    design = cluster.Design.of(codes)
    new, earlier, old, dfs, ratios = np.zeros(len(LEVELS)), np.zeros(len(LEVELS)), np.zeros(len(LEVELS)), [], []
    for start in range(0, reps, CHUNK):
        r = min(CHUNK, reps - start)
        u = rng.uniform(-spread, spread, (r, sizes.size))
        draw = rng.random((r, codes.size))
        if accuracy:
            centre, width = accuracy
            x = (draw < (centre + width * u)[:, codes]).astype(float)
            _, se, df, _ = cluster.cr2_tests(x - centre, codes, design)
            now, before, ratio = _outside(x, codes, se, df, centre)
            new += [np.sum(v) for v in now]
            earlier += [np.sum(v) for v in before]
            ratios.append(ratio)
            p1 = _cr1(x - centre, codes)
        else:
            q = rng.uniform(0.1, 0.5, (r, sizes.size))
            plus, minus = ((q + q * u) / 2)[:, codes], ((q - q * u) / 2)[:, codes]
            x = (draw < plus).astype(float) - ((draw >= plus) & (draw < plus + minus))
            _, se, df, p = cluster.cr2_tests(x, codes, design)
            p = _fallback(x, p, se)
            new += [np.sum(p < a) for a in LEVELS]
            p1 = _cr1(x, codes)
        dfs.append(df)
        old += [np.sum(p1 < a) for a in LEVELS]
    width = float(np.nanmedian(np.concatenate(ratios))) if ratios else np.nan
    return (float(np.median(np.concatenate(dfs))), new / reps, earlier / reps if accuracy else earlier * np.nan,
            old / reps, width)


def _rates(values: np.ndarray) -> str:
    return "  ".join(f"{v * 100:5.2f}%" for v in values)


def _row(name: str, sizes: np.ndarray, spread: float, df: float, rates: list[np.ndarray], width: float) -> str:
    ok = all(rates[0][LEVELS.index(a)] <= goal for a, goal in GOALS.items())
    columns = "   ".join(_rates(r) for r in rates) + (f"   {width:6.2f}" if np.isfinite(width) else "")
    return f"{name:<34}{sizes.size:>4}{int(sizes.sum()):>6}{spread:>5.1f}{df:>7.2f}   {columns}   {'ok' if ok else 'OVER'}"


# (what is checked, accuracy's (centre, width) or None for paired differences, the columns after the report's)
TABLES = (
    ("paired differences (the report's comparison test: CR2 errors, t on IK df)", None, ("CR1/t(G-1)",)),
    ("accuracy intervals (Wilson, CR3 deff, t on IK df), datasets at 50–90%", (0.7, 0.2),
     ("before: CR2 t", "CR1/t(G-1)")),
    ("accuracy intervals (Wilson, CR3 deff, t on IK df), datasets at 86–98%", (0.92, 0.06),
     ("before: CR2 t", "CR1/t(G-1)")),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-tasks", action="store_true", help="TOON's designs only (no task is built)")
    args = parser.parse_args()
    designs = toon_designs() if TOON.is_dir() else {}
    if not designs:
        print(f"TOON: skipped ({TOON} is absent)")
    if not args.no_tasks:
        designs.update(task_designs())
    rng = np.random.default_rng(args.seed)
    levels = "  ".join(f"{a * 100:5.1f}%" for a in LEVELS)
    failed = {}
    for title, accuracy, others in TABLES:
        print(f"\nNull rejection rates, {title}; {args.reps:,} replications each")
        print(f"{'design':<34}{'G':>4}{'n':>6}{'s':>5}{'df':>7}   "
              + "   ".join(f"{label}: {levels}" for label in ("report", *others)) + ("   width×" if accuracy else ""))
        failed[title] = 0
        for name, sizes in designs.items():
            for spread in SPREADS:
                df, new, earlier, old, width = null_rates(np.asarray(sizes), spread, args.reps, rng, accuracy)
                rates = [new, earlier, old] if accuracy else [new, old]
                print(_row(name, np.asarray(sizes), spread, df, rates, width), flush=True)
                failed[title] += any(new[LEVELS.index(a)] > goal for a, goal in GOALS.items())
    goal = f"≤ {GOALS[0.05] * 100:g}% at 5%, ≤ {GOALS[0.005] * 100:g}% at 0.5%"
    for title, count in failed.items():
        print(f"goal ({goal}) for the report's {title}: "
              + ("met by every design and spread" if not count else f"{count} row(s) over"))
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
