"""The tool-use task: which questions need two or more calls, the tool server in every data format, the gold agent's
real calls scoring 100% per format, the no-tool floor, and garbage or misread answers scored INCORRECT."""

from __future__ import annotations

import json
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolError

from coonbench.datasets.retrieval import data_format_names
from coonbench.datasets.retrieval.load import read_questions
from coonbench.datasets.retrieval.common import QUESTIONS_FILE
from coonbench.datasets.tools import PLAN_KEY, tools_samples
from coonbench.datasets.tools.questions import PAGE_SIZE, collections, tool_questions
from coonbench.datasets.tools.server import MAX_ARGUMENT_CHARS, ToolServer
from coonbench.evals.tools import tools
from coonbench.formats import get_format
from coonbench.solvers.gold import gold
from coonbench.solvers.tools import play_tool_plan
from coonbench.tasks.samples import TaskArgumentError


def _walk(row: dict[str, Any], path: str) -> Any:
    for part in path.split("."):
        row = row[part]
    return row


def _body(text: str) -> str:
    """A tool result without its one-line heading."""
    return text.split("\n", 1)[1]


def test_every_kept_question_needs_two_calls_and_the_plan_makes_them() -> None:
    kept = tool_questions()
    assert len(kept) > 60
    assert {q["kind"] for q in kept} == {"field", "all", "filter_cn", "filter_bc"}
    for q in kept:
        assert q["min_calls"] >= 2 and len(q["plan"]) >= 2, q["id"]
        coll = collections()[q["collection"]]
        if q["kind"] == "field":  # past the first page: neither one page nor one find holds the value
            assert coll.idents.index(q["params"]["ident"]) >= PAGE_SIZE
        if q["kind"] == "all":
            assert len(coll.rows) > PAGE_SIZE


def test_every_question_of_a_collection_is_recognised() -> None:
    """The template matcher and the retrieval generator agree (tool_questions raises on a text it cannot place)."""
    names = set(collections())
    records = [r for r in read_questions(QUESTIONS_FILE)
               if r["dataset"].removeprefix("datasets/").removesuffix(".json") in names]
    assert len(records) > 150
    kept = {q["id"] for q in tool_questions()}
    dropped = Counter(r["question_type"] for r in records if r["id"] not in kept)
    assert dropped["structure-awareness"] > 0  # one call answers them: left out on purpose


def test_kept_answers_recomputed_from_the_data_independently() -> None:
    for q in tool_questions():
        coll, p = collections()[q["collection"]], q["params"]
        rows = list(coll.rows)
        if q["kind"] == "all":
            values = [_walk(r, p["path"]) for r in rows]
            if p["how"] == "total":
                assert str(sum(values)) == q["answer"], q["id"]
            elif p["how"] == "average":
                mean = sum(Decimal(str(v)) for v in values) / len(values)
                assert str(mean.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)) == q["answer"], q["id"]
            else:
                best = max(values)
                assert str(rows[values.index(best)][coll.id_field]) == q["answer"], q["id"]
        elif q["kind"] == "filter_bc":
            n = sum(bool(_walk(r, p["flag"])) and str(_walk(r, p["path"])) == p["value"] for r in rows)
            assert str(n) == q["answer"], q["id"]


@pytest.mark.parametrize("fmt", ["json", "toon", "yaml"])
def test_tool_results_decode_to_the_data(fmt: str) -> None:
    """The pages cover every record once; find names the matches; get returns the record (decoded back)."""
    coll = collections()["employees"]
    server = ToolServer(coll, fmt)
    codec = get_format(fmt)
    seen = []
    offset = 0
    while offset < len(coll.rows):
        text, full, _ = server.call("list_records", offset=offset)
        page = codec.decode(_body(text))[coll.collection]
        assert [str(r[coll.id_field]) for r in page] == full
        seen.extend(page)
        offset += PAGE_SIZE
    assert seen == list(coll.rows)
    ident = coll.idents[7]
    text, _, named = server.call("find_records", field=coll.id_field, value=ident.upper())
    assert named == [ident]
    ref = codec.decode(_body(text))[coll.collection][0]["ref"]
    text, full, _ = server.call("get_record", ref=ref)
    assert full == [ident] and codec.decode(_body(text))[coll.collection] == [coll.rows[7]]


