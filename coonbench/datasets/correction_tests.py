"""Hidden tests of the correction problems, generated (never typed by hand) and committed as data.

For each problem a seeded, type-aware generator (EvalPlus-style: mutations of the public inputs, random values
of the signature's types, edge values: empty, zero, negative, large, unicode, duplicates) proposes inputs inside
the problem's ``domain`` (the statement's preconditions). The Python reference computes the expected values
(an input it rejects with ValueError becomes an ``expected_error`` test on problems that test invalid input;
elsewhere it is left out); the JavaScript reference must agree on every test (differential check).

    python -m coonbench.datasets.correction_tests           # write data/correction/hidden/<id>.json
    python -m coonbench.datasets.correction_tests --check   # regenerate in memory; exit 1 if a file differs

Both references run outside the sandbox: they are this repository's own code, not a model's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import string
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from coonbench.datasets.generated_files import render_tests, sync_file
from coonbench.execution.base import harness_text, values_equal
from coonbench.execution.problem import ParamDomain, Problem, TestCase
from coonbench.execution.types import TypeExpr, parse_type, type_mismatch

HIDDEN_COUNT = 30  # generated per problem (the issue asks for at least 25)
MIN_HIDDEN = 25
CANDIDATES = 600  # proposals per problem before giving up
CASE_TIMEOUT = 2.0
INT_EDGES = (0, 1, -1, 2, -2, 7, 10, -10, 99, 100, 1000, -1000, 65536, 10**6, -(10**6), 2**31 - 1)
FLOAT_EDGES = (0.0, 1.0, -1.0, 0.5, -0.25, 2.5, 100.0, 1e-3, 12345.678, -999.5)
STR_EDGES = ("", "a", "aa", "ab", "Z", "abcba", "hello world", "  spaced  out ", "AbC dEf", "aaabbbccc", "x1y2z3",
             "héllo wörld", "日本語テキスト", "ñandú", "racecar", "12345", "a,b;c.d!", "ab\tcd\nef")
BOUNDARY_INTS = INT_EDGES + (3, 4, 9, 25, 49, 121, -3)  # squares of primes: a trial division that stops early
"""Boundary inputs appended to a one-number problem's hidden tests when its generated ones miss them (found by
``benchmarks/mutation_score.py --suite coonbench``: ``d * d < n`` for ``d * d <= n``, ``n < -1`` for ``n < 0``)."""
ALPHABET = string.ascii_letters + string.digits + " .,;!?-_'()[]{}" + "éüñ日本"
DEFAULT_INT = (-1000, 1000)
DEFAULT_FLOAT = (-1000.0, 1000.0)
DEFAULT_LEN = 12


class GeneratorError(RuntimeError):
    """The generators or the references misbehaved (disagreement, timeout, too few tests)."""


def rng_for(problem_id: str) -> random.Random:
    """The problem's own seeded generator (stable across Python versions and runs)."""
    return random.Random(int.from_bytes(hashlib.sha256(f"hidden:{problem_id}".encode()).digest()[:8], "big"))


def _bounds(domain: ParamDomain, default: tuple[float, float]) -> tuple[float, float]:
    return (default[0] if domain.min is None else domain.min, default[1] if domain.max is None else domain.max)


def _in_domain(value: Any, t: TypeExpr, domain: ParamDomain, top: bool = True) -> bool:
    """Does a proposed value respect the parameter's preconditions (elements checked recursively)?"""
    if type_mismatch(value, t) is not None:
        return False
    if top and domain.choices is not None and value not in domain.choices:
        return False
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, (int, float)):
        return (domain.min is None or value >= domain.min) and (domain.max is None or value <= domain.max)
    if isinstance(value, str) and top:
        ok_len = (domain.min_len is None or len(value) >= domain.min_len) and (domain.max_len is None or len(value) <= domain.max_len)
        return ok_len and (domain.alphabet is None or all(ch in domain.alphabet for ch in value))
    if isinstance(value, list):
        if top and ((domain.min_len is not None and len(value) < domain.min_len)
                    or (domain.max_len is not None and len(value) > domain.max_len)):
            return False
        if top and domain.sorted and value != sorted(value):
            return False
        if top and domain.unique and len({json.dumps(v) for v in value}) != len(value):
            return False
        if top and domain.items is not None and any(v not in domain.items for v in value):
            return False
        if top and domain.rectangular and (not all(isinstance(r, list) and r for r in value)
                                           or len({len(r) for r in value}) > 1):
            return False
        return all(_in_domain(v, _elem(t, v), domain, False) for v in value)
    if isinstance(value, dict):
        return all(_in_domain(v, _elem(t, v), domain, False) for v in value.values())
    return True


