"""COON's directive rules: relative URIs without ``.dart`` and directive lists (``import 'a','b';``).

Round trips are made with the encoder's self-check off and read back by Dart's scanner (``tests/coon_oracle.py``);
savings are measured against the same encoder with each rule switched off.
"""

from __future__ import annotations

import pytest

from coonbench.formats.coon import encoder as codec
from coonbench.formats.coon import decode, encode
from coonbench.formats.coon.legend import legend, rewrite, usage
from coonbench.formats.coon.lexer import lex
from coonbench.formats.coon.verifier import check_roundtrip
from coonbench.formats.base import FormatError
from coonbench.tokens import count_tokens
from tests.coon_oracle import unverified_roundtrip

DIRECTIVES = """library app;
import 'package:flutter/material.dart';
import 'package:provider/provider.dart';
import 'dart:async';
import '../widgets/card.dart';
import 'src/a.dart' as a;
import 'src/b.dart';
import "src/c.dart";
import 'src/d.dart' if (dart.library.io) 'src/e.dart';
import 'odd.dart.dart';
import 'deferred.dart' deferred as later;
export 'src/f.dart';
export 'src/g.dart' show G, H;
export 'src/h.dart';
part 'app.g.dart';
part 'app.freezed.dart';
var s = '../x.dart';
var t = ['a', 'b'];
void f(String import, String b) => print([import, 'c', 'd']);
"""


def _without(source: str, **off: bool) -> str:
    """The document with some directive rules off, checked as ``encode`` checks its own."""
    unit = codec.parse_source(source)
    text = codec.encode_unit(unit, **off)
    check_roundtrip(source, text, False)
    return text


def test_directives_round_trip_and_are_cheaper() -> None:
    coon, wrong = unverified_roundtrip(DIRECTIVES)
    assert wrong is None, wrong
    strings = [t.text for t in lex(coon) if t.kind == "str"]
    assert "'../widgets/card'" in strings and "'src/f'" in strings and "'app.g'" in strings
    assert "'odd.dart.dart'" in strings  # its short form would read back as 'odd.dart'
    assert "'src/e.dart'" in strings  # a configuration's URI is not the directive's
    assert "'../x.dart'" in strings  # an ordinary string is verbatim
    lists = _without(DIRECTIVES, short_uris=False)
    plain = _without(DIRECTIVES, short_uris=False, directive_lists=False)
    assert count_tokens(coon) < count_tokens(lists) < count_tokens(plain)
    assert decode(coon) == decode(lists) == decode(plain)


def test_only_bare_directives_of_one_kind_share_a_keyword() -> None:
    coon = encode(DIRECTIVES)
    assert "'../widgets/card','src/a'as a;" in coon  # the list ends at a directive with a clause
    assert "show G,H;export 'src/h'" in coon  # a clause ends it too
    assert "'src/h';part 'app.g','app.freezed';" in coon  # another keyword starts a new one
    assert "'c','d'" in coon  # commas between other strings are Dart's


def test_decoder_reads_relative_uris_and_lists() -> None:
    assert decode("import '../a','b';").split() == ["import", "'../a.dart';", "import", "'b.dart';"]
    assert decode("export ':p/q',\"r\";").split() == ["export", "'package:p/q.dart';", "export", '"r.dart";']
    assert "'../a'" in decode("var a='../a';")
    assert "'x.dart'" in decode("import 'x.dart';")
    assert "'dart:io'" in decode("import 'dart:io','a';") and "'a.dart'" in decode("import 'dart:io','a';")
    assert decode("import \\'a';import \\1;").count("'a.dart'") == 2  # aliases resolve first


def test_source_relative_uri_without_dart_is_refused_not_changed() -> None:
    with pytest.raises(FormatError) as info:
        encode("import 'foo';")
    assert info.value.line == 1
    assert "'foo.dart'" in info.value.message


def test_legend_names_the_directive_rules_it_uses() -> None:
    coon = encode("import '../a.dart';\nimport '../b.dart';\nvoid main() {}\n")
    assert usage(coon).rules == ["uri", "list"]
    text = legend(coon)
    assert "'../c' = '../c.dart'" in text and "import 'a','b';" in text
    written = rewrite(coon, {("rule", "list"), ("rule", "uri")})
    assert legend(written) == "" and decode(written) == decode(coon)
    assert usage(encode("import 'dart:io';\nvoid main() {}\n")).rules == []
