"""Data formats (json, json-compact, yaml, toon, csv, xml, tealeaf): round trips, TOON parity with the
benchmark's encoded datasets, clear errors, and a complete registry."""

from __future__ import annotations

import json
from typing import Any

import pytest
import toon_format
from hypothesis import given, settings
from hypothesis import strategies as st

from coonbench.formats import FormatError, get_format, list_formats
from coonbench.resources import SHARED_DIR
from coonbench.formats._compare import first_difference
from tests.equality import strict_equal

TOON_GEN = SHARED_DIR / "reference" / "toon" / "generated"


def numeric_equal(a: Any, b: Any) -> bool:
    """Equality where numbers compare by value (whole-number floats come back as ints): the formats' own check."""
    return first_difference(a, b) is None


VARIED: list[Any] = [
    {"employees": [{"id": 1, "name": "Ann", "salary": 1.5e3, "active": True, "boss": None}]},
    {"nested": {"deep": {"deeper": [1, [2, [3]], {"x": "y"}]}}, "empty": {}, "list": []},
    [1, 2.5, "three", None, False, {"a": "yes"}, "null", "1e3", "0x1F", "", " padded ", "é ü 日本"],
    {"weird keys": 1, "1abc": 2, "a:b": 3, "": 4, "xml": "<tag> & \"quotes\""},
    "just a string",
    -0.0,
    12345678901234567890,
]

LOSSLESS = ["json", "json-compact", "yaml", "toon", "xml", "tealeaf", "tealeaf-compact"]
# Formats whose round trip keeps number types exactly (1 vs 1.0).
TYPE_EXACT = {"json", "json-compact", "yaml", "xml"}


@pytest.mark.parametrize("fmt", LOSSLESS)
@pytest.mark.parametrize("value", VARIED, ids=[f"v{i}" for i in range(len(VARIED))])
def test_round_trip_varied(fmt: str, value: Any) -> None:
    if fmt.startswith("tealeaf") and not isinstance(value, (dict, list)):
        pytest.skip("a TeaLeaf document is an object or a root array (a scalar root reads back as {'root': v})")
    f = get_format(fmt)
    back = f.decode(f.encode(value))
    if fmt in TYPE_EXACT:
        assert strict_equal(back, value)
    elif fmt.startswith("tealeaf"):
        # Key order of table rows follows the struct; compare by value with numbers by value.
        assert json.dumps(back, sort_keys=True) == json.dumps(value, sort_keys=True) or numeric_equal(
            _sorted(back), _sorted(value))
    else:
        assert numeric_equal(back, value)


def _sorted(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _sorted(v[k]) for k in sorted(v)}
    if isinstance(v, list):
        return [_sorted(x) for x in v]
    return v


_scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
            | st.text(max_size=10) | st.sampled_from(["yes", "no", "null", "~", "1e3", "true", "0o17", ".5",
                                                        "-", "- a", "#x", "a: b", "[1]", "{}", "'", '"']))
_json = st.recursive(_scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c,
                                                                                      max_size=4), max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(_json)
def test_round_trip_property_exact(value: Any) -> None:
    for fmt in ("json", "json-compact", "yaml", "xml"):
        f = get_format(fmt)
        assert strict_equal(f.decode(f.encode(value)), value), fmt


@settings(max_examples=200, deadline=None)
@given(_json)
def test_round_trip_property_toon(value: Any) -> None:
    """Exact round trip (key order included), or a loud refusal — never a document that reads back differently."""
    f = get_format("toon")
    try:
        text = f.encode(value)
    except FormatError as err:
        assert "cannot represent this value exactly" in str(err)
        return
    assert numeric_equal(f.decode(text), value)


def test_toon_refuses_objects_whose_rows_reorder() -> None:
    """toon_format writes an object of objects as one table and reorders a row's keys (found by hypothesis)."""
    value = {"a": {"x": 1, "y": 2}, "b": {"y": 3, "x": 4}}
    with pytest.raises(FormatError, match=r"\$\.b: keys \['y', 'x'\] come back as \['x', 'y'\]"):
        get_format("toon").encode(value)
    same_order = {"a": {"x": 1, "y": 2}, "b": {"x": 4, "y": 3}}
    assert numeric_equal(get_format("toon").decode(get_format("toon").encode(same_order)), same_order)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text(max_size=6), _json, max_size=4) | st.lists(_json, max_size=4))
