"""The code scorers: near misses are rejected, harmless variations accepted, and no reply ever raises."""

from __future__ import annotations

import asyncio
import random
import string
from typing import Any

import pytest
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Score, Target
from inspect_ai.solver import TaskState
from inspect_ai.util import Store

from coonbench.dart.requirements import (
    ClassRequirement,
    InlinesToRequirement,
    PropertyCheck,
    WidgetRequirement,
    check_requirements,
    dump_requirements,
    normalise_program,
)
from coonbench.formats import get_format
from coonbench.tasks.state import RetryState
from coonbench.tokens import count_tokens
from coonbench.scorers.code import SCORE_KEYS, TOKEN_KEYS, ast_equivalence, code_check, requirements
from tests.conftest import code_formats

REFERENCE = """import 'package:flutter/material.dart';

class LoginCard extends StatelessWidget {
  const LoginCard({super.key});

  @override
  Widget build(BuildContext context) {
    return Padding(
      padding: const EdgeInsets.all(16),
      child: Column(
        children: [
          const Text('Welcome back'),
          TextField(decoration: InputDecoration(labelText: 'Email')),
          ElevatedButton(onPressed: () {}, child: const Text('Log in')),
        ],
      ),
    );
  }
}
"""

NEAR_MISSES: dict[str, tuple[str, str]] = {
    "wrong property value": ("EdgeInsets.all(16)", "EdgeInsets.all(24)"),
    "missing child": ("          const Text('Welcome back'),\n", ""),
    "swapped order": (
        "          const Text('Welcome back'),\n          TextField(decoration: InputDecoration(labelText: 'Email')),",
        "          TextField(decoration: InputDecoration(labelText: 'Email')),\n          const Text('Welcome back'),",
    ),
    "extra widget": ("          ElevatedButton(", "          const Divider(),\n          ElevatedButton("),
    "wrong class name": ("class LoginCard extends", "class LogInCard extends"),
}
HARMLESS: dict[str, tuple[str, str]] = {
    "whitespace": ("    return Padding(\n      padding:", "    return Padding(padding:"),
    "trailing commas": ("labelText: 'Email')),", "labelText: 'Email',),),"),
    "comments": ("        children: [", "        // the form\n        children: [ /* fields */"),
}


def _variant(edit: tuple[str, str]) -> str:
    old, new = edit
    assert old in REFERENCE, old
    return REFERENCE.replace(old, new, 1)


def make_state(reply: str, metadata: dict[str, Any], attempts: int | None = None) -> TaskState:
    """A finished sample: the model's final reply plus the loader's metadata."""
    store = None
    if attempts:
        bound = Store()
        RetryState(store=bound).attempts = [{"attempt": i + 1} for i in range(attempts)]
        store = dict(bound.items())
    return TaskState(
        model="mockllm/model",  # type: ignore[arg-type]
        sample_id="t",
        epoch=1,
        input="",
        messages=[],
        output=ModelOutput.from_content("mockllm/model", reply),
        metadata=metadata,
        store=store,
    )


def _reply(fmt_name: str, dart: str) -> str:
    fmt = get_format(fmt_name)
    return f"Here it is:\n```{fmt.fence}\n{fmt.encode(dart)}\n```\n"


def _ast_meta(fmt_name: str, **extra: Any) -> dict[str, Any]:
    return {"format": fmt_name, "answer_format": fmt_name, "reference": REFERENCE, **extra}


def _run(scorer_fn: Any, state: TaskState, target: str = "") -> Score:
    return asyncio.run(scorer_fn(state, Target(target)))


@pytest.mark.parametrize("fmt_name", code_formats())
@pytest.mark.parametrize("normalise", [False, True])
@pytest.mark.parametrize("name", sorted(NEAR_MISSES))
def test_ast_rejects_near_miss(fmt_name: str, normalise: bool, name: str) -> None:
    score = _run(ast_equivalence(), make_state(_reply(fmt_name, _variant(NEAR_MISSES[name])), _ast_meta(fmt_name, normalise=normalise)))
    assert isinstance(score.value, dict)
    assert score.value["correct"] == 0 and score.value["decodable"] == 1 and score.value["syntax_valid"] == 1
    assert score.explanation and score.explanation.startswith("WRONG_OUTPUT: first difference at program/")


@pytest.mark.parametrize("fmt_name", code_formats())
@pytest.mark.parametrize("name", sorted(HARMLESS))
def test_ast_accepts_harmless_variation(fmt_name: str, name: str) -> None:
    score = _run(ast_equivalence(), make_state(_reply(fmt_name, _variant(HARMLESS[name])), _ast_meta(fmt_name)))
    assert isinstance(score.value, dict)
    assert score.value["correct"] == 1, score.explanation
    assert score.value["first_attempt_success"] == 1 and score.value["attempts"] == 1


