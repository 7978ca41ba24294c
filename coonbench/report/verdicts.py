"""Verdicts for the formats whose design declares thresholds, and the comparison sentences of the details.

A verdict belongs to the format that declares it (``Format.design_thresholds``: COON's come from its design
document); a format that declares none — TOON, JSON, YAML… — gets paired comparisons, never a verdict. A verdict
compares the format with its design's baseline for one model under test (not the pooled rows) on the questions
both answered, and decides on 95% intervals (``DesignThresholds.decide_intervals``), not point estimates. A
published claim about a format (``Format.claims``: Pan et al.'s on minified code) is decided the same way, on the
paired interval of the accuracy lost against its baseline (``Claim.decide``).
"""

from __future__ import annotations

import functools

import pandas as pd

from coonbench.formats._claims import HOLDS, Claim
from coonbench.formats._design import DesignThresholds
from coonbench.formats.base import Format
from coonbench.report import stats, wording
from coonbench.report.tables import BORDERLINE, POOLED, UNDECIDABLE, baseline_of, oriented, pair_row


@functools.lru_cache(maxsize=64)
def _plugin(label: str) -> Format | None:
    """The format plug-in behind a format label (``coon``, ``coon:noprimer``…); None for a label no plug-in has."""
    from coonbench.tasks.conditions import parse_condition

    for kind in ("code", "data"):
        try:
            return parse_condition(label, kind).fmt
        except Exception:  # noqa: BLE001 - a foreign or unknown format: nothing known of it here
            continue
    return None


def thresholds_for(label: str) -> DesignThresholds | None:
    """The design thresholds of the format behind a label; None for an unknown format or one that declares none."""
    fmt = _plugin(label)
    return None if fmt is None else fmt.design_thresholds()


def claims_for(label: str) -> tuple[Claim, ...]:
    """The published claims about the format behind a label (none for an unknown one)."""
    fmt = _plugin(label)
    return () if fmt is None else fmt.claims()


def _why(t: DesignThresholds, acc: tuple[float, float], gap: tuple[float, float], gain: tuple[float, float]) -> str:
    """Each condition with its 95% interval and threshold, in the design's terms."""
    gains = f"{wording.number(gain[0], 2)}× to {wording.number(gain[1], 2)}×"
    return (f"accuracy {wording.pct(acc[0])} to {wording.pct(acc[1])} against ≥ {t.min_accuracy:.0%} (failure < "
            f"{t.partial_accuracy:.0%}); gap to {t.baseline} {wording.interval(*gap)} points against ≤ "
            f"{t.max_gap * 100:.0f}; efficiency gain {gains} against ≥ {t.min_efficiency_gain}×")


