"""Metrics of one Dart source (the corpus manifest's columns), each read from the tree-sitter-dart syntax tree,
never from regexes over the raw text:

``loc``
    Lines holding code: non-blank once comments (``//``, ``///``, ``/* */``) are removed. Every line of a
    multi-line string counts.
``cyclomatic``
    McCabe's number for the whole file: ``1 +`` decision points, where a decision point is each ``if`` statement
    (``else if`` is a nested ``if``), ``?:``, ``for``/``for-in``, ``while``, ``do``, ``case`` of a switch statement
    (not ``default``), arm of a switch expression (not a bare ``_`` arm), ``catch`` clause, ``&&``, ``||``,
    ``??`` and collection ``if``/``for`` element.
``widgets`` / ``widget_types``
    The distinct Flutter widget types constructed in the file (``ListView.builder`` counts as ``ListView``):
    names in ``coonbench.dart.widgets.FLUTTER_WIDGETS`` plus the file's own ``StatelessWidget``/``StatefulWidget``
    subclasses. ``X.m(...)`` is a widget construction unless ``m`` is a static helper (``Navigator.push``,
    ``Theme.of``, ``ElevatedButton.styleFrom``…).
``max_depth``
    The deepest lexical nesting of widget constructions (a lone ``Text(...)`` is 1, ``Center(child: Text(...))``
    is 2); widgets built inside builder closures nest under the widget whose argument holds the closure.
``classes``
    ``class`` declarations (enums, mixins and extensions are not counted; they show up in ``features``).
``gci``
    A General Complexity Index in the spirit of EPAM AI/RUN's GCI (a composite of individual metrics scaled into
    (0, 1]). Each component is squashed with a fixed saturating map ``x / (x + k)`` so a sample's GCI depends on
    that sample alone (adding files never changes the others), then the components are averaged with weights::

        gci = 0.25·L/(L+100) + 0.20·(CC−1)/(CC−1+10) + 0.10·ρ/(ρ+0.1)
            + 0.20·D/(D+6)   + 0.15·W/(W+12)        + 0.10·K/(K+3)

    with L = loc, CC = cyclomatic, ρ = (CC−1)/L (decision density, the measure AI/RUN's published GCI values
    track), D = max_depth, W = widgets, K = classes. Rounded to 4 decimals. 0.2 is a small widget, ~0.6 a
    multi-screen app.
``features``
    Language features found in the file (``cascade``, ``collection-if``, ``record``, ``switch-expression``,
    ``coon-syntax-in-string``…; see ``FEATURES``); the edge band is built to cover them all.
``sha256``
    Of the file's bytes. ``coonbench.datasets.corpus.load_corpus`` refuses a file whose hash differs from the manifest.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import tree_sitter

from coonbench.dart.parse import parse_dart
from coonbench.dart.query import iter_nodes, node_text
from coonbench.dart.widgets import FLUTTER_WIDGETS, call_at

# ``Widget.method(...)`` calls that are static helpers, not widget constructors.
STATIC_HELPERS: frozenset[str] = frozenset(
    """
    of maybeOf push pushNamed pushReplacement pushReplacementNamed pushNamedAndRemoveUntil pushAndRemoveUntil
    pop popUntil maybePop canPop restorablePush styleFrom lerp defaultStyleOf debugCheckHasMaterial
    textScalerOf sizeOf paddingOf viewInsetsOf withData showSnackBar
    """.split()
)
WIDGET_BASES: frozenset[str] = frozenset({"StatelessWidget", "StatefulWidget"})

# Identifiers that read like COON abbreviations (widget letters, property and keyword short forms).
COON_LOOKALIKES: frozenset[str] = frozenset(
    "S C R T K N P B E F L Z A X W Ic Cd a b c h t p o f m ret".split()
)
_COON_IN_STRING = re.compile(r"(?<![\w$])(?:[A-Z][a-z]?\{|@\d|~[A-Z]|#[a-z]|[a-z]:(?=[\w{\[@~'\"]|\s|$)|m:b)")

FEATURES: tuple[str, ...] = (
    "adjacent-strings",
    "async-generator",
    "await-for",
    "cascade",
    "collection-for",
    "collection-if",
    "coon-lookalike-identifier",
    "coon-syntax-in-string",
    "dollar-escape",
    "enhanced-enum",
    "escape-sequence",
    "extension",
    "factory-constructor",
    "generics",
    "interpolation-expression",
    "mixin",
    "null-aware-cascade",
    "null-aware-spread",
    "operator-overload",
    "pattern",
    "pattern-guard",
    "raw-string",
    "record",
    "sealed-class",
    "spread",
    "string-interpolation",
    "switch-expression",
    "triple-quoted-string",
    "typedef",
    "unicode-escape",
)

GCI_WEIGHTS: dict[str, float] = {
    "loc": 0.25,
    "branches": 0.20,
    "density": 0.10,
    "depth": 0.20,
    "widgets": 0.15,
    "classes": 0.10,
}
GCI_SCALES: dict[str, float] = {
    "loc": 100.0,
    "branches": 10.0,
    "density": 0.1,
    "depth": 6.0,
    "widgets": 12.0,
    "classes": 3.0,
}

def count_loc(source: str, tree: tree_sitter.Tree | None = None) -> int:
    """Non-blank lines once the tree's comment nodes are blanked out."""
    tree = tree or parse_dart(source)
    data = bytearray(source.encode("utf-8"))
    for node in iter_nodes(tree.root_node):
        if "comment" in node.type:
            for i in range(node.start_byte, node.end_byte):
                if data[i] not in (0x0A, 0x0D):
                    data[i] = 0x20
    return sum(1 for line in data.decode("utf-8").splitlines() if line.strip())