def test_normalisation_accepts_const_quotes_and_argument_order() -> None:
    variant = (
        REFERENCE.replace("const EdgeInsets.all(16)", "EdgeInsets.all(16)")
        .replace("'Email'", '"Email"')
        .replace("onPressed: () {}, child: const Text('Log in')", "child: Text('Log in'), onPressed: () {}")
    )
    strict = _run(ast_equivalence(), make_state(_reply("dart", variant), _ast_meta("dart")))
    loose = _run(ast_equivalence(), make_state(_reply("dart", variant), _ast_meta("dart", normalise=True)))
    assert isinstance(strict.value, dict) and isinstance(loose.value, dict)
    assert strict.value["correct"] == 0 and loose.value["correct"] == 1
    assert normalise_program(variant) == normalise_program(REFERENCE)


# --- requirements: the refactoring check (class + inlining) and the nl-to-coon style checks

EXTRACTED = REFERENCE.replace(
    "          TextField(decoration: InputDecoration(labelText: 'Email')),\n          ElevatedButton(onPressed: () {}, child: const Text('Log in')),\n",
    "          const EmailForm(),\n",
) + """
class EmailForm extends StatelessWidget {
  const EmailForm({super.key});

  @override
  Widget build(BuildContext context) {
    return Column(children: [
      TextField(decoration: InputDecoration(labelText: 'Email')),
      ElevatedButton(onPressed: () {}, child: const Text('Log in')),
    ]);
  }
}
"""
ORIGINAL_FOR_REFACTOR = REFERENCE.replace(
    "          TextField(decoration: InputDecoration(labelText: 'Email')),\n          ElevatedButton(onPressed: () {}, child: const Text('Log in')),\n",
    "          Column(children: [\n            TextField(decoration: InputDecoration(labelText: 'Email')),\n"
    "            ElevatedButton(onPressed: () {}, child: const Text('Log in')),\n          ]),\n",
)
REFACTOR_REQS = dump_requirements(
    [
        ClassRequirement(name="EmailForm", extends="StatelessWidget"),
        InlinesToRequirement(class_name="EmailForm", dart=ORIGINAL_FOR_REFACTOR),
    ]
)
REFACTOR_NEAR_MISSES: dict[str, tuple[str, str]] = {
    "wrong property value": ("labelText: 'Email')),\n      Elevated", "labelText: 'E-mail')),\n      Elevated"),
    "missing child": ("      ElevatedButton(onPressed: () {}, child: const Text('Log in')),\n    ]);", "    ]);"),
    "swapped order": (
        "      TextField(decoration: InputDecoration(labelText: 'Email')),\n      ElevatedButton(onPressed: () {}, child: const Text('Log in')),\n    ]);",
        "      ElevatedButton(onPressed: () {}, child: const Text('Log in')),\n      TextField(decoration: InputDecoration(labelText: 'Email')),\n    ]);",
    ),
    "extra widget": ("    ]);", "      const Divider(),\n    ]);"),
    "wrong class name": ("class EmailForm extends", "class EmailFormWidget extends"),
}
REFACTOR_HARMLESS: dict[str, tuple[str, str]] = {
    "whitespace": ("    return Column(children: [", "    return Column(\n        children: ["),
    "trailing commas": ("child: const Text('Log in')),\n    ]);", "child: const Text('Log in'),),\n    ],);"),
    "comments": ("  @override\n  Widget build(BuildContext context) {\n    return Column(", "  // the extracted form\n  @override\n  Widget build(BuildContext context) {\n    return Column( /* here */"),
    "no const at the use": ("const EmailForm(),", "EmailForm(),"),
}


