"""The solvers and tools that reply without a model, run as Inspect runs them: the validity checks' fixed and
scripted replies, and the tools task's ``describe_dataset`` tool (what the model gets is what the server says,
and the call is recorded for the scorer). inspect-evals-lint's IETS005/IETS007 ask that each be exercised."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import match
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import store_as

from coonbench.datasets.tools.questions import collections
from coonbench.datasets.tools.server import ToolServer, describe_dataset
from coonbench.tasks.state import ToolsState
from coonbench.validity.judges import ANSWER_KEY, fixed_answer
from coonbench.validity.run import scripted_reply


def _run(task: Task, tmp_path: Path) -> list:  # type: ignore[type-arg]
    [log] = inspect_eval(task, model="mockllm/model", log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    assert log.samples is not None
    return log.samples


def test_fixed_answer_replies_with_the_labelled_answer(tmp_path: Path) -> None:
    samples = [Sample(id="a", input="q", target="Row", metadata={ANSWER_KEY: "Row"}),
               Sample(id="b", input="q", target="Column", metadata={ANSWER_KEY: "Stack"})]
    done = {s.id: s for s in _run(Task(dataset=samples, solver=fixed_answer(), scorer=match()), tmp_path)}
    assert done["a"].output.completion == "Row" and done["a"].scores["match"].value == "C"
    assert done["b"].output.completion == "Stack" and done["b"].scores["match"].value == "I"


def test_scripted_reply_answers_each_sample_with_its_own_text(tmp_path: Path) -> None:
    replies = {"x": "first reply", "y": "second reply"}
    samples = [Sample(id=i, input="q", target=text) for i, text in replies.items()]
    done = _run(Task(dataset=samples, solver=scripted_reply(replies), scorer=match()), tmp_path)
    assert {s.id: s.output.completion for s in done} == replies
    assert all(s.messages[-1].role == "assistant" and s.messages[-1].text == replies[str(s.id)] for s in done)


@solver
def _call_describe(server: ToolServer) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        text = await describe_dataset(server)()
        state.output = ModelOutput.from_content(model="tool", content=str(text))
        state.metadata["calls"] = [call["function"] for call in store_as(ToolsState).calls]
        return state

    return solve


def test_describe_dataset_tool_returns_the_servers_description_and_records_the_call(tmp_path: Path) -> None:
    server = ToolServer(collections()["employees"], "toon")
    expected, _, _ = server.call("describe_dataset")
    [done] = _run(Task(dataset=[Sample(input="q", target=expected)], solver=_call_describe(server), scorer=match()),
                  tmp_path)
    assert done.output.completion == expected
    assert done.metadata["calls"] == ["describe_dataset"]
