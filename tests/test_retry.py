"""The feedback-retry solver: a broken first reply gets the validator's error back and a second chance."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessageUser, ModelOutput, get_model

from coonbench.formats import get_format
from coonbench.tasks.state import RetryState
from coonbench.scorers.code import SCORE_KEYS, code_check
from coonbench.solvers.retry import check_answer, retry_generate
from tests.conftest import code_formats

PROGRAM = """import 'package:flutter/material.dart';

class Hello extends StatelessWidget {
  const Hello({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Hello')),
      body: const Center(child: Text('World')),
    );
  }
}
"""


def _broken(fmt_name: str) -> str:
    """The program in ``fmt_name`` with its last closing brace dropped and junk inserted: invalid."""
    text = get_format(fmt_name).encode(PROGRAM).rstrip()
    cut = text.rfind("}")
    broken = text[:cut] + text[cut + 1 :] + " ))"
    assert get_format(fmt_name).validate(broken), "the broken reply must not validate"
    return broken


def _fence(fmt_name: str, body: str) -> str:
    return f"Sure:\n```{get_format(fmt_name).fence}\n{body}\n```"


def _run(fmt_name: str, replies: list[str], max_retries: int = 2) -> EvalLog:
    model = get_model(
        "mockllm/model", custom_outputs=[ModelOutput.from_content("mockllm/model", r) for r in replies]
    )
    sample = Sample(
        id="retry-1",
        input="Convert this program.",
        target=get_format(fmt_name).encode(PROGRAM),
        metadata={
            "format": fmt_name,
            "answer_format": fmt_name,
            "question_type": "dart-to-coon",
            "complexity": "simple",
            "check": "ast",
            "reference": PROGRAM,
        },
    )
    task = Task(dataset=[sample], solver=[retry_generate(max_retries)], scorer=code_check())
    [log] = inspect_eval(task, model=model, display="none", log_dir=None)  # type: ignore[arg-type]
    assert log.status == "success", log.error
    return log


def _score(log: EvalLog) -> Any:
    assert log.samples
    return log.samples[0].scores["code_check"]  # type: ignore[index]


@pytest.mark.parametrize("fmt_name", code_formats())
def test_broken_then_right_is_correct_at_attempt_two(fmt_name: str) -> None:
    good = get_format(fmt_name).encode(PROGRAM)
    log = _run(fmt_name, [_fence(fmt_name, _broken(fmt_name)), _fence(fmt_name, good)])
    score = _score(log)
    assert score.value["correct"] == 1 and score.value["attempts"] == 2
    assert score.value["first_attempt_success"] == 0
    sample = log.samples[0]  # type: ignore[index]
    feedback = [m for m in sample.messages if isinstance(m, ChatMessageUser)][1:]
    assert len(feedback) == 1
    text = feedback[0].text
    assert "not a valid" in text and "line " in text and "column " in text, text
    roles = [m.role for m in sample.messages]
    assert roles == ["user", "assistant", "user", "assistant"]
    attempts = sample.store_as(RetryState).attempts
    assert [a["error_kind"] for a in attempts] == ["PARSE_ERROR", None]
    assert attempts[0]["line"] is not None


@pytest.mark.parametrize("fmt_name", code_formats())
def test_gives_up_after_max_retries(fmt_name: str) -> None:
    bad = _fence(fmt_name, _broken(fmt_name))
    log = _run(fmt_name, [bad, bad, bad, bad], max_retries=2)
    score = _score(log)
    assert score.value["correct"] == 0 and score.value["attempts"] == 3 and score.value["syntax_valid"] == 0
    assert score.explanation.startswith("PARSE_ERROR")
    assert len(log.samples[0].store_as(RetryState).attempts) == 3  # type: ignore[index]


def test_right_first_time_needs_no_retry() -> None:
    log = _run("dart", [_fence("dart", PROGRAM)])
    score = _score(log)
    assert {k: score.value[k] for k in SCORE_KEYS} == {
        "syntax_valid": 1, "decodable": 1, "correct": 1, "first_attempt_success": 1, "attempts": 1
    }


def test_no_code_gets_feedback_too() -> None:
    log = _run("dart", ["I would rather not.", _fence("dart", PROGRAM)], max_retries=1)
    score = _score(log)
    assert score.value["correct"] == 1 and score.value["attempts"] == 2
    assert log.samples[0].store_as(RetryState).attempts[0]["error_kind"] == "NO_ANSWER"  # type: ignore[index]


def test_valid_but_wrong_is_not_retried() -> None:
    """Only syntax is fed back: a valid program that is wrong is scored as it is."""
    wrong = PROGRAM.replace("'World'", "'Earth'")
    log = _run("dart", [_fence("dart", wrong), _fence("dart", PROGRAM)])
    score = _score(log)
    assert score.value["correct"] == 0 and score.value["attempts"] == 1
    assert score.explanation.startswith("WRONG_OUTPUT") and "first difference at program/" in score.explanation


def test_check_answer_positions() -> None:
    check = check_answer("```dart\nclass A {\n```", "dart")
    assert check.error_kind == "PARSE_ERROR" and check.line is not None and check.column is not None


def test_unfenced_coon_and_dart_replies_are_extracted() -> None:
    """Small models often answer without a fence: the code is still found, the prose before it dropped."""
    from coonbench.answers.extract import extract_code

    assert extract_code("Here you go:\n#m class A extends SL{#K #B T('x');}}", "coon") == (
        "#m class A extends SL{#K #B T('x');}}"
    )
    assert extract_code("Sure! Here is the code:\nclass A extends StatelessWidget {}", "dart") == (
        "class A extends StatelessWidget {}"
    )
    assert extract_code("I do not know the answer.", "coon") is None
    assert extract_code("```dart\nclass B {}\n```\n```coon\nT('x')\n```", "dart") == "class B {}"


def test_echoed_dart_is_not_a_coon_answer() -> None:
    """Dart→COON: replying with the Dart source itself (COON's decoder accepts most Dart) is not a translation."""
    from coonbench.datasets.corpus import load_corpus
    from coonbench.formats import get_format
    from coonbench.solvers.retry import PARSE_ERROR, check_answer

    source = load_corpus(["simple"])[0].source
    echoed = check_answer(f"```coon\n{source}\n```", "coon")
    assert echoed.error_kind == PARSE_ERROR and "plain Dart, not COON" in echoed.error
    translated = check_answer(f"```coon\n{get_format('coon').encode(source)}\n```", "coon")
    assert translated.ok
    assert check_answer(f"```dart\n{source}\n```", "dart").ok  # Dart answers stay Dart
