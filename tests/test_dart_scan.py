"""The Dart scanner written from the language specification (``coonbench.dart.scan``): its rules one by one, its
agreement with tree-sitter's leaves on every real corpus we hold (each disagreement decided by the specification
and kept here as a case), and the minifier's spacing rule checked against it on every pair of real tokens."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from coonbench.dart.minify import join_tokens, needs_space
from coonbench.dart.parse import parse_unit
from coonbench.dart.query import unit_tokens
from coonbench.dart.scan import (
    DartScanError,
    comparable,
    first_difference,
    insignificant_commas,
    scan,
    token_texts,
)
from coonbench.dart.strings import string_parts
from coonbench.resources import REPO_ROOT, SHARED_DIR

CORPORA = {"data/dart": REPO_ROOT / "data" / "dart", "dart-real": SHARED_DIR / "reference" / "dart-real"}


def _corpus(name: str) -> list[Path]:
    root = CORPORA[name]
    if not root.exists():
        pytest.skip(f"{root} is absent (the shared reference data is not mounted)")
    files = sorted(root.rglob("*.dart"))
    assert files, f"no .dart files under {root}"
    return files


def _kinds(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in scan(text)]


@pytest.mark.parametrize(
    ("source", "tokens"),
    [
        ("{...?a}", ["{", "...?", "a", "}"]),
        ("[... ?a]", ["[", "...", "?", "a", "]"]),
        ("a?..b()..c", ["a", "?..", "b", "(", ")", "..", "c"]),
        ("a?.b", ["a", "?.", "b"]),
        ("x>>>=1", ["x", ">>>=", "1"]),
        ("x>>>y>>z", ["x", ">>>", "y", ">>", "z"]),
        ("x??=y??z", ["x", "??=", "y", "??", "z"]),
        ("a~/=b~/c", ["a", "~/=", "b", "~/", "c"]),
        ("a--->b", ["a", "--", "-", ">", "b"]),
        ("a+++b", ["a", "++", "+", "b"]),
        ("a=>b==c!=d", ["a", "=>", "b", "==", "c", "!=", "d"]),
        ("f() async* {}", ["f", "(", ")", "async", "*", "{", "}"]),
        ("List<List<int>>", ["List", "<", "List", "<", "int", ">>"]),
        ("#foo.bar", ["#", "foo", ".", "bar"]),
        ("@override", ["@", "override"]),
        ("1.isEven", ["1", ".", "isEven"]),
        ("1..isEven", ["1", "..", "isEven"]),
        ("x=.5e-3+1.5E+2+0xFF_FF+1__000", ["x", "=", ".5e-3", "+", "1.5E+2", "+", "0xFF_FF", "+", "1__000"]),
        ("1_", ["1", "_"]),
        ("1.e5", ["1", ".", "e5"]),
        ("R'a'", ["R", "'a'"]),
        ("a\\b", None),
    ],
)
def test_maximal_munch(source: str, tokens: list[str] | None) -> None:
    if tokens is None:
        with pytest.raises(DartScanError):
            scan(source)
        return
    assert token_texts(source) == tokens


def test_strings_are_one_token_with_their_interpolations() -> None:
    assert _kinds("""s='a${b + '${c["}"]}' }d';""") == [
        ("identifier", "s"),
        ("operator", "="),
        ("string", """'a${b + '${c["}"]}' }d'"""),
        ("operator", ";"),
    ]
    raw = r"""r'\$x${' "x\"y" '''one""" + "\n'two'''"
    # raw: no escape and no interpolation; an escaped quote; a lone quote inside a multi-line literal
    assert token_texts(raw) == [r"r'\$x${'", r'"x\"y"', "'''one\n'two'''"]
    assert [t.kind for t in scan("'a' 'b'")] == ["string", "string"]  # adjacent literals: two tokens
    assert token_texts("'${'}'}'") == ["'${'}'}'"]  # a quote inside ``${}`` opens a nested string
    assert token_texts("'${/* } ' */ 1}'") == ["'${/* } ' */ 1}'"]  # and a comment there hides its brace
    assert token_texts(r'"$a$b\$c"') == [r'"$a$b\$c"']