def _req_meta(fmt_name: str, reqs: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": fmt_name, "answer_format": fmt_name, "requirements": reqs, "check": "requirements"}


def test_refactor_requirements_hold_on_the_refactoring_only() -> None:
    from coonbench.dart.requirements import parse_requirements

    reqs = parse_requirements(REFACTOR_REQS)
    assert all(r.met for r in check_requirements(EXTRACTED, reqs))
    assert not all(r.met for r in check_requirements(ORIGINAL_FOR_REFACTOR, reqs))


@pytest.mark.parametrize("fmt_name", code_formats())
@pytest.mark.parametrize("name", sorted(REFACTOR_NEAR_MISSES))
def test_requirements_reject_near_miss(fmt_name: str, name: str) -> None:
    old, new = REFACTOR_NEAR_MISSES[name]
    assert old in EXTRACTED
    answer = EXTRACTED.replace(old, new, 1)
    score = _run(requirements(), make_state(_reply(fmt_name, answer), _req_meta(fmt_name, REFACTOR_REQS)))
    assert isinstance(score.value, dict) and score.value["correct"] == 0 and score.value["decodable"] == 1
    assert score.explanation and score.explanation.startswith("WRONG_OUTPUT:") and "unmet" in score.explanation


@pytest.mark.parametrize("fmt_name", code_formats())
@pytest.mark.parametrize("name", sorted(REFACTOR_HARMLESS))
def test_requirements_accept_harmless_variation(fmt_name: str, name: str) -> None:
    old, new = REFACTOR_HARMLESS[name]
    assert old in EXTRACTED
    answer = EXTRACTED.replace(old, new, 1)
    score = _run(requirements(), make_state(_reply(fmt_name, answer), _req_meta(fmt_name, REFACTOR_REQS)))
    assert isinstance(score.value, dict) and score.value["correct"] == 1, score.explanation


NL_REQS = dump_requirements(
    [
        ClassRequirement(name="LoginCard", extends="StatelessWidget"),
        WidgetRequirement(widget="TextField", properties=[PropertyCheck(path="decoration.labelText", value="'Email'")]),
        WidgetRequirement(widget="ElevatedButton", inside="Column"),
        WidgetRequirement(widget="Padding", properties=[PropertyCheck(path="padding", value="EdgeInsets.all(16)")]),
        WidgetRequirement(widget="Text", text="Welcome back", inside="Padding"),
    ]
)


@pytest.mark.parametrize(
    "old,new",
    [
        ("labelText: 'Email'", "labelText: 'Mail'"),  # wrong property value
        ("          const Text('Welcome back'),\n", ""),  # missing child
        ("class LoginCard extends", "class LoginPanel extends"),  # wrong class name
        ("extends StatelessWidget", "extends StatefulWidget"),  # wrong superclass
        ("EdgeInsets.all(16)", "EdgeInsets.all(8)"),  # wrong nested value
    ],
)
def test_nl_requirements_reject(old: str, new: str) -> None:
    answer = REFERENCE.replace(old, new, 1)
    score = _run(requirements(), make_state(_reply("dart", answer), _req_meta("dart", NL_REQS)))
    assert isinstance(score.value, dict) and score.value["correct"] == 0, score.explanation


def test_nl_requirements_accept_reference_and_extras() -> None:
    for answer in (REFERENCE, _variant(NEAR_MISSES["extra widget"]), _variant(HARMLESS["comments"])):
        score = _run(requirements(), make_state(_reply("dart", answer), _req_meta("dart", NL_REQS)))
        assert isinstance(score.value, dict) and score.value["correct"] == 1, score.explanation


# --- error kinds, attempts, garbage


def test_error_kinds_and_attempts() -> None:
    meta = _ast_meta("dart")
    cases = {
        "": "NO_ANSWER",
        "I cannot do that.": "NO_ANSWER",
        "```\n```": "NO_ANSWER",
        "```dart\nclass {\n```": "PARSE_ERROR",
    }
    for reply, kind in cases.items():
        score = _run(ast_equivalence(), make_state(reply, meta))
        assert isinstance(score.value, dict) and score.value["correct"] == 0
        assert score.explanation and score.explanation.startswith(kind), (reply, score.explanation)
        assert set(score.value) == {*SCORE_KEYS, *TOKEN_KEYS}
    score = _run(ast_equivalence(), make_state(_reply("dart", REFERENCE), meta, attempts=2))
    assert isinstance(score.value, dict)
    assert {k: score.value[k] for k in SCORE_KEYS} == {
        "syntax_valid": 1, "decodable": 1, "correct": 1, "first_attempt_success": 0, "attempts": 2
    }
    # what the sample cost: the reply's o200k tokens; the input from metadata (NaN when a test state has none)
    assert score.value["output_tokens"] == count_tokens(_reply("dart", REFERENCE))


def test_code_check_dispatches_on_metadata() -> None:
    nl = make_state(_reply("dart", REFERENCE.replace("'Email'", "'Mail'")), _req_meta("dart", NL_REQS))
    assert "requirements unmet" in (_run(code_check(), nl).explanation or "")
    ast = make_state(_reply("dart", REFERENCE), _ast_meta("dart", check="ast"))
    assert _run(code_check(), ast).value["correct"] == 1  # type: ignore[index]


# --- 10,000 random replies into every scorer: each is scored, none raises

_ALPHABETS = (
    string.printable,
    "{}[]():;,'\"<>~@#=.$_ \nabcSTNCRK0123456789",
    "abcXYZ 🙂⟨HOLE⟩\u0000\ud7ff\t\\é中",
)


def _random_replies(n: int, seed: int) -> list[str]:
    """Seeded random strings: raw, in a coon/dart/unlabelled fence, or a corrupted valid answer."""
    rng = random.Random(seed)
    valid = [_reply(f, REFERENCE) for f in code_formats()]
    out: list[str] = []
    for _ in range(n):
        alphabet = rng.choice(_ALPHABETS)
        body = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 120)))
        style = rng.randrange(5)
        if style == 0:
            out.append(body)
        elif style == 4:
            base = rng.choice(valid)
            cut = rng.randrange(len(base))
            out.append(base[:cut] + body[:8] + base[cut + rng.randint(0, 20) :])
        else:
            out.append(f"```{('coon', 'dart', '')[style - 1]}\n{body}\n```")
    return out