def _is_wildcard_arm(case: tree_sitter.Node) -> bool:
    patterns = [c for c in case.named_children if c.type.endswith("pattern")]
    return len(patterns) == 1 and patterns[0].type == "constant_pattern" and node_text(patterns[0]) == "_" and not any(
        c.type == "guard" or node_text(c) == "when" for c in case.children
    )


_DECISION_NODES = frozenset(
    {
        "if_statement",
        "conditional_expression",
        "for_statement",
        "while_statement",
        "do_statement",
        "switch_statement_case",
        "catch_clause",
        "if_element",
        "for_element",
        "logical_and_operator",
        "logical_or_operator",
    }
)


def cyclomatic_complexity(source: str, tree: tree_sitter.Tree | None = None) -> int:
    """1 + decision points of the whole file (see the module docstring)."""
    tree = tree or parse_dart(source)
    points = 0
    for node in iter_nodes(tree.root_node):
        if node.type in _DECISION_NODES:
            points += 1
        elif node.type == "switch_expression_case" and not _is_wildcard_arm(node):
            points += 1
        elif node.type == "??" and not node.is_named:
            points += 1
    return 1 + points


def _superclass(cls: tree_sitter.Node) -> str | None:
    for child in cls.named_children:
        if child.type == "superclass":
            names = [c for c in child.named_children if c.type == "type_identifier"]
            return node_text(names[0]) if names else None
    return None


def _class_name(cls: tree_sitter.Node) -> str:
    name = cls.child_by_field_name("name")
    if name is None:
        name = next((c for c in cls.named_children if c.type in ("identifier", "type_identifier")), None)
    return node_text(name) if name is not None else ""


def _widget_call(siblings: list[tree_sitter.Node], i: int, widgets: frozenset[str]) -> tuple[str, int] | None:
    """A widget construction starting at identifier ``siblings[i]``: (type name, index of its argument selector).

    ``const``/``new`` constructions are ``_object_call``'s."""
    if siblings[i].type != "identifier" or (call := call_at(siblings, i)) is None:
        return None
    name, _, method = call[0].partition(".")
    if name not in widgets or method in STATIC_HELPERS:
        return None
    return name, call[2] - 1


def _object_call(node: tree_sitter.Node, widgets: frozenset[str]) -> str | None:
    """The widget type of a ``const``/``new`` construction, or None."""
    names = [node_text(k) for k in node.named_children if k.type in ("type_identifier", "identifier")]
    if not names or names[0] not in widgets:
        return None
    if len(names) > 1 and names[1] in STATIC_HELPERS:
        return None
    return names[0]


def widget_metrics(source: str, tree: tree_sitter.Tree | None = None) -> tuple[list[str], int]:
    """(sorted distinct widget types, deepest widget nesting) of the file."""
    tree = tree or parse_dart(source)
    classes = [n for n in iter_nodes(tree.root_node) if n.type == "class_definition"]
    local = frozenset(_class_name(c) for c in classes if _superclass(c) in WIDGET_BASES)
    widgets = FLUTTER_WIDGETS | local
    found: set[str] = set()
    deepest = 0
    # iterative walk: (node, depth of enclosing widget constructions)
    stack: list[tuple[tree_sitter.Node, int]] = [(tree.root_node, 0)]
    while stack:
        node, depth = stack.pop()
        if node.type in ("const_object_expression", "new_expression"):
            name = _object_call(node, widgets)
            if name is not None:
                found.add(name)
                deepest = max(deepest, depth + 1)
                stack.extend((c, depth + 1) for c in node.children)
                continue
        children = node.children
        inner: set[int] = set()
        for i in range(len(children)):
            call = _widget_call(children, i, widgets)
            if call is not None:
                found.add(call[0])
                deepest = max(deepest, depth + 1)
                inner.add(call[1])
        stack.extend((c, depth + 1 if k in inner else depth) for k, c in enumerate(children))
    return sorted(found), deepest


def _declared_names(root: tree_sitter.Node) -> Iterator[str]:
    for node in iter_nodes(root):
        if node.type in ("class_definition", "mixin_declaration", "enum_declaration"):
            yield _class_name(node)
        elif node.type in ("initialized_variable_definition", "initialized_identifier"):
            ident = next((c for c in node.named_children if c.type == "identifier"), None)
            if ident is not None:
                yield node_text(ident)
        elif node.type == "formal_parameter":
            idents = [c for c in node.named_children if c.type == "identifier"]
            if idents:
                yield node_text(idents[-1])


