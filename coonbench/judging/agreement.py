"""Agreement between judges: Krippendorff's α (interval level) via the ``krippendorff`` package.

Why a helper: α is undefined for some inputs (one judge, no unit rated by two judges, every rating identical), where
the package raises or returns NaN; callers want "no figure" (``None``) there rather than an exception in a metric.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np


def interval_alpha(ratings: Sequence[Sequence[float | None]]) -> float | None:
    """Krippendorff's α at the interval level; ``ratings[judge][unit]``, missing ratings as NaN or None.

    Returns ``None`` where α is undefined: fewer than two judges, no unit rated by at least two judges, or fewer
    than two distinct values among the pairable ratings (no variance to agree about).
    """
    if len(ratings) < 2:
        return None
    data = np.array(
        [[np.nan if v is None else float(v) for v in row] for row in ratings], dtype=float
    )
    if data.ndim != 2 or data.shape[1] == 0:
        return None
    pairable = np.sum(~np.isnan(data), axis=0) >= 2
    if not pairable.any():
        return None
    values = data[:, pairable]
    if np.unique(values[~np.isnan(values)]).size < 2:
        return None
    try:
        import krippendorff  # here, not at import: every `inspect` process loads the registry, few compute α

        alpha = float(krippendorff.alpha(reliability_data=data, level_of_measurement="interval"))
    except ValueError:
        return None
    return alpha if math.isfinite(alpha) else None


def check_judge_agreement(
    samples: Sequence[Any], check: str = "code_check", check_key: str = "correct", judge: str = "judge"
) -> tuple[float | None, int]:
    """α (interval) between a deterministic scorer and the LLM judge over a log's samples, and the units used.

    ``samples`` are ``EvalSample``s scored by both (``-T judge=…``); a sample the judge left unscored is skipped.
    The deterministic value is 0/1 ``correct``, the judge's its ``combined`` score in [0, 1].
    """
    pairs: list[tuple[float, float]] = []
    for sample in samples:
        scores = sample.scores or {}
        a, b = scores.get(check), scores.get(judge)
        if a is None or b is None or not isinstance(a.value, dict) or not isinstance(b.value, dict):
            continue
        x, y = a.value.get(check_key), b.value.get("combined")
        if isinstance(x, int | float) and isinstance(y, int | float) and math.isfinite(x) and math.isfinite(y):
            pairs.append((float(x), float(y)))
    return interval_alpha([[p[0] for p in pairs], [p[1] for p in pairs]]), len(pairs)
