"""Output prediction on real Python (CRUXEval's design): what does ``f(x)`` return, for a function of the Python
corpus and inputs chosen here, the answer found by running the function in the sandbox.

    python -m coonbench.datasets.output_prediction           # generate and count
    python -m coonbench.datasets.output_prediction --write   # write data/comprehension/python-outputs.v1.jsonl

A function is a candidate when it may be pure: defined once at the top level, no decorator, 1-3 plain
positional parameters, no ``global``/``nonlocal``/``yield``/``await``/``import``/``with``/``del`` in it and no name
of ``UNSAFE_NAMES`` (input and output, the process, the clock, randomness, identity). Whatever it does runs in the
sandbox, so a candidate that is not pure after all changes nothing outside; the two runs below keep only what
returns the same value twice. Inputs are drawn, seeded per function, from ``INPUT_POOL`` (small ints,
strings, lists); each proposal is run in the sandbox (``coonbench.execution``: the correction task's Python
worker, through ``Executor.run``) twice, in two processes (two hash seeds) and in opposite orders (state a module
keeps between calls shows), and kept when both runs return the same plain value: an int, a finite float, a bool, None, or a short one-line string. At most ``PER_FUNCTION`` calls of a
function with different answers, ``PER_FILE`` functions of a file. The file is committed so that building a task
never runs code; the comprehension task adds these questions (question type ``output_prediction``) to the Python
corpus's own.
"""

from __future__ import annotations

import ast
import asyncio
import hashlib
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from coonbench.datasets.comprehension import DATASET_VERSION, executed_questions_file
from coonbench.datasets.corpus import load_corpus
from coonbench.datasets.question_files import questions_main
from coonbench.execution import get_executor
from coonbench.execution.isolation import LocalSandboxConfig
from coonbench.execution.sandbox import LocalLimitedSandbox
from coonbench.languages import Question, get_language
from coonbench.languages.python.parse import parse_python
from coonbench.languages.python.questions import own_nodes, read_module

QUESTIONS_FILE = executed_questions_file("python")
QUESTION_TYPE = "output_prediction"
SEED = 20261202
PER_FUNCTION, PER_FILE, PROPOSALS = 3, 3, 24
CASE_TIMEOUT_S = 1.0
UNSAFE_NAMES = frozenset(
    "open print input exec eval compile __import__ breakpoint exit quit globals locals vars id hash object "
    "os sys time random subprocess shutil socket threading tempfile io pathlib datetime signal gc ctypes "
    "warnings logging uuid secrets platform getpass locale".split()
)
"""Names a candidate may not read: input and output, the process, the clock, randomness and identity."""
INPUT_POOL: tuple[Any, ...] = (
    0, 1, 2, 3, 5, 7, 10, 12, 100, -1, -3, 0.5, 2.5, -1.25, "", "a", "abc", "hello world", "Hello", "a,b,c", "x_y",
    "42", "3.14", "  padded  ", "CamelCase", "snake_case_name", "a=1", "path/to/file.txt", "foo.bar", "1.2.3",
    "yes", "no", "true", "None", [], [1, 2, 3], [3, 1, 2], ["a", "b"], [0, 5, -2, 5], ["x", "y", "x"], True, False,
    None,
)
"""What a parameter may be given (JSON values: they reach the worker as JSON)."""
QUESTION = ("What does the call `{call}` return, where `{name}` is the function defined in the code? Give the "
            "returned value only: a string without quotes, a number as Python prints it, True, False or None.")
_UNSAFE_NODES = (ast.Global, ast.Nonlocal, ast.Yield, ast.YieldFrom, ast.Await, ast.Import, ast.ImportFrom,
                 ast.Lambda, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef, ast.With, ast.Delete)


def _reads_ok(fn: ast.FunctionDef) -> bool:
    """No unsafe node, no name of ``UNSAFE_NAMES`` (read or called) in the function's own body or defaults, and
    no attribute or item written but of its own locals."""
    local = {a.arg for a in fn.args.args} | {n.id for n in own_nodes(fn)
                                            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    for node in [*own_nodes(fn), *fn.args.defaults]:
        if isinstance(node, _UNSAFE_NODES):
            return False
        if isinstance(node, ast.Name) and node.id in UNSAFE_NAMES:
            return False
        if isinstance(node, ast.Attribute) and node.attr in UNSAFE_NAMES:
            return False
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, ast.Store) and not (
            isinstance(node.value, ast.Name) and node.value.id in local
        ):
            return False  # writes into something it did not make: module state
    return True


def candidate_functions(source: str) -> list[ast.FunctionDef]:
    """The module's functions that may be pure (module docstring), in source order; the two runs decide."""
    module = read_module(source)
    return sorted(
        (f.node for f in module.functions.values()
         if isinstance(f.node, ast.FunctionDef) and not f.node.decorator_list and 1 <= len(f.node.args.args) <= 3
         and not (f.node.args.posonlyargs or f.node.args.vararg or f.node.args.kwonlyargs or f.node.args.kwarg)
         and _reads_ok(f.node)),
        key=lambda n: n.lineno,
    )


