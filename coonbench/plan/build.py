"""A plan: per model and format, the input tokens (exact), output tokens (bounded or a pilot's), money and the
detectable differences; a JSON-able dict that ``coonbench report`` reads back to set planned against observed."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from coonbench.plan import power, stopping
from coonbench.plan.workload import Workload
from coonbench.report import billing, cost
from coonbench.report.cost import _price_of
from coonbench.report.planned import PLAN_KEY
from coonbench.report.tables import sample_tokens
from coonbench.tokens import count_tokens
from coonbench.tokens.families import FALLBACK, MODEL_FAMILIES


@dataclass(frozen=True)
class Settings:
    models: list[str]
    epochs: int = 1
    max_tokens: int | None = None
    prices: dict[str, dict[str, float]] | None = None
    pilot: pd.DataFrame | None = None
    pilot_source: str | None = None
    detect: float | None = None  # a difference in accuracy, 0-1


GOLD_OUTPUT = "the gold reply's tokens (a model that answers as asked; give --max-tokens for a bound)"


def output_per_sample(settings: Settings, model: str) -> tuple[dict[str, float], str]:
    """Expected output tokens per sample by format, and where they come from: the pilot's mean for the model (or,
    without it there, every model under test in the pilot), else ``--max-tokens`` (an upper bound), else (empty:
    per sample) the gold reply's own tokens."""
    pilot = settings.pilot
    if pilot is not None and not pilot.empty:
        own = pilot[pilot["model"] == model]
        data = own if not own.empty else pilot[~pilot["reference"]]
        if not data.empty:
            outs = sample_tokens(data)[1]
            means = outs.groupby(data["format"]).mean()
            who = "this model" if not own.empty else "the pilot's models"
            return {str(k): float(v) for k, v in means.items()}, f"pilot mean ({who})"
    if settings.max_tokens is not None:
        return {}, f"at most --max-tokens {settings.max_tokens}"
    return {}, GOLD_OUTPUT


def _usd(tokens_in: float, tokens_out: float, price: dict[str, float] | None) -> float:
    return billing.prompt_usd(tokens_in, tokens_out, price)


def shared_prefix(work: Workload, idx: Any) -> float:
    """Tokens of the prompt prefix that every sample of ``idx`` opens with (system prompt, primer): what a
    provider's prompt cache can serve after the first call."""
    texts = work.pool.loc[idx, "text"].tolist()
    prefix = os.path.commonprefix(texts) if len(texts) > 1 else ""
    return float(count_tokens(prefix, work.tokenizer)) if prefix else 0.0


def _rows(work: Workload, settings: Settings, model: str) -> tuple[list[dict[str, Any]], str, pd.Series, pd.Series]:
    tokens_in = work.tokens() * settings.epochs
    means, source = output_per_sample(settings, model)
    fallback = (pd.Series(float(settings.max_tokens), index=work.pool.index) if settings.max_tokens is not None
                else work.tokens("gold"))  # a format the pilot lacks falls back as well
    tokens_out = work.pool["format"].map(means).astype(float).fillna(fallback) * settings.epochs
    price = _price_of(model, settings.prices or {})
    rows = []
    for fmt, idx in work.frame.groupby("format").groups.items():
        i, o = float(tokens_in[idx].sum()), float(tokens_out[idx].sum())
        calls, prefix = len(idx) * settings.epochs, shared_prefix(work, idx)
        rows.append({"format": str(fmt), "samples": len(idx), "input_tokens": i, "output_tokens": o,
                     "usd": _usd(i, o, price), "cacheable_prefix_tokens": prefix,
                     "usd_cached": billing.prompt_usd(i, o, price, prefix=prefix, calls=calls),
                     "usd_batch": billing.prompt_usd(i, o, price, batch=True)})
    return rows, source, tokens_in, tokens_out


