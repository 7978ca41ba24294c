"""Modification edits of Python, made on the syntax tree: the instruction, and the expected program.

Kinds (``EDIT_KINDS``), each asked only where the target is unambiguous (``questions.read_module``: a name
defined once in its scope):

- ``change-default``: give a parameter with a literal default another literal (an int plus one, a string with
  ``_new`` appended, a bool negated);
- ``add-parameter``: append a parameter ``verbose=False`` to a function with plain parameters only;
- ``change-return``: make a function with a single ``return <literal>`` return another literal;
- ``remove-method``: delete a method no code of the module calls by name.

The expected program is the edited tree written back with ``ast.unparse`` (kept only when it reads back as the
same tree), and a reply is judged by the language's AST equivalence (docstrings, comments and layout aside), so
only the edit matters. ``edit_overlap`` gives partial credit on the tree's leaves. ``completion_hole`` is the
generation task's: the expression a function returns, cut out.
"""

from __future__ import annotations

import ast
import copy
import hashlib
from collections.abc import Iterator, Sequence
from difflib import SequenceMatcher

from coonbench.languages.base import EditTask, Hole
from coonbench.languages.python.equivalence import strip_docstrings, tree_diff
from coonbench.languages.python.parse import parse_python, source_lines
from coonbench.languages.python.questions import Function, Module, defaults, literal, own_nodes, read_module

EDIT_KINDS: tuple[str, ...] = ("change-default", "add-parameter", "change-return", "remove-method")
NEW_PARAMETER = "verbose"


def _other_literal(node: ast.expr) -> ast.Constant | None:
    """A different literal of the same type, or None."""
    if not isinstance(node, ast.Constant):
        return None
    value = node.value
    if isinstance(value, bool):
        return ast.Constant(not value)
    if isinstance(value, int):
        return ast.Constant(value + 1)
    if isinstance(value, str) and literal(node) is not None:
        return ast.Constant(value + "_new")
    return None


def _shown(node: ast.expr) -> str:
    return repr(node.value) if isinstance(node, ast.Constant) else ast.unparse(node)


Edit = tuple[str, str, str, ast.Module]  # kind, subtype, instruction, edited tree


def _function_node(tree: ast.Module, fn: Function) -> ast.FunctionDef | ast.AsyncFunctionDef:
    """The same function in a copy of the tree."""
    if fn.owner is None:
        found = next(n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and n.name == fn.name)
    else:
        cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == fn.owner)
        found = next(n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and n.name == fn.name)
    return found


def _change_default(m: Module) -> Iterator[Edit]:
    for fn in m.every_function():
        for name, default in defaults(fn.node).items():
            new = _other_literal(default)
            if new is None:
                continue
            tree = copy.deepcopy(m.tree)
            node = _function_node(tree, fn)
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            for arg, i in zip(positional[len(positional) - len(args.defaults):], range(len(args.defaults))):
                if arg.arg == name:
                    args.defaults[i] = new
            for j, arg in enumerate(args.kwonlyargs):
                if arg.arg == name and args.kw_defaults[j] is not None:
                    args.kw_defaults[j] = new
            yield ("change-default", "default", f"Change the default value of parameter `{name}` of {fn.label} "
                   f"from {_shown(default)} to {_shown(new)}.", tree)


def _add_parameter(m: Module) -> Iterator[Edit]:
    for fn in m.every_function():
        a = fn.node.args
        names = {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]}
        if a.vararg or a.kwarg or a.kwonlyargs or NEW_PARAMETER in names or not a.args:
            continue
        if any(isinstance(n, ast.Name) and n.id == NEW_PARAMETER for n in own_nodes(fn.node)):
            continue
        tree = copy.deepcopy(m.tree)
        node = _function_node(tree, fn)
        node.args.args.append(ast.arg(NEW_PARAMETER))
        node.args.defaults.append(ast.Constant(False))
        yield ("add-parameter", "keyword", f"Add a parameter `{NEW_PARAMETER}` with the default value False as the "
               f"last parameter of {fn.label}. Do not use it anywhere.", tree)


def _change_return(m: Module) -> Iterator[Edit]:
    for fn in m.every_function():
        returns = [n for n in own_nodes(fn.node) if isinstance(n, ast.Return)]
        if len(returns) != 1 or returns[0].value is None:
            continue
        new = _other_literal(returns[0].value)
        if new is None:
            continue
        old = returns[0].value
        tree = copy.deepcopy(m.tree)
        target = next(n for n in own_nodes(_function_node(tree, fn)) if isinstance(n, ast.Return))
        target.value = new
        yield ("change-return", "literal", f"Make {fn.label} return {_shown(new)} instead of {_shown(old)}.", tree)