def test_bad_calls_are_tool_errors_the_model_reads() -> None:
    server = ToolServer(collections()["employees"], "json")
    for function, args, match in [
        ("get_record", {"ref": "rec-nothing"}, "no record has ref"),
        ("list_records", {"offset": 999}, "out of range"),
        ("find_records", {"field": "nope", "value": "x"}, "unknown field"),
        ("find_records", {"field": "name", "value": "x" * (MAX_ARGUMENT_CHARS + 1)}, "longer than"),
        ("drop_table", {}, "unknown tool"),
    ]:
        with pytest.raises(ToolError, match=match):
            server.call(function, **args)
    text, _, named = server.call("find_records", field="department", value="Nowhere")
    assert named == [] and text.startswith("No employees")


def test_samples_cover_every_data_format_and_skip_what_a_format_cannot_carry() -> None:
    samples, refused = tools_samples("all")
    ids = [s.id for s in samples]
    assert len(ids) == len(set(ids))
    by_format = Counter(str(s.metadata["format"]) for s in samples)
    assert set(by_format) == set(data_format_names())
    assert "orders" in refused["csv"] and "nested" in refused["csv"]["orders"]
    assert all(s.metadata["category"] == "tools" and s.metadata[PLAN_KEY] for s in samples)
    first = samples[0]
    assert first.id == f"tools-{first.metadata['pair_id']}-{first.metadata['format']}"


def test_unknown_task_argument_and_agent_are_refused() -> None:
    with pytest.raises(TaskArgumentError, match="formats"):
        tools(fromats="json")
    with pytest.raises(TaskArgumentError, match="agent"):
        tools(agent="psychic")


def _metrics(log: Any) -> dict[str, float]:
    return {name: m.value for s in log.results.scores for name, m in s.metrics.items()}


def test_gold_agent_makes_the_calls_and_scores_100_in_every_format(tmp_path: Any) -> None:
    log = inspect_eval(tools(formats="all", questions=3), model="mockllm/model", solver=gold(), log_dir=str(tmp_path),
                       display="none")[0]
    assert log.status == "success"
    metrics = _metrics(log)
    assert metrics["accuracy"] == 1.0
    for fmt in data_format_names():
        assert metrics[f"success/{fmt}"] == 1.0, fmt
        assert metrics[f"calls/{fmt}"] >= 2.0
        assert metrics[f"tokens_per_solved/{fmt}"] > 0
        assert metrics[f"misread/{fmt}"] == 0.0
    for sample in log.samples or []:
        value = sample.scores["tool_answer"].value
        assert value["tool_calls"] >= 2 and value["fetched"] == 1.0 and value["tool_errors"] == 0
        assert any(m.role == "tool" for m in sample.messages)


def test_no_tool_floor_answers_without_calls(tmp_path: Any) -> None:
    log = inspect_eval(tools(formats="json,toon", agent="no_tools", questions=4), model="mockllm/model",
                       log_dir=str(tmp_path), display="none")[0]
    metrics = _metrics(log)
    assert metrics["accuracy"] == 0.0 and metrics["calls/all"] == 0.0
    assert metrics["unfetched/all"] == 1.0 and metrics["misread/all"] == 0.0


def test_react_agent_runs_on_mockllm_without_calls(tmp_path: Any) -> None:
    log = inspect_eval(tools(formats="json", questions=2), model="mockllm/model", log_dir=str(tmp_path),
                       display="none")[0]
    assert log.status == "success" and _metrics(log)["accuracy"] == 0.0


