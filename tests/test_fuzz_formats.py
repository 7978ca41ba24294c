"""Fuzz every data format's decode and validate, and its round trip, against the shared hostile-input contract.

Contract (``tests/hostile.py``): on any text, ``decode`` returns a value or raises ``FormatError`` and
``validate`` returns a list of ``FormatError`` — never another exception, never more than 1 s CPU per input.
And no silent wrong decode: ``decode(encode(x))`` is ``x`` for every JSON value ``x`` a lossless format
accepts (hostile strings, huge integers and deep nesting included), or ``encode`` refuses with ``FormatError``.
The formats are every registered ``kind == "data"`` format, so a format added later is fuzzed too.
"""

from __future__ import annotations

import json
import math
import reprlib
import time
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coonbench.formats import Format, FormatError, list_formats
from coonbench.formats._limits import MAX_DEPTH
from coonbench.resources import DATA_DIR
from tests.hostile import (
    DEPTH,
    FUZZ_SETTINGS,
    SLOW_FUZZ_SETTINGS,
    check_contract,
    fixed_hostile,
    hostile_text,
)

DATA_FORMATS: list[Format] = [f for f in list_formats() if f.kind == "data"]
FORMAT_IDS = [f.name for f in DATA_FORMATS]
# Formats whose round trip keeps number types (1 vs 1.0) and key order; the others compare numbers by value
# (TOON and compact TeaLeaf write 1.0 as 1) and objects by key (TeaLeaf rows follow their struct's field order).
TYPE_EXACT = {"json", "json-compact", "yaml", "xml", "tealeaf"}
KEY_ORDERED = {"json", "json-compact", "yaml", "xml", "toon"}


@cache
def valid_documents(fmt: str) -> tuple[str, ...]:
    """The retrieval datasets encoded in ``fmt`` (those it can hold): the seeds that mutations start from."""
    fmt_obj = next(f for f in DATA_FORMATS if f.name == fmt)
    docs = []
    for path in sorted((DATA_DIR / "retrieval" / "datasets").glob("*.json")):
        try:
            docs.append(fmt_obj.encode(json.loads(path.read_text(encoding="utf-8"))))
        except FormatError:
            continue  # CSV holds flat tables only
    return tuple(docs)


