"""PNG charts (matplotlib, Agg backend: no display needed), written under OUT/plots/.

Charts are drawn 1,200 px wide (the page's width), labels wrapped rather than squeezing the bars, a 0 written
where a bar has no length, titles wrapped to fit.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from coonbench.report.tables import Section  # noqa: E402

WIDTH_IN, DPI = 12.0, 100  # 1,200 px
LABEL_CHARS = 34
TITLE_CHARS = 110
COLOR, SIGNIFICANT, MUTED, PART = "#4C72B0", "#C44E52", "#8C8C8C", "#DD8452"


def _wrap(label: str, width: int = LABEL_CHARS) -> str:
    return "\n".join(textwrap.wrap(str(label), width, break_long_words=True, break_on_hyphens=False)) or str(label)


def _figure(labels: list[str], title: str) -> tuple[plt.Figure, plt.Axes, list[str]]:
    wrapped = [_wrap(lb) for lb in labels]
    lines = sum(w.count("\n") + 1 for w in wrapped)
    height = max(2.4, 0.28 * lines + 0.3 * len(labels) + 1.4)
    fig, ax = plt.subplots(figsize=(WIDTH_IN, height), dpi=DPI)
    ax.set_title(_wrap(title, TITLE_CHARS), fontsize=11, loc="left")
    return fig, ax, wrapped


def _save(fig: plt.Figure, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


def bar_chart(path: Path, labels: list[str], values: list[float], title: str, xlabel: str,
              low: list[float] | None = None, high: list[float] | None = None, fmt: str = "{:.1f}",
              part: tuple[str, list[float]] | None = None) -> None:
    """Horizontal bars with optional CIs and each bar's value written at its end (a zero bar shows '0');
    ``part`` = (name, values) draws the share of each bar that is ``name`` (e.g. the primer) over it."""
    fig, ax, wrapped = _figure(labels, title)
    y = np.arange(len(labels))
    v = np.nan_to_num(np.asarray(values, dtype=float))
    err = None
    if low is not None and high is not None:
        lo, hi = np.nan_to_num(np.asarray(low, dtype=float)), np.nan_to_num(np.asarray(high, dtype=float))
        err = np.vstack([np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)])
    ax.barh(y, v, xerr=err, color=COLOR, capsize=3, ecolor="#333333", label="total")
    if part is not None and np.nansum(np.asarray(part[1], dtype=float)) > 0:
        ax.barh(y, np.nan_to_num(np.asarray(part[1], dtype=float)), color=PART, height=0.5, label=part[0])
        ax.legend(loc="lower right", fontsize=9)
    right = float(max(np.max(v + (err[1] if err is not None else 0)) if len(v) else 0, 1e-9))
    for yi, value in zip(y, values):
        text = "–" if not math.isfinite(value) else fmt.format(value)
        ax.text(max(0.0, 0 if not math.isfinite(value) else value) + right * 0.01, yi, text, va="center", fontsize=9)
    ax.set_xlim(0, right * 1.12)
    ax.set_yticks(y, wrapped, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.axvline(0, color="#333333", linewidth=0.8)
    _save(fig, path)


def forest_plot(path: Path, labels: list[str], diff: list[float], low: list[float], high: list[float],
                sim_low: list[float], sim_high: list[float], significant: list[bool], title: str) -> None:
    """Paired differences in points: the 95% interval thick, the simultaneous one thin, significant ones red."""
    fig, ax, wrapped = _figure(labels, title)
    for i, (d, lo, hi, slo, shi, sig) in enumerate(zip(diff, low, high, sim_low, sim_high, significant)):
        color = SIGNIFICANT if sig else COLOR
        ax.plot([slo * 100, shi * 100], [i, i], color=MUTED, linewidth=1.2)
        ax.plot([lo * 100, hi * 100], [i, i], color=color, linewidth=4, solid_capstyle="butt")
        ax.plot([d * 100], [i], "o", color="black", markersize=5)
    ax.axvline(0, color="#333333", linewidth=0.8, linestyle="--")
    ax.set_yticks(np.arange(len(labels)), wrapped, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel("difference in accuracy, points (A − B): thick = 95% CI, thin grey = simultaneous CI; "
                  "red = Holm p < 0.05")
    _save(fig, path)


def _forest(section: Section, frame: pd.DataFrame, out_dir: Path) -> None:
    from coonbench.report.summary import focus_system
    from coonbench.report.verdicts import oriented

    system = focus_system(frame)
    rows = frame[frame["system"] == system]
    if rows.empty:
        return
    rows = pd.DataFrame([oriented(r, r["format_a"] if r["diff"] >= 0 else r["format_b"]) for _, r in rows.iterrows()])
    rows = rows.sort_values("diff", ascending=False)
    name = f"{section.id}_forest.png"
    forest_plot(out_dir / name, [f"{a} − {b}" for a, b in zip(rows["format_a"], rows["format_b"])],
                list(rows["diff"]), list(rows["diff_low"]), list(rows["diff_high"]), list(rows["sim_low"]),
                list(rows["sim_high"]), list(rows["p_holm"] < 0.05),
                f"{section.id}: paired differences in accuracy, {system}")
    section.lead_plots.append(name)


def plot_section(section: Section, out_dir: Path) -> None:
    """The section's charts: forest plot of paired differences and accuracy bars (accuracy sections), completion
    bars (code sections), tokens per correct answer (cost section); file names appended to the section."""
    out_dir.mkdir(parents=True, exist_ok=True)
    tables = {t.name: t.frame for t in section.all_tables()}
    cmp = tables.get(f"{section.id}_comparisons")
    if cmp is not None and not cmp.empty:
        _forest(section, cmp, out_dir)
    acc = tables.get(f"{section.id}_accuracy")
    if acc is not None and not acc.empty:
        name = f"{section.id}_accuracy.png"
        bar_chart(out_dir / name, [f"{s} · {f}" for s, f in zip(acc["system"], acc["format"])],
                  list(acc["accuracy"] * 100), f"{section.id}: accuracy (95% CI)", "accuracy %",
                  list(acc["ci_low"] * 100), list(acc["ci_high"] * 100))
        section.plots.append(name)
    comp = tables.get(f"{section.id.removesuffix('_code')}_completion")
    if comp is not None and not comp.empty and "correct" in comp.columns:
        name = f"{section.id}_completion.png"
        bar_chart(out_dir / name, [f"{s} · {f}" for s, f in zip(comp["system"], comp["format"])],
                  list(comp["correct"] * 100), f"{section.id}: task completion", "correct %")
        section.plots.append(name)
    tokens = tables.get("cost_tokens")
    if tokens is not None and not tokens.empty:
        name = "cost_per_correct.png"
        bar_chart(out_dir / name, [f"{c} · {s} · {f}" for c, s, f in zip(tokens["category"], tokens["system"],
                                                                         tokens["format"])],
                  list(tokens["tokens_per_correct"]), "Tokens per correct answer (input + output; – = no correct "
                  "answer; orange: the primer's part)", "tokens per correct answer", fmt="{:,.0f}",
                  part=("primer", list(tokens["primer_tokens_per_correct"])))
        section.lead_plots.append(name)
