"""Output prediction on the Python corpus: every committed answer is what the function returns, computed a
second, independent way (the module run by a plain interpreter, outside the sandbox), and what a call may be
asked about is bounded (no input/output, the clock or randomness; plain values only; the same value twice)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

from coonbench.datasets.comprehension import comprehension_samples, load_questions
from coonbench.datasets.corpus import load_corpus
from coonbench.datasets.output_prediction import (
    QUESTIONS_FILE,
    _kept,
    answer_of,
    build_questions,
    candidate_functions,
)
from coonbench.execution.isolation import refusal as isolation_refusal
from coonbench.languages import get_language

PYTHON = get_language("python")
QUESTIONS = load_questions(QUESTIONS_FILE)
RUN = """
import json, sys
source, call = json.loads(sys.stdin.read())
namespace = {"__name__": "solution"}
exec(compile(source, "solution.py", "exec"), namespace)
print(json.dumps(repr(eval(call, namespace))))
"""


def test_committed_answers_are_what_the_calls_return() -> None:
    sources = {s.id: s.source for s in load_corpus(language=PYTHON)}
    assert len(QUESTIONS) >= 10 and {q.question_type for q in QUESTIONS} == {"output_prediction"}
    for q in QUESTIONS:
        call = q.question.split("`")[1]
        run = subprocess.run([sys.executable, "-I", "-c", RUN], input=json.dumps([sources[q.sample_id], call]),
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr[-500:]
        value = ast.literal_eval(json.loads(run.stdout.strip().splitlines()[-1]))
        assert answer_of(value) == (q.answer, q.answer_type, q.normalize_options), (q.id, value)


def test_candidates_exclude_effects_and_odd_signatures() -> None:
    src = """
import os
def reads_file(p):
    return open(p).read()
def clock(x):
    return time.time() + x
def counter(x):
    global n
    n += x
def star(*xs):
    return len(xs)
def keyword(a, *, b):
    return a
@cache
def decorated(a):
    return a
def pure(a, b):
    return a * 2 + b
def lister(a):
    return os.listdir(a)
def stateful(level):
    old = _log.threshold
    _log.threshold = level
    return old
"""
    assert [f.name for f in candidate_functions(src)] == ["pure"]


def test_only_plain_values_that_agree_twice_are_kept() -> None:
    assert answer_of([1, 2]) is None and answer_of(float("nan")) is None and answer_of("x" * 41) is None
    assert answer_of(" padded") is None and answer_of(10**13) is None
    assert answer_of(True) == ("True", "string", {}) and answer_of(2.5) == ("2.5", "number", {})
    fn = ast.parse("def f(x):\n    return x\n").body[0]
    assert isinstance(fn, ast.FunctionDef)
    same = [{"status": "ok", "value": 3}, {"status": "ok", "value": 3}]
    differ = [{"status": "ok", "value": "a"}, {"status": "ok", "value": "b"}]
    raised = [{"status": "error"}, {"status": "error"}]
    kept = _kept("s", "", fn, [same, differ, raised], [[3], [1], [2]])
    assert [(q.answer, q.answer_type) for q in kept] == [("3", "integer")]


def test_comprehension_asks_them_in_every_python_format() -> None:
    samples, skips = comprehension_samples(formats="python,python-minified,python-minifier,python-json-ast",
                                           question_types="output_prediction")
    assert skips == [] and len(samples) == 4 * len(QUESTIONS)
    assert all(s.target == q.answer for s, q in zip(samples[::4], QUESTIONS))


@pytest.mark.slow
def test_the_file_is_current() -> None:
    """``python -m coonbench.datasets.output_prediction --write`` (runs every candidate call in the sandbox)."""
    reason = isolation_refusal()
    if reason is not None:
        pytest.skip(f"no sandbox here: {reason}")
    assert build_questions() == QUESTIONS, "rerun `python -m coonbench.datasets.output_prediction --write`"
