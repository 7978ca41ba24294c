"""The answer first: a category's one-sentence answer, the paragraph that says how it was reached, the points of the
first-screen figure and the compact models × formats table — all on one like-for-like block of questions.

"Most accurate" is said only when the paired tests, after Holm's correction, put one format ahead of every other;
otherwise the formats that cannot be told apart from the leader are named together. Only models under test get
findings: the oracle and the trivial baselines measure the benchmark, not a model. Tokens of different tokenizers
are never added: pooled over models that count differently, cost is each model's ratio to a reference format,
averaged geometrically.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from coonbench.report import stats, wording
from coonbench.report.blocks import Block
from coonbench.report.load import is_reference
from coonbench.report.tables import BORDERLINE, MIXED, POOLED, UNDECIDABLE, Table, baseline_of, pair_row
from coonbench.report.verdicts import borderline_clause, design_verdicts, thresholds_for

BEST, TIED, BELOW, UNDECIDED, REFERENCE = "best", "top group", "below", "undecided", "reference"
MARKS = {BEST: "▲", TIED: "●", BELOW: "▼", UNDECIDED: "?", REFERENCE: ""}


def focus_system(acc: pd.DataFrame) -> str | None:
    """Whose formats the paragraph speaks about: the pooled models under test, or the one model; None if none."""
    systems = [s for s in acc["system"].unique() if not is_reference(s)]
    if POOLED in systems:
        return POOLED
    return systems[0] if systems else None


def ranks(system: str, acc: pd.DataFrame, cmp: pd.DataFrame) -> dict[str, str]:
    """Each format of ``system``: 'best' (ahead of all, Holm), 'top group' (cannot tell from the leader), 'below'
    (the leader is more accurate, Holm) or 'undecided' (too few effective clusters to compare it with the leader:
    not ranked); the leader first."""
    rows = acc[acc["system"] == system].sort_values(["accuracy", "format"], ascending=[False, True])
    formats = list(rows["format"])
    if not formats:
        return {}
    leader = formats[0]
    marks = {leader: TIED}
    for f in formats[1:]:
        r = pair_row(cmp, system, leader, f)
        if r is not None and r["p_holm"] < stats.ALPHA and r["diff"] > 0:
            marks[f] = BELOW
        else:
            marks[f] = UNDECIDED if r is not None and r["conclusion"] == UNDECIDABLE else TIED
    if len(formats) > 1 and all(m == BELOW for f, m in marks.items() if f != leader):
        marks[leader] = BEST
    return marks


def reference_format(formats: list[str], leader: str) -> str:
    """The format costs are stated against: the baseline (dart, json, json-pretty) when present, else the leader."""
    return baseline_of(formats) or leader


def relative_cost(system: str, acc: pd.DataFrame, fmt: str, ref: str) -> float:
    """Tokens per correct answer of ``fmt`` ÷ those of ``ref`` for ``system``; for the pooled rows of models whose
    tokenizers differ, the geometric mean of each model's own ratio (no tokens added across tokenizers)."""
    rows = acc.set_index(["system", "format"])
    if (system, fmt) not in rows.index or (system, ref) not in rows.index:
        return math.nan
    if rows.loc[(system, fmt), "tokenizer"] != MIXED:
        return float(rows.loc[(system, fmt), "tokens_per_correct"] / rows.loc[(system, ref), "tokens_per_correct"])
    models = [s for s in acc["system"].unique() if s != POOLED and not is_reference(s)]
    ratios = [rows.loc[(s, fmt), "tokens_per_correct"] / rows.loc[(s, ref), "tokens_per_correct"]
              for s in models if (s, fmt) in rows.index and (s, ref) in rows.index]
    ratios = [r for r in ratios if math.isfinite(r) and r > 0]
    return float(np.exp(np.mean(np.log(ratios)))) if ratios else math.nan