def _elem(t: TypeExpr, value: Any) -> TypeExpr:
    """The element type of a list/dict type (the arm of a union the value fits)."""
    if t.kind == "union":
        t = next((a for a in t.args if a.kind in ("list", "dict")), t.args[0])
    return t.args[0] if t.kind in ("list", "dict") else t


def random_value(t: TypeExpr, domain: ParamDomain, rng: random.Random, depth: int = 0) -> Any:
    """A random value of type ``t`` drawn inside ``domain`` (bounds apply to scalars at any depth)."""
    if domain.choices is not None and depth == 0:
        return rng.choice(domain.choices)
    if t.kind == "union":
        return random_value(rng.choice(t.args), domain, rng, depth)
    if t.kind == "int":
        lo, hi = _bounds(domain, DEFAULT_INT)
        edges = [e for e in INT_EDGES if lo <= e <= hi]
        return rng.choice(edges) if edges and rng.random() < 0.25 else rng.randint(int(lo), int(hi))
    if t.kind == "float":
        lo, hi = _bounds(domain, DEFAULT_FLOAT)
        edges = [e for e in FLOAT_EDGES if lo <= e <= hi]
        return rng.choice(edges) if edges and rng.random() < 0.25 else round(rng.uniform(lo, hi), 3)
    if t.kind == "bool":
        return rng.random() < 0.5
    if t.kind == "none":
        return None
    if t.kind == "str":
        return _random_str(domain, rng, depth)
    if t.kind == "list":
        return _random_list(t, domain, rng, depth)
    if t.kind == "dict":
        n = rng.randint(0, min(domain.max_len or 6, 6))
        return {_random_str(ParamDomain(max_len=4, min_len=1), rng, 1): random_value(t.args[0], domain, rng, depth + 1)
                for _ in range(n)}
    raise GeneratorError(f"no generator for type {t}")


def _random_str(domain: ParamDomain, rng: random.Random, depth: int) -> str:
    alphabet = domain.alphabet if depth == 0 and domain.alphabet else ALPHABET
    lo = (domain.min_len or 0) if depth == 0 else 0
    hi = domain.max_len if depth == 0 and domain.max_len is not None else 20
    if depth == 0 and rng.random() < 0.3:
        edges = [e for e in STR_EDGES if lo <= len(e) <= hi and all(c in alphabet for c in e)]
        if edges:
            return rng.choice(edges)
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(lo, max(lo, hi))))


def _random_list(t: TypeExpr, domain: ParamDomain, rng: random.Random, depth: int) -> list[Any]:
    lo = (domain.min_len or 0) if depth == 0 else 0
    hi = domain.max_len if depth == 0 and domain.max_len is not None else DEFAULT_LEN
    n = rng.randint(lo, max(lo, hi))
    if depth == 0 and domain.items is not None:
        return [rng.choice(domain.items) for _ in range(n)]
    if depth == 0 and domain.rectangular:
        width = rng.randint(1, 5)
        return [[random_value(t.args[0].args[0], domain, rng, 2) for _ in range(width)] for _ in range(n)]
    items = [random_value(t.args[0], domain, rng, depth + 1) for _ in range(n)]
    if items and rng.random() < 0.25:  # duplicates
        items[rng.randrange(len(items))] = rng.choice(items)
    if depth == 0 and domain.unique:
        seen: dict[str, Any] = {}
        for item in items:
            seen.setdefault(json.dumps(item, sort_keys=True), item)
        items = list(seen.values())
    if depth == 0 and domain.sorted:
        items.sort()
    return items


def mutate(value: Any, t: TypeExpr, domain: ParamDomain, rng: random.Random) -> Any:
    """EvalPlus-style type-aware mutation of a seed value."""
    if t.kind == "union" or value is None or isinstance(value, bool):
        return random_value(t, domain, rng)
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, -value, value * 2, value // 2, value * 10, random_value(t, domain, rng)])
    if isinstance(value, float):
        return rng.choice([value + 1.0, -value, value * 2.0, round(value / 3.0, 6), random_value(t, domain, rng)])
    if isinstance(value, str):
        return _mutate_str(value, domain, rng)
    if isinstance(value, list):
        return _mutate_list(value, t, domain, rng)
    return random_value(t, domain, rng)


def _mutate_str(value: str, domain: ParamDomain, rng: random.Random) -> str:
    alphabet = domain.alphabet or ALPHABET
    pos = rng.randint(0, len(value))
    ops: list[Callable[[], str]] = [
        lambda: value[:pos] + rng.choice(alphabet) + value[pos:],
        lambda: value[:pos] + value[pos + 1:],
        lambda: value[::-1],
        lambda: value + value,
        lambda: value.swapcase() if domain.alphabet is None else value,
        lambda: value[:pos] + value[pos:pos + 1] * 3 + value[pos + 1:],
    ]
    return rng.choice(ops)()


