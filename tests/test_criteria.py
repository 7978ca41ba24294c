"""Criteria as data: AI/RUN's files load unchanged; malformed files name file, entry, field and line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from coonbench.judging.criteria import (
    CriteriaError,
    Criterion,
    criteria_from_dict,
    load_criteria,
    parse_criteria,
    sample_criteria,
)
from tests.conftest import reference_path

AIRUN_V1 = [
    "criteria_v1_unweighted/component_generation/GenerateBaseComponent_criteria.yaml",
    "criteria_v1_unweighted/solution_migration/jQueryToReact_ToDoApp_jQuery_high_low_criteria.yaml",
    "criteria_v1_unweighted/code_explanation/DescribeTechnicalImplementation_ReactSignUp_high_low_criteria.yaml",
]
AIRUN_WEIGHTED = "criteria_weighted_sample/GenerateBaseComponent_meta.yaml"


def _expected(path: Path) -> dict[str, list[tuple[str, float]]]:
    """What the file says, read independently of our loader: (text, weight) per list."""
    steps = yaml.safe_load(path.read_text(encoding="utf-8"))["evaluation_steps"]
    out: dict[str, list[tuple[str, float]]] = {}
    for name in ("accuracy", "completeness"):
        out[name] = [
            (item, 1.0) if isinstance(item, str) else (item.get("criteria", item.get("criterion")), item["weight"])
            for item in steps[name]
        ]
    return out


@pytest.mark.parametrize("relative", [*AIRUN_V1, AIRUN_WEIGHTED])
def test_airun_files_load_unchanged(relative: str) -> None:
    path = reference_path("airun", *relative.split("/"))
    crit = load_criteria(path)
    expected = _expected(path)
    for name in ("accuracy", "completeness"):
        got = [(c.text, c.weight) for c in getattr(crit, name)]
        assert got == [(t.strip(), float(w)) for t, w in expected[name]]
        assert len(got) >= 9  # AI/RUN lists hold 9–15 sentences
    assert crit.metadata["category"]
    assert crit.source == str(path)


def test_weighted_file_with_criterion_key_loads_the_same(tmp_path: Path) -> None:
    """AI/RUN renamed `criteria` to `criterion` (413df89): both spellings give the same criteria."""
    original = reference_path("airun", *AIRUN_WEIGHTED.split("/"))
    renamed = tmp_path / "meta.yaml"
    renamed.write_text(original.read_text(encoding="utf-8").replace("- criteria:", "- criterion:"), encoding="utf-8")
    assert "criterion:" in renamed.read_text(encoding="utf-8")
    a, b = load_criteria(original), load_criteria(renamed)
    assert a.accuracy == b.accuracy and a.completeness == b.completeness


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad_criteria.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "entry", "field", "line", "words"),
    [
        (
            "evaluation_steps:\n  accuracy:\n  - criteria: fine\n    weight: 1\n  - criteria: typo\n    wieght: 2\n"
            "  completeness: [ok]\n",
            "accuracy[1]",
            "wieght",
            6,
            "unknown key",
        ),
        (
            "evaluation_steps:\n  accuracy: [ok]\n  completeness:\n  - criterion: x\n    weight: heavy\n",
            "completeness[0]",
            "weight",
            5,
            "number",
        ),
        (
            "evaluation_steps:\n  accuracy:\n  - weight: 1.0\n  completeness: [ok]\n",
            "accuracy[0]",
            "criterion",
            3,
            "missing",
        ),
        ("evaluation_steps:\n  accuracy:\n  - criteria: x\n    weight: -1\n", "accuracy[0]", "weight", 4, ">= 0"),
        ("evaluation_steps:\n  accuracy: [ok, 42]\n", "accuracy[1]", None, 2, "string or a mapping"),
        ("evaluation_steps:\n  accuracy: ['  ']\n", "accuracy[0]", None, 2, "empty"),
    ],
)
def test_malformed_entry_names_file_entry_field_and_line(
    tmp_path: Path, text: str, entry: str, field: str | None, line: int, words: str
) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(CriteriaError) as info:
        load_criteria(path)
    err = info.value
    assert err.source == str(path) and str(path) in str(err)
    assert err.entry == entry and f"entry {entry}" in str(err)
    assert err.field == field
    assert err.line == line and f"{path}:{line}" in str(err)
    assert words in str(err)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("evaluation_steps:\n  accuracy: [a]\n  features: [b]\n", "unknown list"),
        ("evaluation_steps: [a, b]\n", "mapping"),
        ("evaluation_steps:\n  accuracy: []\n  completeness: []\n", "no criteria"),
        ("steps:\n  accuracy: [a]\n", "unknown top-level"),
        ("evaluation_steps:\n  accuracy: 'just one'\n", "list of criteria"),
        ("evaluation_steps:\n  accuracy:\n  - criteria: a\n    weight: 0\n", "not all be 0"),
        ("evaluation_steps:\n  accuracy: [a\n", "not valid YAML"),
        ("- a\n- b\n", "mapping"),
    ],
)
def test_malformed_structure_names_the_file(tmp_path: Path, text: str, words: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(CriteriaError, match=words) as info:
        load_criteria(path)
    assert str(path) in str(info.value)


def test_missing_file_is_a_criteria_error(tmp_path: Path) -> None:
    with pytest.raises(CriteriaError, match="cannot read"):
        load_criteria(tmp_path / "nope.yaml")


def test_dict_forms_and_round_trip() -> None:
    meta = sample_criteria(
        accuracy=["Uses Dart 3 syntax", ("No TODO comments", 0.5)],
        completeness=[{"criterion": "Shows a loading indicator while isLoading is true", "weight": 2}],
    )
    assert meta == {
        "accuracy": [
            {"criterion": "Uses Dart 3 syntax", "weight": 1.0},
            {"criterion": "No TODO comments", "weight": 0.5},
        ],
        "completeness": [{"criterion": "Shows a loading indicator while isLoading is true", "weight": 2.0}],
    }
    crit = criteria_from_dict(meta, source="sample s1")
    assert crit.to_metadata() == meta
    assert [c.text for c in crit.completeness] == ["Shows a loading indicator while isLoading is true"]
    # the AI/RUN wrapper is accepted for dicts too, and a list may be empty
    wrapped = criteria_from_dict({"evaluation_steps": {"completeness": ["a"]}})
    assert wrapped.accuracy == () and [n for n, _ in wrapped.items()] == ["completeness"]


def test_dict_errors_name_the_sample() -> None:
    with pytest.raises(CriteriaError) as info:
        criteria_from_dict({"accuracy": [{"criterion": "x", "weight": "2kg"}]}, source="sample 'mod-7'")
    assert "sample 'mod-7', entry accuracy[0], field 'weight'" in str(info.value)
    with pytest.raises(CriteriaError, match="must be a mapping"):
        criteria_from_dict(None, source="sample 'x' metadata['criteria']")
    with pytest.raises(CriteriaError, match="both 'criterion' and 'criteria'"):
        parse_criteria({"accuracy": [{"criterion": "a", "criteria": "b"}]})


def test_criterion_model_validates() -> None:
    with pytest.raises(ValidationError):
        Criterion(text="x", weight=-1)
    with pytest.raises(ValidationError):
        Criterion(text="   ")
    assert Criterion(text="  Verify it  ").text == "Verify it"
