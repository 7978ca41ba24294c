"""Comprehension questions whose ground truth is read off the Dart syntax tree.

Each generator looks at one sample's widget trees (``coonbench.dart.widgets``) and emits questions only where the
answer is unambiguous in the source: a widget is named only by a description that matches exactly one widget of
its class; lists, counts and depths are asked only where no control flow (collection if/for, spreads, ``?:``,
builder closures) makes the shape depend on run time; widget lists only where every capitalised call is
classified. Nothing here is typed by hand: change the source and the answers follow.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import tree_sitter

from coonbench.dart.query import iter_nodes, node_text
from coonbench.dart.strings import string_parts
from coonbench.dart.widgets import WidgetCall, WidgetClass, value_nodes, widget_classes

QUESTION_TYPES = ("widget_identification", "property_retrieval", "structure", "relationship", "semantic")


@dataclass(frozen=True)
class Question:
    """One question about one sample, with its answer and how to compare answers."""

    id: str
    sample_id: str
    question_type: str
    subtype: str
    question: str
    answer: str
    answer_type: str
    normalize_options: dict[str, Any] = field(default_factory=dict)

    def to_record(self) -> dict[str, Any]:
        return asdict(self)


def plain_string(node: tree_sitter.Node | None) -> str | None:
    """The content of a plain quoted string literal (no interpolation, escapes, raw or triple quotes)."""
    if node is None or node.type != "string_literal":
        return None
    text = node_text(node)
    if len(text) < 2 or text[0] not in "'\"" or text[:3] in ("'''", '"""') or "\\" in text or "$" in text:
        return None
    if text[-1] != text[0] or node.named_child_count or len(string_parts(text)) != 1:
        return None  # ``'a' 'b'``: adjacent literals (one node) are not one plain string
    return text[1:-1]


def literal_value(arg: tree_sitter.Node) -> tuple[str, str, dict[str, Any]] | None:
    """(answer, answer type, normaliser options) of a named argument with a literal value, else None."""
    parts = value_nodes(arg)
    if len(parts) == 1:
        node = parts[0]
        if (s := plain_string(node)) is not None and s.strip():
            return s, "string", {"case_sensitive": True}
        if node.type == "decimal_integer_literal":
            return node_text(node), "integer", {}
        if node.type == "decimal_floating_point_literal":
            text = node_text(node)  # Dart allows `.25`; the answer is written `0.25`, as numbers are read
            return ("0" + text if text.startswith(".") else text), "number", {}
        if node.type in ("true", "false") or node_text(node) in ("true", "false"):
            return node_text(node), "boolean", {}
    if (
        len(parts) == 2
        and parts[0].type == "identifier"
        and node_text(parts[0])[:1].isupper()
        and parts[1].type == "selector"
        and parts[1].named_children
        and parts[1].named_children[0].type == "unconditional_assignable_selector"
    ):  # Colors.blue, MainAxisAlignment.center, FontWeight.bold
        return node_text(parts[0]) + node_text(parts[1]), "string", {"case_sensitive": True}
    return None


def widget_label(w: WidgetCall) -> str | None:
    """The text a widget shows: a Text's string, or the string of a Text in its child/title/label slot."""
    if w.type_name == "Text":
        pos = w.positional_args()
        return plain_string(pos[0].named_children[0]) if pos and pos[0].named_children else None
    for child in w.children:
        if child.type_name == "Text" and child.slot in ("child", "title", "label") and not child.dynamic:
            return widget_label(child)
    return None


def describe(w: WidgetCall, scope: list[WidgetCall]) -> str | None:
    """A description matching exactly ``w`` among ``scope``, or None when every candidate is ambiguous."""
    if sum(1 for o in scope if o.type_name == w.type_name) == 1:
        return f"the `{w.type_name}` widget"
    label = widget_label(w)
    if label and sum(1 for o in scope if o.type_name == w.type_name and widget_label(o) == label) == 1:
        return f"the `{w.type_name}` widget showing '{label}'"
    if w.parent is not None and w.slot and not w.in_list:
        key = (w.type_name, w.slot, w.parent.type_name)
        if sum(1 for o in scope if o.parent and (o.type_name, o.slot, o.parent.type_name) == key) == 1:
            return f"the `{w.type_name}` passed as `{w.slot}:` to the `{w.parent.type_name}`"
    return None


