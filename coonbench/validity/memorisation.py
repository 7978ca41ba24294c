"""The memorisation family: a "model" that special-cases every value it is shown must not be credited.

The memoriser replays the correction task's own retry protocol (the task's solver); each
reply is a lookup table of every ``call -> value`` pair it has read so far (the prompt's examples and every
``Expected:`` line of the feedback) and raises for any other input. It reads only the conversation, as a model
would. Goal: at most ``FLOOR`` correct on every target and on HumanEval, while the gold solver scores 1.0.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

FLOOR = 0.05
TARGETS = ("python", "python-ast", "javascript", "humaneval")
JSON_NAMES = {"true": True, "false": False, "null": None}


def _literal(node: ast.expr) -> Any:
    """A literal argument, reading JSON's true/false/null as Python's."""
    if isinstance(node, ast.Name) and node.id in JSON_NAMES:
        return JSON_NAMES[node.id]
    if isinstance(node, ast.List):
        return [_literal(e) for e in node.elts]
    if isinstance(node, ast.Dict):
        return {_literal(k): _literal(v) for k, v in zip(node.keys, node.values) if k is not None}
    return ast.literal_eval(node)


def parse_call(text: str) -> tuple[list[Any], list[Any] | None] | None:
    """``name(args)`` or ``name(args)(then)`` -> (args, then args), or None when it is not such a call."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
        if not isinstance(node, ast.Call):
            return None
        if isinstance(node.func, ast.Call):
            return [_literal(a) for a in node.func.args], [_literal(a) for a in node.args]
        return [_literal(a) for a in node.args], None
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None


