"""COON's ``x#`` = ``x.of(context)``: a ``#`` that no name or backtick follows.

Round trips are made with the encoder's self-check off and read back by Dart's scanner (``tests/coon_oracle.py``);
the saving is measured against the same document with the rule written out (``legend.rewrite``).
"""

from __future__ import annotations

import pytest

from coonbench.formats.coon import decode, encode
from coonbench.formats.coon.legend import legend, rewrite, usage
from coonbench.formats.coon.lexer import lex
from coonbench.formats.base import FormatError
from coonbench.tokens import count_tokens
from tests.coon_oracle import unverified_roundtrip

OF_CONTEXT = """class A {
  Widget build(BuildContext context) {
    final t = Theme.of(context).textTheme;
    final s = MediaQuery.of(context).size;
    Navigator.of(context).pop();
    final l = AppLocalizations.of(context)!.title;
    final p = Provider.of(context) as Foo;
    final q = Q.of(context) is Foo;
    final r = Provider.of<Foo>(context);
    final u = X.of(context, listen: false);
    final v = X.of(other);
    f(.of(context));
    g(Icon(.of(context)));
    final sym = [#foo, #+, #Text];
    return Text('.of(context)', style: Theme.of(context).textTheme.bodyMedium);
  }
}
"""


def test_of_context_round_trips_and_is_cheaper() -> None:
    coon, wrong = unverified_roundtrip(OF_CONTEXT)
    assert wrong is None, wrong
    kinds = [t.kind for t in lex(coon)]
    assert kinds.count("ofc") == 9  # not after a type argument, another argument or another name
    assert "Provider# as Foo" in coon and "Q# is Foo" in coon  # a word after '#' is kept apart
    assert "'.of(context)'" in coon  # strings are verbatim
    # written out, ``X.of(context)`` reads differently where ``X#`` is a widget word or ``Icon(#``: economise
    # verifies its rewrites; here the saving is measured on uses written out plainly
    coon = encode(OF_CONTEXT.replace("g(Icon(.of(context)));", ""))
    written = rewrite(coon, {("rule", "of")})
    assert "#" not in written.replace("#`", "")
    assert decode(written) == decode(coon)
    assert count_tokens(coon) < count_tokens(written)


def test_lexer_tells_of_context_from_macros_and_symbols() -> None:
    assert [t.kind for t in lex("a#.b")] == ["ident", "ofc", "op", "ident"]
    assert [t.kind for t in lex("a# is b")] == ["ident", "ofc", "ident", "ident"]
    assert [(t.kind, t.text) for t in lex("#b")] == [("macro", "b")]
    assert [t.kind for t in lex("#`b")] == ["hash", "esc"]
    assert decode("var t=Theme#;").split() == ["var", "t", "=", "Theme.of(context);"]
    with pytest.raises(FormatError):
        decode("var t=Theme#is;")  # '#is' is a macro name, and no such macro exists


def test_legend_names_of_context_only_when_used() -> None:
    coon = encode("var t = Theme.of(context).textTheme;\n")
    assert usage(coon).rules == ["of"] and "x# = x.of(context)" in legend(coon)
    assert "of" not in usage(encode("var t = Theme.of(c).textTheme;\n")).rules
