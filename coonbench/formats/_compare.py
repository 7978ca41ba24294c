"""The one comparison of decoded data values: where a round trip came back different, if anywhere.

Why one: every lossless data format checks its own encode by decoding it (TOON, markdown), and the tests compare
decoded values against the source; two spellings of "equal" would let a format pass one and fail the other.
Iterative, so a deeply nested value cannot overflow the stack.
"""

from __future__ import annotations

import math
from typing import Any


def _numbers_differ(x: int | float, y: int | float, by_value: bool) -> bool:
    if by_value:
        return bool(x != y)
    if type(x) is not type(y):
        return True
    if isinstance(x, float):
        return repr(x) != repr(y) or math.copysign(1, x) != math.copysign(1, y)
    return bool(x != y)


def first_difference(
    a: Any, b: Any, *, numbers_by_value: bool = True, key_order: bool = True, path: str = "$"
) -> str | None:
    """Where ``b`` differs from ``a`` (``$.key[3]: 1 comes back as 2``), or None when they are the same value.

    ``numbers_by_value``: ``1.0`` equals ``1`` (formats that canonicalise numbers, as TOON does); otherwise a number
    must come back with its type and spelling (``-0.0`` is not ``0.0``). ``key_order``: objects must keep the order
    of their keys. Booleans are never numbers.
    """
    stack = [(a, b, path)]
    while stack:
        x, y, where = stack.pop()
        if isinstance(x, dict) and isinstance(y, dict):
            same_keys = list(x) == list(y) if key_order else x.keys() == y.keys()
            if not same_keys:
                return f"{where}: keys {list(x)[:6]} come back as {list(y)[:6]}"
            stack.extend((x[k], y[k], f"{where}.{k}") for k in x)
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return f"{where}: {len(x)} items come back as {len(y)}"
            stack.extend((u, v, f"{where}[{i}]") for i, (u, v) in enumerate(zip(x, y)))
        elif isinstance(x, bool) or isinstance(y, bool):
            if x is not y:
                return f"{where}: {x!r} comes back as {y!r}"
        elif isinstance(x, (int, float)) and isinstance(y, (int, float)):
            if _numbers_differ(x, y, numbers_by_value):
                return f"{where}: {x!r} comes back as {y!r}"
        elif type(x) is not type(y) or x != y:
            return f"{where}: {x!r:.40} comes back as {y!r:.40}"
    return None
