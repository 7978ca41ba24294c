"""The design's verdict (§8) and the comparison sentences of the details, both from paired comparison rows.

A verdict compares a format with the baseline on the questions both answered (one model under test, same
question and epoch), so a format run on fewer questions is never set against the baseline's whole set.
"""

from __future__ import annotations

import pandas as pd

from coonbench.report import stats, wording
from coonbench.report.tables import POOLED, baseline_of
from coonbench.verdict import MAX_GAP, MIN_ACCURACY, PARTIAL_ACCURACY, MIN_EFFICIENCY_GAIN, decide


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


def _reasons(t: str, base: str, acc: float, gap: float, gain: float, r: pd.Series) -> list[str]:
    """The unmet conditions, each with its figures, printed at a precision that agrees with the decision."""
    reasons = []
    if acc < PARTIAL_ACCURACY:
        reasons.append(f"accuracy {wording.against(acc, PARTIAL_ACCURACY, 1, 100)}% < {PARTIAL_ACCURACY:.0%}")
    elif acc < MIN_ACCURACY:
        reasons.append(f"accuracy {wording.against(acc, MIN_ACCURACY, 1, 100)}% < {MIN_ACCURACY:.0%}")
    if gap > MAX_GAP:
        reasons.append(f"gap {wording.against(gap, MAX_GAP, 1, 100)} points > {MAX_GAP * 100:.0f}")
    if not gain >= MIN_EFFICIENCY_GAIN:
        ratio = r["tokens_a"] / r["tokens_b"] if r["tokens_b"] else float("nan")
        text = "efficiency gain undefined (no correct answer)" if gain != gain else (
            f"efficiency gain {wording.against(gain, MIN_EFFICIENCY_GAIN)}× < {MIN_EFFICIENCY_GAIN}×")
        reasons.append(f"{text}; {t} costs {wording.tokens(r['tokens_a'])} input tokens per question against "
                       f"{base}'s {wording.tokens(r['tokens_b'])} ({wording.number(ratio, 2)}× {base})")
    return reasons


def design_verdicts(cmp: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Every format against the baseline, for each model under test (not the pooled rows), on paired questions."""
    rows, sentences = [], []
    for system, g in cmp[cmp["system"] != POOLED].groupby("system", sort=True):
        base = baseline_of(sorted(set(g["format_a"]) | set(g["format_b"])))
        if base is None:
            continue
        for _, row in g[(g["format_a"] == base) | (g["format_b"] == base)].iterrows():
            t = row["format_b"] if row["format_a"] == base else row["format_a"]
            r = oriented(row, t)
            acc, gap = r["acc_a"], r["acc_b"] - r["acc_a"]
            gain = r["eff_ratio"]
            word = decide(acc, gap, gain)
            reasons = _reasons(t, base, acc, gap, gain, r)
            rows.append({"system": system, "format": t, "baseline": base, "pairs": int(r["pairs"]),
                         "verdict": word, "accuracy": acc, "baseline_accuracy": r["acc_b"], "gap": gap,
                         "efficiency_gain": gain, "input_tokens": r["tokens_a"], "baseline_input_tokens": r["tokens_b"],
                         "reasons": "; ".join(reasons)})
            why = "; ".join(reasons) if reasons else (
                f"accuracy {wording.pct(acc)} ≥ {MIN_ACCURACY:.0%}, gap {wording.number(gap * 100)} points ≤ "
                f"{MAX_GAP * 100:.0f}, efficiency gain {wording.against(gain, MIN_EFFICIENCY_GAIN)}× ≥ "
                f"{MIN_EFFICIENCY_GAIN}×")
            sentences.append(f"{system}: {t} vs {base} on the {int(r['pairs'])} questions both answered — "
                             f"**{word}**: {why}.")
    return pd.DataFrame(rows), wording.unique(sentences)


def comparison_sentence(r: pd.Series) -> str:
    """One comparison in words, both intervals labelled, the detectable difference when it cannot tell."""
    text = (f"{r['system']}: {r['format_a']} vs {r['format_b']}: {wording.points(r['diff'])} points "
            f"(95% CI {wording.interval(r['diff_low'], r['diff_high'])}; simultaneous over {int(r['family'])}: "
            f"{wording.interval(r['sim_low'], r['sim_high'])}), McNemar p = {wording.pvalue(r['p_mcnemar'])}, "
            f"Holm p = {wording.pvalue(r['p_holm'])} over {int(r['pairs'])} pairs — {r['conclusion']}")
    if r["conclusion"] == "cannot tell apart":
        if not r["mdd"] <= 1:
            text += " (too few pairs: no difference is detectable at 80% power)"
        elif abs(r["diff"]) < r["mdd"]:
            text += f" (only differences ≥ {wording.number(r['mdd'] * 100)} points are detectable at 80% power)"
    return text + "."


def comparison_sentences(cmp: pd.DataFrame) -> list[str]:
    """Against the baseline (the other format named first) and every significant difference (the winner first)."""
    out = []
    for system, g in cmp.groupby("system", sort=False):
        base = baseline_of(sorted(set(g["format_a"]) | set(g["format_b"])))
        for _, row in g.iterrows():
            if row["p_holm"] < stats.ALPHA:
                out.append(comparison_sentence(oriented(row, row["format_a"] if row["diff"] > 0 else row["format_b"])))
            elif base in (row["format_a"], row["format_b"]):
                other = row["format_b"] if row["format_a"] == base else row["format_a"]
                out.append(comparison_sentence(oriented(row, other)))
    return wording.unique(out)
