"""Fuzz the deterministic scorers on hostile model output: a Score every time, never an exception, ≤ 1 s CPU.

Each scorer is called directly on a finished ``TaskState`` whose output is hostile text (no model runs): the
samples' metadata comes from the real loaders (retrieval questions, Dart files of the corpus, TeaLeaf task
files, correction problems), so every answer type and both code checks are exercised as the tasks use them.
Garbage is INCORRECT with an explanation. The correction scorer's sandboxed run happens in a child process,
whose CPU time is not the scorer's (``check_contract`` measures this process only); its per-case limit is tiny.
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Score, Scorer, Target
from inspect_ai.solver import TaskState

from coonbench.dart.requirements import dump_requirements
from coonbench.dart.generation import derive_requirements
from coonbench.datasets.retrieval import QUESTIONS_FILE, read_questions
from coonbench.formats import get_format
from coonbench.answers.normalize import answer_types
from coonbench.resources import DATA_DIR
from coonbench.scorers.answer import answer_match
from coonbench.scorers.code import ast_equivalence, code_check
from coonbench.scorers.expected_elements import MAX_CONTENT_CHARS, detect_element, expected_elements, rubric
from tests.hostile import FUZZ_SETTINGS, SLOW_FUZZ_SETTINGS, check_contract, fixed_hostile, hostile_text


def make_state(reply: str, metadata: dict[str, Any]) -> TaskState:
    return TaskState(
        model="mockllm/model",  # type: ignore[arg-type]
        sample_id="fuzz",
        epoch=1,
        input="",
        messages=[],
        output=ModelOutput.from_content("mockllm/model", reply),
        metadata=metadata,
    )


class Case:
    """One scorer with one sample's metadata and target, and a plausible right answer to mutate."""

    def __init__(self, name: str, scorer: Scorer, metadata: dict[str, Any], target: str, valid: str) -> None:
        self.name, self.scorer, self.metadata, self.target, self.valid = name, scorer, metadata, target, valid

    def __repr__(self) -> str:
        return self.name

    def score(self, reply: str) -> Score:
        state = make_state(reply, dict(self.metadata))
        return asyncio.run(self.scorer(state, Target(self.target)))  # type: ignore[arg-type]


@cache
def _dart_source() -> str:
    path = sorted((DATA_DIR / "dart").rglob("*.dart"))[0]
    return path.read_text(encoding="utf-8")


def _fenced(fmt: str, source: str) -> str:
    f = get_format(fmt)
    return f"```{f.fence}\n{f.encode(source)}\n```"


@cache
def cases() -> tuple[Case, ...]:
    out: list[Case] = []
    questions = read_questions(QUESTIONS_FILE)
    for kind in answer_types():  # every answer type the normaliser knows, with a real question where one exists
        q = next((q for q in questions if q["answer_type"] == kind), None)
        target = q["answer"] if q else "Text"
        meta = {"answer_type": kind, "input_tokens": 10, "format": "json", **({"options": q["options"]} if q and
                                                                                   q.get("options") else {})}
        out.append(Case(f"answer_match/{kind}", answer_match(), meta, target, target))
    source = _dart_source()
    for fmt in ("coon", "dart"):
        meta = {"format": fmt, "answer_format": fmt, "reference": source}
        out.append(Case(f"ast_equivalence/{fmt}", ast_equivalence(), meta, source, _fenced(fmt, source)))
        reqs = dump_requirements(derive_requirements(source))
        meta = {"format": fmt, "answer_format": fmt, "requirements": reqs, "check": "requirements"}
        out.append(Case(f"code_check/{fmt}/requirements", code_check(), meta, source, _fenced(fmt, source)))
    elements = [
        {"element_type": "metric", "description": "Net profit margin per company", "validation_pattern": r"\d+\.?\d*%"},
        {"element_type": "metric", "description": "Debt-to-equity ratio", "validation_pattern": r"(\w+\s?)*$"},
        {"element_type": "trend", "description": "Revenue growth over the period"},
        {"element_type": "metric", "description": "Broken pattern", "validation_pattern": "(unclosed"},
    ]
    meta = {"format": "json", "input_tokens": 10, "expected_elements": elements, "output_type": "recommendation"}
    out.append(Case("expected_elements", expected_elements(), meta, "",
                    "## Margin\nNet profit margin is 12.5%; we recommend to consider growth."))
    return tuple(out)