def test_comments_nest_and_are_tokens_of_their_own() -> None:
    source = "a /* x /* y */ z */ b // c\n/// doc\n/** d */ c"
    assert _kinds(source) == [
        ("identifier", "a"),
        ("comment", "/* x /* y */ z */"),
        ("identifier", "b"),
        ("comment", "// c"),
        ("comment", "/// doc"),
        ("comment", "/** d */"),
        ("identifier", "c"),
    ]
    assert token_texts(source) == ["a", "b", "c"]


def test_script_tag_only_at_the_start() -> None:
    assert _kinds("#!/usr/bin/env dart\nmain() {}")[:2] == [("script", "#!/usr/bin/env dart"), ("identifier", "main")]
    assert _kinds("\ufeff#!x\n")[0] == ("script", "#!x")
    assert token_texts("x #!y") == ["x", "#", "!", "y"]  # anywhere else: two tokens


@pytest.mark.parametrize(
    "source", ["'abc", "'a\nb'", "'''abc", "/* /* */", "'${'", "'${x", "a \u2206 b", "'\\", "\"${'${\"", "é = 1"]
)
def test_malformed_text_raises_with_an_offset(source: str) -> None:
    with pytest.raises(DartScanError) as err:
        scan(source)
    assert 0 <= err.value.offset < len(source)


def test_deep_nesting_is_iterative_and_linear() -> None:
    depth = 20_000
    nested = "'${" * depth + "1" + "}'" * depth
    start = time.process_time()
    assert token_texts(nested) == [nested]
    comments = "/*" * depth + "*/" * depth
    assert [t.kind for t in scan(comments)] == ["comment"]
    assert time.process_time() - start < 5  # a quadratic scan of 120,000 characters would take minutes


def test_comparable_ignores_what_dart_ignores_and_keeps_what_it_reads() -> None:
    assert first_difference("f(a, b,);", "f(a,b);") is None  # trailing comma
    assert first_difference("f(a, /* c */);", "f(a);") is None
    assert first_difference("List<List<int> > x;", "List<List<int>>x;") is None  # closers Dart's parser splits
    assert first_difference("A<B<C<D>>\n>\n> x;", "A<B<C<D>>> >x;") is None  # any split of a closing run
    assert first_difference("List<List<int>> x;", "List<List<int> > x;") == (13, ">>", "> >")  # only the source's
    assert first_difference("a >> b;", "a > > b;") == (2, ">>", "> >")  # a shift is not two closers
    assert first_difference("a >>> b;", "a > >> b;") == (2, ">>>", "> >>")
    assert first_difference("{...?a}", "{... ?a}") == (1, "...?", "...")
    assert first_difference("@x (int, int) get p;", "@x(int, int) get p;") == (3, " (", "(")  # record vs arguments
    assert first_difference("@a.b (1) f;", "@a.b (1) f;") is None
    assert first_difference("@x/* c */(int, int) get p;", "@x(int, int) get p;") == (9, " (", "(")  # a comment too
    assert first_difference("f(1, 2);", "f(1, 2) ;") is None
    assert first_difference("f(1);", "f(1);;") == (5, "<end>", ";")  # offset: the end of the source
    assert first_difference("// a\nx;", "// b\nx;", comments=True) == (0, "// a", "// b")
    assert first_difference("(1,);", "(1);", loose=False) == (2, ",", ")")  # a record is not a parenthesis
    assert comparable(scan("a >> b"), loose=False)[0] == ["a", ">>", "b"]


