"""Dart string literals: where one ends (raw, triple-quoted, ``${…}`` interpolation) and the parts of an adjacent run.

tree-sitter-dart makes ``'a' 'b'`` ONE ``string_literal`` node whose text includes the whitespace between the
parts, so comparing such nodes must compare the parts, not the raw text.
"""

from __future__ import annotations

import re
from typing import Final


def _word(ch: str) -> bool:
    return ch.isalnum() or ch in "_$"


def is_string_start(text: str, i: int) -> bool:
    """Whether a string literal (optionally ``r``-prefixed) starts at ``i``."""
    ch = text[i : i + 1]
    if ch in ("'", '"'):
        return True
    return ch in ("r", "R") and text[i + 1 : i + 2] in ("'", '"') and not (i > 0 and _word(text[i - 1]))


def _open_string(text: str, i: int) -> tuple[bool, str, int]:
    """(raw, closing delimiter, offset after the opening quote(s)) of the string literal starting at ``i``."""
    raw = text[i] in "rR"
    if raw:
        i += 1
    quote = text[i]
    delim = quote * 3 if text.startswith(quote * 3, i) else quote
    return raw, delim, i + len(delim)


# Inside a string only these characters can matter (its quote, a newline, and unless raw an escape or ``$``):
# the scan jumps from one to the next.
_STOPS: Final = {
    (quote, raw): re.compile("[" + re.escape(quote) + "\n" + ("" if raw else "\\\\$") + "]")
    for quote in ("'", '"')
    for raw in (False, True)
}


_SIMPLE: Final = re.compile(
    "|".join(
        f"{raw}{q}(?!{q}{q})[^{q}{stops}\\n]*{q}" for q in ("'", '"') for raw, stops in (("", "\\\\$"), ("[rR]", ""))
    )
)
"""A string literal on one line with no escape or interpolation (``'…'``, ``r"…"``; a triple quote opens none): most
literals, read by one match instead of the scan below (which would end them at the same quote)."""


def string_end(text: str, i: int) -> int | None:
    """End offset of the string literal starting at ``i``, or None when it is unterminated.

    ``${…}`` interpolations (with nested strings and comments) are followed on an explicit stack of open strings
    and interpolations, so 10,000 nested ``'${`` cannot hit Python's recursion limit.
    """
    simple = _SIMPLE.match(text, i)
    if simple is not None:
        return simple.end()
    raw, delim, j = _open_string(text, i)
    # Frames: [raw, delim] for an open string, [None, depth] for an open interpolation.
    stack: list[list] = [[raw, delim]]
    n = len(text)
    while j < n:
        top = stack[-1]
        if top[0] is not None:  # inside a string
            raw, delim = top
            stop = _STOPS[delim[0], raw].search(text, j)
            if stop is None:
                return None  # never closed
            j = stop.start()
            if text.startswith(delim, j):
                stack.pop()
                j += len(delim)
                if not stack:
                    return j
                continue
            ch = text[j]
            if ch == "\n" and len(delim) == 1:
                return None
            if ch == "\\" and not raw:
                j += 2
            elif ch == "$" and not raw and text.startswith("{", j + 1):
                stack.append([None, 1])
                j += 2
            else:
                j += 1
            continue
        # inside an interpolation: nested strings and comments (a quote in a comment is not a string) skipped
        if text.startswith("//", j):
            nl = text.find("\n", j)
            if nl < 0:
                return None
            j = nl
        elif text.startswith("/*", j):
            close = block_comment_end(text, j)
            if close is None:
                return None
            j = close
        elif is_string_start(text, j):
            raw, delim, j = _open_string(text, j)
            stack.append([raw, delim])
        elif text[j] == "{":
            top[1] += 1
            j += 1
        elif text[j] == "}":
            top[1] -= 1
            j += 1
            if top[1] == 0:
                stack.pop()
        else:
            j += 1
    return None


def block_comment_end(text: str, i: int) -> int | None:
    """End of the (nesting) block comment starting at ``i``, or None when unterminated."""
    depth, j = 1, i + 2
    while j < len(text):
        if text.startswith("/*", j):
            depth, j = depth + 1, j + 2
        elif text.startswith("*/", j):
            depth, j = depth - 1, j + 2
            if depth == 0:
                return j
        else:
            j += 1
    return None


def string_parts(text: str) -> list[str]:
    """The literals of an adjacent-string run (``'a' "b"`` → ``["'a'", '"b"']``); whitespace/comments dropped."""
    parts: list[str] = []
    i = 0
    while i < len(text):
        if is_string_start(text, i):
            end = string_end(text, i)
            if end is None:
                parts.append(text[i:])
                break
            parts.append(text[i:end])
            i = end
        elif text.startswith("//", i):
            nl = text.find("\n", i)
            i = len(text) if nl < 0 else nl
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = len(text) if close < 0 else close + 2
        else:
            i += 1
    return parts