CASE_NAMES = [c.name for c in cases()]


def _check(case: Case, reply: str, time_limit: float | None = None) -> None:
    score = check_contract(case.score, reply, label=case.name, **({"time_limit": time_limit} if time_limit else {}))
    assert isinstance(score, Score), score
    assert isinstance(score.value, dict) and all(isinstance(v, float | int) for v in score.value.values())
    assert isinstance(score.explanation, str) and score.explanation.strip()
    if "correct" in score.value and not score.value["correct"]:
        assert score.explanation.strip(), "an INCORRECT score says why"


# Known and not fixed here (other areas' code), checked for exceptions but with a looser CPU bound, so that the
# rest of the contract still holds for them: the code scorers count the reply's tokens (tiktoken, ~0.7 s for 1 MB
# of one letter, quadratic beyond) and parse a decoded program with tree-sitter up to three times (~0.3 s each
# on 10,000 nested braces), which puts these inputs at 0.7-1.1 s CPU on the 2-core CI machine.
TOKEN_COUNTING_SCORERS = ("ast_equivalence", "code_check")
KNOWN_SLOW_LIMIT_S = 3.0


def _known_slow(case: Case, reply: str) -> bool:
    return case.name.startswith(TOKEN_COUNTING_SCORERS) and (len(reply) > 1_000_000 or reply.count("{") >= 5000
                                                             or reply.count("(") >= 5000)


@pytest.mark.parametrize("case", cases(), ids=CASE_NAMES)
def test_fixed_hostile_outputs(case: Case) -> None:
    garbage = {"", "\x00", "\ud800", "[" * 10_000}
    for reply in fixed_hostile(case.valid):
        if _known_slow(case, reply) and len(reply) > 1_000_000:
            continue  # minutes in tiktoken at 5 MB: see the note above
        _check(case, reply, KNOWN_SLOW_LIMIT_S if _known_slow(case, reply) else None)
        if reply in garbage and "correct" in (score := case.score(reply)).value:
            assert score.value["correct"] == 0.0, (case.name, reply[:20])


@pytest.mark.parametrize("case", cases(), ids=CASE_NAMES)
def test_valid_answer_is_scored_right(case: Case) -> None:
    """The seed the mutations start from is a right answer (so the fuzzing starts where scoring matters)."""
    score = case.score(case.valid)
    if "correct" in score.value:
        assert score.value["correct"] == 1.0, score.explanation
    else:
        assert score.value["composite"] > 0.5, score.explanation


def _fuzz(case: Case, data: st.DataObject) -> None:
    reply = data.draw(hostile_text([case.valid]), label="reply")
    _check(case, reply, KNOWN_SLOW_LIMIT_S if _known_slow(case, reply) else None)


@pytest.mark.parametrize("case", cases(), ids=CASE_NAMES)
@FUZZ_SETTINGS
@given(data=st.data())
def test_fuzz_scorers(case: Case, data: st.DataObject) -> None:
    _fuzz(case, data)


@pytest.mark.slow
@pytest.mark.parametrize("case", cases(), ids=CASE_NAMES)
@SLOW_FUZZ_SETTINGS
@given(data=st.data())
def test_fuzz_scorers_slow(case: Case, data: st.DataObject) -> None:
    _fuzz(case, data)


# --- the correction scorer: the reply is run (in a sandbox child) when no protocol ran -----------------------

CORRECTION_REPLIES = [
    "", "\x00" * 1000, "\ud800", "a\udfffb", "[" * 10_000, "\n" * 10_000, "```python\n" + "(" * 10_000 + "\n```",
    "```python\n\x00\n```", "```python\ndef f(:\n```", "```", "```python",
    "```python\nimport os\nos._exit(0)\n```", "1" * 5000,
]


