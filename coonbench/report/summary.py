"""The answer first: a category's opening paragraph in plain words and its compact models × formats table.

"Most accurate" is said only when the paired tests, after Holm's correction, put one format ahead of every other;
otherwise the formats that cannot be told apart from the leader are named together. Only models under test get
findings: the oracle and the trivial baselines measure the benchmark, not a model.
"""

from __future__ import annotations

import math

import pandas as pd

from coonbench.report import stats, wording
from coonbench.report.load import is_reference
from coonbench.report.tables import POOLED, Table, baseline_of
from coonbench.report.verdicts import oriented
from coonbench.verdict import MAX_GAP

BEST, TIED, BELOW, REFERENCE = "best", "top group", "below", "reference"


def focus_system(acc: pd.DataFrame) -> str | None:
    """Whose formats the paragraph speaks about: the pooled models under test, or the one model; None if none."""
    systems = [s for s in acc["system"].unique() if not is_reference(s)]
    if POOLED in systems:
        return POOLED
    return systems[0] if systems else None


def _pair(cmp: pd.DataFrame, system: str, fa: str, fb: str) -> pd.Series | None:
    if cmp.empty:
        return None
    rows = cmp[(cmp["system"] == system) & (((cmp["format_a"] == fa) & (cmp["format_b"] == fb))
                                            | ((cmp["format_a"] == fb) & (cmp["format_b"] == fa)))]
    return None if rows.empty else oriented(rows.iloc[0], fa)


def ranks(system: str, acc: pd.DataFrame, cmp: pd.DataFrame) -> dict[str, str]:
    """Each format of ``system``: 'best' (ahead of all, Holm), 'top group' (cannot tell from the leader) or
    'below' (the leader is more accurate, Holm)."""
    rows = acc[acc["system"] == system].sort_values(["accuracy", "format"], ascending=[False, True])
    formats = list(rows["format"])
    if not formats:
        return {}
    leader = formats[0]
    marks = {leader: TIED}
    for f in formats[1:]:
        r = _pair(cmp, system, leader, f)
        marks[f] = BELOW if r is not None and r["p_holm"] < stats.ALPHA and r["diff"] > 0 else TIED
    if len(formats) > 1 and all(m == BELOW for f, m in marks.items() if f != leader):
        marks[leader] = BEST
    return marks


def _accuracy_text(row: pd.Series) -> str:
    return f"**{row['format']}** {wording.pct(row['accuracy'])} (95% CI {wording.pct(row['ci_low'])}–{wording.pct(row['ci_high'])})"


def _leader_sentence(system: str, acc: pd.DataFrame, marks: dict[str, str]) -> str:
    rows = acc[acc["system"] == system].set_index("format", drop=False)
    group = [f for f, m in marks.items() if m in (BEST, TIED)]
    texts = [_accuracy_text(rows.loc[f]) for f in group]
    if len(marks) == 1:
        return f"Accuracy: {texts[0]}."
    if marks[group[0]] == BEST:
        return f"Most accurate: {texts[0]}, ahead of every other format (paired McNemar tests, Holm-corrected)."
    if len(group) == len(marks):
        return f"Accuracy: cannot tell apart any of the {len(group)} formats: {wording.join(texts)}."
    return f"Most accurate: cannot tell apart {wording.join(texts)} (paired McNemar tests, Holm-corrected)."


def _comparison_text(r: pd.Series) -> str:
    return (f"{wording.points(r['diff'])} points (95% CI {wording.interval(r['diff_low'], r['diff_high'])}; "
            f"simultaneous {wording.interval(r['sim_low'], r['sim_high'])}), McNemar p = {wording.pvalue(r['p_mcnemar'])}, "
            f"Holm p = {wording.pvalue(r['p_holm'])}, {int(r['pairs'])} pairs")


def _focus_comparison(system: str, acc: pd.DataFrame, cmp: pd.DataFrame, marks: dict[str, str]) -> pd.Series | None:
    """The leader against the baseline (or, when the leader is the baseline, against the next format)."""
    formats = list(marks)
    if len(formats) < 2:
        return None
    leader = formats[0]
    base = baseline_of(formats)
    other = base if base is not None and base != leader else formats[1]
    return _pair(cmp, system, leader, other)


def _findings(system: str, acc: pd.DataFrame, cmp: pd.DataFrame, marks: dict[str, str]) -> list[str]:
    out = []
    focus = _focus_comparison(system, acc, cmp, marks)
    if focus is not None:
        verdict = "cannot tell apart" if focus["p_holm"] >= stats.ALPHA else f"{focus['format_a'] if focus['diff'] > 0 else focus['format_b']} more accurate"
        out.append(f"{focus['format_a']} vs {focus['format_b']}: {_comparison_text(focus)} — {verdict}.")
    leader = next(iter(marks), None)
    wins = []
    for f, m in marks.items():
        r = _pair(cmp, system, leader, f) if m == BELOW else None
        if r is not None and (focus is None or f != focus["format_b"]):
            wins.append(f"{f} ({wording.points(r['diff'])} points, Holm p = {wording.pvalue(r['p_holm'])})")
    if wins:
        shown = wins[:3] + ([f"{len(wins) - 3} more"] if len(wins) > 3 else [])
        out.append(f"{leader} beats {wording.join(shown)}.")
    return out


