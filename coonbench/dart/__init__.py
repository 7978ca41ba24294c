"""Dart syntax trees (tree-sitter-dart): parsing, queries and AST equivalence, in one place.

This layer knows nothing of formats, tasks or Inspect.
"""

from coonbench._native import use_source

use_source(__name__)  # before any compiled module is imported: a stale build runs from source

from coonbench.dart.equivalence import Difference, ast_diff, ast_equivalent  # noqa: E402
from coonbench.dart.parse import DartParseError, parse_dart  # noqa: E402

__all__ = ["DartParseError", "Difference", "ast_diff", "ast_equivalent", "parse_dart"]
