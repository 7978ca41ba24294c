"""The tasks' own solvers, each named and run through Inspect on a sample from its task's loader, against a
scripted mockllm: what the model is sent, turn by turn, is what the solver promises (a primer, a per-sample
config, the next instruction or the feedback, a tool's real result, a fresh context for agent B).

The task tests run these solvers only through their tasks and check scores; here each one's contract is checked
on the model calls the log records, so a solver replaced by plain ``generate()`` fails. inspect-evals-lint's
IETS005 asks that every custom solver be named by a test (docs/register.md)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalSample, resolve_sample_attachments
from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageTool,
    GenerateConfig,
    Model,
    ModelOutput,
    get_model,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from coonbench.answers.check import check_answer
from coonbench.datasets.comprehension import comprehension_pending
from coonbench.datasets.handoff import MESSAGE_KEY, b_prompt, handoff_samples
from coonbench.datasets.retrieval import analysis_samples
from coonbench.datasets.sessions import modification_session_pending
from coonbench.datasets.tools import PLAN_KEY, tools_samples
from coonbench.datasets.tools.questions import collections
from coonbench.datasets.tools.server import TOOL_FACTORIES, ToolServer
from coonbench.evals.correction import correction
from coonbench.formats import get_format
from coonbench.resources import DATA_DIR
from coonbench.solvers.correction import correction_protocol
from coonbench.solvers.handoff import handoff_agents
from coonbench.solvers.primer import primed_generate
from coonbench.solvers.sample_config import GENERATE_CONFIG_KEY, generate_from_metadata
from coonbench.solvers.session import session_generate
from coonbench.solvers.tools import no_tool_agent, tool_agent
from coonbench.tasks.state import CorrectionState, HandoffState, SessionState
from coonbench.tasks.subset import build_subset

MOCK = "mockllm/model"


def _scripted(replies: Sequence[str | ModelOutput]) -> Model:
    """A mock model that answers with ``replies`` in order (one sample per run, so the order is the call order)."""
    outputs = [r if isinstance(r, ModelOutput) else ModelOutput.from_content(MOCK, r) for r in replies]
    return get_model(MOCK, custom_outputs=outputs, memoize=False)


def _run(task: Task, tmp_path: Path, model: str | Model = MOCK, **kwargs: Any) -> list[EvalSample]:
    """The run's samples, their long texts (primers, programs) read back from the log's attachments."""
    [log] = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none", **kwargs)
    assert log.status == "success", log.error
    assert log.samples
    return [resolve_sample_attachments(s, "full") for s in log.samples]


def _meta(sample: Sample | EvalSample) -> dict[str, Any]:
    """A sample's metadata (typed as optional; every sample here has some)."""
    return sample.metadata or {}


def _calls(sample: EvalSample) -> list[ModelEvent]:
    """The model calls of a sample, in order, as the log recorded them (input, tools offered, config, output)."""
    return [e for e in sample.events if isinstance(e, ModelEvent)]


# ---------------------------------------------------------------- primed_generate (comprehension)


@pytest.mark.parametrize("variant", ["short", "full"])
def test_primed_generate_sends_the_samples_format_primer_before_the_question(
    variant: Literal["short", "full"], tmp_path: Path
) -> None:
    """One question in COON, COON without primer and Dart: each condition's primer (of the variant asked for) is
    the system message of the one call, before the question; a condition without primer gets no system message."""
    pending, _ = comprehension_pending("coon,coon-noprimer,dart", primer_variant=variant)
    samples = build_subset(pending, 1, 0)
    done = _run(Task(dataset=samples, solver=primed_generate(variant)), tmp_path)
    primed = 0
    for sample in done:
        [call] = _calls(sample)
        meta = _meta(sample)
        primer = get_format(meta.get("encoding") or meta["format"]).primer(variant) if meta["primer"] else ""
        system = [m.text for m in call.input if isinstance(m, ChatMessageSystem)]
        assert system == ([primer] if primer else []), sample.id
        assert call.input[-1].role == "user" and call.input[-1].text == sample.input
        assert sample.output.completion == call.output.completion  # the primer step did not stand in for generate
        primed += bool(primer)
    assert len(done) == 3 and primed >= 1


# ---------------------------------------------------------------- generate_from_metadata (retrieval, tasks_file)


def _tealeaf_file(folder: Path, configs: list[dict[str, Any]]) -> Path:
    """A TeaLeaf task file (the format the retrieval task's ``tasks_file`` reads) with one task per config."""
    (folder / "data.json").write_text(json.dumps({"rows": [{"name": "a", "value": 1}, {"name": "b", "value": 2}]}))
    tasks = [{"id": f"T-{n}", "category": "test", "prompt_template": "Sum the values of {data}.",
              "data_file": "data.json", **config} for n, config in enumerate(configs)]
    path = folder / "tasks.json"
    path.write_text(json.dumps({"tasks": tasks}))
    return path


