"""Docs tables cut from a report: published figures are what ``coonbench report`` writes, never retyped.

A block in a Markdown file marked ``<!-- report: FOLDER TABLE COLUMNS [FILTER] -->`` and followed by a table holds
``tables/TABLE.csv`` of ``coonbench report FOLDER``, restricted to COLUMNS and to the rows FILTER keeps:

- FOLDER: a log folder, or several joined by commas for one report over them all (the Goth criteria pair the
  targets of three runs).
- COLUMNS: comma-separated ``COL`` or ``COL:FMT``; ``A+LOW+HIGH:FMT`` puts an interval in one cell, ``A (LOW–HIGH)``.
  FMT: ``%`` (percent, one decimal; ``%0`` none), ``pts`` (signed points from a difference of proportions; ``pt``
  unsigned, a size), ``x`` (a ratio), ``int`` (thousands separated), ``p`` (a p-value, two digits), ``.Nf``; none:
  the CSV's text. An empty value reads ``–``.
- FILTER: ``COL=V1;V2`` keeps the rows whose COL is one of the values (a space in a value is written ``%20``).

A figure in a sentence is marked right after it, ``40.7%<!-- value: FOLDER TABLE COL:FMT COL=V&COL=V -->``: the
text before the comment (up to a space or a bracket) is rewritten as the one cell of the one row the filter keeps
(a space in a value is written ``%20``; ``COL=V1;V2`` keeps either value).
``20.0–30.0%<!-- range: FOLDER TABLE COL:FMT FILTER -->`` is the lowest to the highest cell of the rows the filter
keeps (one figure when they are equal), for a sentence about several rows.

``python -m coonbench.report.published FILE…`` rewrites every block from fresh reports (``--check``: exit 1 and say
which block differs, changing nothing); ``tests/test_published.py`` runs the check, so the docs cannot drift from the
committed logs.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import unquote

MARK = re.compile(r"<!-- report: (\S+) (\S+) (\S+)(?: (\S+))? -->\n((?:\|[^\n]*\|\n)*)")
"""Folder, table, columns, optional filter, then the table's lines (our own docs, one line per row)."""
VALUE = re.compile(r"([^\s<>()]*)<!-- (value|range): (\S+) (\S+) (\S+) (\S+) -->")
"""A figure in a sentence: the text right before the comment is the one cell COLUMN:FMT of TABLE's one row that
FILTER (``COL=V&COL=V``) keeps, written as prose writes numbers (a true minus sign)."""


def _number(text: str, fmt: str) -> str:
    if text == "" or fmt == "":
        return text or "–"
    value = float(text)
    if fmt == "%":
        return f"{100 * value:.1f}%"
    if fmt == "%0":
        return f"{100 * value:.0f}%"
    if fmt == "pts":
        return f"{100 * value:+.1f}"
    if fmt == "pt":
        return f"{100 * value:.1f}"
    if fmt == "x":
        return f"{value:.2f}×"
    if fmt == "int":
        return f"{round(value):,}"
    if fmt == "p":
        return "< 0.0001" if value < 1e-4 else f"{value:.2g}"
    if re.fullmatch(r"\.\df", fmt):
        return f"{value:{fmt}}"
    raise ValueError(f"unknown format {fmt!r} (known: %, %0, pts, pt, x, int, p, .Nf)")


def _cell(row: dict[str, str], spec: str) -> str:
    name, _, fmt = spec.partition(":")
    first, *bounds = name.split("+")
    text = _number(row[first], fmt)
    if bounds and row[first] != "":
        low, high = (_number(row[b], fmt).removesuffix("%").removesuffix("×") for b in bounds)
        text += f" ({low} to {high})" if fmt == "pts" else f" ({low}–{high})"
    return text.replace("|", "\\|")


def render_table(table_csv: Path, columns: str, where: str | None = None) -> str:
    """The Markdown table of ``columns`` of ``table_csv`` (rows kept by ``where``), one line per row."""
    with table_csv.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    specs = columns.split(",")
    key, _, values = (where or "").partition("=")
    named = {n for s in specs for n in s.partition(":")[0].split("+")} | ({key} if where else set())
    missing = sorted(named - set(reader.fieldnames or ()))
    if missing:
        raise ValueError(f"{table_csv.name}: no column(s) {', '.join(missing)}")
    if where:
        rows = [r for r in rows if r[key] in {unquote(v) for v in values.split(";")}]  # %20: a space
    header = [s.partition(":")[0].split("+")[0] for s in specs]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(r, s) for s in specs) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def _kept(table_csv: Path, spec: str, where: str) -> tuple[list[dict[str, str]], str, str]:
    """The rows of ``table_csv`` that ``where`` keeps (``COL=V1;V2&COL=V``), and ``spec``'s column and format."""
    with table_csv.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    tests = [(k, {unquote(v) for v in vs.split(";")})  # %20: a space
             for k, _, vs in (cond.partition("=") for cond in where.split("&"))]
    kept = [r for r in rows if all(r.get(k) in vs for k, vs in tests)]
    name, _, fmt = spec.partition(":")
    if kept and name not in kept[0]:
        raise ValueError(f"{table_csv.name}: no column {name}")
    return kept, name, fmt


