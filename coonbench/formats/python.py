"""Python in four code formats: as written (``python``), minified (``python-minified``), compressed by the
registry's ``python-minifier`` (``python-minifier``) and as a JSON syntax tree (``python-json-ast``).

All four are lossless in the Python language's sense (``coonbench.languages.python.equivalence``: the same syntax
tree, docstrings aside), and each encoder checks that on the file it is given: an encoding that would change the
program raises ``FormatError`` with the first difference, so a task skips the file for that format, loudly, and a
model never reads a changed program. ``decode`` of the three source formats is the identity (their text is
Python); ``python-json-ast`` decodes through ``ast.unparse``.
"""

from __future__ import annotations

import ast
import json
from typing import Any, Literal

from coonbench.formats._claims import Claim, formatting_removal
from coonbench.formats._limits import check_size
from coonbench.formats.base import Format, FormatError, register
from coonbench.languages.base import LanguageSyntaxError
from coonbench.languages.python.ast_json import AstJsonError, ast_to_json, module_from_json
from coonbench.languages.python.equivalence import ast_diff
from coonbench.languages.python.minify import MinifyError, layout_fault, minify
from coonbench.languages.python.parse import MAX_CHARS, parse_python, syntax_error

MAX_JSON_CHARS = 3_000_000
"""Longest JSON syntax tree ``python-json-ast`` decodes (about a second: reading and unparsing take ~0.3 s a MB)."""

MINIFIER_OPTIONS: dict[str, Any] = {
    # python-minifier's transforms that keep the syntax tree: layout, spacing and the cheapest quoting only.
    # Every rewriting transform is off: renaming (rename_locals/rename_globals), literal hoisting, constant
    # folding, dead-branch removal, pass/return-None/annotation/assert/docstring removal, import combining,
    # object-base and bracket removal, positional-only argument conversion. Turning one on makes the encoder's
    # tree check refuse the files it changes (tests/test_python_formats.py shows it for rename_locals).
    "remove_annotations": False,
    "remove_pass": False,
    "remove_literal_statements": False,
    "combine_imports": False,
    "hoist_literals": False,
    "rename_locals": False,
    "rename_globals": False,
    "remove_object_base": False,
    "convert_posargs_to_args": False,
    "preserve_shebang": True,
    "remove_asserts": False,
    "remove_debug": False,
    "remove_explicit_return_none": False,
    "remove_builtin_exception_brackets": False,
    "constant_folding": False,
    "prefer_single_line": False,
    "remove_dead_branches": False,
}


def _text(source: Any) -> str:
    if not isinstance(source, str):
        raise FormatError("Python source must be text", expected="str")
    check_size(source, MAX_CHARS, "Python")
    return source


def _checked(name: str, source: str, result: str) -> str:
    """``result`` when it is the same program as ``source``; FormatError naming the first difference otherwise."""
    try:
        diff = ast_diff(source, result)
    except LanguageSyntaxError as err:
        raise FormatError(f"{name} output does not parse ({err.message}); refusing the file", err.line,
                          err.column, expected="a program equal to the source") from None
    if diff is not None:
        raise FormatError(f"{name} would change the program at {diff.path}: {diff.left!r} became {diff.right!r}; "
                          "refusing the file", diff.line, diff.column, expected="the same syntax tree")
    return result


def _parsed(source: str) -> ast.Module:
    try:
        return parse_python(source)
    except LanguageSyntaxError as err:
        raise FormatError(err.message, err.line, err.column, expected="valid Python") from None


class PythonFormat(Format):
    """Python source exactly as written."""

    name = "python"
    description = "Python source code as written"
    label = "Python"
    kind = "code"
    fence = "python"
    lossless = True
    language = "python"

    def encode(self, source: Any) -> str:
        return _text(source)

    def decode(self, text: str) -> str:
        return _text(text)

    def validate(self, text: str) -> list[FormatError]:
        if not isinstance(text, str):
            return [FormatError("not text", expected="Python source text")]
        err = syntax_error(text)
        return [] if err is None else [FormatError(err.message, err.line, err.column, expected="valid Python")]

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        return "The code is Python."


class MinifiedPythonFormat(PythonFormat):
    """Pan et al.'s formatting removal (``coonbench.languages.python.minify``): valid Python, so decode is the
    identity."""

    name = "python-minified"
    label = "minified Python"
    description = ("minified Python source (comments, docstrings, blank lines and insignificant whitespace removed, "
                   "one space per indentation level)")

    def encode(self, source: Any) -> str:
        _parsed(_text(source))
        try:
            return minify(source)
        except MinifyError as err:
            raise FormatError(f"cannot minify: {err}", expected="a program the minifier keeps") from None

    def spelling_error(self, text: str) -> str | None:
        return layout_fault(text, docstrings=False)

    def claims(self) -> tuple[Claim, ...]:
        return (formatting_removal("python"),)

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        text = ("The code is minified Python: comments, docstrings and blank lines were removed and each "
                "indentation level is one space; it is valid Python.")
        if variant == "full":
            text += " Read it as ordinary Python; spaces appear only where two tokens would otherwise merge."
        return text


