"""The synthetic edits of the modification task, made on a Dart program's tree (``coonbench.languages.dart`` offers
them as the language's edit makers).

Each edit is chosen on the syntax tree and applied to the source as byte-range replacements, which gives the
expected program. Kinds:

- ``add-widget``: append a given widget to a static ``children:`` list;
- ``change-property``: change one literal in a named argument (a number, an enum/colour member, a string) or the
  text of a ``Text``;
- ``remove-widget``: remove a widget from a static list, or an optional named child (``appBar:``, ``leading:``…);
- ``refactor``: extract a widget subtree into a new ``StatelessWidget`` class and use it in its place, checked by
  requirements: the class exists and extends ``StatelessWidget``, and inlining its ``build`` expression back into
  its uses gives the original program;
- ``fix-bug``: a seeded defect to undo — ``wrong-property`` (a ``MainAxisAlignment`` given to
  ``crossAxisAlignment:`` or the reverse), ``missing-setstate`` (a state change taken out of its ``setState``),
  ``null-safety`` (a non-nullable field stripped of its initialiser).

Widgets are named in instructions only by descriptions that match exactly one widget of their class.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import tree_sitter

from coonbench.dart.generation import simple_value, stable_pick
from coonbench.dart.query import iter_nodes, node_text
from coonbench.dart.questions import describe
from coonbench.dart.requirements import (
    ClassRequirement,
    InlinesToRequirement,
    call_span,
    dump_requirements,
    expression_tokens,
    widget_text,
)
from coonbench.dart.widgets import WidgetCall, WidgetClass, value_nodes, widget_classes

EDIT_KINDS: tuple[str, ...] = ("add-widget", "change-property", "remove-widget", "refactor", "fix-bug")

NEW_TEXTS = ("See all", "Last updated today", "Terms apply", "More options", "Need help?", "Swipe for more")
NEW_WIDGETS: tuple[tuple[str, str], ...] = (
    ("Text('{text}')", "a `Text` widget showing '{text}'"),
    ("Icon(Icons.star)", "an `Icon` widget with the positional argument `Icons.star`"),
    ("SizedBox({axis}: 12)", "a `SizedBox` with `{axis}: 12`"),
)
ENUM_MEMBERS: dict[str, tuple[str, ...]] = {
    "Colors": ("red", "blue", "green", "orange", "purple", "teal", "grey", "black", "white", "amber", "indigo"),
    "MainAxisAlignment": ("start", "end", "center", "spaceBetween", "spaceAround", "spaceEvenly"),
    "CrossAxisAlignment": ("start", "end", "center", "stretch"),
    "MainAxisSize": ("min", "max"),
    "FontWeight": ("bold", "normal", "w300", "w500", "w600"),
    "TextAlign": ("left", "right", "center", "justify", "start", "end"),
    "BoxFit": ("cover", "contain", "fill", "fitWidth", "fitHeight"),
}
OPTIONAL_SLOTS = frozenset(
    {"appBar", "floatingActionButton", "bottomNavigationBar", "drawer", "leading", "trailing", "subtitle"}
)
SIMPLE_TYPES = frozenset({"int", "double", "bool", "String", "num"})


@dataclass(frozen=True)
class Edit:
    """Replace bytes ``[start, end)`` of the source with ``text``."""

    start: int
    end: int
    text: str


def apply_edits(source: str, edits: Sequence[Edit]) -> str:
    """Apply non-overlapping byte-range edits (in any order)."""
    data = source.encode("utf-8")
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        data = data[: e.start] + e.text.encode("utf-8") + data[e.end :]
    return data.decode("utf-8")


def _static_widgets(cls: WidgetClass) -> list[WidgetCall]:
    return [w for w in cls.widgets() if not w.dynamic and not w.in_callback]


def _list_siblings(w: WidgetCall) -> list[WidgetCall] | None:
    """The widgets of ``w``'s list literal, when the list holds nothing but plain widget calls."""
    if not w.in_list or w.list_node is None or w.parent is None:
        return None
    lst = w.list_node
    kids = sorted(
        (c for c in w.parent.children if c.list_node is not None and c.list_node.id == lst.id),
        key=lambda c: c.node.start_byte,
    )
    if any(k.dynamic for k in kids):
        return None
    data = lst.text or b""
    base = lst.start_byte
    rest = bytearray(data)
    for k in kids:
        s, e = call_span(k)
        rest[s - base : e - base] = b" " * (e - s)
    inner = bytes(rest).decode("utf-8").strip()
    inner = re.sub(r"^const\s*", "", inner)
    if not (inner.startswith("[") and inner.endswith("]")) or inner[1:-1].replace(",", "").strip():
        return None
    return kids