def _scope(system: str, block: Block, acc: pd.DataFrame) -> str:
    models = len([s for s in acc["system"].unique() if s != POOLED and not is_reference(s)])
    who = f"pooled over {models} models" if system == POOLED else wording.short_names([system])[system]
    return f"On {block.label}, {who}"


def _ci(row: pd.Series) -> str:
    return f"{wording.pct(row['accuracy'])} (95% CI {wording.pct(row['ci_low'])}–{wording.pct(row['ci_high'])})"


def headline(system: str, block: Block, acc: pd.DataFrame, cmp: pd.DataFrame) -> str:
    """The one sentence that answers: what is best, by how much, how sure, at what cost."""
    marks = ranks(system, acc, cmp)
    rows = acc[acc["system"] == system].set_index("format", drop=False)
    formats = list(marks)
    leader = formats[0]
    scope = _scope(system, block, acc)
    if len(formats) == 1:
        return f"{scope}: **{leader}** {_ci(rows.loc[leader])}."
    group = [f for f in formats if marks[f] in (BEST, TIED)]
    ref = reference_format(formats, leader)
    if marks[leader] == BEST:
        second = formats[1]
        r = pair_row(cmp, system, leader, second)
        text = f"{scope}, **{leader}** is the most accurate format: {_ci(rows.loc[leader])}"
        if r is not None:
            text += (f", {wording.points(r['diff'])} points ahead of {second} (95% CI "
                     f"{wording.interval(r['diff_low'], r['diff_high'])}, Holm p = {wording.pvalue(r['p_holm'])})")
        cost = relative_cost(system, acc, leader, ref)
        if leader != ref and math.isfinite(cost):
            text += f", at {wording.number(cost, 2)}× {ref}'s tokens per correct answer"
        return text + "."
    second = group[1] if len(group) > 1 else formats[1]
    r = pair_row(cmp, system, leader, second)
    named = [f"**{leader}** {_ci(rows.loc[leader])}"] + [f"{f} {wording.pct(rows.loc[f, 'accuracy'])}" for f in group[1:]]
    every = f"all {len(group)} formats, " if len(group) == len(formats) else ""
    text = f"{scope}, {every}{wording.join(named)} cannot be told apart"
    if r is not None:
        text += (f" ({leader} − {second}: {wording.points(r['diff'])} points, 95% CI "
                 f"{wording.interval(r['diff_low'], r['diff_high'])})")
    undecided = [f for f in formats if marks[f] == UNDECIDED]
    if undecided:
        text += f"; {wording.join(undecided)} cannot be ranked against {leader} (too few clusters to decide)"
    costs = {f: relative_cost(system, acc, f, ref) for f in group}
    costs = {f: c for f, c in costs.items() if math.isfinite(c)}
    if costs:
        cheapest = min(costs, key=lambda f: (costs[f], f))
        text += (f"; {cheapest} costs the fewest tokens per correct answer among them"
                 + (f", {wording.number(costs[cheapest], 2)}× {ref}'s" if cheapest != ref else ""))
    return text + "."


def _compared(frame: pd.DataFrame, block: Block) -> str:
    tested = sorted(s for s in frame["system"].unique() if not is_reference(s))
    refs = sorted(s for s in frame["system"].unique() if is_reference(s))
    text = (f"Compared: {len(tested)} model(s) under test ({', '.join(tested)}"
            f"{'; pooled as `all`' if len(tested) > 1 else ''}) on {len(block.formats)} format(s) "
            f"({', '.join(block.formats)}) over {block.label}")
    return text + (f"; references ({', '.join(refs)}) are listed, never ranked." if refs else ".")


