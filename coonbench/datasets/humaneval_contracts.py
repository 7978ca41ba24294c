"""Input contracts of HumanEval's problems, written as data (``data/humaneval/contracts.yaml``).

Why: amplified tests are only fair if every input is one the docstring allows (EvalPlus's lesson: a generator
without contracts tests behaviour the problem never specified). A contract names, per argument, a type and a few
declarative constraints; the vocabulary is small so that a reader can check each contract against its docstring:

- ``type``: ``int``, ``float``, ``str``, ``bool``, ``none``, ``any``, ``list[T]``, ``tuple[T]``, ``dict[K, V]``, or
  alternatives ``A | B`` (``int`` never admits a ``bool``; ``any`` = none, int, float, str, list or dict of those);
- numbers: ``min``, ``max`` (inclusive); sized values (str, list, tuple, dict): ``min_len``, ``max_len``;
- strings: ``chars`` (allowed characters: literal text or class names ``lower upper digits space punct``),
  ``pattern`` (a regular expression the whole string matches);
- any value: ``choices`` (the allowed values); lists and tuples: ``sorted`` (non-decreasing), ``unique``,
  ``items`` (a spec every element meets); dicts: ``keys``, ``values``;
- ``where``: named predicates for what the rest cannot say (``PREDICATES``);
- per problem: ``seeds``, inputs written from the docstring (its boundaries: ``2.7`` in a grade table, a
  one-letter last word) that mutation starts from beside HumanEval's own, each inside the contract; ``relations`` between arguments (``"k <= len(arr)"``: a name, ``len(name)`` or an integer, an
  optional ``+ n``/``- n``, and one of ``== != < <= > >=``), problem predicates (``PROBLEM_PREDICATES``), and how
  results compare (``output``: ``eq``, ``approx`` for floats, or ``{expr: ...}`` over ``__value__`` and the
  arguments, for problems with several right answers).

A malformed file raises ``ContractError`` naming the file, line, problem and field.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

SCALARS = ("int", "float", "str", "bool", "none", "any")
CONTAINERS = ("list", "tuple", "dict")
CHAR_CLASSES = {"lower": string.ascii_lowercase, "upper": string.ascii_uppercase, "digits": string.digits,
                "space": " ", "punct": string.punctuation}
SPEC_KEYS = frozenset("type min max min_len max_len chars pattern choices sorted unique items keys values where".split())
PROBLEM_KEYS = frozenset(("args", "relations", "where", "output", "seeds", "note"))
OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}
APPROX_TOLERANCE = 1e-6


class ContractError(ValueError):
    """A contracts file that does not follow the vocabulary."""


def _balanced(text: str, pair: str = "()") -> bool:
    depth = 0
    for ch in text:
        depth += (ch == pair[0]) - (ch == pair[1])
        if depth < 0:
            return False
    return depth == 0


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, math.isqrt(n) + 1))


def _square_permutation(grid: Any) -> bool:
    n = len(grid)
    return n >= 2 and all(len(row) == n for row in grid) and sorted(v for row in grid for v in row) == list(range(1, n * n + 1))


PREDICATES: dict[str, Callable[[Any], bool]] = {
    "balanced": _balanced,  # parentheses close in order (other characters ignored)
    "balanced_groups": lambda s: all(_balanced(w) and w for w in s.split(" ") if w),  # each space-separated group
    "even_len": lambda v: len(v) % 2 == 0,
    "last_nonzero": lambda v: bool(v) and v[-1] != 0,
    "not_constant": lambda v: len(set(v)) > 1,
    "composite": lambda n: n > 1 and not _is_prime(n),
    "rectangular": lambda rows: all(len(r) == len(rows[0]) for r in rows),
    "square_permutation": _square_permutation,  # N x N (N >= 2) holding 1..N*N once each
    "no_chained_power": lambda ops: all(not (a == b == "**") for a, b in zip(ops, ops[1:])),
}


def _fruits_within_total(s: str, n: int) -> bool:
    counts = [int(w) for w in s.split() if w.isdigit()]
    return sum(counts) <= n


PROBLEM_PREDICATES: dict[str, Callable[..., bool]] = {
    "fruits_within_total": _fruits_within_total,  # HumanEval/67: apples + oranges <= the basket's total
}


@dataclass
class Spec:
    """One value's contract (an argument, or the elements/keys/values of one)."""

    types: tuple[str, ...]
    items: Spec | None = None
    keys: Spec | None = None
    values: Spec | None = None
    min: float | None = None
    max: float | None = None
    min_len: int | None = None
    max_len: int | None = None
    chars: str | None = None
    pattern: re.Pattern[str] | None = None
    choices: list[Any] | None = None
    sorted: bool = False
    unique: bool = False
    where: tuple[str, ...] = ()


