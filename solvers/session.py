"""Multi-turn edit sessions: the model edits one program turn after turn, each time its own previous reply.

``session_generate`` runs the first turn on the sample's prompt, then for each later turn of
``metadata["turns"]`` sends its ``prompt`` (next instruction) — or, when the previous reply did not decode,
its ``resume_prompt``, which shows the gold state to go on from — and generates (with ``retry_generate``'s
syntax feedback inside each turn). Every turn's final reply is recorded in ``coonbench.tasks.state.SessionState``
for ``scorers.edits.session_check``. ``scripted_session`` plays fixed replies through the same bookkeeping (the
gold and no-edit baselines).
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.answers.check import answer_format, check_answer
from coonbench.solvers.retry import retry_generate
from coonbench.tasks.state import retry_state, session_state


def _next_prompt(turn: dict[str, Any], previous_valid: bool) -> str:
    return str(turn["prompt"] if previous_valid else turn["resume_prompt"])


def _record(t: int, reply: str, valid: bool, done: list[dict[str, Any]], attempts: list[dict[str, Any]]) -> None:
    done.append({"turn": t + 1, "reply": reply, "valid": valid,
                 "resumed_from_gold": bool(t) and not done[-1]["valid"], "attempts": attempts})


@solver(name="session_generate")
def session_generate(max_retries: int = 2) -> Solver:
    """One generation per turn of ``metadata["turns"]`` (just one without it), each recorded."""
    retry = retry_generate(max_retries)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        turns = list(state.metadata.get("turns") or [{}])
        fmt_name = answer_format(state)
        record = session_state(state.store)
        done: list[dict[str, Any]] = []
        for t, turn in enumerate(turns):
            if t:
                state.messages.append(ChatMessageUser(content=_next_prompt(turn, done[-1]["valid"])))
            retry_state(state.store).attempts = []
            state = await retry(state, generate)
            reply = state.output.completion if state.output else ""
            _record(t, reply, check_answer(reply, fmt_name).ok, done, list(retry_state(state.store).attempts))
            record.turns = done
            if state.completed:
                break
        return state

    return solve


def scripted_session(state: TaskState, replies: list[str], model: str) -> TaskState:
    """Play ``replies`` as the turns of the sample's session (the prompts of later turns included)."""
    turns = list(state.metadata.get("turns") or [{}])
    fmt_name = answer_format(state)
    done: list[dict[str, Any]] = []
    for t, (turn, reply) in enumerate(zip(turns, replies)):
        if t:
            state.messages.append(ChatMessageUser(content=_next_prompt(turn, done[-1]["valid"])))
        state.messages.append(ChatMessageAssistant(content=reply, model=model))
        _record(t, reply, check_answer(reply, fmt_name).ok, done, [])
    session_state(state.store).turns = done
    state.output = ModelOutput.from_content(model=model, content=replies[-1] if replies else "")
    return state
