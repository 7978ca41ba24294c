"""The report's building blocks: the ``Table`` and ``Section`` it is made of, and the tidy tables every section
computes from — accuracy per group, paired comparisons, the pooled rows — on like-for-like question sets.

The lowest module of the report besides ``load``, ``stats``, ``wording`` and ``blocks``: it imports none of the
modules that assemble sections (``summary``, ``verdicts``, ``cost``, ``correction``, ``sections``), so nothing
imports back what imports it.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from coonbench.report import stats
from coonbench.report.load import is_reference

DATA_BASELINES = ("json", "json-pretty")  # after the languages' source formats: the first present is the baseline
NOPRIMER_SUFFIXES = ("-noprimer", ":noprimer", "_noprimer")
POOLED = "all"
DEFAULT_TOKENIZER = "o200k_base"  # logs written before the per-model tokenizers counted in o200k
MIXED = "mixed"  # a group whose tokens come from several tokenizers: never added up
UNDECIDABLE = "too few clusters to decide"  # a comparison's conclusion where the clustered test has too few df


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
    headline: str = ""  # the one sentence that answers (first screen)
    summary: list[str] = field(default_factory=list)  # what was compared and how sure: the rest of the paragraph
    lead: list[Table] = field(default_factory=list)  # shown right after the answer
    lead_plots: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)  # details
    tables: list[Table] = field(default_factory=list)
    plots: list[str] = field(default_factory=list)  # file names under OUT/plots/
    plot_data: dict[str, dict[str, Any]] = field(default_factory=dict)  # what each plot draws (report.json)

    def all_tables(self) -> list[Table]:
        return self.lead + self.tables


def has(frame: pd.DataFrame, key: str) -> bool:
    return key in frame.columns and frame[key].notna().any()


def sample_tokens(frame: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """(input, output) tokens per sample: the provider's reported usage, else the log's input count (in the
    tokenizer ``token_units`` names) and the scorer's ``output_tokens`` (0 when neither is in the log)."""
    ins = frame["usage_input_tokens"].where(frame["usage_input_tokens"].notna(), frame["input_tokens"])
    outs = frame["usage_output_tokens"]
    if "output_tokens" in frame.columns:
        outs = outs.where(outs.notna(), frame["output_tokens"])
    return ins.astype(float), outs.fillna(0.0).astype(float)


def token_units(frame: pd.DataFrame) -> pd.Series:
    """The tokenizer each sample's ``sample_tokens`` are counted in: a provider's reported usage is in that
    model's own tokenizer ("<model> (reported)"); else metadata ``tokenizer``; else o200k_base (older logs)."""
    meta = frame["tokenizer"] if "tokenizer" in frame.columns else pd.Series(pd.NA, index=frame.index)
    counted = meta.astype("object").where(meta.notna(), DEFAULT_TOKENIZER)
    reported = frame["model"].astype(str) + " (reported)"
    return reported.where(frame["usage_input_tokens"].notna(), counted).astype(str)


def unit_of(units: pd.Series | np.ndarray) -> str:
    """The one tokenizer of a group, or ``MIXED``."""
    found = {u for u in units if isinstance(u, str)}
    return found.pop() if len(found) == 1 else (MIXED if found else DEFAULT_TOKENIZER)


def accuracy_rows(frame: pd.DataFrame, by: list[str], key: str = "correct") -> pd.DataFrame:
    """Accuracy per group with its SEs and 95% CI (``stats.mean_estimate``), tokens and tokens per correct answer
    (input and output apart; NaN where the group mixes tokenizers: tokens of different tokenizers are never added).
    Groups are taken as positions into numpy columns: hundreds of groups (a breakdown by source item) cost little."""
    ins, outs = (s.to_numpy(dtype=float) for s in sample_tokens(frame))
    units = token_units(frame).to_numpy(dtype=object)
    values_all = frame[key].to_numpy(dtype=float)
    clusters = frame["cluster"].to_numpy(dtype=object)
    tokens_all = frame["input_tokens"].to_numpy(dtype=float)
    answered = frame["answered"].to_numpy(dtype=float) if "answered" in frame else None
    rows = []
    for values, pos in frame.groupby(by, sort=False, dropna=False).indices.items():
        keep = pos[~np.isnan(values_all[pos])]
        est = stats.mean_estimate(values_all[keep], clusters[keep])
        k = int(values_all[keep].sum())
        w_low, w_high = stats.wilson(k, est.n)
        unit = unit_of(units[pos])
        same = unit != MIXED
        tokens = float(np.nanmean(tokens_all[pos])) if same and not np.isnan(tokens_all[pos]).all() else math.nan
        spent_in, spent_out = float(np.nansum(ins[pos])), float(np.nansum(outs[pos]))
        rows.append({
            **dict(zip(by, values if isinstance(values, tuple) else (values,))),
            "n": est.n, "correct": k, "accuracy": est.mean, "ci_low": est.ci_low, "ci_high": est.ci_high,
            "interval": est.interval, "design_effect": est.design_effect, "wilson_low": w_low, "wilson_high": w_high,
            "se_naive": est.se_naive, "se_clustered": est.se_clustered, "clusters": est.clusters,
            "tokenizer": unit, "input_tokens": tokens,
            "tokens_per_correct": (spent_in + spent_out) / k if k and same else math.nan,
            "input_per_correct": spent_in / k if k and same else math.nan,
            "output_per_correct": spent_out / k if k and same else math.nan,
            "acc_per_1k_tokens": est.mean / tokens * 1000 if tokens else math.nan,
            # replies readable as the answer type at all, right or wrong (absent in logs without the key)
            "answered": float(np.nanmean(answered[pos])) if answered is not None and not np.isnan(answered[pos]).all()
            else math.nan,
        })
    out = pd.DataFrame(rows)
    return out.sort_values(by, kind="stable", na_position="last").reset_index(drop=True) if not out.empty else out


