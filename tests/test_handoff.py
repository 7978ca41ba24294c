"""The handoff task: samples per condition, A's message checked (decodes, round-trips), gold 100% in every code
format, and garbage from A or B scored, never a crash."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.datasets.handoff import FREE, MESSAGE_KEY, b_prompt, handoff_samples
from coonbench.datasets.corpus import load_corpus
from coonbench.datasets.generation import fenced
from coonbench.evals.handoff import handoff
from coonbench.formats import get_format, language_of
from coonbench.scorers.handoff import carried
from coonbench.solvers.gold import gold
from coonbench.tasks.conditions import ConditionError, code_format_names
from coonbench.tasks.samples import TaskArgumentError
from coonbench.tasks.state import handoff_state

CODE_FORMATS = [n for n in code_format_names() if get_format(n).lossless and language_of(n).name == "dart"]
"""Dart's lossless code formats (one run shows one language's programs; Python's are tests/test_python_*.py's)."""


def _metrics(log: Any) -> dict[str, float]:
    return {name: m.value for s in log.results.scores for name, m in s.metrics.items()}


def test_samples_hide_the_question_from_a_and_show_b_only_the_message() -> None:
    samples, _ = handoff_samples("coon,dart,free", "comprehension", questions=5)
    first = samples[0]
    question = first.metadata["b_task"]
    assert "Question:" in question and question.split("\n")[0] not in str(first.input)
    assert first.metadata["source"].strip()[:30] in str(first.input)  # A reads the Dart program
    b = b_prompt(first.metadata, "MESSAGE")
    assert "MESSAGE" in b and first.metadata["source"] not in b
    ids = [s.id for s in samples]
    assert len(ids) == len(set(ids))
    assert {s.metadata["format"] for s in samples} == {"coon", "dart", FREE}
    assert first.id == f"handoff-{first.metadata['pair_id']}-{first.metadata['format']}"


def test_the_gold_message_round_trips_in_every_code_format() -> None:
    samples, _ = handoff_samples(",".join([*CODE_FORMATS, FREE]), "comprehension,modification", questions=8)
    seen = set()
    for s in samples:
        decodes, roundtrips, why = carried(s.metadata[MESSAGE_KEY], s.metadata["handoff_format"], s.metadata["source"])
        assert decodes and roundtrips, why
        seen.add(s.metadata["format"])
    assert seen == {*CODE_FORMATS, FREE}


def test_a_garbled_message_neither_decodes_nor_round_trips() -> None:
    samples, _ = handoff_samples("coon", "comprehension", questions=6)
    source = samples[0].metadata["source"]
    coon = get_format("coon").encode(source)
    assert carried(None, "coon", source)[:2] == (False, False)
    assert carried("", "coon", source)[:2] == (False, False)
    assert carried(fenced(coon[: len(coon) // 2], "coon"), "coon", source)[1] is False
    assert carried("{" * 10_000, "coon", source)[:2] == (False, False)
    other = next(c.source for c in load_corpus() if c.source != source)
    decodes, roundtrips, why = carried(fenced(other, "dart"), None, source)
    assert decodes and not roundtrips and "differs" in why


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ConditionError, match="lossy|no format"):
        handoff(formats="nosuchformat")
    with pytest.raises(TaskArgumentError, match="mode"):
        handoff(modes="poetry")
    with pytest.raises(TaskArgumentError, match="formats"):
        handoff(fromats="coon")


@pytest.mark.parametrize("modes", ["comprehension", "modification"])
def test_gold_scores_100_in_every_code_format(tmp_path: Any, modes: str) -> None:
    formats = ",".join([*CODE_FORMATS, FREE])
    log = inspect_eval(handoff(formats=formats, modes=modes, questions=2), model="mockllm/model", solver=gold(),
                       log_dir=str(tmp_path), display="none")[0]
    assert log.status == "success"
    metrics = _metrics(log)
    assert metrics["accuracy"] == 1.0
    for fmt in [*CODE_FORMATS, FREE]:
        assert metrics[f"accuracy/{fmt}"] == 1.0 and metrics[f"roundtrip/{fmt}"] == 1.0, fmt
        assert metrics[f"handed_tokens/{fmt}"] > 0
    assert metrics["handed_tokens/coon"] < metrics["handed_tokens/dart"]


def test_the_two_agents_run_on_mockllm_and_score_garbage_incorrect(tmp_path: Any) -> None:
    log = inspect_eval(handoff(formats="coon,free", modes="comprehension,modification", questions=2),
                       model="mockllm/model", log_dir=str(tmp_path), display="none")[0]
    assert log.status == "success"
    metrics = _metrics(log)
    assert metrics["accuracy"] == 0.0 and metrics["roundtrip/coon"] == 0.0
    for sample in log.samples or []:
        assert sample.store.get("HandoffState:message")  # A's (mock) message was recorded


@solver
def perfect_a_then(reply: str) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        handoff_state(state.store).message = state.metadata[MESSAGE_KEY]
        state.output = ModelOutput.from_content(model="scripted", content=reply)
        state.messages.append(ChatMessageAssistant(content=reply, model="scripted"))
        return state

    return solve


@pytest.mark.parametrize("reply", ["", "```dart\nvoid main( {\n```", "\x00" * 100, "[" * 5000])
def test_garbage_from_b_is_incorrect_with_a_still_credited(tmp_path: Any, reply: str) -> None:
    log = inspect_eval(handoff(formats="coon", modes="comprehension,modification", questions=2), model="mockllm/model",
                       solver=perfect_a_then(reply), log_dir=str(tmp_path), display="none")[0]
    assert log.status == "success"
    for sample in log.samples or []:
        value = sample.scores["handoff_score"].value
        assert value["correct"] == 0.0 and value["roundtrips"] == 1.0