def _children_list(w: WidgetCall) -> tuple[tree_sitter.Node, list[WidgetCall]] | None:
    arg = w.named_args().get("children")
    if arg is None:
        return None
    nodes = value_nodes(arg)
    if len(nodes) != 1 or nodes[0].type != "list_literal":
        return None
    kids = [c for c in w.children if c.list_node is not None and c.list_node.id == nodes[0].id]
    if not kids:
        return None
    sib = _list_siblings(kids[0])
    return (nodes[0], sib) if sib is not None else None


# ----------------------------------------------------------------------------------------------- edit makers
# Each maker returns (subtype, instruction, expected program) or None when the sample offers no such edit.

EditResult = tuple[str, str, str, str] | None  # (subtype, instruction, before, after)


def add_widget(sample_id: str, source: str, cls: WidgetClass) -> EditResult:
    scope = cls.widgets()
    options: list[tuple[WidgetCall, str, tree_sitter.Node, list[WidgetCall]]] = []
    for w in _static_widgets(cls):
        found = _children_list(w)
        d = describe(w, scope)
        if found is not None and d is not None:
            options.append((w, d, *found))
    if not options:
        return None
    w, d, lst, kids = stable_pick(options, sample_id, "add")
    template, english = stable_pick(NEW_WIDGETS, sample_id, "add-widget")
    text = stable_pick(NEW_TEXTS, sample_id, "add-text")
    axis = "width" if w.type_name in ("Row", "Wrap") else "height"
    code = template.format(text=text, axis=axis)
    _, last_end = call_span(kids[-1])
    after = apply_edits(source, [Edit(last_end, last_end, ", " + code)])
    instruction = f"Add {english.format(text=text, axis=axis)} as the last child of {d}."
    return "append-child", instruction, source, after


def _new_member(enum: str, old: str, key: str) -> str | None:
    members = [m for m in ENUM_MEMBERS.get(enum, ()) if m != old]
    return stable_pick(members, key) if members else None


def change_property(sample_id: str, source: str, cls: WidgetClass) -> EditResult:
    scope = cls.widgets()
    data = source.encode("utf-8")
    options: list[tuple[str, str, Edit]] = []  # (subtype, instruction, edit)
    for w in _static_widgets(cls):
        d = describe(w, scope)
        if d is None:
            continue
        if w.type_name == "Text" and widget_text(w):
            node = w.positional_args()[0].named_children[0]
            new = stable_pick([t for t in NEW_TEXTS if t != widget_text(w)], sample_id, d, "text")
            options.append(
                (
                    "text",
                    f"Change the text of {d} from '{widget_text(w)}' to '{new}'.",
                    Edit(node.start_byte, node.end_byte, repr_dart_string(new)),
                )
            )
        child_ids = {c.node.id for c in w.children}
        for label, arg in w.named_args().items():
            nodes = value_nodes(arg)
            if not nodes or nodes[0].id in child_ids or (label.startswith("on") and label[2:3].isupper()):
                continue
            old_text = data[nodes[0].start_byte : nodes[-1].end_byte].decode("utf-8")
            toks = expression_tokens(nodes)
            # an enum or colour member: Colors.blue, MainAxisAlignment.center
            if len(toks) == 3 and toks[1] == "." and toks[0] in ENUM_MEMBERS:
                new = _new_member(toks[0], toks[2], sample_id + d + label)
                member = nodes[-1]
                if new is not None:
                    new_text = old_text[: len(old_text) - len(toks[2])] + new
                    options.append(
                        (
                            "enum",
                            f"In {d}, change `{label}: {old_text}` to `{label}: {new_text}`.",
                            Edit(member.end_byte - len(toks[2]), member.end_byte, new),
                        )
                    )
                continue
            numbers = [
                n
                for v in nodes
                for n in iter_nodes(v, named=True)
                if n.type in ("decimal_integer_literal", "decimal_floating_point_literal")
            ]
            if len(numbers) == 1 and simple_value(nodes):
                num = numbers[0]
                old = node_text(num)
                new = str(int(old) + 8) if num.type == "decimal_integer_literal" else f"{float(old) * 2:g}"
                if "." in old and "." not in new:
                    new += ".0"
                new_text = (
                    data[nodes[0].start_byte : num.start_byte] + new.encode() + data[num.end_byte : nodes[-1].end_byte]
                ).decode("utf-8")
                options.append(
                    (
                        "number",
                        f"In {d}, change `{label}: {old_text}` to `{label}: {new_text}`.",
                        Edit(num.start_byte, num.end_byte, new),
                    )
                )
    if not options:
        return None
    subtype, instruction, edit = stable_pick(options, sample_id, "change")
    return subtype, instruction, source, apply_edits(source, [edit])


