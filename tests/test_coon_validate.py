"""COON validator: every error names line, column and what was expected; decode raises only FormatError."""

from __future__ import annotations

import pytest

from coonbench.formats import FormatError, get_format
from coonbench.formats.coon import VERSION, decode, encode, validate


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
    [("P(p @,c T('a'))", 5, "number"), ("var a = \\ ;", 9, "alias"), ("var a = ` b;", 9, "identifier")],
)
def test_bad_prefix(text: str, column: int, fragment: str) -> None:
    err = _one(text)
    assert (err.line, err.column) == (1, column)
    assert "bad prefix" in err.message and err.expected is not None and fragment in err.expected


def test_a_hash_before_no_name_is_of_context() -> None:
    """``#`` with no name or backtick after it is ``.of(context)`` (rule 15), not a bad prefix."""
    assert validate("P(p #,c T('a'))") == []
    assert "Padding(p.of(context), child: Text('a'))" in decode("P(p #,c T('a'))")
    assert "unknown abbreviation" in _one("P(p #q,c T('a'))").message


def test_shorthand_after_a_label_without_enum_type_is_darts_own() -> None:
    """Dart 3.10 dot shorthands: ``.big`` after a label COON has no enum type for stays ``.big`` (valid Dart)."""
    assert validate("K(e:.big)") == []
    assert ".big" in decode("K(e:.big)") and "Colors" not in decode("K(e:.big)")


def test_call_shorthand_only_after_a_known_call() -> None:
    assert validate("Ic(.home)") == []
    assert "Icons.home" in decode("Ic(.home)")
    assert "Text(.home)" in decode("T(.home)")  # Dart's own dot shorthand: nothing implied
    assert "Icon(.home)" in decode("`Icon(.home)")  # an escaped call implies nothing either


def test_bad_header() -> None:
    err = _one("%coon 7\nvar a=1;")
    assert (err.line, err.expected) == (1, f"'%coon {VERSION}'")


def test_errors_from_decode_are_format_errors() -> None:
    with pytest.raises(FormatError) as info:
        decode("T('a'")
    assert info.value.line == 1
    fmt = get_format("coon")
    assert fmt.validate("T('a'")[0].column == 2
    assert fmt.validate(123) and fmt.validate("")  == []  # type: ignore[arg-type]


def test_deep_nesting_decodes_without_recursion_limits() -> None:
    """3,000 nested calls: every walk is iterative, so the result is Dart (no 'nested too deeply' refusal)."""
    deep = "f(" * 3000 + "1" + ")" * 3000
    dart = decode(deep)
    assert dart.count("f(") == 3000 and validate(deep) == []
    assert validate("(" * 3000)[0].message == "unclosed '('"
    assert validate("T('a') " * 300)[0].message.startswith("missing separator")
