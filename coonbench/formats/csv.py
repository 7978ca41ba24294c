"""CSV for flat tabular data only: a list of objects with scalar values, or an object holding exactly one
such list (TOON's benchmark shows ``{"employees": [...]}`` this way).

Lossy (``lossless = False``), on purpose and documented:
* the wrapping key of ``{"key": [rows]}`` is not written; decode returns the list of rows;
* cells are typed back by their text: ``true``/``false`` → bool, empty → null, an integer literal → int, a
  float literal → float, anything else → string. So the strings ``"42"``, ``"true"`` or ``""`` come back as
  42, True and null;
* a key missing from a row and a null value are both an empty cell, and decode writes null for both.
For flat rows whose strings do not look like numbers/booleans and are non-empty, the round trip is exact.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any, Literal

from coonbench.formats._limits import check_size, check_value, too_long_int
from coonbench.formats.base import Format, FormatError, register

_INT_RE = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_FLOAT_RE = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z")


def _rows_of(source: Any) -> list[dict[str, Any]]:
    """The rows to write; FormatError naming the first nested path otherwise."""
    path = "$"
    rows = source
    if isinstance(source, dict):
        if len(source) == 1 and isinstance(next(iter(source.values())), dict):
            raise FormatError(f"nested object at $.{next(iter(source))}: CSV holds only flat tabular data "
                              "(a list of flat objects)", expected="flat tabular data")
        if len(source) != 1 or not isinstance(next(iter(source.values())), list):
            raise FormatError("CSV needs a list of flat objects, or an object with exactly one such list "
                              f"(got an object with keys {list(source)[:5]})", expected="flat tabular data")
        key, rows = next(iter(source.items()))
        path = f"$.{key}"
    if not isinstance(rows, list):
        raise FormatError(f"CSV needs a list of flat objects at {path}, got {type(rows).__name__}",
                          expected="flat tabular data")
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise FormatError(f"CSV row {path}[{i}] is a {type(row).__name__}, not an object",
                              expected="flat tabular data")
        for k, v in row.items():
            if isinstance(v, (dict, list)):
                kind = "object" if isinstance(v, dict) else "array"
                raise FormatError(f"nested {kind} at {path}[{i}].{k}: CSV holds only flat tabular data",
                                  expected="scalar values only")
    return rows


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _typed(cell: str) -> Any:
    if cell == "":
        return None
    if cell == "true":
        return True
    if cell == "false":
        return False
    if _INT_RE.match(cell):
        try:
            return int(cell)
        except ValueError:  # more digits than Python converts
            raise too_long_int(cell) from None
    if _FLOAT_RE.match(cell):
        return float(cell)
    return cell


class CsvFormat(Format):
    """RFC 4180 CSV: a header row of field names (first-seen order), one line per row."""

    name = "csv"
    label = "CSV"
    description = "CSV (flat tabular data only): header row, then one comma-separated line per row"
    kind = "data"
    fence = "csv"
    lossless = False
    max_chars = 2 * 1024 * 1024
    """Longest text decode/validate read (typing every cell in Python: about 4.5 MB/s)."""

    def encode(self, source: Any) -> str:
        check_value(source, "CSV")
        rows = _rows_of(source)
        header: dict[str, None] = {}
        for row in rows:
            header.update(dict.fromkeys(row))
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(list(header))
        for row in rows:
            writer.writerow([_cell(row.get(k)) for k in header])
        return buf.getvalue()

    def decode(self, text: str) -> list[dict[str, Any]]:
        check_size(text, self.max_chars, self.name)
        try:
            reader = csv.reader(io.StringIO(text), strict=True)
            lines = list(reader)
        except csv.Error as err:
            raise FormatError(f"invalid CSV: {err}", getattr(reader, "line_num", None)) from None
        if not lines:
            raise FormatError("empty CSV: no header row", 1, expected="a header row")
        header, out = lines[0], []
        for n, cells in enumerate(lines[1:], start=2):
            if not cells:
                continue
            if len(cells) != len(header):
                raise FormatError(f"row has {len(cells)} cells but the header has {len(header)}", n,
                                  expected=f"{len(header)} cells")
            try:
                out.append({k: _typed(c) for k, c in zip(header, cells)})
            except FormatError as err:
                err.line = n
                raise
        return out

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        if variant == "short":
            return "CSV: Header row, comma-separated values. First row contains field names."
        return ("CSV: the first row names the fields; each following row is one record with values in the "
                "same order, separated by commas; values containing commas or quotes are double-quoted; an "
                "empty cell is null; true/false are booleans.")


register(CsvFormat())