def _static_list_children(w: WidgetCall) -> list[WidgetCall] | None:
    """The widgets of ``w``'s ``children:`` list when every element is a plain widget call."""
    arg = w.named_args().get("children")
    if arg is None:
        return None
    lists = [c for c in arg.named_children if c.type == "list_literal"]
    if len(lists) != 1 or len(arg.named_children) != 2:
        return None
    elements = _list_elements(lists[0])
    members = [c for c in w.children if c.list_node is not None and c.list_node.id == lists[0].id]
    if not elements or len(members) != len(elements) or any(m.dynamic for m in members):
        return None
    return members


def _list_elements(list_literal: tree_sitter.Node) -> list[list[tree_sitter.Node]]:
    """The elements of a list literal, each as its run of sibling nodes (a call is ``identifier selector…``)."""
    elements: list[list[tree_sitter.Node]] = [[]]
    for child in list_literal.children:
        if child.type == ",":
            elements.append([])
        elif child.is_named:
            elements[-1].append(child)
    return [e for e in elements if e]


def _has_dynamic(w: WidgetCall) -> bool:
    return any(x.dynamic for x in w.walk())


# --- semantic analysis of callbacks -------------------------------------------------------------------------


def _calls(node: tree_sitter.Node, receiver: str, methods: set[str]) -> list[tuple[str, tree_sitter.Node]]:
    """(method, arguments) of calls ``receiver.method(…)`` or ``receiver.of(context).method(…)`` under ``node``."""
    found: list[tuple[str, tree_sitter.Node]] = []
    for n in iter_nodes(node, named=True):
        kids = n.named_children
        for i, kid in enumerate(kids):
            if kid.type != "identifier" or node_text(kid) != receiver:
                continue
            j = i + 1
            while j < len(kids) and kids[j].type == "selector":
                sel = kids[j].named_children
                named = sel[0] if sel and sel[0].type == "unconditional_assignable_selector" else None
                if named is not None and named.named_children and node_text(named.named_children[0]) in methods:
                    nxt = kids[j + 1].named_children if j + 1 < len(kids) and kids[j + 1].type == "selector" else []
                    if nxt and nxt[0].type == "argument_part":
                        args = next((c for c in nxt[0].named_children if c.type == "arguments"), None)
                        if args is not None:
                            found.append((node_text(named.named_children[0]), args))
                    break
                j += 1
    return found


def _callback_body(arg: tree_sitter.Node, cls: WidgetClass) -> tree_sitter.Node | None:
    """The closure of an ``onX:`` argument, or the body of the class method it names (``onPressed: _save``)."""
    parts = value_nodes(arg)
    if len(parts) != 1:
        return None
    if parts[0].type == "function_expression":
        return parts[0]
    if parts[0].type == "identifier":
        name = node_text(parts[0])
        body = cls.node.child_by_field_name("body")
        kids = body.named_children if body is not None else []
        for i, kid in enumerate(kids):
            sig = kid.named_children[0] if kid.type == "method_signature" and kid.named_children else None
            if sig is not None and sig.child_by_field_name("name") is not None:
                if node_text(sig.child_by_field_name("name")) == name and i + 1 < len(kids):
                    return kids[i + 1]
    return None


def state_fields_changed(body: tree_sitter.Node) -> set[str] | None:
    """Fields assigned inside ``setState`` closures of a callback body; None when there is no setState."""
    fields: set[str] = set()
    seen = False
    for n in iter_nodes(body, named=True):
        kids = n.named_children
        for i, kid in enumerate(kids):
            if kid.type == "identifier" and node_text(kid) == "setState" and i + 1 < len(kids):
                seen = True
                for m in iter_nodes(kids[i + 1], named=True):
                    target = None
                    if m.type == "assignment_expression":
                        target = m.named_children[0]
                    elif m.type in ("postfix_expression", "prefix_expression") and m.named_children:
                        inner = [c for c in m.named_children if c.type == "assignable_expression"]
                        target = inner[0] if inner else None
                    if target is not None:
                        ident = target.named_children[0] if target.named_children else target
                        if ident.type == "this":
                            ident = next((c for c in iter_nodes(target, named=True) if c.type == "identifier"), ident)
                        fields.add(node_text(ident))
    return fields if seen else None


