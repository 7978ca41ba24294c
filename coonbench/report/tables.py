"""The report's tables, one section per category present, chosen by the score keys the logs hold (not by task name).

Each table is a tidy DataFrame (one row per system × format × …). A section opens with its answer (``summary``:
a short paragraph, ``lead`` tables and plots) and keeps the rest as details (``findings``, ``tables``, ``plots``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from coonbench.report import stats
from coonbench.report.load import is_reference

BASELINES = ("dart", "json", "json-pretty")  # the first present is the verdict's and break-even's baseline
NOPRIMER_SUFFIXES = ("-noprimer", ":noprimer", "_noprimer")
CODE_KEYS = ("syntax_valid", "decodable", "correct", "first_attempt_success", "attempts")
MAX_SOURCE_ROWS = 40  # a by-source breakdown is shown only when this few source items
POOLED = "all"


@dataclass
class Table:
    name: str  # file stem of the CSV: tables/<name>.csv
    caption: str
    frame: pd.DataFrame
    display: pd.DataFrame | None = None  # what md/html show instead of ``frame`` (formatted cells), if set


@dataclass
class Section:
    id: str
    title: str
    summary: list[str] = field(default_factory=list)  # the answer: sentences of the opening paragraph
    lead: list[Table] = field(default_factory=list)  # shown right after the answer
    lead_plots: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)  # details
    tables: list[Table] = field(default_factory=list)
    plots: list[str] = field(default_factory=list)  # file names under OUT/plots/

    def all_tables(self) -> list[Table]:
        return self.lead + self.tables


def has(frame: pd.DataFrame, key: str) -> bool:
    return key in frame.columns and frame[key].notna().any()


def sample_tokens(frame: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """(input, output) tokens per sample: the provider's reported usage, else tiktoken's input count and the
    scorer's ``output_tokens`` (0 when neither is in the log)."""
    ins = frame["usage_input_tokens"].where(frame["usage_input_tokens"].notna(), frame["input_tokens"])
    outs = frame["usage_output_tokens"]
    if "output_tokens" in frame.columns:
        outs = outs.where(outs.notna(), frame["output_tokens"])
    return ins.astype(float), outs.fillna(0.0).astype(float)


def accuracy_rows(frame: pd.DataFrame, by: list[str], key: str = "correct") -> pd.DataFrame:
    """Accuracy per group with its SEs and 95% CI (``stats.mean_estimate``), tokens and tokens per correct answer."""
    ins, outs = sample_tokens(frame)
    rows = []
    for values, g in frame.groupby(by, sort=True, dropna=False):
        x = g[key].dropna()
        est = stats.mean_estimate(x, g.loc[x.index, "cluster"])
        k = int(x.sum())
        w_low, w_high = stats.wilson(k, est.n)
        tokens = float(g["input_tokens"].mean())
        spent = float(ins[g.index].sum() + outs[g.index].sum())
        rows.append({
            **dict(zip(by, values if isinstance(values, tuple) else (values,))),
            "n": est.n, "correct": k, "accuracy": est.mean, "ci_low": est.ci_low, "ci_high": est.ci_high,
            "interval": est.interval, "design_effect": est.design_effect, "wilson_low": w_low, "wilson_high": w_high,
            "se_naive": est.se_naive, "se_clustered": est.se_clustered, "clusters": est.clusters,
            "input_tokens": tokens, "tokens_per_correct": spent / k if k else math.nan,
            "acc_per_1k_tokens": est.mean / tokens * 1000 if tokens else math.nan,
            # replies readable as the answer type at all, right or wrong (absent in logs without the key)
            "answered": float(g["answered"].mean()) if "answered" in g else math.nan,
        })
    return pd.DataFrame(rows)


