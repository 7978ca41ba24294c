"""Comprehension questions whose ground truth is read off the Python syntax tree (``ast``).

The questions are about what every Python format shows alike (names, parameters, defaults, decorators, bases,
calls, loops and returns; never docstrings, comments or line numbers, which ``python-minified`` removes). A
question is asked only where its answer is unambiguous in the source: functions and classes are named only when
their name is defined once in their scope (no ``@overload`` twins, no property setters, no ``if``/``else``
definitions), calls are counted only by plain name to a function the module defines and the caller does not
shadow, and lists are asked only when they have enough members to be a question. Nothing is typed by hand:
change the source and the answers follow. Records are the seam's ``Question`` (``coonbench.languages.base``),
generated like the Dart ones (``coonbench.dart.questions``): candidates per subtype, a seeded draw of a few.
"""

from __future__ import annotations

import ast
import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from coonbench.languages.base import Question
from coonbench.languages.python.parse import parse_python

QUESTION_TYPES = ("identification", "retrieval", "structure", "relationship")
NAMES = {"case_sensitive": True}
Candidate = tuple[str, str, str, str, dict[str, Any]]  # subtype, question, answer, answer type, options
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.Match,
           *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))


@dataclass(frozen=True)
class Function:
    """A top-level function or a method of a top-level class, defined once in its scope."""

    node: ast.FunctionDef | ast.AsyncFunctionDef
    owner: str | None  # the class of a method

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def label(self) -> str:
        return f"method `{self.name}` of class `{self.owner}`" if self.owner else f"function `{self.name}`"


@dataclass(frozen=True)
class Module:
    """What the generators ask about: the module's unique top-level functions and classes."""

    tree: ast.Module
    functions: dict[str, Function]  # top-level, by name
    classes: dict[str, ast.ClassDef]  # top-level, by name
    methods: dict[str, dict[str, Function]]  # class → its unique methods

    def every_function(self) -> Iterator[Function]:
        yield from self.functions.values()
        for methods in self.methods.values():
            yield from methods.values()


def _unique(nodes: list[ast.stmt], kinds: tuple[type, ...]) -> dict[str, Any]:
    """The statements of ``kinds`` among ``nodes`` whose name no other statement of the body binds."""
    names = [n.name for n in nodes if isinstance(n, (*_DEFS, ast.ClassDef))]
    bound = {t.id for n in nodes if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
             for t in ast.walk(n) if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)}
    named = [n for n in nodes if isinstance(n, (*_DEFS, ast.ClassDef)) and isinstance(n, kinds)]
    return {n.name: n for n in named if names.count(n.name) == 1 and n.name not in bound}


def read_module(source: str) -> Module:
    """The module's unique top-level functions, classes and methods (``LanguageSyntaxError`` if not Python)."""
    tree = parse_python(source)
    functions = {k: Function(v, None) for k, v in _unique(tree.body, _DEFS).items()}
    classes: dict[str, ast.ClassDef] = _unique(tree.body, (ast.ClassDef,))
    methods = {c: {k: Function(v, c) for k, v in _unique(node.body, _DEFS).items()} for c, node in classes.items()}
    return Module(tree, functions, classes, methods)


def own_nodes(fn: ast.AST) -> Iterator[ast.AST]:
    """Nodes inside a function's body and decorators-free signature, not inside nested functions, lambdas or
    classes (iterative)."""
    stack = list(reversed(getattr(fn, "body", [])))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))


