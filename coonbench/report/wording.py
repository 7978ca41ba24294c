"""How numbers and names are written for people: signs without "-0.0", p-values to two digits, tokens as whole
numbers, short system names."""

from __future__ import annotations

import math


def _zero(text: str) -> str:
    """'-0.0' → '0.0' (a rounded negative zero carries no sign)."""
    return text[1:] if text.startswith("-") and not any(c in "123456789" for c in text) else text


def number(value: float, digits: int = 1) -> str:
    return "–" if not math.isfinite(value) else _zero(f"{value:,.{digits}f}")


def pct(value: float, digits: int = 1) -> str:
    """A rate as a percentage: 0.2 → '20.0%'."""
    return "–" if not math.isfinite(value) else number(value * 100, digits) + "%"


def points(value: float, digits: int = 1) -> str:
    """A difference of rates in percentage points, signed: 0.008 → '+0.8', 0 → '0.0'."""
    if not math.isfinite(value):
        return "–"
    text = number(value * 100, digits)
    return text if text.startswith("-") or text.strip("0.") == "" else "+" + text


def interval(low: float, high: float, digits: int = 1) -> str:
    """A CI of a difference in points: '-1.2 to +3.0'."""
    return f"{points(low, digits)} to {points(high, digits)}"


def pvalue(p: float) -> str:
    """Two significant digits, 'p < 0.0001' style below that; 1 for 1."""
    if not math.isfinite(p):
        return "–"
    if p >= 0.9995:
        return "1"
    if p < 0.0001:
        return "< 0.0001"
    return f"{p:.2g}"


def tokens(value: float) -> str:
    return "–" if not math.isfinite(value) else f"{value:,.0f}"


def join(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def unique(sentences: list[str]) -> list[str]:
    """The sentences in order, each once."""
    return list(dict.fromkeys(sentences))


def _drop_date(name: str) -> str:
    """'claude-haiku-4-5-20251001' → 'claude-haiku-4-5' (a trailing -YYYYMMDD release date)."""
    head, _, tail = name.rpartition("-")
    return head if head and len(tail) == 8 and tail.isdigit() else name


def short_names(systems: list[str]) -> dict[str, str]:
    """Display names for systems: the provider prefix and a solver every system under test shares dropped, a
    trailing release date dropped, references as '<solver> (reference)'; the full name kept wherever shortening
    would make two systems look the same."""
    def split(system: str) -> tuple[str, str]:
        model, _, solver = system.partition(" [")
        return model, solver.rstrip("]")

    tested = [s for s in systems if not any(r in s for r in ("[coonbench/gold", "[coonbench/baseline_"))]
    solvers = {split(s)[1] for s in tested if s != "all"}
    out = {}
    for system in systems:
        model, solver = split(system)
        short = _drop_date(model.split("/", 1)[-1])
        if system not in tested:
            short = f"{solver.removeprefix('coonbench/')} (reference)"
        elif solver and len(solvers) > 1:
            short += f" [{solver}]"
        out[system] = short
    if len(set(out.values())) < len(out):
        return {s: s for s in systems}
    return out
