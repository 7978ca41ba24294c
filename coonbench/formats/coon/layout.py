"""Readable Dart from a token list: statements on their own lines, 2-space indentation, long argument lists broken.

Only whitespace is ever inserted between tokens, so the result lexes (and parses) exactly like the tokens joined
minimally; the layout heuristics are cosmetic. A bracket group stays on one line when it fits in ``WIDTH``
columns and holds no block; otherwise each top-level comma-separated item gets its own line.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from coonbench.dart.minify import LINE_ENDED, needs_space

WIDTH: Final = 80
INDENT: Final = "  "
_OPEN: Final = {"(": ")", "[": "]", "{": "}"}
_CLOSE: Final = frozenset(_OPEN.values())
# A ``{`` after one of these starts a collection (map/set literal, optional parameters), not a block.
_COLLECTION_PREV: Final = frozenset(
    "= ( , : [ return => const ? ?? > yield async* sync* ... ...? ! ( || && + ==".split()
) | {"{"}
_SPACED: Final = frozenset("= == != => && || ?? += -= *= /= %= ~/= ??= <= >= |= &= ^= <<= >>= >>>=".split())
_ARITH: Final = frozenset("+ - * / % ~/ | & ^ << >> >>>".split())
_KEYWORD_PAREN: Final = frozenset("if for while switch catch on".split())
_AFTER_BLOCK: Final = frozenset("else catch finally on while".split())


class Group:
    """A bracketed run of tokens (a plain class with slots: compiled, a native object)."""

    __slots__ = ("open", "items", "close", "block", "_size", "_hard", "gaps")

    def __init__(self, open: str, block: bool) -> None:
        self.open = open
        self.items: list[str | Group] = []
        self.close = ""
        self.block = block
        self._size = 0
        self._hard = False
        self.gaps: list[str] = []  # the gap before each item, read on one line (``_gaps``)


def _tree(tokens: list[str]) -> tuple[list[str | Group], list[Group]]:
    """The tokens as nested groups: the root's items, and every group in the order it opened (a group before the
    groups inside it: ``_measure`` reads them backwards, innermost first)."""
    root: list[str | Group] = []
    items = root  # the items of the innermost open group (of the root at top level)
    outer: list[list[str | Group]] = []  # the items of the groups around it
    groups: list[Group] = []  # the open groups
    opened: list[Group] = []
    prev = ""
    for tok in tokens:
        bracket = len(tok) == 1  # every bracket is one character: longer tokens are items without a lookup
        if bracket and tok in _OPEN:
            g = Group(tok, tok == "{" and prev not in _COLLECTION_PREV)
            items.append(g)
            outer.append(items)
            items = g.items
            groups.append(g)
            opened.append(g)
        elif bracket and tok in _CLOSE and groups:
            g = groups.pop()
            g.close = tok
            if tok == "}" and not g.block and ";" in g.items:
                g.block = True  # ``class Box<T> {…}``: statements make it a block whatever came before
            items = outer.pop()
        else:
            items.append(tok)
        prev = tok
    return root, opened


def _first(item: str | Group) -> str:
    return item.open if isinstance(item, Group) else item


def _last(item: str | Group) -> str:
    return item.close if isinstance(item, Group) else item


def _operand_end(tok: str) -> bool:
    return bool(tok) and (tok[-1].isalnum() or tok[-1] in "_$'\")]") and tok not in _KEYWORDS


_KEYWORDS: Final = frozenset("return case in is as await yield throw new const else do async sync".split())


class _Spacer:
    """Readable spacing between consecutive tokens (never less than ``needs_space`` requires)."""

    @staticmethod
    def between(prev: str, prev2: str, nxt: str) -> str:
        if not prev:
            return ""
        if prev.startswith(LINE_ENDED):
            return "\n"
        if needs_space(prev, nxt):
            return " "
        if prev in (",", ":", ";") and nxt not in (")", "]", "}", ";"):
            return " "
        if nxt == "{" and prev not in ("(", "[", "{", "$", "!", "@", "."):
            return " "
        if prev in _SPACED or nxt in _SPACED:
            return " "
        if prev in _KEYWORD_PAREN and nxt == "(":
            return " "
        if prev in ("?", ">") and (nxt[0].isalpha() or nxt[0] in "_$"):
            return " "  # ``String? name``, ``List<int> xs``
        if prev == "}" and nxt in _AFTER_BLOCK:
            return " "
        if nxt in _ARITH and _operand_end(prev):
            return " "
        if prev in _ARITH and _operand_end(prev2):
            return " "
        if nxt.startswith(("//", "/*")) or prev.startswith("/*"):
            return " "
        return ""


MAX_INDENT: Final = 40
"""Indentation stops growing after this many levels: 10,000-deep input stays linear in size (layout only)."""


def _pad(indent: int) -> str:
    return INDENT * min(indent, MAX_INDENT)


# prev → nxt → gap, for the gaps that do not depend on the token before prev
_GAPS: Final[dict[str, dict[str, str]]] = {}
_GAPS_MAX: Final = 1 << 16
_GAPS_HELD: Final = [0]  # entries in _GAPS: cleared past _GAPS_MAX, so endless distinct words cannot grow it


def _gap(prev: str, prev2: str, nxt: str) -> str:
    """The gap between ``prev`` and ``nxt`` (``prev2`` before them), looked up in two plain dictionaries: this is
    called for every token of every decoded document. No row is ever made for the ``prev`` that ``_gap_after``
    answers, so the usual gap is found before that test."""
    row = _GAPS.get(prev)
    if row is not None:
        gap = row.get(nxt)
        if gap is not None:
            return gap
    if prev == "]" or prev in _ARITH:
        return _gap_after(prev, prev2, nxt)  # the only gaps that read prev2
    gap = _Spacer.between(prev, prev2, nxt)
    if _GAPS_HELD[0] >= _GAPS_MAX:
        _GAPS.clear()
        _GAPS_HELD[0] = 0
    _GAPS.setdefault(prev, {})[nxt] = gap
    _GAPS_HELD[0] += 1
    return gap


@lru_cache(maxsize=1 << 12)
def _gap_after(prev: str, prev2: str, nxt: str) -> str:
    if prev == "]" and prev2 in ("operator", "#") and nxt == "=":
        return ""  # ``operator []=`` / ``#[]=`` is one operator name: ``[] =`` does not parse
    return _Spacer.between(prev, prev2, nxt)


def _measure(root: list[str | Group], groups: list[Group]) -> list[str]:
    """Fill each group's flat length, hard-break flag and item gaps, innermost first (``groups`` in the order they
    opened, read backwards: no recursion); the root's item gaps are returned. Each gap is worked out once here and
    reused by the layout."""
    for g in reversed(groups):  # the groups inside one opened after it
        g.gaps = _gaps(g.items)
        size = len(g.open) + len(g.close) + sum(map(len, g.gaps))
        hard = g.block
        for it in g.items:
            if type(it) is str:
                size += len(it)
                hard = hard or _hard_token(it)
            else:
                size += it._size  # type: ignore[union-attr]
                hard = hard or bool(it._hard)  # type: ignore[union-attr]
        g._size = size
        g._hard = hard
    return _gaps(root)


def _gaps(items: list[str | Group]) -> list[str]:
    """The gap before each item when the items stand on one line (worked out once, reused by the layout)."""
    gaps: list[str] = []
    prev = prev2 = ""
    for it in items:
        if isinstance(it, str):  # ``_first`` and ``_last`` written out: this runs for every token
            gaps.append(_gap(prev, prev2, it))
            prev2, prev = prev, it
        else:
            gaps.append(_gap(prev, prev2, it.open))
            prev2, prev = prev, it.close
    return gaps


def _hard_token(item: str) -> bool:
    if item[:1] not in "/#" and "\n" not in item:
        return False  # most tokens: neither line-ended nor holding a line break
    return item.startswith(LINE_ENDED) or ("\n" in item and not item.startswith(("'", '"', "r")))


def _flat(group: Group) -> str:
    """A group on one line; only called on groups that fit in ``WIDTH``, so short, and shallow: each level of
    nesting takes at least one of its columns (its opener), so this recurses at most ``WIDTH`` deep (one join per
    group, no stack of pieces)."""
    parts: list[str] = [group.open]
    for gap, sub in zip(group.gaps, group.items):
        parts.append(gap)
        parts.append(sub if type(sub) is str else _flat(sub))  # type: ignore[arg-type]
    parts.append(group.close)
    return "".join(parts)


_Piece = "str | tuple[Group, int]"


def _inline(items: list[str | Group], gaps: list[str], start: int, end: int, indent: int) -> list:
    """``items[start:end]`` on a line of their own: the first has no gap, the second its gap without the item
    before the line, the rest the gaps worked out by ``_measure``."""
    pieces: list = []
    for k in range(start, end):
        it = items[k]
        if k == start:
            gap = ""
        elif k == start + 1:
            gap = _gap(_last(items[start]), "", _first(it))
        else:
            gap = gaps[k]
        pieces.append("\n" + _pad(indent) if gap == "\n" else gap)
        pieces.append(it if type(it) is str else (it, indent))
    return pieces


def _split(items: list[str | Group], sep: str) -> list[tuple[int, int]]:
    """(start, end) of each run of items ending with ``sep`` (or the end)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for k, it in enumerate(items):
        if it == sep:
            spans.append((start, k + 1))
            start = k + 1
    if start < len(items):
        spans.append((start, len(items)))
    return spans