def same_document(a: Any, b: Any, exact_types: bool, ordered: bool) -> bool:
    """JSON equality: bools never equal numbers; numbers by type and sign too when ``exact_types``."""
    if isinstance(a, dict) and isinstance(b, dict):
        if (list(a) if ordered else set(a)) != (list(b) if ordered else set(b)):
            return False
        return all(same_document(a[k], b[k], exact_types, ordered) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_document(x, y, exact_types, ordered) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if exact_types:
            if type(a) is not type(b):
                return False
            if isinstance(a, float) and math.copysign(1, a) != math.copysign(1, b):
                return False
        return a == b
    return type(a) is type(b) and a == b


def _decode_and_validate(fmt: Format, text: str) -> None:
    check_contract(fmt.decode, text, (FormatError,), label=f"{fmt.name}.decode")
    errors = check_contract(fmt.validate, text, label=f"{fmt.name}.validate")
    assert isinstance(errors, list) and all(isinstance(e, FormatError) for e in errors), errors


# --- decode / validate on hostile text -------------------------------------------------------------------


@pytest.mark.parametrize("fmt", DATA_FORMATS, ids=FORMAT_IDS)
def test_fixed_hostile_inputs(fmt: Format) -> None:
    docs = valid_documents(fmt.name)
    assert docs, f"no retrieval dataset encodes in {fmt.name}"
    for text in fixed_hostile(docs[0]):
        _decode_and_validate(fmt, text)


@pytest.mark.parametrize("fmt", DATA_FORMATS, ids=FORMAT_IDS)
def test_valid_documents_decode(fmt: Format) -> None:
    """The seeds themselves are valid (so mutations start from real documents, not from errors)."""
    for text in valid_documents(fmt.name):
        assert fmt.validate(text) == []


def _fuzz_decode(fmt: Format, data: st.DataObject) -> None:
    _decode_and_validate(fmt, data.draw(hostile_text(valid_documents(fmt.name)), label="text"))


@pytest.mark.parametrize("fmt", DATA_FORMATS, ids=FORMAT_IDS)
@FUZZ_SETTINGS
@given(data=st.data())
def test_fuzz_decode(fmt: Format, data: st.DataObject) -> None:
    _fuzz_decode(fmt, data)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", DATA_FORMATS, ids=FORMAT_IDS)
@SLOW_FUZZ_SETTINGS
@given(data=st.data())
def test_fuzz_decode_slow(fmt: Format, data: st.DataObject) -> None:
    _fuzz_decode(fmt, data)


# --- round trip: never a different document --------------------------------------------------------------

_any_char = st.characters(exclude_categories=())  # lone surrogates and NULs included
_strings = st.text(_any_char, max_size=12) | st.sampled_from(
    ["", "yes", "no", "null", "~", "1e3", "0o17", "0x1F", ".5", "-", "- a", "#x", "a: b", "[1]", "{}", "'", '"',
     "\\", "\\u0041", "\ud83d\ude00", "\ud83d", "\r\n", "\x85", "\u2028", "<a>", "]]>", "@table", "(1, 2)"])
_numbers = (st.integers() | st.integers(min_value=-(10**40), max_value=10**40)
            | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([0.0, -0.0, 1e21, 1e-7, 2.0**53]))
_scalars = st.none() | st.booleans() | _numbers | _strings
json_values = st.recursive(
    _scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(_strings, c, max_size=4), max_leaves=24)


def _shown(value: Any) -> str:
    """A short repr for failure messages (depth-limited; a 5,000-digit int has no repr)."""
    try:
        return reprlib.repr(value)
    except ValueError:
        return f"<{type(value).__name__} holding an int too long to print>"


def _encode(fmt: Format, value: Any) -> str | None:
    """``fmt.encode(value)`` under the contract: text, or None when it refused with FormatError."""
    return check_contract(lambda _: fmt.encode(value), _shown(value), (FormatError,), label=f"{fmt.name}.encode")


def _round_trip(fmt: Format, value: Any) -> None:
    text = _encode(fmt, value)
    if text is None:
        return  # encode refused with FormatError: allowed
    back = check_contract(fmt.decode, text, label=f"{fmt.name}.decode of its own output")
    assert same_document(back, value, fmt.name in TYPE_EXACT, fmt.name in KEY_ORDERED), (
        f"{fmt.name}: silent wrong decode\n value: {value!r}\n text: {text!r}\n back: {back!r}")


LOSSLESS = [f for f in DATA_FORMATS if f.lossless]


@pytest.mark.parametrize("fmt", LOSSLESS, ids=[f.name for f in LOSSLESS])
@FUZZ_SETTINGS
@given(value=json_values)
def test_round_trip_exact(fmt: Format, value: Any) -> None:
    _round_trip(fmt, value)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", LOSSLESS, ids=[f.name for f in LOSSLESS])
@SLOW_FUZZ_SETTINGS
@given(value=json_values)
def test_round_trip_exact_slow(fmt: Format, value: Any) -> None:
    _round_trip(fmt, value)


@pytest.mark.parametrize("fmt", LOSSLESS, ids=[f.name for f in LOSSLESS])
@pytest.mark.parametrize("value", [
    {"s": "\ud800\udc00\n"},  # raw surrogates next to an escape (TeaLeaf once re-paired them)
    ["\ud83d", "\ude00", "a\x00b", "\ufeff"],
    {"big": 10**4000, "neg": -(10**4000)},
    {"n": 2**64, "f": 5e-324, "g": 1.7976931348623157e308},
], ids=["raw-surrogates", "hostile-strings", "4000-digit-int", "extreme-numbers"])
def test_round_trip_regressions(fmt: Format, value: Any) -> None:
    _round_trip(fmt, value)


def _deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"k": [value]}
    return value


