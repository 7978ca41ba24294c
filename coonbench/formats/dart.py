"""Dart as written (``dart``) and minified Dart (``dart-minified``): the baselines COON is measured against.

``dart-minified`` drops comments and every whitespace the tree-sitter token stream does not need (string literals
untouched; trailing commas kept). It is valid Dart, AST-equivalent to its source, so ``decode`` is the identity
for both formats: a model's reply in either format is Dart already. ``validate`` reports Dart parse errors.
"""

from __future__ import annotations

from typing import Any, Literal

from coonbench.dart.layout import layout_fault
from coonbench.dart.minify import minify
from coonbench.dart.parse import DartParseError, parse_unit
from coonbench.formats._claims import Claim, formatting_removal
from coonbench.formats.base import Format, FormatError, register


MAX_CHARS = 1_000_000
"""Largest Dart text ``validate`` and ``dart-minified`` take (parsing is linear, ~0.3 s/MB, but a caller's budget is
one second per input); longer text gets a FormatError instead of a parse."""


def _size_error(text: str) -> FormatError | None:
    if len(text) <= MAX_CHARS:
        return None
    return FormatError(
        f"Dart text of {len(text):,} characters is over the limit", 1, 1, expected=f"at most {MAX_CHARS:,} characters"
    )


def dart_errors(text: str) -> list[FormatError]:
    """The first Dart syntax error of ``text`` (a program or fragment) as a positioned FormatError.

    Never raises: lone surrogates, 10,000-deep nesting and junk the parser gives up on are errors in the list.
    """
    if not isinstance(text, str):
        return [FormatError("not text", expected="Dart source text")]
    too_big = _size_error(text)
    if too_big is not None:
        return [too_big]
    try:
        parse_unit(text)
    except DartParseError as err:
        return [FormatError(err.message, err.line, err.column, expected="valid Dart")]
    return []


class DartFormat(Format):
    """Dart source exactly as written."""

    name = "dart"
    label = "Dart"
    description = "Dart/Flutter source code as written"
    kind = "code"
    fence = "dart"
    language = "dart"
    lossless = True

    def encode(self, source: Any) -> str:
        if not isinstance(source, str):
            raise FormatError("Dart source must be text", expected="str")
        return source

    def decode(self, text: str) -> str:
        if not isinstance(text, str):
            raise FormatError("Dart source must be text", expected="str")
        return text

    def validate(self, text: str) -> list[FormatError]:
        return dart_errors(text)

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        return "The code is Dart (Flutter)."


class MinifiedDartFormat(DartFormat):
    """Dart with comments and insignificant whitespace removed (valid Dart, so decode is the identity)."""

    name = "dart-minified"
    label = "minified Dart"
    description = "minified Dart/Flutter source (comments and insignificant whitespace removed)"

    def encode(self, source: Any) -> str:
        if not isinstance(source, str):
            raise FormatError("Dart source must be text", expected="str")
        too_big = _size_error(source)
        if too_big is not None:
            raise too_big
        try:
            return minify(source)
        except DartParseError as err:
            raise FormatError(f"cannot minify: {err.message}", err.line, err.column, expected="valid Dart") from None

    def spelling_error(self, text: str) -> str | None:
        return layout_fault(text)

    def claims(self) -> tuple[Claim, ...]:
        return (formatting_removal("dart"),)

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        text = "The code is minified Dart (Flutter): comments and line breaks were removed; it is valid Dart."
        if variant == "full":
            text += " Read it as ordinary Dart; spaces appear only where two tokens would otherwise merge."
        return text


register(DartFormat())
register(MinifiedDartFormat())
