"""AST equivalence: what it ignores (comments, whitespace, trailing commas) and what it reports, with paths."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from coonbench.dart import DartParseError, ast_diff, ast_equivalent
from coonbench.dart.equivalence import _compare, scan
from coonbench.dart.parse import parse_unit
from coonbench.formats import FormatError
from coonbench.formats.coon import decode, encode
from tests.conftest import reference_path
from tests.test_coon_mutations import _mutate
from tests.test_coon_mutations import _sources as _real_sources

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


# --- the fast path: equal shapes must mean what the full comparison means ----------------------------------------

PAIRS_EQUAL = [
    ("f(a, b,);", "f(a, b);"),  # a trailing comma
    ("var l = [1, 2,];", "var l = [1, 2 /* c */];"),
    ("var a = 'x' 'y';", "var a = 'x'\n   'y';"),  # adjacent literals laid out differently
    ("/// doc\nclass A {}", "class A {} // c"),
]
PAIRS_DIFFERENT = [
    ("var a = 'x';", 'var a = "x";'),  # the quote is part of the token
    ("f(a, b);", "f(b, a);"),
    ("var x = a - -b;", "var x = a - b;"),
    ("var x = (a);", "var x = a;"),
    ("var l = [1, 2];", "var l = [1, 2, 3];"),
    ("f(a,) {}", "f(a) {} g() {}"),
    ("var x = a ?? b;", "var x = a ?? (b);"),
]


def _verdicts(a: str, b: str) -> tuple[bool, bool]:
    """(the fast path says equal, the full comparison finds no difference)."""
    ua, ub = parse_unit(a), parse_unit(b, None)
    return scan(ua.root).shape == scan(ub.root).shape, _compare(ua.root, ub.root, "program") is None


@pytest.mark.parametrize(("a", "b"), PAIRS_EQUAL + PAIRS_DIFFERENT)
def test_fast_path_agrees_with_the_full_comparison(a: str, b: str) -> None:
    fast, full = _verdicts(a, b)
    assert fast == full == ((a, b) in PAIRS_EQUAL), (a, b)


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 3))
def test_fast_path_never_calls_different_real_trees_equal(seed: int, steps: int) -> None:
    """Mutated real files (renames, reordered arguments, comments, strings, dot shorthands, nesting) against their
    source and against their COON round trip (unverified, so a codec slip would show): whenever the shapes are equal,
    the full comparison agrees."""
    rng = random.Random(seed)
    source = rng.choice(_real_sources())
    mutant = _mutate(source, rng, steps)
    try:
        parse_unit(mutant)
    except DartParseError:
        assume(False)
    pairs = [(source, mutant)]
    try:
        pairs.append((mutant, decode(encode(mutant, verify=False))))
    except FormatError:
        pass
    for a, b in pairs:
        try:
            fast, full = _verdicts(a, b)
        except DartParseError:
            continue  # an unverified round trip that does not parse: nothing to compare
        assert full or not fast, (a, b)


def test_fast_path_decides_every_real_round_trip() -> None:
    """On the development set the fast path alone confirms every COON round trip (else it buys no speed)."""
    sources = [p.read_text(encoding="utf-8") for p in sorted(reference_path("dart-real").rglob("*.dart"))]
    checked = 0
    for source in sources:
        try:
            back = decode(encode(source))
        except FormatError:
            continue
        fast, full = _verdicts(source, back)
        assert fast and full, source[:200]
        checked += 1
    assert checked >= 0.995 * len(sources)


RECORD_GETTER = "class A extends B {\n  @override\n  (int, int) get pair => (1, 2);\n}\n"


@pytest.mark.parametrize(
    ("other", "same"),
    [
        ("class A extends B { @override(int, int) get pair => (1, 2); }", False),  # an annotation with arguments
        ("class A extends B { @override (int, int) get pair => (1, 2); }", True),
    ],
)
def test_a_gap_after_an_annotation_name_is_significant(other: str, same: bool) -> None:
    """Dart reads ``@x(`` as the annotation's arguments and ``@x (`` as what follows; the grammar gives one tree."""
    assert str(parse_unit(RECORD_GETTER).root) == str(parse_unit(other).root)
    diff = ast_diff(RECORD_GETTER, other)
    assert (diff is None) == same
    if diff is not None:
        assert diff.construct == "annotation" and (diff.line, diff.column) == (2, 4)


def test_minify_keeps_the_annotation_gap() -> None:
    from coonbench.dart.minify import minify

    small = minify(RECORD_GETTER + "@M(1) void f() {}\n")
    assert "@override (int,int)" in small and "@M(1)" in small
    assert ast_diff(RECORD_GETTER + "@M(1) void f() {}\n", small) is None
