"""The report's tables, one section per category present, chosen by the score keys the logs hold (not by task name).

Each table is a tidy DataFrame (one row per system × format × …); each section also carries findings: sentences
that state a verdict with the figures that produced it.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import pandas as pd

from coonbench.report import stats

from coonbench.verdict import MAX_GAP, MIN_ACCURACY, MIN_EFFICIENCY_GAIN, decide
BASELINES = ("dart", "json", "json-pretty")  # the first present is the verdict's and break-even's baseline
NOPRIMER_SUFFIXES = ("-noprimer", ":noprimer", "_noprimer")
CODE_KEYS = ("syntax_valid", "decodable", "correct", "first_attempt_success", "attempts")
CORRECTION_KEYS = (
    "correct", "first_attempt_success", "parse_success", "semantic_correct", "iterations", "iterations_solved",
    "attempts", "final_tokens", "token_ratio", "reference_token_ratio",
)
MAX_SOURCE_ROWS = 40  # a by-source breakdown is shown only when this few source items


@dataclass
class Table:
    name: str  # file stem of the CSV: tables/<name>.csv
    caption: str
    frame: pd.DataFrame


@dataclass
class Section:
    id: str
    title: str
    findings: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    plots: list[str] = field(default_factory=list)  # file names under OUT/plots/


def _has(frame: pd.DataFrame, key: str) -> bool:
    return key in frame.columns and frame[key].notna().any()


def accuracy_rows(frame: pd.DataFrame, by: list[str], key: str = "correct") -> pd.DataFrame:
    """Accuracy per group with naive and clustered SEs, the clustered 95% CI, the Wilson CI and token cost."""
    rows = []
    for values, g in frame.groupby(by, sort=True, dropna=False):
        x = g[key].dropna()
        est = stats.mean_estimate(x, g.loc[x.index, "cluster"])
        k = int(x.sum())
        w_low, w_high = stats.wilson(k, est.n)
        tokens = float(g["input_tokens"].mean())
        rows.append({
            **dict(zip(by, values if isinstance(values, tuple) else (values,))),
            "n": est.n, "correct": k, "accuracy": est.mean, "se_naive": est.se_naive, "se_clustered": est.se_clustered,
            "ci_low": max(0.0, est.ci_low), "ci_high": min(1.0, est.ci_high), "wilson_low": w_low,
            "wilson_high": w_high, "clusters": est.clusters, "input_tokens": tokens,
            "acc_pct_per_1k_tokens": est.mean * 100 / tokens * 1000 if tokens else math.nan,
            # replies readable as the answer type at all, right or wrong (absent in logs before the key existed)
            "answered": float(g["answered"].mean()) if "answered" in g else math.nan,
        })
    return pd.DataFrame(rows)


REFERENCE_SOLVERS = ("coonbench/gold", "coonbench/baseline_")
"""Solvers that measure the benchmark, not a model: the oracle and the trivial floors (``solvers/baselines.py``)."""


def is_reference(system: str) -> bool:
    """Whether a system row is a reference (``model [coonbench/gold]``, ``model [coonbench/baseline_…]``)."""
    return any(f"[{name}" in system for name in REFERENCE_SOLVERS)


def _with_pooled(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame, plus a copy of the systems under test labelled system 'all' when there are several of them.

    The oracle and the trivial baselines are never pooled: a gold 100% or a constant reply's floor averaged into
    "all" would make every model look better or worse than it is. They keep their own rows, as floors.
    """
    tested = frame[~frame["system"].map(is_reference)]
    if tested["system"].nunique() > 1:
        return pd.concat([frame, tested.assign(system="all")], ignore_index=True)
    return frame


def _ranked(acc: pd.DataFrame) -> pd.DataFrame:
    """Pooled rows first, then each system under test, then the references; by efficiency within a system."""
    order = acc.assign(_pooled=acc["system"] == "all", _reference=acc["system"].map(is_reference))
    order = order.sort_values(["_pooled", "_reference", "system", "acc_pct_per_1k_tokens"],
                              ascending=[False, True, True, False])
    return order.drop(columns=["_pooled", "_reference"])


