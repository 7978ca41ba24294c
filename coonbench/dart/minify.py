"""Minified Dart: the tree-sitter token stream joined with the fewest separators that keep it lexing the same.

Comments and insignificant whitespace go; string literals (and everything else) stay verbatim. ``join_tokens`` is
shared with the COON codec, which must put the same tokens back together. ``minify`` checks its output with Dart's
own lexical rules (``scan``): the minified text has the source's tokens, or it raises instead of returning it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from coonbench.dart.annotations import detached_names
from coonbench.dart.parse import DartParseError, parse_unit
from coonbench.dart.query import unit_tokens
from coonbench.dart.scan import DartScanError, first_difference, line_column

# Dart operators and punctuators of two or more characters (longest match decides how text lexes).
DART_OPERATORS: Final[tuple[str, ...]] = tuple(
    sorted(
        """>>>= >>= <<= ~/= ??= ...? ... >>> >> << ~/ ?? ?.. ?. .. => == != <= >= && || ++ -- += -= *= /= %= &= |= ^=
        """.split(),
        key=len,
        reverse=True,
    )
)
OPERATOR_CHARS: Final = frozenset("+-*/%<>=!&|^~?.:@#")
LINE_ENDED: Final = ("//", "#!")
"""Tokens that run to the end of their line (a line comment, the script tag): a newline follows them."""


def _word(ch: str) -> bool:
    return ch.isalnum() or ch in "_$"


def operator_prefix(text: str) -> int:
    """Length of the operator/punctuator at the start of ``text`` (longest match; 1 for any other character)."""
    for op in DART_OPERATORS:
        if text.startswith(op):
            return len(op)
    return 1 if text else 0


_INERT: Final = frozenset("()[]{},;")
"""Punctuation that no rule below glues to anything: next to one of these no space is ever needed."""


def needs_space(prev: str, nxt: str) -> bool:
    """Whether ``prev`` and ``nxt`` would lex differently written without whitespace between them."""
    if not prev or not nxt:
        return False
    if prev.startswith(LINE_ENDED):
        return True  # handled as a newline by join_tokens
    return space_between(prev, nxt)


def space_between(prev: str, nxt: str) -> bool:
    """``needs_space`` of two tokens, neither empty, the first not running to the end of its line (the joiners have
    made those tests already)."""
    if prev in _INERT or nxt[0] in _INERT:
        return False  # four tokens in ten: answered before the rules
    return _needs_space(prev, nxt)


_ASCII_WORD: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$")


def _word_char(ch: str) -> bool:
    """``_word`` with the ASCII answer read from a set (most characters are ASCII)."""
    return ch in _ASCII_WORD or (ch > "\x7f" and ch.isalnum())


def _needs_space(prev: str, nxt: str) -> bool:
    a, b = prev[-1], nxt[0]
    if _word_char(a):
        if _word_char(b) or b == "'" or b == '"':
            return True  # identifiers/keywords/numbers run together; ``r'x'`` would become a raw string
    elif (a == "'" or a == '"') and (b == "'" or b == '"'):
        return True
    if b == "." and (prev[0].isdigit() or (prev[0] == "." and len(prev) > 1 and prev[1].isdigit())):
        return True  # ``1 .toString()``
    if a == "." and b.isdigit():
        return True
    if a == "/" and (b == "/" or b == "*"):
        return True
    if a in OPERATOR_CHARS and b in OPERATOR_CHARS:
        tail = prev[-3:] if all(c in OPERATOR_CHARS for c in prev[-3:]) else prev[-1:]
        return _operators_glue(tail, nxt[:4])
    return False


@lru_cache(maxsize=1 << 12)
def _operators_glue(tail: str, head: str) -> bool:
    """Whether the operator characters ending one token (``tail``) and starting the next (``head``, enough of it
    for the longest operator) would lex differently written together."""
    return operator_prefix(tail + head) != len(tail) if operator_prefix(tail) == len(tail) else True


def join_tokens(tokens: Iterable[str]) -> str:
    """Concatenate tokens, inserting a space only where needed and a newline after a line comment."""
    out: list[str] = []
    prev = ""
    for tok in tokens:
        if not prev:
            pass
        elif prev[0] in "/#" and prev.startswith(LINE_ENDED):
            out.append("\n")
        elif tok and space_between(prev, tok):
            out.append(" ")
        out.append(tok)
        prev = tok
    if prev.startswith(LINE_ENDED):
        out.append("\n")
    return "".join(out)


def merge_closers(tokens: Iterable[str]) -> list[str]:
    """``List<List<int> >`` → ``List<List<int>>``: the grammar gives each closing ``>`` of type arguments as its own
    token (a shift operator is one token), and Dart's own spelling joins them; kept apart they would need a space."""
    out: list[str] = []
    for tok in tokens:
        if tok in (">", ">>") and out and out[-1] in (">", ">>") and len(out[-1]) + len(tok) <= 3:
            out[-1] += tok  # tree-sitter may give ``>>>`` closing three lists as ``>``, ``>>``
        else:
            out.append(tok)
    return out


def minify(source: str, *, keep_comments: bool = False) -> str:
    """Dart without comments (unless kept) or insignificant whitespace; AST-equivalent to ``source`` (the space in
    ``@override (int, int) get pair`` is significant, see ``annotations``, and kept)."""
    unit = parse_unit(source)
    detached = detached_names(unit)
    texts = [t.text + " " if t.node.end_byte in detached else t.text for t in unit_tokens(unit, comments=keep_comments)]
    out = join_tokens(merge_closers(texts))
    try:
        found = first_difference(source, out, comments=keep_comments)
    except DartScanError as err:
        raise DartParseError(f"its tokens cannot be read ({err})", 1, 1) from None
    if found is not None:
        offset, want, got = found
        raise DartParseError(f"minified, {want!r} would read as {got!r}", *line_column(source, offset))
    return out
