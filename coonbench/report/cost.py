"""What answers cost: tokens (tiktoken and provider usage), the primer's share and its break-even, latency, money."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from coonbench.report import stats
from coonbench.report.load import ReportInputError
from coonbench.report.tables import NOPRIMER_SUFFIXES, Section, Table, baseline_of


def read_prices(path: str | Path) -> dict[str, dict[str, float]]:
    """A price table: ``{model: {input: USD per 1M tokens, output: USD per 1M tokens}}`` (JSON or YAML)."""
    p = Path(path)
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise ReportInputError(f"{p}: cannot read the price table ({str(err).splitlines()[0]})") from None
    if not isinstance(data, dict):
        raise ReportInputError(f"{p}: the price table must map model names to {{input: …, output: …}}")
    out: dict[str, dict[str, float]] = {}
    for model, entry in data.items():
        if not isinstance(entry, dict) or not {"input", "output"} <= set(entry):
            raise ReportInputError(f"{p}: entry '{model}' needs 'input' and 'output' (USD per 1M tokens)")
        try:
            out[str(model)] = {"input": float(entry["input"]), "output": float(entry["output"])}
        except (TypeError, ValueError):
            raise ReportInputError(f"{p}: entry '{model}': prices must be numbers") from None
    return out


def _price_of(model: str, prices: dict[str, dict[str, float]]) -> dict[str, float] | None:
    return prices.get(model) or prices.get(model.split("/", 1)[-1])


def token_table(samples: pd.DataFrame, prices: dict[str, dict[str, float]] | None) -> pd.DataFrame:
    """Per category, system and format: mean tokens (tiktoken input; provider input/output), latency p50/p95, cost."""
    rows = []
    for (cat, system, fmt), g in samples.groupby(["category", "system", "format"], sort=True):
        row = {
            "category": cat, "system": system, "format": fmt, "n": len(g),
            "input_tokens": float(g["input_tokens"].mean()),
            "usage_input_tokens": float(g["usage_input_tokens"].mean()),
            "usage_output_tokens": float(g["usage_output_tokens"].mean()),
            "latency_p50_s": stats.percentile(g["total_time"], 50),
            "latency_p95_s": stats.percentile(g["total_time"], 95),
        }
        if "correct" in g.columns and g["correct"].notna().any():
            row["correct"] = int(g["correct"].sum())
        price = _price_of(str(g["model"].iloc[0]), prices or {})
        if price is not None:
            ins = g["usage_input_tokens"].where(g["usage_input_tokens"].notna(), g["input_tokens"]).fillna(0)
            outs = g["usage_output_tokens"].fillna(0)
            usd = float((ins * price["input"] + outs * price["output"]).sum() / 1e6)
            row["usd_total"] = usd
            if row.get("correct"):
                row["usd_per_correct"] = usd / row["correct"]
        rows.append(row)
    return pd.DataFrame(rows)


def primer_table(samples: pd.DataFrame) -> pd.DataFrame:
    """The primer's tokens, from paired formats ``F`` and ``F-noprimer`` (or metadata ``primer_tokens``), and the
    document size at which F plus its primer costs fewer tokens than the baseline (amortised break-even).

    With compression ratio r = tokens(F without primer) ÷ tokens(baseline) on the same questions and primer P,
    F + primer is cheaper than the baseline for documents over P ÷ (1 − r) baseline tokens (never when r ≥ 1).
    """
    rows = []
    for cat, g in samples.groupby("category", sort=True):
        formats = set(g["format"])
        base = baseline_of(sorted(formats))
        wide = g.pivot_table(index=["system", "pair", "epoch"], columns="format", values="input_tokens", aggfunc="first")
        for bare in sorted(formats):
            fmt = next((bare[: -len(s)] for s in NOPRIMER_SUFFIXES if bare.endswith(s)), None)
            if fmt is None or fmt not in formats:
                continue
            both = wide[[fmt, bare]].dropna()
            if both.empty:
                continue
            primer = float(np.median(both[fmt] - both[bare]))
            row = {"category": cat, "format": fmt, "without_primer": bare, "pairs": len(both),
                   "primer_tokens": primer, "tokens_with_primer": float(both[fmt].mean()),
                   "tokens_without_primer": float(both[bare].mean()), "baseline": base or ""}
            if base is not None and base in wide.columns:
                trio = wide[[fmt, bare, base]].dropna()
                ratio = float(trio[bare].sum() / trio[base].sum()) if len(trio) and trio[base].sum() else math.nan
                row.update({"baseline_tokens": float(trio[base].mean()) if len(trio) else math.nan,
                            "cost_vs_baseline": float(trio[fmt].sum() / trio[base].sum()) if len(trio) else math.nan,
                            "compression_ratio": ratio,
                            "break_even_baseline_tokens": primer / (1 - ratio) if ratio < 1 else math.inf})
            rows.append(row)
        if "primer_tokens" in g.columns and g["primer_tokens"].notna().any():
            for fmt, h in g[g["primer_tokens"].notna()].groupby("format"):
                rows.append({"category": cat, "format": fmt, "without_primer": "", "pairs": len(h),
                             "primer_tokens": float(h["primer_tokens"].median()), "baseline": base or ""})
    return pd.DataFrame(rows)


def primer_findings(primer: pd.DataFrame) -> list[str]:
    out = []
    for _, r in primer.iterrows():
        text = f"{r['category']}: the {r['format']} primer costs {r['primer_tokens']:.0f} tokens per prompt"
        if isinstance(r.get("baseline"), str) and r.get("baseline") and not pd.isna(r.get("cost_vs_baseline", math.nan)):
            text += (f"; with it, {r['format']} costs {r['cost_vs_baseline']:.1f}× {r['baseline']}'s input tokens on these "
                     f"questions (without it {r['compression_ratio']:.2f}×)")
            be = r["break_even_baseline_tokens"]
            text += (f"; it pays for itself on documents over {be:,.0f} {r['baseline']} tokens" if math.isfinite(be)
                     else f"; it never pays for itself ({r['format']} alone is not smaller than {r['baseline']})")
        out.append(text + ".")
    return out


def cost_section(samples: pd.DataFrame, prices: dict[str, dict[str, float]] | None) -> Section:
    sec = Section(id="cost", title="Cost: tokens, primer, latency and money")
    tokens = token_table(samples, prices)
    sec.tables.append(Table("cost_tokens", "Mean tokens per sample, latency p50/p95 (s) and cost per system and format", tokens))
    primer = primer_table(samples)
    if not primer.empty:
        sec.tables.append(Table("cost_primer", "The primer's tokens and the amortised break-even document size", primer))
        sec.findings.extend(primer_findings(primer))
    if tokens["usage_input_tokens"].isna().all():
        sec.findings.append("No provider reported token usage (e.g. the gold solver): input tokens are tiktoken o200k counts.")
    if prices is None:
        sec.findings.append("No price table given (`--prices FILE`): money is not shown.")
    elif "usd_total" not in tokens.columns:
        sec.findings.append("The price table names none of the models in these logs.")
    return sec

