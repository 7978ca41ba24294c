"""Where a report's numbers come from: the command, the versions, the dates, the models, the task arguments and
the data (the reproducibility block inspect_evals' Evaluation Report asks for), read from the logs' eval specs."""

from __future__ import annotations

import json
import platform
import sys
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

import pandas as pd

from coonbench.report.load import is_reference


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _runs(evals: pd.DataFrame, samples: pd.DataFrame) -> list[dict[str, Any]]:
    """One entry per log the report read (the logs of dropped re-runs left out)."""
    kept = set(samples["log"].astype(str))
    runs = []
    for _, e in evals.iterrows():
        log = str(e.get("log", ""))
        if kept and log not in kept:
            continue
        info = json.loads(e["provenance"]) if isinstance(e.get("provenance"), str) else {}
        solver = e.get("solver")
        system = e["model"] if not isinstance(solver, str) or not solver else f"{e['model']} [{solver}]"
        runs.append({"log": Path(log).name, "task": e["task_name"], "system": system, "created": str(e.get("created")),
                     "reference": is_reference(system), **info})
    return sorted(runs, key=lambda r: (r["task"], r["system"], r["log"]))


def provenance(evals: pd.DataFrame, samples: pd.DataFrame, command: str | None) -> dict[str, Any]:
    """The provenance block's content (report.json's ``provenance``)."""
    runs = _runs(evals, samples)
    made_with = sorted({str(r.get("packages", {}).get("inspect_ai")) for r in runs if r.get("packages")})
    return {
        "command": command or "coonbench report (called from Python)",
        "coonbench": _version("coonbench"),
        "inspect_ai": _version("inspect_ai"),
        "python": f"{platform.python_implementation()} {sys.version.split()[0]}",
        "written": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "runs_made_with_inspect_ai": made_with,
        "run_dates": sorted({r["created"][:10] for r in runs if r.get("created")}),
        "runs": runs,
    }


def _args(run: dict[str, Any]) -> str:
    args = {k: v for k, v in (run.get("task_args") or {}).items() if v is not None}
    return ", ".join(f"{k}={v}" for k, v in sorted(args.items())) or "defaults"


def _data(run: dict[str, Any]) -> str:
    data = run.get("dataset") or {}
    text = f"{data.get('name') or run['task']}, {data.get('samples') or '?'} samples"
    if run.get("imported_from"):
        text += f", imported from {run['imported_from']}"
    if run.get("revision"):
        text += f", coonbench commit {str(run['revision'])[:10]}"
    return text


def lines(block: dict[str, Any]) -> list[str]:
    """The provenance block as markdown list items (rendered in report.md and report.html)."""
    out = [f"Command: `{block['command']}`",
           f"Versions: coonbench {block['coonbench']}, inspect_ai {block['inspect_ai']}, {block['python']}"
           + (f"; the runs were made with inspect_ai {', '.join(block['runs_made_with_inspect_ai'])}"
              if block["runs_made_with_inspect_ai"] else ""),
           f"Date: report written {block['written']}; runs dated {', '.join(block['run_dates']) or 'unknown'}"]
    runs = block["runs"]
    models = sorted({r["system"] for r in runs if not r["reference"]})
    refs = sorted({r["system"] for r in runs if r["reference"]})
    out.append(f"Models: {', '.join(models) or 'none under test'}" + (f"; references: {', '.join(refs)}" if refs else ""))
    by_task: dict[str, set[str]] = {}
    data: dict[str, set[str]] = {}
    for r in runs:
        by_task.setdefault(r["task"], set()).add(_args(r))
        data.setdefault(r["task"], set()).add(_data(r))
    out += [f"Task {task}: arguments {'; '.join(sorted(args))}; data {'; '.join(sorted(data[task]))}"
            for task, args in sorted(by_task.items())]
    return out