# Node types whose presence alone marks a feature.
_NODE_FEATURES: dict[str, str] = {
    "template_substitution": "string-interpolation",
    "escape_sequence": "escape-sequence",
    "cascade_section": "cascade",
    "if_element": "collection-if",
    "for_element": "collection-for",
    "spread_element": "spread",
    "record_literal": "record",
    "record_type": "record",
    **dict.fromkeys(
        ("record_pattern", "list_pattern", "map_pattern", "object_pattern", "variable_pattern",
         "pattern_variable_declaration"),
        "pattern",
    ),
    "switch_expression": "switch-expression",
    "when": "pattern-guard",
    "guard": "pattern-guard",
    "sealed": "sealed-class",
    "type_parameters": "generics",
    "mixin_declaration": "mixin",
    "mixins": "mixin",
    "extension_declaration": "extension",
    "type_alias": "typedef",
    "async*": "async-generator",
    "operator_signature": "operator-overload",
    "factory_constructor_signature": "factory-constructor",
}


def _string_features(node: tree_sitter.Node) -> Iterator[str]:
    delimiters = [c for c in node.children if not c.is_named]
    if any(node_text(d).startswith("r") for d in delimiters):
        yield "raw-string"
    if any(node_text(d).lstrip("r") in ("'''", '"""') for d in delimiters):
        yield "triple-quoted-string"
    closing = node_text(delimiters[0]).lstrip("r") if delimiters else ""
    ends = [i for i, d in enumerate(delimiters) if i > 0 and node_text(d) == closing]
    if ends and ends[0] != len(delimiters) - 1:
        yield "adjacent-strings"
    if _COON_IN_STRING.search(node_text(node)):
        yield "coon-syntax-in-string"


def _inner_features(node: tree_sitter.Node) -> Iterator[str]:
    """Features that need a look inside the node (its delimiters, its children's text)."""
    kind = node.type
    if kind == "string_literal":
        yield from _string_features(node)
    elif kind == "template_substitution" and any(node_text(c) == "{" for c in node.children):
        yield "interpolation-expression"
    elif kind == "escape_sequence":
        esc = node_text(node)
        if esc == "\\$":
            yield "dollar-escape"
        elif esc[:2] in ("\\u", "\\x"):
            yield "unicode-escape"
    elif kind == "cascade_section" and any(node_text(c) == "?.." for c in node.children):
        yield "null-aware-cascade"
    elif kind == "spread_element" and any(node_text(c) == "?" for c in node.children):
        yield "null-aware-spread"
    elif kind == "enum_declaration" and any(
        c.type in ("declaration", "method_signature", "constant_constructor_signature") for c in iter_nodes(node)
    ):
        yield "enhanced-enum"
    elif kind == "for_statement" and any(node_text(c) == "await" for c in node.children):
        yield "await-for"


def detect_features(source: str, tree: tree_sitter.Tree | None = None) -> list[str]:
    """Sorted names (from ``FEATURES``) of the language features used in the file."""
    tree = tree or parse_dart(source)
    found: set[str] = set()
    for node in iter_nodes(tree.root_node):
        feature = _NODE_FEATURES.get(node.type)
        if feature is not None:
            found.add(feature)
        found.update(_inner_features(node))
    if any(name in COON_LOOKALIKES for name in _declared_names(tree.root_node)):
        found.add("coon-lookalike-identifier")
    return sorted(found)


def general_complexity_index(
    loc: int, cyclomatic: int, max_depth: int, widgets: int, classes: int
) -> float:
    """The documented GCI (module docstring), in (0, 1)."""
    branches = max(cyclomatic - 1, 0)
    values = {
        "loc": float(loc),
        "branches": float(branches),
        "density": branches / loc if loc else 0.0,
        "depth": float(max_depth),
        "widgets": float(widgets),
        "classes": float(classes),
    }
    score = sum(GCI_WEIGHTS[k] * v / (v + GCI_SCALES[k]) for k, v in values.items())
    return round(score, 4)


def measure(source: str) -> dict[str, Any]:
    """Every manifest metric of one Dart source (raises DartParseError when it does not parse)."""
    tree = parse_dart(source)
    loc = count_loc(source, tree)
    cyclomatic = cyclomatic_complexity(source, tree)
    widget_types, max_depth = widget_metrics(source, tree)
    classes = sum(1 for n in iter_nodes(tree.root_node) if n.type == "class_definition")
    return {
        "loc": loc,
        "cyclomatic": cyclomatic,
        "gci": general_complexity_index(loc, cyclomatic, max_depth, len(widget_types), classes),
        "widgets": len(widget_types),
        "widget_types": widget_types,
        "max_depth": max_depth,
        "classes": classes,
        "features": detect_features(source, tree),
    }