# (source, the same with its trailing comma dropped, whether Dart reads them alike): ``insignificant_commas``
TRAILING_COMMAS = [
    ("f(1,);", "f(1);", True),  # arguments
    ("a.when(x,);", "a.when(x);", True),  # a member named like a keyword
    ("void f(int a,) {}", "void f(int a) {}", True),  # parameters
    ("g((t,) async {});", "g((t) async {});", True),  # a function literal's parameters
    ("g((t,) => t);", "g((t) => t);", True),
    ("var l = [1,], s = {1,};", "var l = [1], s = {1};", True),  # collections
    ("var r = (1, 2,);", "var r = (1, 2);", True),  # records of more than one field
    ("f((a: 1,));", "f((a: 1));", True),  # a named field makes a record either way
    ("var (:a,) = r;", "var (:a) = r;", True),
    ("var r = (1,);", "var r = (1);", False),  # a record, a parenthesised expression
    ("return (x,);", "return (x);", False),
    ("(int,) f() {}", "(int) f() {}", False),  # a record type
    ("@x (int,) get p;", "@x (int) get p;", False),  # detached from the annotation: a record type
    ("try {} on (int,) {}", "try {} on (int) {}", False),
    ("var v = switch (p) { (var a,) => a };", "var v = switch (p) { (var a) => a };", False),  # a record pattern
    ("var (a,) = r;", "var (a) = r;", False),
    ("List<(int,)> l;", "List<(int)> l;", False),
    ("g<T>((1,));", "g<T>((1));", False),
    ("g<T>(x,);", "g<T>(x);", False),  # not told from ``a > (x,)``: the comma counts
    ("when(x,);", "when(x);", False),  # not told from a guard's ``when (x,)``: the comma counts
]


@pytest.mark.parametrize(("source", "dropped", "alike"), TRAILING_COMMAS)
def test_a_trailing_comma_counts_where_it_makes_a_record(source: str, dropped: str, alike: bool) -> None:
    found = first_difference(source, dropped)
    assert (found is None) == alike, found
    if not alike:
        assert found is not None and found[1:] == (",", ")") and source[found[0]] == ","
    assert first_difference(source, source) is None


def _tree_sitter_texts(source: str) -> list[str]:
    """tree-sitter's leaves as the codecs read them (``unit_tokens``), adjacent string literals split apart."""
    out: list[str] = []
    for tok in unit_tokens(parse_unit(source), comments=True):
        out.extend(string_parts(tok.text) if tok.type == "string_literal" else [tok.text])
    return out


_DECIDED = {
    # tree-sitter's leaves → the specification's tokens; each case is in ``test_maximal_munch`` above
    ("async*",): ["async", "*"],  # ``async *`` is legal: two tokens
    ("sync*",): ["sync", "*"],
}


def _spec_view(texts: list[str]) -> list[str]:
    """Leaves in the specification's terms: ``async*``/``sync*`` are two tokens, and closing ``>`` runs compare one
    by one (the grammar gives each closer of ``List<List<int>>``, Dart's scanner ``>>``, which its parser splits)."""
    out: list[str] = []
    for text in texts:
        if (text,) in _DECIDED:
            out.extend(_DECIDED[(text,)])
        elif len(text) > 1 and set(text) == {">"}:
            out.extend(">" * len(text))
        else:
            out.append(text)
    return out


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_scanner_agrees_with_tree_sitter_on_real_code(corpus: str) -> None:
    """Every real file: the codecs' token stream (tree-sitter's leaves) is the specification's, up to ``_DECIDED``.
    tree-sitter's own leaves for ``...?a`` are ``...`` and ``?``; the walk glues them as Dart's scanner reads them
    (``test_spread_of_a_nullable_is_one_token``)."""
    checked = 0
    for path in _corpus(corpus):
        source = path.read_text(encoding="utf-8")
        leaves = _spec_view(_tree_sitter_texts(source))
        tokens = _spec_view(token_texts(source, comments=True))
        where = next((k for k, (a, b) in enumerate(zip(leaves, tokens)) if a != b), min(len(leaves), len(tokens)))
        assert leaves == tokens, (path, leaves[where - 3 : where + 3], tokens[where - 3 : where + 3])
        checked += 1
    assert checked > 50