def design_verdicts(acc: pd.DataFrame, cmp: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Every format that declares thresholds, against its design's baseline, for each model under test."""
    rows, sentences = [], []
    if cmp.empty:
        return pd.DataFrame(), []
    formats = sorted(set(cmp["format_a"]) | set(cmp["format_b"]))
    for fmt in formats:
        design = thresholds_for(fmt)
        if design is None or design.baseline not in formats or fmt == design.baseline:
            continue
        for system in sorted(set(cmp["system"]) - {POOLED}):
            r = pair_row(cmp, system, fmt, design.baseline)
            mine = acc[(acc["system"] == system) & (acc["format"] == fmt)]
            if r is None or mine.empty:
                continue
            a = (float(mine["ci_low"].iloc[0]), float(mine["ci_high"].iloc[0]))
            gap = (-float(r["diff_high"]), -float(r["diff_low"]))
            gain = (float(r["eff_ratio_low"]), float(r["eff_ratio_high"]))
            word, unsettled = design.decide_intervals(a, gap, gain)
            why = _why(design, a, gap, gain)
            if unsettled:
                why += f"; the intervals cannot settle: {', '.join(unsettled)}"
            rows.append({"system": system, "format": fmt, "baseline": design.baseline, "pairs": int(r["pairs"]),
                         "verdict": word, "accuracy": float(mine["accuracy"].iloc[0]), "accuracy_low": a[0],
                         "accuracy_high": a[1], "gap": -float(r["diff"]), "gap_low": gap[0], "gap_high": gap[1],
                         "efficiency_gain": float(r["eff_ratio"]), "gain_low": gain[0], "gain_high": gain[1],
                         "thresholds": design.source, "reasons": why,
                         **{f"{name.split()[-1]}_criterion": state
                            for name, state in design.criteria(a, gap, gain).items()}})
            sentences.append(f"{system}: {fmt} vs {design.baseline} on the {int(r['pairs'])} questions both "
                             f"answered — **{word}** by {design.source} (95% intervals): {why}.")
    return pd.DataFrame(rows), wording.unique(sentences)


def claim_verdicts(cmp: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Every published claim about a format in the comparisons, against its baseline, for each model under test:
    the accuracy lost on the paired questions (its 95% interval) against the claim's margin, and the input tokens
    the format saves."""
    rows, sentences = [], []
    if cmp.empty:
        return pd.DataFrame(), []
    formats = sorted(set(cmp["format_a"]) | set(cmp["format_b"]))
    for fmt in formats:
        for claim in claims_for(fmt):
            for system in sorted(set(cmp["system"]) - {POOLED}):
                r = pair_row(cmp, system, fmt, claim.baseline)
                if r is None:
                    continue
                loss, low, high = -float(r["diff"]), -float(r["diff_high"]), -float(r["diff_low"])
                word = claim.decide(low, high)
                saving = 1 - float(r["tokens_a"]) / float(r["tokens_b"]) if float(r["tokens_b"]) else float("nan")
                rows.append({"system": system, "format": fmt, "baseline": claim.baseline, "pairs": int(r["pairs"]),
                             "clusters": int(r["clusters"]), "loss": loss, "loss_low": low, "loss_high": high,
                             "margin": claim.margin, "p_holm": float(r["p_holm"]), "token_saving": saving,
                             "stated_saving": claim.stated_saving,
                             "verdict": word, "claim": claim.statement, "source": claim.source})
                stated = "" if claim.stated_saving is None else f" (the claim: {wording.pct(claim.stated_saving)})"
                sentences.append(
                    f"{system}: {fmt} vs {claim.baseline} on the {int(r['pairs'])} questions both answered — the "
                    f"claim of {claim.source} that {claim.statement} {'' if word == HOLDS else 'is '}**{word}** on "
                    f"the 95% interval: the accuracy lost ({claim.baseline} − {fmt}) is {wording.points(loss)} points "
                    f"(95% CI {wording.interval(low, high)}) against a margin of {claim.margin * 100:.0f}, with "
                    f"{wording.pct(saving)} fewer input tokens{stated}.")
    return pd.DataFrame(rows), wording.unique(sentences)


def validity_verdicts(frame: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Generation validity (programs that parse in the format) of every format whose design sets a target, per
    model under test, decided on its clustered 95% interval (``stats.mean_estimate``, the accuracies' rule)."""
    rows, sentences = [], []
    for (system, fmt), group in frame.groupby(["system", "format"], sort=True):
        design = thresholds_for(str(fmt))
        if design is None or design.min_generation_validity is None or group["reference"].any():
            continue
        est = stats.mean_estimate(group["syntax_valid"], group["cluster"])
        word = design.decide_validity((est.ci_low, est.ci_high))
        rows.append({"system": system, "format": fmt, "programs": est.n, "validity": est.mean,
                     "validity_low": est.ci_low, "validity_high": est.ci_high, "interval": est.interval,
                     "target": design.min_generation_validity, "verdict": word, "thresholds": design.source})
        sentences.append(f"{system}: {fmt} generation validity {wording.pct(est.mean)} (95% CI "
                         f"{wording.pct(est.ci_low)} to {wording.pct(est.ci_high)}) against ≥ "
                         f"{design.min_generation_validity:.0%} — **{word}** by {design.source}.")
    return pd.DataFrame(rows), sentences


def comparison_sentence(r: pd.Series) -> str:
    """One comparison in words, both intervals labelled, the detectable difference when it cannot tell."""
    text = (f"{r['system']}: {r['format_a']} vs {r['format_b']}: {wording.points(r['diff'])} points "
            f"(95% CI {wording.interval(r['diff_low'], r['diff_high'])}; simultaneous over {int(r['family'])}: "
            f"{wording.interval(r['sim_low'], r['sim_high'])}), {r['test']} p = {wording.pvalue(r['p_value'])}, "
            f"Holm p = {wording.pvalue(r['p_holm'])} over {int(r['pairs'])} pairs"
            + (f" ({r['questions']})" if isinstance(r.get("questions"), str) else "")
            + f" in {int(r['clusters'])} clusters — {r['conclusion']}")
    if r.get("fragile"):
        text += " (fragile: leaving out one cluster changes this conclusion)"
    text += borderline_clause(r)
    if r["conclusion"] == UNDECIDABLE:
        text += f" (the clustered test has {wording.number(r['df'], 1)} effective degrees of freedom)"
    if r["conclusion"] == "cannot tell apart":
        if not r["mdd"] <= 1:
            text += " (too few pairs: no difference is detectable at 80% power)"
        elif abs(r["diff"]) < r["mdd"]:
            text += f" (only differences ≥ {wording.number(r['mdd'] * 100)} points are detectable at 80% power)"
    return text + "."


def borderline_clause(r: pd.Series) -> str:
    """' (borderline: …)' when the exact test decides otherwise than the conclusion's test; else ''."""
    if r.get("exact_test") != BORDERLINE:
        return ""
    return (f" (borderline: the exact McNemar test does not agree, Holm p = {wording.pvalue(r['p_exact_holm'])}; "
            "the conclusion depends on the method)")


def comparison_sentences(cmp: pd.DataFrame) -> list[str]:
    """Against the baseline (the other format named first) and every significant difference (the winner first)."""
    out = []
    for _, g in cmp.groupby("system", sort=False):
        base = baseline_of(sorted(set(g["format_a"]) | set(g["format_b"])))
        for _, row in g.iterrows():
            if row["p_holm"] < stats.ALPHA:
                out.append(comparison_sentence(oriented(row, row["format_a"] if row["diff"] > 0 else row["format_b"])))
            elif base in (row["format_a"], row["format_b"]):
                other = row["format_b"] if row["format_a"] == base else row["format_a"]
                out.append(comparison_sentence(oriented(row, other)))
    return wording.unique(out)
