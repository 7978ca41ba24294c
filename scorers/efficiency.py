"""Token-efficiency metrics: what each correct answer costs, per format, and a format design's verdict (the
thresholds the format plug-in declares: ``Format.design_thresholds``, COON's from its design document).

They read correctness from ``Score.value["correct"]`` (so they survive epochs) and the format and input tokens
from the sample's metadata (fixed per sample, set by ``coonbench.tasks.samples.sample_metadata``).
"""

from __future__ import annotations

import math
from collections import defaultdict

from inspect_ai.scorer import Metric, SampleScore, metric

from coonbench.formats._design import VERDICT_VALUES, DesignThresholds
from coonbench.formats.base import FormatError, get_format

NOT_AVAILABLE = "n/a"  # no verdict: a format missing from the run, or one whose design declares no thresholds


def correct_of(score: SampleScore) -> float:
    """1.0/0.0 correctness of a sample score (dict value with 'correct', or a plain numeric/C-I value)."""
    value = score.score.value
    if isinstance(value, dict):
        return float(value.get("correct", 0.0) or 0.0)
    if isinstance(value, str):
        return 1.0 if value == "C" else 0.0
    return float(value)


def by_format(scores: list[SampleScore]) -> dict[str, tuple[float, float, int]]:
    """Format → (accuracy, mean input tokens, samples)."""
    groups: dict[str, list[SampleScore]] = defaultdict(list)
    for s in scores:
        groups[str((s.sample_metadata or {}).get("format", "?"))].append(s)
    out: dict[str, tuple[float, float, int]] = {}
    for fmt, members in groups.items():
        acc = sum(correct_of(s) for s in members) / len(members)
        tokens = sum(float((s.sample_metadata or {}).get("input_tokens", 0)) for s in members) / len(members)
        out[fmt] = (acc, tokens, len(members))
    return out


def efficiency(accuracy: float, tokens: float) -> float:
    """Accuracy (0–1) per 1,000 input tokens (TOON's efficiency figure, as a fraction)."""
    return accuracy / tokens * 1000 if tokens else 0.0


@metric(name="accuracy_per_1k_tokens")
def accuracy_per_1k_tokens() -> Metric:
    """Per format: accuracy per 1,000 input tokens (in the run's tokenizer, metadata ``tokenizer``), by format."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return {fmt: round(efficiency(acc, tok), 6) for fmt, (acc, tok, _) in sorted(by_format(scores).items())}

    return compute


@metric(name="input_tokens")
def input_tokens() -> Metric:
    """Per format: mean input tokens (primer + prompt; in the run's tokenizer: metadata ``tokenizer``)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return {fmt: round(tok, 1) for fmt, (_, tok, _) in sorted(by_format(scores).items())}

    return compute


def thresholds_of(treatment: str) -> DesignThresholds | None:
    """The design thresholds the ``treatment`` format's plug-in declares (None: unknown format, or none declared)."""
    try:
        return get_format(treatment).design_thresholds()
    except FormatError:
        return None


def verdict_of(formats: dict[str, tuple[float, float, int]], treatment: str,
               baseline: str | None = None) -> tuple[str, dict]:
    """The design's indicator on point estimates, with the figures behind it; ``"n/a"`` (no figures) when the
    treatment's plug-in declares no thresholds or either format is not in the run.

    COON's: 'success' at accuracy ≥ 75%, efficiency gain ≥ 1.5× and gap to the baseline ≤ 5 points; 'failure'
    below 65% whatever the efficiency; 'partial' anything between.
    """
    design = thresholds_of(treatment)
    base = baseline or (design.baseline if design else None)
    if design is None or base is None or treatment not in formats or base not in formats:
        return NOT_AVAILABLE, {}
    t_acc, t_tok, _ = formats[treatment]
    b_acc, b_tok, _ = formats[base]
    b_eff = efficiency(b_acc, b_tok)
    gain = efficiency(t_acc, t_tok) / b_eff if b_eff else (float("inf") if t_acc else 0.0)
    figures = {"accuracy": t_acc, "gap": b_acc - t_acc, "efficiency_gain": gain}
    return design.decide(t_acc, figures["gap"], gain), figures


@metric(name="verdict")
def verdict(treatment: str = "coon", baseline: str | None = None) -> Metric:
    """The design's success criteria for ``treatment`` against ``baseline`` (default: the one its design names).

    Values: ``verdict`` 1.0 success / 0.5 partial / 0.0 failure; ``gap`` (baseline − treatment accuracy);
    ``efficiency_gain`` (ratio of accuracy per 1K tokens). All three NaN — Inspect prints "n/a" — when no verdict
    can be computed (the baseline did not run, or the format declares no thresholds), never a 0 that reads as
    failure. COON: success at accuracy ≥ 75%, gap ≤ 5 points, gain ≥ 1.5×; failure below 65%; partial otherwise.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        word, figures = verdict_of(by_format(scores), treatment, baseline)
        if word == NOT_AVAILABLE:
            return {"verdict": math.nan, "gap": math.nan, "efficiency_gain": math.nan}
        gain = figures["efficiency_gain"]
        return {
            "verdict": VERDICT_VALUES[word],
            "gap": round(figures["gap"], 6),
            "efficiency_gain": round(gain, 6) if gain != float("inf") else 1e9,
        }

    return compute
