"""COON rule 16: a package URI written relative to the previous package URI of the document (``':./b'``,
``':../b'``, ``':/b'``).

Round trips are made with the encoder's self-check off and read back by Dart's scanner (``tests/coon_oracle.py``);
the saving is measured against the same encoder with the rule switched off.
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

IMPORTS = """import 'package:app/src/model/game/game.dart';
import 'package:app/src/model/game/clock.dart';
import 'package:app/src/model/user/user.dart';
import 'package:app/src/widgets/board.dart';
import 'package:app/app.dart';
import 'package:other/src/model/game/x.dart';
import 'package:other/src/model/game/y.dart' as y;
import "package:app/src/model/game/quoted.dart";
import 'package:app/src/model/../odd.dart';
import 'package:app/src/model/game/after.dart';
export 'package:app/src/model/game/exported.dart';
var s = ':./not_a_uri';
var t = 'package:app/src/model/game/game.dart';
void main() => print([s, t]);
"""


def _strings(coon: str) -> list[str]:
    return [t.text for t in lex(coon) if t.kind == "str"]


def test_relative_package_uris_round_trip_and_are_cheaper() -> None:
    coon, wrong = unverified_roundtrip(IMPORTS)
    assert wrong is None, wrong
    strings = _strings(coon)
    # ':/' (the package's root) where it is shorter than climbing out of the folder
    assert strings[:5] == ["':app/src/model/game/game'", "':./clock'", "':../user/user'", "':/src/widgets/board'",
                           "':app'"]
    assert "':other/src/model/game/x'" in strings and "':./y'" in strings  # another package starts afresh
    assert "':app/src/model/../odd'" in strings  # a path with '..' in it is written whole
    assert "':./model/game/after'" in strings  # read against that path's folder, normalised
    assert "':./exported'" in strings  # across directive kinds
    assert "':./not_a_uri'" in strings and "'package:app/src/model/game/game.dart'" in strings  # not directives
    plain = codec.encode_unit(codec.parse_source(IMPORTS), relative_uris=False)
    check_roundtrip(IMPORTS, plain, False)
    assert count_tokens(coon) < count_tokens(plain)
    assert encode(IMPORTS) == coon


def test_a_long_uri_counts_as_the_previous_package_uri() -> None:
    """A URI the encoder writes in full (here one a legend rewrite wrote out) still anchors the next one."""
    dart = decode("import 'package:app/a/b.dart',':./c';")
    assert dart.split() == ["import", "'package:app/a/b.dart';", "import", "'package:app/a/c.dart';"]


@pytest.mark.parametrize(
    ("coon", "dart"),
    [
        ("import ':p/a/b/c',':./d';", "'package:p/a/b/d.dart'"),
        ("import ':p/a/b/c',':../d';", "'package:p/a/d.dart'"),
        ("import ':p/a/b/c',':/d';", "'package:p/d.dart'"),
        ("import ':p',':./q';", "'package:p/q.dart'"),  # ':p' is p/p.dart, at the package's root
        ("import ':p/a/b';export ':./c';", "'package:p/a/c.dart'"),
        ("import ':p/a/b',':q/x',':./c';", "'package:q/c.dart'"),  # the previous package URI is q's
    ],
)
def test_decoder_reads_relative_package_uris(coon: str, dart: str) -> None:
    assert decode(coon).split()[-1] == dart + ";"


@pytest.mark.parametrize(
    "coon",
    [
        "import ':./a';",  # no package URI before it
        "import 'dart:io',':./a';",  # a dart: URI is not a package URI
        "import ':p/a',':../../b';",  # leaves the package
        "import ':p/a',':/';",  # no file
    ],
)
def test_relative_package_uri_without_anchor_is_an_error(coon: str) -> None:
    with pytest.raises(FormatError):
        decode(coon)


def test_same_spelling_outside_directives_is_verbatim() -> None:
    assert "':./a'" in decode("import ':p/a';var s=':./a';")
    assert "':../a'" in decode("f(':../a');")


def test_legend_names_the_rule_and_rewrites_it_away() -> None:
    coon = encode(IMPORTS)
    assert "reluri" in usage(coon).rules
    assert "':./c' = ':p/d/c'" in legend(coon)
    written = rewrite(coon, {("rule", "reluri")})
    assert not any(s.startswith(("':./", "':../", "':/")) for s in _strings(written)[:11])  # the 11 URIs
    assert decode(written) == decode(coon)
    assert "reluri" not in usage(encode("import 'package:a/b.dart';\nimport 'package:c/d.dart';\n")).rules
