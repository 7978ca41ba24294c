"""Planned against observed: a plan ``coonbench plan`` wrote, set against the run's tokens, cost and power.

The plan is a JSON file (``coonbench-plan.json`` in a log folder given to the report, or ``--plan FILE``); the
report reads it as data, never the plan's code (which builds tasks). Per model and format it sets the planned
input tokens beside those the run's samples recorded (the same count, so they agree when the run is the planned
selection) and the provider's, planned output tokens and money beside the run's, and per paired comparison the
planned minimum detectable difference beside the one the run gave.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from coonbench.report.bounded import read_json
from coonbench.report.cost import usd
from coonbench.report.load import ReportInputError
from coonbench.report.tables import Section, Table, sample_tokens

PLAN_KEY = "coonbench_plan"  # the marker (and schema number) of a plan file
PLAN_FILE = "coonbench-plan.json"  # the name the report looks for in the log folders it is given


def find_plan(paths: Sequence[str | Path]) -> Path | None:
    """The first ``coonbench-plan.json`` directly in one of the log folders given."""
    return next((Path(p) / PLAN_FILE for p in paths if (Path(p) / PLAN_FILE).is_file()), None)


def read_plan(path: str | Path) -> dict[str, Any]:
    """A plan file; ReportInputError naming the file when it is not one."""
    p = Path(path)
    plan = read_json(p, "plan")  # bounded: size, nesting, integer length
    if not isinstance(plan, dict) or plan.get(PLAN_KEY) != 1 or not isinstance(plan.get("models"), list):
        raise ReportInputError(f"{p}: not a plan written by `coonbench plan -o` (no '{PLAN_KEY}: 1' and 'models')")
    return plan


def plan_section_of(
    path: Path, samples: pd.DataFrame, prices: dict[str, dict[str, float]] | None, sections: list[Section],
) -> Section:
    """``plan_section`` of the plan file at ``path``; a file that has the marker but not a plan's shape (a value of
    the wrong type, a missing key) is one ReportInputError naming it, not a traceback."""
    plan = read_plan(path)
    try:
        return plan_section(plan, path, samples, prices, sections)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as err:
        raise ReportInputError(f"{path}: not a plan written by `coonbench plan -o` ({type(err).__name__}: "
                               f"{str(err)[:200]})") from None


def _observed(samples: pd.DataFrame, model: str, category: str) -> pd.DataFrame:
    run = samples[(samples["model"] == model) & (samples["category"] == category)]
    tested = run[~run["reference"]]
    return tested if not tested.empty else run


def _token_rows(
    plan: dict[str, Any], samples: pd.DataFrame, prices: dict[str, dict[str, float]] | None
) -> pd.DataFrame:
    rows = []
    for entry in plan["models"]:
        run = _observed(samples, entry["model"], plan["category"])
        price = {entry["model"]: entry["price"]} if entry.get("price") else None
        ins, outs = sample_tokens(run) if not run.empty else (pd.Series(dtype=float), pd.Series(dtype=float))
        cost = usd(run, prices or price) if not run.empty else pd.Series(dtype=float)
        for f in entry["formats"]:
            mine = run["format"] == f["format"] if not run.empty else pd.Series(dtype=bool)
            rows.append({
                "model": entry["model"], "format": f["format"], "planned_samples": f["samples"],
                "run_samples": int(mine.sum()), "planned_input_tokens": f["input_tokens"],
                "run_input_tokens": float(run.loc[mine, "input_tokens"].sum()) if mine.any() else math.nan,
                "provider_input_tokens": float(ins[mine].sum()) if mine.any() else math.nan,
                "planned_output_tokens": f["output_tokens"],
                "run_output_tokens": float(outs[mine].sum()) if mine.any() else math.nan,
                "planned_usd": f["usd"], "run_usd": float(cost[mine].sum(min_count=1)) if mine.any() else math.nan,
            })
    return pd.DataFrame(rows)


def _power_rows(plan: dict[str, Any], comparisons: pd.DataFrame | None) -> pd.DataFrame:
    rows = []
    for entry in plan["models"]:
        for c in entry["comparisons"]:
            row = {"model": entry["model"], "format_a": c["format_a"], "format_b": c["format_b"],
                   "planned_pairs": c["pairs"], "planned_mdd_points": c["mdd"] * 100, "assumed": c["source"],
                   "run_pairs": math.nan, "run_mdd_points": math.nan}
            if comparisons is not None and not comparisons.empty:
                hit = comparisons[(comparisons["system"] == entry["model"]) & (comparisons["format_a"] == c["format_a"])
                                  & (comparisons["format_b"] == c["format_b"])]
                if not hit.empty:
                    row.update(run_pairs=int(hit["pairs"].iloc[0]), run_mdd_points=float(hit["mdd"].iloc[0]) * 100)
            rows.append(row)
    return pd.DataFrame(rows)


def _span(points: pd.Series) -> str:
    """The range of detectable differences in points; beyond 100 points nothing is detectable."""
    low, high = float(points.min()), float(points.max())
    if low >= 100:
        return "none (over 100 points)"
    text = f"{low:.1f}" if high == low else f"{low:.1f}–{min(high, 100):.1f}"
    return text + (" points" if high < 100 else " points or none")


def plan_section(
    plan: dict[str, Any], source: Path, samples: pd.DataFrame, prices: dict[str, dict[str, float]] | None,
    sections: list[Section],
) -> Section:
    """The section: one sentence per figure, then the token/cost and power tables."""
    sec = Section(id="plan", title="Planned against observed")
    cmp = next((t.frame for s in sections for t in s.all_tables() if t.name == f"{plan['category']}_comparisons"), None)
    tokens, power = _token_rows(plan, samples, prices), _power_rows(plan, cmp)
    epochs = f"{plan['epochs']} epoch{'s' if plan['epochs'] > 1 else ''}"
    sec.summary.append(f"The plan `{source}` ({plan['task']}, {plan['samples']:,} samples, {epochs}) against this run.")
    ran = tokens[tokens["run_samples"] > 0] if not tokens.empty else tokens
    for model, g in ran.groupby("model", sort=True):  # one sentence per model: tokenizers never added together
        t = g.sum(numeric_only=True)
        text = (f"{model}: input tokens {t['planned_input_tokens']:,.0f} planned, {t['run_input_tokens']:,.0f} "
                f"recorded by the run's samples ({t['run_samples']:,.0f} of {t['planned_samples']:,.0f} planned "
                f"samples); output tokens {t['planned_output_tokens']:,.0f} planned, {t['run_output_tokens']:,.0f} "
                "observed")
        if g["planned_usd"].notna().all() and g["run_usd"].notna().all():
            text += f"; USD {t['planned_usd']:,.2f} planned, {t['run_usd']:,.2f} observed"
        sec.summary.append(text + ".")
    missing = sorted(set(tokens["model"]) - set(ran["model"])) if not tokens.empty else []
    if missing:
        sec.summary.append(f"Planned but not in these logs: {', '.join(missing)}.")
    if not power.empty and power["run_mdd_points"].notna().any():
        sec.summary.append(f"Detectable differences (80% power): {_span(power['planned_mdd_points'])} planned, "
                           f"{_span(power['run_mdd_points'])} in the run.")
    sec.lead.append(Table("plan_tokens", "Planned against observed tokens and cost, per model and format", tokens))
    sec.tables.append(Table("plan_power", "Planned against observed minimum detectable difference (80% power)", power))
    return sec
