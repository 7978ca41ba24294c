"""COON on current Dart: every construct tree-sitter-dart parses round-trips, and encode refuses loudly otherwise.

Each snippet is one construct (Dart 3.x: dot shorthands, digit separators, null-aware elements, records,
patterns, class modifiers, extension types, operators, symbols, strings with nested interpolation and comments,
metadata, cascades, null-aware spreads and other glued operators, the script tag, deep nesting). The expected
result is derived by code: encoded without the self-check, the decoded Dart must have the snippet's tokens as
Dart's scanner reads them (``tests/coon_oracle.py``) and keep its comments when they are kept.
"""

from __future__ import annotations

import pytest

from coonbench.dart import ast_diff
from coonbench.dart.parse import parse_unit
from coonbench.formats import FormatError
from coonbench.formats.coon import verifier
from coonbench.formats.coon import VERIFY_ENV, decode, encode
from tests.coon_oracle import token_difference

SNIPPETS: dict[str, str] = {
    "dot shorthand after an enum label": "Widget f() => Column(mainAxisAlignment: .center);",
    "dot shorthand constructor after a label": "Widget f() => Padding(padding: .all(8));",
    "dot shorthand after a colour label": "Widget f() => Container(color: .red, child: Text('a'));",
    "dot shorthand positional": "void f() { x(.center); }",
    "dot shorthand in Icon": "Widget f() => Icon(.home);",
    "dot shorthand in a declaration": "void f() { MainAxisAlignment a = .center; }",
    "dot shorthand returned": "MainAxisAlignment f() { return .start; }",
    "dot shorthand compared": "bool f(Color c) => c == .red;",
    "dot shorthand in a list": "var l = <Color>[.red, .blue];",
    "enum value kept in full": "Widget f() => Column(mainAxisAlignment: MainAxisAlignment.center);",
    "digit separators": "var big = 1_000_000; var h = 0xFF_FF; var d = 1__2.5_5e1_0;",
    "null-aware elements": "var l = [1, ?x, 2]; var m = {?a: ?b};",
    "records": "(int, String) f() => (1, 'a'); var r = (a: 1, b: 2); var (x, y) = f(); var one = (1,);",
    "patterns": "void f(Object o) { switch (o) { case [int a, _] when a > 0: print(a); case {'k': var v}: "
    "print(v); case Point(x: var px): print(px); default: } var s = switch (o) { int i => i, _ => 0 }; "
    "if (o case int n) print(n); }",
    "class modifiers": "sealed class A {} base class B {} interface class C {} final class D {} "
    "abstract mixin class E {} mixin class F {}",
    "extension type": "extension type Id(int value) implements Object { int get v => value; }",
    "operators": "class V { int operator [](int i) => i; void operator []=(int i, int v) {} "
    "V operator ~/(V o) => o; V operator -() => this; bool operator ==(Object o) => true; } "
    "var a = 7 ~/ 2; var b = -1 >>> 3; void g() { a >>>= 1; c ??= 2; }",
    "symbol operator": "var s = #+; var t = #[]=;",
    "null-aware spreads": "var m = {...?a, 'k': 1, ...b}; var l = [...?x, ...y]; var s = <int>{...?z};",
    "glued operators": "void f() { a?..b()..c(); x = a?.b ?? c?.d; y >>>= 1; z ??= 2; w = -(-1) - -1; "
    "v = a - --b; u = !(!t); q = a!.b; r = a! == b; p = a >> b >>> c; o = (a as List)?[0]; }",
    "script tag": "#!/usr/bin/env dart\nvoid main() {}",
    "symbol dotted": "var s = #foo.bar;",
    "symbol of a widget name": "var s = [#Text, Text('a')]; var t = #Text;",
    "symbol before a call": "var s = #Text(1);",
    "raw strings": r"var s = r'a$b\n'; var t = r'''x ' y''';",
    "multi-line string": "var s = '''a\n${b} ' \"\" c''';",
    "nested interpolation": "var s = 'a ${b ? 'c ${d} e' : \"f\"} g';",
    "quote in a block comment in interpolation": "var s = 'a ${b /* it's */} c';",
    "quote in a line comment in interpolation": "var s = '''a ${b // it's\n} c''';",
    "adjacent strings": "var s = 'a' \"b\" r'c';",
    "metadata": "@override\n@Deprecated('x')\nvoid f(@required int a) {}",
    "metadata before a record type": "class A extends B {\n  @override\n  (int, String) get pair => (1, 'a');\n"
    "  @M(1) void f() {}\n}",
    "dotted metadata before a record parameter": "void f(@a.b (int, int) x, @a.b.C(1) y) {}",
    "cascades": "var p = Paint()..color = Colors.red..strokeWidth = 2; var q = r?..a = 1..b = 2;",
    "comment inside an enum shorthand": "Widget f() => Container(color: Colors./* c */ red);",
    "comment before an enum member": "Widget f() => Container(color: /* c */ Colors.red);",
    "generic function": "T id<T extends Object?>(T x) => x; var f = id<int>;",
    "required this": "class A { late final int x; A({required this.x}); }",
    "enhanced enum": "enum E with M implements I { a(1), b(2); const E(this.v); final int v; }",
    "extension": "extension on String { int get n => length; }",
    "async generators": "Stream<int> f() async* { yield* g(); await for (var x in s) {} }",
    "typedef": "typedef F = void Function(int, {required String s});",
    "statement labels": "void f() { outer: for (;;) { break outer; } }",
    "nested generics": "Map<String, List<List<int>>> m = {};",
    "400 nested parentheses": "var a = " + "(" * 400 + "1" + ")" * 400 + ";",
    "400 nested calls": "var a = " + "f(" * 400 + "1" + ")" * 400 + ";",
}