def _value(text: str) -> tuple[bool, Any]:
    """(ok, value) of an expected-value text (JSON or a Python literal); errors are (True, ValueError)."""
    text = text.strip()
    if text.startswith("error") or text.startswith("an error"):
        return True, ValueError
    try:
        return True, json.loads(text)
    except ValueError:
        pass
    try:
        return True, _literal(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return False, None


def shown_pairs(texts: list[str], name: str) -> list[tuple[list[Any], list[Any] | None, Any]]:
    """Every (args, then args, value) the conversation showed: prompt examples (``name(..) = v``, ``-> error``,
    ``>>> name(..)`` + result line) and feedback (``...: name(..)`` + ``Expected: v``)."""
    pairs = []
    for text in texts:
        lines = text.splitlines()
        for i, line in enumerate(lines):
            start = line.find(f"{name}(")
            if start < 0:
                continue
            rest = line[start:]
            call_text, value_text = rest, None
            for sep in (" = ", " -> "):
                if sep in rest:
                    call_text, value_text = rest.split(sep, 1)
                    break
            if value_text is None and i + 1 < len(lines):
                nxt = lines[i + 1].strip()
                value_text = nxt[len("Expected:"):] if nxt.startswith("Expected:") else nxt
            call = parse_call(call_text)
            ok, value = _value(value_text or "")
            if call is not None and ok:
                pairs.append((call[0], call[1], value))
    return pairs


def python_table(name: str, pairs: list[tuple[list[Any], list[Any] | None, Any]]) -> str:
    """A Python function that answers the shown calls from a table and raises for anything else."""
    table: dict[str, Any] = {}
    for args, then, value in pairs:
        entry = table.setdefault(repr(args), {} if then is not None else value)
        if then is not None and isinstance(entry, dict):
            entry[repr(then)] = value
    lines = [f"TABLE = {table!r}", f"def {name}(*args):", "    key = repr(list(args))",
             "    if key not in TABLE:", "        raise ValueError('not in the table')",
             "    value = TABLE[key]", "    if value is ValueError:", "        raise ValueError('shown as an error')"]
    if any(then is not None for _, then, _ in pairs):
        lines.append("    return lambda *b: TABLE[key][repr(list(b))]")
    else:
        lines.append("    return value")
    return "\n".join(lines).replace("<class 'ValueError'>", "ValueError") + "\n"


def javascript_table(name: str, pairs: list[tuple[list[Any], list[Any] | None, Any]]) -> str:
    """The same table in JavaScript (keys: JSON.stringify of the arguments, computed in JavaScript so that numbers
    are written as JavaScript writes them)."""
    rows = [[args, then, "__error__" if value is ValueError else value] for args, then, value in pairs]
    nested = any(then is not None for _, then, _ in pairs)
    fn = "(...b) => T.get(k).get(JSON.stringify(b))" if nested else "T.get(k)"
    return (f"const ROWS = {json.dumps(rows)};\nconst T = new Map();\n"
            "for (const [a, t, v] of ROWS) {\n  const k = JSON.stringify(a);\n"
            "  if (t === null) T.set(k, v);\n  else { if (!T.has(k)) T.set(k, new Map()); T.get(k).set(JSON.stringify(t), v); }\n}\n"
            f"function {name}(...args) {{\n  const k = JSON.stringify(args);\n"
            "  if (!T.has(k) || T.get(k) === \"__error__\") throw new Error(\"not in the table\");\n"
            f"  return {fn};\n}}\n")


def memoriser_reply(state: TaskState) -> str:
    """The reply: a lookup table of everything shown so far, in the sample's target language."""
    from coonbench.execution.python import python_to_ast_json

    name = state.metadata["function_name"]
    texts = [m.text for m in state.messages if m.role == "user"]
    pairs = shown_pairs(texts, name)
    target = state.metadata["target"]
    if target == "javascript":
        return f"```javascript\n{javascript_table(name, pairs)}```"
    source = python_table(name, pairs)
    if target == "python-ast":
        return f"```json\n{python_to_ast_json(source)}\n```"
    return f"```python\n{source}```"


def gold_reply(state: TaskState) -> str:
    """The reference program's reply (what ``--solver coonbench/gold`` answers)."""
    return str(state.metadata["gold"])


@solver(name="memoriser")
def memoriser(protocol: Solver | None = None, reply: Callable[[TaskState], str] = memoriser_reply) -> Solver:
    """The task's own retry protocol (default: the correction task's solver), each turn answered by ``reply``
    (the lookup-table memoriser; ``gold_reply`` for the control) instead of a model."""
    if protocol is None:
        from coonbench.evals.correction import correction

        protocol = correction().solver

    async def scripted(state: TaskState, *args: Any, **kwargs: Any) -> TaskState:
        text = reply(state)
        state.output = ModelOutput.from_content("coonbench/memoriser", text)
        state.messages.append(ChatMessageAssistant(content=text))
        return state

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return await protocol(state, scripted)  # type: ignore[arg-type]

    return solve


@dataclass
class MemorisationResult:
    """Correct rates of the memoriser and of gold on one target."""

    target: str
    samples: int
    memoriser_correct: float
    gold_correct: float

    @property
    def ok(self) -> bool:
        """Memoriser at or below the floor and gold perfect."""
        return self.memoriser_correct <= FLOOR and self.gold_correct == 1.0


def _correct(target: str, reply: Callable[[TaskState], str], limit: int | None) -> tuple[int, float]:
    from coonbench.evals.correction import correction

    suite = "humaneval" if target == "humaneval" else "coonbench"
    task = correction(target="python" if suite == "humaneval" else target, suite=suite, sandbox="local", limit=limit)
    log = inspect_eval(task, model="mockllm/model", solver=memoriser(task.solver, reply), display="none",
                       log_dir=None)[0]
    if log.status != "success" or log.results is None:
        raise RuntimeError(f"memorisation run on {target} failed: {log.error}")
    score = next(s for s in log.results.scores if s.name == "correct")
    return log.results.total_samples, float(score.metrics["mean"].value)


def validate_memorisation(targets: tuple[str, ...] = TARGETS, limit: int | None = None) -> list[MemorisationResult]:
    """Memoriser and gold on each target (``humaneval`` = the HumanEval suite, python target)."""
    results = []
    for target in targets:
        n, memorised = _correct(target, memoriser_reply, limit)
        _, golden = _correct(target, gold_reply, limit)
        results.append(MemorisationResult(target, n, memorised, golden))
    return results


def memorisation_table(results: list[MemorisationResult]) -> str:
    """Markdown table of the family."""
    rows = ["| target | samples | memoriser correct (goal <= 0.05) | gold correct | ok |", "|---|---|---|---|---|"]
    rows += [f"| {r.target} | {r.samples} | {r.memoriser_correct:.3f} | {r.gold_correct:.3f} | {'yes' if r.ok else 'NO'} |"
             for r in results]
    return "\n".join(rows)
