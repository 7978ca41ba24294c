"""The Goth seed's designed battery as correction problems (issue 55): which entries, their split, their references.

What is asked is recomputed here from the seed's files by a reading of our own (the battery table's rows, the test
files' names, the ``main`` line of upstream's programs); every problem is checked against upstream's reference
program on the interpreter (in the sandbox: the same program ``coonbench goth-conformance`` runs for the case),
against the interpreter's JSON AST of it, and against our Python reference, which must also compute what
upstream's program computes beyond the cases. The sealed split is checked end to end through ``inspect eval``.
Skips where ../shared or the interpreter is absent.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, get_model

from coonbench.datasets.correction import correction_dataset
from coonbench.datasets.goth_battery import Battery, BatteryFileError, json_ast, load_battery
from coonbench.datasets.goth_seed import find_checkout
from coonbench.evals.correction import correction
from coonbench.execution import AttemptResult, Outcome, Problem, get_executor
from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig, capabilities
from coonbench.tasks.state import CorrectionState
from tests.conftest import reference_path

DOCS = Path(__file__).resolve().parent.parent / "docs"
needs_isolation = pytest.mark.skipif(capabilities()["isolation"] != "full", reason="no isolation on this machine")
SCALAR = {"I64", "F64", "Bool"}


@pytest.fixture(scope="module")
def battery() -> Battery:
    return load_battery(find_checkout(reference_path("goth")))


def table() -> list[tuple[str, str]]:
    """(test file, name) of every row of the battery table, read our way."""
    rows, folder = [], None
    for line in (reference_path("goth", "docs", "BENCHMARK-TESTS.md")).read_text(encoding="utf-8").splitlines():
        if line.startswith("### ") and "`examples/" in line:
            folder = line.split("`examples/")[1].split("/")[0].replace("-", "_")
        elif line.startswith("| `") and folder:
            rows.append((folder, line.split("`")[1]))
    return rows


def suite_tests(folder: str) -> dict[str, Any]:
    path = reference_path("goth") / "benchmark" / "tests" / f"{folder}.json"
    return {t["name"]: t for t in json.loads(path.read_text(encoding="utf-8"))["tests"]} if path.is_file() else {}


def main_types(test: dict[str, Any]) -> list[str]:
    text = (reference_path("goth", "upstream") / test["file"]).read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("╭─ main"))
    return [t.strip() for t in line.split(":", 1)[1].split("→")]


def run(target: str, code: str, problem: Problem) -> AttemptResult:
    box = LocalLimitedSandbox(LocalSandboxConfig())
    try:
        return asyncio.run(get_executor(target).run(code, problem, case_timeout=10, box=box))
    finally:
        box.close()


def test_the_battery_is_every_table_entry_with_scalar_test_cases(battery: Battery) -> None:
    rows = table()
    assert len(rows) == 54  # the battery document's own total
    asked = [name for folder, name in rows
             if name in suite_tests(folder) and set(main_types(suite_tests(folder)[name])) <= SCALAR]
    assert [e.seed_name for e in battery.entries] == asked
    assert sorted(battery.left_out) == sorted(name for _, name in rows if name not in asked)
    assert len(asked) == 39


def test_docs_name_every_entry_left_out_and_why(battery: Battery) -> None:
    page = (DOCS / "goth.md").read_text(encoding="utf-8")
    section = page.split("## The designed battery", 1)[1].split("\n## ", 1)[0]
    for name in battery.left_out:
        assert f"`{name}`" in section, name
    assert f"{len(battery.entries)} of the battery's {len(table())} entries" in section


def test_the_cases_are_upstreams_and_the_split_is_the_seeds(battery: Battery) -> None:
    specs = {s["name"]: s for s in json.loads(reference_path("goth", "extracted", "prompt_specs.json")
                                              .read_text(encoding="utf-8"))["tests"]}
    tests = {name: t for folder, _ in table() for name, t in suite_tests(folder).items()}
    for entry in battery.entries:
        problem, upstream = entry.problem, tests[entry.seed_name]["cases"]
        mine = [(c.input, c.expected) for c in problem.tests]
        want = [(c["input"], {"⊤": True, "⊥": False}.get(c["expected"], c["expected"])) for c in upstream]
        assert sorted(map(json.dumps, mine)) == sorted(map(json.dumps, want)), entry.seed_name
        public = [c.input for c in problem.public_tests]
        hidden = [c.input for c in problem.hidden_tests]
        assert hidden and not [i for i in hidden if i in public], entry.seed_name  # a hidden case, never shown
        assert problem.grading_tests == problem.hidden_tests and not problem.feedback_tests
        if entry.seed_name in specs:
            shown = [json.loads("[" + e["call"].split("(", 1)[1].rsplit(")", 1)[0] + "]")
                     for e in specs[entry.seed_name]["examples"]]
            assert public == [i for i in (c["input"] for c in upstream) if i in shown][:len(public)]
            assert entry.description == specs[entry.seed_name]["description"] and entry.spec
        else:
            assert len(public) == 1 and not entry.spec
    assert sum(e.spec for e in battery.entries) == len(specs) == 10  # the seed's ten function specs are all asked


@needs_isolation
def test_every_problem_is_solved_by_upstreams_program_its_json_ast_and_our_python(battery: Battery,
                                                                                 goth: str) -> None:
    for entry in battery.entries:
        problem = entry.problem
        for target, code in (("goth", entry.program.read_text(encoding="utf-8")),
                             ("goth-json", json_ast(goth, entry.program)),
                             ("python", problem.solutions["python"])):
            result = run(target, code, problem)
            assert result.outcome is Outcome.PASS and result.passed == result.total == len(problem.tests), \
                (entry.seed_name, target, result)


def _grid(types: list[str]) -> list[list[Any]]:
    """Small arguments beyond the cases (non-negative: upstream's programs state no behaviour below 0)."""
    if types[:-1] == ["I64"]:
        return [[n] for n in range(0, 13)]
    if types[:-1] == ["F64"]:
        return [[x / 2] for x in range(1, 9)]
    if types[:-1] == ["I64", "I64"]:
        return [[a, b] for a in range(1, 5) for b in range(0, 4)]
    return []


def test_our_python_computes_what_upstreams_program_computes(battery: Battery, goth: str) -> None:
    """Beyond the cases: the Python comparison asks the same function, not only the same answers."""
    compared = 0
    for entry in battery.entries:
        namespace: dict[str, Any] = {}
        exec(entry.problem.solutions["python"], namespace)  # our own reference, from data/correction
        function = namespace[entry.problem.signature.name]
        for args in _grid(main_types({"file": str(entry.program.relative_to(reference_path("goth", "upstream")))})):
            try:
                out = subprocess.run([goth, str(entry.program), *map(str, args)], capture_output=True, text=True,
                                     timeout=5)
            except subprocess.TimeoutExpired:
                continue  # upstream's program does not end there (nth_prime 0)
            printed = out.stdout.strip()
            if out.returncode or out.stderr.strip() or not printed:
                continue  # upstream's program has no answer there (a stack limit, a precondition)
            expected = function(*args)
            got: Any = {"⊤": True, "⊥": False}.get(printed, printed)
            if isinstance(expected, float):
                assert abs(float(got) - expected) <= 1e-6 * max(1.0, abs(expected)), (entry.seed_name, args, got)
            else:
                assert got == expected if isinstance(expected, bool) else int(got) == expected, \
                    (entry.seed_name, args, got, expected)
            compared += 1
    assert compared > 300


def _table_program(problem: Problem) -> str:
    """A Goth lookup table of the public answers (a failed precondition elsewhere)."""
    def literal(v: Any) -> str:
        if isinstance(v, bool):
            return "⊤" if v else "⊥"
        text = repr(abs(v))
        return f"(0 - {text})" if v < 0 and isinstance(v, int) else f"(0.0 - {text})" if v < 0 else text

    types = {"int": "I64", "float": "F64", "bool": "Bool"}
    n = len(problem.signature.params)
    body = "fail 0"
    for case in reversed(problem.public_tests):
        cond = " ∧ ".join(f"{'₀₁₂₃'[n - 1 - i]} = {literal(v)}" for i, v in enumerate(case.input))
        body = f"if {cond} then {literal(case.expected)} else {body}"
    sig = " → ".join(types[t] for t in [*(p.type for p in problem.signature.params), problem.signature.returns])
    return f"╭─ fail : I64 → I64\n│  ⊢ ⊥\n╰─ 0\n\n╭─ main : {sig}\n╰─ {body}\n"


@needs_isolation
def test_a_table_of_the_public_answers_fails_every_problem(battery: Battery, goth: str) -> None:
    """Every problem keeps a hidden case (the held-back example where the seed shows them all): a program that
    knows only what the prompt shows fails each one, while it passes every public case."""
    for entry in battery.entries:
        problem = entry.problem
        result = run("goth", _table_program(problem), problem)
        assert result.passed >= len(problem.public_tests), (entry.seed_name, _table_program(problem), result)
        assert result.outcome is not Outcome.PASS and result.passed < result.total, (entry.seed_name, result)


@needs_isolation
def test_no_hidden_case_reaches_a_message_and_the_dialogue_runs_the_public_ones(battery: Battery,
                                                                                goth: str) -> None:
    """Through inspect eval: a wrong program (feedback on a public case, then the table of the public answers,
    which passes the dialogue): no message quotes a hidden case, the dialogue runs only the public cases, and
    the grading run fails the table on a hidden one."""
    ids = ["battery-isPrime", "battery-power", "battery-pipeline", "battery-gcd"]
    entries = [battery.entry(i) for i in ids]
    by_name = {e.seed_name: e for e in entries}

    def respond(messages, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        first = next(m.text for m in messages if m.role == "user")
        problem = by_name[first.split("**Function**: ", 1)[1].split("\n", 1)[0]].problem
        table = _table_program(problem)
        fed_back = any("Failing public test" in m.text for m in messages if m.role == "user")
        code = table if fed_back else table.replace("if ", "if ⊥ ∧ ", 1)  # first: every public case wrong
        return ModelOutput.from_content(model="mockllm/model", content=f"```goth\n{code}```")

    log = inspect_eval(correction(target="goth", suite="goth-battery", problems=",".join(ids), max_retries=1),
                       model=get_model("mockllm/model", custom_outputs=respond), display="none", log_dir=None)[0]
    assert log.status == "success", log.error
    assert len(log.samples) == len(ids)
    for sample in log.samples:
        entry = battery.entry(sample.metadata["problem_id"])
        problem = entry.problem
        attempts = sample.store_as(CorrectionState).attempts
        assert [a["outcome"] for a in attempts][-1:] == ["PASS"] and len(attempts) == 2  # in the dialogue
        assert all(a["total"] == len(problem.public_tests) for a in attempts)
        assert sample.scores["correction_scorer"].value["correct"] == 0.0  # graded on the hidden cases
        text = "\n".join(m.text for m in sample.messages)
        assert "Failing public test" in text
        for case in problem.hidden_tests:
            for name in (entry.seed_name, problem.signature.name):
                call = f"{name}({', '.join(json.dumps(a) for a in case.input)})"
                assert call not in text, (entry.seed_name, call)
        assert f"Failing public test 1 of {len(problem.public_tests)}: {problem.call_text(problem.public_tests[0])}" \
            in text


def test_the_battery_runs_on_python_but_not_javascript(battery: Battery) -> None:
    samples = correction_dataset("python", suite="goth-battery", goth_checkout=str(reference_path("goth")))
    assert [s.metadata["problem_id"] for s in samples] == [e.problem.id for e in battery.entries]
    assert all(s.id == f"correction-{s.metadata['problem_id']}-python" for s in samples)
    with pytest.raises(ValueError, match="suite=goth-battery runs on target=goth"):
        correction_dataset("javascript", suite="goth-battery")
    with pytest.raises(ValueError, match="battery-gcd"):
        correction_dataset("python", suite="goth-battery", problems="battery-gdc")



def test_a_malformed_test_file_names_file_line_and_test(tmp_path: Path) -> None:
    reference = reference_path("goth")
    for folder in ("benchmark", "docs", "extracted"):
        shutil.copytree(reference / folder, tmp_path / folder)
    (tmp_path / "upstream").symlink_to(reference / "upstream")
    path = tmp_path / "benchmark" / "tests" / "recursion.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["tests"][1]["cases"][0]["input"] = ["ten"]  # fibonacci takes an I64
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    line = next(i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if '"name": "fibonacci"' in text)
    pattern = rf"recursion.json: line {line}: test 'fibonacci': field .*input n: expected int"
    with pytest.raises(BatteryFileError, match=pattern):
        load_battery(find_checkout(tmp_path))


@needs_isolation
@pytest.mark.parametrize("target", ["goth", "goth-json", "python", "python-ast"])
def test_gold_scores_100_percent_on_the_battery(battery: Battery, goth: str, target: str) -> None:
    from coonbench.solvers.gold import gold

    log = inspect_eval(correction(target=target, suite="goth-battery"), model="mockllm/model", solver=gold(),
                       display="none", log_dir=None)[0]
    assert log.status == "success", log.error
    assert log.results is not None and log.results.total_samples == len(battery.entries)
    means = {s.name: s.metrics["mean"].value for s in log.results.scores if "mean" in s.metrics}
    assert means["correct"] == 1.0 and means["first_attempt_success"] == 1.0