@dataclass
class Relation:
    """``left op right`` between arguments (``len(name)``, a name or an integer, each with an offset)."""

    left: tuple[str | None, bool, int]  # (argument name or None for a constant, len(), offset/constant)
    op: str
    right: tuple[str | None, bool, int]
    text: str


@dataclass
class Contract:
    """A problem's input contract and how its results compare."""

    task_id: str
    line: int
    args: dict[str, Spec]
    relations: list[Relation] = field(default_factory=list)
    where: tuple[str, ...] = ()
    output: str = "eq"  # eq | approx | expr
    expr: str | None = None
    seeds: list[list[Any]] = field(default_factory=list)

    def violation(self, args: list[Any]) -> str | None:
        """Why these arguments break the contract (None when they keep it)."""
        if len(args) != len(self.args):
            return f"{len(args)} arguments, the contract has {len(self.args)}"
        named = dict(zip(self.args, args))
        for (name, spec), value in zip(self.args.items(), args):
            why = spec_violation(spec, value)
            if why:
                return f"{name}: {why}"
        for rel in self.relations:
            if not OPS[rel.op](_term(rel.left, named), _term(rel.right, named)):
                return f"relation {rel.text} fails"
        for name in self.where:
            if not PROBLEM_PREDICATES[name](*args):
                return f"predicate {name} fails"
        return None


def _term(term: tuple[str | None, bool, int], named: dict[str, Any]) -> int:
    name, is_len, offset = term
    if name is None:
        return offset
    value = named[name]
    return (len(value) if is_len else value) + offset


def _type_ok(value: Any, kind: str) -> bool:
    exact = {"int": int, "float": float, "str": str, "bool": bool, "list": list, "tuple": tuple, "dict": dict}
    if kind == "none":
        return value is None
    if kind == "any":
        return any(_type_ok(value, k) for k in ("none", "int", "float", "str", "list", "dict"))
    return type(value) is exact[kind]


def spec_violation(spec: Spec, value: Any) -> str | None:
    """Why a value breaks a spec (None when it keeps it); elements are checked against ``items`` etc."""
    if not any(_type_ok(value, k) for k in spec.types):
        return f"type {type(value).__name__} is not {' | '.join(spec.types)}"
    if spec.choices is not None and value not in spec.choices:
        return "not one of the choices"
    if type(value) in (int, float):
        if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
            return f"{value} outside [{spec.min}, {spec.max}]"
    if type(value) in (str, list, tuple, dict):
        if (spec.min_len is not None and len(value) < spec.min_len) or (spec.max_len is not None and len(value) > spec.max_len):
            return f"length {len(value)} outside [{spec.min_len}, {spec.max_len}]"
    if type(value) is str:
        if spec.chars is not None and any(ch not in spec.chars for ch in value):
            return "a character outside the allowed set"
        if spec.pattern is not None and not spec.pattern.fullmatch(value):
            return "does not match the pattern"
    if type(value) in (list, tuple):
        if spec.sorted and list(value) != sorted(value):
            return "not sorted"
        if spec.unique and len(set(map(repr, value))) != len(value):
            return "has duplicates"
        for item in value if spec.items is not None else ():
            why = spec_violation(spec.items, item)
            if why:
                return f"element: {why}"
    if type(value) is dict:
        for k, v in value.items():
            why = (spec.keys and spec_violation(spec.keys, k)) or (spec.values and spec_violation(spec.values, v))
            if why:
                return f"entry: {why}"
    for name in spec.where:
        try:
            ok = PREDICATES[name](value)
        except (TypeError, ValueError, IndexError):
            ok = False
        if not ok:
            return f"predicate {name} fails"
    return None


# ---------------------------------------------------------------- parsing the file


