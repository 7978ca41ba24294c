"""Dart syntax trees (tree-sitter-dart): parsing, queries and AST equivalence, in one place.

This layer knows nothing of formats, tasks or Inspect.
"""

from coonbench.dart.parse import DartParseError, parse_dart

__all__ = ["DartParseError", "parse_dart"]
