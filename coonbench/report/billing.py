"""Prices as providers bill them: full-rate input, cache reads and writes, output, and batch prices.

A price table entry (USD per million tokens) needs ``input`` and ``output``; it may add

``cached_input``  input read from the provider's prompt cache (default: ``input``, no discount)
``cache_write``   input written to the cache (default: ``input``; Anthropic bills 1.25× input)
``batch_input``   input of a batch run (Inspect's ``--batch``; default: ``input``, no discount)
``batch_output``  output of a batch run (default: ``output``)

Inspect records per sample ``ModelUsage.input_tokens`` (billed at the full rate, cache excluded),
``input_tokens_cache_read`` and ``input_tokens_cache_write``; a run's ``--batch`` is in its log's generation config.
A batch run bills its full-rate input at ``batch_input``, its output at ``batch_output``, and its cache reads and
writes at their prices scaled by the same batch discount (``batch_input ÷ input``), as providers that combine
both do.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from coonbench.report import bounded

REQUIRED = ("input", "output")
OPTIONAL = ("cached_input", "cache_write", "batch_input", "batch_output")


def parse_price(entry: Any, where: str) -> dict[str, float]:
    """One price table entry as floats; ValueError naming ``where`` and the key when it is not one."""
    if not isinstance(entry, Mapping) or not set(REQUIRED) <= set(entry):
        raise ValueError(f"{where} needs 'input' and 'output' (USD per 1M tokens)")
    unknown = sorted(set(map(str, entry)) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise ValueError(f"{where}: unknown price key '{unknown[0]}' (known: {', '.join(REQUIRED + OPTIONAL)})")
    out = {}
    for key in (*REQUIRED, *OPTIONAL):
        if key in entry:
            value = entry[key]
            number = math.nan if isinstance(value, bool) else bounded.number(value)  # finite, at most 10^15
            if math.isnan(number) or number < 0:
                shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:37]}..."
                raise ValueError(f"{where}: '{key}' must be a number of USD from 0 to 10^15 (got {shown})")
            out[key] = number
    return out


def rates(price: Mapping[str, float], batch: bool = False) -> dict[str, float]:
    """USD per 1M tokens of each kind (``input`` at full rate, ``cache_read``, ``cache_write``, ``output``) for a
    standard or a batch run."""
    full, out = price["input"], price["output"]
    read, write = price.get("cached_input", full), price.get("cache_write", full)
    if not batch:
        return {"input": full, "cache_read": read, "cache_write": write, "output": out}
    batch_in = price.get("batch_input", full)
    scale = batch_in / full if full else 1.0
    return {"input": batch_in, "cache_read": read * scale, "cache_write": write * scale,
            "output": price.get("batch_output", out)}


def cache_ratio(price: Mapping[str, float]) -> float:
    """What a cached input token costs as a share of a full-rate one (1 without a ``cached_input`` price)."""
    return price.get("cached_input", price["input"]) / price["input"] if price["input"] else 1.0


def has_batch(price: Mapping[str, float]) -> bool:
    return "batch_input" in price or "batch_output" in price


def has_cache(price: Mapping[str, float]) -> bool:
    return "cached_input" in price


def describe(price: Mapping[str, float] | None) -> str:
    """One line: the entry's prices per 1M tokens, cached and batch included where given."""
    if not price:
        return "no price given"
    text = f"USD {price['input']:.2f} in / {price['output']:.2f} out per 1M tokens"
    if has_cache(price):
        text += f"; cached input {price['cached_input']:.2f}"
        if "cache_write" in price:
            text += f", cache write {price['cache_write']:.2f}"
    if has_batch(price):
        b = rates(price, batch=True)
        text += f"; batch {b['input']:.2f} in / {b['output']:.2f} out"
    return text


def prompt_usd(tokens_in: float, tokens_out: float, price: Mapping[str, float] | None, *, prefix: float = 0.0,
               calls: int = 0, batch: bool = False) -> float:
    """USD of ``calls`` calls sending ``tokens_in`` input and ``tokens_out`` output tokens in all, every call
    opening with the same ``prefix`` tokens (a primer, a system prompt) that the provider caches: written once at
    the cache-write price, then read at the cached price. NaN without a price or with unknown output."""
    if price is None or not math.isfinite(tokens_out):
        return math.nan
    r = rates(price, batch)
    shared = prefix * calls if prefix > 0 and calls > 0 else 0.0
    written = prefix if shared else 0.0
    return ((tokens_in - shared) * r["input"] + (shared - written) * r["cache_read"] + written * r["cache_write"]
            + tokens_out * r["output"]) / 1e6
