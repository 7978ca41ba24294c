"""De Bruijn index errors, detected by code (the Goth seed's metric, ``METRICS.md``).

Why by code: the seed counts "index errors" among semantic errors but leaves deciding one to a reader. Here a
failing program made an index error when re-assigning the indices of one declaration (a permutation of the
index values its body uses, or a shift of all of them by one) makes it pass every test: the program was right
but for which binder an index names. Variants are bounded (``MAX_VARIANTS``), each is screened on the public
tests first, and only a variant that passes those is run on all tests.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

from inspect_ai.util import SandboxEnvironment

from coonbench.execution.base import Executor, Outcome
from coonbench.execution.problem import Problem

SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"
MAX_VALUES = 4
"""Permutations are tried for declarations using at most this many distinct indices (4! = 24 maps)."""
MAX_VARIANTS = 60
DECL_STARTS = ("╭─", "/-")


def _index_tokens(code: str) -> list[tuple[int, int, int]]:
    """(start, end, value) of every De Bruijn index in Goth syntax (``₀``…``₉``, ``_N``), outside strings, character
    literals and ``#`` comments. A linear scan, no regular expression."""
    out: list[tuple[int, int, int]] = []
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c == "#":
            j = code.find("\n", i)
            i = n if j < 0 else j
        elif c == '"':
            i += 1
            while i < n and code[i] != '"':
                i += 2 if code[i] == "\\" else 1
            i += 1
        elif c in SUBSCRIPTS:
            out.append((i, i + 1, SUBSCRIPTS.index(c)))
            i += 1
        elif c == "_" and i + 1 < n and code[i + 1].isdigit() and (i == 0 or not (code[i - 1].isalnum()
                                                                              or code[i - 1] in "_'")):
            j = i + 1
            while j < n and code[j].isdigit():
                j += 1
            if j == n or not (code[j].isalnum() or code[j] in "_'"):
                out.append((i, j, int(code[i + 1:j])))
            i = j
        else:
            i += 1
    return out


def _maps(values: list[int]) -> Iterator[tuple[str, dict[int, int]]]:
    """Every re-assignment of ``values`` but the identity: permutations (few values), then shifts by one."""
    if 1 < len(values) <= MAX_VALUES:
        for perm in itertools.permutations(values):
            mapping = dict(zip(values, perm))
            if any(k != v for k, v in mapping.items()):
                yield "permuted " + ", ".join(f"{k}→{v}" for k, v in mapping.items() if k != v), mapping
    yield "shifted +1", {v: v + 1 for v in values}
    if min(values) > 0:
        yield "shifted -1", {v: v - 1 for v in values}


def _render(value: int, original: str) -> str:
    return f"_{value}" if original.startswith("_") or value > 9 else SUBSCRIPTS[value]


def syntax_variants(code: str) -> Iterator[tuple[str, str]]:
    """(description, program) for each re-assignment of one declaration's indices, Goth syntax."""
    starts = sorted({i for s in DECL_STARTS for i in _find_all(code, s)}) or [0]
    bounds = list(zip(starts, starts[1:] + [len(code)]))
    tokens = _index_tokens(code)
    for number, (lo, hi) in enumerate(bounds, 1):
        mine = [t for t in tokens if lo <= t[0] < hi]
        values = sorted({t[2] for t in mine})
        if not values:
            continue
        for what, mapping in _maps(values):
            pieces, last = [], 0
            for start, end, value in mine:
                pieces += [code[last:start], _render(mapping[value], code[start:end])]
                last = end
            yield f"declaration {number}: {what}", "".join(pieces) + code[last:]


def _find_all(text: str, needle: str) -> list[int]:
    out, i = [], text.find(needle)
    while i >= 0:
        out.append(i)
        i = text.find(needle, i + 1)
    return out


def _idx_nodes(tree: Any) -> list[dict[str, Any]]:
    """Every ``{"Idx": n}`` object under ``tree`` (iterative, so depth costs no recursion)."""
    found, stack = [], [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if set(node) == {"Idx"} and isinstance(node["Idx"], int):
                found.append(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def json_variants(code: str) -> Iterator[tuple[str, str]]:
    """The same re-assignments on a JSON AST (``{"Idx": n}`` nodes, one declaration of ``decls`` at a time)."""
    try:
        module = json.loads(code)
    except ValueError:
        return
    decls = module.get("decls") if isinstance(module, dict) else None
    if not isinstance(decls, list):
        return
    for number in range(len(decls)):
        values = sorted({node["Idx"] for node in _idx_nodes(decls[number])})
        if not values:
            continue
        for what, mapping in _maps(values):
            copy = json.loads(code)
            for node in _idx_nodes(copy["decls"][number]):
                node["Idx"] = mapping[node["Idx"]]
            yield f"declaration {number + 1}: {what}", json.dumps(copy, ensure_ascii=False)


VARIANTS: dict[str, Callable[[str], Iterator[tuple[str, str]]]] = {"goth": syntax_variants, "goth-json": json_variants}


async def index_error(executor: Executor, code: str, problem: Problem, case_timeout: float,
                      box: SandboxEnvironment | None = None) -> str | None:
    """How re-assigning the indices of ``code`` makes it pass every test (an index error), or None."""
    variants = VARIANTS.get(executor.name)
    if variants is None:
        return None
    public = problem.model_copy(update={"tests": problem.tests[:len(problem.public_tests)], "generated": []})
    for what, variant in itertools.islice(variants(code), MAX_VARIANTS):
        screened = await executor.run(variant, public, case_timeout, box)
        if screened.outcome is Outcome.PASS:
            full = await executor.run(variant, problem, case_timeout, box)
            if full.outcome is Outcome.PASS:
                return what
    return None