def _fuzz_metas() -> list[dict[str, Any]]:
    metas: list[dict[str, Any]] = []
    for fmt_name in code_formats():
        metas.append(_ast_meta(fmt_name, check="ast"))
        metas.append(_ast_meta(fmt_name, check="ast", normalise=True, hole_subtree="const Text('Welcome back')"))
        metas.append(_req_meta(fmt_name, NL_REQS))
        metas.append(_req_meta(fmt_name, REFACTOR_REQS))
    return metas


def _fuzz(make_scorer: Any, n: int) -> None:
    scorer_fn = make_scorer()
    metas = _fuzz_metas()
    replies = _random_replies(n, seed=7)

    async def run_all() -> list[Score]:
        return [
            await scorer_fn(make_state(reply, metas[i % len(metas)]), Target(REFERENCE))
            for i, reply in enumerate(replies)
        ]

    scores = asyncio.run(run_all())
    assert len(scores) == n
    for score in scores:
        assert isinstance(score.value, dict) and set(score.value) == {*SCORE_KEYS, *TOKEN_KEYS}
        assert score.explanation
    kinds = {(s.explanation or "").split(":")[0] for s in scores}
    assert {"NO_ANSWER", "PARSE_ERROR"} <= kinds  # the fuzz reaches past extraction into the validators


@pytest.mark.parametrize("make_scorer", [ast_equivalence, requirements, code_check])
def test_random_replies_are_scored_quick(make_scorer: Any) -> None:
    _fuzz(make_scorer, 1_000)


@pytest.mark.slow
@pytest.mark.parametrize("make_scorer", [ast_equivalence, requirements, code_check])
def test_10000_random_replies_are_scored(make_scorer: Any) -> None:
    """The issue's bar: 10,000 random replies per scorer (~30 s each: tree-sitter error recovery dominates)."""
    _fuzz(make_scorer, 10_000)


def test_property_values_compare_without_comments_inside_them() -> None:
    """A requirement taken from real code whose value holds a comment (``ThemeData(// green…``) is met by the same
    value without it — the comment is layout, as everywhere else in the code checks."""
    reference = (
        "class App extends StatelessWidget {\n  Widget build(BuildContext context) {\n"
        "    return MaterialApp(theme: ThemeData(\n      // green for Material widgets\n"
        "      primarySwatch: Colors.green,\n    ), home: const Text('x'));\n  }\n}\n"
    )
    value = reference[reference.index("ThemeData(") : reference.index("), home") + 1]
    reqs = [WidgetRequirement(widget="MaterialApp", properties=[PropertyCheck(path="theme", value=value)])]
    bare = reference.replace("      // green for Material widgets\n", "")
    assert all(r.met for r in check_requirements(reference, reqs))
    assert all(r.met for r in check_requirements(bare, reqs))
    wrong = bare.replace("Colors.green", "Colors.red")
    assert not any(r.met for r in check_requirements(wrong, reqs))


def test_adjacent_strings_normalise_part_by_part() -> None:
    """``"a "\n  "b"`` is one literal node made of parts: each part is re-quoted, the layout between them dropped
    (re-quoting the whole run would leave a stray quote inside and make layout significant)."""
    multi = "var t = Text(\"The quick \"\n        \"brown fox\");"
    one_line = "var t = Text('The quick ' 'brown fox');"
    assert normalise_program(multi) == normalise_program(one_line)
    assert normalise_program(multi) != normalise_program("var t = Text('The quick ' 'brown dog');")


def test_a_text_of_adjacent_literals_is_no_text_requirement() -> None:
    """``Text('a ' 'b')`` shows no single plain string (the parts' layout would decide the match): generation
    derives no text requirement from it, so the gold program, re-laid-out by a codec, still meets every one."""
    from coonbench.dart.generation import derive_requirements

    source = (
        "class App extends StatelessWidget {\n  Widget build(BuildContext context) {\n"
        "    return Column(children: [Text('The quick '\n        'brown fox'), Text('plain')]);\n  }\n}\n"
    )
    texts = [r.text for r in derive_requirements(source) if isinstance(r, WidgetRequirement)]
    assert "plain" in texts and not any(t and "quick" in t for t in texts)
    relaid = source.replace("'The quick '\n        'brown fox'", "'The quick ' 'brown fox'")
    assert all(r.met for r in check_requirements(relaid, derive_requirements(source)))