def repr_dart_string(text: str) -> str:
    """A single-quoted Dart string literal for plain text."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("$", "\\$") + "'"


def remove_widget(sample_id: str, source: str, cls: WidgetClass) -> EditResult:
    scope = cls.widgets()
    data = source.encode("utf-8")
    options: list[tuple[str, str, Edit]] = []
    for w in _static_widgets(cls):
        d = describe(w, scope)
        if d is None or w.parent is None:
            continue
        sib = _list_siblings(w)
        if sib is not None and len(sib) >= 2:
            i = next(k for k, s in enumerate(sib) if s.node.id == w.node.id)
            s, e = call_span(w)
            if i + 1 < len(sib):
                edit = Edit(s, call_span(sib[i + 1])[0], "")
            else:
                edit = Edit(call_span(sib[i - 1])[1], e, "")
            options.append(("list-element", f"Remove {d} (with everything inside it).", edit))
        elif w.slot in OPTIONAL_SLOTS and not w.in_list:
            arg = w.parent.named_args().get(w.slot)
            if arg is None:
                continue
            end = arg.end_byte
            m = re.match(rb"\s*,", data[end:])
            if m:
                end += m.end()
            options.append(
                (
                    "named-child",
                    f"Remove {d} (the `{w.slot}:` argument of the `{w.parent.type_name}`, with everything inside it).",
                    Edit(arg.start_byte, end, ""),
                )
            )
    if not options:
        return None
    subtype, instruction, edit = stable_pick(options, sample_id, "remove")
    return subtype, instruction, source, apply_edits(source, [edit])


def _closed(w: WidgetCall, source_bytes: bytes) -> bool:
    """A subtree that names nothing of its class (no fields, parameters, ``context`` or locals)."""
    s, e = call_span(w)
    from coonbench.dart.requirements import _expected_tokens

    toks = _expected_tokens(source_bytes[s:e].decode("utf-8"))
    if toks is None:
        return False
    for i, tok in enumerate(toks):
        if (tok[:1].isalpha() or tok[:1] == "_") and not tok[:1].isupper():
            if tok in ("true", "false", "null"):
                continue
            if i > 0 and toks[i - 1] == ".":
                continue
            if i + 1 < len(toks) and toks[i + 1] == ":":
                continue
            return False
    return True


REFACTOR_CLASS = """

class {name} extends StatelessWidget {{
  const {name}({{super.key}});