def clustering_sentence(frame: pd.DataFrame, cmp: pd.DataFrame) -> str:
    """Which clustering the intervals and tests used, over how many clusters, and what few clusters mean here."""
    levels = sorted(set(frame["cluster_level"])) if "cluster_level" in frame.columns else ["question"]
    g = int(frame["cluster"].nunique())
    if levels == ["question"]:
        return ("Each question is its own cluster (the logs name no source item): accuracy intervals are Wilson, "
                "paired tests exact McNemar.")
    if g < 2:
        return (f"Every question comes from one source item ({' / '.join(levels)}): no clustered interval can be "
                "estimated, so intervals are Wilson flagged '1 cluster' and paired tests exact McNemar, which take "
                "the answers as independent.")
    text = (f"Intervals and tests are clustered by {' / '.join(levels)} ({g} clusters): paired tests on CR2 "
            f"(bias-reduced) cluster-robust standard errors, accuracy intervals Wilson's score interval with the "
            f"jackknife (CR3) design effect, both with Student's t on Imbens–Kolesár degrees of freedom, which hold "
            f"their level with few or uneven clusters")
    if not cmp.empty and "df" in cmp.columns and cmp["df"].notna().any():
        text += (f" ({wording.number(cmp['df'].min(), 1)}–{wording.number(cmp['df'].max(), 1)} degrees of freedom "
                 "here)" if wording.number(cmp['df'].min(), 1) != wording.number(cmp['df'].max(), 1)
                 else f" ({wording.number(cmp['df'].min(), 1)} degrees of freedom here)")
    undecided = int((cmp["conclusion"] == UNDECIDABLE).sum()) if not cmp.empty else 0
    if undecided:
        text += (f"; {undecided} comparison(s) rest on fewer than {stats.MIN_DF:g} effective degrees of freedom: "
                 "too few clusters to decide, and not ranked")
    if g < stats.FEW_CLUSTERS:
        shaky = int(cmp["fragile"].sum()) if not cmp.empty and "fragile" in cmp.columns else 0
        every = f" (of {len(cmp)} in the Holm family, every question set)" if not cmp.empty else ""
        text += (f". {g} clusters are few: "
                 + (f"{shaky} comparison(s){every} change conclusion when one cluster is left out (marked fragile)"
                    if shaky else f"no comparison{every} changes conclusion when one cluster is left out"))
    return text + "."


def _findings(system: str, acc: pd.DataFrame, cmp: pd.DataFrame, marks: dict[str, str]) -> list[str]:
    out: list[str] = []
    formats = list(marks)
    if len(formats) < 2:
        return out
    leader = formats[0]
    base = baseline_of(formats)
    other = base if base is not None and base != leader else formats[1]
    focus = pair_row(cmp, system, leader, other)
    if focus is not None:
        fragile = " (fragile: one cluster decides it)" if focus.get("fragile") else ""
        out.append(f"{system}: {leader} vs {other}: {wording.points(focus['diff'])} points (95% CI "
                   f"{wording.interval(focus['diff_low'], focus['diff_high'])}; simultaneous "
                   f"{wording.interval(focus['sim_low'], focus['sim_high'])}), {focus['test']} p = "
                   f"{wording.pvalue(focus['p_value'])}, Holm p = {wording.pvalue(focus['p_holm'])}, "
                   f"{int(focus['pairs'])} pairs — {focus['conclusion']}{fragile}.")
    wins = []
    for f, m in marks.items():
        r = pair_row(cmp, system, leader, f) if m == BELOW and f != other else None
        if r is not None:
            wins.append(f"{f} ({wording.points(r['diff'])} points, Holm p = {wording.pvalue(r['p_holm'])})")
    if wins:
        shown = wins[:3] + ([f"{len(wins) - 3} more"] if len(wins) > 3 else [])
        out.append(f"{leader} beats {wording.join(shown)}.")
    return out