def test_round_trip_property_tealeaf(value: Any) -> None:
    for fmt in ("tealeaf", "tealeaf-compact"):
        f = get_format(fmt)
        assert numeric_equal(_sorted(f.decode(f.encode(value))), _sorted(value)), fmt


def test_yaml_quotes_ambiguous_strings() -> None:
    text = get_format("yaml").encode({"a": "yes", "b": "null", "c": "1e3", "d": "0o17", "e": "plain"})
    assert "a: 'yes'" in text and "b: 'null'" in text and "c: '1e3'" in text and "d: '0o17'" in text
    assert "e: plain" in text


def test_yaml_keeps_order_and_unicode() -> None:
    text = get_format("yaml").encode({"z": "日本", "a": 1})
    assert text == "z: 日本\na: 1\n"


def test_json_renderings() -> None:
    assert get_format("json").encode({"a": [1]}) == '{\n  "a": [\n    1\n  ]\n}'
    assert get_format("json-compact").encode({"a": [1, "é"]}) == '{"a":[1,"é"]}'


def test_json_decode_error_has_position() -> None:
    with pytest.raises(FormatError) as info:
        get_format("json").decode('{\n  "a": 1,\n}')
    assert info.value.line == 3 and info.value.column is not None


# --- TOON parity with the benchmark ------------------------------------------------------------------------


def _toon_datasets() -> list[dict[str, Any]]:
    path = TOON_GEN / "datasets.json"
    if not path.exists():
        pytest.skip(f"reference data absent: {path}")
    return json.loads(path.read_text(encoding="utf-8"))


def test_toon_matches_benchmark_encoding() -> None:
    datasets = _toon_datasets()
    encoded = json.loads((TOON_GEN / "encoded.json").read_text(encoding="utf-8"))
    checked = 0
    for ds in datasets:
        if ds.get("corruption") and ds["corruption"].get("kind") != "control":
            continue  # the corrupted sets were altered after encoding
        assert get_format("toon").encode(ds["data"]) == encoded[ds["name"]]["toon"], ds["name"]
        checked += 1
    assert checked >= 9


def test_toon_package_is_the_encoder() -> None:
    data = {"users": [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}]}
    assert get_format("toon").encode(data) == toon_format.encode(data)


def test_toon_malformed_has_line() -> None:
    with pytest.raises(FormatError) as info:
        get_format("toon").decode("items[3]{a,b}:\n  1,2\n  3,4\n")
    assert info.value.line is not None
    with pytest.raises(FormatError) as info:
        get_format("toon").decode("a:\n   b: 1\n")
    assert info.value.line == 2
    assert get_format("toon").validate("a:\n   b: 1\n")[0].line == 2


# --- CSV --------------------------------------------------------------------------------------------------


def test_csv_flat_round_trip_typed() -> None:
    rows = [{"id": 1, "name": "Ann, Jr.", "score": 2.5, "ok": True, "note": None},
            {"id": 2, "name": 'say "hi"', "score": 1e20, "ok": False, "note": "x"}]
    f = get_format("csv")
    text = f.encode({"employees": rows})
    assert text.splitlines()[0] == "id,name,score,ok,note"
    assert strict_equal(f.decode(text), rows)
    assert f.lossless is False


def test_csv_lossy_points_documented() -> None:
    back = get_format("csv").decode(get_format("csv").encode([{"a": "42", "b": "", "c": "true"}]))
    assert back == [{"a": 42, "b": None, "c": True}]


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ({"orders": [{"id": 1, "customer": {"name": "A"}}]}, "$.orders[0].customer"),
        ([{"id": 1}, {"id": 2, "tags": ["a"]}], "$[1].tags"),
    ],
)
def test_csv_rejects_nested(value: Any, path: str) -> None:
    with pytest.raises(FormatError) as info:
        get_format("csv").encode(value)
    assert path in str(info.value) and "nested" in str(info.value)