def proposals(sample_id: str, fn: ast.FunctionDef, seed: int = SEED) -> list[list[Any]]:
    """Seeded argument lists for ``fn`` (distinct)."""
    rng = random.Random(f"{seed}:{sample_id}:{fn.name}")
    out: list[list[Any]] = []
    for _ in range(PROPOSALS * 3):
        args = [rng.choice(INPUT_POOL) for _ in fn.args.args]
        if args not in out:
            out.append(args)
        if len(out) == PROPOSALS:
            break
    return out


def call_text(name: str, args: Sequence[Any]) -> str:
    return f"{name}({', '.join(repr(a) for a in args)})"


def answer_of(value: Any) -> tuple[str, str, dict[str, Any]] | None:
    """(answer, answer type, options) of a plain returned value, None for anything else."""
    if value is None or isinstance(value, bool):
        return repr(value), "string", {}
    if isinstance(value, int):
        return (str(value), "integer", {}) if abs(value) < 10**12 else None
    if isinstance(value, float):
        return (repr(value), "number", {}) if math.isfinite(value) and len(repr(value)) <= 20 else None
    if isinstance(value, str) and value and value == value.strip() and value.isprintable() and len(value) <= 40:
        return value, "string", {"case_sensitive": True}
    return None


@dataclass
class _Call:
    """One call of the function, recorded by ``judge`` when the executor hands back its result."""

    input: list[Any]
    results: list[dict[str, Any]] = field(default_factory=list)
    then_call: None = None
    expected_error: None = None

    def judge(self, res: dict[str, Any]) -> None:
        self.results.append(dict(res))


@dataclass
class _Signature:
    name: str


@dataclass
class _Calls:
    """The executor's view of a set of calls (``Executor.run`` takes any object of this shape)."""

    signature: _Signature
    all_tests: list[_Call]
    typed_values: bool = False

    @property
    def public_tests(self) -> list[_Call]:
        return self.all_tests

    def hidden_texts(self) -> list[str]:
        return []

    def call_text(self, case: _Call) -> str:
        return call_text(self.signature.name, case.input)

    def expected_text(self, case: _Call) -> str:
        return ""


async def run_calls(source: str, name: str, inputs: list[list[Any]], runs: int = 2) -> list[list[dict[str, Any]]]:
    """The worker's result record of each call (one per run), each run a fresh process in a fresh sandbox, every
    other run in reverse order: a call whose value depends on the calls before it (state the module keeps) gets two
    different values and is dropped."""
    cases = [_Call(list(args)) for args in inputs]
    executor = get_executor("python")
    for n in range(runs):
        calls = _Calls(_Signature(name), cases if n % 2 == 0 else cases[::-1])
        envs = await LocalLimitedSandbox.sample_init("output-prediction", LocalSandboxConfig(), {})
        try:
            await executor.run(source, calls, CASE_TIMEOUT_S, box=envs["default"])  # type: ignore[arg-type]
        finally:
            await LocalLimitedSandbox.sample_cleanup("output-prediction", None, envs, False)
    return [c.results for c in cases]


def _kept(sample_id: str, source: str, fn: ast.FunctionDef, records: list[list[dict[str, Any]]],
          inputs: list[list[Any]]) -> list[Question]:
    out: list[Question] = []
    answers: set[str] = set()
    for args, runs in zip(inputs, records):
        values = [json.dumps(r.get("value"), sort_keys=True) for r in runs if r.get("status") == "ok"]
        if len(values) != len(runs) or len(runs) < 2 or len(set(values)) != 1:
            continue  # raised, timed out, or not the same twice
        found = answer_of(runs[0].get("value"))
        if found is None or found[0] in answers:
            continue
        answers.add(found[0])
        text = QUESTION.format(call=call_text(fn.name, args), name=fn.name)
        digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
        out.append(Question(id=f"{sample_id}-output-{digest}", sample_id=sample_id, question_type=QUESTION_TYPE,
                            subtype="return_value_of_call", question=text, answer=found[0],
                            answer_type=found[1], normalize_options=found[2]))
        if len(out) == PER_FUNCTION:
            break
    return out


def build_questions(seed: int = SEED) -> list[Question]:
    """Every output-prediction question of the Python corpus, in corpus order (runs code in the sandbox)."""
    questions: list[Question] = []
    for sample in load_corpus(language=get_language("python")):
        parse_python(sample.source)
        kept = 0
        for fn in candidate_functions(sample.source):
            inputs = proposals(sample.id, fn, seed)
            found = _kept(sample.id, sample.source, fn, asyncio.run(run_calls(sample.source, fn.name, inputs)),
                          inputs)
            questions.extend(found)
            kept += bool(found)
            if kept == PER_FILE:
                break
    return questions


def main(argv: list[str] | None = None) -> int:
    return questions_main(argv, __doc__, QUESTIONS_FILE, DATASET_VERSION, build_questions)


if __name__ == "__main__":
    raise SystemExit(main())