def cost_sentence(system: str, acc: pd.DataFrame, costs: pd.DataFrame, prices: dict | None) -> str:
    """Tokens per correct answer per format, in one tokenizer; pooled over tokenizers, ratios to a reference."""
    rows = acc[acc["system"] == system].set_index("format")
    formats = list(rows.index)
    if (rows["tokenizer"] == MIXED).any():
        ref = reference_format(formats, formats[0])
        parts = [f"{f} {wording.number(relative_cost(system, acc, f, ref), 2)}×" for f in formats if f != ref]
        return (f"Tokens per correct answer relative to {ref}'s (each model counted in its own tokenizer, never "
                f"added across models; geometric mean of the models' ratios): {', '.join(parts)}.")
    unit = str(rows["tokenizer"].iloc[0])
    parts = []
    for fmt in formats:
        text = f"{fmt} {wording.tokens(rows.loc[fmt, 'tokens_per_correct'])}"
        c = costs.loc[fmt] if fmt in costs.index else None
        if c is not None and c["primer_share"] > 0:
            text += f" (primer {wording.pct(c['primer_share'], 0)})"
        if c is not None and math.isfinite(c.get("usd_per_correct", math.nan)):
            text += f", ${c['usd_per_correct']:.4g}"
        parts.append(text)
    return (f"Tokens per correct answer (input + output, {unit}{', and USD' if prices else ''}): "
            f"{', '.join(parts)}.")


def power_sentence(system: str, cmp: pd.DataFrame, formats: list[str]) -> str | None:
    """What these questions can detect, per comparison: the focus system's range and single models' range."""
    if cmp.empty:
        return None
    mine = cmp[cmp["system"] == system]
    if mine.empty:
        return None
    m = int(mine["family"].iloc[0])
    lo, hi = mine["mdd"].min(), mine["mdd"].max()
    if not lo <= 1:
        return (f"These questions cannot detect any difference for {system}: too few pairs at 80% power and "
                f"α = 0.05/{m}.")
    span = (f"{wording.number(lo * 100)}" if wording.number(lo * 100) == wording.number(hi * 100)
            else f"{wording.number(lo * 100)}–{wording.number(hi * 100)}")
    text = (f"Detectable at 80% power (α = 0.05/{m}, Holm's first step, clustering included), per comparison: "
            f"{span} points for {system}")
    singles = cmp[(cmp["system"] != system) & (cmp["system"] != POOLED)]["mdd"]
    if system == POOLED and singles.notna().any():
        text += (f"; {wording.number(singles.min() * 100)}–{wording.number(singles.max() * 100)} points for one "
                 "model's comparisons")
    gaps = [t.max_gap for t in (thresholds_for(f) for f in formats) if t is not None]
    if gaps:
        gap = min(gaps)
        enough = "enough" if hi <= gap else "not enough"
        text += f": {enough} to detect the design's {gap * 100:.0f}-point gap"
    return text + "."


def subset_sentence(block: Block, acc: pd.DataFrame, cmp: pd.DataFrame) -> str | None:
    """A format run on a subset of the questions, as compared on that subset only."""
    system = focus_system(acc)
    if system is None:
        return None
    rows = acc[acc["system"] == system].set_index("format")
    marks = ranks(system, acc, cmp)
    ran = [f for f in block.only if f in rows.index]  # another system may have run the subset format alone
    if not marks or not ran:
        return None
    leader = next(iter(marks))
    parts = [f"{f} {wording.pct(rows.loc[f, 'accuracy'])}" for f in ran]
    text = (f"{wording.join(list(block.only))} ran on only {block.questions:,} of the questions and is compared "
            f"on those alone: {', '.join(parts)}")
    if leader not in block.only and block.only[0] in rows.index:
        r = pair_row(cmp, system, block.only[0], leader)
        if r is not None:
            text += (f" against {leader} {wording.pct(rows.loc[leader, 'accuracy'])} on the same questions "
                     f"({wording.points(r['diff'])} points, Holm p = {wording.pvalue(r['p_holm'])} — {r['conclusion']})")
    return text + "."


def no_model(acc: pd.DataFrame) -> list[str]:
    refs = acc[acc["system"].map(is_reference)]
    per = refs.groupby("system").apply(lambda g: g["correct"].sum() / g["n"].sum(), include_groups=False)
    figures = ", ".join(f"{s} {wording.pct(v)}" for s, v in per.items())
    return [f"No model under test: these logs hold only references ({', '.join(sorted(per.index))}), which check "
            f"the benchmark, not a model. Overall accuracy: {figures}. No verdicts."]


