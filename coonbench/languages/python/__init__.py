"""Python, the second language of the code tasks: the standard library's ``ast`` behind the ``Language`` seam.

Modules: ``parse`` (bounded ``ast.parse``, one error type), ``equivalence`` (the lossless check: trees equal,
docstrings aside), ``minify`` (Pan et al.'s formatting removal), ``ast_json`` (the JSON syntax-tree schema),
``metrics`` (the corpus's measures), ``questions`` (comprehension questions read off the tree). Nothing here
imports a format, a task or Inspect; the formats are ``coonbench.formats.python``.
"""

from __future__ import annotations

from coonbench.languages.base import Difference, Language, LanguageSyntaxError, register_language
from coonbench.languages.python.equivalence import ast_diff
from coonbench.languages.python.parse import syntax_error


class PythonLanguage(Language):
    """Python 3 as ``ast`` reads it (the running interpreter's grammar)."""

    name = "python"
    label = "Python"
    prompt_name = "Python"
    program_noun = "Python program"
    unit_noun = "Python function"
    extensions = (".py",)
    fence = "python"
    source_format = "python"
    plain_formats = frozenset({"python", "python-minified", "python-minifier"})

    def parse_error(self, source: str) -> LanguageSyntaxError | None:
        return syntax_error(source)

    def ast_diff(self, a: str, b: str) -> Difference | None:
        return ast_diff(a, b)


PYTHON = register_language(PythonLanguage())
