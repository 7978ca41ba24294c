"""Dart string literals: where one ends (raw, triple-quoted, ``${…}`` interpolation) and the parts of an adjacent run.

tree-sitter-dart makes ``'a' 'b'`` ONE ``string_literal`` node whose text includes the whitespace between the
parts, so comparing such nodes must compare the parts, not the raw text.
"""

from __future__ import annotations


def _word(ch: str) -> bool:
    return ch.isalnum() or ch in "_$"


def is_string_start(text: str, i: int) -> bool:
    """Whether a string literal (optionally ``r``-prefixed) starts at ``i``."""
    ch = text[i : i + 1]
    if ch in ("'", '"'):
        return True
    return ch in ("r", "R") and text[i + 1 : i + 2] in ("'", '"') and not (i > 0 and _word(text[i - 1]))


def string_end(text: str, i: int) -> int | None:
    """End offset of the string literal starting at ``i``, or None when it is unterminated."""
    raw = text[i] in "rR"
    if raw:
        i += 1
    quote = text[i]
    delim = quote * 3 if text.startswith(quote * 3, i) else quote
    j = i + len(delim)
    while j < len(text):
        if text.startswith(delim, j):
            return j + len(delim)
        ch = text[j]
        if ch == "\n" and len(delim) == 1:
            return None
        if ch == "\\" and not raw:
            j += 2
            continue
        if ch == "$" and not raw and text.startswith("{", j + 1):
            end = _interpolation_end(text, j + 2)
            if end is None:
                return None
            j = end
            continue
        j += 1
    return None


def _interpolation_end(text: str, j: int) -> int | None:
    depth = 1
    while j < len(text):
        if is_string_start(text, j):
            end = string_end(text, j)
            if end is None:
                return None
            j = end
            continue
        ch = text[j]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return j + 1
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