def answer(frame: pd.DataFrame, block: Block, acc: pd.DataFrame, cmp: pd.DataFrame, costs: pd.DataFrame,
           prices: dict | None, family: pd.DataFrame | None = None) -> tuple[str, list[str]]:
    """(the headline, the paragraph after it): what was compared, how it was clustered, the best-supported
    finding with its paired difference and CI, tokens per correct answer, and what these questions can detect.
    ``family``: the comparisons of every question set (one Holm family per system), which the clustering sentence
    counts; ``cmp`` alone when not given."""
    system = focus_system(acc)
    if system is None:
        lines = no_model(acc)
        return lines[0], []
    marks = ranks(system, acc, cmp)
    out = [_compared(frame, block), clustering_sentence(frame, cmp if family is None else family)]
    out += _findings(system, acc, cmp, marks)
    out.append(cost_sentence(system, acc, costs, prices))
    power = power_sentence(system, cmp, list(marks))
    if power:
        out.append(power)
    lead = design_sentence(system, block, acc, cmp)
    best = headline(system, block, acc, cmp)
    scope = _scope(system, block, acc) + ", "
    if lead and best.startswith(scope):  # the scope is said once, in the first sentence
        best = "Of all its formats, " + best[len(scope):]
    return (f"{lead} {best}" if lead else best), wording.unique(out)


def design_pair(formats: list[str]) -> tuple[str, str] | None:
    """The comparison the design asks about: the format declaring thresholds whose baseline ran too (the shortest
    name first: ``coon`` before ``coon-noprimer``), and that baseline; None when no format declares one."""
    for fmt in sorted(formats, key=lambda f: (len(f), f)):
        t = thresholds_for(fmt)
        if t is not None and t.baseline in formats and t.baseline != fmt:
            return fmt, t.baseline
    return None


def design_caption(system: str, acc: pd.DataFrame, cmp: pd.DataFrame) -> str | None:
    """The design's comparison in one plain line for the figure's title: difference, CI, Holm p and the verdict."""
    formats = list(acc.loc[acc["system"] == system, "format"])
    pair = design_pair(formats)
    r = pair_row(cmp, system, *pair) if pair is not None else None
    if pair is None or r is None:
        return None
    text = (f"{pair[0]} − {pair[1]}: {wording.points(r['diff'])} points (95% CI "
            f"{wording.interval(r['diff_low'], r['diff_high'])}, Holm p = {wording.pvalue(r['p_holm'])}"
            f"{', borderline' if r.get('exact_test') == BORDERLINE else ''}), {r['conclusion']}")
    ver, _ = design_verdicts(acc, cmp)
    mine = ver[(ver["system"] == system) & (ver["format"] == pair[0])] if not ver.empty else ver
    return text + (f"; design verdict: {mine['verdict'].iloc[0]}" if not mine.empty else "")


def design_sentence(system: str, block: Block, acc: pd.DataFrame, cmp: pd.DataFrame) -> str | None:
    """The design's own question, first: the declaring format against its baseline (difference, 95% CI, Holm p,
    whether the exact test agrees) and, for one model under test, the design's verdict on the intervals."""
    formats = list(acc.loc[acc["system"] == system, "format"])
    pair = design_pair(formats)
    r = pair_row(cmp, system, *pair) if pair is not None else None
    if pair is None or r is None:
        return None
    fmt, base = pair
    rows = acc[acc["system"] == system].set_index("format")
    text = (f"{_scope(system, block, acc)}, **{fmt}** against its design's baseline {base}: "
            f"{wording.pct(rows.loc[fmt, 'accuracy'])} against {wording.pct(rows.loc[base, 'accuracy'])}, "
            f"{wording.points(r['diff'])} points (95% CI {wording.interval(r['diff_low'], r['diff_high'])}, Holm p = "
            f"{wording.pvalue(r['p_holm'])}) — {r['conclusion']}{borderline_clause(r)}")
    ver, _ = design_verdicts(acc, cmp)
    mine = ver[(ver["system"] == system) & (ver["format"] == fmt)] if not ver.empty else ver
    if not mine.empty:
        v = mine.iloc[0]
        text += (f"; by {v['thresholds']}, decided on the 95% intervals, {fmt}'s verdict is **{v['verdict']}** "
                 f"(its reasons in the details)")
    return text + "."


