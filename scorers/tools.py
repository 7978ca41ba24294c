"""The tool task's score: the exact answer (``answer_match``'s normaliser) and what the agent's calls cost.

``Score.value`` keys: ``correct``/``answered`` (as ``answer_match``), ``tool_calls`` (calls the model made, those
refused before reaching the server and those the server failed included), ``tool_errors``, ``tokens`` (everything that entered the model's context, counted once in the sample's
tokenizer: the prompt, each tool result — the model's input — and the model's own turns and call arguments),
``result_tokens`` (the tool results alone), ``fetched`` (1 when the results held every record the answer needs,
``metadata['evidence']``) and ``misread`` (1 when the answer is wrong although it was fetched: the result was
there to read).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from typing import Any

from inspect_ai.model import ChatMessageAssistant, ChatMessageTool
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from coonbench.scorers.answer import accuracy_by, answer_match, answered, correct
from coonbench.tasks.state import tools_state
from coonbench.tokens import DEFAULT_ENCODING, count_tokens


def evidence_fetched(calls: list[dict[str, Any]], evidence: dict[str, Any]) -> bool:
    """Whether the calls' results held every record the answer needs (in full, or named where naming is enough)."""
    full = {i for call in calls for i in call.get("full", [])}
    named = full | {i for call in calls for i in call.get("named", [])}
    return set(evidence.get("full", [])) <= full and set(evidence.get("any", [])) <= named


def conversation_tokens(state: TaskState, tokenizer: str) -> tuple[int, int]:
    """(tokens of every message after the prompt, of the tool results alone) in ``tokenizer``."""
    total = results = 0
    for message in state.messages:
        if isinstance(message, ChatMessageTool):
            n = count_tokens(message.error.message if message.error else message.text, tokenizer)
            results += n
            total += n
        elif isinstance(message, ChatMessageAssistant):
            calls = " ".join(f"{c.function} {json.dumps(c.arguments)}" for c in message.tool_calls or [])
            total += count_tokens(f"{message.text} {calls}".strip(), tokenizer)
    return total, results


@metric(name="tool_use")
def tool_use() -> Metric:
    """Per format (``<figure>/<format>``) and overall: ``success``, ``calls`` per task, ``tokens_per_solved`` (all
    tokens of the format's tasks ÷ tasks solved), ``result_tokens`` per task, ``misread`` (share of tasks answered
    wrong with the evidence fetched) and ``unfetched`` (wrong without it)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        groups: dict[str, list[dict[str, float]]] = defaultdict(list)
        for s in scores:
            value = s.score.value if isinstance(s.score.value, dict) else {}
            row = {k: float(value.get(k, math.nan)) for k in ("correct", "tool_calls", "tokens", "result_tokens",
                                                                "misread", "fetched")}
            groups[str((s.sample_metadata or {}).get("format", "?"))].append(row)
            groups["all"].append(row)
        out: dict[str, float] = {}
        for fmt, rows in sorted(groups.items()):
            n, solved = len(rows), sum(r["correct"] == 1.0 for r in rows)
            out[f"success/{fmt}"] = round(solved / n, 6)
            out[f"calls/{fmt}"] = round(sum(r["tool_calls"] for r in rows) / n, 4)
            out[f"tokens_per_solved/{fmt}"] = round(sum(r["tokens"] for r in rows) / solved, 1) if solved else math.nan
            out[f"result_tokens/{fmt}"] = round(sum(r["result_tokens"] for r in rows) / n, 1)
            out[f"misread/{fmt}"] = round(sum(r["misread"] == 1.0 for r in rows) / n, 6)
            out[f"unfetched/{fmt}"] = round(sum(r["correct"] != 1.0 and r["fetched"] != 1.0 for r in rows) / n, 6)
        return out

    return compute


@scorer(name="tool_answer", metrics=[correct(), answered(), accuracy_by(("format", "question_type", "kind")),
                                     tool_use()])
def tool_answer() -> Scorer:
    """The final reply scored by ``answer_match``; the calls, tokens and misread/unfetched verdict added."""
    exact = answer_match()

    async def score(state: TaskState, target: Target) -> Score:
        base = await exact(state, target)
        meta = state.metadata or {}
        calls = tools_state(state.store).calls
        tokens, results = conversation_tokens(state, str(meta.get("tokenizer") or DEFAULT_ENCODING))
        fetched = evidence_fetched(calls, dict(meta.get("evidence") or {}))
        value = dict(base.value) if isinstance(base.value, dict) else {}
        ok = value.get("correct") == 1.0
        # every call the model made counts, also one Inspect refused before it reached the server (bad arguments)
        made = max(len(calls), sum(len(getattr(m, "tool_calls", None) or []) for m in state.messages
                                   if m.role == "assistant"))
        ran = sum(c.get("error") is None for c in calls)
        value.update(tool_calls=float(made), tool_errors=float(made - ran),
                     tokens=float(int(meta.get("input_tokens", 0)) + tokens), result_tokens=float(results),
                     fetched=1.0 if fetched else 0.0, misread=1.0 if fetched and not ok else 0.0)
        how = "evidence fetched" if fetched else "evidence not fetched"
        verdict = "" if ok else (" (misread: the results held the answer)" if fetched else " (answer never fetched)")
        explanation = f"{base.explanation}; {made} tool call(s), {made - ran} failed, {how}{verdict}"
        return Score(value=value, answer=base.answer, explanation=explanation)

    return score
