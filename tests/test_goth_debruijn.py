"""De Bruijn index errors are detected by code: a failing Goth program that passes every test once one
declaration's indices are re-assigned (permuted or shifted) made an index error; a program wrong in another way
did not. Checked on Goth syntax and the JSON AST, and through the scorer with a scripted model."""

from __future__ import annotations

import asyncio
import json
import math

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, get_model

from coonbench.datasets.correction import problem_by_id
from coonbench.evals.correction import correction
from coonbench.execution import get_executor
from coonbench.execution.debruijn import _index_tokens, index_error, json_variants, syntax_variants
from coonbench.execution.goth import GOLD_DIR
from coonbench.execution.sandbox import LocalLimitedSandbox, LocalSandboxConfig, capabilities
from tests.conftest import reference_path

needs_isolation = pytest.mark.skipif(capabilities()["isolation"] != "full", reason="no isolation on this machine")
GOLD = (GOLD_DIR / "goth" / "gcd.goth").read_text(encoding="utf-8")
SWAPPED = GOLD.replace("╰─ if ₀ = 0 then ₁ else gcd ₀ (₁ % ₀)", "╰─ if ₁ = 0 then ₀ else gcd ₁ (₀ % ₁)")
WRONG = GOLD.replace("╰─ if ₀ = 0 then ₁ else gcd ₀ (₁ % ₀)", "╰─ ₁ + ₀")


def test_index_tokens_skip_strings_comments_and_names() -> None:
    code = '# ₀ in a comment\n╭─ f : I64 → I64\n╰─ if _1 = x_0 then "₂" else ₃ + _10\n'
    assert [v for _, _, v in _index_tokens(code)] == [1, 3, 10]


def test_the_swapped_program_is_among_the_variants() -> None:
    assert SWAPPED != GOLD and WRONG != GOLD
    assert any(variant == GOLD for _, variant in syntax_variants(SWAPPED))
    gold_json = json.loads((GOLD_DIR / "goth-json" / "gcd.json").read_text(encoding="utf-8"))
    variants = [json.loads(v) for _, v in json_variants(json.dumps(gold_json))]
    assert variants and gold_json not in variants  # every variant changes something


def _index_error(target: str, code: str) -> str | None:
    box = LocalLimitedSandbox(LocalSandboxConfig())
    try:
        return asyncio.run(index_error(get_executor(target), code, problem_by_id("gcd"), 5, box))
    finally:
        box.close()


@needs_isolation
def test_a_known_index_error_is_found_and_another_error_is_not(goth: str) -> None:
    assert _index_error("goth", SWAPPED) == "declaration 1: permuted 0→1, 1→0"
    assert _index_error("goth", WRONG) is None
    tree = json.loads((GOLD_DIR / "goth-json" / "gcd.json").read_text(encoding="utf-8"))
    swapped = next(v for what, v in json_variants(json.dumps(tree)) if what == "declaration 1: permuted 0→1, 1→0")
    assert _index_error("goth-json", swapped) == "declaration 1: permuted 0→1, 1→0"


@needs_isolation
def test_the_scorer_counts_index_errors_among_semantic_errors(goth: str) -> None:
    for reply, expected in ((SWAPPED, 1.0), (WRONG, 0.0)):
        model = get_model("mockllm/model", custom_outputs=[
            ModelOutput.from_content("mockllm/model", f"```goth\n{reply}```")])
        log = inspect_eval(correction(target="goth", problems="gcd", max_retries=0), model=model, display="none",
                           log_dir=None)[0]
        assert log.status == "success", log.error
        score = next(iter(log.samples[0].scores.values()))
        assert score.value["first_attempt_success"] == 0.0 and score.value["debruijn_error"] == expected
    gold_log = inspect_eval(correction(target="python", problems="gcd", max_retries=0),
                            model=get_model("mockllm/model", custom_outputs=[ModelOutput.from_content(
                                "mockllm/model", "```python\ndef gcd(a, b):\n    return a + b\n```")]),
                            display="none", log_dir=None)[0]
    assert math.isnan(next(iter(gold_log.samples[0].scores.values())).value["debruijn_error"])
