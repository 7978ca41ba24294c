"""The Goth seed's designed battery as correction problems, as far as its tests exist.

Why from the checkout: the battery (``docs/BENCHMARK-TESTS.md``: 54 functions in 6 categories), its test cases
(``benchmark/tests/<category>.json``), the seed's function specs (``extracted/prompt_specs.json`` in the reference
copy) and upstream's reference programs (``examples/``) are third-party, so they are read from the Goth checkout
at run time (``coonbench.datasets.goth_seed.find_checkout``); only our Python references
(``data/correction/goth-battery/python.yaml``) live here. Everything else is derived by code:

- an entry is asked when the test file of its category has a test of its name; its ``main``'s type (in upstream's
  program) gives the signature, and every argument and the result must be ``I64``, ``F64`` or ``Bool``;
- the cases are upstream's: ``⊤``/``⊥`` as booleans, a ``tolerance``/``abstol`` as our absolute tolerance;
- the split: the public cases are the ones the seed shows (its spec's examples for the seed's ten functions, else
  the battery table's example where it is one of the cases, else the first case); when they would be every case,
  the last is held back, so that every problem keeps a hidden case; every hidden case is graded, none is fed back.

Entries left out are returned with the reason (``Battery.left_out``): docs/goth.md names each.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from coonbench.datasets.goth_seed import Checkout
from coonbench.execution.problem import Problem, TestCase
from coonbench.resources import DATA_DIR

PREFIX = "battery-"
"""Battery problem ids are ``battery-<upstream name>`` (they never collide with ours)."""
BATTERY_DOC = "docs/BENCHMARK-TESTS.md"
TESTS_DIR = "benchmark/tests"
SPECS_FILE = "extracted/prompt_specs.json"
PYTHON_REFERENCES = DATA_DIR / "correction" / "goth-battery" / "python.yaml"
SCALARS = {"I64": "int", "F64": "float", "Bool": "bool"}
CATEGORY = {"basic": "basic", "recursion": "recursion", "higher_order": "higher-order", "numeric": "numeric",
            "algorithms": "algorithms"}
"""The battery's test files and our categories."""
COMPLEXITY = {"basic": "basic", "recursion": "intermediate", "higher-order": "intermediate",
              "numeric": "intermediate", "algorithms": "advanced"}
"""Ours: the battery states no complexity."""
CASE_KEYS = {"input", "expected", "tolerance", "abstol"}
_HEADING = re.compile(r"^### \d+\. [^`]*`examples/([a-z-]+)/`")
_ROW = re.compile(r"^\| `([A-Za-z0-9_]+)` \|")
_MAIN = "╭─ main :"


class BatteryFileError(ValueError):
    """A battery file the loader cannot read: names the file, the entry (line or test) and the field."""


@dataclass(frozen=True)
class BatteryEntry:
    """One battery problem with what the seed's prompt shows of it."""

    problem: Problem
    seed_name: str
    seed_signature: str
    description: str
    program: Path
    spec: bool
    """Whether the description and the public cases are the seed's function spec (prompt_specs.json)."""


@dataclass(frozen=True)
class Battery:
    """The battery's entries with tests, and every other entry with the reason it is not asked."""

    entries: tuple[BatteryEntry, ...]
    left_out: dict[str, str] = field(default_factory=dict)

    def entry(self, problem_id: str) -> BatteryEntry:
        for entry in self.entries:
            if entry.problem.id == problem_id:
                return entry
        raise KeyError(f"unknown Goth battery problem '{problem_id}'")


def battery_rows(path: Path) -> list[tuple[str, str, int, str]]:
    """The battery table's rows: (test file stem, entry name, line, the ``Input → Output`` cell)."""
    rows: list[tuple[str, str, int, str]] = []
    suite = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        heading = _HEADING.match(line)
        if heading:
            suite = heading.group(1).replace("-", "_")
        row = _ROW.match(line)
        if row and suite is not None:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.append((suite, row.group(1), number, cells[2] if len(cells) > 2 else ""))
    if not rows:
        raise BatteryFileError(f"{path}: line 1: field 'table': no battery rows (| `name` | …) under a heading")
    return rows


