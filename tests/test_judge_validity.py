"""Judge meta-evaluation: the labelled set is real (gold passes, mutants fail the deterministic scorers), and the
figures are right for judges whose agreement is known — a perfect judge has κ = 1, an always-pass judge κ = 0."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, get_model

from coonbench.validity.judges import label_accuracy, labelled_samples, mutate_answer, mutate_code, validate_judges

LIMIT = 2
CATEGORIES = ("nl-to-coon", "retrieval")  # modification takes a minute to build on a loaded 2-core machine


def test_mutants_change_exactly_one_literal() -> None:
    assert mutate_code("T('Hi', s(z 30))") == "T('Hi (edited)', s(z 30))"
    assert mutate_code("P(a 16)") == "P(a 17)"
    assert mutate_code("Column()") is None
    assert (mutate_answer("YES"), mutate_answer("41"), mutate_answer("2.5"), mutate_answer("Paris")) == (
        "NO", "42", "3.5", "Paris (edited)")


def test_label_accuracy_figures() -> None:
    labels = [True, False, True, False]
    assert label_accuracy(labels, labels)[:2] == (1.0, 1.0)
    acc, kappa, _ = label_accuracy(labels, [True] * 4)
    assert acc == 0.5 and kappa == pytest.approx(0.0)
    assert label_accuracy(labels, [not x for x in labels])[1] == pytest.approx(-1.0)
    assert label_accuracy([], []) == (None, None, None)


def _answer_in(prompt: str) -> str:
    found = re.search(r"<<<(ANSWER-[0-9A-F]+X*)\n(.*)\n\1>>>", prompt, re.DOTALL)
    assert found, "the evaluator prompt fences the answer"
    return found.group(2)


def _scripted(passes: Any) -> Any:
    """A mockllm judge: every criterion passes when ``passes(answer)``, else every one fails; both modes."""

    def respond(messages: list[ChatMessage], tools: Any, tool_choice: Any, config: GenerateConfig) -> ModelOutput:
        prompt = str(messages[0].content)
        if prompt.startswith("You grade"):
            text = "1" if "**Fail**" in prompt else "5"
        else:
            ok = bool(passes(_answer_in(prompt)))
            count = int(re.search(r"with exactly (\d+) entries", prompt).group(1)) if "exactly" in prompt else None
            if count is not None:
                text = json.dumps({"evaluation_steps": [
                    {"criterion": f"c{i}", "weight": 1, "passed": ok, "confidence": 90, "explanation": "x"}
                    for i in range(count)]})
            else:
                text = f"- **{'Pass' if ok else 'Fail'}** (90%): every criterion"
        return ModelOutput.from_content(model="judge", content=text)

    return get_model("mockllm/model", custom_outputs=respond, memoize=False)


@pytest.mark.slow
def test_perfect_judge_kappa_one_and_always_pass_kappa_zero(tmp_path: Path) -> None:
    samples = [s for c in CATEGORIES for s in labelled_samples(c, LIMIT, tmp_path / "labels")]
    golds = {s.metadata["validity_answer"] for s in samples if s.metadata["validity_variant"] == "gold"}
    kinds = [s.metadata["validity_variant"] for s in samples]
    assert kinds.count("gold") == kinds.count("mutant") >= len(CATEGORIES)  # each kept gold with a refused mutant
    pairs = kinds.count("gold")

    perfect = _scripted(lambda answer: answer in golds)
    always = _scripted(lambda answer: True)
    result = validate_judges([perfect, always], LIMIT, tmp_path, categories=CATEGORIES)

    assert result.label_pass_rate == pytest.approx(0.5)  # the scorers passed every gold and refused every mutant
    assert result.items == len(samples)
    perfect_rows, always_rows = result.rows[:2], result.rows[2:]
    assert {r.mode for r in perfect_rows} == {"weighted", "graded"} and len(result.rows) == 4
    for r in perfect_rows:
        assert (r.accuracy, r.kappa, r.unscored, r.n) == (1.0, 1.0, 0, 2 * pairs)
    for r in always_rows:
        assert r.accuracy == pytest.approx(0.5) and r.kappa == pytest.approx(0.0)
        assert r.confusion == {"pass/pass": pairs, "fail/pass": pairs}
    table = (tmp_path / "judges.txt").read_text()
    assert table.count("weighted") == 2 and "1.000" in table
    assert (tmp_path / "judges.csv").read_text().count("retrieval") == 4