def with_pooled(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame, plus a copy of the systems under test labelled ``all`` when there are several of them.

    The oracle and the trivial baselines are never pooled: a gold 100% or a constant reply's floor averaged into
    ``all`` would make every model look better or worse than it is. They keep their own rows, as floors.
    """
    tested = frame[~frame["system"].map(is_reference)]
    if tested["system"].nunique() > 1:
        return pd.concat([frame, tested.assign(system=POOLED)], ignore_index=True)
    return frame


def _system_order(systems: list[str]) -> list[str]:
    """Pooled first, then the systems under test, then the references."""
    return sorted(set(systems), key=lambda s: (s != POOLED, is_reference(s), s))


def comparisons(frame: pd.DataFrame, key: str = "correct") -> pd.DataFrame:
    """Every pair of formats of each system under test, paired on (question, epoch); one Holm family per system."""
    rows = []
    data = frame[frame[key].notna() & ~frame["system"].map(is_reference)]
    if data.empty:
        return pd.DataFrame()
    data = data.assign(system_orig=data["system"])
    index = ["pair", "epoch"]
    for system, g in with_pooled(data).groupby("system", sort=True):
        if system == POOLED:
            g = g.assign(pair=g["system_orig"] + "\x1f" + g["pair"])
        wide = g.pivot_table(index=index, columns="format", values=[key, "input_tokens"], aggfunc="first")
        clusters = g.groupby(index)["cluster"].first()
        pairs = []
        for fa, fb in itertools.combinations(sorted(g["format"].unique()), 2):
            both = wide[[(key, fa), (key, fb)]].dropna()
            if not both.empty:
                pairs.append((fa, fb, both.index))
        block = []
        for fa, fb, idx in pairs:
            cmp = stats.paired_comparison(
                wide.loc[idx, (key, fa)].to_numpy(), wide.loc[idx, (key, fb)].to_numpy(),
                wide.loc[idx, ("input_tokens", fa)].to_numpy(), wide.loc[idx, ("input_tokens", fb)].to_numpy(),
                clusters.reindex(idx).to_numpy(), family=len(pairs),
            )
            block.append({"system": system, "format_a": fa, "format_b": fb, **cmp.__dict__})
        for row, p in zip(block, stats.holm([r["p_mcnemar"] for r in block])):
            row["p_holm"] = p
            row["conclusion"] = conclusion(row)
        rows.extend(block)
    return pd.DataFrame(rows)


def conclusion(row: dict | pd.Series) -> str:
    """'A more accurate' when the Holm-adjusted McNemar p < α; otherwise 'cannot tell apart'."""
    if row["p_holm"] < stats.ALPHA:
        better = row["format_a"] if row["diff"] > 0 else row["format_b"]
        return f"{better} more accurate"
    return "cannot tell apart"


def baseline_of(formats: list[str]) -> str | None:
    return next((b for b in BASELINES if b in formats), None)


def accuracy_section(cat: str, frame: pd.DataFrame, prices: dict[str, dict[str, float]] | None = None) -> Section:
    """Answer first (``summary.answer``), the compact table, then the detail tables."""
    from coonbench.report import summary, verdicts

    sec = Section(id=cat, title=f"{cat.capitalize()}: accuracy")
    pooled = with_pooled(frame)
    acc = accuracy_rows(pooled, ["system", "format"])
    acc = acc.set_index("system", drop=False).loc[_system_order(list(acc["system"]))].reset_index(drop=True)
    cmp = comparisons(frame) if frame["format"].nunique() > 1 else pd.DataFrame()
    sec.summary = summary.answer(cat, frame, acc, cmp, prices)
    sec.lead.append(summary.compact_table(cat, frame, acc, cmp))
    sec.tables.append(Table(f"{cat}_accuracy", "Accuracy per system and format (95% CI; `interval` names how it "
                                                "was made)", acc))
    _breakdowns(sec, cat, frame, pooled)
    if not cmp.empty:
        sec.tables.append(Table(f"{cat}_comparisons", "Paired format comparisons (exact McNemar, Holm per system; "
                                "diff CI 95% per comparison, sim CI simultaneous over the family)", cmp))
        sec.findings.extend(verdicts.comparison_sentences(cmp))
        ver, why = verdicts.design_verdicts(cmp)
        if not ver.empty:
            sec.tables.append(Table(f"{cat}_verdict", "The design's verdict (§8) against the baseline, on paired "
                                    "questions", ver))
            sec.findings.extend(why)
    if frame["epoch"].nunique() > 1:
        cons = stats.consistency(frame["correct"], frame[["system", "format", "pair"]])
        table = cons.groupby(["system", "format"]).agg(
            questions=("agreement", "size"), mean_agreement=("agreement", "mean"), mixed_share=("mixed", "mean"),
            epochs=("count", "max")).reset_index()
        sec.tables.append(Table(f"{cat}_consistency", "Per-question consistency across epochs", table))
    return sec


def _breakdowns(sec: Section, cat: str, frame: pd.DataFrame, pooled: pd.DataFrame) -> None:
    for key in ("question_type", "complexity"):
        if frame[key].nunique() > 1:
            sec.tables.append(Table(f"{cat}_by_{key}", f"Accuracy by {key.replace('_', ' ')}",
                                    accuracy_rows(pooled, ["system", "format", key])))
    if 1 < frame["cluster"].nunique() <= MAX_SOURCE_ROWS and frame["cluster"].nunique() < len(frame):
        sec.tables.append(Table(f"{cat}_by_source", "Accuracy by source item (dataset / file)",
                                accuracy_rows(pooled, ["system", "format", "cluster"])))


def code_section(cat: str, frame: pd.DataFrame) -> Section:
    sec = Section(id=f"{cat}_code", title=f"{cat.capitalize()}: written programs")
    keys = [k for k in CODE_KEYS if has(frame, k)]
    for by, name in ((["system", "format"], "completion"), (["system", "format", "question_type"], "by_kind")):
        table = frame.groupby(by, dropna=False).agg(
            n=("correct", "size"), **{k: (k, "mean") for k in keys}, input_tokens=("input_tokens", "mean"),
        ).reset_index()
        caption = ("Task completion by format (rates: syntax valid, decodable, AST/requirements correct)"
                   if name == "completion" else "Rates by direction / kind")
        sec.tables.append(Table(f"{cat}_{name}", caption, table))
    if "correct" in frame.columns:
        sec.summary = [f"{s}: {int(g['correct'].sum())}/{len(g)} programs correct "
                       f"({_pct(g['correct'].mean())})." for s, g in frame.groupby("system", sort=True)]
    return sec


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%" if math.isfinite(value) else "–"


def judge_section(cat: str, frame: pd.DataFrame) -> Section:
    from coonbench.judging.agreement import interval_alpha

    sec = Section(id=f"{cat}_judge", title=f"{cat.capitalize()}: LLM judge")
    cols = sorted(c for c in frame.columns if c.startswith("judge:") and c.endswith(":combined") and has(frame, c))
    rows = [{"judge": c.split(":")[1], **stats.mean_estimate(frame[c], frame["cluster"]).__dict__} for c in cols]
    sec.tables.append(Table(f"{cat}_judges", "Combined score per judge (mean, 95% CI)", pd.DataFrame(rows)))
    unscored = int(frame["combined"].isna().sum()) if "combined" in frame.columns else 0
    if "judges_ok" in frame.columns:
        unscored += int((frame["judges_ok"] == 0).sum())
    alpha = interval_alpha([frame[c].tolist() for c in cols]) if len(cols) > 1 else None
    sec.summary.append(f"{len(cols)} judge(s); unscored samples: {unscored}; Krippendorff's α (interval): "
                       + ("n/a (needs two judges with varying ratings)" if alpha is None else f"{alpha:.3f}") + ".")
    return sec


def sections_for(samples: pd.DataFrame, prices: dict[str, dict[str, float]] | None = None) -> list[Section]:
    """One or more sections per category, by the score keys its samples carry."""
    from coonbench.report.correction import correction_section

    out: list[Section] = []
    for cat, frame in samples.groupby("category", sort=True):
        frame = frame.dropna(axis=1, how="all")
        for col in ("usage_input_tokens", "usage_output_tokens", "input_tokens"):
            if col not in frame.columns:
                frame = frame.assign(**{col: np.nan})
        cat = str(cat)
        if has(frame, "iterations"):
            out.append(correction_section(cat, frame))
        elif has(frame, "syntax_valid"):
            out.append(code_section(cat, frame))
        elif has(frame, "correct"):
            out.append(accuracy_section(cat, frame, prices))
        if any(c.startswith("judge:") for c in frame.columns):
            out.append(judge_section(cat, frame))
    return out
