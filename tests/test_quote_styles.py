"""Quote style is one program where Dart says so: a plain string written with either quote, also one inside
another string's interpolation (``'${name.split(' ')}'`` and ``'${name.split(" ")}'``), which made ``coonbench
validate``'s other-quotes variant of a three-turn COON session (modification-edge-086) scored wrong. Strings whose
quotes change their value (an apostrophe inside, an escape) stay apart."""

from __future__ import annotations

import pytest

from coonbench.dart.equivalence import ast_diff
from coonbench.dart.requirements import normalise_program
from coonbench.formats import get_format


def _same(a: str, b: str) -> bool:
    return ast_diff(normalise_program(a), normalise_program(b)) is None


@pytest.mark.parametrize("left, right", [
    ("var s = 'a';", 'var s = "a";'),
    ("var s = 'It\\'s \"paid\" — ${x.split(' ').first}';", "var s = 'It\\'s \"paid\" — ${x.split(\" \").first}';"),
    ('var s = "a ${x.split(" ")} b";', "var s = 'a ${x.split(' ')} b';"),
    ("var s = 'a ${f('${g(' ')}')} b';", 'var s = "a ${f("${g(" ")}")} b";'),
    ("var s = 'a' 'b';", 'var s = "a" "b";'),
])
def test_quote_styles_dart_treats_as_one_value_compare_equal(left: str, right: str) -> None:
    assert _same(left, right)


@pytest.mark.parametrize("left, right", [
    ("var s = 'it';", "var s = 'it!';"),
    ("var s = \"it's\";", "var s = 'its';"),
    ("var s = 'a ${x.split(' ')} b';", "var s = 'a ${x.split('-')} b';"),
    ("var s = r'\\n';", "var s = '\\n';"),
])
def test_different_strings_stay_different(left: str, right: str) -> None:
    assert not _same(left, right)


def test_the_coon_reply_of_the_session_that_failed_validation() -> None:
    """The shape of modification-edge-086's last turn: the gold in COON, and the same program with the nested
    literal in double quotes, encoded in COON again: equal after normalising, as the session scorer compares."""
    coon = get_format("coon")
    gold = ("class A extends StatelessWidget {\n  @override\n  Widget build(BuildContext context) {\n"
            "    return Text('It\\'s \"paid\" — thanks, ${name.split(' ').first}');\n  }\n}\n")
    other = gold.replace("split(' ')", 'split(" ")')
    assert other != gold
    assert ast_diff(coon.decode(coon.encode(gold)), coon.decode(coon.encode(other))) is not None  # as written
    assert _same(coon.decode(coon.encode(gold)), coon.decode(coon.encode(other)))


def test_a_deeply_interpolated_string_normalises_without_recursion() -> None:
    depth = 400
    text = "var s = " + "'${f(" * depth + "' '" + ")}'" * depth + ";"
    assert normalise_program(text) == normalise_program(text.replace("' '", '" "'))
