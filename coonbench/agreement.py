"""Agreement between judges: Krippendorff's α (interval level) via the ``krippendorff`` package.

Why a helper: α is undefined for some inputs (one judge, no unit rated by two judges, every rating identical), where
the package raises or returns NaN; callers want "no figure" (``None``) there rather than an exception in a metric.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import krippendorff
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
        alpha = float(krippendorff.alpha(reliability_data=data, level_of_measurement="interval"))
    except ValueError:
        return None
    return alpha if math.isfinite(alpha) else None