_RECORDS = ("record_literal", "record_type", "record_pattern")


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_every_one_field_record_comma_in_real_code_counts(corpus: str) -> None:
    """Cross-check of ``insignificant_commas`` (read from the tokens) with tree-sitter (read from the grammar): every
    trailing comma of a record, record type or record pattern of one positional field counts, and the rule lets
    the encoder drop nearly every other trailing comma (it keeps one where the tokens cannot tell)."""
    records = other = other_kept = 0
    for path in _corpus(corpus):
        toks = unit_tokens(parse_unit(path.read_text(encoding="utf-8")), comments=False)
        dropped = insignificant_commas([t.text for t in toks])
        for k, tok in enumerate(toks[:-1]):
            if tok.text != "," or toks[k + 1].text not in (")", "]", "}"):
                continue
            group = tok.node.parent
            fields = [c for c in group.named_children if c.type != "comment"]
            named = any(c.type == "label" or (c.child_count and c.children[0].type == "label") for c in fields)
            if tok.parent in _RECORDS and [c.type for c in group.children].count(",") == 1 and not named:
                records += 1
                assert k not in dropped, (path, tok.node.start_point)
            else:
                other += 1
                other_kept += k not in dropped
    assert other > 500 and other_kept <= other // 50, (other, other_kept)
    if corpus == "dart-real":
        assert records > 0  # flutter/samples has one-field records: the cross-check is not empty


def _class(kind: str, text: str) -> tuple[str, ...]:
    """Pairs are deduplicated by what the spacing rule can see of a word, number or string: its kind and the
    characters at its two ends (operators and punctuation are kept as written)."""
    if kind in ("identifier", "number", "string", "comment"):
        return (kind, text[:2], text[-1])
    return (kind, text)


def _real_pairs() -> Iterator[tuple[str, str]]:
    seen: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for name, root in CORPORA.items():
        if not root.exists():
            continue
        for path in sorted(root.rglob("*.dart")):
            code = [t for t in scan(path.read_text(encoding="utf-8")) if t.kind != "script"]
            for left, right in zip(code, code[1:]):
                key = (_class(left.kind, left.text), _class(right.kind, right.text))
                if key not in seen:
                    seen.add(key)
                    yield left.text, right.text


def test_every_real_token_pair_joined_by_the_minifiers_rule_scans_back() -> None:
    """The class of ``...?``: two tokens written next to each other with or without a space, as ``needs_space``
    says, must read back as those two tokens — for every pair of token kinds and texts seen in real code, and for
    the glued operators whose halves never stand side by side in valid code."""
    pairs = list(_real_pairs())
    assert len(pairs) > 1000
    glued = ["...", "?", "..", "?.", ".", ">", ">>", ">=", "=", "?", "??", "-", "--", "+", "++", "!", "~/", "/", "*",
             "<", "<<", "&", "|", "&&", "||", "^", "%", "~", "=>", "==", "!="]
    pairs += [(a, b) for a in glued for b in glued]
    wrong = []
    for left, right in pairs:
        joined = join_tokens([left, right])
        if token_texts(joined, comments=True) != [left, right]:
            wrong.append((left, right, joined, needs_space(left, right)))
    assert not wrong, wrong[:20]


def test_spread_of_a_nullable_is_one_token() -> None:
    """tree-sitter's leaves for ``...?a`` are ``...`` and ``?`` (and it parses ``... ?a`` alike); the walk glues them
    where they touch, as Dart's scanner reads them, so every codec writes ``...?a`` back."""
    glued = [t.text for t in unit_tokens(parse_unit("var l = [...?a, ...b];"))]
    assert glued == ["var", "l", "=", "[", "...?", "a", ",", "...", "b", "]", ";"]
    apart = [t.text for t in unit_tokens(parse_unit("var l = [... ?a];"))]  # not Dart, but tree-sitter's leaves
    assert apart[4:7] == ["...", "?", "a"]
