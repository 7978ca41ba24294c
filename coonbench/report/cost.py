"""What answers cost: tokens (tiktoken and provider usage), the primer's share and its break-even, latency, money."""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from coonbench.report import stats, wording
from coonbench.report.load import ReportInputError
from coonbench.report.tables import NOPRIMER_SUFFIXES, Section, Table, baseline_of, sample_tokens


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


@functools.lru_cache(maxsize=64)
def _plugin_primer_tokens(fmt: str) -> float:
    """Tokens (o200k) of the primer a format label shows (``coon``, ``coon-fullprimer``, ``coon:full``…), read
    from the format plug-in through ``coonbench.tasks.conditions``; NaN for a label no plug-in has."""
    from coonbench.tasks.conditions import parse_condition
    from coonbench.tokens import count_tokens

    try:
        text = parse_condition(fmt).primer_text()
    except Exception:  # noqa: BLE001 - an unknown or foreign format: its primer is not known here
        return math.nan
    return float(count_tokens(text)) if text else 0.0


def primer_tokens(frame: pd.DataFrame) -> pd.Series:
    """Primer tokens in each sample's prompt: metadata ``primer_tokens``; else, where metadata ``primer`` says a
    primer was shown, the format plug-in's primer counted with ``coonbench.tokens``; else 0."""
    out = pd.Series(0.0, index=frame.index)
    if "primer" in frame.columns:
        shown = frame["primer"].map(lambda v: str(v).lower() in ("true", "1", "1.0")).astype(bool)
        out[shown] = [_plugin_primer_tokens(f) for f in frame.loc[shown, "format"]]
    if "primer_tokens" in frame.columns:
        out = frame["primer_tokens"].where(frame["primer_tokens"].notna(), out)
    return out.fillna(0.0).astype(float)


def usd(frame: pd.DataFrame, prices: dict[str, dict[str, float]] | None) -> pd.Series:
    """Each sample's cost in USD from the price table (NaN for a model it does not name)."""
    ins, outs = sample_tokens(frame)
    price_in = frame["model"].map(lambda m: (_price_of(str(m), prices or {}) or {}).get("input", math.nan))
    price_out = frame["model"].map(lambda m: (_price_of(str(m), prices or {}) or {}).get("output", math.nan))
    return (ins.fillna(0) * price_in + outs * price_out) / 1e6


def per_correct(frame: pd.DataFrame, system: str | None, prices: dict[str, dict[str, float]] | None) -> pd.DataFrame:
    """Per format (of ``frame``, already narrowed to the system(s) meant): tokens per correct answer (input +
    output), the primer's share of the input tokens and, with prices, USD per correct answer."""
    ins, outs = sample_tokens(frame)
    data = frame.assign(_in=ins, _out=outs, _primer=primer_tokens(frame), _usd=usd(frame, prices))
    rows = {}
    for fmt, g in data.groupby("format", sort=True):
        k = float(g["correct"].sum()) if "correct" in g.columns else math.nan
        rows[fmt] = {
            "correct": k, "tokens": float(g["_in"].sum() + g["_out"].sum()),
            "tokens_per_correct": (g["_in"].sum() + g["_out"].sum()) / k if k else math.nan,
            "primer_share": float(g["_primer"].sum() / g["_in"].sum()) if g["_in"].sum() else 0.0,
            "usd_per_correct": float(g["_usd"].sum()) / k if k and g["_usd"].notna().all() else math.nan,
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def token_table(samples: pd.DataFrame, prices: dict[str, dict[str, float]] | None) -> pd.DataFrame:
    """Per category, system and format: tokens (tiktoken input; provider input/output), tokens and money per correct
    answer with the primer's share, latency p50/p95."""
    rows = []
    ins, outs = sample_tokens(samples)
    data = samples.assign(_in=ins, _out=outs, _primer=primer_tokens(samples), _usd=usd(samples, prices))
    for (cat, system, fmt), g in data.groupby(["category", "system", "format"], sort=True):
        k = int(g["correct"].sum()) if "correct" in g.columns and g["correct"].notna().any() else 0
        spent = float(g["_in"].sum() + g["_out"].sum())
        row = {
            "category": cat, "system": system, "format": fmt, "n": len(g), "correct": k,
            "input_tokens": float(g["input_tokens"].mean()),
            "usage_input_tokens": float(g["usage_input_tokens"].mean()),
            "usage_output_tokens": float(g["usage_output_tokens"].mean()),
            "tokens_per_correct": spent / k if k else math.nan,
            "primer_share": float(g["_primer"].sum() / g["_in"].sum()) if g["_in"].sum() else 0.0,
            "primer_tokens_per_correct": float(g["_primer"].sum()) / k if k else math.nan,
            "latency_p50_s": stats.percentile(g["total_time"], 50),
            "latency_p95_s": stats.percentile(g["total_time"], 95),
        }
        if g["_usd"].notna().all():
            row["usd_total"] = float(g["_usd"].sum())
            row["usd_per_correct"] = row["usd_total"] / k if k else math.nan
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
        paired = {r["format"] for r in rows if r["category"] == cat}
        if "primer_tokens" in g.columns and (g["primer_tokens"] > 0).any():
            for fmt, h in g[g["primer_tokens"] > 0].groupby("format"):
                if fmt not in paired:  # a format measured by pairing is not reported twice
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
    sec = Section(id="cost", title="Cost: tokens per correct answer, primer, latency and money")
    tokens = token_table(samples, prices)
    sec.lead.append(Table("cost_tokens", "Tokens per correct answer (input + output; the primer's share of the input), "
                                         "mean tokens per sample, latency p50/p95 (s) and money with --prices", tokens))
    sec.summary.append("Tokens per correct answer = (input + output tokens of every sample) ÷ correct answers: the "
                       "provider's reported usage where there is some, else tiktoken o200k input counts and the "
                       "scorer's output counts.")
    primer = primer_table(samples)
    if not primer.empty:
        sec.tables.append(Table("cost_primer", "The primer's tokens and the amortised break-even document size", primer))
        sec.summary.extend(wording.unique(primer_findings(primer)))
    if tokens["usage_input_tokens"].isna().all():
        sec.summary.append("No provider reported token usage (e.g. the gold solver): input tokens are tiktoken o200k counts.")
    if prices is None:
        sec.summary.append("No price table given (`--prices FILE`): money is not shown.")
    elif "usd_total" not in tokens.columns:
        sec.summary.append("The price table names none of the models in these logs.")
    return sec

