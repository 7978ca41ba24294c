"""Hostile text in logs (score cells, format names, ids) never crashes the report's readers and renderers."""

from __future__ import annotations

import math

import pandas as pd
from hypothesis import given

from coonbench.report.load import _score_dict, _strip_suffix, clean_text
from coonbench.report.render import _html_table, markdown_table
from tests.hostile import FUZZ_SETTINGS, check_contract, fixed_hostile, hostile_text

VALID_SCORES = ['{"correct": 1.0, "input_tokens": 12.0}', "C", "I", "0.5", '{"correct": NaN}']


def _read_score(text: str) -> dict[str, float]:
    out = _score_dict(text)
    assert all(isinstance(v, float) for v in out.values())
    return out


def _render(text: str) -> tuple[str, str]:
    text = clean_text(text)  # as the loader hands every log string on
    text.encode("utf-8")
    frame = pd.DataFrame([{"system": text, "format": text, "n": 3, "accuracy": 0.5, "note": math.nan}])
    md, html = markdown_table(frame), _html_table(frame)
    assert md.count("\n") == 2  # header, rule, one row: hostile text cannot add rows
    assert "<script" not in html.lower() or "&lt;" in html
    return md, html


@FUZZ_SETTINGS
@given(hostile_text(VALID_SCORES))
def test_score_cells(text: str) -> None:
    check_contract(_read_score, text)


@FUZZ_SETTINGS
@given(hostile_text(["coon-noprimer", "q1-json-pretty"]))
def test_format_names_in_tables_and_ids(text: str) -> None:
    check_contract(_render, text)
    check_contract(lambda t: _strip_suffix(t, t[-5:]), text)


def test_fixed_hostile_cases() -> None:
    for text in fixed_hostile('{"correct": 1.0}'):
        check_contract(_read_score, text)
        check_contract(_render, text)
