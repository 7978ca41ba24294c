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


async def _beside() -> tuple[Outcome, Outcome, float]:
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
        attack, gold = await asyncio.gather(executor.run(ATTACK, PROBLEM, 2.0, boxes[0]),
                                            executor.run(GOLD, PROBLEM, 2.0, boxes[1]))
    finally:
        done.set()
        await tick
        for box in boxes:
            box.close()
    return attack.outcome, gold.outcome, worst


@needs_isolation
def test_the_collision_answer_leaves_the_sample_beside_it_unaffected() -> None:
    attack, gold, worst = asyncio.run(_beside())
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