class PythonMinifierFormat(PythonFormat):
    """The registry's ``python-minifier`` with ``MINIFIER_OPTIONS`` (no transform that changes the tree)."""

    name = "python-minifier"
    label = "Python compressed by python-minifier"
    description = "Python compressed by python-minifier (layout only: no renaming or rewriting; docstrings kept)"

    def encode(self, source: Any) -> str:
        _parsed(_text(source))
        try:
            import python_minifier
        except ImportError:
            raise FormatError("the python-minifier package is not installed", expected="pip install "
                              "python-minifier") from None
        try:
            result = python_minifier.minify(source, **MINIFIER_OPTIONS)
        except Exception as err:  # noqa: BLE001 - the library's failure on one file is a refusal of that file
            raise FormatError(f"python-minifier failed: {type(err).__name__}: {err}") from None
        return _checked("python-minifier", source, result)

    def spelling_error(self, text: str) -> str | None:
        return layout_fault(text, docstrings=True)

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        text = ("The code is Python compressed by python-minifier: comments and spacing removed, indentation "
                "minimal, several statements may share a line separated by `;`; it is valid Python.")
        if variant == "full":
            text += " Names, literals and docstrings are as in the original program."
        return text


class PythonJsonAstFormat(Format):
    """The program as its ``ast`` syntax tree in JSON (``coonbench.languages.python.ast_json``: the correction
    task's ``python-ast`` schema); decoded with ``ast.unparse``."""

    name = "python-json-ast"
    label = "JSON (the program's syntax tree in Python's `ast` schema)"
    description = "a Python program written as a JSON syntax tree in Python's `ast` schema"
    kind = "code"
    fence = "json"
    lossless = True
    language = "python"

    def encode(self, source: Any) -> str:
        tree = _parsed(_text(source))
        try:
            text = json.dumps(ast_to_json(tree), ensure_ascii=False)
        except TypeError as err:  # bytes, complex and Ellipsis constants have no JSON form in the schema
            raise FormatError(f"python-json-ast cannot carry this program: {err}",
                              expected="constants that are JSON values") from None
        except RecursionError:
            raise FormatError("python-json-ast cannot carry this program: nested too deeply") from None
        _checked("python-json-ast", source, self.decode(text))  # raises when ast.unparse loses something
        return text

    def decode(self, text: str) -> str:
        if not isinstance(text, str):
            raise FormatError("a JSON syntax tree must be text", expected="str")
        check_size(text, MAX_JSON_CHARS, "python-json-ast")
        try:
            tree = module_from_json(text)
        except json.JSONDecodeError as err:
            raise FormatError(f"invalid JSON: {err.msg}", err.lineno, err.colno, expected="JSON") from None
        except AstJsonError as err:
            raise FormatError(f"not a Python syntax tree: {err}", expected="ast nodes") from None
        except (RecursionError, MemoryError):
            raise FormatError("JSON syntax tree nested too deeply", expected="a shallower tree") from None
        except (TypeError, ValueError) as err:
            raise FormatError(f"not a Python syntax tree: {err}", expected="ast nodes") from None
        try:
            program = ast.unparse(tree)
        except (RecursionError, MemoryError):
            raise FormatError("JSON syntax tree nested too deeply", expected="a shallower tree") from None
        except Exception as err:  # noqa: BLE001 - ast.unparse on a malformed tree raises anything
            raise FormatError(f"not a Python syntax tree: {type(err).__name__}: {err}", expected="ast nodes") from None
        invalid = syntax_error(program)
        if invalid is not None:
            raise FormatError(f"the tree is not a valid program: {invalid.message}", expected="a valid Python tree")
        return program

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        text = ("The code is a Python program written as a JSON syntax tree in the schema of Python's `ast` module: "
                'every node is an object {"_type": "<ast class>", <field>: <value>, ...}; positions, empty fields and '
                "Load contexts are omitted; the top level is a Module whose `body` lists the statements.")
        if variant == "full":
            text += (" Functions are FunctionDef (name, args, body, decorator_list, returns), classes ClassDef "
                     "(name, bases, body); `arguments` holds args, defaults (aligned with the last args), "
                     "kwonlyargs and kw_defaults; Name nodes carry the identifier in `id`, Constant in `value`.")
        return text


register(PythonFormat())
register(MinifiedPythonFormat())
register(PythonMinifierFormat())
register(PythonJsonAstFormat())