def _prose(text: str, fmt: str) -> str:
    return text.replace("-", "−") if fmt else text


def render_value(table_csv: Path, spec: str, where: str) -> str:
    """The one cell ``spec`` (``COL:FMT``) of the one row of ``table_csv`` that ``where`` keeps, as prose."""
    kept, name, fmt = _kept(table_csv, spec, where)
    if len(kept) != 1:
        raise ValueError(f"{table_csv.name}: {where} keeps {len(kept)} rows, not one")
    return _prose(_number(kept[0][name], fmt), fmt)


def render_range(table_csv: Path, spec: str, where: str) -> str:
    """The lowest to the highest cell ``spec`` of the rows ``where`` keeps (``20.0–30.0%``), one figure if equal:
    a sentence about several rows states their spread, not one of them."""
    kept, name, fmt = _kept(table_csv, spec, where)
    if not kept or any(r[name] == "" for r in kept):
        raise ValueError(f"{table_csv.name}: {where} keeps {len(kept)} rows, some empty: no range")
    values = sorted(float(r[name]) for r in kept)
    low, high = (_number(str(v), fmt) for v in (values[0], values[-1]))
    if low == high:
        return _prose(low, fmt)
    unit = next((u for u in ("%", "×") if low.endswith(u)), "")
    return _prose(f"{low.removesuffix(unit)}–{high}", fmt)


def refresh(text: str, report_of: Callable[[str], Path]) -> str:
    """``text`` with every marked block and value recomputed; ``report_of(folder)`` gives that folder's report
    directory."""
    def block(m: re.Match[str]) -> str:
        folder, table, columns, where = m.group(1), m.group(2), m.group(3), m.group(4)
        head = m.group(0)[: m.start(5) - m.start(0)]
        return head + render_table(report_of(folder) / "tables" / f"{table}.csv", columns, where)

    def value(m: re.Match[str]) -> str:
        kind, folder, table, spec, where = m.group(2, 3, 4, 5, 6)
        render = render_value if kind == "value" else render_range
        return render(report_of(folder) / "tables" / f"{table}.csv", spec, where) + m.group(0)[len(m.group(1)):]
    return VALUE.sub(value, MARK.sub(block, text))


def marked_folders(texts: Iterable[str]) -> list[str]:
    return sorted({m.group(1) for t in texts for m in MARK.finditer(t)} | {m.group(3) for t in texts
                                                                          for m in VALUE.finditer(t)})


def build_reports(root: Path, folders: Iterable[str], scratch: Path) -> dict[str, Path]:
    """One ``coonbench report`` per folder (relative to ``root``; ``A,B``: one report over both), written under
    ``scratch``: folder -> report."""
    from coonbench.report import build_report

    out = {}
    for i, folder in enumerate(folders):
        out[folder] = scratch / str(i)
        build_report([root / part for part in folder.split(",")], out[folder])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coonbench.report.published", description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="Markdown files with <!-- report: … --> blocks")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a block differs")
    parser.add_argument("--root", type=Path, default=Path("."), help="the folder FOLDER paths are relative to")
    args = parser.parse_args(argv)
    texts = {f: f.read_text(encoding="utf-8") for f in args.files}
    with tempfile.TemporaryDirectory(prefix="coonbench-published-") as scratch:
        reports = build_reports(args.root, marked_folders(texts.values()), Path(scratch))
        stale = []
        for path, text in texts.items():
            fresh = refresh(text, reports.__getitem__)
            if fresh != text:
                stale.append(str(path))
                if not args.check:
                    path.write_text(fresh, encoding="utf-8")
    verb = "differ from their logs" if args.check else "rewritten"
    for path in stale:
        print(f"{path}: report tables {verb}", file=sys.stderr if args.check else sys.stdout)
    return 1 if (stale and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