def snake_name(name: str) -> str:
    """Upstream's name as a snake_case function name (``isPrime`` -> ``is_prime``)."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def main_type(program: Path) -> list[str] | None:
    """The types of ``main``'s arguments and result in an upstream program, or None without a ``main``."""
    for line in program.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(_MAIN):
            return [part.strip() for part in line[len(_MAIN):].split("→")]
    return None


def _expected(value: Any, result: str) -> Any:
    if value in ("⊤", "⊥"):
        return value == "⊤"
    return float(value) if result == "float" and isinstance(value, int) else value


def _table_input(cell: str) -> list[str]:
    """The input words of a battery table cell (``3 7 → 7`` -> ['3', '7'])."""
    return cell.strip("`").split("→")[0].split()


def _table_inputs(cell: str) -> list[list[Any]]:
    """The battery table's example as a list of one input (none when its words are not all numbers)."""
    words = _table_input(cell)
    return [[json.loads(w) for w in words]] if all(re.fullmatch(r"-?\d+(\.\d+)?", w) for w in words) else []


def _public_indices(cases: list[dict[str, Any]], shown: list[list[Any]]) -> list[int]:
    """The indices of the public cases: those ``shown``, less the last when that would be every case."""
    public = [i for i, case in enumerate(cases) if case["input"] in shown]
    return public[:-1] if len(public) == len(cases) else public


def _specs(checkout: Checkout) -> dict[str, dict[str, Any]]:
    path = checkout.root / SPECS_FILE
    if not path.is_file():
        return {}
    return {spec["name"]: spec for spec in json.loads(path.read_text(encoding="utf-8"))["tests"]}


def _spec_inputs(spec: dict[str, Any], path: Path) -> list[list[Any]]:
    """The inputs of a spec's examples (``gcd(48, 18)`` -> [48, 18])."""
    inputs = []
    for example in spec["examples"]:
        call = example["call"]
        try:
            inputs.append(json.loads("[" + call[call.index("(") + 1:call.rindex(")")] + "]"))
        except ValueError:
            lines = path.read_text(encoding="utf-8").splitlines()
            line = next((i for i, text in enumerate(lines, 1) if json.dumps(call, ensure_ascii=False) in text), "?")
            raise BatteryFileError(f"{path}: line {line}: test '{spec['name']}': field 'examples.call': "
                                   f"cannot read {call!r}") from None
    return inputs


