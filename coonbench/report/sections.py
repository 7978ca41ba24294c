"""One or more report sections per category, chosen by the score keys its samples carry (not by task name).

The top of the report's modules: it assembles sections from ``tables``, ``blocks``, ``summary``, ``verdicts``,
``cost`` and ``correction``, and none of them imports it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from coonbench.report import stats, summary, verdicts
from coonbench.report.blocks import Block, question_blocks, restrict
from coonbench.report.correction import correction_section
from coonbench.report.writing import writing_section
from coonbench.report.cost import per_correct
from coonbench.report.load import is_reference
from coonbench.report.prompts import prompt_section
from coonbench.report.tools import tools_section
from coonbench.report.turns import turn_keys, turns_section
from coonbench.report.tables import (
    Section,
    Table,
    accuracy_rows,
    adjust_families,
    comparisons,
    family_sizes,
    has,
    oriented,
    system_order,
    with_pooled,
)

CODE_KEYS = ("syntax_valid", "decodable", "correct", "first_attempt_success", "attempts")
MAX_SOURCE_ROWS = 40  # a by-source breakdown is shown only when this few source items


def _block_tables(frame: pd.DataFrame, blocks: list[Block]
                  ) -> tuple[list[tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]], pd.DataFrame]:
    """Per block (its rows, accuracy per system and format, its paired comparisons), and every block's comparisons
    together: one Holm family per system over all the blocks (the report question "which format is more accurate
    for this system" asks it on each question set)."""
    datas = [restrict(frame, block.formats) for block in blocks]
    families = family_sizes([d for d, b in zip(datas, blocks) if len(b.formats) > 1])
    found, cmps = [], []
    for block, data in zip(blocks, datas):
        acc = accuracy_rows(with_pooled(data), ["system", "format"])
        if not acc.empty:
            acc = acc.set_index("system", drop=False).loc[system_order(list(acc["system"]))].reset_index(drop=True)
        cmp = comparisons(data, families=families) if len(block.formats) > 1 else pd.DataFrame()
        found.append((data, acc))
        cmps.append(_labelled(cmp, block))
    cmp_all = adjust_families(pd.concat([c for c in cmps if not c.empty], ignore_index=True)) \
        if any(not c.empty for c in cmps) else pd.DataFrame()
    out = [(data, acc, cmp_all[cmp_all["questions"] == block.label] if not cmp_all.empty else cmp_all)
           for (data, acc), block in zip(found, blocks)]
    return out, cmp_all


def _labelled(frame: pd.DataFrame, block: Block) -> pd.DataFrame:
    return frame.assign(questions=block.label) if not frame.empty else frame


def accuracy_section(cat: str, frame: pd.DataFrame, prices: dict[str, dict[str, float]] | None = None) -> Section:
    """The one-sentence answer, the paragraph, the compact table per like-for-like block, then the details."""
    sec = Section(id=cat, title=f"{cat.capitalize()}: accuracy")
    blocks = question_blocks(frame)
    per_block, cmp_all = _block_tables(frame, blocks)
    accs = []
    for block, (data, acc, cmp) in zip(blocks, per_block):
        system = summary.focus_system(acc)
        if block.main:
            tested = data[~data["system"].map(is_reference).astype(bool)]
            scope = tested if system == "all" else tested[tested["system"] == system]
            sec.headline, sec.summary = summary.answer(data, block, acc, cmp, per_correct(scope, prices), prices,
                                                       cmp_all)
            if system is not None:
                points, label = summary.figure_points(system, acc)
                sec.plot_data[f"{cat}_answer.png"] = {"system": system, "questions": block.label, "x_label": label,
                                                      "points": points,
                                                      "design": summary.design_caption(system, acc, cmp)}
                sec.plot_data[f"{cat}_forest.png"] = {"system": system, "questions": block.label,
                                                      "points": _forest_rows(cmp, system)}
            caption = f"{cat}: {block.label}"
        else:
            caption = f"{cat}, like for like on {block.label}"
            said = summary.subset_sentence(block, acc, cmp) if system is not None else None
            if said:
                sec.summary.append(said)
        name = f"{cat}_summary" if block.main else f"{cat}_summary_{block.key}"
        sec.lead.append(summary.compact_table(name, caption, data, acc, cmp))
        accs.append(_labelled(acc, block))
    acc_all = pd.concat(accs, ignore_index=True) if accs else pd.DataFrame()
    sec.tables.append(Table(f"{cat}_accuracy", "Accuracy per system and format on each like-for-like question set "
                                                "(95% CI; `interval` names how it was made)", acc_all))
    main = restrict(frame, blocks[0].formats) if blocks else frame
    _breakdowns(sec, cat, main, with_pooled(main))
    _comparison_tables(sec, cat, acc_all, cmp_all)
    if frame["epoch"].nunique() > 1:
        cons = stats.consistency(frame["correct"], frame[["system", "format", "pair"]])
        table = cons.groupby(["system", "format"]).agg(
            questions=("agreement", "size"), mean_agreement=("agreement", "mean"), mixed_share=("mixed", "mean"),
            epochs=("count", "max")).reset_index()
        sec.tables.append(Table(f"{cat}_consistency", "Per-question consistency across epochs", table))
    return sec


def _comparison_tables(sec: Section, cat: str, acc_all: pd.DataFrame, cmp_all: pd.DataFrame) -> None:
    if cmp_all.empty:
        return
    sec.tables.append(Table(f"{cat}_comparisons", "Paired format comparisons on each like-for-like question set "
                            "(Holm per system over every question set; 95% CI per comparison, simultaneous CI over "
                            "the family)", cmp_all))
    sec.findings.extend(verdicts.comparison_sentences(cmp_all))
    ver, why = verdicts.design_verdicts(acc_all, cmp_all)
    if not ver.empty:
        sec.tables.append(Table(f"{cat}_verdict", "Verdicts of the formats whose design declares thresholds, "
                                "against the design's baseline on paired questions (95% intervals)", ver))
        sec.findings.extend(why)
    claims, said = verdicts.claim_verdicts(cmp_all)
    if not claims.empty:
        sec.tables.append(Table(f"{cat}_claims", "Published claims about a format, decided against its baseline on "
                                "paired questions: the accuracy lost (95% interval) against the claim's margin",
                                claims))
        sec.findings.extend(said)


def _forest_rows(cmp: pd.DataFrame, system: str) -> list[dict]:
    """The focus system's comparisons as the forest plot draws them: each pair with the more accurate format
    first, largest difference on top (the same figures as the comparisons table, oriented)."""
    if cmp.empty:
        return []
    rows = [oriented(r, r["format_a"] if r["diff"] >= 0 else r["format_b"])
            for _, r in cmp[cmp["system"] == system].iterrows()]
    rows.sort(key=lambda r: -r["diff"])
    return [{k: (r[k] if not isinstance(r[k], np.generic) else r[k].item())
             for k in ("format_a", "format_b", "diff", "diff_low", "diff_high", "sim_low", "sim_high", "p_holm")}
            for r in rows]


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
        sec.summary = [f"{s}: {int(g['correct'].sum())} of {len(g)} programs correct "
                       f"({_pct(g['correct'].mean())})." for s, g in frame.groupby("system", sort=True)]
    if cat == "generation" and "syntax_valid" in keys:
        ver, why = verdicts.validity_verdicts(frame)
        if not ver.empty:
            sec.tables.append(Table(f"{cat}_validity_verdict", "Generation validity against the design's target, "
                                    "for the formats whose design sets one (95% intervals)", ver))
            sec.findings.extend(why)
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
    out: list[Section] = []
    for cat, frame in samples.groupby("category", sort=True):
        frame = frame.dropna(axis=1, how="all")
        for col in ("usage_input_tokens", "usage_output_tokens", "input_tokens"):
            if col not in frame.columns:
                frame = frame.assign(**{col: np.nan})
        cat = str(cat)
        if has(frame, "iterations"):
            writing = has(frame, "correct_output_tokens")  # the writing task: documents, nothing run
            out.append(correction_section(cat, frame, sandboxed=not writing))
            if writing:
                out.append(writing_section(cat, frame))
        elif has(frame, "syntax_valid"):
            out.append(code_section(cat, frame))
            if turn_keys(frame):
                out.append(turns_section(cat, frame))
        elif has(frame, "correct"):
            out.append(accuracy_section(cat, frame, prices))
            if (tools := tools_section(cat, frame)) is not None:  # the tool task: calls and tokens per solved task
                out.append(tools)
        if any(c.startswith("judge:") for c in frame.columns):
            out.append(judge_section(cat, frame))
        prompts = prompt_section(cat, frame) if "prompt_template" in frame.columns else None
        if prompts is not None:  # only when the logs ask in two templates or more
            out.append(prompts)
    return out
