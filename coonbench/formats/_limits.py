"""Bounds that keep every data format's decode and encode inside its contract on hostile input.

Why: decoders meet model output and user files. Without bounds, 10,000 nested brackets overflow Python's
stack (``RecursionError``), a 5,000-digit integer trips Python's int-conversion limit (``ValueError``), deep
YAML flow collections make PyYAML's scanner quadratic, and a pure-Python parser needs seconds on a 5 MB
document. Each bound below turns such input into a ``FormatError`` that says what limit was hit and, where
the text allows, on which line — the one documented error of a format.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from coonbench.formats.base import FormatError

MAX_DEPTH = 200
"""Deepest nesting of arrays/objects a data format encodes or decodes (real data sets stay below 10)."""

_INT_DIGITS = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300
# Bits above which an int may have more decimal digits than Python converts (log2(10) ≈ 3.32 bits a digit).
_INT_BITS = int(_INT_DIGITS * 3.32)


def position(text: str, index: int) -> tuple[int, int]:
    """1-based (line, column) of ``text[index]``."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def check_size(text: str, limit: int, fmt: str) -> None:
    """FormatError when ``text`` is longer than a format's documented ``max_chars``."""
    if len(text) > limit:
        raise FormatError(f"document too large for {fmt}: {len(text):,} characters (limit {limit:,}, so that "
                          "one document decodes in well under a second)", expected=f"at most {limit:,} characters")


def check_value(value: Any, fmt: str, max_depth: int = MAX_DEPTH) -> None:
    """FormatError when a JSON value nests deeper than ``max_depth`` or holds an int Python cannot write.

    Iterative, so the check itself cannot overflow the stack; encoders call it before they recurse.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        t = type(v)
        if t is list or t is dict:
            if depth >= max_depth:
                raise FormatError(f"cannot encode as {fmt}: value nested deeper than {max_depth} levels",
                                  expected=f"at most {max_depth} levels of arrays/objects")
            items = v.values() if t is dict else v
            stack.extend((x, depth + 1) for x in items if type(x) in (list, dict, int))
        elif t is int and v.bit_length() > _INT_BITS:
            try:
                str(v)
            except ValueError:
                raise FormatError(f"cannot encode as {fmt}: an integer with more than {_INT_DIGITS} digits",
                                  expected=f"integers of at most {_INT_DIGITS} digits") from None


def too_long_int(digits: str, line: int | None = None, column: int | None = None) -> FormatError:
    """The error for an integer literal longer than Python converts."""
    n = f"{len(digits.lstrip('+-')):,} digits" if digits else f"more than {_INT_DIGITS} digits"
    return FormatError(f"integer literal of {n} (limit {_INT_DIGITS})", line,
                       column, expected=f"an integer of at most {_INT_DIGITS} digits")


_DIGITS_RE = re.compile(r"[-+]?[0-9]+")


def long_int_error(text: str) -> FormatError:
    """The error for the first integer literal in ``text`` longer than Python converts (linear scan)."""
    for m in _DIGITS_RE.finditer(text):
        if len(m.group()) - (m.group()[0] in "+-") > _INT_DIGITS:
            return too_long_int(m.group(), *position(text, m.start()))
    return too_long_int("", None, None)


def too_deep(text: str | None, index: int | None, max_depth: int = MAX_DEPTH) -> FormatError:
    """The error for nesting past ``max_depth``, positioned when the offending index is known."""
    line, col = position(text, index) if text is not None and index is not None else (None, None)
    return FormatError(f"nesting deeper than {max_depth} levels", line, col,
                       expected=f"at most {max_depth} levels of arrays/objects")


# JSON: strings (whose brackets do not count) and brackets. Each alternative inside the star is one character
# or one escape, so matching is linear.
_JSON_TOKEN_RE = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)
# YAML: quoted scalars, comments, and brackets; brackets count only where a flow collection can start.
_YAML_TOKEN_RE = re.compile(r'"(?:[^"\\]|\\.)*"?|\'(?:[^\']|\'\')*\'?|#[^\n]*|[\[\]{}]', re.DOTALL)
_YAML_NODE_START = frozenset(":-,[{?\n")


def json_depth_index(text: str, max_depth: int = MAX_DEPTH) -> int | None:
    """Index of the first bracket that opens level ``max_depth + 1`` outside strings, or None."""
    depth = 0
    for m in _JSON_TOKEN_RE.finditer(text):
        c = m.group()
        if c == "[" or c == "{":
            depth += 1
            if depth > max_depth:
                return m.start()
        elif c == "]" or c == "}":
            depth = max(0, depth - 1)
    return None


def _at_node_start(text: str, index: int) -> bool:
    """Whether a YAML node can start at ``index``: line start, or after ``: - , [ { ?`` and blanks."""
    i = index - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i < 0 or text[i] in _YAML_NODE_START


def yaml_flow_depth_index(text: str, max_depth: int = MAX_DEPTH) -> int | None:
    """Index of the first YAML flow opener at level ``max_depth + 1``, or None.

    Brackets and quotes count only where a node can start, so ``a: x[1]`` or ``don't`` in a plain scalar do
    not; ``#`` starts a comment only after a blank. Conservative where it errs: it may count a bracket the
    YAML parser would not, never skip one it would nest on.
    """
    depth = 0
    pos = 0
    search = _YAML_TOKEN_RE.search
    while True:
        m = search(text, pos)
        if m is None:
            return None
        c = m.group()
        start = m.start()
        first = c[0]
        if first in "\"'" and not _at_node_start(text, start):
            pos = start + 1  # an apostrophe or quote inside a plain scalar
            continue
        if first == "#" and start and text[start - 1] not in " \t\n":
            pos = start + 1  # '#' inside a plain scalar is not a comment
            continue
        pos = m.end()
        if c == "[" or c == "{":
            if _at_node_start(text, start):
                depth += 1
                if depth > max_depth:
                    return start
        elif c == "]" or c == "}":
            depth = max(0, depth - 1)