  @override
  Widget build(BuildContext context) {{
    return {body};
  }}
}}
"""


def refactor(sample_id: str, source: str, cls: WidgetClass) -> EditResult:
    scope = cls.widgets()
    data = source.encode("utf-8")
    taken = {c.name for c in widget_classes(source)}
    options: list[tuple[WidgetCall, str, int]] = []
    for w in _static_widgets(cls):
        if w is cls.build_root or w.parent is None:
            continue
        d = describe(w, scope)
        if d is None or not _closed(w, data):
            continue
        options.append((w, d, sum(1 for _ in w.walk())))
    if not options:
        return None
    biggest = max(n for _, _, n in options)
    pool = [(w, d) for w, d, n in options if n == biggest]
    w, d = stable_pick(pool, sample_id, "refactor")
    base = cls.name.lstrip("_").replace("State", "") or "My"
    name = f"{base}{w.type_name}"
    while name in taken:
        name += "Part"
    s, e = call_span(w)
    body = data[s:e].decode("utf-8")
    after = apply_edits(source, [Edit(s, e, f"const {name}()")]).rstrip("\n") + REFACTOR_CLASS.format(
        name=name, body=body
    )
    instruction = (
        f"Extract {d} (with everything inside it) into a new `StatelessWidget` class named `{name}`, "
        f"and use `{name}` in its place."
    )
    return name, instruction, source, after


def _wrong_property(sample_id: str, source: str, cls: WidgetClass) -> EditResult:
    scope = cls.widgets()
    swap = {"MainAxisAlignment": "CrossAxisAlignment", "CrossAxisAlignment": "MainAxisAlignment"}
    options: list[tuple[str, Edit]] = []
    for w in _static_widgets(cls):
        d = describe(w, scope)
        if d is None:
            continue
        for label in ("mainAxisAlignment", "crossAxisAlignment"):
            arg = w.named_args().get(label)
            if arg is None:
                continue
            nodes = value_nodes(arg)
            toks = expression_tokens(nodes)
            if len(toks) == 3 and toks[0] in swap and toks[2] in ("start", "end", "center"):
                ident = nodes[0]
                options.append((d, Edit(ident.start_byte, ident.end_byte, swap[toks[0]])))
    if not options:
        return None
    d, edit = stable_pick(options, sample_id, "wrong-property")
    before = apply_edits(source, [edit])
    instruction = (
        f"This code does not compile: one property of {d} is given a value of the wrong type. "
        "Fix the bug."
    )
    return "wrong-property", instruction, before, source


def _enclosing(node: tree_sitter.Node, classes: list[WidgetClass]) -> str | None:
    """Where a statement lives: "the `onPressed` callback of <widget>" or "the method `_increment`"."""
    p = node.parent
    while p is not None:
        if p.type == "named_argument":
            label = node_text(p.named_children[0].named_children[0])
            for cls in classes:
                scope = cls.widgets(callbacks=True)
                for w in scope:
                    if w.named_args().get(label) is not None and w.named_args()[label].id == p.id:
                        d = describe(w, scope)
                        return f"the `{label}` callback of {d}" if d else None
            return None
        if p.type == "function_body":
            sig = p.prev_named_sibling
            while sig is not None and sig.type != "method_signature" and sig.type != "function_signature":
                sig = sig.prev_named_sibling
            if sig is None:
                return None
            inner = sig.named_children[0] if sig.type == "method_signature" else sig
            name = inner.child_by_field_name("name")
            return f"the method `{node_text(name)}`" if name is not None else None
        p = p.parent
    return None


def _missing_setstate(sample_id: str, source: str, cls: WidgetClass) -> EditResult:
    tree_classes = widget_classes(source)
    data = source.encode("utf-8")
    options: list[tuple[str, Edit]] = []
    for c in tree_classes:
        for stmt in iter_nodes(c.node, named=True):
            if stmt.type != "expression_statement" or not node_text(stmt).startswith("setState"):
                continue
            block = stmt.parent
            if block is None or block.type != "block" or len(block.named_children) != 1:
                continue
            closure = next((n for n in iter_nodes(stmt, named=True) if n.type == "function_expression"), None)
            if closure is None:
                continue
            fbody = closure.named_children[-1]
            inner: str
            if fbody.named_children and fbody.named_children[0].type == "block":
                blk = fbody.named_children[0]
                if not blk.named_children:
                    continue
                inner = data[blk.named_children[0].start_byte : blk.named_children[-1].end_byte].decode("utf-8")
            else:
                expr = [n for n in fbody.named_children]
                if not expr:
                    continue
                inner = data[expr[0].start_byte : expr[-1].end_byte].decode("utf-8") + ";"
            where = _enclosing(block, tree_classes)
            if where is None:
                continue
            options.append((where, Edit(stmt.start_byte, stmt.end_byte, inner)))
    if not options:
        return None
    where, edit = stable_pick(options, sample_id, "setstate")
    before = apply_edits(source, [edit])
    instruction = (
        f"The screen does not update: the state change in {where} is made outside `setState`. "
        "Fix the bug by wrapping it, unchanged, in a `setState` call."
    )
    return "missing-setstate", instruction, before, source


def _null_safety(sample_id: str, source: str, cls: WidgetClass) -> EditResult:
    options: list[tuple[str, str, Edit]] = []
    for c in widget_classes(source):
        body = c.node.child_by_field_name("body")
        if body is None:
            continue
        for decl in body.named_children:
            if decl.type != "declaration":
                continue
            kinds = [k.type for k in decl.children]
            if "nullable_type" in kinds or any(k in kinds for k in ("late", "static", "const_builtin", "final_builtin")):
                continue
            typ = next((k for k in decl.named_children if k.type == "type_identifier"), None)
            idents = next((k for k in decl.named_children if k.type == "initialized_identifier_list"), None)
            if typ is None or node_text(typ) not in SIMPLE_TYPES or idents is None or len(idents.named_children) != 1:
                continue
            ii = idents.named_children[0]
            if len(ii.named_children) != 2:
                continue
            name, value = ii.named_children
            if value.type not in ("decimal_integer_literal", "decimal_floating_point_literal", "true", "false",
                                  "string_literal") and node_text(value) not in ("true", "false"):
                continue
            options.append((node_text(name), node_text(value), Edit(name.end_byte, value.end_byte, "")))
    if not options:
        return None
    name, value, edit = stable_pick(options, sample_id, "null-safety")
    before = apply_edits(source, [edit])
    instruction = (
        f"This code fails Dart's null-safety checks: the non-nullable field `{name}` has no initial value. "
        f"Fix the bug by initialising `{name}` to `{value}` where it is declared."
    )
    return "null-safety", instruction, before, source


FIX_BUG_MAKERS: tuple[Callable[[str, str, WidgetClass], EditResult], ...] = (
    _wrong_property,
    _missing_setstate,
    _null_safety,
)
MAKERS: dict[str, Callable[[str, str, WidgetClass], EditResult]] = {
    "add-widget": add_widget,
    "change-property": change_property,
    "remove-widget": remove_widget,
    "refactor": refactor,
}


def _main(source: str) -> WidgetClass | None:
    return next((c for c in widget_classes(source) if c.build_root is not None), None)


class MadeEdit(NamedTuple):
    """One edit of one program: kind, subtype, the id suffix, instruction, the program before and after, how a
    reply is judged (``"ast"`` or ``"requirements"``) and the requirements."""

    kind: str
    subtype: str
    suffix: str
    instruction: str
    before: str
    after: str
    check: str = "ast"
    requirements: tuple[dict[str, Any], ...] = ()


def make_edits(sample_id: str, source: str, kinds: Sequence[str]) -> list[MadeEdit]:
    """Every applicable edit of ``kinds`` for one program (at most one per kind and fix-bug subtype)."""
    cls = _main(source)
    if cls is None:
        return []
    out: list[MadeEdit] = []
    for kind in kinds:
        makers = FIX_BUG_MAKERS if kind == "fix-bug" else (MAKERS[kind],)
        for maker in makers:
            result = maker(sample_id, source, cls)
            if result is None:
                continue
            subtype, instruction, before, after = result
            if kind == "refactor":
                reqs = [
                    ClassRequirement(name=subtype, extends="StatelessWidget"),
                    InlinesToRequirement(class_name=subtype, dart=source),
                ]
                out.append(MadeEdit(kind, "extract-widget", "refactor", instruction, before, after,
                                    "requirements", tuple(dump_requirements(reqs))))
            else:
                suffix = f"{kind}-{subtype}" if kind == "fix-bug" else kind
                out.append(MadeEdit(kind, subtype, suffix, instruction, before, after))
    return out