def _cost_sentence(system: str, frame: pd.DataFrame, acc: pd.DataFrame, prices: dict | None) -> str:
    from coonbench.report.cost import per_correct

    costs = per_correct(frame, system, prices)
    parts = []
    for fmt, c in costs.iterrows():
        text = f"{fmt} {wording.tokens(c['tokens_per_correct'])}"
        if c["primer_share"] > 0:
            text += f" (primer {wording.pct(c['primer_share'], 0)})"
        if math.isfinite(c.get("usd_per_correct", math.nan)):
            text += f", ${c['usd_per_correct']:.4g}"
        parts.append(text)
    return f"Tokens per correct answer (input + output{', and USD' if prices else ''}): {', '.join(parts)}."


def _power_sentence(system: str, cmp: pd.DataFrame, focus: pd.Series | None) -> str | None:
    rows = cmp[cmp["system"] == system] if not cmp.empty else cmp
    if rows.empty:
        return None
    r = focus if focus is not None else rows.iloc[0]
    mdd, m = r["mdd"], int(r["family"])
    if not mdd <= 1:
        return (f"This N cannot detect any difference: {int(r['pairs'])} pairs are too few at 80% power "
                f"and α = 0.05/{m}.")
    enough = "enough" if mdd <= MAX_GAP else "not enough"
    return (f"With {int(r['pairs'])} pairs, differences of {wording.number(mdd * 100)} points or more are detectable "
            f"at 80% power (α = 0.05/{m}, Holm's first step, clustering included): {enough} to detect the "
            f"{MAX_GAP * 100:.0f}-point gap that matters.")


def _compared(frame: pd.DataFrame) -> str:
    tested = sorted(s for s in frame["system"].unique() if not is_reference(s))
    refs = sorted(s for s in frame["system"].unique() if is_reference(s))
    formats = sorted(frame["format"].unique())
    text = (f"Compared: {len(tested)} model(s) under test ({', '.join(tested)}"
            f"{'; pooled as `all`' if len(tested) > 1 else ''}) on {len(formats)} format(s) ({', '.join(formats)}), "
            f"{frame['pair'].nunique()} questions")
    return text + (f"; references ({', '.join(refs)}) are listed, never ranked." if refs else ".")


def _no_model(frame: pd.DataFrame, acc: pd.DataFrame) -> list[str]:
    refs = acc[acc["system"].map(is_reference)]
    per = refs.groupby("system").apply(lambda g: g["correct"].sum() / g["n"].sum(), include_groups=False)
    figures = ", ".join(f"{s} {wording.pct(v)}" for s, v in per.items())
    return [f"No model under test: these logs hold only references ({', '.join(sorted(per.index))}), which check "
            f"the benchmark, not a model. Overall accuracy: {figures}. No verdicts."]


def answer(cat: str, frame: pd.DataFrame, acc: pd.DataFrame, cmp: pd.DataFrame, prices: dict | None) -> list[str]:
    """The opening paragraph: what was compared, the best-supported finding with its paired difference and CI,
    tokens per correct answer per format, and whether this N could detect the difference that matters."""
    system = focus_system(acc)
    if system is None:
        return _no_model(frame, acc)
    marks = ranks(system, acc, cmp)
    lead = _leader_sentence(system, acc, marks)
    if system == POOLED:
        lead = "Pooled over the models under test, " + lead[0].lower() + lead[1:]
    out = [_compared(frame), lead]
    out += _findings(system, acc, cmp, marks)
    tested = frame[~frame["system"].map(is_reference)]
    scope = tested if system == POOLED else tested[tested["system"] == system]
    out.append(_cost_sentence(system, scope, acc, prices))
    power = _power_sentence(system, cmp, _focus_comparison(system, acc, cmp, marks))
    if power:
        out.append(power)
    return wording.unique(out)


def compact_table(cat: str, frame: pd.DataFrame, acc: pd.DataFrame, cmp: pd.DataFrame) -> Table:
    """Models × formats: accuracy with its CI, tokens per correct answer and the rank mark; one overall column."""
    marks = {s: ({f: REFERENCE for f in acc.loc[acc["system"] == s, "format"]} if is_reference(s) else ranks(s, acc, cmp))
             for s in acc["system"].unique()}
    tidy = acc[["system", "format", "n", "correct", "accuracy", "ci_low", "ci_high", "interval", "tokens_per_correct"]].copy()
    tidy["rank"] = [marks[s][f] for s, f in zip(tidy["system"], tidy["format"])]
    display = {}
    symbol = {BEST: " ▲", TIED: " =", BELOW: " ▼", REFERENCE: ""}
    for s, g in tidy.groupby("system", sort=False):
        rows = frame if s == POOLED else frame[frame["system"] == s]
        if s == POOLED:
            rows = rows[~rows["system"].map(is_reference)]
        overall = stats.mean_estimate(rows["correct"], rows["cluster"])
        cells = {"overall": f"{int(rows['correct'].sum())}/{overall.n} = {wording.pct(overall.mean, 0)}\n"
                            f"({wording.pct(overall.ci_low, 0)}–{wording.pct(overall.ci_high, 0)})"}
        for _, r in g.iterrows():
            cells[r["format"]] = (f"{wording.pct(r['accuracy'])} ({wording.number(r['ci_low'] * 100)}–"
                                  f"{wording.number(r['ci_high'] * 100)}){symbol[r['rank']]}\n"
                                  f"{wording.tokens(r['tokens_per_correct'])} tok/✓")
        display[s] = cells
    shown = pd.DataFrame.from_dict(display, orient="index").rename_axis("system").reset_index().fillna("")
    caption = ("Accuracy (95% CI) · tokens per correct answer; ▲ ahead of every other format, = cannot tell apart "
               "from the leader, ▼ behind the leader (paired McNemar, Holm); overall: all formats together")
    return Table(f"{cat}_summary", caption, tidy, display=shown)