def navigation_target(body: tree_sitter.Node) -> tuple[str, str] | None:
    """('route', '/name') or ('screen', 'Widget') for the single Navigator push in a callback body."""
    pushes = [
        (m, a)
        for m, a in _calls(body, "Navigator", {"push", "pushNamed", "pushReplacement", "pushReplacementNamed"})
    ]
    if len(pushes) != 1:
        return None
    method, arguments = pushes[0]
    args = [a for a in arguments.named_children if a.type == "argument"]
    if method.endswith("Named"):
        names = [plain_string(a.named_children[0]) for a in args if a.named_children]
        names = [n for n in names if n]
        return ("route", names[0]) if len(names) == 1 else None
    screens: list[str] = []
    for a in args:
        for n in iter_nodes(a, named=True):
            if n.type == "function_expression_body" and n.named_children:
                first = n.named_children[0]
                if first.type in ("const_object_expression", "new_expression"):
                    ident = next((c for c in first.named_children if c.type == "type_identifier"), None)
                    if ident is not None:
                        screens.append(node_text(ident))
                elif first.type == "identifier" and node_text(first)[:1].isupper():
                    screens.append(node_text(first))
    return ("screen", screens[0]) if len(set(screens)) == 1 else None


# --- generators ---------------------------------------------------------------------------------------------

WIDGET_LIST = {"item_type": "widget-name"}
Candidate = tuple[str, str, str, str, dict[str, Any]]  # subtype, question, answer, answer type, options
Generator = Callable[[WidgetClass], Iterator[Candidate]]


def _q_widgets(cls: WidgetClass) -> Iterator[Candidate]:
    if cls.unknown_calls:
        return  # an unclassified capitalised call could be a widget: the list would be ambiguous
    names = sorted({w.type_name for w in cls.widgets(callbacks=True)})
    if len(names) >= 2:
        yield (
            "widgets_in_class",
            f"Which distinct Flutter widget types (class names) are constructed anywhere in class "
            f"`{cls.name}`? List each type once.",
            ", ".join(names),
            "csv-list-unordered",
            dict(WIDGET_LIST),
        )


def _q_properties(cls: WidgetClass) -> Iterator[Candidate]:
    scope = cls.widgets()
    for w in scope:
        desc = describe(w, scope)
        if desc is None:
            continue
        for label, arg in w.named_args().items():
            value = literal_value(arg)
            if value is None or (label in ("child", "title", "label") and value[1] == "string"):
                continue
            answer, answer_type, options = value
            yield (
                "named_argument_value",
                f"In class `{cls.name}`, what is the value of the `{label}:` argument of {desc}? "
                "Give the value as written in the Dart source (strings without quotes).",
                answer,
                answer_type,
                options,
            )


def _q_structure(cls: WidgetClass) -> Iterator[Candidate]:
    root = cls.build_root
    if root is None:
        return
    yield (
        "root_widget",
        f"Which widget does the `build` method of class `{cls.name}` return at the top level? "
        "Answer with the widget class name.",
        root.type_name,
        "widget-name",
        {},
    )
    if not _has_dynamic(root) and root.depth() >= 2:
        yield (
            "tree_depth",
            f"How many levels deep is the widget tree returned by the `build` method of class `{cls.name}`? "
            "Count the returned widget as level 1 and every widget passed as a constructor argument "
            "(child, children, body, title, …) one level below its parent.",
            str(root.depth()),
            "integer",
            {},
        )
    scope = cls.widgets()
    for w in scope:
        members = _static_list_children(w)
        desc = describe(w, scope)
        if members is not None and desc is not None:
            yield (
                "child_count",
                f"In class `{cls.name}`, how many widgets are in the `children:` list of {desc}?",
                str(len(members)),
                "integer",
                {},
            )