def comparisons(frame: pd.DataFrame, key: str = "correct") -> pd.DataFrame:
    """Every pair of formats, paired on (system, question, epoch); Holm across the pairs of each system row."""
    rows = []
    data = frame[frame[key].notna()].assign(system_orig=frame["system"])
    index = ["system_orig", "pair", "epoch"]
    for system, g in _with_pooled(data).groupby("system", sort=True):
        wide = g.pivot_table(index=index, columns="format", values=[key, "input_tokens"], aggfunc="first")
        clusters = g.groupby(index)["cluster"].first()
        block = []
        for fa, fb in itertools.combinations(sorted(g["format"].unique()), 2):
            both = wide[[(key, fa), (key, fb)]].dropna()
            if both.empty:
                continue
            idx = both.index
            cmp = stats.paired_comparison(
                both[(key, fa)].to_numpy(), both[(key, fb)].to_numpy(),
                wide.loc[idx, ("input_tokens", fa)].to_numpy(), wide.loc[idx, ("input_tokens", fb)].to_numpy(),
                clusters.reindex(idx).to_numpy(),
            )
            block.append({"system": system, "format_a": fa, "format_b": fb, **cmp.__dict__})
        for row, p in zip(block, stats.holm([r["p_mcnemar"] for r in block])):
            row["p_holm"] = p
            row["conclusion"] = _conclusion(row)
        rows.extend(block)
    return pd.DataFrame(rows)


def _conclusion(row: dict) -> str:
    if row["p_holm"] < stats.ALPHA:
        better = row["format_a"] if row["diff"] > 0 else row["format_b"]
        return f"{better} more accurate"
    return "cannot tell apart"


def baseline_of(formats: list[str]) -> str | None:
    return next((b for b in BASELINES if b in formats), None)


