"""Prompt sensitivity: how much a format's accuracy moves with the wording of the prompt (``-T prompts=``), and
whether each paired format comparison says the same thing under every wording.

A run with ``-T prompts=all`` asks every question under several equivalent templates (metadata
``prompt_template``; ``coonbench.tasks.prompts``). Per system and format, the spread is the range (max − min) and
the standard deviation (ddof = 1, across templates) of the per-template accuracies; per paired comparison, the
report's own paired comparison (``tables.comparisons``, Holm within each template) is run under each template
apart, and the comparison *keeps its sign* when the difference has the same sign under every template and *keeps
its decision* when the conclusion ("A more accurate" / "cannot tell apart") is the same under every template.
So "COON costs 3 points" reads as a property of COON when it keeps sign and decision, and of one wording when not.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from coonbench.report import wording
from coonbench.report.load import DEFAULT_TEMPLATE
from coonbench.report.tables import Section, Table, accuracy_rows, comparisons

TEMPLATE = "prompt_template"


def templates_of(frame: pd.DataFrame) -> list[str]:
    """The templates in the frame, the default first."""
    found = set(frame[TEMPLATE]) if TEMPLATE in frame.columns else {DEFAULT_TEMPLATE}
    return sorted(found, key=lambda t: (t != DEFAULT_TEMPLATE, t))


def per_template(frame: pd.DataFrame, key: str = "correct") -> pd.DataFrame:
    """Accuracy per system, format and template (``tables.accuracy_rows``: n, accuracy, 95% CI)."""
    return accuracy_rows(frame, ["system", "format", TEMPLATE], key)


def spread(acc: pd.DataFrame) -> pd.DataFrame:
    """Per system and format, from ``per_template``'s rows: templates, mean, min, max, range and SD (ddof = 1) of
    the accuracy across templates, and the templates of the lowest and highest accuracy."""
    rows = []
    for (system, fmt), g in acc.groupby(["system", "format"], sort=True):
        values = g["accuracy"].astype(float).to_numpy()
        low, high = g.loc[g["accuracy"].idxmin()], g.loc[g["accuracy"].idxmax()]
        rows.append({
            "system": system, "format": fmt, "templates": len(values), "mean_accuracy": float(values.mean()),
            "min_accuracy": float(values.min()), "max_accuracy": float(values.max()),
            "range": float(values.max() - values.min()),
            "sd": float(values.std(ddof=1)) if len(values) > 1 else math.nan,
            "lowest": str(low[TEMPLATE]), "highest": str(high[TEMPLATE]),
        })
    return pd.DataFrame(rows)


def per_template_comparisons(frame: pd.DataFrame, key: str = "correct") -> pd.DataFrame:
    """``tables.comparisons`` run on each template's samples apart, with a ``prompt_template`` column."""
    parts = []
    for template in templates_of(frame):
        cmp = comparisons(frame[frame[TEMPLATE] == template], key)
        if not cmp.empty:
            parts.append(cmp.assign(**{TEMPLATE: template}))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _sign(diff: float) -> int:
    return int(np.sign(diff)) if math.isfinite(diff) else 0


def stability(cmp: pd.DataFrame) -> pd.DataFrame:
    """Per system and format pair, from ``per_template_comparisons``: the difference (A − B) under each template,
    its lowest and highest, whether it keeps its sign and whether the conclusion stays the same across templates."""
    rows = []
    if cmp.empty:
        return pd.DataFrame()
    for (system, fa, fb), g in cmp.groupby(["system", "format_a", "format_b"], sort=True):
        diffs = g["diff"].astype(float)
        signs = {_sign(d) for d in diffs}
        decisions = list(dict.fromkeys(g["conclusion"]))
        rows.append({
            "system": system, "format_a": fa, "format_b": fb, "templates": len(g),
            "diff_min": float(diffs.min()), "diff_max": float(diffs.max()),
            "diffs": "; ".join(f"{t} {d * 100:+.1f}" for t, d in zip(g[TEMPLATE], diffs)),
            "keeps_sign": len(signs) == 1 and 0 not in signs, "keeps_decision": len(decisions) == 1,
            "decisions": "; ".join(f"{t}: {c}" for t, c in zip(g[TEMPLATE], g["conclusion"])),
        })
    return pd.DataFrame(rows)


def _display_spread(spreads: pd.DataFrame) -> pd.DataFrame:
    """The spread table for people: accuracies as percentages, range and SD in points."""
    shown = spreads.copy()
    for col in ("mean_accuracy", "min_accuracy", "max_accuracy"):
        shown[col] = [wording.pct(v) for v in spreads[col]]
    for col in ("range", "sd"):
        shown[col] = [wording.number(v * 100) for v in spreads[col]]
    return shown.rename(columns={"range": "range (points)", "sd": "SD (points)"})


def _display_stability(stable: pd.DataFrame) -> pd.DataFrame:
    shown = stable.copy()
    for col in ("diff_min", "diff_max"):
        shown[col] = [wording.points(v) for v in stable[col]]
    for col in ("keeps_sign", "keeps_decision"):
        shown[col] = ["yes" if v else "no" for v in stable[col]]
    return shown.rename(columns={"diff_min": "lowest A − B (points)", "diff_max": "highest A − B (points)",
                                 "diffs": "A − B per template (points)"})


def _sentences(spreads: pd.DataFrame, stable: pd.DataFrame, templates: list[str]) -> list[str]:
    out = [f"{len(templates)} prompt templates ({', '.join(templates)}): every question asked under each."]
    for _, r in spreads.iterrows():
        out.append(f"{r['system']}, {r['format']}: accuracy {wording.pct(r['min_accuracy'])} to "
                   f"{wording.pct(r['max_accuracy'])} across templates (range {wording.number(r['range'] * 100)} "
                   f"points, SD {wording.number(r['sd'] * 100)}; lowest under "
                   f"{r['lowest']}, highest under {r['highest']}).")
    for _, r in stable.iterrows() if not stable.empty else ():
        sign = "keeps its sign" if r["keeps_sign"] else "changes sign (or is zero)"
        decision = "keeps its decision" if r["keeps_decision"] else "changes its decision"
        out.append(f"{r['system']}, {r['format_a']} − {r['format_b']} ({r['diffs']} points): {sign} and {decision} "
                   f"across the {r['templates']} templates.")
    return out


def prompt_section(cat: str, frame: pd.DataFrame, key: str = "correct") -> Section | None:
    """The category's prompt-sensitivity section; None unless its samples carry two templates or more."""
    templates = templates_of(frame)
    if len(templates) < 2 or key not in frame.columns or not frame[key].notna().any():
        return None
    data = frame[frame[key].notna()]
    acc = per_template(data, key)
    spreads = spread(acc)
    stable = stability(per_template_comparisons(data, key))
    sec = Section(id=f"{cat}_prompts", title=f"{cat.capitalize()}: prompt sensitivity")
    sec.summary = _sentences(spreads, stable, templates)
    sec.lead.append(Table(f"{cat}_prompt_spread", "Accuracy across prompt templates per system and format: range "
                                                  "(max − min) and standard deviation (ddof = 1) over templates",
                          spreads, display=_display_spread(spreads)))
    if not stable.empty:
        sec.lead.append(Table(f"{cat}_prompt_stability", "Paired format comparisons under each template apart "
                                                         "(difference A − B in points; Holm within each template): "
                                                         "does each keep its sign and its decision?", stable,
                              display=_display_stability(stable)))
    sec.tables.append(Table(f"{cat}_by_prompt", "Accuracy per system, format and prompt template (95% CI)", acc))
    return sec
