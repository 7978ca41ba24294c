"""Structural requirements on a Dart program, checked on its tree-sitter syntax tree.

Where several programs are right (a description to implement, a refactoring), a task states what must hold as a
list of small declarative requirements instead of one expected program:

- ``widget``: a widget of a type exists, optionally showing a text, with property values (``decoration.labelText``
  descends into the ``InputDecoration(...)`` passed as ``decoration:``), below an ancestor type, in a class;
- ``class``: a class with a name (and a superclass) is declared;
- ``callback_call``: a function (``setState``) is called inside a callback (``onPressed``) of a widget type;
- ``build_returns``: the ``build`` method of a class returns an expression AST-equivalent to a given one.

Requirements are pydantic models (they travel in sample metadata as JSON) and render themselves as English.
Values are compared after a token-level normalisation: whitespace, ``const``/``new``, trailing commas and the
quote style of plain strings do not matter.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

import tree_sitter
from pydantic import BaseModel, Field, TypeAdapter

from coonbench.dart.annotations import annotation_gaps
from coonbench.dart.parse import DartParseError, parse_dart
from coonbench.dart.questions import plain_string
from coonbench.dart.query import iter_nodes, node_text
from coonbench.dart.strings import string_parts
from coonbench.dart.widgets import WidgetCall, WidgetClass, call_at, value_nodes, widget_classes

__all__ = [
    "BuildReturnsRequirement",
    "CallbackCallRequirement",
    "ClassRequirement",
    "InlinesToRequirement",
    "PropertyCheck",
    "Requirement",
    "RequirementResult",
    "WidgetRequirement",
    "article",
    "call_span",
    "check_requirements",
    "expression_tokens",
    "parse_requirements",
]


def article(word: str) -> str:
    """The indefinite article for ``word`` ("an" before a vowel letter), for descriptions in prompts."""
    return "an" if word[:1].upper() in "AEIOU" else "a"


class PropertyCheck(BaseModel):
    """A named-argument path (``padding``, ``decoration.labelText``) and the Dart expression it must hold."""

    path: str
    value: str

    def describe(self) -> str:
        head, _, last = self.path.rpartition(".")
        if not head:
            return f"`{last}: {self.value}`"
        return f"`{last}: {self.value}` in its `{head}`"


class WidgetRequirement(BaseModel):
    """Some widget of type ``widget`` satisfies every stated condition at once."""

    kind: Literal["widget"] = "widget"
    widget: str
    text: str | None = None
    properties: list[PropertyCheck] = Field(default_factory=list)
    inside: str | None = None
    in_class: str | None = None

    def describe(self) -> str:
        out = f"{article(self.widget)} `{self.widget}`"
        if self.text is not None:
            out += f" showing the text '{self.text}'"
        if self.properties:
            out += " with " + " and ".join(p.describe() for p in self.properties)
        if self.inside:
            out += f", placed (at any depth) inside a `{self.inside}`"
        if self.in_class:
            out += f", in the build of class `{self.in_class}`"
        return out


class ClassRequirement(BaseModel):
    """A class called ``name`` is declared (extending ``extends`` when given)."""

    kind: Literal["class"] = "class"
    name: str
    extends: str | None = None

    def describe(self) -> str:
        return f"a class named `{self.name}`" + (f" that extends `{self.extends}`" if self.extends else "")


class CallbackCallRequirement(BaseModel):
    """``call(...)`` is invoked inside the ``callback`` argument of some ``widget``."""

    kind: Literal["callback_call"] = "callback_call"
    widget: str
    callback: str
    call: str

    def describe(self) -> str:
        return f"{article(self.widget)} `{self.widget}` whose `{self.callback}` callback calls `{self.call}`"


class BuildReturnsRequirement(BaseModel):
    """The ``build`` method of ``class_name`` returns an expression AST-equivalent to ``dart``."""

    kind: Literal["build_returns"] = "build_returns"
    class_name: str
    dart: str

    def describe(self) -> str:
        return f"the `build` method of `{self.class_name}` returns `{self.dart}`"


class InlinesToRequirement(BaseModel):
    """Inlining the ``build`` expression of ``class_name`` into its uses (and dropping the class) gives ``dart``.

    This is how an "extract widget" refactoring is checked: any spelling of the new class is accepted (key
    parameter or not, ``const`` or not, ``=>`` or a block with one ``return``) as long as the program means the
    same after inlining, compared with ``ast_diff`` after ``normalise_program``.
    """

    kind: Literal["inlines_to"] = "inlines_to"
    class_name: str
    dart: str

    def describe(self) -> str:
        return f"`{self.class_name}` is used in place of the extracted widgets and builds exactly them"


Requirement = Annotated[
    WidgetRequirement | ClassRequirement | CallbackCallRequirement | BuildReturnsRequirement | InlinesToRequirement,
    Field(discriminator="kind"),
]
_REQUIREMENTS = TypeAdapter(list[Requirement])


def parse_requirements(data: object) -> list[Requirement]:
    """Requirements from JSON-like data (sample metadata); pydantic's ValidationError names the bad entry."""
    return _REQUIREMENTS.validate_python(data)