def verdicts(acc: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The design's §8 verdict of every format against the baseline, per system, with the figures behind it."""
    rows, findings = [], []
    for system, g in acc.groupby("system", sort=True):
        base = baseline_of(list(g["format"]))
        if base is None:
            continue
        b = g[g["format"] == base].iloc[0]
        b_eff = b["accuracy"] / b["input_tokens"] if b["input_tokens"] else math.nan
        for _, t in g[g["format"] != base].iterrows():
            eff = t["accuracy"] / t["input_tokens"] if t["input_tokens"] else math.nan
            gain = eff / b_eff if b_eff else math.nan
            gap = b["accuracy"] - t["accuracy"]
            reasons = []
            if t["accuracy"] < MIN_ACCURACY:
                reasons.append(f"accuracy {t['accuracy']:.1%} < {MIN_ACCURACY:.0%}")
            if gap > MAX_GAP:
                reasons.append(f"gap {gap * 100:.1f} points > {MAX_GAP * 100:.0f}")
            if not (gain >= MIN_EFFICIENCY_GAIN):
                reasons.append(
                    f"efficiency gain {gain:.2f}× < {MIN_EFFICIENCY_GAIN}× because {t['format']} costs "
                    f"{t['input_tokens']:.0f} input tokens per question against {base}'s {b['input_tokens']:.0f} "
                    f"({t['input_tokens'] / b['input_tokens']:.1f}× {base})"
                )
            word = decide(t["accuracy"], gap, gain)
            rows.append({"system": system, "format": t["format"], "baseline": base, "verdict": word,
                         "accuracy": t["accuracy"], "gap": gap, "efficiency_gain": gain,
                         "input_tokens": t["input_tokens"], "baseline_input_tokens": b["input_tokens"],
                         "reasons": "; ".join(reasons)})
            why = "; ".join(reasons) if reasons else (
                f"accuracy {t['accuracy']:.1%} ≥ {MIN_ACCURACY:.0%}, gap {gap * 100:.1f} points ≤ {MAX_GAP * 100:.0f}, "
                f"gain {gain:.2f}× ≥ {MIN_EFFICIENCY_GAIN}×")
            findings.append(f"{system}: {t['format']} vs {base} — **{word}**: {why}.")
    return pd.DataFrame(rows), findings


def _comparison_findings(cmp: pd.DataFrame, base: str | None = None) -> list[str]:
    """One sentence per comparison; against the baseline, the other format is named first (its gain is +)."""
    out = []
    for _, r in cmp.iterrows():
        if r["format_a"] == base:
            r = r.copy()
            r["format_a"], r["format_b"] = r["format_b"], r["format_a"]
            r["diff"], r["diff_low"], r["diff_high"] = -r["diff"], -r["diff_high"], -r["diff_low"]
        sign = "+" if r["diff"] >= 0 else ""
        text = (f"{r['system']}: {r['format_a']} vs {r['format_b']}: {sign}{r['diff'] * 100:.1f} points "
                f"(95% CI {r['diff_low'] * 100:.1f} to {r['diff_high'] * 100:.1f}), McNemar p={r['p_mcnemar']:.3g}, "
                f"Holm p={r['p_holm']:.3g} over {r['pairs']} pairs — {r['conclusion']}")
        if r["conclusion"] == "cannot tell apart" and r["mdd"] > 1:
            text += " (too few pairs: no difference is detectable at 80% power)"
        elif r["conclusion"] == "cannot tell apart" and abs(r["diff"]) < r["mdd"]:
            text += f" (only differences ≥ {r['mdd'] * 100:.1f} points are detectable at 80% power)"
        out.append(text + ".")
    return out


def headline(ranking: pd.DataFrame, cmp: pd.DataFrame) -> str | None:
    """The answer first: the most accurate and the most token-efficient format, and whether the lead is real."""
    top = ranking[ranking["system"] == ranking["system"].iloc[0]]
    if len(top) < 2:
        return None
    by_acc = top.sort_values("accuracy", ascending=False)
    first, second = by_acc.iloc[0], by_acc.iloc[1]
    text = (f"{first['system']}: most accurate **{first['format']}** {first['accuracy']:.1%} "
            f"(95% CI {first['ci_low']:.1%}–{first['ci_high']:.1%}), then {second['format']} {second['accuracy']:.1%}")
    if not cmp.empty:
        row = cmp[(cmp["system"] == first["system"]) & (
            ((cmp["format_a"] == first["format"]) & (cmp["format_b"] == second["format"]))
            | ((cmp["format_a"] == second["format"]) & (cmp["format_b"] == first["format"])))]
        if not row.empty:
            r = row.iloc[0]
            text += f" — {r['conclusion']} (McNemar p={r['p_mcnemar']:.2g}, Holm p={r['p_holm']:.2g}, {r['pairs']} pairs)"
    eff = top.iloc[0]  # the table is sorted by efficiency within a system
    text += (f". Most token-efficient: **{eff['format']}**, {eff['acc_pct_per_1k_tokens']:.1f} accuracy % per 1K "
             f"tokens at {eff['input_tokens']:,.0f} tokens per question.")
    return text


def accuracy_section(cat: str, frame: pd.DataFrame) -> Section:
    sec = Section(id=cat, title=f"{cat.capitalize()}: accuracy")
    pooled = _with_pooled(frame)
    acc = accuracy_rows(pooled, ["system", "format"])
    sec.tables.append(Table(f"{cat}_accuracy", "Accuracy per system and format (95% CI clustered by source item)", acc))
    ranking = _ranked(acc)
    sec.tables.append(Table(f"{cat}_efficiency",
                            "Efficiency ranking: accuracy % per 1K input tokens (pooled first, references last)",
                            ranking))
    for key in ("question_type", "complexity"):
        if frame[key].nunique() > 1:
            sec.tables.append(Table(f"{cat}_by_{key}", f"Accuracy by {key.replace('_', ' ')}",
                                    accuracy_rows(pooled, ["system", "format", key])))
    if 1 < frame["cluster"].nunique() <= MAX_SOURCE_ROWS and frame["cluster"].nunique() < len(frame):
        sec.tables.append(Table(f"{cat}_by_source", "Accuracy by source item (dataset / file)",
                                accuracy_rows(pooled, ["system", "format", "cluster"])))
    if frame["format"].nunique() > 1:
        cmp = comparisons(frame)
        if not cmp.empty:
            sec.tables.append(Table(f"{cat}_comparisons", "Paired format comparisons (exact McNemar, Holm, bootstrap CIs)", cmp))
            base = baseline_of(list(cmp["format_a"]) + list(cmp["format_b"]))
            shown = cmp[(cmp["format_a"] == base) | (cmp["format_b"] == base) | (cmp["p_holm"] < stats.ALPHA)]
            sec.findings.extend(_comparison_findings(shown, base))
        ver, why = verdicts(acc[acc["system"] != "all"] if frame["system"].nunique() > 1 else acc)
        if not ver.empty:
            sec.tables.append(Table(f"{cat}_verdict", "The design's verdict (§8) against the baseline", ver))
            sec.findings.extend(why)
    lead = headline(ranking, next((t.frame for t in sec.tables if t.name == f"{cat}_comparisons"), pd.DataFrame()))
    if lead:
        sec.findings.insert(0, lead)
    if frame["epoch"].nunique() > 1:
        cons = stats.consistency(frame["correct"], frame[["system", "format", "pair"]])
        summary = cons.groupby(["system", "format"]).agg(
            questions=("agreement", "size"), mean_agreement=("agreement", "mean"), mixed_share=("mixed", "mean"),
            epochs=("count", "max")).reset_index()
        sec.tables.append(Table(f"{cat}_consistency", "Per-question consistency across epochs", summary))
    return sec


def code_section(cat: str, frame: pd.DataFrame) -> Section:
    sec = Section(id=f"{cat}_code", title=f"{cat.capitalize()}: written programs")
    keys = [k for k in CODE_KEYS if _has(frame, k)]
    for by, name in ((["system", "format"], "completion"), (["system", "format", "question_type"], "by_kind")):
        table = frame.groupby(by, dropna=False).agg(
            n=("correct", "size"), **{k: (k, "mean") for k in keys}, input_tokens=("input_tokens", "mean"),
        ).reset_index()
        caption = ("Task completion by format (rates: syntax valid, decodable, AST/requirements correct)"
                   if name == "completion" else "Rates by direction / kind")
        sec.tables.append(Table(f"{cat}_{name}", caption, table))
    return sec


def correction_section(cat: str, frame: pd.DataFrame) -> Section:
    sec = Section(id=f"{cat}_correction", title=f"{cat.capitalize()}: iterative correction")
    keys = [k for k in CORRECTION_KEYS if _has(frame, k)]
    table = frame.groupby(["system", "format"]).agg(
        n=("correct", "size"), **{k: (k, "mean") for k in keys}).reset_index()
    sec.tables.append(Table(f"{cat}_goth", "Goth metrics per target (means; ratios are target tokens ÷ Python tokens)", table))
    errors = [c for c in frame.columns if c.startswith("n_") and _has(frame, c)]
    if errors:
        tax = frame.groupby(["system", "format"])[errors].sum().reset_index()
        sec.tables.append(Table(f"{cat}_errors", "Error taxonomy: attempts that ended with each error type", tax))
    return sec


def judge_section(cat: str, frame: pd.DataFrame) -> Section:
    from coonbench.agreement import interval_alpha

    sec = Section(id=f"{cat}_judge", title=f"{cat.capitalize()}: LLM judge")
    cols = sorted(c for c in frame.columns if c.startswith("judge:") and c.endswith(":combined") and _has(frame, c))
    rows = [{"judge": c.split(":")[1], **stats.mean_estimate(frame[c], frame["cluster"]).__dict__} for c in cols]
    sec.tables.append(Table(f"{cat}_judges", "Combined score per judge (mean, clustered CI)", pd.DataFrame(rows)))
    unscored = int(frame["combined"].isna().sum()) if "combined" in frame.columns else 0
    if "judges_ok" in frame.columns:
        unscored += int((frame["judges_ok"] == 0).sum())
    alpha = interval_alpha([frame[c].tolist() for c in cols]) if len(cols) > 1 else None
    sec.findings.append(f"{len(cols)} judge(s); unscored samples: {unscored}; Krippendorff's α (interval): "
                        + ("n/a (needs two judges with varying ratings)" if alpha is None else f"{alpha:.3f}"))
    return sec


def sections_for(samples: pd.DataFrame) -> list[Section]:
    """One or more sections per category, by the score keys its samples carry."""
    out: list[Section] = []
    for cat, frame in samples.groupby("category", sort=True):
        frame = frame.dropna(axis=1, how="all")
        cat = str(cat)
        if _has(frame, "iterations"):
            out.append(correction_section(cat, frame))
        elif _has(frame, "syntax_valid"):
            out.append(code_section(cat, frame))
        elif _has(frame, "correct"):
            out.append(accuracy_section(cat, frame))
        if any(c.startswith("judge:") for c in frame.columns):
            out.append(judge_section(cat, frame))
    return out
