"""Readable Dart from a token list: statements on their own lines, 2-space indentation, long argument lists broken.

Only whitespace is ever inserted between tokens, so the result lexes (and parses) exactly like the tokens joined
minimally; the layout heuristics are cosmetic. A bracket group stays on one line when it fits in ``WIDTH``
columns and holds no block; otherwise each top-level comma-separated item gets its own line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from coonbench.dart.minify import needs_space

WIDTH = 80
INDENT = "  "
_OPEN = {"(": ")", "[": "]", "{": "}"}
# A ``{`` after one of these starts a collection (map/set literal, optional parameters), not a block.
_COLLECTION_PREV = frozenset(
    "= ( , : [ return => const ? ?? > yield async* sync* ... ...? ! ( || && + ==".split()
) | {"{"}
_SPACED = frozenset("= == != => && || ?? += -= *= /= %= ~/= ??= <= >= |= &= ^= <<= >>= >>>=".split())
_ARITH = frozenset("+ - * / % ~/ | & ^ << >> >>>".split())
_KEYWORD_PAREN = frozenset("if for while switch catch on".split())
_AFTER_BLOCK = frozenset("else catch finally on while".split())


@dataclass
class Group:
    """A bracketed run of tokens."""

    open: str
    items: list[str | Group] = field(default_factory=list)
    close: str = ""
    block: bool = False
    _flat: str | None = None
    _hard: bool | None = None


def _tree(tokens: list[str]) -> list[str | Group]:
    root: list[str | Group] = []
    stack: list[list[str | Group]] = [root]
    groups: list[Group] = []
    prev = ""
    for tok in tokens:
        if tok in _OPEN:
            g = Group(tok, block=tok == "{" and prev not in _COLLECTION_PREV)
            stack[-1].append(g)
            stack.append(g.items)
            groups.append(g)
        elif tok in (")", "]", "}") and groups:
            g = groups.pop()
            g.close = tok
            if tok == "}" and not g.block and ";" in g.items:
                g.block = True  # ``class Box<T> {…}``: statements make it a block whatever came before
            stack.pop()
        else:
            stack[-1].append(tok)
        prev = tok
    return root


def _first(item: str | Group) -> str:
    return item.open if isinstance(item, Group) else item


def _last(item: str | Group) -> str:
    return item.close if isinstance(item, Group) else item


def _operand_end(tok: str) -> bool:
    return bool(tok) and (tok[-1].isalnum() or tok[-1] in "_$'\")]") and tok not in _KEYWORDS


_KEYWORDS = frozenset("return case in is as await yield throw new const else do async sync".split())


class _Spacer:
    """Readable spacing between consecutive tokens (never less than ``needs_space`` requires)."""

    @staticmethod
    @lru_cache(maxsize=1 << 16)
    def between(prev: str, prev2: str, nxt: str) -> str:
        if not prev:
            return ""
        if prev.startswith("//"):
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


def _flat(item: str | Group) -> str:
    if isinstance(item, str):
        return item
    if item._flat is None:
        item._flat = item.open + _join_flat(item.items) + item.close
    return item._flat


def _join_flat(items: list[str | Group]) -> str:
    sp = _Spacer()
    out: list[str] = []
    prev = prev2 = ""
    for it in items:
        out.append(sp.between(prev, prev2, _first(it)))
        out.append(_flat(it))
        prev2, prev = prev, _last(it)
    return "".join(out)


def _has_hard_break(item: str | Group) -> bool:
    if isinstance(item, str):
        return item.startswith("//") or ("\n" in item and not item.startswith(("'", '"', "r")))
    if item._hard is None:
        item._hard = item.block or any(_has_hard_break(i) for i in item.items)
    return item._hard


def _render_inline(items: list[str | Group], indent: int) -> str:
    sp = _Spacer()
    out: list[str] = []
    prev = prev2 = ""
    for it in items:
        gap = sp.between(prev, prev2, _first(it))
        out.append("\n" + INDENT * indent if gap == "\n" else gap)
        out.append(_render(it, indent) if isinstance(it, Group) else it)
        prev2, prev = prev, _last(it)
    return "".join(out)


def _split(items: list[str | Group], sep: str) -> list[list[str | Group]]:
    parts: list[list[str | Group]] = [[]]
    for it in items:
        parts[-1].append(it)
        if it == sep:
            parts.append([])
    return [p for p in parts if p]


def _statements(items: list[str | Group]) -> list[list[str | Group]]:
    stmts: list[list[str | Group]] = [[]]
    for k, it in enumerate(items):
        if isinstance(it, str) and it.startswith(("//", "/*")) and not stmts[-1]:
            stmts[-1].append(it)
            stmts.append([])
            continue
        stmts[-1].append(it)
        nxt = items[k + 1] if k + 1 < len(items) else None
        if it == ";":
            stmts.append([])
        elif isinstance(it, Group) and it.block:
            follower = _first(nxt) if nxt is not None else ""
            if follower not in _AFTER_BLOCK and follower not in (")", ",", ";", ".", "?.", "..", "]", ":"):
                stmts.append([])
    return [s for s in stmts if s]


def _render_block_body(items: list[str | Group], indent: int) -> str:
    lines = [INDENT * indent + _render_inline(stmt, indent) for stmt in _statements(items)]
    return "\n".join(lines)


def _render(group: Group, indent: int) -> str:
    if not group.items:
        return group.open + group.close
    if group.block:
        return group.open + "\n" + _render_block_body(group.items, indent + 1) + "\n" + INDENT * indent + group.close
    flat = _flat(group)
    if len(flat) + 2 * indent <= WIDTH and not any(_has_hard_break(i) for i in group.items):
        return flat
    parts = _split(group.items, ",")
    inner = ["\n" + INDENT * (indent + 1) + _render_inline(p, indent + 1) for p in parts]
    return group.open + "".join(inner) + "\n" + INDENT * indent + group.close


def format_dart(tokens: list[str]) -> str:
    """Dart tokens → formatted Dart text ending with a newline."""
    return _render_block_body(_tree(tokens), 0) + "\n"