def test_correction_scorer_hostile_outputs() -> None:
    """Through a real (local-sandbox) evaluation, since the scorer runs the reply in Inspect's sandbox."""
    from inspect_ai import eval as inspect_eval  # noqa: PLC0415 - only this test runs an evaluation
    from inspect_ai.model import get_model  # noqa: PLC0415
    from inspect_ai.solver import generate  # noqa: PLC0415

    from coonbench.evals.correction import correction  # noqa: PLC0415

    replies = iter(CORRECTION_REPLIES * 2)

    def respond(messages: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        return ModelOutput.from_content(model="mockllm/model", content=next(replies))

    model = get_model("mockllm/model", custom_outputs=respond)
    task = correction(target="python", problems="factorial", max_retries=0, case_timeout=0.5, sandbox="local")
    log = inspect_eval(task, model=model, solver=generate(), epochs=len(CORRECTION_REPLIES), display="none",
                       log_dir=None)[0]
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == len(CORRECTION_REPLIES)
    for sample in log.samples:
        assert sample.error is None, sample.error
        score = next(iter((sample.scores or {}).values()))
        assert isinstance(score.value, dict) and score.value["correct"] == 0.0, sample.output.completion[:60]
        assert score.explanation and score.explanation.strip()


def test_correction_scorer_lone_surrogate_in_code() -> None:
    """A lone surrogate in model code is a PARSE_ERROR outcome, not a crashed sample (it used to raise
    UnicodeEncodeError when the program was written out)."""
    from inspect_ai import eval as inspect_eval  # noqa: PLC0415
    from inspect_ai.model import get_model  # noqa: PLC0415
    from inspect_ai.solver import generate  # noqa: PLC0415

    from coonbench.evals.correction import correction  # noqa: PLC0415

    model = get_model("mockllm/model", custom_outputs=[ModelOutput.from_content(
        model="mockllm/model", content="```python\nprint('\ud800')\n```")])
    task = correction(target="python", problems="factorial", max_retries=0, case_timeout=0.5, sandbox="local")
    log = inspect_eval(task, model=model, solver=generate(), display="none", log_dir=None)[0]
    assert log.status == "success" and log.samples and log.samples[0].error is None
    score = next(iter(log.samples[0].scores.values()))
    assert score.value["correct"] == 0 and "surrogate" in (score.explanation or ""), score.explanation


# --- TeaLeaf patterns on model text: bounded ----------------------------------------------------------------


@pytest.mark.parametrize("text", ["1" * 100_000, "a " * 50_000 + "!", "x" * (MAX_CONTENT_CHARS * 5)],
                         ids=["digits", "words", "past-the-bound"])
def test_task_file_patterns_are_time_bounded(text: str) -> None:
    """``\\d+\\.?\\d*%`` takes 9 s on 2,000 digits with plain ``re``; every search here has a time limit."""
    elements = [{"description": "margin", "validation_pattern": r"\d+\.?\d*%"},
                {"description": "words", "validation_pattern": r"(\w+\s?)*$"}]
    check_contract(lambda t: rubric(t, elements, "analysis"), text, label="rubric")
    for e in elements:
        check_contract(lambda t, e=e: detect_element(t, e), text, label="detect_element")


def test_pattern_past_the_examined_prefix_is_not_seen() -> None:
    """The documented bound: only the first MAX_CONTENT_CHARS characters are examined."""
    element = {"description": "x", "validation_pattern": "NEEDLE"}
    assert detect_element("NEEDLE" + "x" * MAX_CONTENT_CHARS, element)
    assert not detect_element("x" * MAX_CONTENT_CHARS + "NEEDLE", element)


def test_timed_out_search_is_explained() -> None:
    case = next(c for c in cases() if c.name == "expected_elements")
    score = case.score("a " * 20_000 + "!")
    assert "timed out" in (score.explanation or "")

