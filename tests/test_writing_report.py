"""The writing task's report section, from real logs: cost per correct document, primer break-even against JSON
(re-derived from the primers' token counts), and paired comparisons of formats clustered by case shape."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.evals.writing import writing
from coonbench.formats import get_format
from coonbench.report.load import load_samples
from coonbench.report.sections import sections_for
from coonbench.report.writing import break_even
from coonbench.tokens import count_tokens

WRONG_IN_TOON = ("invoice", "nested")


@solver(name="toon_fails_some_shapes")
def toon_fails_some_shapes() -> Solver:
    """A system under test: the gold document, except TOON documents of two shapes, which come back empty."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = state.metadata
        reply = "" if meta["format"] == "toon" and meta["shape"] in WRONG_IN_TOON else meta["gold"]
        state.output = ModelOutput.from_content(model="mockllm/model", content=reply)
        state.messages.append(ChatMessageAssistant(content=reply, model="mockllm/model"))
        return state

    return solve


@pytest.fixture(scope="module")
def frame(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    logs = tmp_path_factory.mktemp("writing-logs")
    task = writing(formats="json,toon", sizes="small,medium", sources="description")
    log = inspect_eval(task, model="mockllm/model", solver=toon_fails_some_shapes(), display="none",
                       log_dir=str(logs))[0]
    assert log.status == "success"
    samples, _ = load_samples([logs])
    return samples


def test_section_costs_and_accuracies(frame: pd.DataFrame) -> None:
    sections = {s.id: s for s in sections_for(frame)}
    sec = sections["writing_writing_cost"]
    cost = next(t for t in sec.lead if t.name == "writing_document_cost").frame.set_index("format")
    shapes = frame["cluster"].nunique()
    assert shapes == 6
    assert cost.loc["json", "accuracy"] == 1.0
    assert cost.loc["toon", "accuracy"] == pytest.approx((shapes - len(WRONG_IN_TOON)) / shapes)
    toon = frame[frame["format"] == "toon"]
    spent = toon["input_tokens"].sum() + toon["output_tokens"].sum()
    assert cost.loc["toon", "tokens_per_correct"] == pytest.approx(spent / toon["correct"].sum())
    assert any("tokens per correct document" in line for line in sec.summary)
    repairs = sections["writing_correction"]  # first attempt vs after repairs; no sandbox: nothing ran
    assert repairs.lead and not any("Sandbox" in line for line in repairs.summary)


def test_primer_break_even_from_the_primers(frame: pd.DataFrame) -> None:
    even = break_even(frame).set_index("format")
    tokenizer = frame["tokenizer"].iloc[0]
    extra = count_tokens(get_format("toon").primer("short"), tokenizer) - count_tokens(
        get_format("json").primer("short"), tokenizer)
    assert even.loc["toon", "primer_extra"] == extra
    saved = even.loc["toon", "saved_per_document"]
    expected = max(extra, 0) / saved if saved > 0 else math.inf
    assert even.loc["toon", "break_even_documents"] == pytest.approx(expected)


def test_paired_comparisons_are_clustered_by_shape(frame: pd.DataFrame) -> None:
    sec = next(s for s in sections_for(frame) if s.id == "writing_writing_cost")
    paired = next(t for t in sec.tables if t.name == "writing_paired_correct").frame
    assert len(paired) == 1
    row = paired.iloc[0]
    assert {row["format_a"], row["format_b"]} == {"json", "toon"}
    assert row["clusters"] == 6
