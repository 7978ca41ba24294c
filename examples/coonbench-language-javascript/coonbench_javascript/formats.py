"""JavaScript's two code formats: ``javascript`` (as written) and ``javascript-minified`` (comments and every
whitespace the grammar does not need removed). Both are lossless: the minifier's output is the same tree
(``syntax.ast_diff``), and the encoder checks that on every file and refuses loudly (``FormatError`` naming the
first difference) rather than show a model a changed program. Registered on import (the ``coonbench.formats``
entry point)."""

from __future__ import annotations

from typing import Any, Literal

from coonbench.formats.base import Format, FormatError, register
from coonbench_javascript import syntax


def _text(source: Any) -> str:
    if not isinstance(source, str):
        raise FormatError("JavaScript source must be text", expected="str")
    if len(source) > syntax.MAX_CHARS:
        raise FormatError(f"JavaScript source longer than {syntax.MAX_CHARS} characters", expected="a shorter file")
    return source


def _valid(source: str) -> str:
    error = syntax.syntax_error(source)
    if error is not None:
        raise FormatError(error.message, error.line, error.column, expected="valid JavaScript")
    return source


class JavaScriptFormat(Format):
    """JavaScript source exactly as written."""

    name = "javascript"
    description = "JavaScript source code as written"
    label = "JavaScript"
    kind = "code"
    fence = "javascript"
    lossless = True
    language = "javascript"

    def encode(self, source: Any) -> str:
        return _valid(_text(source))

    def decode(self, text: str) -> str:
        return _valid(_text(text))

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        return "The code is JavaScript."


class MinifiedJavaScriptFormat(JavaScriptFormat):
    """The same program with comments and unneeded whitespace removed; valid JavaScript, so decode checks it."""

    name = "javascript-minified"
    label = "minified JavaScript"
    description = "minified JavaScript (comments and insignificant whitespace removed, same syntax tree)"

    def encode(self, source: Any) -> str:
        source = _valid(_text(source))
        try:
            return syntax.minify(source)
        except syntax.MinifyError as err:
            raise FormatError(f"javascript-minified would change the program ({err}); refusing the file",
                              expected="the same syntax tree") from None

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        text = ("The code is minified JavaScript: comments and layout were removed; a line break remains only "
                "where it ends a statement that has no semicolon. It is valid JavaScript.")
        if variant == "full":
            text += " Read it as ordinary JavaScript."
        return text


register(JavaScriptFormat())
register(MinifiedJavaScriptFormat())