def _python_references() -> dict[str, dict[str, Any]]:
    data = yaml.safe_load(PYTHON_REFERENCES.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise BatteryFileError(f"{PYTHON_REFERENCES}: line 1: field '(file)': a mapping of upstream names")
    return data


def unaskable(checkout: Checkout, test: dict[str, Any]) -> str | None:
    """Why an entry's test cannot be a problem (no program, no ``main``, a type or a case field the problems
    cannot state), or None."""
    program = checkout.upstream / test["file"]
    if not program.is_file():
        return f"its reference program {test['file']} is not in the checkout"
    types = main_type(program)
    if types is None:
        return f"its reference program {test['file']} has no `main`"
    unknown = [t for t in types if t not in SCALARS]
    if unknown:
        return (f"`main : {' → '.join(types)}` takes or returns {unknown[0]}, a type the problems cannot state "
                "(they take and return integers, floats and booleans) and Python has no counterpart for")
    for i, case in enumerate(test["cases"]):
        extra = set(case) - CASE_KEYS
        if extra or "expected" not in case:
            return f"case {i} has {sorted(extra) or 'no expected value'}, which a problem's test cannot state"
    return None


def _entry(checkout: Checkout, suite: str, test: dict[str, Any], shown_cell: str, spec: dict[str, Any] | None,
           python: dict[str, Any], path: Path) -> BatteryEntry:
    """One askable entry as a problem."""
    name = test["name"]
    program = checkout.upstream / test["file"]
    types = main_type(program) or []
    params = python.get("params", [])
    if len(params) != len(types) - 1:
        raise BatteryFileError(f"{PYTHON_REFERENCES}: entry '{name}': field 'params': {len(params)} names for "
                               f"{len(types) - 1} arguments")
    cases = test["cases"]
    shown = _spec_inputs(spec, checkout.root / SPECS_FILE) if spec else _table_inputs(shown_cell)
    public = _public_indices(cases, shown) or [0]
    order = public + [i for i in range(len(cases)) if i not in public]
    result = SCALARS[types[-1]]
    tests = [TestCase(input=cases[i]["input"], expected=_expected(cases[i]["expected"], result),
                      tolerance=cases[i].get("tolerance", cases[i].get("abstol"))) for i in order]
    description = spec["description"] if spec else test["description"]
    try:
        problem = Problem(
            id=PREFIX + name, category=CATEGORY[suite],  # type: ignore[arg-type]
            complexity=COMPLEXITY[CATEGORY[suite]],  # type: ignore[arg-type]
            signature={"name": snake_name(name), "returns": result,  # type: ignore[arg-type]
                       "params": [{"name": p, "type": SCALARS[t]} for p, t in zip(params, types)]},
            description=description, tests=tests, public=len(public),
            solutions={"python": python["python"]},
        )
    except ValidationError as exc:
        err = exc.errors()[0]
        lines = path.read_text(encoding="utf-8").splitlines()
        line = next((i for i, text in enumerate(lines, 1) if f'"name": "{name}"' in text), "?")
        raise BatteryFileError(f"{path}: line {line}: test '{name}': field "
                               f"'{'.'.join(map(str, err['loc'])) or '(cases)'}': {err['msg']}") from exc
    return BatteryEntry(problem, name, spec["signature"] if spec else " → ".join(types), description, program,
                        spec is not None)


def json_ast(binary: str, program: Path) -> str:
    """Upstream's program as its JSON AST (the interpreter's ``--to-json``): the goth-json target's gold, derived at
    run time, as ``data/correction/goth-json/`` is for our programs."""
    try:
        out = subprocess.run([binary, "--to-json", str(program)], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BatteryFileError(f"{program}: line 1: field '(program)': goth --to-json failed: {exc}") from exc
    if out.returncode != 0 or out.stderr.strip() or not out.stdout.lstrip().startswith("{"):
        raise BatteryFileError(f"{program}: line 1: field '(program)': goth --to-json failed: "
                               f"{(out.stderr or out.stdout).strip()[-300:]}")
    return out.stdout


@lru_cache(maxsize=4)
def load_battery(checkout: Checkout) -> Battery:
    """The battery's entries in the table's order; a malformed file raises ``BatteryFileError``."""
    doc = checkout.root / BATTERY_DOC
    if not doc.is_file():
        raise BatteryFileError(f"{doc}: line 1: field '(file)': the battery document is not in the checkout")
    specs, pythons = _specs(checkout), _python_references()
    suites: dict[str, dict[str, dict[str, Any]]] = {}
    entries: list[BatteryEntry] = []
    left_out: dict[str, str] = {}
    for suite, name, line, cell in battery_rows(doc):
        path = checkout.root / TESTS_DIR / f"{suite}.json"
        if suite not in suites:
            suites[suite] = ({t["name"]: t for t in json.loads(path.read_text(encoding="utf-8"))["tests"]}
                             if path.is_file() else {})
        test = suites[suite].get(name)
        reason = None if test is None else unaskable(checkout, test)
        if test is None:
            left_out[name] = f"{TESTS_DIR}/{suite}.json has no test of that name (the table's one example is all)"
        elif reason is not None:
            left_out[name] = reason
        elif suite not in CATEGORY or name not in pythons:
            left_out[name] = f"no category or Python reference of ours for it ({PYTHON_REFERENCES.name})"
        else:
            entries.append(_entry(checkout, suite, test, cell, specs.get(name), pythons[name], path))
    return Battery(tuple(entries), left_out)
