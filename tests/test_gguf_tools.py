"""Tool calling on the gguf provider with a scripted llama.cpp stand-in: tools reach the template (or the written-out
``<tool_call>`` convention), replies become Inspect ToolCalls, and hostile replies stay bounded model failures."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool, ChatMessageUser, get_model
from inspect_ai.tool import ToolCall, ToolInfo, ToolParam, ToolParams

from coonbench.providers import gguf
from coonbench.providers.gguf_tools import (
    FILE_TEMPLATE_FORMAT,
    MAX_CALL_CHARS,
    MAX_CALLS,
    MAX_DEPTH,
    TEMPLATE_KEY,
    split_tool_calls,
)

TOOLS = [ToolInfo(name="get_record", description="Get one record.",
                  parameters=ToolParams(properties={"ref": ToolParam(type="string", description="the ref")},
                                        required=["ref"]))]


def _call(body: str) -> str:
    return f"<tool_call>\n{body}\n</tool_call>"


def test_a_qwen_style_call_becomes_a_tool_call() -> None:
    text, calls = split_tool_calls("Let me look.\n" + _call('{"name": "get_record", "arguments": {"ref": "rec-1"}}'),
                                   TOOLS)
    assert text == "Let me look."
    assert [(c.function, c.arguments, c.parse_error) for c in calls] == [("get_record", {"ref": "rec-1"}, None)]


def test_arguments_as_a_json_string_and_a_bare_json_reply_are_read() -> None:
    _, calls = split_tool_calls(_call('{"name": "get_record", "arguments": "{\\"ref\\": \\"r\\"}"}'), TOOLS)
    assert calls[0].arguments == {"ref": "r"} and calls[0].parse_error is None
    text, calls = split_tool_calls('{"name": "get_record", "arguments": {"ref": "r"}}', TOOLS)
    assert text == "" and calls[0].function == "get_record"


def test_a_call_in_a_fenced_json_block_is_read() -> None:
    """Qwen2.5-Coder-1.5B, given the tools through its own template, wrote its first call as a fenced JSON block
    (seen in logs/published/qwen2.5-coder-1.5b/tools): read as the call it is; a fenced block that is not one call,
    or two blocks, stays text."""
    text, calls = split_tool_calls('```json\n{\n  "name": "get_record",\n  "arguments": {"ref": "r"}\n}\n```', TOOLS)
    assert text == "" and calls[0].function == "get_record" and calls[0].arguments == {"ref": "r"}
    for reply in ['```json\n{"answer": 3}\n```', '```\n{"name": "get_record"}\n```\n```\n{}\n```', "```", "``````"]:
        text, calls = split_tool_calls(reply, TOOLS)
        assert calls == [] and text == reply.strip(), reply


def test_plain_answers_have_no_calls() -> None:
    for reply in ["42", "", "The answer is {not json}", '{"answer": 3}']:
        text, calls = split_tool_calls(reply, TOOLS)
        assert calls == [] and text == reply.strip()


@pytest.mark.parametrize("body, error", [
    ("{not json", "not JSON"),
    ('["get_record", {}]', "must be a JSON object"),
    ('{"name": "get_record", "arguments": [1, 2]}', "arguments must be an object"),
    ('{"name": "drop_tables", "arguments": {}}', "unknown tool"),
    ("[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5), "nested deeper"),
    ('{"name": "get_record", "arguments": {"ref": "' + "x" * MAX_CALL_CHARS + '"}}', "characters"),
])
def test_malformed_calls_carry_a_parse_error(body: str, error: str) -> None:
    _, calls = split_tool_calls(_call(body), TOOLS)
    assert len(calls) == 1 and error in (calls[0].parse_error or "")


def test_hostile_replies_are_bounded() -> None:
    deep = "<tool_call>" + "[" * 200_000  # unterminated and deep: refused before json.loads
    start = time.perf_counter()
    _, calls = split_tool_calls(deep, TOOLS)
    assert len(calls) == 1 and calls[0].parse_error
    many = _call('{"name": "get_record", "arguments": {"ref": "r"}}') * (MAX_CALLS * 50)
    text, calls = split_tool_calls(many, TOOLS)
    assert len(calls) == MAX_CALLS and "<tool_call>" in text  # the rest is left as text, not parsed
    huge = "<tool_call>" * 100_000 + "x" * 1_000_000
    _, calls = split_tool_calls(huge, TOOLS)
    assert len(calls) <= MAX_CALLS
    escaped = _call('{"name": "get_record", "arguments": {"ref": "a\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}}')
    assert split_tool_calls(escaped, TOOLS)[1][0].parse_error is None  # brackets inside strings do not count
    assert time.perf_counter() - start < 5


class ScriptedLlama:
    """``create_chat_completion`` replying with the next scripted text; keeps the requests."""

    def __init__(self, replies: list[str], template: str = "", chat_format: str | None = None) -> None:
        self.replies, self.requests = list(replies), []
        self.metadata = {TEMPLATE_KEY: template} if template else {}
        self.chat_format = chat_format

    def reset(self) -> None:
        pass

    def create_chat_completion(self, **request: Any) -> dict[str, Any]:
        self.requests.append(request)
        return {"choices": [{"message": {"role": "assistant", "content": self.replies.pop(0)},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}}


def _model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, llama: ScriptedLlama) -> Any:
    weights = tmp_path / "fake.gguf"
    weights.write_bytes(b"GGUF")
    loaded = gguf.LoadedModel(llama, threading.Lock(), weights, n_ctx=4096, load_seconds=0.0)
    monkeypatch.setattr(gguf, "load_model", lambda *a, **k: loaded)
    return get_model("gguf/fake", model_path=str(weights), memoize=False)


HISTORY = [
    ChatMessageUser(content="Find rec-1."),
    ChatMessageAssistant(content="", tool_calls=[ToolCall(id="c1", function="get_record", arguments={"ref": "rec-1"})]),
    ChatMessageTool(content="name: Ada", tool_call_id="c1", function="get_record"),
]


def test_a_template_that_renders_tools_gets_them_with_native_roles(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    llama = ScriptedLlama([_call('{"name": "get_record", "arguments": {"ref": "rec-2"}}')],
                          template="{% if tools %}...{% endif %}", chat_format=FILE_TEMPLATE_FORMAT)
    output = anyio.run(lambda: _model(monkeypatch, tmp_path, llama).generate(HISTORY, tools=TOOLS))
    request = llama.requests[0]
    assert request["tools"][0]["function"]["name"] == "get_record"
    assert [m["role"] for m in request["messages"]] == ["user", "assistant", "tool"]
    assert request["messages"][1]["tool_calls"][0]["function"]["arguments"] == {"ref": "rec-1"}
    assert output.stop_reason == "tool_calls"
    assert output.message.tool_calls[0].arguments == {"ref": "rec-2"}


def test_other_templates_get_the_convention_written_out(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    llama = ScriptedLlama(["Ada"], chat_format="chatml")
    output = anyio.run(lambda: _model(monkeypatch, tmp_path, llama).generate(HISTORY, tools=TOOLS))
    request = llama.requests[0]
    assert "tools" not in request
    text = json.dumps(request["messages"])
    assert "<tools>" in text and "get_record" in text and "<tool_response>" in text and "<tool_call>" in text
    assert output.completion == "Ada" and not output.message.tool_calls and output.stop_reason == "stop"


def test_a_model_that_writes_garbage_calls_fails_as_a_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    llama = ScriptedLlama([_call("{{{{ not a call")])
    output = anyio.run(lambda: _model(monkeypatch, tmp_path, llama).generate("hi", tools=TOOLS))
    assert output.message.tool_calls and output.message.tool_calls[0].parse_error


def test_tool_choice_none_sends_no_tools(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    llama = ScriptedLlama(['<tool_call>{"name": "get_record", "arguments": {}}</tool_call>'])
    output = anyio.run(lambda: _model(monkeypatch, tmp_path, llama).generate("hi", tools=TOOLS, tool_choice="none"))
    assert "tools" not in llama.requests[0] and not output.message.tool_calls
