"""Hostile inputs and the contract every parser, decoder, normaliser and scorer must keep on them.

The contract (issue "Hardening"): on any text a function returns a result or raises one of its documented
errors — never another exception, never more than ``TIME_LIMIT_S`` of CPU per input, never a hang. The fuzz
tests of each target import ``hostile_text`` (a hypothesis strategy) and ``check_contract`` from here so that
every target is held to the same inputs and the same limits.
"""

from __future__ import annotations

import gc
import os
import signal
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any, Iterator

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

TIME_LIMIT_S = 1.0
"""CPU seconds one input may take (process time, so a loaded CI machine does not make it flaky)."""

HANG_LIMIT_S = 20.0
"""Wall seconds after which an input counts as a hang and the test is interrupted."""

FUZZ_EXAMPLES = int(os.environ.get("COONBENCH_FUZZ_EXAMPLES", "60"))
"""Examples per target in the default run; the ``slow`` fuzz run multiplies it."""

SLOW_FUZZ_EXAMPLES = int(os.environ.get("COONBENCH_SLOW_FUZZ_EXAMPLES", str(FUZZ_EXAMPLES * 5)))
"""Examples per target in the ``slow`` run (300 by default, within CI's time; raise it for a longer campaign)."""

FUZZ_SETTINGS = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,  # time is checked by check_contract, on CPU time
    derandomize=True,  # seeded: the same inputs on every run
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    database=None,
)
SLOW_FUZZ_SETTINGS = settings(FUZZ_SETTINGS, max_examples=SLOW_FUZZ_EXAMPLES)

DEPTH = 10_000
BIG = 5 * 1024 * 1024

_OPENERS = "([{<\"'`"


def deep_nesting(opener: str = "[", closer: str = "", depth: int = DEPTH) -> str:
    """``depth`` openers, optionally closed: the input that finds unbounded recursion."""
    return opener * depth + closer * depth


def fixed_hostile(valid: str = "") -> list[str]:
    """The deterministic hostile cases every target gets, whatever hypothesis draws."""
    cases = [
        "",
        " ",
        "\x00",
        "\x00" * 1000,
        "\ud800",  # lone surrogate
        "a\udfffb",
        "\ufeff" + valid,
        "x" * BIG,
        "\n" * 10_000,
        " " * 10_000 + "1",
        "1" * 5000,  # more digits than int() converts by default
        "-" + "9" * 4301,
        "\u202e" + valid,  # right-to-left override
    ]
    for opener in _OPENERS:
        cases.append(deep_nesting(opener))
    cases.append(deep_nesting("[", "]"))
    cases.append(deep_nesting("{", "}"))
    cases.append(deep_nesting("(", ")"))
    cases.append("{a: " * 2000 + "1" + "}" * 2000)
    cases.append("- " * 5000 + "x")
    cases.append("<a>" * 5000)
    if valid:
        cases.append(valid * max(1, BIG // max(1, len(valid))))
        cases.append(valid[: len(valid) // 2])
        cases.append(valid.replace("\n", "\r"))
        cases.append(valid + "\x00")
    return cases


def _mutations(valid: str) -> st.SearchStrategy[str]:
    """Truncations, byte flips, insertions and duplications of a valid document."""
    n = max(1, len(valid))
    truncate = st.integers(0, n).map(lambda i: valid[:i])
    flip = st.tuples(st.integers(0, n - 1), st.characters()).map(
        lambda t: valid[: t[0]] + t[1] + valid[t[0] + 1 :]
    )
    insert = st.tuples(st.integers(0, n), st.text(min_size=1, max_size=8)).map(
        lambda t: valid[: t[0]] + t[1] + valid[t[0] :]
    )
    delete = st.tuples(st.integers(0, n), st.integers(1, 16)).map(lambda t: valid[: t[0]] + valid[t[0] + t[1] :])
    return st.one_of(truncate, flip, insert, delete)


def hostile_text(valid: Sequence[str] = ()) -> st.SearchStrategy[str]:
    """Random text (surrogates and NULs included), deep nesting, and mutations of the ``valid`` documents."""
    any_char = st.characters(exclude_categories=())  # every code point, lone surrogates included
    parts: list[st.SearchStrategy[str]] = [
        st.text(any_char, max_size=200),
        st.text(st.sampled_from(list("[]{}()<>\"'`:,;-#@$\\\n \t0123456789abcXYZ")), max_size=400),
        st.tuples(st.sampled_from(list(_OPENERS)), st.integers(1, DEPTH)).map(lambda t: t[0] * t[1]),
    ]
    for doc in valid:
        if doc:
            parts.append(_mutations(doc))
    return st.one_of(parts)


class Hang(Exception):
    """Raised inside the target when it runs past ``HANG_LIMIT_S``."""


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def _raise(signum: int, frame: Any) -> None:
        raise Hang(f"no result after {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_contract(
    fn: Callable[[str], Any],
    text: str,
    allowed: tuple[type[BaseException], ...] = (),
    *,
    time_limit: float = TIME_LIMIT_S,
    label: str = "",
) -> Any:
    """Call ``fn(text)``: return its result, or None when it raised an ``allowed`` error; fail otherwise.

    Fails the test when ``fn`` raises anything else, hangs, or takes more than ``time_limit`` CPU seconds.
    """
    what = label or getattr(fn, "__qualname__", repr(fn))
    shown = repr(text[:120]) + (f"… ({len(text)} chars)" if len(text) > 120 else "")
    # The objects earlier tests left alive are frozen for the call: otherwise the collector's full passes over
    # the test session's heap (which grows over a 1,400-test run) are billed to ``fn`` and the limit measures the
    # harness, not the target. The target's own allocations are still collected, and counted.
    gc.freeze()
    start = time.process_time()
    result: Any = None
    try:
        with _alarm(HANG_LIMIT_S):
            result = fn(text)
    except allowed:
        result = None
    except Hang as err:
        raise AssertionError(f"{what} hung on {shown}: {err}") from None
    except Exception as err:  # noqa: BLE001 - the point is to catch what escapes
        raise AssertionError(f"{what} raised undocumented {type(err).__name__}: {err!s:.300} on {shown}") from err
    finally:
        spent = time.process_time() - start
        gc.unfreeze()
    assert spent <= time_limit, f"{what} took {spent:.2f} s CPU (limit {time_limit} s) on {shown}"
    return result
