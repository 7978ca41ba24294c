"""Fuzz: Dart parsing (``coonbench.dart``: parse, AST equivalence, minify) and the ``dart`` / ``dart-minified`` formats
keep the hostile-input contract of ``tests/hostile.py``.

Documented errors: ``DartParseError`` for ``parse_unit``/``ast_diff``/``minify``, ``FormatError`` for the formats;
``dart.validate`` never raises. Minified Dart, when produced, is the same tree as its source.
"""

from __future__ import annotations

import pytest
from hypothesis import given

from coonbench.dart import ast_diff
from coonbench.dart.minify import minify
from coonbench.dart.parse import DartParseError, parse_unit
from coonbench.dart.requirements import normalise_program
from coonbench.formats import FormatError, get_format
from tests.hostile import FUZZ_SETTINGS, SLOW_FUZZ_SETTINGS, check_contract, fixed_hostile, hostile_text

VALID = [
    "import 'package:flutter/material.dart';\n\nvoid main() => runApp(const MaterialApp(home: Text('hi \\$x')));\n",
    "class A { int operator [](int i) => i; final r = (1, b: 2); var s = r'''x'''; } // c\n",
]


def _minified_same(text: str) -> None:
    out = get_format("dart-minified").encode(text)
    try:
        diff = ast_diff(text, out)
    except DartParseError as exc:  # the oracle's own parse ran past its CPU budget (a loaded machine): no verdict
        if not exc.no_tree:
            raise
        return
    assert diff is None, f"minified Dart differs from {text[:200]!r}"


def _contract(text: str) -> None:
    errors = check_contract(get_format("dart").validate, text, label="dart validate")
    assert isinstance(errors, list)
    check_contract(get_format("dart-minified").validate, text, label="dart-minified validate")
    if len(text) <= 100_000:  # library functions without the formats' size limit: bounded here by input size
        check_contract(parse_unit, text, (DartParseError,), label="parse_unit")
        check_contract(minify, text, (DartParseError,), label="minify")
        check_contract(lambda t: ast_diff(t, t), text, (DartParseError,), label="ast_diff")
    check_contract(_minified_same, text, (FormatError,), label="dart-minified encode")


@pytest.mark.parametrize("case", range(len(fixed_hostile(VALID[0]))))
def test_fixed_hostile(case: int) -> None:
    _contract(fixed_hostile(VALID[0])[case])


def test_regressions() -> None:
    """Lone surrogates and deep nesting: documented errors or results, never UnicodeEncodeError/RecursionError."""
    assert get_format("dart").validate("var s = '\ud800';")[0].message.startswith("lone surrogate")
    with pytest.raises(DartParseError):
        parse_unit("a\udfffb")
    deep = "var a = " + "[" * 10_000 + "]" * 10_000 + ";"
    assert get_format("dart").validate(deep) == []
    assert ast_diff(deep, deep) is None
    assert ast_diff(deep, deep.replace("[]", "[1]")) is not None  # the fast path declines, the full walk finds it
    assert normalise_program(deep).count("[") == 10_000  # the scorers' normal form renders it (no recursion)
    assert get_format("dart").validate("`" * 10_000)[0].message.startswith("unexpected character")


@FUZZ_SETTINGS
@given(hostile_text(VALID))
def test_fuzz_dart(text: str) -> None:
    _contract(text)


@pytest.mark.slow
@SLOW_FUZZ_SETTINGS
@given(hostile_text(VALID))
def test_fuzz_dart_long(text: str) -> None:
    _contract(text)
