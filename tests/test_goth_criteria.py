"""The Goth seed's four success criteria, decided on intervals: clear-cut synthetic runs give met or missed as the
thresholds say, a small one leaves a criterion unsettled, and the correction section carries the table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from coonbench.report.correction import correction_section
from coonbench.report.goth_criteria import MET, MISSED, UNSETTLED, decide, goth_criteria

N = 40


def _frame(debruijn: list[float]) -> pd.DataFrame:
    rows = []
    for i in range(N):
        solved = float(i % 2 == 0)
        common = {"system": "m", "pair": f"correction-p{i}", "epoch": 1, "cluster": f"p{i}"}
        rows.append({**common, "format": "python", "parse_success": 1.0, "first_attempt_success": solved,
                     "correct": solved, "final_tokens": 100.0, "token_ratio": 1.0, "debruijn_error": np.nan})
        rows.append({**common, "format": "goth", "parse_success": float(i % 4 != 0), "first_attempt_success": solved,
                     "correct": 1.0, "final_tokens": 150.0, "token_ratio": 1.5,
                     "debruijn_error": debruijn[i] if i < len(debruijn) else np.nan})
        rows.append({**common, "format": "goth-json", "parse_success": 1.0, "first_attempt_success": solved,
                     "correct": 1.0, "final_tokens": 600.0, "token_ratio": 6.0, "debruijn_error": np.nan})
    return pd.DataFrame(rows)


def test_clear_runs_are_met_or_missed() -> None:
    table, sentences = goth_criteria(_frame([float(i % 2) for i in range(N)]))
    verdicts = dict(zip(table["criterion"], table["verdict"]))
    # 1: syntax fails 10 of 40 first attempts, JSON none (100% fewer); 2: 20 of 40 semantic errors are index errors;
    # 3: Goth and Python first attempts agree on every problem; 4: Goth takes 1.5 × Python's tokens
    assert verdicts == {1: MET, 2: MISSED, 3: MET, 4: MISSED}
    assert table.loc[table["criterion"] == 4, "estimate"].item() == 1.5
    assert len(sentences) == 4 and "**met**" in sentences[0]


def test_few_semantic_errors_leave_the_index_criterion_unsettled() -> None:
    table, _ = goth_criteria(_frame([1.0] + [0.0] * 9))  # 1 of 10: Wilson [0.02, 0.40] straddles 10%
    assert table.loc[table["criterion"] == 2, "verdict"].item() == UNSETTLED


def test_decide() -> None:
    assert decide(0.3, 0.5, 0.2, above=True) == MET and decide(0.0, 0.1, 0.2, above=True) == MISSED
    assert decide(0.1, 0.3, 0.2, above=True) == UNSETTLED and decide(float("nan"), 1.0, 0.2, True) == UNSETTLED
    assert decide(0.01, 0.05, 0.1, above=False) == MET and decide(0.2, 0.5, 0.1, above=False) == MISSED


def test_the_correction_section_carries_the_criteria() -> None:
    section = correction_section("correction", _frame([0.0] * N))
    assert any(t.name == "correction_goth_criteria" for t in section.tables)
    assert any("Goth criterion 2" in s for s in section.summary)
