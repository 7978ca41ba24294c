"""TeaLeaf codec: byte-identical to the real CLI, decoder conformance, round trips, positioned errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coonbench.formats import FormatError, get_format
from coonbench.formats.tealeaf import decode_tealeaf, encode_tealeaf, format_float, singularize
from coonbench.resources import SHARED_DIR
from coonbench.formats._compare import first_difference
from tests.equality import strict_equal as _strict_equal

TL = SHARED_DIR / "reference" / "tealeaf"
CLI_DIR = TL / "fixtures" / "cli-generated"
CANON_DIR = TL / "fixtures" / "canonical"

CLI_INPUTS = sorted(CLI_DIR.rglob("*.json")) if CLI_DIR.exists() else []
CANON_SAMPLES = sorted((CANON_DIR / "samples").glob("*.tl")) if CANON_DIR.exists() else []


def _ids(paths: list[Path], base: Path) -> list[str]:
    return [str(p.relative_to(base)) for p in paths]


def _need(paths: list[Path], what: Path) -> None:
    if not paths:
        pytest.skip(f"reference data absent: {what}")


def strict_equal(a: Any, b: Any) -> bool:
    """Strict JSON equality without key order (table rows follow their struct's field order)."""
    return _strict_equal(a, b, key_order=False)


def numeric_equal(a: Any, b: Any) -> bool:
    """Equality where numbers compare by value (whole-number floats come back as ints): the formats' own check."""
    return first_difference(a, b, key_order=False) is None


# --- byte-identical to the CLI --------------------------------------------------------------------------


@pytest.mark.parametrize("compact", [False, True], ids=["pretty", "compact"])
@pytest.mark.parametrize("src", CLI_INPUTS or [None], ids=_ids(CLI_INPUTS, CLI_DIR) or ["absent"])
def test_encoder_matches_cli_fixture(src: Path | None, compact: bool) -> None:
    _need(CLI_INPUTS, CLI_DIR)
    assert src is not None
    data = json.loads(src.read_text(encoding="utf-8"))
    expected = src.with_suffix(".compact.tl" if compact else ".tl").read_text(encoding="utf-8")
    name = "tealeaf-compact" if compact else "tealeaf"
    assert get_format(name).encode(data) == expected


def test_all_44_cli_fixtures_present() -> None:
    _need(CLI_INPUTS, CLI_DIR)
    assert len(CLI_INPUTS) == 22
    assert all(p.with_suffix(".tl").exists() and p.with_suffix(".compact.tl").exists() for p in CLI_INPUTS)


@pytest.mark.parametrize("src", CLI_INPUTS or [None], ids=_ids(CLI_INPUTS, CLI_DIR) or ["absent"])
def test_round_trip_fixture_inputs(src: Path | None) -> None:
    _need(CLI_INPUTS, CLI_DIR)
    assert src is not None
    data = json.loads(src.read_text(encoding="utf-8"))
    # Pretty keeps every float a float: the round trip is exact, types included.
    assert strict_equal(decode_tealeaf(encode_tealeaf(data)), data)
    # Compact floats drop `.0`: whole-number floats come back as equal ints, nothing else changes.
    assert numeric_equal(decode_tealeaf(encode_tealeaf(data, compact=True, compact_floats=True)), data)


# --- canonical TL ↔ JSON pairs ----------------------------------------------------------------------------

UNSUPPORTED = re.compile(r"unsupported TeaLeaf feature: (.+?) \(")


@pytest.mark.parametrize("sample", CANON_SAMPLES or [None], ids=_ids(CANON_SAMPLES, CANON_DIR) or ["absent"])
def test_canonical_pair(sample: Path | None) -> None:
    """Pass every pair the decoder's subset covers; a pair using a feature outside it is skipped, naming it."""
    _need(CANON_SAMPLES, CANON_DIR)
    assert sample is not None
    expected = json.loads((CANON_DIR / "expected" / f"{sample.stem}.json").read_text(encoding="utf-8"))
    try:
        got = decode_tealeaf(sample.read_text(encoding="utf-8"))
    except FormatError as err:
        m = UNSUPPORTED.search(str(err))
        if m:
            pytest.skip(f"{sample.name}: needs {m.group(1)} (line {err.line}), outside the encoder's subset")
        raise
    assert got == expected


def test_canonical_coverage() -> None:
    """The plain-data samples must all decode; only samples with unsupported features may be skipped."""
    _need(CANON_SAMPLES, CANON_DIR)
    passed = []
    for sample in CANON_SAMPLES:
        try:
            got = decode_tealeaf(sample.read_text(encoding="utf-8"))
        except FormatError as err:
            assert UNSUPPORTED.search(str(err)), f"{sample.name}: {err}"
            continue
        assert got == json.loads((CANON_DIR / "expected" / f"{sample.stem}.json").read_text(encoding="utf-8"))
        passed.append(sample.stem)
    assert {"primitives", "arrays", "objects", "schemas", "quoted_keys", "numbers_extended"} <= set(passed)


ERROR_CASES = {
    "unterminated_string.tl": (2, "unterminated string"),
    "unterminated_multiline.tl": (2, "unterminated multiline string"),
    "invalid_hex.tl": (2, "invalid hex"),
    "invalid_binary.tl": (2, "invalid binary"),
    "unexpected_token.tl": (2, "expected ':'"),
    "unclosed_brace.tl": (None, "unclosed brace"),
    "unclosed_bracket.tl": (None, "unclosed bracket"),
}


@pytest.mark.parametrize("name", sorted(ERROR_CASES))
def test_canonical_error_files(name: str) -> None:
    path = CANON_DIR / "errors" / name
    if not path.exists():
        pytest.skip(f"reference data absent: {path}")
    errors = get_format("tealeaf").validate(path.read_text(encoding="utf-8"))
    assert len(errors) == 1
    line, text = ERROR_CASES[name]
    assert text in errors[0].message
    assert errors[0].line is not None and errors[0].column is not None
    if line is not None:
        assert errors[0].line == line


# --- encoder unit rules -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "pretty", "compact"),
    [
        (1e-7, "0.0000001", "0.0000001"),
        (1e21, "1e21", "1e21"),
        (100.0, "100.0", "100"),
        (-0.0, "-0.0", "-0"),
        (1234567890123456.0, "1.234567890123456e15", "1.234567890123456e15"),
        (123456789012345.0, "123456789012345.0", "123456789012345"),
        (1.5e10, "15000000000.0", "15000000000"),
        (0.1, "0.1", "0.1"),
    ],
)
def test_format_float(value: float, pretty: str, compact: str) -> None:
    assert format_float(value, False) == pretty
    assert format_float(value, True) == compact


