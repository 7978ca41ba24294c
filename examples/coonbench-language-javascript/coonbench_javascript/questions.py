"""Corpus metrics and comprehension questions read off the JavaScript tree (never typed by hand).

A function is named when it is a ``function`` declaration or a ``const``/``let``/``var`` binding of a function
or arrow expression; a name is asked about only when the file defines it once. Questions are about what both
formats show alike (names, parameters, calls), never comments or layout, which ``javascript-minified`` removes.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tree_sitter import Node

from coonbench.languages.base import Question
from coonbench_javascript.syntax import items, parse_valid

QUESTION_TYPES = ("identification", "retrieval", "relationship")
NAMES = {"case_sensitive": True}
PER_SUBTYPE = {"identification": 1, "retrieval": 2, "relationship": 1}
_FUNCTION_VALUES = frozenset({"function_expression", "arrow_function", "function"})
_BRANCHES = frozenset({"if_statement", "for_statement", "for_in_statement", "while_statement", "do_statement",
                       "switch_case", "catch_clause", "ternary_expression"})
SHORT_LOC = 60
"""Files up to this many lines of code are ``short``, longer ones ``long`` (about the corpus's median)."""


@dataclass(frozen=True)
class Function:
    """A named function: its name, its parameter nodes and its body."""

    name: str
    params: list[Node]
    body: Node


def _text(node: Node | None) -> str:
    return "" if node is None else (node.text or b"").decode("utf-8", "surrogatepass")


def functions(root: Node) -> tuple[dict[str, Function], list[str]]:
    """The file's functions defined once, by name, and every defined name in order (repeats kept)."""
    found: list[Function] = []
    for item in items_of(root):
        node = item
        if node.type == "function_declaration":
            name, value = node.child_by_field_name("name"), node
        elif node.type == "variable_declarator" and (v := node.child_by_field_name("value")) is not None \
                and v.type in _FUNCTION_VALUES and (n := node.child_by_field_name("name")) is not None \
                and n.type == "identifier":
            name, value = n, v
        else:
            continue
        params = value.child_by_field_name("parameters") or value.child_by_field_name("parameter")
        body = value.child_by_field_name("body")
        if name is None or params is None or body is None:
            continue
        plist = [params] if params.type == "identifier" else [c for c in params.named_children if c.type != "comment"]
        found.append(Function(_text(name), plist, body))
    names = [f.name for f in found]
    return {f.name: f for f in found if names.count(f.name) == 1}, names


def items_of(root: Node) -> Iterator[Node]:
    """Every named node under ``root`` in document order (iterative)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.named_children))


def calls_in(body: Node) -> set[str]:
    """Names called as plain identifiers (``f(x)``) anywhere in ``body``."""
    out = set()
    for node in items_of(body):
        if node.type == "call_expression":
            fn = node.child_by_field_name("function")
            if fn is not None and fn.type == "identifier":
                out.add(_text(fn))
    return out


def measure(source: str) -> dict[str, Any]:
    """``loc`` (lines holding a token), ``cyclomatic`` (1 + branches and short-circuit operators), ``gci`` (both
    squashed into [0, 1]), ``functions``, ``max_depth`` (nesting of statement blocks)."""
    tree = parse_valid(source)
    rows: set[int] = set()
    branches = 0
    depth = 0
    for item in items(tree):
        if item.text:
            rows.update(range(item.node.start_point[0], item.node.end_point[0] + 1))
        if item.kind in _BRANCHES or item.kind in ("&&", "||", "??"):
            branches += 1
        depth = max(depth, item.blocks)
    loc, cyclomatic = len(rows), 1 + branches
    named, _ = functions(tree.root_node)
    gci = round(0.5 * loc / (loc + 100) + 0.5 * cyclomatic / (cyclomatic + 20), 4)
    return {"loc": loc, "cyclomatic": cyclomatic, "gci": gci, "functions": len(named), "max_depth": depth}


def band_of(loc: int) -> str:
    """The band of a file with ``loc`` lines of code."""
    return "short" if loc <= SHORT_LOC else "long"


Candidate = tuple[str, str, str, str, dict[str, Any]]  # subtype, question, answer, answer type, options


def _candidates(root: Node) -> dict[str, list[Candidate]]:
    named, all_names = functions(root)
    out: dict[str, list[Candidate]] = {t: [] for t in QUESTION_TYPES}
    declared = sum(1 for n in items_of(root) if n.type == "function_declaration")
    out["identification"].append(("declaration-count", "How many `function` declarations (statements of the form "
                                  "`function name(...) { ... }`, at any depth) does the code contain?",
                                  str(declared), "integer", {}))
    arity = {n: len(f.params) for n, f in named.items()}
    if len(arity) >= 2 and len(all_names) == len(set(all_names)):
        most = max(arity.values())
        widest = [n for n, a in arity.items() if a == most]
        if len(widest) == 1:
            out["identification"].append(("widest-function", "Which named function (a `function` declaration or a "
                                          "variable bound to a function or arrow function) takes the most "
                                          "parameters? Answer with its name.", widest[0], "string", NAMES))
    for name, fn in named.items():
        out["retrieval"].append(("parameter-count", f"How many parameters does the function `{name}` take "
                                 "(rest and defaulted parameters included)?", str(len(fn.params)), "integer", {}))
        if len(fn.params) >= 2 and all(p.type == "identifier" for p in fn.params):
            out["retrieval"].append(("parameter-names", f"What are the parameter names of the function `{name}`, "
                                     "in order?", ", ".join(_text(p) for p in fn.params), "csv-list-ordered", NAMES))
    calls = {name: calls_in(fn.body) for name, fn in named.items()}
    for callee in named:
        callers = sorted(n for n, c in calls.items() if callee in c and n != callee)
        if callers and len(all_names) == len(set(all_names)):
            out["relationship"].append(("callers", f"Which named functions of the file call `{callee}` directly by "
                                        "name somewhere in their body (nested code included; not counting "
                                        f"`{callee}` itself)? List each once.", ", ".join(callers),
                                        "csv-list-unordered", NAMES))
    return out


def generate_questions(sample_id: str, source: str, *, seed: int = 0) -> list[Question]:
    """Deterministic questions for one file; a seeded draw keeps a few of each subtype."""
    out: list[Question] = []
    for qtype, cands in _candidates(parse_valid(source).root_node).items():
        for subtype in dict.fromkeys(c[0] for c in cands):
            group = [c for c in cands if c[0] == subtype]
            rng = random.Random(f"{seed}:{sample_id}:{subtype}")
            for sub, text, answer, answer_type, options in rng.sample(group, min(PER_SUBTYPE[qtype], len(group))):
                digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
                out.append(Question(id=f"{sample_id}-{sub}-{digest}", sample_id=sample_id, question_type=qtype,
                                    subtype=sub, question=text, answer=answer, answer_type=answer_type,
                                    normalize_options=dict(options)))
    return sorted(out, key=lambda q: (QUESTION_TYPES.index(q.question_type), q.subtype, q.id))
