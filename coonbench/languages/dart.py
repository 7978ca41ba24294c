"""Dart (Flutter), the first language of the code tasks: ``coonbench.dart``'s parser, trees and generators behind
the ``Language`` seam.

Only this module, the Dart formats (``coonbench.formats.dart``, ``coonbench.formats.coon``) and ``coonbench.dart``
itself import ``coonbench.dart`` or tree-sitter (an import-linter contract, ``pyproject.toml``); every task reaches
Dart through ``get_language("dart")``. Dart's own parse error becomes the seam's ``LanguageSyntaxError`` here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from coonbench.dart.equivalence import ast_diff as _dart_ast_diff
from coonbench.dart.parse import DartParseError, parse_dart
from coonbench.dart.requirements import normalise_program as _normalise_program
from coonbench.languages.base import Difference, Language, LanguageSyntaxError, register_language


@contextmanager
def _seam_errors() -> Iterator[None]:
    """Dart's parse error as the seam's (same message, line and column)."""
    try:
        yield
    except DartParseError as err:
        raise LanguageSyntaxError(err.message, err.line, err.column) from err


class DartLanguage(Language):
    """Dart with Flutter's widgets: tree-sitter-dart trees (``coonbench.dart``)."""

    name = "dart"
    label = "Dart"
    prompt_name = "Flutter/Dart"
    program_noun = "Flutter program"
    unit_noun = "Flutter widget"
    answer_rules = {
        "widget-name": "Answer with a single Flutter widget class name.",
        "csv-list-unordered": "Answer with a comma-separated list of Flutter widget class names, in any order.",
    }
    extensions = (".dart",)
    fence = "dart"
    source_format = "dart"
    plain_formats = frozenset({"dart", "dart-minified"})

    def parse_error(self, source: str) -> LanguageSyntaxError | None:
        try:
            parse_dart(source)
        except DartParseError as err:
            return LanguageSyntaxError(err.message, err.line, err.column)
        return None

    def ast_diff(self, a: str, b: str) -> Difference | None:
        with _seam_errors():
            diff = _dart_ast_diff(a, b)
        if diff is None:
            return None
        return Difference(diff.path, diff.left, diff.right, diff.line, diff.column)

    def normalise_program(self, source: str) -> str:
        with _seam_errors():
            return _normalise_program(source)


DART = register_language(DartLanguage())
