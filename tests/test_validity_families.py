"""Near misses are chosen by plain text comparison, not by the scorer's normaliser: a deliberately lenient
normaliser (one that equates every two strings) is caught by the near-miss family instead of hiding it."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai.dataset import Sample

import coonbench.answers.normalize as normalize_module
import coonbench.validity.families as families
from coonbench.answers.normalize import NormalizedAnswer, check_answer
from coonbench.validity.families import NEAR_MISS, exact_variants, same_text

SIBLINGS = ["Alice", "alice ", "ALICE", "Bob", "Carol", ""]


def string_sample(**options: Any) -> Sample:
    return Sample(id="structure-x-1", input="Who?", target="Alice",
                  metadata={"answer_type": "string", "normalize_options": options or None})


def sibling_misses(sample: Sample) -> list[str]:
    return [v.reply for v in exact_variants(sample, SIBLINGS, None) if v.family == NEAR_MISS and v.name == "sibling"]


def test_same_text_is_plain_comparison() -> None:
    assert same_text("Alice", " alice ", case_sensitive=False)
    assert not same_text("Alice", "ALICE", case_sensitive=True)
    assert same_text("New  York", "New York", case_sensitive=True)
    assert not same_text("New York", "NewYork", case_sensitive=False)


def test_sibling_near_miss_differs_from_gold_as_text() -> None:
    (miss,) = sibling_misses(string_sample())
    assert miss in ("Bob", "Carol")  # never a case/space variant of the gold, never the blank sibling
    assert not check_answer(miss, "Alice", "string").correct  # the real scorer refuses it
    (miss,) = sibling_misses(string_sample(caseSensitive=True))
    assert miss in ("alice ", "ALICE", "Bob", "Carol") and miss.strip() != "Alice"


def test_lenient_normaliser_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = normalize_module.normalize

    def lenient(answer: str, answer_type: str, options: Any = None) -> NormalizedAnswer | None:
        read = real(answer, answer_type, options)
        if answer_type == "string" and read is not None:
            return NormalizedAnswer("every string", read.text)  # wrongly equates any two strings
        return read

    monkeypatch.setattr(normalize_module, "normalize", lenient)
    monkeypatch.setattr(families, "normalize", lenient)  # whatever families reads, the scorer's is the lenient one
    sample = string_sample()
    variants = [v for v in exact_variants(sample, SIBLINGS, None) if v.family == NEAR_MISS]
    assert variants, "the lenient normaliser must not remove the near misses"
    wrong = [v for v in variants if check_answer(v.reply, "Alice", "string").correct != v.expect_correct]
    assert [v.name for v in wrong] == ["sibling"]