def dump_requirements(reqs: list[Requirement]) -> list[dict[str, object]]:
    """JSON-ready form of a requirement list (the inverse of ``parse_requirements``)."""
    return _REQUIREMENTS.dump_python(reqs, mode="json", exclude_defaults=False)  # type: ignore[no-any-return]


class RequirementResult(BaseModel):
    """Whether one requirement holds, and why not."""

    requirement: str
    met: bool
    detail: str = ""


# --------------------------------------------------------------------------------------------- tree helpers


def call_span(w: WidgetCall) -> tuple[int, int]:
    """Byte range of a widget call's full text (``const Text('a')`` or ``Text('a')`` up to its ``)``)."""
    return w.node.start_byte, w.arguments.end_byte


def _single_quoted(text: str) -> str:
    """A plain double-quoted literal (no ``'``, no escapes, not triple) written with single quotes; others as is."""
    if (
        len(text) >= 2
        and text[0] == '"'
        and text[-1] == '"'
        and text[:3] != '"""'
        and "'" not in text[1:-1]
        and "\\" not in text
    ):
        return "'" + text[1:-1] + "'"
    return text


_COMMENTS = frozenset({"comment", "documentation_comment", "block_comment"})


def _leaves(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """Leaf tokens in source order, a string literal as one, comments skipped whole (a grammar may give a comment
    children, such as its ``//``). Iterative: no recursion limit on deep expressions."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in _COMMENTS:
            continue
        if n.type == "string_literal" or n.child_count == 0:
            yield n
        else:
            stack.extend(reversed(n.children))


def expression_tokens(nodes: list[tree_sitter.Node]) -> tuple[str, ...]:
    """Normalised tokens of an expression: no ``const``/``new``/comments, no trailing commas, one quote style."""
    raw: list[str] = []
    for node in nodes:
        for leaf in _leaves(node):
            if leaf.type in ("comment", "documentation_comment", "const_builtin", "new") or node_text(leaf) in (
                "const",
                "new",
            ):
                continue
            if leaf.type == "string_literal":
                raw.extend(_single_quoted(part) for part in string_parts(node_text(leaf)))
            else:
                raw.append(node_text(leaf))
    out: list[str] = []
    for i, tok in enumerate(raw):
        if tok == "," and i + 1 < len(raw) and raw[i + 1] in (")", "]", "}"):
            continue
        out.append(tok)
    return tuple(out)


def _expression_of(source: str) -> list[tree_sitter.Node]:
    """Parse a Dart expression on its own; its top-level nodes."""
    tree = parse_dart(f"final _x = {source};")
    decl = tree.root_node.named_children[-1].named_children[0]  # static_final_declaration
    return decl.named_children[1:]


def _expected_tokens(value: str) -> tuple[str, ...] | None:
    try:
        return expression_tokens(_expression_of(value))
    except (DartParseError, IndexError):
        return None


def _call_named_args(nodes: list[tree_sitter.Node]) -> dict[str, tree_sitter.Node] | None:
    """Named arguments of the constructor call making up ``nodes`` (``InputDecoration(labelText: ...)``)."""
    if not nodes:
        return None
    found = call_at(nodes, 0)
    if found is None:
        return None
    _, args, _ = found
    out: dict[str, tree_sitter.Node] = {}
    for arg in args.named_children:
        if arg.type == "named_argument":
            out[node_text(arg.named_children[0].named_children[0])] = arg
    return out


def property_value(w: WidgetCall, path: str) -> tuple[str, ...] | None:
    """Normalised tokens of the value at a dotted named-argument path of ``w``, or None when absent."""
    labels = path.split(".")
    args: dict[str, tree_sitter.Node] | None = w.named_args()
    nodes: list[tree_sitter.Node] = []
    for i, label in enumerate(labels):
        if args is None or label not in args:
            return None
        nodes = value_nodes(args[label])
        if i + 1 < len(labels):
            args = _call_named_args(nodes)
    return expression_tokens(nodes)


def widget_text(w: WidgetCall) -> str | None:
    """The plain string a ``Text`` shows, or that of the ``Text`` in its child/title/label slot.

    Only a single plain literal counts (no interpolation, escapes, raw/triple quotes or adjacent strings).
    """
    if w.type_name == "Text":
        pos = w.positional_args()
        if pos and len(pos[0].named_children) == 1:
            return plain_string(pos[0].named_children[0])
        return None
    for child in w.children:
        if child.type_name == "Text" and child.slot in ("child", "title", "label"):
            return widget_text(child)
    return None


def _calls_function(node: tree_sitter.Node, name: str) -> bool:
    for n in iter_nodes(node, named=True):
        if n.type == "identifier" and node_text(n) == name:
            nxt = n.next_named_sibling
            if nxt is not None and nxt.type == "selector" and nxt.named_children:
                if nxt.named_children[0].type == "argument_part":
                    return True
    return False


# --------------------------------------------------------------------------------------------- checking


class _Program:
    """One parsed program: its classes and every widget call in them (callbacks included)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.classes: list[WidgetClass] = widget_classes(source)
        self.widgets: list[tuple[WidgetClass, WidgetCall]] = [
            (cls, w) for cls in self.classes for w in cls.widgets(callbacks=True)
        ]


def _ancestors(w: WidgetCall) -> Iterator[WidgetCall]:
    p = w.parent
    while p is not None:
        yield p
        p = p.parent


def _check_widget(req: WidgetRequirement, prog: _Program) -> RequirementResult:
    candidates = [(c, w) for c, w in prog.widgets if w.name == req.widget or w.type_name == req.widget]
    desc = req.describe()
    if not candidates:
        return RequirementResult(requirement=desc, met=False, detail=f"no `{req.widget}` in the program")
    expected = {p.path: _expected_tokens(p.value) for p in req.properties}
    closest = ""
    for cls, w in candidates:
        if req.in_class is not None and cls.name != req.in_class:
            closest = closest or f"`{req.widget}` found only outside class `{req.in_class}`"
            continue
        if req.text is not None and widget_text(w) != req.text:
            closest = closest or f"no `{req.widget}` shows '{req.text}' (found '{widget_text(w)}')"
            continue
        if req.inside is not None and not any(a.type_name == req.inside for a in _ancestors(w)):
            closest = closest or f"no `{req.widget}` inside a `{req.inside}`"
            continue
        bad = next((p for p in req.properties if property_value(w, p.path) != expected[p.path]), None)
        if bad is not None:
            got = property_value(w, bad.path)
            closest = closest or (
                f"`{req.widget}` has `{bad.path}` = `{''.join(got)}`, expected `{bad.value}`"
                if got is not None
                else f"`{req.widget}` has no `{bad.path}`"
            )
            continue
        return RequirementResult(requirement=desc, met=True)
    return RequirementResult(requirement=desc, met=False, detail=closest)


def _check_class(req: ClassRequirement, prog: _Program) -> RequirementResult:
    desc = req.describe()
    cls = next((c for c in prog.classes if c.name == req.name), None)
    if cls is None:
        names = ", ".join(c.name for c in prog.classes) or "none"
        return RequirementResult(requirement=desc, met=False, detail=f"no class `{req.name}` (classes: {names})")
    if req.extends is not None and cls.superclass != req.extends:
        return RequirementResult(
            requirement=desc, met=False, detail=f"`{req.name}` extends `{cls.superclass}`, not `{req.extends}`"
        )
    return RequirementResult(requirement=desc, met=True)


def _check_callback(req: CallbackCallRequirement, prog: _Program) -> RequirementResult:
    desc = req.describe()
    for _, w in prog.widgets:
        if w.type_name != req.widget and w.name != req.widget:
            continue
        arg = w.named_args().get(req.callback)
        if arg is not None and any(_calls_function(n, req.call) for n in value_nodes(arg)):
            return RequirementResult(requirement=desc, met=True)
    return RequirementResult(
        requirement=desc, met=False, detail=f"no `{req.widget}.{req.callback}` calling `{req.call}`"
    )


def _check_build(req: BuildReturnsRequirement, prog: _Program) -> RequirementResult:
    desc = req.describe()
    cls = next((c for c in prog.classes if c.name == req.class_name), None)
    if cls is None:
        return RequirementResult(requirement=desc, met=False, detail=f"no class `{req.class_name}`")
    if cls.build_root is None:
        return RequirementResult(requirement=desc, met=False, detail=f"`{req.class_name}` has no single build root")
    start, end = call_span(cls.build_root)
    got = prog.source.encode("utf-8")[start:end].decode("utf-8")
    got_tokens, want_tokens = _expected_tokens(got), _expected_tokens(req.dart)
    if got_tokens is None or got_tokens != want_tokens:
        return RequirementResult(requirement=desc, met=False, detail=f"build returns `{got[:80]}`")
    return RequirementResult(requirement=desc, met=True)


def check_requirements(source: str, requirements: list[Requirement]) -> list[RequirementResult]:
    """Check every requirement against Dart ``source``; raises DartParseError when the source does not parse."""
    prog = _Program(source)
    out: list[RequirementResult] = []
    for req in requirements:
        if isinstance(req, WidgetRequirement):
            out.append(_check_widget(req, prog))
        elif isinstance(req, ClassRequirement):
            out.append(_check_class(req, prog))
        elif isinstance(req, CallbackCallRequirement):
            out.append(_check_callback(req, prog))
        elif isinstance(req, InlinesToRequirement):
            out.append(_check_inlines(req, prog))
        else:
            out.append(_check_build(req, prog))
    return out


def _check_inlines(req: InlinesToRequirement, prog: _Program) -> RequirementResult:
    from coonbench.dart.equivalence import ast_diff

    desc = req.describe()
    cls = next((c for c in prog.classes if c.name == req.class_name), None)
    if cls is None:
        return RequirementResult(requirement=desc, met=False, detail=f"no class `{req.class_name}`")
    if cls.build_root is None:
        return RequirementResult(
            requirement=desc, met=False, detail=f"`{req.class_name}`'s build does not return a single widget"
        )
    data = prog.source.encode("utf-8")
    start, end = call_span(cls.build_root)
    body = data[start:end]
    uses = [w for c, w in prog.widgets if c.name != req.class_name and w.type_name == req.class_name]
    if not uses:
        return RequirementResult(requirement=desc, met=False, detail=f"`{req.class_name}` is never used")
    edits = [(cls.node.start_byte, cls.node.end_byte, b"")] + [(*call_span(w), body) for w in uses]
    for s, e, text in sorted(edits, reverse=True):
        data = data[:s] + text + data[e:]
    try:
        diff = ast_diff(normalise_program(req.dart), normalise_program(data.decode("utf-8")))
    except DartParseError as err:
        return RequirementResult(requirement=desc, met=False, detail=f"inlined program does not parse: {err}")
    if diff is not None:
        return RequirementResult(
            requirement=desc, met=False, detail=f"after inlining, first difference at {diff.path}: {diff.right!r}"
        )
    return RequirementResult(requirement=desc, met=True)


def contains_expression(source: str, expression: str) -> bool:
    """Whether some widget call of ``source`` equals the Dart ``expression`` (up to ``expression_tokens``)."""
    want = _expected_tokens(expression)
    if want is None:
        return False
    data = source.encode("utf-8")
    for cls in widget_classes(source):
        for w in cls.widgets(callbacks=True):
            start, end = call_span(w)
            if _expected_tokens(data[start:end].decode("utf-8")) == want:
                return True
    return False


# --------------------------------------------------------------------------------------------- normalisation

_CONST_PARENTS = frozenset({"const_object_expression", "list_literal", "set_or_map_literal", "new_expression"})


def _label_of(named_argument: tree_sitter.Node) -> str:
    label = next((c for c in named_argument.named_children if c.type == "label"), None)
    return node_text(label).rstrip(":").strip() if label is not None else ""


def _render_whole(node: tree_sitter.Node, glued: frozenset[int] = frozenset()) -> str | None:
    """A node's comparison text when it is rendered as a whole (a leaf, a string, a comment), else None.

    ``glued``: where an annotation's name meets its ``(`` with no gap; the pair is rendered ``name(`` (every
    other token is space-separated), so ``@x(…)`` and ``@x (…)`` stay apart (see ``annotations``)."""
    if node.type == "string_literal":
        # One node may be a run of adjacent literals (``"a "\n  "b"``): each part is re-quoted on its own, and the
        # whitespace or comments between parts (layout) dropped.
        return " ".join(_requoted_parts(node))
    if node.type in ("comment", "documentation_comment", "block_comment"):
        return ""  # ignored by ast_diff anyway; kept, a line comment would swallow the code joined after it
    if node.child_count == 0:
        if node.type in ("const_builtin", "new") and node.parent is not None and node.parent.type in _CONST_PARENTS:
            return ""
        if glued and node.type == "(" and node.start_byte in glued:
            return ""  # written with the name before it
        if glued and node.end_byte in glued:
            return node_text(node) + "("
        return node_text(node)
    return None


def _nested_strings(lit: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The string literals in ``lit``'s interpolations that no other literal inside it holds, in source order."""
    found: list[tree_sitter.Node] = []
    stack = list(lit.children)
    while stack:
        n = stack.pop()
        if n.type == "string_literal":
            found.append(n)
        else:
            stack.extend(n.children)
    return sorted(found, key=lambda n: n.start_byte)


def _requoted_parts(node: tree_sitter.Node) -> list[str]:
    """A string literal's parts, each plain one single-quoted (``_single_quoted``), and so every plain literal in
    its interpolations too (``'${x.split(" ")}'`` and ``'${x.split(' ')}'`` are one program in Dart). Whether a
    part is plain is judged with its interpolated literals masked out (their quotes are their own). Innermost
    literals first, with an explicit list: no recursion on deeply interpolated strings."""
    order: list[tree_sitter.Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "string_literal":
            order.append(n)
        stack.extend(n.children)
    rendered: dict[tuple[int, int], str] = {}
    for lit in reversed(order):  # every literal after the literals inside it
        source, start = lit.text or b"", lit.start_byte
        kept, masked, pos = [], [], 0
        for inner in _nested_strings(lit):
            a, b = inner.start_byte - start, inner.end_byte - start
            kept += [source[pos:a].decode("utf-8", "replace"), rendered[inner.start_byte, inner.end_byte]]
            masked += [source[pos:a].decode("utf-8", "replace"), "0"]
            pos = b
        kept.append(source[pos:].decode("utf-8", "replace"))
        masked.append(source[pos:].decode("utf-8", "replace"))
        plain, text = string_parts("".join(masked)), string_parts("".join(kept))
        if len(plain) != len(text):  # cannot happen for a literal that parsed; compare it as written
            text, plain = string_parts(node_text(lit)), string_parts(node_text(lit))
        parts = ["'" + t[1:-1] + "'" if _single_quoted(m) != m else t for m, t in zip(plain, text, strict=True)]
        rendered[lit.start_byte, lit.end_byte] = " ".join(parts)
        if lit is node:
            return parts
    return [node_text(node)]


def _render_children(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    kids = list(node.children)
    if node.type == "arguments":
        slots = [i for i, k in enumerate(kids) if k.type == "named_argument"]
        ordered = sorted((kids[i] for i in slots), key=_label_of)
        for i, k in zip(slots, ordered, strict=True):
            kids[i] = k
    return kids


def _render(root: tree_sitter.Node) -> str:
    """Each node's non-empty parts joined by spaces. An explicit stack: 10,000-deep programs render too."""
    glued = frozenset(name.end_byte for name, detached in annotation_gaps(root) if not detached)
    whole = _render_whole(root, glued)
    if whole is not None:
        return whole
    stack: list[tuple[list[tree_sitter.Node], list[str]]] = [(_render_children(root)[::-1], [])]
    while True:
        todo, parts = stack[-1]
        if not todo:
            stack.pop()
            text = " ".join(parts)
            if not stack:
                return text
            if text:
                stack[-1][1].append(text)
            continue
        kid = todo.pop()
        whole = _render_whole(kid, glued)
        if whole is None:
            stack.append((_render_children(kid)[::-1], []))
        elif whole:
            parts.append(whole)


def normalise_program(source: str) -> str:
    """The comparison form used where several spellings are equally right (see docs/normalisation.md).

    Drops ``const``/``new`` on expressions, writes plain double-quoted strings with single quotes and sorts named
    arguments by label; comments, whitespace and trailing commas are already ignored by ``ast_diff``.
    Raises DartParseError when ``source`` does not parse.
    """
    return _render(parse_dart(source).root_node)