def with_pooled(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame, plus a copy of the systems under test labelled ``all`` when several of them ran every format.

    The oracle and the trivial baselines are never pooled: a gold 100% or a constant reply's floor averaged into
    ``all`` would make every model look better or worse than it is. A system that ran only some of the formats is
    not pooled either: ``all`` would then compare different models' answers from one format to the next.
    """
    tested = frame[~frame["system"].map(is_reference).astype(bool)]  # bool even when empty
    formats = set(tested["format"])
    complete = [s for s, g in tested.groupby("system") if set(g["format"]) == formats]
    if len(complete) > 1:
        return pd.concat([frame, tested[tested["system"].isin(complete)].assign(system=POOLED)], ignore_index=True)
    return frame


def system_order(systems: list[str]) -> list[str]:
    """Pooled first, then the systems under test, then the references."""
    return sorted(set(systems), key=lambda s: (s != POOLED, is_reference(s), s))


def comparisons(frame: pd.DataFrame, key: str = "correct", families: dict[str, int] | None = None) -> pd.DataFrame:
    """Every pair of formats of each system under test, paired on (question, epoch). Tokens (and so the efficiency
    ratio) are left out of a pooled comparison whose models' tokenizers differ.

    Without ``families``: one Holm family per system, its comparisons here. With it (system → m, counting the
    comparisons on every question set of one report question): each comparison is made in a family of m and the
    caller adjusts the whole family at once (``adjust_families``)."""
    rows = []
    data = frame[frame[key].notna() & ~frame["system"].map(is_reference)]
    if data.empty:
        return pd.DataFrame()
    data = data.assign(system_orig=data["system"], _unit=token_units(data))
    index = ["pair", "epoch"]
    for system, g in with_pooled(data).groupby("system", sort=True):
        if system == POOLED:
            g = g.assign(pair=g["system_orig"] + "\x1f" + g["pair"])
        if unit_of(g["_unit"]) == MIXED:
            g = g.assign(input_tokens=math.nan)
        wide = g.pivot_table(index=index, columns="format", values=[key, "input_tokens"], aggfunc="first")
        formats = sorted(g["format"].unique())
        answers = wide[key].reindex(columns=formats).to_numpy(dtype=float)
        tokens = (wide["input_tokens"].reindex(columns=formats).to_numpy(dtype=float)
                  if "input_tokens" in wide.columns.get_level_values(0) else np.full(answers.shape, math.nan))
        clusters = g.groupby(index)["cluster"].first().reindex(wide.index).to_numpy(dtype=object)
        pairs = []
        for (i, fa), (j, fb) in itertools.combinations(enumerate(formats), 2):
            both = ~np.isnan(answers[:, i]) & ~np.isnan(answers[:, j])
            if both.any():
                pairs.append((i, fa, j, fb, both))
        family = (families or {}).get(str(system), len(pairs))
        for i, fa, j, fb, both in pairs:
            cmp = stats.paired_comparison(answers[both, i], answers[both, j], tokens[both, i], tokens[both, j],
                                          clusters[both], family=family)
            rows.append({"system": system, "format_a": fa, "format_b": fb, **cmp.__dict__})
    out = pd.DataFrame(rows)
    return out if families is not None or out.empty else adjust_families(out)


def family_sizes(frames: list[pd.DataFrame]) -> dict[str, int]:
    """Per system under test, how many paired comparisons ``comparisons`` makes over all of ``frames`` (the question
    sets of one report question: its Holm family), every format of a system paired with every other."""
    sizes: dict[str, int] = {}
    for frame in frames:
        data = frame[frame["correct"].notna() & ~frame["system"].map(is_reference)]
        if data.empty:
            continue
        for system, g in with_pooled(data).groupby("system", sort=True):
            k = g["format"].nunique()
            sizes[str(system)] = sizes.get(str(system), 0) + k * (k - 1) // 2
    return sizes


def adjust_families(cmp: pd.DataFrame) -> pd.DataFrame:
    """Holm's correction over each system's comparisons (its family: every question set of the report question),
    then each row's conclusion and whether it is fragile."""
    cmp = cmp.copy()
    cmp["p_holm"] = np.nan
    for _, idx in cmp.groupby("system", sort=False).groups.items():
        cmp.loc[idx, "p_holm"] = stats.holm(cmp.loc[idx, "p_value"].tolist())
    cmp["conclusion"] = [conclusion(r) for _, r in cmp.iterrows()]
    cmp["fragile"] = [fragile(r) for _, r in cmp.iterrows()]
    cmp["p_exact_holm"] = np.nan  # the exact McNemar test, Holm-adjusted over the same family
    for _, idx in cmp.groupby("system", sort=False).groups.items():
        cmp.loc[idx, "p_exact_holm"] = stats.holm(cmp.loc[idx, "p_mcnemar"].tolist())
    cmp["exact_test"] = [exact_agreement(r) for _, r in cmp.iterrows()]
    return cmp


AGREES, BORDERLINE = "agrees", "borderline"


def exact_agreement(row: dict | pd.Series) -> str:
    """Whether the exact McNemar test (Holm-adjusted in the same family) reaches the conclusion's decision: 'agrees',
    or 'borderline' when one method finds a difference and the other does not (the conclusion depends on the
    method). A comparison too few clusters to decide is not decided by either."""
    if row["conclusion"] == UNDECIDABLE:
        return "undecided"
    return AGREES if (row["p_holm"] < stats.ALPHA) == (row["p_exact_holm"] < stats.ALPHA) else BORDERLINE


def conclusion(row: dict | pd.Series) -> str:
    """'A more accurate' when the Holm-adjusted p < α; otherwise 'cannot tell apart', or, where the clustered test
    has fewer than ``stats.MIN_DF`` effective degrees of freedom, 'too few clusters to decide' (not a tie)."""
    if row["p_holm"] < stats.ALPHA:
        better = row["format_a"] if row["diff"] > 0 else row["format_b"]
        return f"{better} more accurate"
    if row.get("test") == stats.TEST_CLUSTERED and not row.get("df", math.inf) >= stats.MIN_DF:
        return UNDECIDABLE
    return "cannot tell apart"


def fragile(row: dict | pd.Series) -> bool:
    """Whether the conclusion rests on few clusters: dropping one cluster (``stats.leave_one_cluster_out``)
    moves the p-value, scaled by this row's Holm factor, across α."""
    low, high = row["p_loo_min"], row["p_loo_max"]
    if not (math.isfinite(low) and math.isfinite(high)) or not row["p_value"] > 0:
        return False
    factor = row["p_holm"] / row["p_value"]
    return (low * factor < stats.ALPHA) != (high * factor < stats.ALPHA)


def oriented(row: pd.Series, first: str) -> pd.Series:
    """The comparison row with ``first`` as format A (difference, interval and ratio flipped when needed)."""
    if row["format_a"] == first:
        return row
    r = row.copy()
    r["format_a"], r["format_b"] = row["format_b"], row["format_a"]
    r["acc_a"], r["acc_b"], r["tokens_a"], r["tokens_b"] = row["acc_b"], row["acc_a"], row["tokens_b"], row["tokens_a"]
    r["a_only"], r["b_only"] = row["b_only"], row["a_only"]
    r["diff"], r["diff_low"], r["diff_high"] = -row["diff"], -row["diff_high"], -row["diff_low"]
    r["sim_low"], r["sim_high"] = -row["sim_high"], -row["sim_low"]
    ratio = row["eff_ratio"]
    r["eff_ratio"] = 1 / ratio if ratio else float("nan")
    r["eff_ratio_low"] = 1 / row["eff_ratio_high"] if row["eff_ratio_high"] else float("nan")
    r["eff_ratio_high"] = 1 / row["eff_ratio_low"] if row["eff_ratio_low"] else float("nan")
    return r


def pair_row(cmp: pd.DataFrame, system: str, fa: str, fb: str) -> pd.Series | None:
    """The comparison of ``fa`` and ``fb`` for ``system``, oriented with ``fa`` first; None if not compared."""
    if cmp.empty:
        return None
    rows = cmp[(cmp["system"] == system) & (((cmp["format_a"] == fa) & (cmp["format_b"] == fb))
                                            | ((cmp["format_a"] == fb) & (cmp["format_b"] == fa)))]
    return None if rows.empty else oriented(rows.iloc[0], fa)


def baselines() -> tuple[str, ...]:
    """The formats others are compared against, first present wins: each registered language's source format (the
    default language's first: ``dart``, then ``python``, …, a plug-in's too), then JSON's."""
    from coonbench.languages import default_language, list_languages

    first = default_language().source_format
    code = [first, *(lang.source_format for lang in list_languages() if lang.source_format != first)]
    return (*code, *DATA_BASELINES)


def baseline_of(formats: list[str]) -> str | None:
    return next((b for b in baselines() if b in formats), None)
