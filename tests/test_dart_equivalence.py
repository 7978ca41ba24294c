"""AST equivalence: what it ignores (comments, whitespace, trailing commas) and what it reports, with paths."""

from __future__ import annotations

import pytest

from coonbench.dart import DartParseError, ast_diff, ast_equivalent

BASE = """
import 'package:flutter/material.dart';

class Greeting extends StatelessWidget {
  const Greeting({super.key});

  @override
  Widget build(BuildContext context) {
    return Padding(
      padding: const EdgeInsets.all(16),
      child: Column(
        children: [
          Text('Hello'),
          Icon(Icons.star),
        ],
      ),
    );
  }
}
"""


def test_identical_and_reformatted_sources_are_equivalent() -> None:
    squashed = " ".join(BASE.split())
    commented = BASE.replace("return Padding(", "// the root\n    return /* pad */ Padding(")
    no_trailing = BASE.replace("),\n        ],", ")\n        ]").replace("),\n    );", ")\n    );")
    assert ast_diff(BASE, BASE) is None
    assert ast_equivalent(BASE, squashed)
    assert ast_equivalent(BASE, commented)
    assert no_trailing != BASE and ast_equivalent(BASE, no_trailing)


def test_changed_value_is_reported_with_named_argument_path() -> None:
    diff = ast_diff(BASE, BASE.replace("all(16)", "all(8)"))
    assert diff is not None
    assert "class_definition[Greeting]" in diff.path and "named_argument[padding]" in diff.path
    assert (diff.left, diff.right) == ("16", "8")


def test_missing_child_is_reported() -> None:
    diff = ast_diff(BASE, BASE.replace("          Icon(Icons.star),\n", ""))
    assert diff is not None
    assert "named_argument[child]" in diff.path and "named_argument[children]" in diff.path
    assert "Icon" in diff.left + diff.right


def test_swapped_order_is_reported() -> None:
    swapped = BASE.replace("Text('Hello'),\n          Icon(Icons.star),", "Icon(Icons.star),\n          Text('Hello'),")
    diff = ast_diff(BASE, swapped)
    assert diff is not None and "named_argument[children]" in diff.path
    assert "Icon" in diff.left + diff.right or "Text" in diff.left + diff.right


def test_extra_widget_is_reported() -> None:
    extra = BASE.replace("Icon(Icons.star),", "Icon(Icons.star),\n          Divider(),")
    diff = ast_diff(BASE, extra)
    assert diff is not None and "named_argument[children]" in diff.path
    assert diff.left == "<nothing>" or "Divider" in diff.right


def test_renamed_class_is_reported_at_the_class() -> None:
    diff = ast_diff(BASE, BASE.replace("class Greeting", "class Welcome"))
    assert diff is not None
    assert diff.path.startswith("program/class_definition[Greeting]")
    assert (diff.left, diff.right) == ("Greeting", "Welcome")


def test_string_quotes_and_adjacent_parts() -> None:
    assert not ast_equivalent("var a = 'x';", 'var a = "x";')
    assert ast_equivalent("var a = 'x' 'y';", "var a = 'x'\n   'y';")


def test_parse_errors_propagate_with_position() -> None:
    with pytest.raises(DartParseError) as err:
        ast_diff(BASE, "class {")
    assert err.value.line == 1


def test_fragments_compare_as_the_same_kind() -> None:
    assert ast_equivalent("Text('a')", "Text( 'a', )")
    assert not ast_equivalent("Text('a')", "Text('b')")
    diff = ast_diff("Text('a')", "var x = Text('a');")
    assert diff is not None and "expression" in diff.left
