"""COON v3 per-document aliases (``\\x`` defines, ``\\N`` repeats): lossless, cheaper, and loud when malformed.

Expected results are derived by code: the round trip is made without the encoder's self-check and read back by
Dart's scanner (``tests/coon_oracle.py``), and the saving is measured against the same encoder with the dictionary
switched off.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coonbench.formats.coon import encoder as codec
from coonbench.formats.coon.lexer import CTok, lex
from coonbench.formats.coon.tables import ALIAS_WORDS
from coonbench.formats.coon.verifier import check_roundtrip
from coonbench.formats.base import FormatError
from coonbench.formats.coon import decode, encode, validate
from coonbench.tokens import count_tokens
from tests.coon_oracle import unverified_roundtrip

REPEATED = """import 'package:provider/provider.dart';
class CatalogModel {
  final List<String> selectedItemNames = [];
  void add(String name) {
    selectedItemNames.add(name);
    print(selectedItemNames.length);
    print('a long repeated message string');
    print('a long repeated message string');
    print('a long repeated message string');
    selectedItemNames.clear();
  }
}
"""


def _refs(coon: str) -> list[CTok]:
    return [t for t in lex(coon) if t.kind in ("def", "ref")]


def _plain(source: str, keep_comments: bool = False, short_uris: bool = True) -> str:
    """The document without the dictionary (and without short URIs), checked as ``encode`` checks its own."""
    unit = codec.parse_source(source)
    text = codec.encode_unit(unit, keep_comments=keep_comments, dictionary=False, short_uris=short_uris)
    check_roundtrip(source, text, keep_comments)
    return text


def test_repeats_are_aliased_and_round_trip() -> None:
    coon, wrong = unverified_roundtrip(REPEATED)
    toks = lex(coon)
    assert any(t.kind == "def" for t in toks)
    assert any(t.kind == "ident" and t.text == ALIAS_WORDS[0] for t in toks)  # alias 1 repeated as its word
    assert wrong is None, wrong
    plain = _plain(REPEATED)
    assert "\\" not in plain
    assert count_tokens(coon) < count_tokens(plain)
    # the aliased document decodes to exactly the same Dart as the one written out in full
    assert decode(coon) == decode(plain)


ADVERSARIAL = [
    # strings that contain the alias syntax, written several times (stay verbatim; may themselves be aliased)
    "void f() { print('\\\\1 and \\\\2'); print('\\\\1 and \\\\2'); print('\\\\1 and \\\\2'); print(r'\\1\\x'); "
    "print(r'\\1\\x'); print(r'\\1\\x'); print(\"\\\\'q\"); }",
    # identifiers spelled like COON words in positions that need escapes, repeated (escaped words aliased)
    "Object T(Object x) => x; void g(Object W) { T(T(T(W))); T(W); T(W); }",
    "Map<String, int> m(int c, int d) => {'c': c, 'd': d, 'cc': c, 'dd': d};"
    " void h() { f(d: 1, someLongNamedArgument: 2); f(d: 3, someLongNamedArgument: 4);"
    " f(someLongNamedArgument: 5, d: 6); }",
    # identifiers with $ and _ and digits, next to numbers and dots
    "var $longIdentifier1 = 1; var _privateLongName2 = 2; void k() { $longIdentifier1 = _privateLongName2 + 1;"
    " _privateLongName2 = $longIdentifier1 * 2; print([$longIdentifier1, _privateLongName2, 3.5, .5]); }",
    # adjacent string runs (never aliased as a whole), annotations and symbols of a repeated name (never aliased)
    "@SomeLongAnnotationName() class A {} @SomeLongAnnotationName() class B {} @SomeLongAnnotationName() class C {}"
    " var s = #someLongSymbolName; var t = #someLongSymbolName; var u = #someLongSymbolName;"
    " var x = 'first part here' 'second part here'; var y = 'first part here' 'second part here';"
    " var z = 'first part here' 'second part here';",
    # interpolations with repeated names inside and outside strings
    "void p(String someLongVariableName) { print('${someLongVariableName}x$someLongVariableName');"
    " print(someLongVariableName); print(someLongVariableName); }",
]


@pytest.mark.parametrize("source", ADVERSARIAL)
@pytest.mark.parametrize("keep", [False, True])
def test_adversarial_sources_round_trip(source: str, keep: bool) -> None:
    coon, wrong = unverified_roundtrip(source, keep_comments=keep)
    assert wrong is None, wrong
    assert validate(coon) == []


def test_comments_with_backslashes_kept() -> None:
    source = (
        "// \\1 is not an alias here\nvoid f() { someLongFunctionName(); /* \\x \\2 */ someLongFunctionName();"
        " someLongFunctionName(); }"
    )
    coon = encode(source, keep_comments=True)
    assert any(t.kind == "ident" and t.text == ALIAS_WORDS[0] for t in lex(coon))
    assert decode(coon) == decode(_plain(source, keep_comments=True))


def test_hand_written_aliases_read_as_the_lexeme() -> None:
    assert decode("final \\items=[];\\1.add(x);") == decode("final items=[];items.add(x);")
    # an alias of a label word / widget word reads by position exactly like the word itself
    assert decode("\\C(\\c \\T('a'),\\2 \\3('b'))") == decode("C(c T('a'),c T('b'))")
    assert decode("\\`T(\\1(x))") == decode("`T(`T(x))")
    assert decode("import \\'package:a/a.dart';var x=\\1;") == decode("import 'package:a/a.dart';var x='package:a/a.dart';")


@pytest.mark.parametrize(
    ("coon", "line", "column", "fragment"),
    [
        ("var x=\\1;", 1, 7, "not defined"),
        ("var \\x=1;\nvar y=\\2;", 2, 7, "not defined"),
        ("var x=\\ 1;", 1, 7, "bad prefix"),
        ("f(\\(1));", 1, 3, "bad prefix"),
        ("var x=1;\\", 1, 9, "bad prefix"),
        ("var x=\\#m;", 1, 7, "bad prefix"),
        ("var x=\\99999999999999999999;", 1, 7, "not defined"),
    ],
)
def test_malformed_aliases_are_positioned_errors(coon: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(FormatError) as info:
        decode(coon)
    assert (info.value.line, info.value.column) == (line, column)
    assert fragment in info.value.message
    errors = validate(coon)
    assert errors and (errors[0].line, errors[0].column) == (line, column)


def test_ref_followed_by_number_or_word_keeps_apart() -> None:
    toks = [
        CTok("def", "\\", 0, 0), CTok("ident", "someName", 0, 0), CTok("ref", "1", 0, 0), CTok("num", "2", 0, 0),
        CTok("ref", "1", 0, 0), CTok("num", ".5", 0, 0), CTok("ref", "1", 0, 0), CTok("ident", "x", 0, 0),
        CTok("ref", "1", 0, 0), CTok("op", ".", 0, 0),
    ]
    text = codec._join(toks)
    assert [(t.kind, t.text) for t in lex(text)] == [(t.kind, t.text) for t in toks]


_NAMES = ["T", "W", "c", "d", "ctx", "someLongName", "_another_long_name", "$dollarName", "children", "Text"]
_STRINGS = ["'\\\\1'", "r'\\2'", "'a \\\\ b'", "'package:x/x.dart'", "\"q'uote\"", "'$someLongName'"]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(_NAMES), st.sampled_from(_STRINGS), st.sampled_from(_NAMES)),
                min_size=1, max_size=12))
def test_generated_repetitions_round_trip(rows: list[tuple[str, str, str]]) -> None:
    body = " ".join(f"{a}({b}, {c}); f({a}: {c}); var v{k} = [{a}, {b}, {c}];" for k, (a, b, c) in enumerate(rows))
    source = f"void main() {{ {body} }}"
    coon, wrong = unverified_roundtrip(source)
    assert wrong is None, (wrong, coon)


def _grammar_words_with_symbols() -> list[str]:
    """Keywords of the Dart grammar that are not identifiers (``async*``, ``sync*``): derived from the grammar."""
    import re

    import tree_sitter
    import tree_sitter_dart

    lang = tree_sitter.Language(tree_sitter_dart.language())
    kinds = {lang.node_kind_for_id(i) for i in range(lang.node_kind_count) if not lang.node_kind_is_named(i)}
    return sorted(k for k in kinds if re.fullmatch(r"[A-Za-z]+\W", k or "") and k[-1] not in "'\"")


@pytest.mark.parametrize("word", _grammar_words_with_symbols())
def test_keywords_with_a_symbol_are_never_aliased_to_a_prefix(word: str) -> None:
    """``\\async*`` would define ``async`` (the ``*`` lexes apart), and every ``\\N`` would then drop the ``*``
    (found on riverpod's generator tests, where the self-check refused the file)."""
    assert not codec._one_lexeme(("ident", word))
    yields = "yield 1;" if word.startswith("sync") else "yield* s();"
    fns = "".join(f"Iterable<int> g{k}() {word} {{ {yields} }}\n" for k in range(8))
    source = fns.replace("Iterable", "Stream") if word.startswith("async") else fns
    coon, wrong = unverified_roundtrip(source)
    assert wrong is None, (wrong, coon)


# --- short package URIs (rule 12) -------------------------------------------------------------------------------

IMPORTS = """import 'package:provider/provider.dart';
import 'package:flutter/cupertino.dart' as c;
export 'package:a_b/src/x-y.dart' show Foo;
import 'dart:convert';
import "package:provider/provider.dart";
import 'package:p/p.dart' if (dart.library.io) 'package:q/q.dart';
import 'package:\\$odd/odd.dart';
var x = ':provider';
var y = 'package:provider/provider.dart';
var z = [':provider', ':provider', ':provider'];
"""


def test_package_uris_are_short_and_round_trip() -> None:
    coon, wrong = unverified_roundtrip(IMPORTS)
    assert wrong is None, wrong
    shorts = [t.text for t in lex(coon) if t.kind == "str" and t.text.startswith("':")]
    assert "':flutter/cupertino'" in shorts and "':a_b/src/x-y'" in shorts
    plain = _plain(IMPORTS, short_uris=False)
    assert count_tokens(coon) < count_tokens(plain)
    # the short form is read only after import/export: elsewhere ':provider' is the string it says
    assert decode(coon) == decode(plain)


def test_short_uri_is_read_only_after_import_or_export() -> None:
    assert "'package:provider/provider.dart'" in decode("import ':provider';")
    assert "'package:flutter/cupertino.dart'" in decode("export ':flutter/cupertino';")
    assert "':provider'" in decode("var x=':provider';")
    assert "'package:" not in decode("import \"':x\";")  # double quotes: never short
    assert "'package:a/a.dart'" in decode("import \\':a';var s=\\1;") and "':a'" in decode("import \\':a';var s=\\1;")


def test_source_with_a_colon_uri_is_refused_not_changed() -> None:
    with pytest.raises(FormatError) as info:
        encode("import ':provider';")
    assert info.value.line == 1


# --- alias words (version 5): the N-th word of ALIAS_WORDS repeats alias N -------------------------------------

Q, K = ALIAS_WORDS[0], ALIAS_WORDS[1]


def test_alias_words_read_as_the_lexeme_after_their_definition_only() -> None:
    assert decode(f"var {Q}=1;final \\items=[];{Q}.add({Q});") == decode("var q=1;final items=[];items.add(items);")
    assert decode(f"var \\aa=1,\\bb=2;f({K},{Q},\\2);") == decode("var aa=1,bb=2;f(bb,aa,bb);")
    assert decode(f"var \\aa=1;@{Q} var x=`{Q};") == decode(f"var aa=1;@{Q} var x={Q};")  # after @, escaped
    assert decode(f"var \\aa=1;var {Q}x='{Q}';// {Q}\n") == decode(f"var aa=1;var {Q}x='{Q}';// {Q}\n")


def test_names_spelled_like_alias_words_round_trip() -> None:
    """A name spelled like an alias word is written as is before the alias is defined and escaped after;
    names that merely start with it, strings and comments are never touched."""
    source = (
        f"void main() {{ var {Q} = 1; var someLongName = {Q}; f(someLongName, someLongName, someLongName);"
        f" var {Q}ty = {Q} + someLongName; print('{Q} {Q}ty'); g({Q}, {Q}ty); /* {Q} */ }}"
    )
    coon, wrong = unverified_roundtrip(source, keep_comments=True)
    assert wrong is None, (wrong, coon)
    assert f"var {Q}=1;var\\someLongName=`{Q};" in coon  # the name itself before the definition, escaped after
    assert f"g(`{Q},{Q}ty)" in coon and f"'{Q} {Q}ty'" in coon and f"/* {Q} */" in coon
    assert count_tokens(coon) < count_tokens(_plain(source, keep_comments=True))


def test_a_label_spelled_like_an_alias_word_keeps_the_document_without_aliases() -> None:
    """An escaped label would read as a name (`` `q 2 `` is not ``q: 2``), so such a document has no dictionary."""
    source = f"void main() {{ someLongName(1); someLongName(2); someLongName(3); h({Q}: 2); }}"
    coon, wrong = unverified_roundtrip(source)
    assert wrong is None, (wrong, coon)
    assert not any(t.kind == "def" for t in lex(coon))


def test_past_the_alias_words_refs_are_numbers() -> None:
    n = len(ALIAS_WORDS) + 3
    source = "void main() {" + "".join(f" someLongName{k}(); someLongName{k}(); someLongName{k}();" for k in range(n)) + " }"
    coon, wrong = unverified_roundtrip(source)
    assert wrong is None, wrong
    refs = [t.text for t in lex(coon) if t.kind == "ref"]
    assert refs == [str(len(ALIAS_WORDS) + k) for k in range(1, 4) for _ in range(2)]
    assert f"{ALIAS_WORDS[-1]}();{ALIAS_WORDS[-1]}();" in coon
