"""Fuzz: markdown-kv / markdown-table decode and validate on hostile text, and encode on deep values, keep the
shared contract (FormatError or a result, bounded CPU, no hang)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from coonbench.datasets.retrieval import RETRIEVAL_DIR
from coonbench.formats import FormatError, get_format
from tests.hostile import FUZZ_SETTINGS, check_contract, fixed_hostile, hostile_text

NAMES = ("markdown-kv", "markdown-table")


def _dataset(name: str) -> Any:
    return json.loads(Path(RETRIEVAL_DIR / "datasets" / f"{name}.json").read_text())


@pytest.mark.parametrize("name", NAMES)
@FUZZ_SETTINGS
@given(text=hostile_text([get_format("markdown-kv").encode(_dataset("orders")),
                          get_format("markdown-table").encode(_dataset("events"))]))
def test_hostile_text_contract(name: str, text: str) -> None:
    fmt = get_format(name)
    check_contract(fmt.decode, text, (FormatError,), label=f"{name}.decode")
    check_contract(fmt.validate, text, (), label=f"{name}.validate")


@pytest.mark.parametrize("name", NAMES)
def test_fixed_hostile_cases(name: str) -> None:
    fmt = get_format(name)
    for text in fixed_hostile(fmt.encode(_dataset("config"))):
        check_contract(fmt.decode, text, (FormatError,), label=f"{name}.decode")
    deep_list: Any = []
    deep: Any = 1
    for _ in range(5000):
        deep_list, deep = [deep_list], {"k": deep}
    check_contract(lambda _: fmt.encode({"a": deep_list}), "", (FormatError,))
    check_contract(lambda _: fmt.encode(deep), "", (FormatError,))


@pytest.mark.parametrize("name", NAMES)
def test_size_limit_is_documented_error(name: str) -> None:
    fmt = get_format(name)
    limit = fmt.max_chars  # type: ignore[attr-defined]
    with pytest.raises(FormatError, match="too large") as info:
        fmt.decode("a" * (limit + 1))
    assert f"{limit:,}" in str(info.value)
    assert fmt.validate("a" * (limit + 1))[0].message.startswith("document too large")