def _statements(items: list[str | Group]) -> list[tuple[int, int]]:
    """(start, end) of each statement: up to a ``;``, a block not continued, or a comment standing alone."""
    spans: list[tuple[int, int]] = []
    start = 0
    n = len(items)
    for k, it in enumerate(items):
        if type(it) is str:
            if k == start and it.startswith(("//", "/*", "#!")):
                spans.append((k, k + 1))
                start = k + 1
            elif it == ";":
                spans.append((start, k + 1))
                start = k + 1
        elif it.block:  # type: ignore[union-attr]
            follower = _first(items[k + 1]) if k + 1 < n else ""
            if follower not in _AFTER_BLOCK and follower not in (")", ",", ";", ".", "?.", "..", "]", ":"):
                spans.append((start, k + 1))
                start = k + 1
    if start < n:
        spans.append((start, n))
    return spans


def _block_body(items: list[str | Group], gaps: list[str], indent: int) -> list:
    pieces: list = []
    for k, (start, end) in enumerate(_statements(items)):
        if k:
            pieces.append("\n")
        pieces.append(_pad(indent))
        pieces.extend(_inline(items, gaps, start, end, indent))
    return pieces


def _expand(group: Group, indent: int) -> list:
    """One level of layout: text, plus (subgroup, indent) pieces still to lay out."""
    if not group.items:
        return [group.open + group.close]
    if group.block:
        return [group.open, "\n", *_block_body(group.items, group.gaps, indent + 1), "\n" + _pad(indent) + group.close]
    if not group._hard and group._size + 2 * min(indent, MAX_INDENT) <= WIDTH:  # _hard: some item breaks the line
        return [_flat(group)]
    pieces: list = [group.open]
    for start, end in _split(group.items, ","):
        pieces.append("\n" + _pad(indent + 1))
        pieces.extend(_inline(group.items, group.gaps, start, end, indent + 1))
    pieces.append("\n" + _pad(indent) + group.close)
    return pieces


def format_dart(tokens: list[str]) -> str:
    """Dart tokens → formatted Dart text ending with a newline (an explicit stack: any nesting depth)."""
    root, groups = _tree(tokens)
    gaps = _measure(root, groups)
    out: list[str] = []
    stack = list(reversed(_block_body(root, gaps, 0)))
    while stack:  # list methods called as such: the compiled build calls them directly (not bound, generically)
        piece = stack.pop()
        if type(piece) is str:
            out.append(piece)
        else:
            group, indent = piece
            stack.extend(reversed(_expand(group, indent)))
    return "".join(out) + "\n"