def parameters(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    """Every parameter in order: positional-only, ordinary, ``*args``, keyword-only, ``**kwargs``."""
    a = fn.args
    return [*a.posonlyargs, *a.args, *([a.vararg] if a.vararg else []), *a.kwonlyargs,
            *([a.kwarg] if a.kwarg else [])]


def defaults(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.expr]:
    """Parameter name → default expression."""
    a = fn.args
    positional = [*a.posonlyargs, *a.args]
    out = {arg.arg: d for arg, d in zip(positional[len(positional) - len(a.defaults):], a.defaults)}
    out.update({arg.arg: d for arg, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
    return out


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a Name or a chain of attributes on a Name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def literal(node: ast.expr) -> tuple[str, str, dict[str, Any]] | None:
    """(answer, answer type, options) for a plain constant: an int, a float, a one-line string, True/False/None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        inner = literal(node.operand)
        return ("-" + inner[0], *inner[1:]) if inner and inner[1] in ("integer", "number") else None
    if not isinstance(node, ast.Constant):
        return None
    value = node.value
    if value is None or isinstance(value, bool):
        return repr(value), "string", {}
    if isinstance(value, int):
        return str(value), "integer", {}
    if isinstance(value, float) and value == value and abs(value) < 1e15:
        return repr(value), "number", {}
    if isinstance(value, str) and value.strip() == value and value and value.isprintable() and len(value) <= 60:
        return value, "string", NAMES
    return None


def _names_bound(fn: ast.AST) -> set[str]:
    """Names a function binds itself: parameters and its own assignments, imports, loop targets."""
    bound = {a.arg for a in parameters(fn)} if isinstance(fn, _DEFS) else set()
    for node in own_nodes(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, _DEFS + (ast.ClassDef,)):
            bound.add(node.name)
    return bound


def callees(module: Module, fn: Function) -> set[str] | None:
    """Top-level functions of the module ``fn`` calls by plain name; None when one such name is shadowed."""
    called = {n.func.id for n in own_nodes(fn.node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    called &= set(module.functions)
    if called & _names_bound(fn.node):
        return None
    return called


def self_calls(module: Module, fn: Function) -> set[str]:
    """Methods of ``fn``'s own class it calls as ``self.name(...)``."""
    if fn.owner is None or not parameters(fn.node) or parameters(fn.node)[0].arg != "self":
        return set()
    found = {n.func.attr for n in own_nodes(fn.node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"}
    return (found & set(module.methods[fn.owner])) - {fn.name}


def _has_elif(fn: ast.AST) -> bool:
    """Whether an ``if`` has a lone ``if`` as its else branch: ``elif`` and ``else: if`` are one tree, at different
    depths to a reader, so depth questions skip such functions."""
    return any(isinstance(n, ast.If) and len(n.orelse) == 1 and isinstance(n.orelse[0], ast.If) for n in own_nodes(fn))


def block_depth(fn: ast.AST) -> int:
    """Deepest nesting of if/for/while/with/try/match blocks in a function's own body (a statement of the body is
    at depth 0, one inside an ``if`` of it at 1; nested functions and classes not entered)."""
    deepest = 0
    stack: list[tuple[ast.AST, int]] = [(s, 0) for s in getattr(fn, "body", [])]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, ast.stmt):
            deepest = max(deepest, depth)
        if isinstance(node, _SCOPES):
            continue
        inner = depth + 1 if isinstance(node, _BLOCKS) else depth
        stack.extend((c, inner) for c in ast.iter_child_nodes(node)
                     if isinstance(c, (ast.stmt, ast.excepthandler, ast.match_case)))
    return deepest


def _csv(names: list[str] | set[str], ordered: bool = False) -> str:
    return ", ".join(names if ordered else sorted(names))


# --- generators ---------------------------------------------------------------------------------------------

Generator = Callable[[Module], Iterator[Candidate]]


def _top_level(m: Module, kinds: tuple[type, ...]) -> set[str]:
    return {n.name for n in m.tree.body if isinstance(n, (*_DEFS, ast.ClassDef)) and isinstance(n, kinds)}


def _q_identification(m: Module) -> Iterator[Candidate]:
    functions, classes = _top_level(m, _DEFS), _top_level(m, (ast.ClassDef,))
    if len(functions) >= 2:
        yield ("module_functions", "Which functions are defined directly at the top level of the module (not "
               "methods, not nested functions, not inside an `if` or `try` block)? List each name once.",
               _csv(functions), "csv-list-unordered", NAMES)
    if len(classes) >= 2:
        yield ("module_classes", "Which classes are defined directly at the top level of the module (not "
               "inside an `if` or `try` block)? List each name once.", _csv(classes), "csv-list-unordered", NAMES)
    for cls, node in m.classes.items():
        defined = [n.name for n in node.body if isinstance(n, _DEFS)]
        if len(defined) >= 2:
            yield ("class_methods", f"Which methods does class `{cls}` define directly in its body? List each "
                   "name once.", _csv(set(defined)), "csv-list-unordered", NAMES)


def _q_retrieval(m: Module) -> Iterator[Candidate]:
    for fn in m.every_function():
        params = [a.arg for a in parameters(fn.node)]
        if len(params) >= 2:
            yield ("parameters", f"What are the parameters of {fn.label}, in order? Include `self`/`cls` and "
                   "write `*args`/`**kwargs` parameters without their stars.", _csv(params, True),
                   "csv-list-ordered", NAMES)
        for name, default in defaults(fn.node).items():
            value = literal(default)
            if value is not None:
                yield ("default_value", f"What is the default value of parameter `{name}` of {fn.label}? Give "
                       "it as written in the source (strings without quotes).", *value)
        decorators = [dotted(d) for d in fn.node.decorator_list]
        if decorators and all(decorators):
            yield ("decorators", f"Which decorators are applied to {fn.label}? List them in order, each as "
                   "written after its `@`.", _csv([d for d in decorators if d], True), "csv-list-ordered", NAMES)
        returns = [n for n in own_nodes(fn.node) if isinstance(n, ast.Return)]
        if len(returns) == 1 and returns[0].value is not None:
            value = literal(returns[0].value)
            if value is None and isinstance(returns[0].value, ast.Name):
                value = (returns[0].value.id, "string", NAMES)
            if value is not None:
                yield ("return_value", f"{fn.label[0].upper()}{fn.label[1:]} has one `return` statement. What "
                       "does it return? Answer with the variable name or the literal value (strings without "
                       "quotes).", *value)
    for cls, node in m.classes.items():
        bases = [dotted(b) for b in node.bases]
        if bases and all(bases) and not node.keywords:
            yield ("base_classes", f"Which base classes does class `{cls}` list, in order? Write each as in "
                   "the source.", _csv([b for b in bases if b], True), "csv-list-ordered", NAMES)


def _q_structure(m: Module) -> Iterator[Candidate]:
    for fn in m.every_function():
        count = len(parameters(fn.node))
        if count >= 1:
            yield ("parameter_count", f"How many parameters does {fn.label} take? Count every parameter, "
                   "`self`/`cls`, `*args` and `**kwargs` included.", str(count), "integer", {})
        own = list(own_nodes(fn.node))
        loops = sum(isinstance(n, (ast.For, ast.AsyncFor, ast.While)) for n in own)
        returns = sum(isinstance(n, ast.Return) for n in own)
        if loops:
            yield ("loop_count", f"How many loops (`for` and `while` statements, not comprehensions) does {fn.label} "
                   "contain, outside any nested function or class?", str(loops), "integer", {})
        if returns >= 2:
            yield ("return_count", f"How many `return` statements does {fn.label} contain, outside any nested "
                   "function or class?", str(returns), "integer", {})
        depth = block_depth(fn.node)
        if depth >= 2 and not _has_elif(fn.node):
            yield ("block_depth", f"How deeply are blocks nested in {fn.label}? A statement directly in its body "
                   "is at depth 0, a statement inside an `if`, `for`, `while`, `with`, `try` or `match` block of "
                   "it at depth 1, and so on; give the deepest depth (nested functions and classes not counted).",
                   str(depth), "integer", {})
    for cls, node in m.classes.items():
        count = sum(isinstance(n, _DEFS) for n in node.body)
        if count >= 1:
            yield ("method_count", f"How many methods does class `{cls}` define directly in its body?",
                   str(count), "integer", {})


def _q_relationship(m: Module) -> Iterator[Candidate]:
    calls: dict[str, set[str]] = {}
    for fn in m.every_function():
        found = callees(m, fn)
        if found is None:
            continue
        if fn.owner is None:
            calls[fn.name] = found
        if found:
            yield ("callees", f"Which of the module's top-level functions does {fn.label} call by name in its "
                   "own body (nested functions, lambdas and classes not counted)? List each once.", _csv(found),
                   "csv-list-unordered", NAMES)
        via_self = self_calls(m, fn)
        if via_self:
            yield ("self_calls", f"Which other methods of class `{fn.owner}` does its method `{fn.name}` call "
                   "through `self`? List each once.", _csv(via_self), "csv-list-unordered", NAMES)
    defs = [n for n in m.tree.body if isinstance(n, _DEFS)]
    if len(calls) == len(m.functions) == len(defs):  # every top-level function is known, and its calls
        for name in m.functions:
            callers = {f for f, called in calls.items() if name in called and f != name}
            if callers:
                yield ("callers", f"Which top-level functions of the module call function `{name}` by name in "
                       "their own bodies (nested functions, lambdas and classes not counted)? List each once.",
                       _csv(callers), "csv-list-unordered", NAMES)
    owners: dict[str, list[str]] = {}
    for cls, node in m.classes.items():
        for stmt in node.body:
            if isinstance(stmt, _DEFS) and not stmt.name.startswith("__"):
                owners.setdefault(stmt.name, []).append(cls)
    every_class = sum(isinstance(n, ast.ClassDef) for n in ast.walk(m.tree))
    for method, classes in owners.items():  # asked only where every class of the file is a known one
        if len(classes) == 1 and method not in m.functions and every_class == len(m.classes) >= 2:
            yield ("defining_class", f"Which class of the module defines a method named `{method}`?",
                   classes[0], "string", NAMES)


GENERATORS: dict[str, tuple[Generator, int]] = {
    # question type: (generator, most questions of each subtype per file)
    "identification": (_q_identification, 1),
    "retrieval": (_q_retrieval, 2),
    "structure": (_q_structure, 1),
    "relationship": (_q_relationship, 1),
}


def generate_questions(sample_id: str, source: str, *, seed: int = 0) -> list[Question]:
    """Deterministic questions for one file; a seeded draw keeps a few of each subtype."""
    module = read_module(source)
    candidates: dict[tuple[str, str], list[Candidate]] = {}
    for qtype, (gen, _) in GENERATORS.items():
        for cand in gen(module):
            candidates.setdefault((qtype, cand[0]), []).append(cand)
    out: list[Question] = []
    for (qtype, subtype), cands in candidates.items():
        answers: dict[str, set[str]] = {}
        for c in cands:
            answers.setdefault(c[1], set()).add(c[2])
        unique = list({c[1]: c for c in cands if len(answers[c[1]]) == 1}.values())
        rng = random.Random(f"{seed}:{sample_id}:{subtype}")
        for sub, text, answer, answer_type, options in rng.sample(unique, min(GENERATORS[qtype][1], len(unique))):
            digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
            out.append(Question(id=f"{sample_id}-{sub}-{digest}", sample_id=sample_id, question_type=qtype,
                                subtype=sub, question=text, answer=answer, answer_type=answer_type,
                                normalize_options=dict(options)))
    return sorted(out, key=lambda q: (QUESTION_TYPES.index(q.question_type), q.subtype, q.id))
