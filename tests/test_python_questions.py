"""Comprehension questions read off the Python tree: answers cross-checked at run time, the same in every format,
unambiguous where the tree is, and scored through the comprehension task (gold 100%, garbage INCORRECT).

The independent computation: standard-library files of the corpus are executed (they import only the standard
library) and their functions and classes inspected with ``inspect`` — parameters, defaults, bases and methods as
Python itself sees them, not as the generators read the tree.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from coonbench.datasets.comprehension import comprehension_samples
from coonbench.datasets.corpus import load_corpus
from coonbench.formats import get_format
from coonbench.languages import get_language
from coonbench.languages.python.corpus import CORPUS_DIR
from coonbench.languages.python.questions import generate_questions
from coonbench.resources import REPO_ROOT

PYTHON = get_language("python")
FORMATS = "python,python-minified,python-minifier,python-json-ast"
SOURCES = {r["path"]: r for r in json.loads((CORPUS_DIR / "sources.json").read_text(encoding="utf-8"))["files"]}


def _run_module(source: str) -> dict[str, Any] | None:
    """The namespace of a standard-library module run from its source, None when it cannot run here."""
    namespace: dict[str, Any] = {"__name__": "corpus_check"}
    try:
        exec(compile(source, "corpus_check", "exec"), namespace)  # noqa: S102 - the standard library's own code
    except Exception:  # noqa: BLE001 - a module that needs its package: no runtime view of it
        return None
    return namespace


def _after(question: str, marker: str) -> str | None:
    """The name in backticks right after ``marker`` (``"method `"``) in a question, or None."""
    head, found, tail = question.partition(marker)
    return tail.split("`", 1)[0] if found else None


def _target(namespace: dict[str, Any], question: str) -> Any:
    """The function or class a question is about (``method `m` of class `C``` / ``function `f``` / ``class `C```)."""
    cls, method, function = (_after(question, m) for m in ("class `", "method `", "function `"))
    if method and cls in namespace:
        return inspect.unwrap(vars(namespace[cls])[method]) if method in vars(namespace[cls]) else None
    return namespace.get(function or cls or "")


def _signature(obj: Any) -> inspect.Signature | None:
    fn = obj.__func__ if isinstance(obj, (staticmethod, classmethod)) else obj
    fn = fn.fget if isinstance(fn, property) else fn
    try:
        return inspect.signature(fn, follow_wrapped=False) if inspect.isfunction(fn) else None
    except (TypeError, ValueError):
        return None


def test_answers_agree_with_the_running_code() -> None:
    checked: dict[str, int] = {}
    for sample in load_corpus(language=PYTHON):
        if SOURCES[sample.path.relative_to(CORPUS_DIR).as_posix()]["origin"] != "stdlib":
            continue
        namespace = _run_module(sample.source)
        if namespace is None:
            continue
        for q in generate_questions(sample.id, sample.source):
            target = _target(namespace, q.question) if q.subtype not in ("module_functions", "module_classes") else None
            sig = _signature(target) if target is not None else None
            if q.subtype == "parameters" and sig is not None:
                assert q.answer == ", ".join(sig.parameters), q.id
            elif q.subtype == "parameter_count" and sig is not None:
                assert int(q.answer) == len(sig.parameters), q.id
            elif q.subtype == "default_value" and sig is not None:
                param = q.question.split("`")[1]
                assert q.answer in (str(sig.parameters[param].default), repr(sig.parameters[param].default)), q.id
            elif q.subtype == "base_classes" and inspect.isclass(target):
                assert [b.strip().rsplit(".", 1)[-1] for b in q.answer.split(",")] == [
                    b.__name__ for b in target.__bases__], q.id
            elif q.subtype == "class_methods" and inspect.isclass(target):
                assert {m.strip() for m in q.answer.split(",")} <= set(vars(target)), q.id
            elif q.subtype in ("module_functions", "module_classes"):
                kind = callable if q.subtype == "module_functions" else inspect.isclass  # a C twin may replace a def
                assert all(kind(namespace[n.strip()]) for n in q.answer.split(",")), q.id
            else:
                continue
            checked[q.subtype] = checked.get(q.subtype, 0) + 1
    assert min(checked.get(s, 0) for s in ("parameters", "parameter_count", "default_value", "base_classes",
                                           "class_methods", "module_functions")) >= 5, checked


def test_questions_are_the_same_in_every_format() -> None:
    """The generators read only what every format keeps: the questions of a file decoded from any format are its
    questions (docstrings, comments and layout change nothing)."""
    for sample in load_corpus(language=PYTHON)[::4]:
        expected = generate_questions(sample.id, sample.source)
        for name in FORMATS.split(",")[1:]:
            fmt = get_format(name)
            assert generate_questions(sample.id, fmt.decode(fmt.encode(sample.source))) == expected, (sample.id, name)


def test_ambiguous_names_are_not_asked_about() -> None:
    src = '''
class A:
    @property
    def x(self):
        return self._x

    @x.setter
    def x(self, value):
        self._x = value

def helper(a, b=3):
    return a

def twice():
    pass

def twice():
    pass

def caller(helper):
    return helper(1)

def user(n):
    if n:
        return 1
    elif n > 2:
        for i in range(n):
            if i:
                return 2
    return helper(n)
'''
    questions = generate_questions("t", src)
    texts = " ".join(q.question for q in questions)
    assert "`x`" not in texts and "function `twice`" not in texts
    callees = {q.question.split("`")[1]: q.answer for q in questions if q.subtype == "callees"}
    assert "caller" not in callees  # its parameter shadows the module's helper
    assert not any(q.subtype == "block_depth" and "`user`" in q.question for q in questions)  # elif: ambiguous depth
    [default] = [q for q in questions if q.subtype == "default_value"]
    assert (default.answer, default.answer_type) == ("3", "integer")
    assert generate_questions("t", src) == generate_questions("t", src)  # deterministic


def test_gold_and_garbage_through_the_task_samples() -> None:
    samples, skips = comprehension_samples(formats=FORMATS, bands="short-simple")
    assert skips == [] and samples
    assert {s.metadata["format"] for s in samples} == set(FORMATS.split(","))
    assert all("Python" in str(s.input) and "Flutter" not in str(s.input) for s in samples)
    ids = [s.id for s in samples]
    assert len(ids) == len(set(ids)) and ids == [s.id for s in comprehension_samples(formats=FORMATS,
                                                                                       bands="short-simple")[0]]


@pytest.mark.slow
def test_gold_scores_everything_and_garbage_nothing(tmp_path: Path) -> None:
    """``inspect eval evals/comprehension.py -T formats=<the four> --solver coonbench/gold`` scores 100%; the
    mock model's default reply scores 0, without an error; and ``-T corpus=DIR`` takes a directory of .py files."""
    corpus = tmp_path / "mine"
    corpus.mkdir()
    for sample in load_corpus(language=PYTHON)[:3]:
        (corpus / sample.path.name).write_text(sample.source, encoding="utf-8")
    runs = {"gold": ["--solver", "coonbench/gold", "-T", "questions=12"],
            "garbage": ["-T", "questions=6"],
            "corpus": ["--solver", "coonbench/gold", "-T", f"corpus={corpus}"]}
    for name, extra in runs.items():
        logs = tmp_path / name
        cmd = [sys.executable, "-m", "inspect_ai", "eval", "evals/comprehension.py", "-T", f"formats={FORMATS}",
               "--model", "mockllm/model", "--log-dir", str(logs), "--log-format", "json", *extra]
        run = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stderr[-2000:]
        [log] = [json.loads(p.read_text()) for p in logs.glob("*.json")]
        assert log["status"] == "success", log.get("error")
        scores = [s["scores"]["answer_match"]["value"] for s in log["samples"]]
        values = [v["correct"] if isinstance(v, dict) else v for v in scores]
        assert values and all(v == (0 if name == "garbage" else 1) for v in values), (name, values[:5])
