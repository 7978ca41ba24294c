"""PNG charts (matplotlib, Agg backend: no display needed), written under OUT/plots/.

Charts are drawn 1,200 px wide (the page's width), labels wrapped rather than squeezing the bars, a 0 written
where a bar has no length, titles wrapped to fit. Every label comes from the logs, so text is drawn as it is
(``PLAIN_TEXT``: no mathtext, whose ``$…$`` a log could use to crash or hang the report), and a chart with more
bars than ``MAX_BARS`` shows the first of them and says how many it left out.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from coonbench.report.safe import file_stem  # noqa: E402
from coonbench.report.tables import Section  # noqa: E402

WIDTH_IN, DPI = 12.0, 100  # 1,200 px
LABEL_CHARS = 34
TITLE_CHARS = 110
COLOR, SIGNIFICANT, MUTED = "#4C72B0", "#C44E52", "#8C8C8C"
PLAIN_TEXT = {"text.parse_math": False, "text.usetex": False}
MAX_BARS = 120
MAX_LINES = 4  # a label or title wraps to at most this many lines, its end cut with '…'


def _wrap(label: str, width: int = LABEL_CHARS) -> str:
    text = str(label)
    if len(text) > width * MAX_LINES:
        text = text[: width * MAX_LINES - 1] + "…"
    return "\n".join(textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False)) or text


def _capped(labels: list[str], title: str) -> tuple[list[str], str]:
    """At most ``MAX_BARS`` labels; the title says when some were left out."""
    if len(labels) <= MAX_BARS:
        return labels, title
    return labels[:MAX_BARS], f"{title} (the first {MAX_BARS} of {len(labels)}; every row is in the table)"


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
              low: list[float] | None = None, high: list[float] | None = None, fmt: str = "{:.1f}") -> None:
    """Horizontal bars with optional CIs and each bar's value written at its end (a zero bar shows '0')."""
    labels, title = _capped(labels, title)
    values = list(values)[: len(labels)]
    low, high = (None, None) if low is None or high is None else (list(low)[: len(labels)], list(high)[: len(labels)])
    fig, ax, wrapped = _figure(labels, title)
    y = np.arange(len(labels))
    v = np.nan_to_num(np.asarray(values, dtype=float))
    err = None
    if low is not None and high is not None:
        lo, hi = np.nan_to_num(np.asarray(low, dtype=float)), np.nan_to_num(np.asarray(high, dtype=float))
        err = np.vstack([np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)])
    ax.barh(y, v, xerr=err, color=COLOR, capsize=3, ecolor="#333333")
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


MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")


def answer_axes(points: list[dict], x_label: str, title: str) -> tuple[plt.Figure, plt.Axes]:
    """The answer figure drawn, not saved: each format its own marker and colour, named in a legend beside the
    axes (labels at the points collide when two formats cost and score alike: "dart-minifiedart")."""
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 3.6 + 0.2 * title.count("\n")), dpi=DPI)
    ax.set_title("\n".join(_wrap(line, TITLE_CHARS) for line in title.split("\n")), fontsize=11, loc="left")
    shown = [p for p in points if math.isfinite(p["x"]) and math.isfinite(p["accuracy"])]
    colors = plt.get_cmap("tab10")
    for i, p in enumerate(shown):
        acc, low, high = p["accuracy"] * 100, p["ci_low"] * 100, p["ci_high"] * 100
        ax.errorbar([p["x"]], [acc], yerr=[[max(acc - low, 0)], [max(high - acc, 0)]], fmt=MARKERS[i % len(MARKERS)],
                    color=colors(i % 10), ecolor=colors(i % 10), capsize=4, markersize=7, label=_wrap(p["format"]))
    xs = [p["x"] for p in shown]
    if xs:
        span = max(xs) - min(xs) or max(xs) or 1.0
        ax.set_xlim(min(xs) - 0.08 * span, max(xs) + 0.08 * span)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=10, title="format", frameon=False)
    ax.set_xlabel(x_label + " — further left is cheaper")
    ax.set_ylabel("accuracy %, 95% CI")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    return fig, ax


def answer_figure(path: Path, points: list[dict], x_label: str, title: str) -> None:
    """The first screen's figure: per format, accuracy with its 95% CI (vertical bar) against tokens per correct
    answer; short enough to sit beside the answer on a 900 px screen."""
    fig, _ = answer_axes(points, x_label, title)
    _save(fig, path)


def forest_plot(path: Path, labels: list[str], diff: list[float], low: list[float], high: list[float],
                sim_low: list[float], sim_high: list[float], significant: list[bool], title: str) -> None:
    """Paired differences in points: the 95% interval thick, the simultaneous one thin, significant ones red."""
    labels, title = _capped(labels, title)
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


def plot_section(section: Section, out_dir: Path) -> None:
    """The section's charts: the answer figure (first screen), the forest plot of paired differences and accuracy
    bars (accuracy sections, details), completion bars (code sections); file names appended to the section. The
    answer figure and the forest plot draw ``section.plot_data``, which report.json keeps beside them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with plt.rc_context(PLAIN_TEXT):
        _plot_section(section, out_dir)


def _name(section: Section, kind: str) -> str:
    """The chart's file name: the section id made a plain file name (``safe.file_stem``), never a path."""
    return file_stem(f"{section.id}_{kind}") + ".png"


def _plot_section(section: Section, out_dir: Path) -> None:
    tables = {t.name: t.frame for t in section.all_tables()}
    answer = section.plot_data.get(f"{section.id}_answer.png")
    if answer and answer["points"]:
        name = _name(section, "answer")
        who = "pooled over the models under test" if answer["system"] == "all" else answer["system"]
        title = f"{section.id}: accuracy against tokens per correct answer, {who}, {answer['questions']}"
        if answer.get("design"):  # the design's question answered first, as in the headline
            title = f"{answer['design']}\n{title}"
        answer_figure(out_dir / name, answer["points"], answer["x_label"], title)
        section.lead_plots.append(name)
    forest = section.plot_data.get(f"{section.id}_forest.png")
    if forest and forest["points"]:
        rows = forest["points"]
        name = _name(section, "forest")
        forest_plot(out_dir / name, [f"{r['format_a']} − {r['format_b']}" for r in rows],
                    [r["diff"] for r in rows], [r["diff_low"] for r in rows], [r["diff_high"] for r in rows],
                    [r["sim_low"] for r in rows], [r["sim_high"] for r in rows],
                    [r["p_holm"] < 0.05 for r in rows],
                    f"{section.id}: paired differences in accuracy, {forest['system']}, {forest['questions']}")
        section.plots.append(name)
    acc = tables.get(f"{section.id}_accuracy")
    if acc is not None and not acc.empty:
        name = _name(section, "accuracy")
        label = [f"{s} · {f}" + (f" ({q})" if "questions" in acc.columns and q != acc["questions"].iloc[0] else "")
                 for s, f, q in zip(acc["system"], acc["format"], acc.get("questions", acc["format"]))]
        bar_chart(out_dir / name, label, list(acc["accuracy"] * 100), f"{section.id}: accuracy (95% CI)",
                  "accuracy %", list(acc["ci_low"] * 100), list(acc["ci_high"] * 100))
        section.plots.append(name)
    comp = tables.get(f"{section.id.removesuffix('_code')}_completion")
    if comp is not None and not comp.empty and "correct" in comp.columns:
        name = _name(section, "completion")
        bar_chart(out_dir / name, [f"{s} · {f}" for s, f in zip(comp["system"], comp["format"])],
                  list(comp["correct"] * 100), f"{section.id}: task completion", "correct %")
        section.plots.append(name)
