"""What answers cost: tokens (tiktoken and provider usage), the primer's share and its break-even, latency, money."""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pandas as pd

from coonbench.report import billing, stats, wording
from coonbench.report.bounded import number, read_yaml
from coonbench.report.load import ReportInputError, is_reference
from coonbench.resources import shipped_path
from coonbench.report.tables import (
    DEFAULT_TOKENIZER,
    MIXED,
    NOPRIMER_SUFFIXES,
    Section,
    Table,
    baseline_of,
    sample_tokens,
    token_units,
    unit_of,
)


def read_prices(path: str | Path) -> dict[str, dict[str, float]]:
    """A price table: ``{model: {input: …, output: …[, cached_input, cache_write, batch_input, batch_output]}}`` in
    USD per 1M tokens (JSON or YAML; ``coonbench.report.billing`` says what each key bills); ``docs/prices-example.yaml``
    is found in the installed package too (``shipped_path``)."""
    p = shipped_path(path)
    data = read_yaml(p, "price table")  # bounded: size, nesting, integer length
    if not isinstance(data, dict):
        raise ReportInputError(f"{p}: the price table must map model names to {{input: …, output: …}}")
    out: dict[str, dict[str, float]] = {}
    for model, entry in data.items():
        try:
            out[str(model)] = billing.parse_price(entry, f"entry '{model}'")
        except ValueError as err:
            raise ReportInputError(f"{p}: {err}") from None
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
    primer was shown, the format plug-in's primer counted with ``coonbench.tokens`` (0 where it says none was);
    else NaN: the log does not say, and the report shows it as unknown rather than as 0."""
    out = pd.Series(math.nan, index=frame.index)
    if "primer" in frame.columns:
        said = frame["primer"].notna()
        shown = said & frame["primer"].map(lambda v: str(v).lower() in ("true", "1", "1.0")).astype(bool)
        out[said & ~shown] = 0.0
        out[shown] = [_plugin_primer_tokens(f) for f in frame.loc[shown, "format"]]
    if "primer_tokens" in frame.columns:
        out = frame["primer_tokens"].where(frame["primer_tokens"].notna(), out)
    return out.astype(float)


def _share(part: pd.Series, whole: pd.Series) -> float:
    """Σpart ÷ Σwhole; NaN (unknown) when any part is unknown or nothing was spent."""
    if part.isna().any() or not whole.sum():
        return math.nan
    return float(part.sum() / whole.sum())


def usd(frame: pd.DataFrame, prices: dict[str, dict[str, float]] | None, *, uncached: bool = False,
        batch: bool | None = None) -> pd.Series:
    """Each sample's cost in USD as billed (NaN for a model the price table does not name): full-rate input, cache
    reads and writes (Inspect's ``ModelUsage``) and output at the model's prices, a ``--batch`` run's at its batch
    prices. ``uncached``: every input token at the full rate; ``batch``: price every sample as a batch (True) or
    standard (False) run, whatever it was."""
    out = pd.Series(math.nan, index=frame.index, dtype=float)
    if frame.empty:
        return out
    ins, outs = sample_tokens(frame)
    ins = ins.fillna(0)
    zero = pd.Series(0.0, index=frame.index)
    read = zero if uncached else _column(frame, "usage_cache_read_tokens")
    write = zero if uncached else _column(frame, "usage_cache_write_tokens")
    ran_batch = frame["batch"].fillna(False).astype(bool) if "batch" in frame.columns else zero.astype(bool)
    for model, idx in frame.groupby("model").groups.items():
        price = _price_of(str(model), prices or {})
        if price is None:
            continue
        for as_batch in (False, True):
            rows = idx[(ran_batch[idx] if batch is None else pd.Series(batch, index=idx)) == as_batch]
            r = billing.rates(price, as_batch)
            out[rows] = ((ins[rows] - read[rows] - write[rows]) * r["input"] + read[rows] * r["cache_read"]
                         + write[rows] * r["cache_write"] + outs[rows] * r["output"]) / 1e6
    return out


def _column(frame: pd.DataFrame, name: str) -> pd.Series:
    return frame[name].fillna(0.0).astype(float) if name in frame.columns else pd.Series(0.0, index=frame.index)


def per_correct(frame: pd.DataFrame, prices: dict[str, dict[str, float]] | None) -> pd.DataFrame:
    """Per format (of ``frame``, already narrowed to the system(s) and questions meant): tokens per correct answer
    (input + output; NaN where the frame mixes tokenizers), the primer's share of the input tokens and, with
    prices, USD per correct answer (money adds across tokenizers: a dollar is a dollar)."""
    ins, outs = sample_tokens(frame)
    data = frame.assign(_in=ins, _out=outs, _primer=primer_tokens(frame), _usd=usd(frame, prices),
                        _unit=token_units(frame))
    rows = {}
    for fmt, g in data.groupby("format", sort=True):
        k = float(g["correct"].sum()) if "correct" in g.columns else math.nan
        unit = unit_of(g["_unit"])
        rows[fmt] = {
            "correct": k, "tokenizer": unit,
            "tokens_per_correct": (g["_in"].sum() + g["_out"].sum()) / k if k and unit != MIXED else math.nan,
            "primer_share": _share(g["_primer"], g["_in"]) if unit != MIXED else math.nan,
            "usd_per_correct": float(g["_usd"].sum()) / k if k and g["_usd"].notna().all() else math.nan,
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def token_table(samples: pd.DataFrame, prices: dict[str, dict[str, float]] | None) -> pd.DataFrame:
    """Per category, system and format, on the questions that system ran in that format: tokens per sample (the log's
    input count and the provider's input/output), tokens per correct answer with input and output apart, in the
    tokenizer named, the primer's share, latency p50/p95 and money."""
    rows = []
    ins, outs = sample_tokens(samples)
    data = samples.assign(_in=ins, _out=outs, _primer=primer_tokens(samples), _usd=usd(samples, prices),
                          _usd_full=usd(samples, prices, uncached=True, batch=False),
                          _usd_batch=usd(samples, prices, batch=True), _read=_column(samples, "usage_cache_read_tokens"),
                          _unit=token_units(samples))
    for (cat, system, fmt), g in data.groupby(["category", "system", "format"], sort=True):
        k = int(g["correct"].sum()) if "correct" in g.columns and g["correct"].notna().any() else 0
        unit = unit_of(g["_unit"])
        same = unit != MIXED
        row = {
            "category": cat, "system": system, "format": fmt, "n": len(g), "questions": int(g["pair"].nunique()),
            "correct": k, "tokenizer": unit,
            "input_tokens": float(g["input_tokens"].mean()),
            "usage_input_tokens": float(g["usage_input_tokens"].mean()),
            "usage_output_tokens": float(g["usage_output_tokens"].mean()),
            "tokens_per_correct": float(g["_in"].sum() + g["_out"].sum()) / k if k and same else math.nan,
            "input_per_correct": float(g["_in"].sum()) / k if k and same else math.nan,
            "output_per_correct": float(g["_out"].sum()) / k if k and same else math.nan,
            "primer_share": _share(g["_primer"], g["_in"]),
            "primer_tokens_per_correct": float(g["_primer"].sum()) / k if k and g["_primer"].notna().all() else math.nan,
            "latency_p50_s": stats.percentile(g["total_time"], 50),
            "latency_p95_s": stats.percentile(g["total_time"], 95),
        }
        if g["_usd"].notna().all():
            row["usd_total"] = float(g["_usd"].sum())  # as billed: cache reads/writes and --batch at their prices
            row["usd_per_correct"] = row["usd_total"] / k if k else math.nan
            row["usd_uncached_standard"] = float(g["_usd_full"].sum())  # every input token at the full rate
            row["usd_batch"] = float(g["_usd_batch"].sum())  # the same tokens at batch prices
            row["cache_read_share"] = float(g["_read"].sum() / g["_in"].sum()) if g["_in"].sum() else math.nan
            row["batch_run"] = bool(g["batch"].any()) if "batch" in g.columns else False
        rows.append(row)
    return pd.DataFrame(rows)


def primer_table(samples: pd.DataFrame) -> pd.DataFrame:
    """The primer's tokens, from paired formats ``F`` and ``F-noprimer`` (or metadata ``primer_tokens``), and the
    document size at which F plus its primer costs fewer tokens than the baseline (amortised break-even).

    With compression ratio r = tokens(F without primer) ÷ tokens(baseline) on the same questions and primer P,
    F + primer is cheaper than the baseline for documents over P ÷ (1 − r) baseline tokens (never when r ≥ 1).
    """
    rows = []
    counted = samples["tokenizer"].astype("object").where(samples["tokenizer"].notna(), DEFAULT_TOKENIZER) \
        if "tokenizer" in samples.columns else pd.Series(DEFAULT_TOKENIZER, index=samples.index)
    data = samples.assign(_counted=counted.astype(str))
    # one row per system and the tokenizer its prompts were counted in: a floor's o200k prompts and a model's own
    # tokens are never paired, averaged or set against each other
    for (cat, system, unit), g in data.groupby(["category", "system", "_counted"], sort=True):
        formats = set(g["format"])
        base = baseline_of(sorted(formats))
        wide = g.pivot_table(index=["pair", "epoch"], columns="format", values="input_tokens", aggfunc="first")
        for bare in sorted(formats):
            fmt = next((bare[: -len(s)] for s in NOPRIMER_SUFFIXES if bare.endswith(s)), None)
            if fmt is None or fmt not in formats:
                continue
            both = wide[[fmt, bare]].dropna()
            if both.empty:
                continue
            primer = float(np.median(both[fmt] - both[bare]))
            row = {"category": cat, "system": system, "tokenizer": unit, "format": fmt, "without_primer": bare,
                   "pairs": len(both),
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
        paired = {r["format"] for r in rows if (r["category"], r["system"], r["tokenizer"]) == (cat, system, unit)}
        if "primer_tokens" in g.columns and (g["primer_tokens"] > 0).any():
            for fmt, h in g[g["primer_tokens"] > 0].groupby("format"):
                if fmt not in paired:  # a format measured by pairing is not reported twice
                    rows.append({"category": cat, "system": system, "tokenizer": unit, "format": fmt,
                                 "without_primer": "", "pairs": len(h),
                                 "primer_tokens": float(h["primer_tokens"].median()), "baseline": base or ""})
    return pd.DataFrame(rows)


def primer_findings(primer: pd.DataFrame) -> list[str]:
    """The primer's cost per system under test, each in the tokenizer its prompts were counted in (the references'
    rows stay in the table: they measure the benchmark, not a model), or the references' when no model ran."""
    out = []
    several = "system" in primer.columns and primer["system"].nunique() > 1  # else one system: said once, upstream
    tested = primer[~primer["system"].map(is_reference).astype(bool)] if several else primer
    for _, r in (tested if not tested.empty else primer).iterrows():
        who = f", {r['system']} ({r['tokenizer']} tokens)" if several else ""
        text = f"{r['category']}{who}: the {r['format']} primer costs {r['primer_tokens']:.0f} tokens per prompt"
        if isinstance(r.get("baseline"), str) and r.get("baseline") and not pd.isna(r.get("cost_vs_baseline", math.nan)):
            text += (f"; with it, {r['format']} costs {r['cost_vs_baseline']:.1f}× {r['baseline']}'s input tokens on these "
                     f"questions (without it {r['compression_ratio']:.2f}×)")
            be = r["break_even_baseline_tokens"]
            text += (f"; it pays for itself on documents over {be:,.0f} {r['baseline']} tokens" if math.isfinite(be)
                     else f"; it never pays for itself ({r['format']} alone is not smaller than {r['baseline']})")
            cached = r.get("break_even_cached_baseline_tokens", math.nan)
            if isinstance(cached, float) and not math.isnan(cached) and math.isfinite(be):
                text += (f" (read from the provider's prompt cache at {r['cache_price_ratio']:.0%} of the input "
                         f"price, over {cached:,.0f})")
        out.append(text + ".")
    return out


OUTPUT_SHARE = 0.05  # a system whose replies are this share of its tokens gets its output named apart


def output_sentences(tokens: pd.DataFrame) -> list[str]:
    """Output tokens apart where they weigh: systems whose replies are ≥ 5% of their tokens, against the others'
    output tokens per call."""
    data = tokens.dropna(subset=["usage_output_tokens"])
    if data.empty:
        return []
    spent = data.assign(_in=data["usage_input_tokens"] * data["n"], _out=data["usage_output_tokens"] * data["n"])
    totals = spent.groupby("system")[["_in", "_out", "n"]].sum()
    per_call = totals["_out"] / totals["n"]
    share = totals["_out"] / (totals["_in"] + totals["_out"])
    heavy = sorted(s for s, v in share.items() if v >= OUTPUT_SHARE)
    rest = per_call.drop(heavy)
    out = []
    for s in heavy:
        others = (f"; the others {wording.tokens(rest.min())}–{wording.tokens(rest.max())}" if len(rest) > 1
                  else f"; {rest.index[0]} {wording.tokens(rest.iloc[0])}" if len(rest) == 1 else "")
        out.append(f"Output tokens: {s} spends {wording.tokens(per_call[s])} per call ({wording.pct(share[s], 0)} of "
                   f"its tokens{others}), so its tokens per correct answer weigh its replies, not only what it reads.")
    return out


def cost_section(samples: pd.DataFrame, prices: dict[str, dict[str, float]] | None) -> Section:
    sec = Section(id="cost", title="Cost: tokens per correct answer, primer, latency and money")
    tokens = token_table(samples, prices)
    sec.lead.append(Table("cost_tokens", "Tokens per correct answer (input and output apart, in the tokenizer named; "
                                         "each format on the questions it ran: the accuracy sections compare formats "
                                         "like for like), the primer's share, latency and money with --prices",
                          tokens))
    sec.summary.append("Tokens per correct answer = (input + output tokens of every sample) ÷ correct answers, each "
                       "in one tokenizer: the provider's reported usage where there is some (that model's own "
                       "tokenizer), else the log's count in the tokenizer it names (o200k_base in older logs); "
                       "tokens of different tokenizers are never added.")
    sec.summary.extend(output_sentences(tokens))
    primer = cached_break_even(primer_table(samples), samples, prices)
    if not primer.empty:
        sec.tables.append(Table("cost_primer", "The primer's tokens and the amortised break-even document size", primer))
        sec.summary.extend(wording.unique(primer_findings(primer)))
    if tokens["usage_input_tokens"].isna().all() and (tokens["tokenizer"] == DEFAULT_TOKENIZER).all():
        sec.summary.append("No provider reported token usage (e.g. the gold solver): input tokens are tiktoken o200k counts.")
    sec.summary.extend(billing_sentences(tokens))
    if prices is None:
        sec.summary.append("No price table given (`--prices FILE`): money is not shown.")
    elif "usd_total" not in tokens.columns:
        sec.summary.append("The price table names none of the models in these logs.")
    return sec



def cached_break_even(primer: pd.DataFrame, samples: pd.DataFrame,
                      prices: dict[str, dict[str, float]] | None) -> pd.DataFrame:
    """``primer`` with the break-even when the primer is a cached prefix: billed at the cached-input share ρ of
    the input price on every call after the first, F + primer beats the baseline in money on documents over
    ρ × P ÷ (1 − r) baseline tokens. ρ is the largest of the category's priced models (the least saving); the
    columns are absent without prices or a ``cached_input`` price."""
    if primer.empty or not prices or "break_even_baseline_tokens" not in primer.columns:
        return primer
    ratios = {}
    for cat, g in samples.groupby("category"):
        found = [billing.cache_ratio(p) for m in g["model"].unique()
                 if (p := _price_of(str(m), prices)) is not None and billing.has_cache(p)]
        if found:
            ratios[cat] = max(found)
    if not ratios:
        return primer
    rho = primer["category"].map(ratios).astype(float)
    return primer.assign(cache_price_ratio=rho, break_even_cached_baseline_tokens=rho * primer["break_even_baseline_tokens"])


def billing_sentences(tokens: pd.DataFrame) -> list[str]:
    """Per system with prices: what it cost as billed, against every input token at the full rate and at batch
    prices."""
    if "usd_total" not in tokens.columns:
        return []
    out = []
    for system, g in tokens.dropna(subset=["usd_total"]).groupby("system"):
        billed, full, batch = (float(g[c].sum()) for c in ("usd_total", "usd_uncached_standard", "usd_batch"))
        ran = "a --batch run, priced at batch prices" if g["batch_run"].any() else "a standard run"
        text = f"Cost as billed: {system} spent USD {billed:,.4f} ({ran}"
        if abs(full - billed) > 1e-12:
            text += f"; every input token at the full standard rate: USD {full:,.4f}"
        if not g["batch_run"].any() and abs(batch - billed) > 1e-12:
            text += f"; the same tokens at batch prices: USD {batch:,.4f}"
        out.append(text + ").")
    return out