def _mutate_list(value: list[Any], t: TypeExpr, domain: ParamDomain, rng: random.Random) -> list[Any]:
    items = list(value)
    elem = t.args[0] if t.kind == "list" else t
    choice = rng.randrange(5)
    if domain.items is not None or domain.rectangular:
        return _random_list(t, domain, rng, 0) if choice == 0 else (rng.shuffle(items) or items)
    if choice == 0:
        items.append(random_value(elem, domain, rng, 1))
    elif choice == 1 and items:
        items.pop(rng.randrange(len(items)))
    elif choice == 2 and items:
        i = rng.randrange(len(items))
        items[i] = mutate(items[i], elem, domain, rng)
    elif choice == 3 and items:
        items.insert(rng.randrange(len(items) + 1), rng.choice(items))
    else:
        rng.shuffle(items)
    if domain.sorted:
        items.sort()
    return items


def boundary_cases(problem: Problem) -> list[dict[str, Any]]:
    """Every boundary value inside the domain, for a problem of one int or float parameter (not enumerated)."""
    params = problem.signature.params
    if len(params) != 1 or params[0].type not in ("int", "float") or _finite_domain(problem) is not None:
        return []
    t = parse_type(params[0].type)
    domain = problem.domain.get(params[0].name, ParamDomain())
    values = BOUNDARY_INTS if params[0].type == "int" else FLOAT_EDGES
    lo, hi = _bounds(domain, DEFAULT_INT if params[0].type == "int" else DEFAULT_FLOAT)  # as random_value draws
    return [{"input": [v]} for v in values if lo <= v <= hi and _in_domain(v, t, domain)]


def _key(case: dict[str, Any]) -> str:
    return json.dumps(case, sort_keys=True)


def _finite_domain(problem: Problem) -> list[list[Any]] | None:
    """Every input when the domain is small (one int parameter with bounds, or a choices list)."""
    params = problem.signature.params
    if len(params) != 1:
        return None
    domain = problem.domain.get(params[0].name, ParamDomain())
    if domain.choices is not None:
        return [[c] for c in domain.choices]
    if params[0].type == "int" and domain.min is not None and domain.max is not None and domain.max - domain.min < 60:
        return [[v] for v in range(int(domain.min), int(domain.max) + 1)]
    return None


def proposals(problem: Problem, rng: random.Random | None = None) -> Iterator[dict[str, Any]]:
    """Candidate cases in a fixed order: the whole domain when it is small, else mutations and random draws
    (from ``rng``, by default the problem's own: ``rng_for``)."""
    rng = rng or rng_for(problem.id)
    params = [(p.name, parse_type(p.type)) for p in problem.signature.params]
    domains = [problem.domain.get(name, ParamDomain()) for name, _ in params]
    ret = problem.signature.return_type
    then_types = list(ret.args[:-1]) if ret.kind == "fn" else None
    finite = _finite_domain(problem)
    seeds = [c.input for c in problem.tests]
    for i in range(len(finite) if finite is not None else CANDIDATES):
        if finite is not None:
            args = finite[i]
        elif seeds and rng.random() < 0.5:
            seed = rng.choice(seeds)
            args = [mutate(v, t, d, rng) if rng.random() < 0.6 else v for v, (_, t), d in zip(seed, params, domains)]
        else:
            args = [random_value(t, d, rng) for (_, t), d in zip(params, domains)]
        if not all(_in_domain(v, t, d) for v, (_, t), d in zip(args, params, domains)):
            continue
        named = {name: v for (name, _), v in zip(params, args)}
        if any(d.at_least is not None and named[name] < named[d.at_least] for (name, _), d in zip(params, domains)):
            continue
        case: dict[str, Any] = {"input": args}
        if then_types is not None:
            case["then_call"] = [random_value(t, ParamDomain(min=-100, max=100), rng) for t in then_types]
        yield case


def _run_worker(command: list[str], files: dict[str, str], cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run a harness worker (the same one the sandbox uses) over cases; one answer per case."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in files.items():
            Path(tmp, name).write_text(text, encoding="utf-8")
        stdin = "".join(json.dumps(c) + "\n" for c in cases)
        proc = subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=tmp,
                              timeout=CASE_TIMEOUT * len(cases) + 60)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    if not lines or lines[0].get("stage") != "ready" or len(lines) != len(cases) + 1:
        raise GeneratorError(f"reference worker failed ({command[0]}): {proc.stdout[-300:]} {proc.stderr[-300:]}")
    return lines[1:]


