"""What the generation task needs of a Dart program: the part a completion removes, and the requirements a
description of the program lists (``coonbench.languages.dart`` offers both through the language seam).

- The hole: the largest describable widget subtree (≤ ``MAX_HOLE_WIDGETS`` widgets) of the main build method,
  with an English description generated from the subtree itself (type, shown text, every argument in source
  order), so that it determines the subtree; several equal ones are chosen between by a stable hash of the id.
- The requirements: class and superclass, widgets with their texts, literal properties and an ancestor,
  ``setState`` in callbacks (``coonbench.dart.requirements``), those the program meets, at most
  ``MAX_NL_REQUIREMENTS``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from typing import TypeVar

import tree_sitter

from coonbench.dart.query import node_text
from coonbench.dart.requirements import (
    CallbackCallRequirement,
    ClassRequirement,
    PropertyCheck,
    Requirement,
    WidgetRequirement,
    article,
    call_span,
    check_requirements,
    expression_tokens,
    widget_text,
)
from coonbench.dart.widgets import WidgetCall, WidgetClass, value_nodes, widget_classes

MAX_HOLE_WIDGETS = 4
MAX_NL_REQUIREMENTS = 6

T = TypeVar("T")


def stable_pick(items: Sequence[T], *key: str) -> T:
    """The item a stable hash of ``key`` chooses (Python's hash() is salted per process)."""
    return items[int(hashlib.sha256("\x1f".join(key).encode()).hexdigest()[:12], 16) % len(items)]


def main_class(source: str) -> WidgetClass | None:
    """The first class with a single build root (the sample's widget), or None."""
    return next((c for c in widget_classes(source) if c.build_root is not None), None)


# ----------------------------------------------------------------------------------------------- describing


def simple_value(nodes: list[tree_sitter.Node]) -> bool:
    """A value expression that names nothing local: literals, ``Colors.red``, ``EdgeInsets.all(8)``."""
    tokens = expression_tokens(nodes)
    if not tokens or len(tokens) > 12:
        return False
    for i, tok in enumerate(tokens):
        if (tok[:1].isalpha() or tok[:1] == "_") and not tok[:1].isupper():
            if tok in ("true", "false", "null"):
                continue
            if i > 0 and tokens[i - 1] == ".":
                continue  # member of a capitalised name (Icons.add, FontWeight.bold)
            if i + 1 < len(tokens) and tokens[i + 1] == ":":
                continue  # a label inside a value constructor
            return False
    return True


def _value_text(nodes: list[tree_sitter.Node], source_bytes: bytes) -> str:
    return source_bytes[nodes[0].start_byte : nodes[-1].end_byte].decode("utf-8")


def _is_const(w: WidgetCall) -> bool:
    return w.node.type == "const_object_expression"


def describe_subtree(w: WidgetCall, source_bytes: bytes) -> str | None:
    """English that determines the subtree rooted at ``w`` (None when some argument cannot be described)."""
    parts: list[str] = []
    head = ("a const " if _is_const(w) else article(w.name) + " ") + f"`{w.name}`"
    pos = w.positional_args()
    for arg in pos:
        nodes = arg.named_children
        if not nodes:
            return None
        if w.type_name == "Text" and len(nodes) == 1 and nodes[0].type == "string_literal":
            content = widget_text(w)
            if content is None:
                return None
            parts.append(f"showing the text '{content}'")
        elif simple_value(nodes):
            parts.append(f"with the positional argument `{_value_text(nodes, source_bytes)}`")
        else:
            return None
    children = {c.node.id: c for c in w.children}
    for label, arg in w.named_args().items():
        nodes = value_nodes(arg)
        if not nodes:
            return None
        kids = [c for c in w.children if c.slot == label]
        if len(kids) == 1 and not kids[0].in_list and not kids[0].dynamic and kids[0].node.id == nodes[0].id:
            inner = describe_subtree(kids[0], source_bytes)
            if inner is None:
                return None
            parts.append(f"whose `{label}` is {inner}")
        elif len(nodes) == 1 and nodes[0].type == "list_literal" and kids:
            elems = [n for n in nodes[0].named_children]
            if any(k.dynamic or not k.in_list for k in kids) or len(elems) != len(kids):
                return None
            inner_parts = [describe_subtree(children[k.node.id], source_bytes) for k in kids]
            if any(p is None for p in inner_parts):
                return None
            const = "const " if node_text(nodes[0].prev_sibling or nodes[0])[:5] == "const" else ""
            parts.append(f"whose `{label}` is a {const}list of, in order: " + "; ".join(inner_parts))  # type: ignore[arg-type]
        elif kids:
            return None
        elif simple_value(nodes):
            parts.append(f"with `{label}: {_value_text(nodes, source_bytes)}`")
        else:
            return None
    if not parts:
        return head + " with no arguments"
    return head + " " + ", ".join(parts)


# ----------------------------------------------------------------------------------------------- the hole


def _hole_candidates(cls: WidgetClass, source_bytes: bytes) -> list[tuple[WidgetCall, str]]:
    out: list[tuple[WidgetCall, str]] = []
    root = cls.build_root
    if root is None:
        return out
    for w in root.walk():
        if w is root or w.dynamic or w.in_callback:
            continue
        size = sum(1 for _ in w.walk())
        if size > MAX_HOLE_WIDGETS:
            continue
        desc = describe_subtree(w, source_bytes)
        if desc is not None and len(desc) <= 400:
            out.append((w, desc))
    return out


def completion_hole(sample_id: str, source: str) -> tuple[int, int, str] | None:
    """(start byte, end byte, description) of the hole: the largest describable subtree (≤ MAX_HOLE_WIDGETS
    widgets) of the main build; None if none."""
    cls = main_class(source)
    if cls is None:
        return None
    data = source.encode("utf-8")
    candidates = _hole_candidates(cls, data)
    if not candidates:
        return None
    sizes = [sum(1 for _ in w.walk()) for w, _ in candidates]
    best = max(sizes)
    pool = [c for c, s in zip(candidates, sizes, strict=True) if s == best]
    w, desc = stable_pick(pool, sample_id, "hole")
    start, end = call_span(w)
    return start, end, desc


# ----------------------------------------------------------------------------------------------- requirements


def _literal_properties(w: WidgetCall) -> list[PropertyCheck]:
    """Simple-valued, non-callback named arguments of ``w``."""
    out: list[PropertyCheck] = []
    data = w.arguments.text or b""
    base = w.arguments.start_byte
    child_ids = {c.node.id for c in w.children} | {c.node.id for c in w.callback_widgets}

    def text_of(nodes: list[tree_sitter.Node]) -> str:
        return data[nodes[0].start_byte - base : nodes[-1].end_byte - base].decode("utf-8")

    for label, arg in w.named_args().items():
        nodes = value_nodes(arg)
        if not nodes or nodes[0].id in child_ids or label == "key":
            continue
        if simple_value(nodes) and not (label.startswith("on") and label[2:3].isupper()):
            out.append(PropertyCheck(path=label, value=text_of(nodes)))
    return out


def derive_requirements(source: str) -> list[Requirement]:
    """Requirements that the source meets, read off its main widget class (deterministic, capped); copies, so a
    caller may change them."""
    return [r.model_copy(deep=True) for r in _derived_requirements(source)]


@lru_cache(maxsize=1024)
def _derived_requirements(source: str) -> tuple[Requirement, ...]:
    """``derive_requirements``, once per program: every format condition of a task asks for its program's
    requirements (the judge's criteria), and each derivation parses and walks the whole file."""
    classes = widget_classes(source)
    cls = main_class(source)
    if cls is None or cls.build_root is None:
        return ()
    reqs: list[Requirement] = []
    top = next((c for c in classes if c.superclass in ("StatelessWidget", "StatefulWidget")), None)
    if top is not None:
        reqs.append(ClassRequirement(name=top.name, extends=top.superclass))
    # Widgets with something to say about them first: a text, literal properties; then the rest.
    scored: list[tuple[int, int, WidgetRequirement]] = []
    seen: set[str] = set()
    for order, w in enumerate(cls.build_root.walk()):
        if w.dynamic or w.in_callback:
            continue
        text = widget_text(w) if w.type_name == "Text" else None
        props = _literal_properties(w)[:2]
        parent = w.parent.type_name if w.parent is not None else None
        req = WidgetRequirement(widget=w.name, text=text, properties=props, inside=parent)
        key = req.model_dump_json()
        if key in seen:
            continue
        seen.add(key)
        weight = (2 if text else 0) + len(props) + (1 if parent else 0)
        scored.append((-weight, order, req))
    scored.sort(key=lambda t: (t[0], t[1]))
    budget = MAX_NL_REQUIREMENTS - len(reqs) - 1
    reqs.extend(r for _, _, r in scored[: max(budget, 1)])
    # A state change on a callback, for stateful samples.
    for c in classes:
        for w in c.widgets():
            for label, arg in w.named_args().items():
                if label.startswith("on") and any(b"setState" in (n.text or b"") for n in value_nodes(arg)):
                    reqs.append(CallbackCallRequirement(widget=w.name, callback=label, call="setState"))
                    break
            else:
                continue
            break
        else:
            continue
        break
    met = check_requirements(source, reqs)
    return tuple(r for r, m in zip(reqs, met, strict=True) if m.met)
