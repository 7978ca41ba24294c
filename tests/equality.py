"""Equality of decoded JSON values for the format tests, written apart from ``coonbench.formats._compare`` so the
round-trip tests do not check the formats against their own comparison."""

from __future__ import annotations

import math
from typing import Any


def strict_equal(a: Any, b: Any, *, key_order: bool = True) -> bool:
    """JSON equality that tells 1 from 1.0, True from 1 and -0.0 from 0.0; key order counts unless ``key_order``
    is False (TeaLeaf table rows follow their struct's field order)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        same_keys = list(a) == list(b) if key_order else a.keys() == b.keys()
        return same_keys and all(strict_equal(a[k], b[k], key_order=key_order) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(strict_equal(x, y, key_order=key_order) for x, y in zip(a, b))
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return bool(a == b)
