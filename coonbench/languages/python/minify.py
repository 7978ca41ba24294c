"""Minified Python: Pan et al.'s formatting removal, done on the token stream and checked on the tree.

What goes: comments, blank lines, line continuations (inside brackets and after ``\\``), docstrings (the leading
string statements of every module, class and function body; a class or function body left empty gets ``pass``)
and every space the tokenizer does not need; indentation becomes one space a level. What stays: every other token
as written (string literals with their quotes and prefixes, numbers as spelled) and one line per statement, as
Python needs. The result is checked with ``ast_diff`` (the same tree, docstrings aside) and refused with the first
difference otherwise: a bug here is a loud ``MinifyError``, never a changed program.
"""

from __future__ import annotations

import ast
import io
import tokenize

from coonbench.languages.base import LanguageSyntaxError
from coonbench.languages.python.equivalence import ast_diff, docstring_statements, is_string_statement
from coonbench.languages.python.parse import parse_python, source_lines

_SKIPPED = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER})
_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)  # Python 3.12+: an f-string is several tokens
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)
Position = tuple[int, int]  # tokenize's (1-based line, character column)


class MinifyError(ValueError):
    """The minifier cannot keep this program: it does not tokenize, or the result would differ."""


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_" or ord(ch) > 127


def _needs_space(prev: tuple[int, str] | None, text: str) -> bool:
    """Whether ``text`` must be kept apart from the previous token (type, text) so that the two do not merge."""
    if prev is None or not prev[1] or not text:
        return False
    last, first = prev[1][-1], text[0]
    if _word(last) and _word(first):
        return True
    return prev[0] == tokenize.NUMBER and (first == "." or _word(first))  # ``1 .real``, ``1. if``


def _char_column(lines: list[str], line: int, byte_col: int) -> int:
    """``ast``'s UTF-8 byte column on 1-based ``line`` as a character column (what ``tokenize`` reports)."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))


def _docstrings(source: str, tree: ast.Module) -> tuple[dict[Position, Position], set[Position]]:
    """(start → end of every docstring statement, starts of the first statement of class/def bodies that hold
    nothing but docstrings: there ``pass`` is written instead)."""
    lines = source_lines(source)

    def start(stmt: ast.stmt) -> Position:
        return stmt.lineno, _char_column(lines, stmt.lineno, stmt.col_offset)

    spans: dict[Position, Position] = {}
    for stmt in docstring_statements(tree):
        end_line = stmt.end_lineno or stmt.lineno
        spans[start(stmt)] = (end_line, _char_column(lines, end_line, stmt.end_col_offset or 0))
    whole = {
        start(node.body[0])
        for node in ast.walk(tree)
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and all(is_string_statement(s) for s in node.body)
    }
    return spans, whole


def _slice(lines: list[str], begin: Position, end: Position) -> str:
    """The source text between two tokenize positions."""
    if begin[0] == end[0]:
        return lines[begin[0] - 1][begin[1] : end[1]]
    parts = [lines[begin[0] - 1][begin[1] :], *lines[begin[0] : end[0] - 1], lines[end[0] - 1][: end[1]]]
    return "".join(parts)


def minify(source: str) -> str:
    """``source`` minified (see the module docstring). ``LanguageSyntaxError`` when it is not Python,
    ``MinifyError`` when it cannot be minified without changing it."""
    tree = parse_python(source)
    drop, write_pass = _docstrings(source, tree)
    lines = source_lines(source)
    out: list[str] = []
    depth = 0
    prev: tuple[int, str] | None = None  # the last token written on the current line
    skip_until: Position | None = None
    fstring: tuple[Position, int] | None = None  # (start, nesting) of a 3.12 f-string being copied whole

    def write(kind: int, text: str) -> None:
        nonlocal prev
        if prev is None:
            out.append(" " * depth)
        elif _needs_space(prev, text):
            out.append(" ")
        out.append(text)
        prev = (kind, text)

    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if fstring is not None:
                nesting = fstring[1] + (tok.type == _FSTRING_START) - (tok.type == _FSTRING_END)
                if nesting == 0:
                    write(tokenize.STRING, _slice(lines, fstring[0], tok.end))
                    fstring = None
                else:
                    fstring = (fstring[0], nesting)
                continue
            if tok.type in _SKIPPED:
                continue
            if skip_until is not None:
                if tok.start < skip_until:
                    continue
                skip_until = None
                if tok.type == tokenize.OP and tok.string == ";":
                    continue  # the separator after a dropped docstring: ``"""doc"""; x = 1``
            if tok.start in drop:
                if tok.start in write_pass:
                    write(tokenize.NAME, "pass")
                skip_until = drop[tok.start]
            elif tok.type == tokenize.INDENT:
                depth += 1
            elif tok.type == tokenize.DEDENT:
                depth -= 1
            elif tok.type == tokenize.NEWLINE:
                if prev is not None:
                    out.append("\n")
                prev = None
            elif tok.type == _FSTRING_START:
                fstring = (tok.start, 1)
            else:
                write(tok.type, tok.string)
    except (tokenize.TokenError, SyntaxError) as err:
        raise MinifyError(f"cannot tokenize: {err}") from None
    result = "".join(out)
    try:
        diff = ast_diff(source, result)
    except LanguageSyntaxError as err:
        raise MinifyError(f"the minified text does not parse ({err}); refusing the file") from None
    if diff is not None:
        raise MinifyError(f"minifying would change the program at {diff.path} (line {diff.line}): "
                          f"{diff.left!r} became {diff.right!r}; refusing the file")
    return result


def layout_fault(code: str, *, docstrings: bool) -> str | None:
    """Why ``code`` is not written in a minified layout, or None when it is: a comment, a blank line, an indentation
    step other than one space, or (unless ``docstrings``) a docstring. A reply asked for in a minified format must be
    minified: a copy of the pretty source would otherwise pass for one. ``LanguageSyntaxError`` when not Python."""
    tree = parse_python(code)
    if not docstrings and (found := docstring_statements(tree)):
        return f"it keeps a docstring (line {found[0].lineno})"
    lines = source_lines(code)
    width = [0]
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            line = tok.start[0]
            if tok.type == tokenize.COMMENT:
                return f"it keeps a comment (line {line})"
            if tok.type == tokenize.NL and line <= len(lines) and not lines[line - 1].strip():
                return f"it keeps a blank line (line {line})"
            if tok.type == tokenize.INDENT:
                step = len(tok.string) - width[-1]
                if step != 1:
                    return f"it indents by {step} at line {line}, where the format indents one space a level"
                width.append(len(tok.string))
            elif tok.type == tokenize.DEDENT:
                width.pop()
    except (tokenize.TokenError, SyntaxError) as err:
        raise LanguageSyntaxError(f"cannot tokenize: {err}", 1, 1) from None
    return None