@pytest.mark.parametrize(("plural", "singular"), [("companies", "company"), ("addresses", "address"),
                                                  ("boxes", "box"), ("matches", "match"), ("dishes", "dish"),
                                                  ("users", "user"), ("class", "class"), ("Data", "data")])
def test_singularize(plural: str, singular: str) -> None:
    assert singularize(plural) == singular


def test_lossy_cli_case_written_inline() -> None:
    """A later row with a key the struct lacks: the CLI would drop it; this encoder keeps the data."""
    data = {"a": [{"x": 1}], "b": {"a": [{"x": 2}, {"x": 3, "y": 4}]}}
    assert strict_equal(decode_tealeaf(encode_tealeaf(data)), data)


def test_root_array_and_scalar_root() -> None:
    assert decode_tealeaf(encode_tealeaf([1, "a"])) == [1, "a"]
    assert decode_tealeaf(encode_tealeaf([])) == []
    assert encode_tealeaf(5) == "root: 5\n"  # as the CLI: a scalar root is stored under `root`


# --- validate -----------------------------------------------------------------------------------------------

TABLE = "@struct user (id: int, name: string)\n\nusers: @table user [\n  (1, alice),\n  (2, bob, extra)\n]\n"


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ('a: "open\n', 1, "unterminated string"),
        ("a: [1, 2\nb: 3\n", 2, "expected ','"),
        ("a: {x: 1\n", 2, "unclosed brace"),
        (TABLE, 5, "2 fields"),
        ("users: @table nobody [\n  (1, a)\n]\n", 1, "unknown struct 'nobody'"),
        ("a: 12abc\n", 1, "bad number"),
        ("a: 0xZZ\n", 1, "invalid hex"),
        ("a: %\n", 1, "unexpected character"),
        ("a 1\n", 1, "expected ':'"),
    ],
)
def test_validate_positions(text: str, line: int, needle: str) -> None:
    errors = get_format("tealeaf").validate(text)
    assert errors, text
    assert needle in errors[0].message
    assert errors[0].line == line and errors[0].column is not None and errors[0].expected


def test_validate_collects_every_row_error() -> None:
    text = TABLE.replace("(1, alice)", "(1)")
    errors = get_format("tealeaf").validate(text)
    assert [e.line for e in errors] == [4, 5]
    with pytest.raises(FormatError):
        get_format("tealeaf").decode(text)


def test_valid_text_has_no_errors() -> None:
    assert get_format("tealeaf-compact").validate(encode_tealeaf({"u": [{"a": 1}, {"a": 2.5, "b": None}]})) == []


# --- property round trips -------------------------------------------------------------------------------------

_keys = st.text(max_size=8)
_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(
    max_size=12)
_json = st.recursive(_scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(_keys, c, max_size=4),
                     max_leaves=25)
# Arrays of similar objects, so that @struct/@table inference (and its nested cases) is exercised.
_row_keys = st.sampled_from(["id", "name", "items", "tags", "opt", "value", "data"])
_rows = st.lists(st.dictionaries(_row_keys, _json, min_size=1, max_size=5), min_size=1, max_size=4)
_docs = st.dictionaries(st.sampled_from(["users", "items", "orders", "x", "data", "first name"]),
                        _rows | _json, max_size=4) | st.lists(_json | st.dictionaries(_row_keys, _json), max_size=4)


@settings(max_examples=300, deadline=None)
@given(_docs)
def test_round_trip_property(doc: Any) -> None:
    # TeaLeaf documents are objects (or root arrays); a scalar root reads back as {"root": v}, as in the CLI.
    assert strict_equal(decode_tealeaf(encode_tealeaf(doc)), doc)
    assert numeric_equal(decode_tealeaf(encode_tealeaf(doc, compact=True, compact_floats=True)), doc)
