"""Fuzz the answer normaliser (every answer type) and code extraction against the shared hostile-input contract.

Contract (``tests/hostile.py``): on any text, ``normalize`` returns None or a ``NormalizedAnswer`` whose ``text``
is a string, ``answers_match`` returns (bool, explanation), ``extract_code`` returns None or a string — never an
exception, never more than 1 s of CPU per input (the patterns are linear; replies are read from their last
``MAX_EXAMINED_CHARS`` characters).
"""

from __future__ import annotations

import pytest
from hypothesis import given

from coonbench.answers.extract import extract_code, fenced_blocks
from coonbench.answers.normalize import answer_types, NormalizedAnswer, answers_match, normalize
from tests.hostile import FUZZ_SETTINGS, SLOW_FUZZ_SETTINGS, check_contract, fixed_hostile, hostile_text

_OPTIONS = {
    "number": {"decimalPlaces": 2},
    "csv-list-unordered": {"item_type": "widget-name", "aliases": {"S": "Scaffold"}},
    "widget-name": {"aliases": {"S": "Scaffold"}},
}
_VALID = {
    "integer": "The answer is **1,234**.",
    "number": "Answer: $1,234.50",
    "boolean": "Yes, it is.",
    "date": "It is January 15, 2025.",
    "string": '"Engineering"',
    "csv-list-ordered": "- a\n- b\n- c",
    "csv-list-unordered": "S, Column, and Text",
    "widget-name": "the Scaffold widget",
}
_CODE = "Here it is:\n```dart\nclass A extends StatelessWidget {\n  Widget build(c) => Text('x');\n}\n```\nDone."
_LANGUAGES = (None, "dart", "coon", "json", "python", "javascript")
# the slow regressions of issue 16: blank runs between words, newline runs, blank runs beside a currency sign
_REGRESSIONS = ["a" + " " * 100_000 + "b 42", "\n" * 100_000 + "42", "-" + " " * 100_000 + "x", "<think>" * 100_000,
                "```" + "a" * 200_000, "Text" + " " * 100_000 + "x", "`" * 200_000, "```\n" * 50_000]


def _check_normalize(kind: str, text: str) -> None:
    result = check_contract(lambda t: normalize(t, kind, _OPTIONS.get(kind)), text, label=f"normalize[{kind}]")
    assert result is None or (isinstance(result, NormalizedAnswer) and isinstance(result.text, str))
    verdict = check_contract(lambda t: answers_match(t, "1", kind, _OPTIONS.get(kind)), text, label="answers_match")
    ok, why = verdict
    assert isinstance(ok, bool) and isinstance(why, str) and why


def _check_extract(text: str) -> None:
    for language in _LANGUAGES:
        code = check_contract(lambda t: extract_code(t, language), text, label=f"extract_code[{language}]")
        assert code is None or isinstance(code, str)
    blocks = check_contract(fenced_blocks, text)
    assert all(isinstance(tag, str) and isinstance(body, str) for tag, body in blocks)


@pytest.mark.parametrize("kind", answer_types())
def test_fixed_hostile_inputs_every_type(kind: str) -> None:
    for text in fixed_hostile(_VALID[kind]) + _REGRESSIONS:
        _check_normalize(kind, text)


@pytest.mark.parametrize("kind", answer_types())
def test_valid_examples_are_read(kind: str) -> None:
    """The mutation seeds are themselves answers (so the fuzzing starts from text the normaliser accepts)."""
    assert normalize(_VALID[kind], kind, _OPTIONS.get(kind)) is not None


@pytest.mark.parametrize("kind", answer_types())
@FUZZ_SETTINGS
@given(text=hostile_text(list(_VALID.values())))
def test_fuzz_normalize(kind: str, text: str) -> None:
    _check_normalize(kind, text)


@pytest.mark.slow  # ~13 s: the 5 MB cases × every language
def test_fixed_hostile_extract_code() -> None:
    for text in fixed_hostile(_CODE) + _REGRESSIONS:
        _check_extract(text)


@FUZZ_SETTINGS
@given(text=hostile_text([_CODE]))
def test_fuzz_extract_code(text: str) -> None:
    _check_extract(text)


@pytest.mark.slow
@SLOW_FUZZ_SETTINGS
@given(text=hostile_text(list(_VALID.values()) + [_CODE]))
def test_fuzz_slow_every_target(text: str) -> None:
    for kind in answer_types():
        _check_normalize(kind, text)
    _check_extract(text)


def test_an_unfenced_dart_file_is_read_whole_from_its_first_line() -> None:
    """Every real Dart file the project ships (the corpus and every mined edit's before and after), sent unfenced,
    is extracted whole, whatever it starts with (a licence comment, ``library``, ``part of``, an annotation…), and
    a line of prose before it is dropped."""
    import json

    from coonbench.resources import REPO_ROOT

    files = [p.read_text(encoding="utf-8") for p in sorted((REPO_ROOT / "data" / "dart").rglob("*.dart"))]
    with (REPO_ROOT / "data" / "edits" / "edits.jsonl").open(encoding="utf-8") as f:
        files += [text for line in f for key, text in json.loads(line).items() if key in ("before", "after")]
    assert len(files) > 300
    for text in files:
        whole = "\n".join(text.strip("\n").splitlines()).strip("\n")  # line ends read as Python reads them
        assert extract_code(text, "dart") == whole
        assert extract_code("Here is the updated file:\n" + text, "dart") == whole
