"""Fuzz: the COON lexer, decoder, validator and encoder keep the hostile-input contract (``tests/hostile.py``).

Contract: a result or a ``FormatError`` — never another exception, never more than 1 s of CPU, never a hang — and
never a silent wrong decode: whatever ``encode`` returns decodes to its input as tree-sitter reads them, tree, tokens
and kept comments (``tests/coon_oracle.tree_difference``) — not as Dart's scanner reads them, which is the check
``encode`` itself has already run on its output (a test repeating it could only agree).
Inputs: the fixed hostile cases (NULs, lone surrogates, 10,000-deep nesting, 5 MB text, …), random text, and
truncations / byte flips / insertions of valid COON and Dart documents.
"""

from __future__ import annotations

import pytest
from hypothesis import given

from coonbench.formats import FormatError, get_format
from coonbench.formats.coon import decode, encode, validate
from coonbench.formats.coon.decoder import decode_tokens
from tests.coon_oracle import token_difference, tree_difference
from tests.hostile import FUZZ_SETTINGS, SLOW_FUZZ_SETTINGS, check_contract, fixed_hostile, hostile_text

VALID_DART = [
    "class Hello extends StatelessWidget {\n  const Hello({super.key});\n  @override\n  Widget build(BuildContext "
    "context) {\n    return Padding(\n      padding: const EdgeInsets.all(16),\n      child: Column(\n        "
    "mainAxisAlignment: MainAxisAlignment.center,\n        children: [Text('a ${x}'), Icon(Icons.home)],\n      ),"
    "\n    );\n  }\n}\n",
    "var big = 1_000_000; // count\nvar s = #Text; var r = (a: 1, b: .center);\n",
]
VALID_COON = [encode(d) for d in VALID_DART] + [encode(VALID_DART[0], keep_comments=True, header=True)]


ENCODE_TIME_LIMIT_S = 2.0
"""CPU limit for the verifying encode: on 10,000-deep input tree-sitter alone takes ~0.2 s per parse and encode
needs three (program reading, fragment reading, its own output); everything else stays within 1 s."""


def _encode_contract(text: str) -> None:
    for keep in (False, True):
        coon = check_contract(
            lambda t: encode(t, keep_comments=keep), text, (FormatError,), time_limit=ENCODE_TIME_LIMIT_S,
            label=f"coon encode keep={keep}",
        )
        if coon is not None:  # the COON the contract call returned (a second encode could meet the parse budget)
            wrong = tree_difference(text, decode(coon), comments=keep)
            assert wrong is None, f"silent wrong decode of {text[:200]!r}: {wrong}"


def _decode_contract(text: str) -> None:
    check_contract(decode_tokens, text, (FormatError,), label="coon lexer")
    check_contract(decode, text, (FormatError,), label="coon decode")
    errors = check_contract(validate, text, label="coon validate")
    assert isinstance(errors, list) and all(isinstance(e, FormatError) for e in errors)
    for name in ("coon", "coon-comments"):
        check_contract(get_format(name).validate, text, label=f"{name} validate")


@pytest.mark.parametrize("case", range(len(fixed_hostile(VALID_COON[0]))))
def test_fixed_hostile_coon(case: int) -> None:
    _decode_contract(fixed_hostile(VALID_COON[0])[case])


@pytest.mark.parametrize("case", range(len(fixed_hostile(VALID_DART[0]))))
def test_fixed_hostile_dart_into_encode(case: int) -> None:
    _encode_contract(fixed_hostile(VALID_DART[0])[case])


def test_regressions() -> None:
    """Bugs the fuzzing found, each now a documented error or a result (never RecursionError/UnicodeEncodeError)."""
    with pytest.raises(FormatError, match="lone surrogate"):
        encode("var s = '\ud800';")
    assert validate("T('\ud800')")  # an error in the list, not an exception
    deep = "var a = " + "(" * 10_000 + "1" + ")" * 10_000 + ";"
    assert token_difference(deep, decode(encode(deep, verify=False))) is None
    with pytest.raises(FormatError, match="over the codec's limit"):
        decode("x " * 600_000)


@FUZZ_SETTINGS
@given(hostile_text(VALID_COON))
def test_fuzz_coon_decoders(text: str) -> None:
    _decode_contract(text)


@FUZZ_SETTINGS
@given(hostile_text(VALID_DART))
def test_fuzz_coon_encoder(text: str) -> None:
    _encode_contract(text)


@pytest.mark.slow
@SLOW_FUZZ_SETTINGS
@given(hostile_text(VALID_COON))
def test_fuzz_coon_decoders_long(text: str) -> None:
    _decode_contract(text)


@pytest.mark.slow
@SLOW_FUZZ_SETTINGS
@given(hostile_text(VALID_DART))
def test_fuzz_coon_encoder_long(text: str) -> None:
    _encode_contract(text)
