"""Runs that stopped when decided (``-T stop=decided``): why and when, and their anytime-valid intervals.

A run with ``-T stop=decided`` records in its log (``results.early_stopping``) why it stopped, after how many
questions, and per paired comparison the interval of its confidence sequence (``coonbench.tasks.stopping``). This
section shows them as they were recorded, labelled anytime-valid, in a table of their own: they are never mixed
with the fixed-sample intervals and tests of the accuracy sections, which on such a run describe the questions
asked but do not keep their nominal level (the run stopped because of those very answers).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from coonbench.report.tables import Section, Table
from coonbench.tasks.stopping import MANAGER  # the name the stopping rule records itself under

LABEL = "anytime-valid"


def stopping_records(logs: Iterable[str]) -> list[dict[str, Any]]:
    """Per log whose run was stopped by ``-T stop=decided``: its task, model and what the stopping rule recorded."""
    from inspect_ai.log import read_eval_log

    out = []
    for path in sorted(set(logs)):
        log = read_eval_log(path, header_only=True)
        summary = getattr(log.results, "early_stopping", None) if log.results is not None else None
        if summary is None or summary.manager != MANAGER or not isinstance(summary.metadata, dict):
            continue
        out.append({"log": Path(path).name, "task": log.eval.task, "model": log.eval.model,
                    "early_stops": len(summary.early_stops), **summary.metadata})
    return out


def _runs(records: list[dict[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame([{
        "log": r["log"], "task": r["task"], "model": r["model"], "reason": r.get("reason", ""),
        "questions_asked": r.get("questions_asked"), "questions_budget": r.get("questions_budget"),
        "clusters_observed": r.get("items_observed"), "clusters_budget": r.get("items_budget"),
        "samples_stopped": r["early_stops"], "stopped_at": (r.get("stopped_at") or {}).get("time", ""),
        "margin": r.get("margin"), "alpha": r.get("alpha"),
    } for r in records])


def _intervals(records: list[dict[str, Any]]) -> pd.DataFrame:
    rows = []
    for r in records:
        for c in r.get("comparisons", []):
            rows.append({"log": r["log"], "model": r["model"], "format_a": c.get("format_a"),
                         "format_b": c.get("format_b"), "clusters": c.get("units"),
                         "difference": c.get("difference"), "anytime_low": c.get("low"),
                         "anytime_high": c.get("high"), "decision": c.get("decision"), "interval": LABEL})
    return pd.DataFrame(rows)


def _sentence(r: dict[str, Any]) -> str:
    decided = [c for c in r.get("comparisons", []) if c.get("decision") in ("differ", "equivalent")]
    return (f"{r['model']} on {r['task']}: stopped by -T stop=decided — {r.get('reason', 'no reason recorded')} "
            f"({len(decided)} of {len(r.get('comparisons', []))} comparisons decided; equivalence margin "
            f"±{100 * float(r.get('margin') or 0):.0f} points).")


def stopping_section(logs: Iterable[str]) -> Section | None:
    """The section, or None when no log was stopped by ``-T stop=decided``."""
    records = stopping_records(logs)
    if not records:
        return None
    sec = Section(id="stopping", title="Stopped when decided: anytime-valid intervals")
    sec.headline = _sentence(records[0])
    sec.summary.extend(_sentence(r) for r in records[1:])
    method = records[0].get("method", "")
    sec.summary.append(
        f"The intervals below are {LABEL} ({method}; {100 * (1 - float(records[0].get('alpha') or 0.05)):.0f}% "
        "simultaneous over each run's comparisons, Bonferroni; the unit is a source item's mean paired "
        "difference). They are not the fixed-sample intervals of the accuracy sections: on a run that stopped "
        "early those describe the questions asked, but their tests do not keep their level, since the answers "
        "decided when to stop.")
    sec.lead.append(Table("stopping_runs", "Why and when each run stopped (-T stop=decided)", _runs(records)))
    sec.lead.append(Table("stopping_intervals", f"Paired differences (format a − format b) with their {LABEL} "
                                                "intervals and decisions, as the run recorded them",
                          _intervals(records)))
    return sec
