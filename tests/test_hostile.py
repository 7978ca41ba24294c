"""The fuzz contract checker itself: it must fail on what escapes, on slowness, and pass documented errors."""

from __future__ import annotations

import pytest
from hypothesis import given

from tests.hostile import FUZZ_SETTINGS, check_contract, fixed_hostile, hostile_text


def test_allowed_error_passes_and_returns_none() -> None:
    def fn(text: str) -> str:
        raise ValueError("documented")

    assert check_contract(fn, "x", (ValueError,)) is None


def test_undocumented_error_fails() -> None:
    def fn(text: str) -> str:
        raise RecursionError("deep")

    with pytest.raises(AssertionError, match="undocumented RecursionError"):
        check_contract(fn, "x", (ValueError,))


def test_slow_target_fails() -> None:
    def fn(text: str) -> int:
        return sum(i for i in range(30_000_000))

    with pytest.raises(AssertionError, match="CPU"):
        check_contract(fn, "x", time_limit=0.01)


def test_fixed_cases_cover_the_named_hazards() -> None:
    cases = fixed_hostile("[1, 2]")
    assert "" in cases and "\ud800" in cases
    assert any(len(c) >= 5 * 1024 * 1024 for c in cases)
    assert any(c.startswith("[" * 10_000) for c in cases)
    assert any("\x00" in c for c in cases)


@FUZZ_SETTINGS
@given(hostile_text(["{\"a\": [1, 2]}"]))
def test_strategy_draws_text(text: str) -> None:
    assert isinstance(text, str)
