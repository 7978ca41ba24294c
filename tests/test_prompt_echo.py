"""No answer is taken from an echo of the prompt (``coonbench validate``'s prompt-echo variant on tools): the tools
prompt says a page holds 5 records, so a reply that repeats the prompt held one number, read as the answer "5" —
right for every question whose answer is 5. The samples are the task's own, the replies built from their prompts."""

from __future__ import annotations

import asyncio
from typing import Any

from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState

from coonbench.datasets.tools import tools_samples
from coonbench.datasets.tools.questions import PAGE_SIZE
from coonbench.scorers.answer import answer_match


def _score(reply: str, sample: Any) -> dict[str, float]:
    state = TaskState(model="mockllm/model", sample_id=str(sample.id), epoch=1,  # type: ignore[arg-type]
                      input=sample.input, messages=[], metadata=sample.metadata,
                      output=ModelOutput.from_content("mockllm/model", reply))
    score = asyncio.run(answer_match()(state, Target(sample.target)))
    return dict(score.value)


def _answers_the_page_size() -> list[Any]:
    samples, _ = tools_samples("json")
    found = [s for s in samples if str(s.target).strip() == str(PAGE_SIZE)]
    assert found, "no tools question whose answer is the page size: the case this test is about"
    return found


def test_a_reply_that_only_echoes_the_prompt_is_no_answer() -> None:
    for sample in _answers_the_page_size():
        prompt = str(sample.input)
        assert _score(prompt, sample)["correct"] == 0.0, sample.id
        assert _score(f"{prompt}\n\n", sample)["answered"] == 0.0, sample.id


def test_an_answer_beside_an_echo_is_read_from_what_the_model_added() -> None:
    for sample in _answers_the_page_size()[:3]:
        prompt = str(sample.input)
        assert _score(f"{prompt}\n\nAnswer: {sample.target}", sample)["correct"] == 1.0, sample.id
        assert _score(f"{prompt}\n\nAnswer: {int(sample.target) + 1}", sample)["correct"] == 0.0, sample.id
        assert _score(str(sample.target), sample)["correct"] == 1.0, sample.id
