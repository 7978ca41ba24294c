"""The tool task (``evals/tools.py``): per format, task success, tool calls per task and tokens per solved task.

Why a section of its own: an agent's cost is not its prompt. The tool scorer (``scorers/tools.py``) records per
sample ``tool_calls`` (calls the model made, refused ones included), ``tool_errors``, ``tokens`` (everything that
entered the model's context: prompt, tool results, its own turns), ``result_tokens`` and ``misread`` (wrong although
the results held the answer). Success and its 95% interval come from ``tables.accuracy_rows`` like every accuracy;
the rest are per-task means, and tokens per solved task is all tokens of the format's tasks over the tasks solved.
"""

from __future__ import annotations

import math

import pandas as pd

from coonbench.report.tables import Section, Table, accuracy_rows, has

COLUMNS = ["system", "format", "tasks", "solved", "success", "ci_low", "ci_high", "calls_per_task",
           "failed_calls_per_task", "tokens_per_task", "result_tokens_per_task", "tokens_per_solved", "misread"]


def tool_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per system and format (see the module docstring)."""
    acc = accuracy_rows(frame, ["system", "format"]).set_index(["system", "format"])
    rows = []
    for (system, fmt), g in frame.groupby(["system", "format"], sort=True):
        solved = int((g["correct"] == 1.0).sum())
        tokens = float(g["tokens"].sum())
        rows.append({
            "system": system, "format": fmt, "tasks": len(g), "solved": solved,
            "success": acc.loc[(system, fmt), "accuracy"], "ci_low": acc.loc[(system, fmt), "ci_low"],
            "ci_high": acc.loc[(system, fmt), "ci_high"], "calls_per_task": float(g["tool_calls"].mean()),
            "failed_calls_per_task": float(g["tool_errors"].mean()), "tokens_per_task": tokens / len(g),
            "result_tokens_per_task": float(g["result_tokens"].mean()),
            "tokens_per_solved": tokens / solved if solved else math.nan,
            "misread": int((g["misread"] == 1.0).sum()),
        })
    return pd.DataFrame(rows, columns=COLUMNS)


def tools_section(cat: str, frame: pd.DataFrame) -> Section | None:
    """The tool-use table, or None when the logs hold no tool task's scores."""
    if not all(has(frame, c) for c in ("tool_calls", "tokens", "correct")):
        return None
    rows = tool_rows(frame)
    sec = Section(id=f"{cat}_tool_use", title=f"{cat.capitalize()}: tool use per format")
    sec.tables.append(Table(f"{cat}_tool_use", "Task success (95% CI), tool calls and failed calls per task, "
                            "tokens per task and per solved task (tool results counted as the model's input), "
                            "answers wrong although a result held them (misread)", rows))
    for row in rows.itertuples():
        per_solved = f", {row.tokens_per_solved:,.0f} tokens per solved task" if row.solved else ""
        sec.summary.append(f"{row.system}, {row.format}: {row.solved} of {row.tasks} tasks solved, "
                           f"{row.calls_per_task:.1f} calls a task ({row.failed_calls_per_task:.1f} failed)"
                           f"{per_solved}, {row.misread} misread.")
    return sec
