"""An instruction derived by code from a mined Dart edit's two sides (``Language.derived_instruction``).

It reads the difference of the two programs' code tokens (tree-sitter leaves, comments left out): import
directives added or removed; an expression wrapped in a call (two insertions around it, the first a ``Name(``) or
unwrapped; a labelled argument added to a call; anything else is "insert `new` right after `anchor`", "remove
`old`" or "replace `old` with `new`", the quoted old text widened leftwards until it occurs once, with the method
and class where it happens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import tree_sitter

from coonbench.dart.equivalence import Token, node_text, scan
from coonbench.dart.parse import parse_dart

MAX_QUOTE: Final = 160  # characters of code quoted in a derived instruction


# ------------------------------------------------------------------------------------------ derived instructions


def _quote(text: str) -> str:
    one = " ".join(text.split())
    return one if len(one) <= MAX_QUOTE else ""


def _name_of(node: tree_sitter.Node) -> str | None:
    name = node.child_by_field_name("name")
    return node_text(name) if name is not None else None


def where(node: tree_sitter.Node | None) -> str:
    """"in `build` of `_HomeState`", "in class `Foo`", "in `main`" or "at the top level"."""
    member: str | None = None
    owner: str | None = None
    p = node
    while p is not None:
        if p.type == "function_body" and member is None:
            sig = p.prev_named_sibling
            while sig is not None and sig.type not in ("method_signature", "function_signature"):
                sig = sig.prev_named_sibling
            if sig is not None:
                inner = sig.named_children[0] if sig.type == "method_signature" and sig.named_children else sig
                member = _name_of(inner)
        if p.type in ("class_definition", "mixin_declaration", "extension_declaration", "enum_declaration"):
            owner = owner or _name_of(p)
        p = p.parent
    if member and owner:
        return f"in `{member}` of `{owner}`"
    if member:
        return f"in `{member}`"
    return f"in class `{owner}`" if owner else "at the top level"


def _enclosing_call(tokens: Sequence[Token], at: int) -> str | None:
    """The name before the nearest unclosed ``(`` left of token ``at``."""
    depth = 0
    for i in range(min(at, len(tokens)) - 1, -1, -1):
        text = tokens[i].text
        if text in (")", "]", "}"):
            depth += 1
        elif text in ("(", "[", "{"):
            if depth == 0:
                if text != "(":
                    return None
                j = i - 1
                while j >= 0 and tokens[j].text in (">",):  # Foo<T>(…)
                    j -= 1
                prev = tokens[j] if j >= 0 else None
                return prev.text if prev is not None and prev.type in ("identifier", "type_identifier") else None
            depth -= 1
    return None


def _import_lines(source: str) -> list[str]:
    root = parse_dart(source).root_node
    return [" ".join(node_text(c).split()) for c in root.named_children if c.type in ("import_or_export", "library_import")]


def _import_change(before: str, after: str) -> str | None:
    """"Add `import …;`; remove `import …;`" when only import directives change."""
    old, new = _import_lines(before), _import_lines(after)
    parts = [f"add `{t}`" for t in new if t not in old] + [f"remove `{t}`" for t in old if t not in new]
    if not parts or len(parts) > 3 or not all(_quote(p) for p in parts):
        return None
    return "In the imports, " + "; ".join(parts) + "."


def _imports(tokens: Sequence[Token], lo: int, hi: int) -> bool:
    """True when tokens ``lo..hi`` all lie in import directives."""
    for t in tokens[lo:hi]:
        p: tree_sitter.Node | None = t.node
        while p is not None and p.type not in ("import_or_export", "library_import"):
            p = p.parent
        if p is None:
            return False
    return True


def _text(source: bytes, tokens: Sequence[Token], lo: int, hi: int) -> str:
    if lo >= hi:
        return ""
    return source[tokens[lo].node.start_byte : tokens[hi - 1].node.end_byte].decode("utf-8", "replace")


def _occurrences(texts: list[str], run: list[str]) -> int:
    k = len(run)
    first = run[0]
    return sum(1 for i, t in enumerate(texts) if t == first and texts[i : i + k] == run)


def _unique_start(texts: list[str], start: int, end: int, most: int = 12) -> int:
    """The largest ``lo <= start`` (at most ``most`` tokens further left) such that ``texts[lo:end]`` occurs once
    in ``texts``; -1 when none does."""
    for lo in range(start, max(-1, start - most - 1), -1):
        if lo < end and _occurrences(texts, texts[lo:end]) == 1:
            return lo
    return -1


def _unique_end(texts: list[str], start: int, most: int = 12) -> int:
    """The smallest ``hi`` such that ``texts[start:hi]`` occurs once; -1 when none within ``most`` tokens."""
    for hi in range(start + 1, min(len(texts), start + most) + 1):
        if _occurrences(texts, texts[start:hi]) == 1:
            return hi
    return -1


def _place(node: tree_sitter.Node) -> str:
    text = where(node)
    return text[:1].upper() + text[1:]


class _Sides:
    """The two programs' code tokens and bytes."""

    def __init__(self, before: str, after: str) -> None:
        self.a_src, self.b_src = before.encode("utf-8"), after.encode("utf-8")
        self.a = scan(parse_dart(before).root_node, shape_too=False).code
        self.b = scan(parse_dart(after).root_node, shape_too=False).code
        self.ta, self.tb = [t.text for t in self.a], [t.text for t in self.b]

    def old(self, lo: int, hi: int) -> str:
        return _text(self.a_src, self.a, lo, hi)

    def new(self, lo: int, hi: int) -> str:
        return _text(self.b_src, self.b, lo, hi)


def derived_instruction(before: str, after: str) -> str | None:
    """An instruction read off the tree difference of two parsing programs, or None when the change is too big
    to quote (``MAX_QUOTE``) or cannot be anchored to a unique place."""
    from difflib import SequenceMatcher

    s = _Sides(before, after)
    ops = [op for op in SequenceMatcher(None, s.ta, s.tb, autojunk=False).get_opcodes() if op[0] != "equal"]
    if not ops:
        return None
    first, last = ops[0], ops[-1]
    if all(_imports(s.a, i1, i2) and _imports(s.b, j1, j2) for _, i1, i2, j1, j2 in ops):
        return _import_change(before, after)
    if len(ops) == 2 and all(op[0] == "insert" for op in ops):
        return _wrap(s, first, last)
    if len(ops) == 2 and all(op[0] == "delete" for op in ops):
        return _unwrap(s, first, last)
    return _replace(s, first[1], last[2], first[3], last[4])


def _wrap(s: _Sides, first: tuple, last: tuple) -> str | None:
    """Two insertions around a kept expression, the first a call head ``Padding(``: a wrap."""
    (_, i1, _, j1, j2), (_, i3, _, j3, j4) = first, last
    if len(s.tb) < j1 + 2 or s.tb[j1 + 1] not in ("(", "<") or not s.tb[j1][:1].isupper() or i3 <= i1:
        return _replace(s, i1, i3, j1, j4)
    prefix, suffix = _quote(s.new(j1, j2)), _quote(s.new(j3, j4))
    target = _target(s, i1, i3)
    if not prefix or not suffix or target is None:
        return None
    return f"{_place(s.a[i1].node)}, wrap {target} in `{prefix} … {suffix}`."


def _target(s: _Sides, i1: int, i2: int) -> str | None:
    """How to name the expression of tokens ``i1..i2`` of the first program: quoted whole when short and unique,
    else by its unique first tokens."""
    whole = _quote(s.old(i1, i2))
    if whole and _occurrences(s.ta, s.ta[i1:i2]) == 1:
        return f"`{whole}`"
    hi = _unique_end(s.ta, i1)
    if hi < 0 or hi > i2:
        return None
    return f"the `{s.ta[i1]}` expression that starts with `{_quote(s.old(i1, hi))}`"


def _unwrap(s: _Sides, first: tuple, last: tuple) -> str | None:
    """Two deletions around a kept expression, the first a call head: an unwrap."""
    (_, i1, i2, j1, _), (_, i3, i4, _, j4) = first, last
    removed, closing = _quote(s.old(i1, i2)), _quote(s.old(i3, i4))
    target = _target(s, i2, i3)
    if not removed or not closing or not s.ta[i1][:1].isupper() or target is None:
        return _replace(s, i1, i4, j1, j4)
    return f"{_place(s.a[i1].node)}, remove the wrapper `{removed} … {closing}` around {target}, keeping {target}."


def _replace(s: _Sides, i1: int, i2: int, j1: int, j2: int) -> str | None:
    """Replace tokens ``i1..i2`` of the first by ``j1..j2`` of the second (an insertion when ``i1 == i2``),
    quoting the old text widened leftwards until it occurs once."""
    if i2 == i1:
        lo = _unique_start(s.ta, i1 - 1, i1)
        anchor, added = (_quote(s.old(lo, i1)), _quote(s.new(j1, j2))) if lo >= 0 else ("", "")
        if not anchor or not added:
            return None
        call = _enclosing_call(s.a, i1)
        label = s.tb[j1 + 1] if s.tb[j1] == "," and j1 + 2 < len(s.tb) else s.tb[j1]
        labelled = s.tb[j1 + 1 : j1 + 3] if s.tb[j1] == "," else s.tb[j1 : j1 + 2]
        what = f"add the argument `{label}:` to the `{call}` call: " if call and labelled[-1:] == [":"] else ""
        return f"{_place(s.b[j1].node)}, {what}insert `{added}` right after `{anchor}`."
    lo = _unique_start(s.ta, i1, i2)
    if lo < 0:
        return None
    old, new = s.old(lo, i2), s.new(j1 - (i1 - lo), j2)
    old_q, new_q = _quote(old), _quote(new)
    if not old_q or (new and not new_q):
        return None
    place = _place(s.a[lo].node)
    return f"{place}, remove `{old_q}`." if not new else f"{place}, replace `{old_q}` with `{new_q}`."