@pytest.mark.parametrize("fmt", DATA_FORMATS, ids=FORMAT_IDS)
def test_encode_refuses_what_it_cannot_write(fmt: Format) -> None:
    """10,000-deep values and 5,000-digit integers: FormatError, not RecursionError/ValueError."""
    for value in (_deep(DEPTH // 2), {"n": 10**5000 - 1}):
        assert _encode(fmt, value) is None, f"{fmt.name} encoded a value it cannot read back"
    shallow = _deep(MAX_DEPTH // 2 - 1)
    if fmt.lossless:
        _round_trip(fmt, shallow)


# --- regressions: each bug the fuzzing found, with the error a user gets ----------------------------


def _fmt(name: str) -> Format:
    return next(f for f in DATA_FORMATS if f.name == name)


@pytest.mark.parametrize("name", ["json", "json-compact", "yaml", "tealeaf", "tealeaf-compact", "xml"])
def test_deep_nesting_is_a_positioned_error(name: str) -> None:
    """Was RecursionError (json, yaml, tealeaf) and, for YAML flow collections, seconds of quadratic scanning."""
    text = {"yaml": "a: " + "[" * DEPTH, "tealeaf": "a: " + "[" * DEPTH, "tealeaf-compact": "a: " + "[" * DEPTH,
            "xml": "<root>" + "<a>" * DEPTH + "</a>" * DEPTH + "</root>"}.get(name, "[" * DEPTH + "]" * DEPTH)
    start = time.process_time()
    with pytest.raises(FormatError, match=f"deeper than {MAX_DEPTH}|nest|depth") as info:
        _fmt(name).decode(text)
    assert time.process_time() - start < 1.0
    if name in ("json", "json-compact", "yaml", "tealeaf", "tealeaf-compact"):
        assert info.value.line == 1 and info.value.column is not None, str(info.value)


def test_yaml_deep_block_nesting_is_an_error() -> None:
    with pytest.raises(FormatError, match=f"deeper than {MAX_DEPTH}") as info:
        _fmt("yaml").decode("- " * 5000 + "x")
    assert info.value.line == 1


@pytest.mark.parametrize(("name", "text"), [
    ("json", '{"a":\n' + "1" * 5000 + "}"),
    ("yaml", "a:\n  " + "1" * 5000),
    ("tealeaf", "a:\n" + "1" * 5000),
    ("csv", "a\n" + "1" * 5000 + "\n"),
    ("xml", '<root type="int">' + "1" * 5000 + "</root>"),
], ids=["json", "yaml", "tealeaf", "csv", "xml"])
def test_huge_integer_literal_is_an_error(name: str, text: str) -> None:
    """Was ValueError ('Exceeds the limit (4300 digits)') escaping decode."""
    with pytest.raises(FormatError, match="5,000 digits") as info:
        _fmt(name).decode(text)
    if name != "xml":
        assert info.value.line == 2, str(info.value)


def test_xml_lone_surrogate_is_a_positioned_error() -> None:
    """Was UnicodeEncodeError from expat."""
    with pytest.raises(FormatError, match="surrogate") as info:
        _fmt("xml").decode("<root>\n  a\udfffb</root>")
    assert (info.value.line, info.value.column) == (2, 4)


def test_tealeaf_escaped_surrogate_pair_is_one_character() -> None:
    assert _fmt("tealeaf").decode('a: "\\ud83d\\ude00 \\ud83d"') == {"a": "\U0001f600 \ud83d"}


@pytest.mark.parametrize("name", ["yaml", "tealeaf", "toon", "csv"])
def test_size_limit_is_documented_error(name: str) -> None:
    fmt = _fmt(name)
    limit = fmt.max_chars  # type: ignore[attr-defined]
    with pytest.raises(FormatError, match="too large") as info:
        fmt.decode("a" * (limit + 1))
    assert f"{limit:,}" in str(info.value)
    assert fmt.validate("a" * (limit + 1))[0].message.startswith("document too large")
