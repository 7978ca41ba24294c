"""Trivial baselines: what a model that does not read the input scores (the floors every result is read against).

- ``coonbench/baseline_constant``: one fixed reply per answer type (``answer`` overrides it for every sample).
- ``coonbench/baseline_frequent``: the most frequent gold answer of the sample's question type, counted over the
  category's default dataset (comprehension: the built-in questions of the sample's language) by two-fold
  cross-fitting: questions (``pair_id``, or the id without its format, so every format's copy of a question falls
  in the same fold) are split in two folds by a seeded hash, and a sample gets the most frequent answer of the
  OTHER fold — its own answer never leaks. (Leave-one-out would be biased: on a balanced YES/NO type removing the
  sample's own answer always tips the majority to the other side, 0%.) Ties are broken by a seeded shuffle.
- ``coonbench/baseline_random_widget``: a widget name drawn from the document shown (``Name(`` in the input text),
  seeded by the sample id.
- ``coonbench/baseline_empty``: an empty reply (empty program).
- ``coonbench/baseline_no_edit``: the program shown, unchanged (``metadata["start"]``, else the first code block
  of the prompt), in every turn of a session: the floor of the modification task.
Code tasks (generation, modification, correction) have no answer to count: frequent replies empty there.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter, defaultdict
from functools import lru_cache
from typing import Any

from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from coonbench.answers.normalize import language_types
from coonbench.languages import default_language, get_language
from coonbench.tasks.subset import question_group

SEED = "coonbench-baseline"
CONSTANTS: dict[str, str] = {
    "integer": "1",
    "number": "0",
    "boolean": "yes",
    "date": "2025-01-01",
    "string": "none",
    "csv-list-ordered": "none",
    "csv-list-unordered": "none",
}
"""A fixed reply per built-in answer type; a language's own type replies its ``AnswerType.baseline_reply`` (Dart's
widget-name: ``Container``); code and untyped samples get ``CONSTANTS['string']``."""


def constant_reply(kind: str) -> str:
    """The constant baseline's reply to an answer of type ``kind``."""
    if kind in CONSTANTS:
        return CONSTANTS[kind]
    return str(getattr(language_types().get(kind), "baseline_reply", "") or CONSTANTS["string"])
_FIRST_BLOCK = re.compile(r"```[^\n`]*\n.*?\n```", re.DOTALL)
_WIDGET_CALL = re.compile(r"(?<![\w.$])([A-Z][A-Za-z0-9_]*+)(?=\()")


def _reply(state: TaskState, text: str, name: str) -> TaskState:
    state.output = ModelOutput.from_content(model=f"coonbench/{name}", content=text)
    state.messages.append(ChatMessageAssistant(content=text, model=f"coonbench/{name}"))
    return state


@solver(name="baseline_constant")
def baseline_constant(answer: str | None = None) -> Solver:
    """Reply ``answer`` (default: ``CONSTANTS`` by the sample's answer type) whatever the input."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        kind = str((state.metadata or {}).get("answer_type") or "string")
        return _reply(state, answer if answer is not None else constant_reply(kind),
                      "baseline_constant")

    return solve


@solver(name="baseline_empty")
def baseline_empty() -> Solver:
    """Reply nothing (the empty program)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return _reply(state, "", "baseline_empty")

    return solve


@solver(name="baseline_no_edit")
def baseline_no_edit() -> Solver:
    """Reply with the program shown, unchanged (every turn of a session)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        from coonbench.solvers.session import scripted_session

        meta = dict(state.metadata or {})
        start = meta.get("start")
        if start is None:
            found = _FIRST_BLOCK.search(state.input_text)
            start = found.group(0) if found else ""
        return scripted_session(state, [str(start)] * max(1, len(meta.get("turns") or [])), "coonbench/baseline_no_edit")

    return solve


@solver(name="baseline_random_widget")
def baseline_random_widget() -> Solver:
    """Reply with a widget name drawn (seeded by sample id) from the calls in the document shown."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        text = str((state.metadata or {}).get("input_text") or state.input_text)
        names = sorted(set(_WIDGET_CALL.findall(text)))
        pick = random.Random(f"{SEED}:{state.sample_id}").choice(names) if names else ""
        return _reply(state, pick, "baseline_random_widget")

    return solve


@lru_cache(maxsize=8)
def _answers_by_type(category: str, language: str | None = None) -> dict[str, list[tuple[str, str]]]:
    """(question group, gold answer) per question type, over the category's default dataset; comprehension's over
    the built-in questions of the sample's language (each question once, its ``pair_id`` the group)."""
    if category == "comprehension":
        from coonbench.datasets.comprehension import builtin_questions

        _, questions = builtin_questions(get_language(language) if language else default_language())
        pool: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for q in questions:
            pool[q.question_type].append((q.id, q.answer))
        return dict(pool)
    if category == "structure":
        from coonbench.datasets.structure import structure_dataset

        dataset: Any = structure_dataset()
    elif category == "retrieval":
        from coonbench.datasets.retrieval import retrieval_dataset

        dataset = retrieval_dataset()
    elif category == "tools":
        from coonbench.datasets.tools import tools_samples

        dataset = tools_samples("json")[0]  # one format: the pool counts each question once
    elif category == "handoff":
        from coonbench.datasets.handoff import handoff_samples

        dataset = handoff_samples(default_language().source_format)[0]  # one format: each question once
    else:
        return {}
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for s in dataset:
        meta = dict(s.metadata or {})
        out[str(meta.get("question_type"))].append((question_group(str(s.id), meta), str(s.target)))
    return dict(out)


def fold_of(group: str) -> int:
    """The cross-fitting fold (0 or 1) of a question, from a seeded hash (stable across runs)."""
    return int(hashlib.sha256(f"{SEED}:{group}".encode()).hexdigest(), 16) % 2


def most_frequent(pool: list[tuple[str, str]], group: str) -> str:
    """The most frequent answer in ``pool`` among questions of the other fold than ``group``'s (casefolded count;
    seeded tie-break)."""
    counts: Counter[str] = Counter()
    shown: dict[str, str] = {}
    mine = fold_of(group)
    for other, answer in pool:
        if fold_of(other) != mine:
            key = answer.strip().casefold()
            counts[key] += 1
            shown.setdefault(key, answer.strip())
    if not counts:
        return ""
    keys = sorted(counts)
    random.Random(SEED).shuffle(keys)
    best = max(keys, key=lambda k: counts[k])  # max keeps the first of equals: the seeded order decides ties
    return shown[best]


def _language_of(meta: dict[str, Any]) -> str | None:
    """The language of a code sample's format condition (``coon:noprimer`` → dart, ``formats.language_of``); None
    for a data sample."""
    from coonbench.formats.base import language_of
    from coonbench.tasks.conditions import parse_condition

    try:
        return language_of(parse_condition(str(meta.get("format")), "code").fmt).name
    except ValueError:  # a data format (FormatError, ConditionError): no language
        return None


@solver(name="baseline_frequent")
def baseline_frequent() -> Solver:
    """Reply the most frequent gold answer of the sample's question type in the other fold of questions."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = dict(state.metadata or {})
        pool = _answers_by_type(str(meta.get("category")), _language_of(meta)).get(str(meta.get("question_type")), [])
        answer = most_frequent(pool, question_group(str(state.sample_id), meta))
        return _reply(state, answer, "baseline_frequent")

    return solve
