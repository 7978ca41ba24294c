"""The Goth seed's four success criteria (``benchmark/METRICS.md``), each decided on its 95% interval: met when the
whole interval is on the right side of the threshold, missed when the whole interval is on the wrong side,
unsettled otherwise (as COON's design verdict, ``coonbench.report.verdicts``).

1. the JSON AST's syntax error rate is more than 20% lower than Goth syntax's (first attempts, paired problems);
2. De Bruijn index errors are under 10% of semantic errors (``debruijn_error``, both Goth targets);
3. Goth's first-attempt success is comparable to Python's or better: the paired difference's interval lies above
   −``COMPARABLE_MARGIN`` (the project's equivalence margin);
4. Goth's final programs take under 80% of the Python reference's tokens (ratio of sums, correct programs).

Intervals: a seeded paired bootstrap over problems (criteria 1, 3, 4), Wilson for the proportion (2).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from coonbench.report import stats

SYNTAX, JSON_AST, PYTHON = "goth", "goth-json", "python"
COMPARABLE_MARGIN = 0.05
RESAMPLES = 2000
SEED = 20260202
MET, MISSED, UNSETTLED = "met", "missed", "unsettled"


def decide(low: float, high: float, threshold: float, above: bool) -> str:
    """Met when the interval is wholly past the threshold on the wanted side, missed when wholly on the other."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return UNSETTLED
    if above:
        return MET if low > threshold else MISSED if high <= threshold else UNSETTLED
    return MET if high < threshold else MISSED if low >= threshold else UNSETTLED


def _bootstrap(stat, n: int) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    """(estimate, 2.5%, 97.5%) of ``stat(indices)`` over problems resampled with replacement (seeded)."""
    rng = np.random.default_rng(SEED)
    point = stat(np.arange(n))
    draws = np.array([stat(rng.integers(0, n, n)) for _ in range(RESAMPLES)], dtype=float)
    draws = draws[np.isfinite(draws)]
    if not np.isfinite(point) or draws.size < RESAMPLES // 2:
        return point, float("nan"), float("nan")
    return point, float(np.percentile(draws, 2.5)), float(np.percentile(draws, 97.5))


def _paired(frame: pd.DataFrame, a: str, b: str, column: str) -> pd.DataFrame:
    """``column`` of targets ``a`` and ``b`` side by side on the problems (and epochs) both answered."""
    keep = frame[frame["format"].isin([a, b])].dropna(subset=[column])
    wide = keep.pivot_table(index=["pair", "epoch"], columns="format", values=column, aggfunc="mean")
    return wide.dropna(subset=[c for c in (a, b) if c in wide.columns]) if {a, b} <= set(wide.columns) else \
        pd.DataFrame(columns=[a, b])


def _row(system: str, number: int, criterion: str, estimate: float, low: float, high: float, n: int,
         word: str) -> dict[str, object]:
    return {"system": system, "criterion": number, "what": criterion, "estimate": estimate, "ci_low": low,
            "ci_high": high, "n": n, "verdict": word}


def goth_criteria(frame: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """One row per system and criterion, and one sentence each."""
    rows: list[dict[str, object]] = []
    for system, g in frame.groupby("system", sort=True):
        if not g["format"].isin([SYNTAX, JSON_AST]).any():
            continue
        errs = _paired(g.assign(syntax_error=1 - g["parse_success"]), SYNTAX, JSON_AST, "syntax_error")
        s, j = errs.get(SYNTAX, pd.Series(dtype=float)).to_numpy(), errs.get(JSON_AST, pd.Series(dtype=float)).to_numpy()

        def reduction(ix: np.ndarray) -> float:
            base = s[ix].sum()
            return float(1 - j[ix].sum() / base) if base > 0 else float("nan")

        est, low, high = _bootstrap(reduction, len(s)) if len(s) else (float("nan"),) * 3
        rows.append(_row(str(system), 1, "JSON AST syntax errors > 20% fewer than Goth syntax's", est, low, high,
                         len(s), decide(low, high, 0.20, above=True)))
        sem = g[g["format"].isin([SYNTAX, JSON_AST])]["debruijn_error"].dropna() if "debruijn_error" in g else \
            pd.Series(dtype=float)
        k, n = int(sem.sum()), int(sem.size)
        low2, high2 = stats.wilson(k, n) if n else (float("nan"), float("nan"))
        rows.append(_row(str(system), 2, "De Bruijn index errors < 10% of semantic errors",
                         k / n if n else float("nan"), low2, high2, n, decide(low2, high2, 0.10, above=False)))
        first = _paired(g, SYNTAX, PYTHON, "first_attempt_success")
        gs, py = first.get(SYNTAX, pd.Series(dtype=float)).to_numpy(), first.get(PYTHON, pd.Series(dtype=float)).to_numpy()
        est3, low3, high3 = _bootstrap(lambda ix: float(gs[ix].mean() - py[ix].mean()), len(gs)) if len(gs) else \
            (float("nan"),) * 3
        rows.append(_row(str(system), 3, f"Goth first-attempt success ≥ Python's − {COMPARABLE_MARGIN:.0%} (paired "
                         "difference)", est3, low3, high3, len(gs), decide(low3, high3, -COMPARABLE_MARGIN, True)))
        ok = g[(g["format"] == SYNTAX) & (g["correct"] == 1)].dropna(subset=["final_tokens", "token_ratio"])
        tokens = ok["final_tokens"].to_numpy(dtype=float)
        python = tokens / ok["token_ratio"].to_numpy(dtype=float)
        est4, low4, high4 = _bootstrap(lambda ix: float(tokens[ix].sum() / python[ix].sum()), len(ok)) if len(ok) \
            else (float("nan"),) * 3
        rows.append(_row(str(system), 4, "Goth tokens < 80% of Python's (correct final programs)", est4, low4, high4,
                         len(ok), decide(low4, high4, 0.80, above=False)))
    table = pd.DataFrame(rows)
    sentences = [f"{r['system']}: Goth criterion {r['criterion']} ({r['what']}): {r['estimate']:.2f} "
                 f"[{r['ci_low']:.2f}, {r['ci_high']:.2f}] on {r['n']} — **{r['verdict']}**." for r in rows]
    return table, sentences
