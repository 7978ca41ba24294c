"""The iterative-correction section: first attempt against after feedback on the same problems (paired), Goth's
metrics, the error taxonomy, and what the sandbox enforced while the attempts were graded.

Score keys read (``scorers/correction.py``): ``first_attempt_success`` (attempt 1 passes every test) and
``correct`` (the final attempt does). The sandbox comes from the log's eval metadata ``sandbox``, the mapping
``coonbench.execution`` records ({kind, gated, enforced}; else the task's sandbox type): kind ``unsafe-local`` or
gated false means the programs ran unconfined.
"""

from __future__ import annotations

import json

import pandas as pd

from coonbench.report import stats, wording
from coonbench.report.goth_criteria import goth_criteria
from coonbench.report.tables import Section, Table, has

CORRECTION_KEYS = (
    "correct", "first_attempt_success", "parse_success", "semantic_correct", "iterations", "iterations_solved",
    "attempts", "final_tokens", "token_ratio", "reference_token_ratio", "debruijn_error",
)
UNGATED = "unsafe-local"


def first_vs_final(frame: pd.DataFrame) -> pd.DataFrame:
    """Per system and target: first-attempt and final success with Wilson CIs, and exact McNemar on the pairs
    (the same sample before and after feedback)."""
    rows = []
    data = frame.dropna(subset=["first_attempt_success", "correct"])
    for (system, fmt), g in data.groupby(["system", "format"], sort=True):
        first, final = g["first_attempt_success"].to_numpy(), g["correct"].to_numpy()
        fixed, broke = int(((first == 0) & (final == 1)).sum()), int(((first == 1) & (final == 0)).sum())
        est_first = stats.mean_estimate(first, g["cluster"])
        est_final = stats.mean_estimate(final, g["cluster"])
        rows.append({
            "system": system, "format": fmt, "n": len(g),
            "first_attempt": est_first.mean, "first_low": est_first.ci_low, "first_high": est_first.ci_high,
            "after_feedback": est_final.mean, "final_low": est_final.ci_low, "final_high": est_final.ci_high,
            "gain": est_final.mean - est_first.mean, "fixed": fixed, "broken": broke,
            "p_mcnemar": stats.mcnemar_exact(fixed, broke),
        })
    return pd.DataFrame(rows)


def _describe(value: str) -> tuple[str, bool]:
    """(words, ungated) for one recorded sandbox: a mapping {kind, gated, enforced} as JSON, or a plain name."""
    try:
        meta = json.loads(value)
    except ValueError:
        meta = value
    if not isinstance(meta, dict):
        return str(value), UNGATED in str(value)
    kind = str(meta.get("kind", "?"))
    ungated = meta.get("gated") is False or kind == UNGATED
    enforced = meta.get("enforced")
    if isinstance(enforced, (dict, list)):
        enforced = json.dumps(enforced, sort_keys=True)
    return kind + (f" (enforced: {enforced})" if enforced else ""), ungated


def sandbox_line(frame: pd.DataFrame) -> str:
    """What the sandbox enforced, as the logs say (eval metadata ``sandbox``: kind, gated, enforced)."""
    values = sorted({v for v in frame.get("sandbox", pd.Series(dtype=str)).astype(str) if v})
    if not values:
        return "Sandbox: the logs do not say what confined the programs (no eval metadata `sandbox`)."
    described = [_describe(v) for v in values]
    text = f"Sandbox: {'; '.join(words for words, _ in described)}"
    if any(ungated for _, ungated in described):
        return text + " — ungated: grading could be gamed."
    return text + "."


def correction_section(cat: str, frame: pd.DataFrame, sandboxed: bool = True) -> Section:
    """First attempt against after feedback, Goth's metrics and the error taxonomy; ``sandboxed``: the attempts
    ran programs, so say what confined them (the writing task decodes documents and runs nothing)."""
    sec = Section(id=f"{cat}_correction", title=f"{cat.capitalize()}: iterative correction")
    if has(frame, "first_attempt_success") and has(frame, "correct"):
        paired = first_vs_final(frame)
        sec.lead.append(Table(f"{cat}_feedback", "First attempt vs after feedback, same problems (95% CI; exact "
                                                 "McNemar on fixed vs broken)", paired))
        for _, r in paired.iterrows():
            verdict = "a real gain" if r["p_mcnemar"] < stats.ALPHA else "cannot tell apart"
            sec.summary.append(
                f"{r['system']} · {r['format']}: {wording.pct(r['first_attempt'])} right at the first attempt, "
                f"{wording.pct(r['after_feedback'])} after feedback ({wording.points(r['gain'])} points; {r['fixed']} "
                f"fixed, {r['broken']} broken, McNemar p = {wording.pvalue(r['p_mcnemar'])} — {verdict}).")
    if sandboxed:
        sec.summary.append(sandbox_line(frame))
    keys = [k for k in CORRECTION_KEYS if has(frame, k)]
    table = frame.groupby(["system", "format"]).agg(n=("correct", "size"), **{k: (k, "mean") for k in keys}).reset_index()
    sec.tables.append(Table(f"{cat}_goth", "Goth metrics per target (means; ratios are target tokens ÷ Python tokens)", table))
    if frame["format"].isin(["goth", "goth-json"]).any():
        criteria, sentences = goth_criteria(frame)
        if len(criteria):
            sec.tables.append(Table(f"{cat}_goth_criteria", "The Goth seed's success criteria on 95% intervals "
                                                            "(met / missed / unsettled)", criteria))
            sec.summary.extend(sentences)
    errors = [c for c in frame.columns if c.startswith("n_") and has(frame, c)]
    if errors:
        tax = frame.groupby(["system", "format"])[errors].sum().reset_index()
        sec.tables.append(Table(f"{cat}_errors", "Error taxonomy: attempts that ended with each error type", tax))
    return sec