def test_csv_rejects_non_tabular() -> None:
    with pytest.raises(FormatError, match="exactly one"):
        get_format("csv").encode({"a": [], "b": []})


def test_csv_matches_benchmark_header_and_rows() -> None:
    datasets = _toon_datasets()
    tab = next(d for d in datasets if d["name"] == "tabular")
    ours = get_format("csv").encode(tab["data"]).splitlines()
    theirs = json.loads((TOON_GEN / "encoded.json").read_text(encoding="utf-8"))["tabular"]["csv"].splitlines()
    assert ours[0] == theirs[1]  # their first line is a "# employees" comment
    assert len(ours) == len(theirs) - 1


def test_csv_decode_width_error_line() -> None:
    with pytest.raises(FormatError) as info:
        get_format("csv").decode("a,b\n1,2\n3\n")
    assert info.value.line == 3


# --- XML --------------------------------------------------------------------------------------------------


def test_xml_mapping_is_documented_shape() -> None:
    text = get_format("xml").encode({"users": [{"id": 1, "name": "Ann"}], "ok": True, "n": None, "f": 1.0})
    assert text == (
        "<root>\n  <users type=\"array\">\n    <item>\n      <id type=\"int\">1</id>\n      <name>Ann</name>\n"
        "    </item>\n  </users>\n  <ok type=\"bool\">true</ok>\n  <n type=\"null\" />\n"
        "  <f type=\"float\">1.0</f>\n</root>\n"
    )


def test_xml_full_primer_states_every_name_the_mapping_writes() -> None:
    """A model asked to write XML is told the mapping: every element name and attribute value the encoder writes
    for a value of every kind (the document element, an array's entries, each type, an odd key) is in the full
    primer, read off the encoder's own output, so a mapping that grows a convention fails here until it is told."""
    import xml.etree.ElementTree as ET

    fmt = get_format("xml")
    value = {"list": [1, 2.5, True, None, "s"], "empty": {}, "two words": "x", "nested": {"a": []}}
    keys = {"list", "empty", "two words", "nested", "a"}  # the data's own names, written as themselves
    names = set()
    for el in ET.fromstring(fmt.encode(value)).iter():
        if el.tag not in keys:
            names.add(f"<{el.tag}")
        names.update(f'{k}="{v}"' for k, v in el.attrib.items() if k != "key")
        names.update(f'{k}="' for k in el.attrib)
    primer = fmt.primer("full")
    assert {n for n in names if n not in primer} == set()
    assert "<root" in names and 'type="object"' in names and "<_" in names


def test_xml_error_has_line_and_column() -> None:
    with pytest.raises(FormatError) as info:
        get_format("xml").decode("<root>\n  <a>1</b>\n</root>")
    assert info.value.line == 2 and info.value.column is not None


# --- registry ---------------------------------------------------------------------------------------------


def test_registry_complete() -> None:
    names = {f.name for f in list_formats()}
    assert {"json", "json-compact", "yaml", "toon", "csv", "xml", "tealeaf", "tealeaf-compact"} <= names
    for f in list_formats():
        assert f.description and "\n" not in f.description, f.name
        assert f.fence, f.name
        assert f.primer("short").strip() and f.primer("full").strip(), f.name
        assert f.kind in ("code", "data")


def test_first_difference_names_the_path_and_honours_its_options() -> None:
    """The one comparison the data formats' self-checks and these tests share."""
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == "$.a[1].b: 2 comes back as 3"
    assert first_difference({"a": 1.0}, {"a": 1}) is None  # TOON canonicalises numbers
    assert first_difference({"a": 1.0}, {"a": 1}, numbers_by_value=False) == "$.a: 1.0 comes back as 1"
    assert first_difference(-0.0, 0.0, numbers_by_value=False) is not None
    assert first_difference(True, 1) == "$: True comes back as 1"
    assert first_difference({"a": 1, "b": 2}, {"b": 2, "a": 1}) is not None
    assert first_difference({"a": 1, "b": 2}, {"b": 2, "a": 1}, key_order=False) is None
    deep: Any = 0
    for _ in range(10_000):
        deep = [deep]
    assert first_difference(deep, deep) is None  # iterative: no RecursionError
