"""Structural corruption applied to the ENCODED TEXT, per format, as TOON's benchmark does.

* row formats — ``toon``, ``csv``, ``tealeaf``, ``tealeaf-compact`` (one line per record):
  - truncated: the last 3 row lines are removed (TOON's header still declares ``[20]``);
  - extra-rows: 3 row lines are appended (TOON's header keeps the original ``[20]``);
  - width-mismatch: one cell (``salary``) is deleted from row 10, so the row is narrower than its header/struct;
  - missing-fields: the ``email`` cell is deleted from every 5th row.
* every other format (json, json-compact, yaml, xml, user plug-ins): the lossy-pipeline outcome — the data with
  the rows removed/added or the keys deleted is encoded as usual (a schema-level signal only, or none).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from coonbench.datasets.retrieval.common import ROW_FORMATS, SEED
from coonbench.datasets.retrieval.generate import make_employees
from coonbench.formats import FormatError, get_format

def _row_indices(lines: list[str], fmt: str) -> list[int]:
    if fmt == "csv":
        return [i for i, line in enumerate(lines) if i > 0 and line.strip()]
    if fmt == "toon":
        return [i for i, line in enumerate(lines) if line.startswith("  ")]
    return [i for i, line in enumerate(lines) if line.lstrip().startswith("(")]


def _drop_cell(line: str, column: int, fmt: str) -> str:
    if fmt in ("tealeaf", "tealeaf-compact"):
        m = re.match(r"^(\s*\()(.*)(\)\s*,?\s*)$", line)
        if not m:
            raise FormatError(f"unexpected TeaLeaf row line {line!r}")
        head, body, tail = m.groups()
    else:
        head, body, tail = re.match(r"^(\s*)(.*?)(\s*)$", line).groups()  # type: ignore[union-attr]
    cells = body.split(",")
    del cells[column]
    return head + ",".join(cells) + tail


@lru_cache(maxsize=4)
def _appended(seed: int) -> tuple[dict[str, Any], ...]:
    """The rows extra-rows appends (made once per seed: each Faker costs milliseconds, and every dataset and
    format is corrupted); callers copy them."""
    return tuple(make_employees(seed + 999, n=3)["employees"])


def corrupt_encoded(
    data: dict[str, Any],
    fmt: str,
    corruption: str,
    extra_seed: int = SEED,
    *,
    remove_count: int = 3,
    append_records: list[dict[str, Any]] | None = None,
    field: str | None = None,
    indices: Sequence[int] | None = None,
) -> str:
    """The text shown for ``data`` in ``fmt`` after ``corruption`` (see the module docstring for the rules).

    The keyword arguments override our defaults with a peer's declared corruption (TOON's ``removeRecordCount``,
    ``appendRecords``, ``targetFieldName``, ``targetRecordIndices``), so a suite's datasets are corrupted the way
    the suite says.
    """
    encoder = get_format(fmt)
    if corruption == "none":  # any data: only a corruption needs an object holding one list of rows
        return encoder.encode(data)
    key = next(iter(data))
    rows: list[dict[str, Any]] = data[key]
    if append_records is not None:
        extra = [dict(r) for r in append_records]
    else:
        extra = [dict(row) for row in _appended(extra_seed)]
        for i, row in enumerate(extra):
            row["id"] = len(rows) + i + 1
            row.pop("yearsExperience", None)
    fields = list(rows[0].keys())
    drop = {"width-mismatch": (field or "salary", list(indices) if indices is not None else [9]),
            "missing-fields": (field or "email", list(indices) if indices is not None else list(range(4, len(rows), 5)))}
    if fmt not in ROW_FORMATS:
        if corruption == "truncated":
            return encoder.encode({key: rows[:-remove_count]})
        if corruption == "extra-rows":
            return encoder.encode({key: rows + extra})
        name, where = drop[corruption]
        changed = [{k: v for k, v in r.items() if not (i in where and k == name)} for i, r in enumerate(rows)]
        return encoder.encode({key: changed})
    if corruption == "truncated":
        if fmt == "toon":
            lines = encoder.encode(data).split("\n")
            idx = _row_indices(lines, fmt)
            return "\n".join(line for i, line in enumerate(lines) if i not in idx[-remove_count:])
        return encoder.encode({key: rows[:-remove_count]})
    if corruption == "extra-rows":
        text = encoder.encode({key: rows + extra})
        if fmt == "toon":
            text = text.replace(f"{key}[{len(rows) + len(extra)}]", f"{key}[{len(rows)}]", 1)
        return text
    name, where = drop[corruption]
    lines = encoder.encode(data).split("\n")
    idx = _row_indices(lines, fmt)
    if len(idx) != len(rows):
        raise FormatError(f"{fmt}: found {len(idx)} row lines for {len(rows)} rows")
    for r in where:
        lines[idx[r]] = _drop_cell(lines[idx[r]], fields.index(name), fmt)
    return "\n".join(lines)
