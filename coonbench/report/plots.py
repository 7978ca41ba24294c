"""PNG bar charts (matplotlib, Agg backend: no display needed), written under OUT/plots/."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from coonbench.report.tables import Section  # noqa: E402


def _bar(path: Path, labels: list[str], values: list[float], title: str, xlabel: str,
         low: list[float] | None = None, high: list[float] | None = None) -> None:
    height = max(2.0, 0.35 * len(labels) + 1.0)
    fig, ax = plt.subplots(figsize=(7, height), dpi=80)
    y = np.arange(len(labels))
    err = None
    if low is not None and high is not None:
        v = np.asarray(values, dtype=float)
        err = np.vstack([np.clip(v - np.asarray(low, dtype=float), 0, None), np.clip(np.asarray(high, dtype=float) - v, 0, None)])
    ax.barh(y, values, xerr=err, color="#4C72B0", capsize=3)
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


def plot_section(section: Section, out_dir: Path) -> None:
    """Efficiency ranking and per-system accuracy bars for accuracy sections; appends file names to the section."""
    out_dir.mkdir(parents=True, exist_ok=True)
    tables = {t.name: t.frame for t in section.tables}
    eff = tables.get(f"{section.id}_efficiency")
    if eff is not None and not eff.empty:
        eff = eff[eff["system"] == eff["system"].iloc[0]]  # pooled ('all') when several systems, else the one
        name = f"{section.id}_efficiency.png"
        _bar(out_dir / name, list(eff["format"]), list(eff["acc_pct_per_1k_tokens"]),
             f"{section.id}: accuracy % per 1K input tokens", "accuracy % per 1K tokens")
        section.plots.append(name)
    acc = tables.get(f"{section.id}_accuracy")
    if acc is not None and not acc.empty:
        name = f"{section.id}_accuracy.png"
        labels = [f"{s} · {f}" for s, f in zip(acc["system"], acc["format"])]
        _bar(out_dir / name, labels, list(acc["accuracy"] * 100), f"{section.id}: accuracy (95% CI)", "accuracy %",
             list(acc["ci_low"] * 100), list(acc["ci_high"] * 100))
        section.plots.append(name)
    comp = next((t for n, t in tables.items() if n.endswith("_completion")), None)
    if comp is not None and not comp.empty and "correct" in comp.columns:
        name = f"{section.id}_completion.png"
        labels = [f"{s} · {f}" for s, f in zip(comp["system"], comp["format"])]
        _bar(out_dir / name, labels, list(comp["correct"] * 100), f"{section.id}: task completion", "correct %")
        section.plots.append(name)


def plot_cost(section: Section, out_dir: Path) -> None:
    tables = {t.name: t.frame for t in section.tables}
    tokens: pd.DataFrame | None = tables.get("cost_tokens")
    if tokens is None or tokens.empty:
        return
    name = "cost_tokens.png"
    labels = [f"{c} · {s} · {f}" for c, s, f in zip(tokens["category"], tokens["system"], tokens["format"])]
    _bar(out_dir / name, labels, list(tokens["input_tokens"]), "mean input tokens per sample (o200k)", "tokens")
    section.plots.append(name)