def run_python(problem: Problem, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Python reference's answers."""
    files = {"runner.py": harness_text("python_runner.py"), "solution.py": problem.solutions["python"]}
    command = [sys.executable, "-I", "-S", "runner.py", "py", "solution.py", problem.signature.name, str(CASE_TIMEOUT), "2048"]
    return _run_worker(command, files, cases)


def run_javascript(problem: Problem, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The JavaScript reference's answers (Node)."""
    files = {"runner.js": harness_text("js_runner.js"), "solution.js": problem.solutions["javascript"]}
    return _run_worker(["node", "runner.js", "solution.js", problem.signature.name, str(CASE_TIMEOUT)], files, cases)


def _tolerance(problem: Problem) -> float | None:
    tolerances = [c.tolerance for c in problem.tests if c.tolerance is not None]
    return max(tolerances) if tolerances else None


def _as_test(problem: Problem, case: dict[str, Any], res: dict[str, Any], errors_allowed: bool) -> dict[str, Any] | None:
    """The test the Python reference's answer makes of a case, or None when the input is outside the domain."""
    ret = problem.signature.return_type
    ret = ret.args[-1] if ret.kind == "fn" else ret
    if res.get("status") == "timeout":
        raise GeneratorError(f"{problem.id}: the Python reference timed out on {case}; narrow the domain")
    if res.get("status") == "error":
        return {**case, "expected_error": "value_error"} if errors_allowed and res.get("value_error") else None
    value = res.get("value")
    if type_mismatch(value, ret) is not None:
        return None
    test = {**case, "expected": value}
    tol = _tolerance(problem)
    return {**test, "tolerance": tol} if tol is not None and isinstance(value, float) else test


def _agree(test: dict[str, Any], js: dict[str, Any]) -> bool:
    if "expected_error" in test:
        return js.get("status") == "error" and bool(js.get("value_error"))
    return js.get("status") == "ok" and values_equal(js.get("value"), test["expected"], test.get("tolerance"))


def generate(problem: Problem) -> list[dict[str, Any]]:
    """The problem's hidden tests (deterministic); raises GeneratorError when the references disagree."""
    known = {_key({"input": c.input, **({"then_call": c.then_call} if c.then_call is not None else {})})
             for c in problem.tests}
    cases: list[dict[str, Any]] = []
    for case in proposals(problem):
        if _key(case) not in known:
            known.add(_key(case))
            cases.append(case)
    errors_allowed = any(c.expected_error for c in problem.tests)
    tests = [t for case, res in zip(cases, run_python(problem, cases)) if (t := _as_test(problem, case, res, errors_allowed))]
    tests = tests[:HIDDEN_COUNT]
    chosen = {_key({"input": c.input}) for c in problem.tests} | {_key({"input": t["input"]}) for t in tests}
    edges = [c for c in boundary_cases(problem) if _key(c) not in chosen]  # then the boundaries the draws missed
    tests += [t for c, r in zip(edges, run_python(problem, edges) if edges else []) if (t := _as_test(problem, c, r, errors_allowed))]
    finite = _finite_domain(problem)
    if len(tests) < MIN_HIDDEN and (finite is None or len(tests) + len(problem.tests) < len(finite)):
        raise GeneratorError(f"{problem.id}: only {len(tests)} hidden tests inside the domain")
    if "javascript" in problem.solutions:
        js = run_javascript(problem, [{k: v for k, v in t.items() if k in ("input", "then_call")} for t in tests])
        wrong = [(t, r) for t, r in zip(tests, js) if not _agree(t, r)]
        if wrong:
            shown = "; ".join(f"{t['input']}: python {t.get('expected', 'error')} / javascript {r}" for t, r in wrong[:3])
            raise GeneratorError(f"{problem.id}: the references disagree on {len(wrong)} test(s): {shown}")
    return tests


def render(problem: Problem, tests: list[dict[str, Any]]) -> str:
    """The committed file: a header line, then one test per line (so errors can name the line)."""
    return render_tests(problem.id, "coonbench.datasets.correction_tests", tests)


def hidden_path(directory: Path, problem_id: str) -> Path:
    """Where a problem's hidden tests live."""
    return directory / "hidden" / f"{problem_id}.json"


def main(argv: list[str] | None = None) -> int:
    """Write (or --check) every problem's hidden-test file."""
    from coonbench.datasets.correction import PROBLEMS_DIR, load_problems

    parser = argparse.ArgumentParser(prog="python -m coonbench.datasets.correction_tests", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="regenerate in memory; exit 1 if a committed file differs")
    parser.add_argument("--problems", default=None, help="comma-separated problem ids (default all)")
    args = parser.parse_args(argv)
    wanted = set(args.problems.split(",")) if args.problems else None
    stale = []
    for problem in load_problems(PROBLEMS_DIR, with_hidden=False):
        if wanted is not None and problem.id not in wanted:
            continue
        sync_file(hidden_path(PROBLEMS_DIR, problem.id), render(problem, generate(problem)), args.check, stale)
    if stale:
        print("hidden tests differ from their generator (run without --check):\n  " + "\n  ".join(stale))
        return 1
    print("hidden tests " + ("match their generator" if args.check else "written"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