def figure_points(system: str, acc: pd.DataFrame) -> tuple[list[dict], str]:
    """The first-screen figure, per format of ``system``: accuracy with its CI against tokens per correct answer
    (or, pooled over tokenizers, against the ratio to a reference format); and the x axis's label."""
    rows = acc[acc["system"] == system]
    formats = list(rows.sort_values("format")["format"])
    mixed = (rows["tokenizer"] == MIXED).any()
    ref = reference_format(formats, formats[0]) if formats else ""
    points = []
    for _, r in rows.sort_values("format").iterrows():
        x = relative_cost(system, acc, r["format"], ref) if mixed else r["tokens_per_correct"]
        points.append({"format": r["format"], "accuracy": r["accuracy"], "ci_low": r["ci_low"],
                       "ci_high": r["ci_high"], "x": x})
    label = (f"tokens per correct answer, × {ref}'s (geometric mean over the models, each in its own tokenizer)"
             if mixed else f"tokens per correct answer (input + output, {rows['tokenizer'].iloc[0]})")
    return points, label


def compact_table(name: str, caption: str, frame: pd.DataFrame, acc: pd.DataFrame, cmp: pd.DataFrame) -> Table:
    """Models × formats: accuracy with its CI and rank mark, tokens per correct answer; one overall column."""
    marks = {s: ({f: REFERENCE for f in acc.loc[acc["system"] == s, "format"]} if is_reference(s) else ranks(s, acc, cmp))
             for s in acc["system"].unique()}
    tidy = acc[["system", "format", "n", "correct", "accuracy", "ci_low", "ci_high", "interval", "tokenizer",
                "tokens_per_correct"]].copy()
    tidy["rank"] = [marks[s][f] for s, f in zip(tidy["system"], tidy["format"])]
    names = wording.short_names(list(acc["system"].unique()))
    display = {}
    formats = sorted(acc["format"].unique())
    for s, g in tidy.groupby("system", sort=False):
        rows = frame if s == POOLED else frame[frame["system"] == s]
        if s == POOLED:
            rows = rows[~rows["system"].map(is_reference)]
        overall = stats.mean_estimate(rows["correct"], rows["cluster"])
        cells = {"overall": f"{wording.pct(overall.mean)} ({wording.number(overall.ci_low * 100)}–"
                            f"{wording.number(overall.ci_high * 100)})\n{overall.n:,} answers"}
        leader = next(iter(marks[s]), formats[0])
        ref = reference_format(formats, leader)
        for _, r in g.iterrows():
            if r["tokenizer"] == MIXED:
                cost = f"{wording.number(relative_cost(s, acc, r['format'], ref), 2)}× {ref}"
            else:
                cost = f"{wording.tokens(r['tokens_per_correct'])} tok/correct"
            cells[r["format"]] = (f"{MARKS[r['rank']]} {wording.pct(r['accuracy'])} ({wording.number(r['ci_low'] * 100)}–"
                                  f"{wording.number(r['ci_high'] * 100)})".lstrip() + f"\n{cost}")
        display[names[s]] = cells
    shown = pd.DataFrame.from_dict(display, orient="index").rename_axis("system").reset_index().fillna("")
    shown = shown[["system", *[f for f in formats if f in shown.columns], "overall"]]
    caption += (" — accuracy (95% CI); tokens per correct answer (pooled over tokenizers: × the reference's); "
                "▲ ahead of all, ● tied with the leader, ▼ behind it, ? too few clusters to compare with it (paired "
                "tests, Holm)")
    return Table(name, caption, tidy, display=shown)
