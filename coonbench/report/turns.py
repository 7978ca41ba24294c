"""Multi-turn sessions (``-T turns=N`` of modification): accuracy by turn per format, and the turn at which two
formats part.

A session's samples carry ``turn_<k>`` score columns (exact at turn k against the cumulative gold). Per turn the
accuracy per system and format comes from ``tables.accuracy_rows`` (clustered or Wilson 95% intervals, as every
accuracy in the report) and the paired comparisons of formats from ``tables.comparisons`` (Holm within each system
and turn). Two formats *part* at the first turn whose comparison concludes (Holm-adjusted p < α); the table gives
that turn with the difference and its interval, or says that they do not part within the turns run.
"""

from __future__ import annotations

import re

import pandas as pd

from coonbench.report import stats
from coonbench.report.tables import Section, Table, accuracy_rows, comparisons, has

TURN_KEY = re.compile(r"turn_(\d+)")
BY_TURN_COLUMNS = ["system", "format", "turn", "n", "correct", "accuracy", "ci_low", "ci_high", "interval"]


def turn_keys(frame: pd.DataFrame) -> list[tuple[int, str]]:
    """(k, column) of every ``turn_<k>`` column with a value, in turn order."""
    found = [(int(m.group(1)), c) for c in frame.columns if (m := TURN_KEY.fullmatch(str(c))) and has(frame, c)]
    return sorted(found)


def by_turn(frame: pd.DataFrame) -> pd.DataFrame:
    """Accuracy per system, format and turn with 95% intervals."""
    rows = []
    for k, key in turn_keys(frame):
        data = frame[frame[key].notna()]
        acc = accuracy_rows(data, ["system", "format"], key=key).assign(turn=k)
        rows.append(acc[BY_TURN_COLUMNS])
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=BY_TURN_COLUMNS)


def parting(frame: pd.DataFrame) -> pd.DataFrame:
    """Per system and pair of formats: the first turn at which they part (NaN when they never do), with the
    difference and its 95% interval there (else at the last turn)."""
    per_turn = []
    for k, key in turn_keys(frame):
        cmp = comparisons(frame[frame[key].notna()], key=key)
        if not cmp.empty:
            per_turn.append(cmp.assign(turn=k))
    if not per_turn:
        return pd.DataFrame()
    allcmp = pd.concat(per_turn, ignore_index=True)
    rows = []
    for (system, fa, fb), g in allcmp.groupby(["system", "format_a", "format_b"], sort=True):
        g = g.sort_values("turn")
        apart = g[g["p_holm"] < stats.ALPHA]
        at = apart.iloc[0] if not apart.empty else g.iloc[-1]
        rows.append({"system": system, "format_a": fa, "format_b": fb, "turns": int(g["turn"].max()),
                     "part_at_turn": int(at["turn"]) if not apart.empty else float("nan"),
                     "turn_shown": int(at["turn"]), "diff": at["diff"], "diff_low": at["diff_low"],
                     "diff_high": at["diff_high"], "p_holm": at["p_holm"], "pairs": int(at["pairs"])})
    return pd.DataFrame(rows)


def turns_section(cat: str, frame: pd.DataFrame) -> Section:
    """Accuracy by turn per format and where the formats part."""
    sec = Section(id=f"{cat}_turns", title=f"{cat.capitalize()}: accuracy by turn (multi-turn sessions)")
    sec.tables.append(Table(f"{cat}_by_turn", "Exact accuracy after each turn against the cumulative gold "
                            "(95% CI), per format", by_turn(frame)))
    part = parting(frame)
    if not part.empty:
        sec.tables.append(Table(f"{cat}_parting", "The first turn at which two formats part (Holm-adjusted "
                                "p < 0.05), with the difference A − B and its 95% CI there (else at the last turn)",
                                part))
        for row in part.itertuples():
            where = (f"part at turn {int(row.part_at_turn)}" if row.part_at_turn == row.part_at_turn
                     else f"do not part within {row.turns} turns")
            sec.summary.append(f"{row.system}: {row.format_a} and {row.format_b} {where} (difference "
                               f"{row.diff * 100:+.1f} points, 95% CI {row.diff_low * 100:+.1f} to "
                               f"{row.diff_high * 100:+.1f}, at turn {row.turn_shown}).")
    return sec
