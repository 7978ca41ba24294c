"""Tool calling for the ``gguf`` provider: tools rendered through the model's chat template, replies parsed back.

Why: the tool task (``evals/tools.py``) runs offline on the embedded model. Qwen2.5's chat template (carried in its
GGUF file) renders a ``tools`` list into the system turn and asks for calls as
``<tool_call>{"name": …, "arguments": {…}}</tool_call>``; llama-cpp-python's template formatter passes ``tools`` to
the file's template, and the assistant's calls and the ``tool`` results are sent in the roles the template knows.
A file whose template does not mention tools (or a named ``chat_format``) gets the same convention written into its
system text (``TOOLS_SYSTEM``), and its history as text.

Replies are read by ``split_tool_calls``: each ``<tool_call>`` block (an unterminated last one too, as a reply cut
by ``max_tokens`` leaves it) becomes an Inspect ``ToolCall``; a block that is not a JSON object with a tool's
``name`` and object ``arguments`` becomes a call carrying ``parse_error``, which Inspect reports to the model as a
failed call. A model that cannot call tools therefore answers without calls or with failed calls: a model failure
in the log, never an exception. The reading is bounded (``MAX_CALLS`` blocks, ``MAX_CALL_CHARS`` each, nesting
``MAX_DEPTH``), with no regular expression over the reply.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageTool
from inspect_ai.tool import ToolCall, ToolChoice, ToolFunction, ToolInfo

OPEN, CLOSE = "<tool_call>", "</tool_call>"
MAX_CALLS = 8
"""Calls read from one reply; later blocks are left in the text."""
MAX_CALL_CHARS = 20_000
"""Longer call blocks are refused unparsed (a runaway reply must not reach ``json.loads`` whole)."""
MAX_DEPTH = 32
"""Deeper JSON nesting is refused before parsing (``json.loads`` recurses)."""
TEMPLATE_KEY = "tokenizer.chat_template"
FILE_TEMPLATE_FORMAT = "chat_template.default"
"""llama-cpp-python's name for the handler built from the GGUF file's own template."""

TOOLS_SYSTEM = """# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{tools}
</tools>

