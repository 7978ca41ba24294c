"""Dart syntax trees (tree-sitter-dart): parsing, queries and AST equivalence, in one place.

This layer knows nothing of formats, tasks or Inspect.
"""

from coonbench.dart.equivalence import Difference, ast_diff, ast_equivalent
from coonbench.dart.parse import DartParseError, parse_dart

__all__ = ["DartParseError", "Difference", "ast_diff", "ast_equivalent", "parse_dart"]
