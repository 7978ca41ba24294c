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
from coonbench.datasets.writing.cases import SHAPES, all_cases
from coonbench.report.writing import break_even, cost_table
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


def test_primer_break_even_from_the_primers_and_the_right_documents(frame: pd.DataFrame) -> None:
    """Extra primer tokens from the primers themselves; the documents saved on from the cases both formats wrote
    right (TOON's empty replies on two shapes save nothing), counted again from the gold documents."""
    even = break_even(frame).set_index("format")
    tokenizer = frame["tokenizer"].iloc[0]
    extra = count_tokens(get_format("toon").primer("short"), tokenizer) - count_tokens(
        get_format("json").primer("short"), tokenizer)
    assert even.loc["toon", "primer_extra"] == extra
    right = [case for case in all_cases(list(SHAPES), ["small", "medium"]) if case.shape not in WRONG_IN_TOON]
    assert even.loc["toon", "cases"] == len(right)
    saved = sum(_tokens("json", c.data, tokenizer) - _tokens("toon", c.data, tokenizer) for c in right) / len(right)
    assert even.loc["toon", "saved_per_document"] == pytest.approx(saved)
    expected = extra / saved if saved > 0 else math.inf
    assert extra > 0 and even.loc["toon", "break_even_documents"] == pytest.approx(expected)


def _tokens(name: str, data: object, tokenizer: str) -> int:
    """Tokens of the gold document in a format (the one the scorer counts: the reply's fenced block)."""
    return count_tokens(get_format(name).encode(data).rstrip("\n"), tokenizer)


def test_output_per_document_counts_every_document_a_sample_wrote(frame: pd.DataFrame) -> None:
    """A sample repaired once wrote two documents: its output tokens are over two, not one."""
    toon = frame["format"] == "toon"
    twice = frame.assign(output_tokens=frame["output_tokens"].where(~toon, frame["output_tokens"] * 2),
                         attempts=frame["attempts"].where(~toon, 2.0))
    per_document = {name: cost_table(f).set_index("format")["output_per_document"] for name, f in
                    (("once", frame), ("twice", twice))}
    assert per_document["twice"]["toon"] == pytest.approx(per_document["once"]["toon"])
    assert per_document["once"]["toon"] == pytest.approx(frame.loc[toon, "output_tokens"].mean())


def test_break_even_of_the_published_run() -> None:
    """On the published 0.5B logs: a pair counts only where both formats were right at the first attempt, and a
    format whose primer costs no more than JSON's has repaid it at once (0 documents), whatever it saves."""
    folder = Path(__file__).resolve().parent.parent / "logs" / "published" / "qwen2.5-coder-0.5b" / "writing"
    if not any(folder.glob("*.eval")):
        pytest.skip(f"no published writing logs in {folder}")
    samples, _ = load_samples([folder])
    even = break_even(samples)
    assert not even.empty
    first_right = samples[samples["first_attempt_success"] == 1].groupby(["system", "pair"])["format"].apply(set)
    for _, row in even.iterrows():
        right = first_right[row["system"]]
        assert row["cases"] == sum({row["format"], "json"} <= formats for formats in right)
        if row["primer_extra"] <= 0:
            assert row["break_even_documents"] == 0
        elif row["saved_per_document"] > 0:
            assert row["break_even_documents"] == pytest.approx(row["primer_extra"] / row["saved_per_document"])
    paired = {f for formats in first_right["gguf/qwen2.5-coder-0.5b"] if "json" in formats for f in formats} - {"json"}
    assert paired and set(even[even["system"] == "gguf/qwen2.5-coder-0.5b"]["format"]) == paired  # none left out


def test_paired_comparisons_are_clustered_by_shape(frame: pd.DataFrame) -> None:
    sec = next(s for s in sections_for(frame) if s.id == "writing_writing_cost")
    paired = next(t for t in sec.tables if t.name == "writing_paired_correct").frame
    assert len(paired) == 1
    row = paired.iloc[0]
    assert {row["format_a"], row["format_b"]} == {"json", "toon"}
    assert row["clusters"] == 6
