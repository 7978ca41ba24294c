"""The encoder's self-check reads the decoded Dart with Dart's own lexical rules (``coonbench.dart.scan``), not with
tree-sitter: what the grammar reads alike (``{...?a}`` and ``{... ?a}``) is refused, a record's trailing comma and
a shift's glued ``>>`` count, and what only tree-sitter reads otherwise (the same tokens, another tree) is kept."""

from __future__ import annotations

import pytest

from coonbench.dart import ast_diff
from coonbench.dart.minify import minify
from coonbench.dart.parse import DartParseError
from coonbench.formats import FormatError, get_format
from coonbench.formats.coon import decode, encode
from coonbench.formats.coon.verifier import check_roundtrip
from tests.coon_oracle import token_difference, tree_difference

SPREADS = "var m = {...?a, 'k': 1};\nvar l = [...?x, ...y];\n"
GLUED = (
    "void f() { a?..b()..c(); x = a?.b ?? c; y >>>= 1; z ??= 2; w = -(-1) - -1; v = a - --b; q = a!.b; "
    "p = a >> b >>> c; o = x?[0]; var s = {...?m}; }"
)


def test_the_grammar_reads_a_broken_spread_alike_and_the_scanner_does_not() -> None:
    broken = "var m = {... ?a, 'k': 1};\nvar l = [... ?x, ...y];\n"  # what COON decoded before the walk glued '...?'
    assert ast_diff(SPREADS, broken) is None  # tree-sitter: the same tree
    assert token_difference(SPREADS, broken) == "offset 9: '...?' came back as '...'"


def test_a_coon_that_decodes_to_a_broken_spread_is_refused() -> None:
    check_roundtrip(SPREADS, encode(SPREADS), False)  # the encoder's own COON passes
    with pytest.raises(FormatError) as info:
        check_roundtrip(SPREADS, "var m={... ?a,'k':1};var l=[...?x,...y];", False)
    assert "'...?'" in info.value.message and (info.value.line, info.value.column) == (1, 10)


@pytest.mark.parametrize("fmt", ["coon", "coon-comments", "dart-minified"])
@pytest.mark.parametrize("source", [SPREADS, GLUED, "#!/usr/bin/env dart\n// hi\nvoid main() => print(1);\n"])
def test_glued_tokens_and_the_script_tag_survive_every_compact_format(fmt: str, source: str) -> None:
    if fmt == "dart-minified":
        out = back = get_format(fmt).encode(source)
    else:
        out = encode(source, keep_comments=fmt == "coon-comments", verify=False)
        back = decode(out)
    assert token_difference(source, back, comments=fmt == "coon-comments") is None, (out, back)
    # ``minify`` checked its output with the scanner above before returning it: tree-sitter is the reader that can
    # still disagree (it reads ``...?a``, ``a- --b`` and ``>>`` the way the scanner does, by its own rules)
    assert tree_difference(source, back, comments=fmt == "coon-comments") is None, (out, back)
    if "#!" in source:
        assert back.startswith("#!/usr/bin/env dart\n") and out.startswith("#!/usr/bin/env dart\n")
    assert "...?" in back or "...?" not in source


def test_minify_of_a_spread_writes_one_token() -> None:
    assert minify(SPREADS) == "var m={...?a,'k':1};var l=[...?x,...y];"


def test_tree_sitter_misreading_is_accepted_when_the_tokens_are_the_same() -> None:
    """The check reads Dart's tokens only, so whatever tree tree-sitter makes of a file (here: the tree of another
    program, ``f(y)`` for ``f(x)``) cannot refuse it: the decoded Dart that is the source token for token passes;
    with another token it does not."""
    source = "var a = f(x);\n"
    check_roundtrip(source, encode(source), False)
    with pytest.raises(FormatError):
        check_roundtrip(source, "var a=f(z);", False)
    assert ast_diff(source, "var a = f(y);\n") is not None  # the stand-in really is another tree


# (source, a COON that decodes to another program, the source token named, line, column, whether tree-sitter
# tells the two apart): each error the tree comparison was kept for, caught by the token comparison alone
PLANTED = [
    ("var r = (1,);\n", "var r=(1);", "','", 1, 11, True),  # a one-field record decoded as a parenthesis
    ("var v = switch (p) { (var a,) => a };\n", "var v=switch(p){(var a)=>a};", "','", 1, 28, True),  # a pattern
    ("(int,) f() => g();\n", "(int)f()=>g();", "','", 1, 5, False),  # a record type: the grammar reads both alike
    ("var s = a >> b;\n", "var s=a> >b;", "'>>'", 1, 11, True),  # a shift decoded as two ``>``
    ("var s = a >>> b;\n", "var s=a>> >b;", "'>>>'", 1, 11, True),
]


def _tree_differs(source: str, decoded: str) -> bool:
    try:
        return ast_diff(source, decoded) is not None
    except DartParseError:
        return True


@pytest.mark.parametrize(("source", "coon", "token", "line", "column", "tree_sees"), PLANTED)
def test_each_error_the_tree_comparison_caught_is_caught_by_the_tokens(
    source: str, coon: str, token: str, line: int, column: int, tree_sees: bool
) -> None:
    check_roundtrip(source, encode(source), False)  # the encoder's own COON passes
    assert _tree_differs(source, decode(coon)) == tree_sees
    with pytest.raises(FormatError) as info:
        check_roundtrip(source, coon, False)
    assert token in info.value.message and (info.value.line, info.value.column) == (line, column)


def test_spaced_closers_of_the_source_are_kept_joined() -> None:
    """``dart format`` breaks long type arguments before a ``>``; COON writes ``>>`` and the check accepts it."""
    source = "Map<String, List<int>\n  > m = {};\nvar s = a >> b;\n"
    coon = encode(source)
    assert ">>" in decode(coon) and token_difference(source, decode(coon)) is None
