"""markdown-kv and markdown-table: exact round trips (hypothesis, over the retrieval datasets and arbitrary
JSON values), the documented layout, positioned errors and refusals (hostile input: tests/test_fuzz_markdown.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coonbench.datasets.retrieval import RETRIEVAL_DIR, retrieval_samples
from coonbench.formats import FormatError, get_format
from tests.hostile import FUZZ_SETTINGS

NAMES = ("markdown-kv", "markdown-table")
DATASETS = {p.stem: json.loads(p.read_text()) for p in sorted((RETRIEVAL_DIR / "datasets").glob("*.json"))}


def _same(a: Any, b: Any) -> bool:
    """Equal including key order and int/float/bool distinctions."""
    return json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False)


@pytest.mark.parametrize("name", NAMES)
def test_every_retrieval_dataset_round_trips(name: str) -> None:
    fmt = get_format(name)
    assert fmt.kind == "data" and fmt.lossless and fmt.fence == "markdown"
    for stem, data in DATASETS.items():
        text = fmt.encode(data)
        assert _same(fmt.decode(text), data), stem
        assert fmt.validate(text) == []


_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10**12, max_value=10**12),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
    st.sampled_from(["", " a", "1.5", "true", "null", "[x", "{", "a|b", "#h", "- x", "a: b", "\"q\"", "x.y",
                     "\u2028", "line\nbreak"]),
)
_keys = st.one_of(st.text(max_size=8), st.sampled_from(["a.b", "a:b", "#k", "[1]", "-x", "", " k", "|", "key"]))
_json = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(_keys, inner, max_size=4)), max_leaves=20)


@st.composite
def _mutated_dataset(draw: st.DrawFn) -> Any:
    """A retrieval dataset with some rows kept and some values replaced by arbitrary JSON."""
    data = json.loads(json.dumps(DATASETS[draw(st.sampled_from(sorted(DATASETS)))]))
    for key, value in data.items():
        if isinstance(value, list) and value:
            keep = draw(st.integers(min_value=1, max_value=len(value)))
            data[key] = value = value[:keep]
            row = value[draw(st.integers(min_value=0, max_value=len(value) - 1))]
            if isinstance(row, dict) and row:
                field = draw(st.sampled_from(sorted(row)))
                row[field] = draw(_json)
    return data


@pytest.mark.parametrize("name", NAMES)
@FUZZ_SETTINGS
@given(value=st.one_of(_mutated_dataset(), st.dictionaries(_keys, _json, max_size=5),
                       st.lists(st.dictionaries(_keys, _json, max_size=4), min_size=1, max_size=4)))
def test_round_trip_property(name: str, value: Any) -> None:
    """Encode either refuses with FormatError or gives a text that decodes to exactly the value."""
    fmt = get_format(name)
    try:
        text = fmt.encode(value)
    except FormatError:
        return
    assert _same(fmt.decode(text), value)


def test_mutated_datasets_are_not_refused() -> None:
    """Datasets as the retrieval task uses them are always representable (refusal is for odd roots only)."""
    for name in NAMES:
        for stem, data in DATASETS.items():
            get_format(name).encode({"x": 1, **data})  # a scalar before sections is fine
            get_format(name).encode({**data, "x": 1})  # … and after them: flat layout, no headings


def test_layout_rules() -> None:
    kv, table = get_format("markdown-kv"), get_format("markdown-table")
    data = {"v": "1.0", "rows": [{"id": 1, "who": {"name": "Ada"}, "tags": ["a"]}, {"id": 2, "who": {"name": "Bo"}}]}
    assert kv.encode(data) == ('v: "1.0"\n\n# rows\n## [1]\nid: 1\nwho.name: Ada\ntags: ["a"]\n\n'
                               '## [2]\nid: 2\nwho.name: Bo\n')
    assert table.encode(data) == ('v: "1.0"\n\n# rows\n| id | who.name | tags |\n| --- | --- | --- |\n'
                                  '| 1 | Ada | ["a"] |\n| 2 | Bo |  |\n')
    # a pipe never appears inside a cell: it is escaped in a JSON string
    text = table.encode([{"a": "x|y"}])
    assert text.splitlines()[2] == '| "x\\u007cy" |' and table.decode(text) == [{"a": "x|y"}]
    # rows whose keys come in another order are not forced into a table
    assert "## [1]" in table.encode({"r": [{"a": 1, "b": 2}, {"b": 3, "a": 4}]})


@pytest.mark.parametrize("name", NAMES)
def test_refusals_are_loud(name: str) -> None:
    fmt = get_format(name)
    for value in (3, "x", [1, 2], [], float("nan"), {"a": float("inf")}, {"a": {1, 2}}):
        with pytest.raises(FormatError):
            fmt.encode(value)


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("a: 1\nb 2\n", 2, 4),
        ("# rows\n| a | b |\n| --- | --- |\n| 1 |\n", 4, 1),
        ("# rows\n## [1]\na: 1\n## [3]\na: 2\n", 4, 1),
        ('a: "open\n', 1, 4),
        ("### deep\n", 1, 1),
        ("# s\n", 1, 1),
    ],
)
def test_errors_have_positions(text: str, line: int, column: int) -> None:
    (err,) = get_format("markdown-table").validate(text)
    assert (err.line, err.column) == (line, column), err


def test_retrieval_runs_markdown_formats() -> None:
    samples, skipped = retrieval_samples("markdown-kv,markdown-table")
    assert not skipped
    by_format = {name: [s for s in samples if s.metadata["format"] == name] for name in NAMES}
    assert len(by_format["markdown-kv"]) == len(by_format["markdown-table"]) > 250
    s = by_format["markdown-kv"][0]
    assert "```markdown\n" in s.input and "Markdown key-value" in s.input


def test_token_change_vs_json() -> None:
    """Both layouts are smaller than pretty JSON on our datasets (figures printed for the report)."""
    from coonbench.tokens import count_tokens

    base = sum(count_tokens(get_format("json").encode(d)) for d in DATASETS.values())
    for name in NAMES:
        total = sum(count_tokens(get_format(name).encode(d)) for d in DATASETS.values())
        print(f"{name}: {total} tokens vs json {base} ({(total - base) / base:+.1%}) over {len(DATASETS)} datasets")
        assert total < base
