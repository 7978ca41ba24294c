"""COON validator: every error names line, column and what was expected; decode raises only FormatError."""

from __future__ import annotations

import pytest

from coonbench.formats import FormatError, get_format
from coonbench.formats.coon import decode, encode, validate


def _one(text: str) -> FormatError:
    errors = validate(text)
    assert len(errors) == 1, errors
    return errors[0]


def test_valid_document_has_no_errors() -> None:
    assert validate(encode("class A extends StatelessWidget { @override Widget build(BuildContext c) => Text('a'); }")) == []


def test_unbalanced_braces() -> None:
    err = _one("class A{\n  W f(){return T('a');\n}")
    assert (err.line, err.column) == (1, 8) and err.expected == "'}' before end"
    err = _one("C(h:[T('a')]))")
    assert (err.line, err.column) == (1, 14) and "unbalanced ')'" in err.message
    err = _one("C(h:[T('a')))")
    assert (err.line, err.column) == (1, 12) and err.expected == "']'"


def test_unknown_abbreviation() -> None:
    err = _one("class A{\n  #q\n}")
    assert (err.line, err.column) == (2, 3)
    assert "#q" in err.message and err.expected is not None and "#b" in err.expected


def test_missing_separator() -> None:
    err = _one("C(h:[T('a')\n  T('b')])")
    assert (err.line, err.column) == (2, 3)
    assert "missing separator" in err.message and err.expected == "','"
    err = _one("var x = 1\nvar y = 2;")
    assert (err.line, err.column, err.expected) == (2, 1, "';'")


def test_unterminated_string() -> None:
    err = _one("P(p @8,\n  c T('abc))")
    assert (err.line, err.column) == (2, 7) and err.expected == "closing '"
    err = _one("var s = '''open")
    assert err.expected == "closing '''"


@pytest.mark.parametrize(
    ("text", "column", "fragment"),
    [("P(p @,c T('a'))", 5, "number"), ("P(p #,c T('a'))", 5, "macro"), ("var a = ` b;", 9, "identifier")],
)
def test_bad_prefix(text: str, column: int, fragment: str) -> None:
    err = _one(text)
    assert (err.line, err.column) == (1, column)
    assert "bad prefix" in err.message and err.expected is not None and fragment in err.expected


def test_enum_shorthand_needs_an_enum_label() -> None:
    err = _one("K(e:.big)")
    assert err.line == 1 and "enum" in err.message


def test_call_shorthand_needs_a_known_call() -> None:
    assert validate("Ic(.home)") == []
    err = _one("T(.home)")
    assert (err.line, err.column) == (1, 3) and err.expected is not None and "Icon" in err.expected


def test_bad_header() -> None:
    err = _one("%coon 7\nvar a=1;")
    assert (err.line, err.expected) == (1, "'%coon 2'")


def test_errors_from_decode_are_format_errors() -> None:
    with pytest.raises(FormatError) as info:
        decode("T('a'")
    assert info.value.line == 1
    fmt = get_format("coon")
    assert fmt.validate("T('a'")[0].column == 2
    assert fmt.validate(123) and fmt.validate("")  == []  # type: ignore[arg-type]


def test_pathological_input_is_a_format_error() -> None:
    deep = "(" * 3000 + ")" * 3000
    with pytest.raises(FormatError):
        decode(deep)
    assert validate(deep)[0].expected == "less nesting"
    assert validate("T('a') " * 300)[0].message.startswith("missing separator")
