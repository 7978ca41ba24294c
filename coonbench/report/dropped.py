"""Nothing dropped in silence: the logs that did not finish, the samples that errored or carry no score, and what
each format lost, said before any comparison.

Every table compares formats on the questions each answered, so a sample without a score leaves every format's
like-for-like set; when the losses fall unevenly on the formats (a reply in one format that crashes a scorer),
the questions left may favour one of them. The report cannot undo that; it says it, per log, system and format.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

def _format_of(sample_id: str, formats: list[str]) -> str:
    """The format a sample id ends with (ids are ``<category>-<source>-<question>-<format>``): the longest match."""
    found = [f for f in formats if any(sample_id.endswith(sep + f) for sep in ("-", ":", "_", "/"))]
    return max(found, key=len) if found else "unknown format"


def _missing(samples: pd.DataFrame, evals: pd.DataFrame) -> dict[str, dict[str, int]]:
    """Per log whose status is not success: the planned samples (dataset ids × epochs) absent from it, by format."""
    out: dict[str, dict[str, int]] = {}
    if "status" not in evals.columns or "planned" not in evals.columns:
        return out
    for _, ev in evals.iterrows():
        if str(ev["status"]) == "success":
            continue
        log = str(ev["log"])
        mine = samples[samples["log"] == log]
        try:
            planned = json.loads(ev["planned"]) if isinstance(ev["planned"], str) else {}
        except ValueError:
            planned = {}
        ids, epochs = planned.get("ids") or [], int(planned.get("epochs") or 1)
        present = mine.groupby("id")["epoch"].nunique().to_dict()
        formats = sorted(set(samples["format"]))
        lost: dict[str, int] = {}
        for sid in ids:
            gone = epochs - int(present.get(sid, 0))
            if gone > 0:
                fmt = _format_of(sid, formats)
                lost[fmt] = lost.get(fmt, 0) + gone
        out[log] = lost
    return out


def _counts(parts: dict[str, int]) -> str:
    return ", ".join(f"{f} {n:,}" for f, n in sorted(parts.items()))


def dropped_warnings(samples: pd.DataFrame, evals: pd.DataFrame) -> list[str]:
    """One warning per log that did not succeed and per log with errored or unscored samples (counts per system and
    format), then, per task and system whose formats lost unevenly, what each lost of its questions."""
    out: list[str] = []
    missing = _missing(samples, evals)
    status = dict(zip(evals["log"].astype(str), evals["status"].astype(str))) if "status" in evals.columns else {}
    systems = samples.groupby("log")["system"].first().to_dict()
    tasks = samples.groupby("log")["task"].first().to_dict()
    for log, lost in sorted(missing.items()):
        where = f"task {tasks[log]}, {systems[log]}" if log in systems else "no samples"
        text = f"log {Path(log).name} ({where}) has status {status.get(log, 'unknown')}, not success"
        text += f": {sum(lost.values()):,} planned sample(s) missing ({_counts(lost)})" if lost else ""
        out.append(text + "; the tables use the samples it holds")
    bad = samples[(samples["error"] != "") | samples["unscored"].astype(bool)]
    for (log, system), g in bad.groupby(["log", "system"], sort=True):
        errors = g[g["error"] != ""].groupby("format").size().to_dict()
        unscored = g[(g["error"] == "") & g["unscored"].astype(bool)].groupby("format").size().to_dict()
        said = ([f"{sum(errors.values()):,} sample(s) ended in an error ({_counts(errors)})"] if errors else []) + \
               ([f"{sum(unscored.values()):,} sample(s) carry no score ({_counts(unscored)})"] if unscored else [])
        out.append(f"log {Path(log).name} (task {g['task'].iloc[0]}, {system}): {' and '.join(said)}: left out of "
                   "every accuracy and every paired comparison")
    out += _uneven(samples, missing)
    return out


def _uneven(samples: pd.DataFrame, missing: dict[str, dict[str, int]]) -> list[str]:
    """Per task and system: each format's lost samples (missing, errored, unscored) as a share of what it planned,
    when they differ between formats: the like-for-like questions may then favour a format."""
    out = []
    for (task, system), g in samples.groupby(["task", "system"], sort=True):
        lost: dict[str, int] = {}
        planned: dict[str, int] = {}
        for fmt, h in g.groupby("format"):
            lost[str(fmt)] = int(((h["error"] != "") | h["unscored"].astype(bool)).sum())
            planned[str(fmt)] = len(h)
        for log in set(g["log"]):
            for fmt, n in missing.get(log, {}).items():
                lost[fmt] = lost.get(fmt, 0) + n
                planned[fmt] = planned.get(fmt, 0) + n
        if len(lost) < 2 or not any(lost.values()):
            continue
        shares = {f: lost[f] / planned[f] if planned[f] else 0.0 for f in lost}
        if len(set(lost.values())) == 1 and len(set(shares.values())) == 1:  # spread evenly: no format favoured
            continue
        parts = ", ".join(f"{f} {lost[f]:,} of {planned[f]:,} ({shares[f] * 100:.1f}%)" for f in sorted(lost))
        out.append(f"task {task}, {system}: the formats lost unevenly ({parts}): the like-for-like questions may be "
                   "biased, since they keep only the questions every format answered")
    return out