@pytest.mark.parametrize("keep_comments", [False, True], ids=["coon", "coon-comments"])
@pytest.mark.parametrize("name", list(SNIPPETS))
def test_construct_round_trips(name: str, keep_comments: bool) -> None:
    source = SNIPPETS[name]
    parse_unit(source)  # the grammar parses it (else the snippet would not belong here)
    coon = encode(source, keep_comments=keep_comments, verify=False)
    back = decode(coon)
    assert token_difference(source, back, comments=keep_comments) is None, (coon, back)
    if keep_comments:
        assert [c for c in ("/* c */", "// it's", "/* it's */") if c in source] == [
            c for c in ("/* c */", "// it's", "/* it's */") if c in back
        ]


# bloc_test's style: the grammar reads ``t<A, int>(…)`` as a generic call without the last trailing comma, and as two
# comparisons (``t < A``, ``int > (…)``) with it.
AMBIGUOUS_CALL = """void main() {
  test('x', () async {
    await expectLater(
      () => t<A, int>(
        build: () => B(),
        expect: () => const <int>[1],
      ),
      throwsA(isA<E>()),
    );
  });
}
"""


def test_a_trailing_comma_only_the_grammar_reads_is_dropped() -> None:
    """tree-sitter-dart reads ``f(() => g<A, B>(x), y,)`` as comparisons but ``f(() => g<A, B>(x), y)`` as a generic
    call; for Dart the two are the same tokens, so the same program, and the self-check, which reads tokens, keeps
    the COON without the comma."""
    without = AMBIGUOUS_CALL.replace("()),\n    );", "()))\n    ;")
    assert str(parse_unit(AMBIGUOUS_CALL).root) != str(parse_unit(without).root)  # the comma changes the tree
    assert token_difference(AMBIGUOUS_CALL, without) is None  # not the tokens
    coon = encode(AMBIGUOUS_CALL)
    assert "isA<E>()))" in coon and coon == encode(AMBIGUOUS_CALL, verify=False)  # that comma dropped
    assert token_difference(AMBIGUOUS_CALL, decode(coon)) is None


def test_a_lost_annotation_gap_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the gap, ``@override (int, String) get pair`` would decode as an annotation with two arguments: the
    self-check's token comparison reads the gap (``scan.comparable``) and names the ``(``."""
    source = SNIPPETS["metadata before a record type"]
    assert "@override (int" in encode(source)
    _corrupting(monkeypatch, "@override (", "@override(")  # an encoder that loses the gap
    with pytest.raises(FormatError) as info:
        encode(source)
    assert "annotation" in info.value.message and (info.value.line, info.value.column) == (3, 3)


def test_grammar_rejection_says_so() -> None:
    with pytest.raises(FormatError) as info:
        encode("var x = ;")
    assert "tree-sitter-dart rejects" in info.value.message and info.value.line == 1


def _corrupting(monkeypatch: pytest.MonkeyPatch, old: str, new: str) -> None:
    """Make the unverified encoder wrong on purpose (as an encoder bug would be)."""
    real = verifier.encode_unit
    monkeypatch.setattr(verifier, "encode_unit", lambda unit, **kw: real(unit, **kw).replace(old, new))


def test_a_wrong_encoding_is_refused_with_construct_and_position(monkeypatch: pytest.MonkeyPatch) -> None:
    source = "void f() {\n  var a = 1;\n  var b = 22;\n}\n"
    _corrupting(monkeypatch, "22", "23")
    with pytest.raises(FormatError) as info:
        encode(source)
    err = info.value
    assert (err.line, err.column) == (3, 11)
    assert "token" in err.message and "'22'" in err.message and "'23'" in err.message
    assert encode(source, verify=False).count("23") == 1  # the switch really turns the check off
    monkeypatch.setenv(VERIFY_ENV, "0")
    assert "23" in encode(source)
    monkeypatch.setenv(VERIFY_ENV, "1")
    with pytest.raises(FormatError):
        encode(source)


def test_a_lost_token_is_refused_at_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    source = "var a = [\n  1,\n  x.y,\n];"
    _corrupting(monkeypatch, "x.y", "x.")
    with pytest.raises(FormatError) as info:
        encode(source)
    assert info.value.line == 3 and "cannot represent" in info.value.message


def test_a_lost_comment_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    source = "var a = 1; // one\nvar b = 2;"
    _corrupting(monkeypatch, "// one", "// two")
    with pytest.raises(FormatError) as info:
        encode(source, keep_comments=True)
    assert (info.value.line, info.value.column) == (1, 12) and "comment" in info.value.message
    assert encode(source) == encode(source, keep_comments=False)  # comments dropped: nothing to compare
