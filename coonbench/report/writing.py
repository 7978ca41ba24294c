"""The writing task's cost section: what a correct document costs in each format, whether a format's primer pays
for itself, and paired comparisons of the formats on the same cases, clustered by case shape.

Score keys read (``scorers/writing.py``): ``correct``, ``first_attempt_success``, ``output_tokens`` (every
attempt's), and the samples' ``input_tokens`` (the request with its primer) and ``primer_tokens``. The loader sets
each sample's cluster key ``dataset`` to its case shape, so every interval here is clustered by shape.

Output tokens per document are a sample's output tokens over the documents it wrote (``attempts``): a sample
repaired once wrote two.

Primer break-even against JSON (``BASELINE``): a format whose primer costs ``p`` tokens more than JSON's and whose
documents take ``s`` fewer output tokens each repays its primer after ``p / s`` documents written in one
conversation (the primer sent once); never when ``s <= 0``, at once (0) when ``p <= 0``. ``s`` compares documents
that hold the same data: the cases both formats wrote right at the first attempt (the sample's output tokens are
then that one document's), so a short broken document saves nothing.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from coonbench.report import wording
from coonbench.report.tables import Section, Table, accuracy_rows, comparisons, has, sample_tokens

BASELINE = "json"
COST_COLUMNS = ("system", "format", "n", "correct", "accuracy", "ci_low", "ci_high", "first_attempt",
                "input_tokens", "primer_tokens", "output_per_document", "tokens_per_correct", "output_per_correct")


def per_document(frame: pd.DataFrame) -> pd.Series:
    """Output tokens per document each sample wrote (its output tokens over its ``attempts``; one without)."""
    _, outs = sample_tokens(frame)
    documents = frame["attempts"].fillna(1.0).clip(lower=1.0) if "attempts" in frame.columns else 1.0
    return outs / documents


def cost_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per system and format: accuracy (95% CI, clustered), first-attempt success, mean input tokens (primer
    included) and primer tokens, mean output tokens per document, and tokens (in + out) per correct document."""
    rows = accuracy_rows(frame, ["system", "format"])
    extra = frame.assign(_out=per_document(frame)).groupby(["system", "format"]).agg(
        first_attempt=("first_attempt_success", "mean"), output_per_document=("_out", "mean"),
        primer_tokens=("primer_tokens", "mean") if "primer_tokens" in frame.columns else ("_out", lambda s: math.nan),
    ).reset_index()
    return rows.merge(extra, on=["system", "format"], how="left")[list(COST_COLUMNS)]


def break_even(frame: pd.DataFrame, baseline: str = BASELINE) -> pd.DataFrame:
    """Per system and format (against ``baseline``, on the cases both wrote right at the first attempt): primer
    tokens over the baseline's, output tokens saved per document, and the documents after which the primer is
    repaid (``p / s``)."""
    if "primer_tokens" not in frame.columns or "first_attempt_success" not in frame.columns:
        return pd.DataFrame()
    _, outs = sample_tokens(frame)
    data = frame.assign(_out=outs.where(frame["first_attempt_success"] == 1))  # one right document, else none
    rows = []
    for system, g in data.groupby("system", sort=True):
        wide = g.pivot_table(index="pair", columns="format", values=["_out", "primer_tokens"], aggfunc="first",
                             dropna=False)
        if baseline not in wide["_out"].columns:
            continue
        for fmt in sorted(c for c in wide["_out"].columns if c != baseline):
            both = wide["_out"][[fmt, baseline]].dropna()
            if both.empty:
                continue
            extra = float(wide["primer_tokens"][fmt].mean() - wide["primer_tokens"][baseline].mean())
            saved = float((both[baseline] - both[fmt]).mean())
            rows.append({"system": system, "format": fmt, "cases": len(both), "primer_extra": extra,
                         "saved_per_document": saved,
                         "break_even_documents": 0.0 if extra <= 0 else extra / saved if saved > 0 else math.inf})
    return pd.DataFrame(rows)


def writing_section(cat: str, frame: pd.DataFrame) -> Section:
    """Cost per correct document, primer break-even and paired comparisons of formats (clustered by shape)."""
    sec = Section(id=f"{cat}_writing_cost", title=f"{cat.capitalize()}: what a correct document costs")
    costs = cost_table(frame)
    sec.lead.append(Table(f"{cat}_document_cost", "Per format: accuracy after repairs (95% CI clustered by case "
                          "shape), first attempt, input tokens with the primer, output tokens per document, tokens "
                          "per correct document (input + output of every attempt ÷ correct documents)", costs))
    for _, r in costs.iterrows():
        per = "no correct document" if not np.isfinite(r["tokens_per_correct"]) else \
            f"{r['tokens_per_correct']:.0f} tokens per correct document"
        sec.summary.append(f"{r['system']} · {r['format']}: {wording.pct(r['accuracy'])} correct "
                           f"({wording.pct(r['first_attempt'])} at the first attempt), {per}.")
    even = break_even(frame)
    if not even.empty:
        sec.tables.append(Table(f"{cat}_primer_break_even", f"Primer break-even against {BASELINE}, on the cases both "
                                "wrote right at the first attempt: extra primer tokens, output tokens saved per "
                                "document, documents until the primer is repaid",
                                even))
    for key, what in (("correct", "after repairs"), ("first_attempt_success", "at the first attempt")):
        if has(frame, key) and frame["format"].nunique() > 1:
            cmp = comparisons(frame, key)
            if not cmp.empty:
                sec.tables.append(Table(f"{cat}_paired_{key}", f"Paired comparisons of formats, {what}, on the same "
                                        "cases (clustered by case shape; Holm-adjusted per system)", cmp))
    return sec
