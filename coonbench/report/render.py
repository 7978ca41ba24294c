"""Renderers: report.md, a self-contained report.html (plots as data URIs), tables/*.csv and report.json."""

from __future__ import annotations

import base64
import html
import json
import math
from pathlib import Path
from typing import Any

import pandas as pd

from coonbench.report.tables import Section

SCHEMA_VERSION = 1
PERCENT_COLUMNS = {
    "accuracy", "ci_low", "ci_high", "wilson_low", "wilson_high", "acc_a", "acc_b", "diff", "diff_low", "diff_high",
    "mdd", "gap", "correct", "syntax_valid", "decodable", "correct_rate", "first_attempt_success", "parse_success",
    "semantic_correct", "mean_agreement", "mixed_share",
}
HIDDEN_IN_DOCUMENTS = {"wilson_low", "wilson_high", "se_naive", "clusters", "tokens_a", "tokens_b", "a_only", "b_only"}


def _cell(column: str, value: Any, percent: bool) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return "–"
    if isinstance(value, float):
        if math.isinf(value):
            return "never" if value > 0 else "-inf"
        if percent and column in PERCENT_COLUMNS:
            return f"{value * 100:.1f}%"
        if value.is_integer() and abs(value) < 1e12:
            return f"{int(value):,}"
        return f"{value:,.3f}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value)


def _percent_table(frame: pd.DataFrame) -> bool:
    """Rates in [0, 1] are shown as percentages, except in tables of means where 'correct' is a count."""
    return "n" in frame.columns or "pairs" in frame.columns


def markdown_table(frame: pd.DataFrame) -> str:
    cols = [c for c in frame.columns if c not in HIDDEN_IN_DOCUMENTS]
    pct = _percent_table(frame)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, row in frame.iterrows():
        cells = [" ".join(_cell(c, row[c], pct).split()).replace("|", "\\|") for c in cols]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_csv(sections: list[Section], out: Path) -> list[Path]:
    folder = out / "tables"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for sec in sections:
        for table in sec.tables:
            path = folder / f"{_safe(table.name)}.csv"
            table.frame.to_csv(path, index=False)
            paths.append(path)
    return paths


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)


def write_markdown(sections: list[Section], out: Path, header: dict[str, Any]) -> Path:
    lines = ["# coonbench report", "", _summary_line(header), ""]
    for sec in sections:
        lines += [f"## {sec.title}", ""]
        lines += [f"- {f}" for f in sec.findings]
        if sec.findings:
            lines.append("")
        for plot in sec.plots:
            lines += [f"![{plot}](plots/{plot})", ""]
        for table in sec.tables:
            lines += [f"### {table.caption}", "", f"`tables/{_safe(table.name)}.csv`", "", markdown_table(table.frame), ""]
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _summary_line(header: dict[str, Any]) -> str:
    return (f"{header['samples']:,} samples from {len(header['logs'])} log(s); systems: "
            f"{', '.join(header['systems'])}; categories: {', '.join(header['categories'])}. "
            "Intervals are 95% CIs with standard errors clustered by source item; format comparisons are paired on "
            "the same questions (exact McNemar, Holm-corrected); 'cannot tell apart' means the difference is not "
            "significant.")


def _inline(text: str) -> str:
    """Escape text, then render **bold** and `code` (the only markup findings use)."""
    parts = html.escape(text).split("**")
    text = "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))
    parts = text.split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


CSS = """body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;font-size:13px;margin:.5em 0 1.5em}th,td{border:1px solid #ccc;padding:3px 6px;text-align:right}
th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}img{max-width:100%;display:block;margin:1em 0}
code{background:#f4f4f4;padding:0 3px}"""


def write_html(sections: list[Section], out: Path, header: dict[str, Any]) -> Path:
    body = [f"<h1>coonbench report</h1><p>{_inline(_summary_line(header))}</p>"]
    for sec in sections:
        body.append(f"<h2>{html.escape(sec.title)}</h2>")
        if sec.findings:
            body.append("<ul>" + "".join(f"<li>{_inline(f)}</li>" for f in sec.findings) + "</ul>")
        for plot in sec.plots:
            data = base64.b64encode((out / "plots" / plot).read_bytes()).decode("ascii")
            body.append(f'<img alt="{html.escape(plot)}" src="data:image/png;base64,{data}">')
        for table in sec.tables:
            body.append(f"<h3>{html.escape(table.caption)}</h3>")
            body.append(_html_table(table.frame))
    doc = ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>coonbench report</title>"
           f"<style>{CSS}</style></head><body>{''.join(body)}</body></html>")
    path = out / "report.html"
    path.write_text(doc, encoding="utf-8")
    return path


def _html_table(frame: pd.DataFrame) -> str:
    cols = [c for c in frame.columns if c not in HIDDEN_IN_DOCUMENTS]
    pct = _percent_table(frame)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_cell(c, row[c], pct))}</td>" for c in cols) + "</tr>"
        for _, row in frame.iterrows()
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _json_value(value: Any) -> Any:
    if value is None or value is pd.NA:
        return None
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if hasattr(value, "item"):
        return _json_value(value.item())
    return value


def write_json(sections: list[Section], out: Path, header: dict[str, Any]) -> Path:
    doc = {
        "schema_version": SCHEMA_VERSION,
        **header,
        "sections": [
            {
                "id": sec.id,
                "title": sec.title,
                "findings": sec.findings,
                "plots": [f"plots/{p}" for p in sec.plots],
                "tables": [
                    {
                        "name": t.name,
                        "caption": t.caption,
                        "csv": f"tables/{_safe(t.name)}.csv",
                        "columns": [str(c) for c in t.frame.columns],
                        "rows": [{str(k): _json_value(v) for k, v in r.items()} for r in t.frame.to_dict("records")],
                    }
                    for t in sec.tables
                ],
            }
            for sec in sections
        ],
    }
    path = out / "report.json"
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False), encoding="utf-8")
    return path