def _q_relationships(cls: WidgetClass) -> Iterator[Candidate]:
    scope = cls.widgets()
    for w in scope:
        desc = describe(w, scope)
        if desc is None or w.parent is None:
            continue
        yield (
            "parent_of",
            f"In class `{cls.name}`, what is the type of the widget that directly contains {desc}? "
            "Answer with the widget class name.",
            w.parent.type_name,
            "widget-name",
            {},
        )
        members = _static_list_children(w.parent)
        if w.in_list and members is not None and len(members) >= 2 and any(m is w for m in members):
            others = sorted({m.type_name for m in members if m is not w})
            yield (
                "siblings_of",
                f"In class `{cls.name}`, {desc} sits in the `children:` list of a `{w.parent.type_name}`. "
                "Which widget types are its siblings in that list? List each type once.",
                ", ".join(others),
                "csv-list-unordered",
                dict(WIDGET_LIST),
            )


def _q_semantic(cls: WidgetClass) -> Iterator[Candidate]:
    scope = cls.widgets()
    for w in cls.widgets(callbacks=True):
        desc = describe(w, scope) if w in scope else None
        if desc is None:
            continue
        for label, arg in w.named_args().items():
            if not (label.startswith("on") and label[2:3].isupper()):
                continue
            body = _callback_body(arg, cls)
            if body is None:
                continue
            changed = state_fields_changed(body)
            if changed is not None and len(changed) == 1:
                yield (
                    "state_field_changed",
                    f"In class `{cls.name}`, the `{label}:` callback of {desc} calls `setState`. "
                    "Which state field does it change? Answer with the field name.",
                    next(iter(changed)),
                    "string",
                    {"case_sensitive": True},
                )
            target = navigation_target(body)
            if target is not None:
                kind, value = target
                what = "route name" if kind == "route" else "screen widget class"
                yield (
                    "navigation_target",
                    f"In class `{cls.name}`, the `{label}:` callback of {desc} navigates with `Navigator`. "
                    f"Which {what} does it open? Answer with the {what} only.",
                    value,
                    "string",
                    {"case_sensitive": True},
                )


GENERATORS: dict[str, tuple[Generator, int]] = {
    # question type: (generator, most questions of each subtype per sample)
    "widget_identification": (_q_widgets, 1),
    "property_retrieval": (_q_properties, 2),
    "structure": (_q_structure, 1),
    "relationship": (_q_relationships, 1),
    "semantic": (_q_semantic, 1),
}


def generate_questions(sample_id: str, source: str, *, seed: int = 0) -> list[Question]:
    """Deterministic questions for one sample; a seeded draw keeps a few of each subtype."""
    candidates: dict[tuple[str, str], list[Candidate]] = {}
    for cls in widget_classes(source):
        for qtype, (gen, _) in GENERATORS.items():
            for cand in gen(cls):
                candidates.setdefault((qtype, cand[0]), []).append(cand)
    out: list[Question] = []
    for (qtype, subtype), cands in candidates.items():
        # Drop questions asked twice with different answers (same text, e.g. twin classes): ambiguous.
        answers: dict[str, set[str]] = {}
        for c in cands:
            answers.setdefault(c[1], set()).add(c[2])
        unique = [c for c in cands if len(answers[c[1]]) == 1]
        unique = list({c[1]: c for c in unique}.values())
        rng = random.Random(f"{seed}:{sample_id}:{subtype}")
        keep = rng.sample(unique, min(GENERATORS[qtype][1], len(unique)))
        for sub, text, answer, answer_type, options in keep:
            digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
            out.append(
                Question(
                    id=f"{sample_id}-{sub}-{digest}",
                    sample_id=sample_id,
                    question_type=qtype,
                    subtype=sub,
                    question=text,
                    answer=answer,
                    answer_type=answer_type,
                    normalize_options=options,
                )
            )
    return sorted(out, key=lambda q: (QUESTION_TYPES.index(q.question_type), q.subtype, q.id))
