"""A reply asked for in minified Dart must be minified: minified Dart is valid Dart, so a copy of the pretty source
decodes to the same program and would pass for a minified one (the hole ``coonbench validate`` found in minified
Python). The minifier's own output passes on every corpus file; a comment or a line break between tokens does not;
extra spaces and a line break between two adjacent string literals (which the minifier keeps) do."""

from __future__ import annotations

from pathlib import Path

from coonbench.answers.check import check_answer
from coonbench.formats import FormatError, get_format
from coonbench.resources import DATA_DIR

PRETTY = """import 'package:flutter/material.dart';

class Hi extends StatelessWidget {
  const Hi({super.key});

  @override
  Widget build(BuildContext context) => const Text('hi'); // the greeting
}
"""


def test_the_minifiers_output_passes_on_every_corpus_file() -> None:
    fmt = get_format("dart-minified")
    checked = 0
    for path in sorted((DATA_DIR / "dart").rglob("*.dart")):
        try:
            encoded = fmt.encode(path.read_text(encoding="utf-8"))
        except FormatError:
            continue
        assert fmt.spelling_error(encoded) is None, path.name
        checked += 1
    assert checked >= 90


def test_a_copy_of_the_pretty_source_is_not_minified_dart() -> None:
    fmt = get_format("dart-minified")
    echo = check_answer(f"```dart\n{PRETTY}```", "dart-minified")
    assert not echo.ok and echo.error == "the reply is not minified Dart: it breaks a line (line 1)"
    assert check_answer(f"```dart\n{fmt.encode(PRETTY)}\n```", "dart-minified").ok
    one_line = " ".join(PRETTY.split("\n")[:-2]) + " }"
    assert fmt.spelling_error(one_line) == "it keeps a comment (line 1)"
    spaced = fmt.encode(PRETTY).replace("=>", " => ")
    assert fmt.spelling_error(spaced) is None
    assert fmt.spelling_error("final s = 'a'\n    'b';") is None  # adjacent literals: one string to the parser
    assert fmt.spelling_error("final s = 'a\nb';".replace("'a\nb'", "'''a\nb'''")) is None  # inside a literal
    assert get_format("dart").spelling_error(PRETTY) is None