def _detect(work: Workload, settings: Settings, model: str, estimates: dict, tokens: tuple[pd.Series, pd.Series]
            ) -> dict[str, Any]:
    """How many questions reach ``--detect``, and the tokens and money of that paired subset (the very draw of
    ``-T questions=N``, seed 0)."""
    available = int(work.complete_questions()["pair"].nunique())
    n, mdd, beyond = power.questions_needed(work.subset, available, settings.epochs, settings.detect or 0.0, estimates)
    out: dict[str, Any] = {"target": settings.detect, "questions": n, "available": available, "mdd": mdd,
                           "beyond": beyond}
    if n is not None:
        rows = work.subset(min(n, available)).index
        scale = n / min(n, available)  # beyond the questions there are: their mean per question
        i, o = float(tokens[0][rows].sum()) * scale, float(tokens[1][rows].sum()) * scale
        out.update(input_tokens=i, output_tokens=o, usd=_usd(i, o, _price_of(model, settings.prices or {})))
    return out


def _primer(work: Workload, model: str, prices: dict[str, dict[str, float]] | None) -> list[dict[str, Any]]:
    """The primer's tokens and break-even, without and (with a cached-input price) with caching: the report's
    own rule (``coonbench.report.cost.primer_table``) on the planned prompts."""
    frame = work.frame.assign(category=work.category, system=model, model=model, epoch=1,
                              input_tokens=work.tokens()[work.frame.index])
    table = cost.cached_break_even(cost.primer_table(frame), frame, prices)
    return [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
            for row in table.to_dict("records")]


def _stand_in(model: str, tokenizer: str) -> bool:
    """Whether ``tokenizer`` only stands in for the model's (no family of ``MODEL_FAMILIES`` names the model)."""
    name = model.lower()
    return tokenizer == FALLBACK and not any(re.search(pattern, name) for pattern, _ in MODEL_FAMILIES)


def make_plan(works: Mapping[str, Workload], settings: Settings, task_args: dict[str, Any]) -> dict[str, Any]:
    """The plan of running each model of ``settings`` on its workload (``works``: model → the task's samples built
    for its tokenizer)."""
    models = []
    for model in settings.models:
        work = works[model]
        rows, source, tokens_in, tokens_out = _rows(work, settings, model)
        estimates = power.pilot_estimates(settings.pilot, model) if settings.pilot is not None else {}
        entry: dict[str, Any] = {
            "model": model, "tokenizer": work.tokenizer, "stand_in": _stand_in(model, work.tokenizer),
            "price": _price_of(model, settings.prices or {}),
            "output_source": source, "formats": rows,
            "total": {k: float(sum(r[k] for r in rows))
                      for k in ("samples", "input_tokens", "output_tokens", "usd", "usd_cached", "usd_batch")},
            "comparisons": [c.as_dict() for c in power.plan_comparisons(work.frame, settings.epochs, estimates)],
        }
        if settings.detect is not None:
            entry["detect"] = _detect(work, settings, model, estimates, (tokens_in, tokens_out))
        entry["primer"] = _primer(work, model, settings.prices)
        if task_args.get("stop") == "decided":
            q = [e.discordance for e in estimates.values()] or [power.ASSUMED_DISCORDANCE]
            margin = float(task_args.get("stop_margin") or stopping.DEFAULT_MARGIN)
            entry["stopping"] = stopping.stop_prediction(work.frame, float(sum(q) / len(q)), settings.detect, margin,
                                                         stop_on=task_args.get("stop_on"))
        models.append(entry)
    work = works[settings.models[0]]
    return {
        PLAN_KEY: 1, "task": work.task, "category": work.category, "task_args": task_args,
        "epochs": settings.epochs, "max_tokens": settings.max_tokens, "pilot": settings.pilot_source,
        "samples": len(work.frame), "questions": int(work.frame["pair"].nunique()),
        "clusters": int(work.frame["cluster"].nunique()), "formats": work.formats,
        "assumed_discordance": power.ASSUMED_DISCORDANCE,
        "models": models,
    }