For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
<tool_call>
{{"name": <function-name>, "arguments": <args-json-object>}}
</tool_call>"""
"""The tool instructions written into the system text when the template cannot render tools (Qwen's wording)."""


def tool_specs(tools: list[ToolInfo]) -> list[dict[str, Any]]:
    """Inspect tools as OpenAI-style function specs (what chat templates iterate over)."""
    return [{"type": "function", "function": {"name": t.name, "description": t.description,
                                              "parameters": t.parameters.model_dump(exclude_none=True)}}
            for t in tools]


def native_tools(llama: Any) -> bool:
    """Whether llama-cpp-python renders with the file's own template and that template renders ``tools``."""
    metadata = getattr(llama, "metadata", None) or {}
    template = str(metadata.get(TEMPLATE_KEY, ""))
    return getattr(llama, "chat_format", None) == FILE_TEMPLATE_FORMAT and "tools" in template


def _call_json(call: ToolCall) -> str:
    return json.dumps({"name": call.function, "arguments": call.arguments}, ensure_ascii=False)


def _native(message: ChatMessage) -> dict[str, Any]:
    """One message in the roles a tool-aware template knows (``tool``; assistant ``tool_calls``)."""
    if isinstance(message, ChatMessageTool):
        return {"role": "tool", "name": message.function or "", "tool_call_id": message.tool_call_id or "",
                "content": message.error.message if message.error else message.text}
    if isinstance(message, ChatMessageAssistant) and message.tool_calls:
        return {"role": "assistant", "content": message.text,
                "tool_calls": [{"id": c.id, "type": "function",
                                "function": {"name": c.function, "arguments": c.arguments}}
                               for c in message.tool_calls]}
    return {"role": message.role, "content": message.text}


def _as_text(message: ChatMessage) -> ChatMessage:
    """One message with its calls or result written in the ``<tool_call>`` convention (for any template)."""
    if isinstance(message, ChatMessageTool):
        body = message.error.message if message.error else message.text
        return message.model_copy(update={"content": f"<tool_response>\n{body}\n</tool_response>",
                                          "function": None, "error": None})
    if isinstance(message, ChatMessageAssistant) and message.tool_calls:
        calls = "\n".join(f"{OPEN}\n{_call_json(c)}\n{CLOSE}" for c in message.tool_calls)
        return ChatMessageAssistant(content=f"{message.text}\n{calls}".strip(), model=message.model)
    return message


def tool_request(
    llama: Any, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, *, system_role: bool,
    text_messages: Any,
) -> dict[str, Any]:
    """The ``create_chat_completion`` arguments for a turn with tools: ``messages`` (and ``tools`` when the template
    renders them). ``text_messages`` is the provider's plain message mapping (``gguf.chat_messages``)."""
    specs = tool_specs(tools)
    if isinstance(tool_choice, ToolFunction):
        specs = [s for s in specs if s["function"]["name"] == tool_choice.name] or specs
    if native_tools(llama):
        merged: list[dict[str, Any]] = []
        for message in input:
            rendered = _native(message)
            if rendered["role"] == "system" and not system_role:
                rendered["role"] = "user"
            merged.append(rendered)
        return {"messages": merged, "tools": specs, "tool_choice": "auto"}
    listing = "\n".join(json.dumps(s, ensure_ascii=False) for s in specs)
    system = ChatMessageSystem(content=TOOLS_SYSTEM.format(tools=listing))
    shown = [_as_text(m) for m in input]
    if shown and isinstance(shown[0], ChatMessageSystem):
        shown[0] = ChatMessageSystem(content=f"{shown[0].text}\n\n{system.text}")
    else:
        shown.insert(0, system)
    return {"messages": text_messages(shown, system_role=system_role)}


def _too_deep(text: str) -> bool:
    """Whether brackets outside strings nest deeper than ``MAX_DEPTH`` (a linear scan, no recursion)."""
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _parse_call(body: str, n: int, names: set[str]) -> ToolCall:
    """One ``<tool_call>`` body as a ToolCall; ``parse_error`` says what was wrong with it."""
    body = body.strip()
    call_id = f"call_{n}"
    if len(body) > MAX_CALL_CHARS:
        return ToolCall(id=call_id, function="unknown", arguments={},
                        parse_error=f"tool call of {len(body)} characters (more than {MAX_CALL_CHARS})")
    if _too_deep(body):
        return ToolCall(id=call_id, function="unknown", arguments={},
                        parse_error=f"tool call nested deeper than {MAX_DEPTH} levels")
    try:
        parsed = json.loads(body)
    except ValueError as err:
        return ToolCall(id=call_id, function="unknown", arguments={}, parse_error=f"tool call is not JSON: {err}")
    if not isinstance(parsed, dict) or not isinstance(parsed.get("name"), str):
        return ToolCall(id=call_id, function="unknown", arguments={},
                        parse_error='tool call must be a JSON object {"name": …, "arguments": {…}}')
    arguments = parsed.get("arguments", parsed.get("parameters", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if len(arguments) <= MAX_CALL_CHARS and not _too_deep(arguments) else None
        except ValueError:
            arguments = None
    name = parsed["name"][:200]
    if not isinstance(arguments, dict):
        return ToolCall(id=call_id, function=name, arguments={}, parse_error="tool call arguments must be an object")
    error = None if name in names else f"unknown tool {name!r} (tools: {', '.join(sorted(names))})"
    return ToolCall(id=call_id, function=name, arguments=arguments, parse_error=error)


def split_tool_calls(text: str, tools: list[ToolInfo]) -> tuple[str, list[ToolCall]]:
    """(the reply's text without its call blocks, the calls); a reply that is one bare JSON call counts too."""
    names = {t.name for t in tools}
    calls: list[ToolCall] = []
    kept: list[str] = []
    pos = 0
    while len(calls) < MAX_CALLS:
        start = text.find(OPEN, pos)
        if start < 0:
            break
        kept.append(text[pos:start])
        end = text.find(CLOSE, start + len(OPEN))
        body = text[start + len(OPEN): end if end >= 0 else len(text)]
        calls.append(_parse_call(body, len(calls) + 1, names))
        pos = end + len(CLOSE) if end >= 0 else len(text)
    kept.append(text[pos:])
    rest = "".join(kept).strip()
    bare_text = _unfenced(rest)
    if not calls and bare_text.startswith("{") and bare_text.endswith("}") and '"name"' in bare_text[:MAX_CALL_CHARS]:
        bare = _parse_call(bare_text, 1, names)
        if bare.parse_error is None:
            return "", [bare]
    return rest, calls


def _unfenced(text: str) -> str:
    """The body of a reply that is one fenced code block (```json … ```, as Qwen2.5-Coder-1.5B writes its calls
    when the template's tags are not followed), else the text itself. Plain string operations: no regex on it."""
    if not (text.startswith("```") and text.endswith("```")) or len(text) < 6:
        return text
    first_line_end = text.find("\n")
    if first_line_end < 0:
        return text
    body = text[first_line_end + 1: -3]
    return text if "```" in body else body.strip()