def _split_top(text: str, sep: str) -> list[str]:
    """``text`` split on ``sep`` outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "[") - (ch == "]")
        if ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    return parts + [text[start:].strip()]


def parse_type(text: str, where: str) -> Spec:
    """A spec from the type grammar (``list[int] | none``); alternatives must agree on their element types."""
    alternatives = _split_top(text.strip(), "|")
    spec = Spec(types=())
    for alt in alternatives:
        head, _, rest = alt.partition("[")
        head = head.strip()
        if head in SCALARS and not rest:
            spec.types += (head,)
            continue
        if head not in CONTAINERS or not rest.endswith("]"):
            raise ContractError(f"{where}: unknown type {alt!r} (known: {', '.join(SCALARS + CONTAINERS)})")
        inner = _split_top(rest[:-1], ",")
        spec.types += (head,)
        if head == "dict":
            if len(inner) != 2:
                raise ContractError(f"{where}: dict takes a key and a value type: {alt!r}")
            spec.keys, spec.values = parse_type(inner[0], where), parse_type(inner[1], where)
        else:
            if len(inner) != 1:
                raise ContractError(f"{where}: {head} takes one element type: {alt!r}")
            spec.items = parse_type(inner[0], where)
    return spec


def _number(value: Any, where: str) -> float:
    if type(value) not in (int, float):
        raise ContractError(f"{where}: expected a number, got {value!r}")
    return value


def _length(value: Any, where: str) -> int:
    if type(value) is not int or value < 0:
        raise ContractError(f"{where}: expected a non-negative integer, got {value!r}")
    return value


def _chars(value: Any, where: str) -> str:
    entries = [value] if isinstance(value, str) else value
    if not isinstance(entries, list) or not entries or not all(isinstance(e, str) and e for e in entries):
        raise ContractError(f"{where}: expected characters or a list of class names and characters")
    return "".join(sorted(set("".join(CHAR_CLASSES.get(e, e) for e in entries))))


def parse_spec(raw: Any, where: str) -> Spec:
    """A spec from its YAML form: a type string, or a mapping with ``type`` and constraints."""
    if isinstance(raw, str):
        return parse_type(raw, where)
    if not isinstance(raw, dict) or "type" not in raw:
        raise ContractError(f"{where}: expected a type or a mapping with 'type'")
    unknown = sorted(set(raw) - SPEC_KEYS)
    if unknown:
        raise ContractError(f"{where}.{unknown[0]}: unknown field (known: {', '.join(sorted(SPEC_KEYS))})")
    spec = parse_type(str(raw["type"]), f"{where}.type")
    for key in ("min", "max"):
        if key in raw:
            setattr(spec, key, _number(raw[key], f"{where}.{key}"))
    for key in ("min_len", "max_len"):
        if key in raw:
            setattr(spec, key, _length(raw[key], f"{where}.{key}"))
    if "chars" in raw:
        spec.chars = _chars(raw["chars"], f"{where}.chars")
    if "pattern" in raw:
        try:
            spec.pattern = re.compile(str(raw["pattern"]))
        except re.error as exc:
            raise ContractError(f"{where}.pattern: {exc}") from exc
    if "choices" in raw:
        if not isinstance(raw["choices"], list) or not raw["choices"]:
            raise ContractError(f"{where}.choices: expected a non-empty list")
        spec.choices = raw["choices"]
    for key in ("sorted", "unique"):
        if key in raw:
            if not isinstance(raw[key], bool):
                raise ContractError(f"{where}.{key}: expected true or false")
            setattr(spec, key, raw[key])
    for key in ("items", "keys", "values"):
        if key in raw:
            setattr(spec, key, parse_spec(raw[key], f"{where}.{key}"))
    spec.where = _names(raw.get("where", []), PREDICATES, f"{where}.where")
    return spec


def _names(raw: Any, known: dict[str, Any], where: str) -> tuple[str, ...]:
    names = [raw] if isinstance(raw, str) else raw
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ContractError(f"{where}: expected a predicate name or a list of them")
    for name in names:
        if name not in known:
            raise ContractError(f"{where}: unknown predicate {name!r} (known: {', '.join(sorted(known))})")
    return tuple(names)


def _parse_term(tokens: list[str], args: dict[str, Spec], where: str) -> tuple[str | None, bool, int]:
    offset = 0
    if len(tokens) == 3 and tokens[1] in "+-" and tokens[2].isdigit():
        offset = int(tokens[2]) * (1 if tokens[1] == "+" else -1)
        tokens = tokens[:1]
    if len(tokens) != 1:
        raise ContractError(f"{where}: cannot read the term {' '.join(tokens)!r}")
    token = tokens[0]
    if re.fullmatch(r"-?\d+", token):
        return None, False, int(token) + offset
    match = re.fullmatch(r"len\((\w+)\)", token)
    name = match.group(1) if match else token
    if name not in args:
        raise ContractError(f"{where}: {name!r} is not an argument")
    return name, bool(match), offset


def parse_relation(text: Any, args: dict[str, Spec], where: str) -> Relation:
    """``left op right`` with space-separated tokens."""
    tokens = str(text).split()
    ops = [i for i, t in enumerate(tokens) if t in OPS]
    if len(ops) != 1:
        raise ContractError(f"{where}: expected one comparison in {text!r}")
    i = ops[0]
    return Relation(_parse_term(tokens[:i], args, where), tokens[i], _parse_term(tokens[i + 1:], args, where), str(text))


def parse_contract(task_id: str, raw: Any, line: int, params: list[str] | None) -> Contract:
    """One problem's entry; ``params``: the entry point's parameter names, which ``args`` must list in order."""
    if not isinstance(raw, dict) or "args" not in raw:
        raise ContractError("args: expected a mapping with 'args'")
    unknown = sorted(set(raw) - PROBLEM_KEYS)
    if unknown:
        raise ContractError(f"{unknown[0]}: unknown field (known: {', '.join(sorted(PROBLEM_KEYS))})")
    if not isinstance(raw["args"], dict) or not raw["args"]:
        raise ContractError(f"args: expected a mapping of argument names to specs")
    if params is not None and list(raw["args"]) != params:
        raise ContractError(f"args: the entry point takes {params}, the contract lists {list(raw['args'])}")
    args = {str(name): parse_spec(spec, f"args.{name}") for name, spec in raw["args"].items()}
    rels = raw.get("relations", [])
    if not isinstance(rels, list):
        raise ContractError(f"relations: expected a list")
    contract = Contract(task_id, line, args, [parse_relation(r, args, f"relations") for r in rels],
                        _names(raw.get("where", []), PROBLEM_PREDICATES, "where"))
    seeds = raw.get("seeds", [])
    if not isinstance(seeds, list) or not all(isinstance(s, list) for s in seeds):
        raise ContractError("seeds: expected a list of argument lists")
    for i, seed in enumerate(seeds):
        why = contract.violation(seed)
        if why:
            raise ContractError(f"seeds[{i}]: outside the contract ({why})")
    contract.seeds = seeds
    output = raw.get("output", "eq")
    if isinstance(output, dict) and set(output) == {"expr"} and isinstance(output["expr"], str):
        try:
            compile(output["expr"], "<contract output>", "eval")
        except SyntaxError as exc:
            raise ContractError(f"output.expr: {exc.msg}") from exc
        contract.output, contract.expr = "expr", output["expr"]
    elif output in ("eq", "approx"):
        contract.output = output
    else:
        raise ContractError(f"output: expected eq, approx or {{expr: ...}}")
    return contract


def _entry_lines(text: str) -> dict[str, int]:
    """The 1-based line of each top-level key (for error messages)."""
    root = yaml.compose(text)
    if not isinstance(root, yaml.MappingNode):
        return {}
    return {str(k.value): k.start_mark.line + 1 for k, _ in root.value}


def load_contracts(path: Path, params: dict[str, list[str]] | None = None) -> dict[str, Contract]:
    """Every contract in a file; ``params`` (task id -> parameter names) checks names and that none is missing."""
    text = path.read_text(encoding="utf-8")
    try:
        raw = yaml.safe_load(text)
        lines = _entry_lines(text)
    except yaml.YAMLError as exc:
        raise ContractError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(raw, dict):
        raise ContractError(f"{path}: expected a mapping of task ids to contracts")
    contracts = {}
    for task_id, entry in raw.items():
        line = lines.get(str(task_id), 0)
        try:
            if params is not None and task_id not in params:
                raise ContractError("id: not a HumanEval task id")
            contracts[str(task_id)] = parse_contract(str(task_id), entry, line,
                                                     None if params is None else params[task_id])
        except ContractError as exc:
            fld, _, message = str(exc).partition(": ")
            raise ContractError(f"{path}: line {line}: problem '{task_id}': field '{fld or '(entry)'}': {message}") from None
    missing = sorted(set(params or {}) - set(contracts))
    if missing:
        raise ContractError(f"{path}: no contract for {', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}")
    return contracts