@solver
def gold_calls_then(reply: str) -> Solver:
    """The gold agent's calls, then ``reply``: a wrong answer after every record was fetched is a misread."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        await play_tool_plan(state)
        state.output = ModelOutput.from_content(model="scripted", content=reply)
        state.messages.append(ChatMessageAssistant(content=reply, model="scripted"))
        return state

    return solve


@pytest.mark.parametrize("reply", ["", "\x00" * 50 + "{{{" * 200, json.dumps({"answer": [1] * 100}), "NaN"])
def test_garbage_after_the_calls_is_incorrect_and_a_misread(tmp_path: Any, reply: str) -> None:
    log = inspect_eval(tools(formats="json", questions=2), model="mockllm/model", solver=gold_calls_then(reply),
                       log_dir=str(tmp_path), display="none")[0]
    assert log.status == "success"
    for sample in log.samples or []:
        score = sample.scores["tool_answer"]
        assert score.value["correct"] == 0.0 and score.value["misread"] == 1.0
        assert "misread" in (score.explanation or "")


def test_react_agent_runs_a_scripted_models_calls(tmp_path: Any) -> None:
    """A model that calls find_records then get_record and answers: the ReAct loop runs the real tools."""
    from inspect_ai.model import get_model

    task = tools(formats="toon", questions=40)
    sample = next(s for s in task.dataset if s.metadata["kind"] == "field")
    plan = sample.metadata[PLAN_KEY]
    outputs = [ModelOutput.for_tool_call("mockllm/model", call["function"], call["arguments"]) for call in plan]
    outputs.append(ModelOutput.from_content("mockllm/model", str(sample.target)))
    task.dataset = type(task.dataset)([sample])
    model = get_model("mockllm/model", custom_outputs=outputs, memoize=False)
    log = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")[0]
    value = (log.samples or [])[0].scores["tool_answer"].value
    assert (value["correct"], value["tool_calls"], value["fetched"]) == (1.0, 2.0, 1.0)
    assert value["result_tokens"] > 0 and value["tokens"] > value["result_tokens"]


def test_calls_refused_before_the_server_count_as_failed_calls(tmp_path: Any) -> None:
    """A call with an argument the tool does not take never reaches the server (Inspect refuses it): it is still a
    call the model made, and a failed one (a small model's typical slip, seen with Qwen2.5-Coder-0.5B)."""
    from inspect_ai.model import get_model

    task = tools(formats="json", questions=40)
    sample = next(s for s in task.dataset if s.metadata["kind"] == "field")
    first = sample.metadata[PLAN_KEY][0]
    outputs = [
        ModelOutput.for_tool_call("mockllm/model", first["function"], {**first["arguments"], "required": False}),
        ModelOutput.for_tool_call("mockllm/model", first["function"], first["arguments"]),
        ModelOutput.from_content("mockllm/model", "no idea"),
    ]
    task.dataset = type(task.dataset)([sample])
    model = get_model("mockllm/model", custom_outputs=outputs, memoize=False)
    log = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")[0]
    score = (log.samples or [])[0].scores["tool_answer"]
    assert (score.value["tool_calls"], score.value["tool_errors"], score.value["correct"]) == (2.0, 1.0, 0.0)
    assert "2 tool call(s), 1 failed" in (score.explanation or "")


def test_report_shows_success_calls_and_tokens_per_solved_task(tmp_path: Any) -> None:
    """`coonbench report` on tool-task logs: per format, success, calls a task and tokens per solved task, each
    recomputed here from the samples' scores as Inspect stored them."""
    import csv

    from inspect_ai.log import read_eval_log

    from coonbench.cli import main as coonbench_main

    logs = tmp_path / "logs"
    inspect_eval(tools(formats="toon,csv", questions=4), model="mockllm/model", solver=gold(),
                 log_dir=str(logs), display="none")
    log = read_eval_log(str(next(logs.glob("*.eval"))))
    expected: dict[str, list[dict[str, float]]] = {}
    for sample in log.samples or []:
        expected.setdefault(sample.metadata["format"], []).append(sample.scores["tool_answer"].value)
    assert coonbench_main(["report", str(logs), "-o", str(tmp_path / "out")]) == 0
    with open(tmp_path / "out" / "tables" / "tools_tool_use.csv", encoding="utf-8") as handle:
        rows = {r["format"]: r for r in csv.DictReader(handle)}
    assert set(rows) == set(expected)
    for fmt, values in expected.items():
        solved = sum(v["correct"] == 1.0 for v in values)
        assert int(rows[fmt]["solved"]) == solved == len(values)  # gold solves every task
        assert float(rows[fmt]["calls_per_task"]) == pytest.approx(sum(v["tool_calls"] for v in values) / len(values))
        assert float(rows[fmt]["tokens_per_solved"]) == pytest.approx(sum(v["tokens"] for v in values) / solved)
