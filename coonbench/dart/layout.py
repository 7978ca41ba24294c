"""Whether Dart text is written in the minified layout: no comment and no line break between tokens.

Why: minified Dart is valid Dart, so a reply asked for in it decodes whatever its layout; without this check a
copy of the pretty source passes for a minified one (``Format.spelling_error``). Spaces between tokens are
allowed (the minifier keeps only the ones Dart needs, a model may keep more), and so is a line break between two
adjacent string literals (one literal to the parser, which the minifier keeps as written). Read with the lexer
(``scan``): a line break inside a string literal is the literal's, not the layout's.
"""

from __future__ import annotations

from coonbench.dart.scan import COMMENT, DartScanError, line_column, scan


def layout_fault(code: str) -> str | None:
    """Why ``code`` is not in the minified layout (a comment, a line break between tokens), or None when it is."""
    try:
        tokens = scan(code)
    except DartScanError as err:
        return f"its tokens cannot be read ({err})"
    end, kind = None, ""
    for tok in tokens:
        if tok.kind == COMMENT:
            return f"it keeps a comment (line {line_column(code, tok.start)[0]})"
        if end is not None and "\n" in code[end:tok.start] and not (kind == tok.kind == "string"):
            return f"it breaks a line (line {line_column(code, end)[0]})"
        end, kind = tok.start + len(tok.text), tok.kind
    return None