def test_generate_from_metadata_generates_with_each_samples_own_config(tmp_path: Path) -> None:
    """Two TeaLeaf tasks with different max_tokens and temperature, and a sample with none: each call is made with
    its own sample's settings, and the one without keeps the run's."""
    path = _tealeaf_file(tmp_path, [{"max_tokens": 111, "temperature": 0.0}, {"max_tokens": 777, "temperature": 0.9}])
    samples, rejected = analysis_samples(path, "json")
    plain = Sample(id="plain", input="Say hi.")
    run_config = GenerateConfig(max_tokens=55, temperature=0.5)
    done = _run(Task(dataset=[*samples, plain], solver=generate_from_metadata()), tmp_path / "logs",
                **run_config.model_dump(exclude_none=True))
    assert not rejected and len(done) == 3
    for sample in done:
        [call] = _calls(sample)
        wanted = _meta(sample).get(GENERATE_CONFIG_KEY) or run_config.model_dump(exclude_none=True)
        assert (call.config.max_tokens, call.config.temperature) == (wanted["max_tokens"], wanted["temperature"])
    assert len({_calls(s)[0].config.max_tokens for s in done}) == 3


# ---------------------------------------------------------------- session_generate (modification, turns=3)


@pytest.fixture(scope="module")
def session_sample(tmp_path_factory: pytest.TempPathFactory) -> Sample:
    """A three-turn synthetic session on one file of the built-in corpus, in COON."""
    folder = tmp_path_factory.mktemp("corpus")
    first = sorted((DATA_DIR / "dart" / "composed").glob("*.dart"))[0]
    shutil.copy(first, folder / first.name)
    samples = build_subset(modification_session_pending(None, None, "coon", str(folder), 3)[0], None)
    assert samples and len(_meta(samples[0])["turns"]) == 3
    return samples[0]


def test_session_generate_sends_each_next_instruction_after_the_reply_and_feeds_back_bad_syntax(
    session_sample: Sample, tmp_path: Path
) -> None:
    """Turn 1 answered well, turn 2 twice without a program, turn 3 well: four calls. After turn 1 comes turn 2's
    instruction; after the bad reply, its syntax error; after turn 2's last failure, turn 3 resumed from gold.
    Every turn's final reply is recorded, valid or not."""
    turns = _meta(session_sample)["turns"]
    bad = "I would rather not."
    replies = [turns[0]["gold"], bad, bad, turns[2]["gold"]]
    [done] = _run(Task(dataset=[session_sample], solver=session_generate(max_retries=1)), tmp_path,
                  model=_scripted(replies))
    calls = _calls(done)
    assert [c.output.completion for c in calls] == replies
    assert calls[0].input[-1].text == session_sample.input
    assert [calls[1].input[-2].text, calls[1].input[-1].text] == [replies[0], turns[1]["prompt"]]
    assert check_answer(bad, "coon").error in calls[2].input[-1].text  # the retry's feedback, within turn 2
    assert calls[2].input[-1].text != turns[1]["prompt"]
    assert calls[3].input[-1].text == turns[2]["resume_prompt"]
    record = done.store_as(SessionState).turns
    assert [(t["turn"], t["reply"], t["valid"]) for t in record] == [
        (1, replies[0], check_answer(replies[0], "coon").ok), (2, bad, False), (3, replies[3], True)]
    assert record[0]["valid"] and [t["resumed_from_gold"] for t in record] == [False, False, True]
    assert [len(t["attempts"]) for t in record] == [1, 2, 1]
    assert done.output.completion == replies[-1]


# ---------------------------------------------------------------- correction_protocol (correction)

WRONG = "```python\ndef factorial(n):\n    return n\n```"
RIGHT = "```python\ndef factorial(n):\n    return 1 if n <= 1 else n * factorial(n - 1)\n```"


def test_correction_protocol_feeds_the_failing_test_back_and_stops_at_the_first_pass(tmp_path: Path) -> None:
    """A wrong program, then a right one, with four attempts allowed: two calls. Between them, the feedback
    names the first attempt's outcome, failing call, expected and actual value; both attempts are recorded."""
    task = correction(target="python", problems="factorial", case_timeout=1.0)
    [done] = _run(task, tmp_path, model=_scripted([WRONG, RIGHT, WRONG, WRONG]),
                  solver=correction_protocol(max_retries=3, case_timeout=1.0))
    calls = _calls(done)
    record = done.store_as(CorrectionState)
    first, second = record.attempts
    assert len(calls) == 2 and record.max_attempts == 4 and record.problem_id == _meta(done)["problem_id"]
    assert (first["outcome"], second["outcome"]) == ("WRONG_OUTPUT", "PASS")
    feedback = calls[1].input[-1]
    assert feedback.role == "user" and calls[1].input[-2].text == WRONG
    for part in (first["outcome"], first["call"], first["expected"], first["actual"]):
        assert part and str(part) in feedback.text
    assert second["code"] in RIGHT and done.output.completion == RIGHT