def _remove_method(m: Module) -> Iterator[Edit]:
    used = {n.attr for n in ast.walk(m.tree) if isinstance(n, ast.Attribute)}
    used |= {n.id for n in ast.walk(m.tree) if isinstance(n, ast.Name)}
    for cls, methods in m.methods.items():
        for name, fn in methods.items():
            if name.startswith("__") or name in used:
                continue
            tree = copy.deepcopy(m.tree)
            owner = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
            owner.body = [s for s in owner.body if not (isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                                                        and s.name == name)] or [ast.Pass()]
            yield ("remove-method", "method", f"Remove the method `{name}` from class `{cls}`.", tree)


MAKERS = {"change-default": _change_default, "add-parameter": _add_parameter, "change-return": _change_return,
          "remove-method": _remove_method}


def _written(tree: ast.Module) -> str | None:
    """The tree as source, None when ``ast.unparse`` does not give it back exactly."""
    try:
        text = ast.unparse(ast.fix_missing_locations(tree))
        again = parse_python(text)
    except Exception:  # noqa: BLE001 - unparse or parse refusing an edited tree: no edit
        return None
    return text + "\n" if tree_diff(strip_docstrings(again), strip_docstrings(copy.deepcopy(tree))) is None else None


def make_edits(sample_id: str, source: str, kinds: Sequence[str]) -> list[EditTask]:
    """At most one edit per kind (the first in a seeded order of the candidates), in ``EDIT_KINDS`` order."""
    module = read_module(source)
    out: list[EditTask] = []
    for kind in EDIT_KINDS:
        if kind not in kinds:
            continue
        candidates = sorted(MAKERS[kind](module), key=lambda e: hashlib.sha256(f"{sample_id}:{e[2]}".encode()).hexdigest())
        for kind_, subtype, instruction, tree in candidates:
            after = _written(tree)
            if after is None:
                continue
            suffix = f"{kind_}-{hashlib.sha1(instruction.encode()).hexdigest()[:8]}"
            out.append(EditTask(kind_, subtype, suffix, instruction, source, after))
            break
    return out


def leaves(source: str) -> list[str]:
    """The tree's node types and leaf values in source order (docstrings aside), iteratively."""
    out: list[str] = []
    stack: list[object] = [strip_docstrings(parse_python(source))]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.AST):
            out.append(type(node).__name__)
            stack.extend(reversed([getattr(node, f, None) for f in node._fields]))
        elif isinstance(node, list):
            stack.extend(reversed(node))
        elif node is not None:
            out.append(repr(node))
    return out


def _distance(a: list[str], b: list[str]) -> int:
    matched = sum(block.size for block in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return len(a) + len(b) - 2 * matched


def edit_overlap(before: str, after: str, reply: str) -> float:
    """How much of the edit a reply made: 1 − (its leaf distance to the expected program) / (the edit's), in
    [0, 1]; 1 for the expected program, 0 for the unchanged one or anything further away."""
    expected, start = leaves(after), leaves(before)
    needed = _distance(start, expected)
    if needed == 0:
        return 1.0
    return max(0.0, 1.0 - _distance(leaves(reply), expected) / needed)


def completion_hole(sample_id: str, source: str) -> Hole | None:
    """The generation task's hole: the expression one function returns (a call, an operation, a comparison…; not
    a bare name or literal), the function chosen by ``sample_id``; None when no function returns one."""
    module = read_module(source)
    lines = source_lines(source)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line.encode("utf-8")))
    holes: list[Hole] = []
    for fn in module.every_function():
        returns = [n for n in own_nodes(fn.node) if isinstance(n, ast.Return)]
        if len(returns) != 1 or returns[0].value is None or isinstance(returns[0].value, (ast.Name, ast.Constant)):
            continue
        value = returns[0].value
        if value.end_lineno is None or value.end_col_offset is None:
            continue
        start = starts[value.lineno - 1] + value.col_offset
        end = starts[value.end_lineno - 1] + value.end_col_offset
        holes.append(Hole(start, end, f"the expression that {fn.label} returns"))
    if not holes:
        return None
    return min(holes, key=lambda h: hashlib.sha256(f"{sample_id}:{h.start}".encode()).hexdigest())


MAX_FRAGMENT_LINES = 15


def fragments(source: str) -> list[str]:
    """Self-contained pieces of a program, in source order: its top-level functions of at most
    ``MAX_FRAGMENT_LINES`` lines, each as written (short valid examples of a format)."""
    tree = parse_python(source)
    out: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.decorator_list:
            text = ast.get_source_segment(source, node)
            if text and text.count("\n") < MAX_FRAGMENT_LINES:
                out.append(text + "\n")
    return out
