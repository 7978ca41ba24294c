"""The one comparison of decoded data values: where a round trip came back different, if anywhere.

Why one: every lossless data format checks its own encode by decoding it (TOON, markdown), the tests compare
decoded values against the source, and the writing task grades a model's document against its case; two
spellings of "equal" would let a format pass one and fail the other. Iterative, so a deeply nested value cannot
overflow the stack.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

DifferenceKind = Literal["missing key", "unexpected key", "key order", "item count", "type", "value"]


@dataclass(frozen=True)
class Difference:
    """Where ``b`` first differs from ``a``, what kind of difference it is, and the message naming both values."""

    path: str
    kind: DifferenceKind
    message: str


def _numbers_differ(x: int | float, y: int | float, by_value: bool) -> bool:
    if by_value:
        return bool(x != y)
    if type(x) is not type(y):
        return True
    if isinstance(x, float):
        return repr(x) != repr(y) or math.copysign(1, x) != math.copysign(1, y)
    return bool(x != y)


def _keys_kind(x: dict[Any, Any], y: dict[Any, Any]) -> tuple[DifferenceKind, Any]:
    missing = next((k for k in x if k not in y), None)
    if missing is not None:
        return "missing key", missing
    extra = next((k for k in y if k not in x), None)
    return ("unexpected key", extra) if extra is not None else ("key order", None)


def locate_difference(
    a: Any, b: Any, *, numbers_by_value: bool = True, key_order: bool = True, path: str = "$"
) -> Difference | None:
    """The first place, in document order, where ``b`` differs from ``a`` (see ``first_difference``), or None when
    they are the same value.
    A missing or unexpected key is reported at the object's path with the key (``$.users[0]``, key ``email``)."""
    stack = [(a, b, path)]
    while stack:
        x, y, where = stack.pop()
        if isinstance(x, dict) and isinstance(y, dict):
            same_keys = list(x) == list(y) if key_order else x.keys() == y.keys()
            if not same_keys:
                kind, key = _keys_kind(x, y)
                at = where if key is None else f"{where}.{key}"
                return Difference(at, kind, f"{where}: keys {list(x)[:6]} come back as {list(y)[:6]}")
            stack.extend((x[k], y[k], f"{where}.{k}") for k in reversed(list(x)))  # popped in document order
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return Difference(where, "item count", f"{where}: {len(x)} items come back as {len(y)}")
            stack.extend((u, v, f"{where}[{i}]") for i, (u, v) in reversed(list(enumerate(zip(x, y)))))
        elif isinstance(x, bool) or isinstance(y, bool):
            if x is not y:
                kind: DifferenceKind = "value" if isinstance(x, bool) and isinstance(y, bool) else "type"
                return Difference(where, kind, f"{where}: {x!r} comes back as {y!r}")
        elif isinstance(x, (int, float)) and isinstance(y, (int, float)):
            if _numbers_differ(x, y, numbers_by_value):
                kind = "type" if type(x) is not type(y) and x == y else "value"
                return Difference(where, kind, f"{where}: {x!r} comes back as {y!r}")
        elif type(x) is not type(y) or x != y:
            return Difference(where, "type" if type(x) is not type(y) else "value",
                              f"{where}: {x!r:.40} comes back as {y!r:.40}")
    return None


def first_difference(
    a: Any, b: Any, *, numbers_by_value: bool = True, key_order: bool = True, path: str = "$"
) -> str | None:
    """Where ``b`` differs from ``a`` (``$.key[3]: 1 comes back as 2``), or None when they are the same value.

    ``numbers_by_value``: ``1.0`` equals ``1`` (formats that canonicalise numbers, as TOON does); otherwise a number
    must come back with its type and spelling (``-0.0`` is not ``0.0``). ``key_order``: objects must keep the order
    of their keys. Booleans are never numbers.
    """
    found = locate_difference(a, b, numbers_by_value=numbers_by_value, key_order=key_order, path=path)
    return None if found is None else found.message