def test_correction_protocol_stops_after_its_last_attempt_and_sends_the_targets_system_prompt(tmp_path: Path) -> None:
    """A model that never writes a program, on python-ast (whose samples carry a system prompt): exactly
    max_retries + 1 calls, each after the system prompt, and no feedback after the last."""
    task = correction(target="python-ast", problems="factorial", case_timeout=1.0)
    [done] = _run(task, tmp_path, model=_scripted(["no program today"] * 5),
                  solver=correction_protocol(max_retries=1, case_timeout=1.0))
    calls = _calls(done)
    assert len(calls) == 2 and len(done.store_as(CorrectionState).attempts) == 2
    for call in calls:
        assert isinstance(call.input[0], ChatMessageSystem) and call.input[0].text == _meta(done)["system_prompt"]
    assert done.messages[-1].role == "assistant"


# ---------------------------------------------------------------- tool_agent and no_tool_agent (tools)


@pytest.fixture(scope="module")
def tools_sample() -> Sample:
    """A tools-task question in TOON that its plan answers with two or more calls."""
    samples, _ = tools_samples("toon")
    return next(s for s in samples if len(_meta(s)[PLAN_KEY]) >= 2)


def test_tool_agent_runs_the_calls_the_model_asks_for_and_answers_when_it_stops(
    tools_sample: Sample, tmp_path: Path
) -> None:
    """A model that makes the plan's calls, then answers: every call is offered the four tools, every tool
    result the model reads is what the sample's tool server returns for that call, and the reply without a call
    is the answer."""
    plan = _meta(tools_sample)[PLAN_KEY]
    script = [ModelOutput.for_tool_call(MOCK, c["function"], c["arguments"]) for c in plan]
    [done] = _run(Task(dataset=[tools_sample], solver=tool_agent()), tmp_path,
                  model=_scripted([*script, str(tools_sample.target)]))
    calls = _calls(done)
    names = sorted(f.__name__ for f in TOOL_FACTORIES)
    assert len(calls) == len(plan) + 1
    assert all(sorted(t.name for t in c.tools) == names for c in calls)
    server = ToolServer(collections()[_meta(tools_sample)["collection"]], _meta(tools_sample)["encoding"])
    results = [m for m in done.messages if isinstance(m, ChatMessageTool)]
    assert [m.function for m in results] == [c["function"] for c in plan]
    assert [m.text for m in results] == [server.call(c["function"], **c["arguments"])[0] for c in plan]
    assert done.output.completion == str(tools_sample.target)


def _always_calls(messages: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice,
                  config: GenerateConfig) -> ModelOutput:
    """A model that calls the first tool it is offered, every time, and answers only when offered none."""
    if tools:
        return ModelOutput.for_tool_call(MOCK, tools[0].name, {})
    return ModelOutput.from_content(MOCK, "no tools, so a guess")


def test_tool_agent_cuts_off_a_model_that_never_stops_calling(tools_sample: Sample, tmp_path: Path) -> None:
    """``max_calls=3``: three calls run, then the agent stops although the model asks for more (the message limit
    only ends the sample if the bound is broken)."""
    [done] = _run(Task(dataset=[tools_sample], solver=tool_agent(max_calls=3), message_limit=30), tmp_path,
                  model=get_model(MOCK, custom_outputs=_always_calls, memoize=False))
    assert len(_calls(done)) == 3
    assert sum(isinstance(m, ChatMessageTool) for m in done.messages) == 3


def test_no_tool_agent_offers_no_tools(tools_sample: Sample, tmp_path: Path) -> None:
    """The same model, under the floor agent: one call with no tools, and its text is the answer."""
    [done] = _run(Task(dataset=[tools_sample], solver=no_tool_agent()), tmp_path,
                  model=get_model(MOCK, custom_outputs=_always_calls, memoize=False))
    [call] = _calls(done)
    assert call.tools == [] and call.input[-1].text == tools_sample.input
    assert done.output.completion == _always_calls([], [], "none", GenerateConfig()).completion
    assert not any(isinstance(m, ChatMessageTool) for m in done.messages)


# ---------------------------------------------------------------- handoff_agents (handoff)


@pytest.mark.parametrize("fmt", ["coon", "free"])
def test_handoff_agents_b_sees_only_as_message(fmt: str, tmp_path: Path) -> None:
    """A is sent the program (with the told format's primer, if any) and writes a message; B is sent, in a fresh
    context with the same primer, only that message and its task; B's reply is the output, A's is recorded."""
    samples, _ = handoff_samples(fmt, "comprehension", questions=1)
    sample = samples[0]
    meta = _meta(sample)
    message, answer = f"{meta[MESSAGE_KEY]}\n-- scripted A", "scripted B"
    [done] = _run(Task(dataset=[sample], solver=handoff_agents()), tmp_path, model=_scripted([message, answer]))
    a_call, b_call = _calls(done)
    primer = [meta["handoff_primer"]] if meta["handoff_primer"] else []
    assert [m.text for m in a_call.input] == [*primer, sample.input]
    assert [m.text for m in b_call.input] == [*primer, b_prompt(meta, message)]
    assert not any(str(sample.input) in m.text for m in b_call.input)  # nothing of A's conversation reaches B
    assert done.store_as(HandoffState).message == message
    assert done.output.completion == answer and done.messages[-1].text == answer
