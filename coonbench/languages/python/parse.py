"""Parsing Python with the standard library's ``ast``, bounded, with one error type.

Why: every Python format, metric and question stands on ``ast.parse``; on hostile text it raises several kinds of
error (``SyntaxError``, ``ValueError`` for a NUL byte, ``RecursionError``/``MemoryError`` for deep nesting). Here
they all become the seam's ``LanguageSyntaxError`` with a 1-based line and column, and text over ``MAX_CHARS`` is
refused before parsing, so a caller's budget of about a second per input holds.
"""

from __future__ import annotations

import ast
import io
import keyword
import tokenize
import warnings

from coonbench.languages.base import LanguageSyntaxError

MAX_CHARS = 1_000_000
"""Longest Python text parsed (the parser takes ~0.1 s for 1 MB); longer text is a syntax error of its own."""


def parse_python(source: str, filename: str = "<python>") -> ast.Module:
    """The module tree of ``source``; ``LanguageSyntaxError`` when it is not a valid Python program."""
    if not isinstance(source, str):
        raise LanguageSyntaxError("not text", 1, 1)
    if len(source) > MAX_CHARS:
        raise LanguageSyntaxError(f"Python text of {len(source):,} characters is over the limit of {MAX_CHARS:,}",
                                  1, 1)
    try:
        with warnings.catch_warnings():  # invalid escape sequences warn; they are valid Python all the same
            warnings.simplefilter("ignore")
            return ast.parse(source, filename=filename)
    except SyntaxError as err:
        return _raise(err.msg or "invalid syntax", err.lineno or 1, err.offset or 1)
    except (ValueError, TypeError) as err:  # "source code string cannot contain null bytes"
        return _raise(str(err), 1, 1)
    except (RecursionError, MemoryError):
        return _raise("too deeply nested to parse", 1, 1)


def _raise(message: str, line: int, column: int) -> ast.Module:
    raise LanguageSyntaxError(message, max(line, 1), max(column, 1))


def syntax_error(source: str) -> LanguageSyntaxError | None:
    """The first syntax error of ``source``, None when it parses. Never raises."""
    try:
        parse_python(source)
    except LanguageSyntaxError as err:
        return err
    return None


def source_lines(source: str) -> list[str]:
    """The lines of ``source`` as ``ast`` and ``tokenize`` number them (split at ``\n`` only, ends kept): not
    ``str.splitlines``, which also splits at form feeds and other separators real files hold."""
    lines = source.split("\n")
    return [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


_LAYOUT_TOKENS = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                            tokenize.ENDMARKER, tokenize.ENCODING})


def tokens(source: str) -> list[tuple[str, str]]:
    """(kind, text) of every token of a program, comments and layout left out: ``NAME`` for an identifier,
    ``KEYWORD`` for a keyword (a rename never changes one), else the token's type (``STRING`` with its quotes,
    ``NUMBER``, ``OP``). What a mined edit changed, and whether it only renamed. ``LanguageSyntaxError`` when the
    source is not a program."""
    parse_python(source)  # bounded: a text over the limit or not Python is refused before it is tokenized
    out: list[tuple[str, str]] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in _LAYOUT_TOKENS:
                continue
            named = tok.type == tokenize.NAME
            kind = ("KEYWORD" if keyword.iskeyword(tok.string) else "NAME") if named else tokenize.tok_name[tok.type]
            out.append((kind, tok.string))
    except (tokenize.TokenError, SyntaxError) as err:
        raise LanguageSyntaxError(f"cannot tokenize: {err}", 1, 1) from None
    return out
