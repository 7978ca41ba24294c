"""Renderers: report.md, a self-contained report.html (plots as data URIs), tables/*.csv and report.json.

Each section is written answer first: its summary paragraph, the lead tables and charts, then the details
(findings, the other charts and tables), collapsible in HTML.
"""

from __future__ import annotations

import base64
import html
import json
import math
from pathlib import Path
from typing import Any

import pandas as pd

from coonbench.report import stats, wording
from coonbench.report.tables import Section, Table

SCHEMA_VERSION = 2
PERCENT_COLUMNS = {
    "accuracy", "ci_low", "ci_high", "wilson_low", "wilson_high", "acc_a", "acc_b", "diff", "diff_low", "diff_high",
    "sim_low", "sim_high", "mdd", "gap", "correct", "syntax_valid", "decodable", "correct_rate",
    "first_attempt_success", "parse_success", "semantic_correct", "mean_agreement", "mixed_share", "primer_share",
    "baseline_accuracy", "first_attempt", "first_low", "first_high", "after_feedback", "final_low", "final_high",
    "gain",
}
HIDDEN_IN_DOCUMENTS = {"wilson_low", "wilson_high", "se_naive", "clusters", "tokens_a", "tokens_b", "a_only", "b_only",
                       "design_effect", "family"}


def _cell(column: str, value: Any, percent: bool) -> str:
    """One table cell: '–' for missing, '∞' for infinite, rates as percentages, counts as integers."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isinf(value):
            return "∞" if value > 0 else "−∞"
        if percent and column in PERCENT_COLUMNS and not (column == "correct" and value > 1):
            return wording.pct(value)
        if value.is_integer() and abs(value) < 1e12:
            return f"{int(value):,}"
        return wording.number(value, 3) if abs(value) < 1000 else f"{value:,.0f}"
    return str(value)


def _percent_table(frame: pd.DataFrame) -> bool:
    """Rates in [0, 1] are shown as percentages in tables with a count column (``n`` or ``pairs``)."""
    return "n" in frame.columns or "pairs" in frame.columns


def _shown(table: Table | pd.DataFrame) -> pd.DataFrame:
    if isinstance(table, pd.DataFrame):
        return table
    return table.display if table.display is not None else table.frame


def markdown_table(table: Table | pd.DataFrame) -> str:
    frame = _shown(table)
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
        for table in sec.all_tables():
            path = folder / f"{_safe(table.name)}.csv"
            table.frame.to_csv(path, index=False)
            paths.append(path)
    return paths


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)


def write_markdown(sections: list[Section], out: Path, header: dict[str, Any]) -> Path:
    lines = ["# coonbench report", "", summary_line(header), ""]
    lines += [f"> **Warning:** {w}" for w in header.get("warnings", [])] + ([""] if header.get("warnings") else [])
    for sec in sections:
        lines += [f"## {sec.title}", ""]
        if sec.summary:
            lines += [" ".join(sec.summary), ""]
        for table in sec.lead:
            lines += [f"**{table.caption}** (`tables/{_safe(table.name)}.csv`)", "", markdown_table(table), ""]
        lines += [f"![{plot}](plots/{plot})" for plot in sec.lead_plots] + ([""] if sec.lead_plots else [])
        if not (sec.findings or sec.tables or sec.plots):
            continue
        lines += [f"### {sec.title}: details", ""] + [f"- {f}" for f in sec.findings] + ([""] if sec.findings else [])
        lines += [f"![{plot}](plots/{plot})" for plot in sec.plots] + ([""] if sec.plots else [])
        for table in sec.tables:
            lines += [f"#### {table.caption}", "", f"`tables/{_safe(table.name)}.csv`", "", markdown_table(table), ""]
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def interval_methods(sections: list[Section]) -> list[str]:
    """Every way an interval of the main accuracy tables was made (their ``interval`` column's values; the
    breakdowns by source item are one cluster each by construction)."""
    found: set[str] = set()
    for sec in sections:
        for table in sec.all_tables():
            if table.name.endswith(("_accuracy", "_summary")) and "interval" in table.frame.columns:
                found.update(str(v) for v in table.frame["interval"].dropna())
    return sorted(found)


INTERVAL_WORDS = {
    stats.WILSON_DEFF: "Wilson at the effective sample size (n ÷ the design effect of questions that share a "
                       "source item)",
    stats.WILSON: "Wilson (each question its own source item)",
    stats.WILSON_ONE_CLUSTER: "Wilson, flagged '1 cluster' (every question from one source item: no clustered "
                              "interval can be estimated)",
    stats.EXACT: "Clopper-Pearson exact where every answer is the same",
    stats.T_CLUSTERED: "Student's t on the clustered SE",
    stats.T_NAIVE: "Student's t",
    stats.NO_VARIANCE: "none where a mean has no variance",
}


def summary_line(header: dict[str, Any]) -> str:
    """What was read and how the intervals were made (only the methods these tables use are named)."""
    methods = [INTERVAL_WORDS.get(m, m) for m in header.get("intervals", [])]
    text = (f"{header['samples']:,} samples from {len(header['logs'])} log(s); systems: "
            f"{', '.join(header['systems'])}; categories: {', '.join(header['categories'])}. ")
    if methods:
        text += f"Accuracy intervals are 95%: {'; '.join(methods)}. "
    return text + ("Format comparisons are paired on the same questions: exact McNemar with Holm's correction per "
                   "system; each difference has a 95% interval and a simultaneous one over its family (labelled); "
                   "'cannot tell apart' means the Holm-adjusted p ≥ 0.05.")


def _inline(text: str) -> str:
    """Escape text, then render **bold** and `code` (the only markup findings use)."""
    parts = html.escape(text).split("**")
    text = "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))
    parts = text.split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


CSS = """*{box-sizing:border-box}body{font-family:system-ui,sans-serif;max-width:1200px;margin:1.5em auto;
padding:0 1em;color:#222;line-height:1.45}p.answer{font-size:15px;overflow-wrap:anywhere}
.warn{background:#fff4e5;border-left:4px solid #e69500;padding:.4em .8em;overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%}table{border-collapse:collapse;font-size:13px;margin:.5em 0 1.5em}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:right;vertical-align:top;white-space:pre-line}th{background:#f0f0f0}
td:first-child,th:first-child{text-align:left}img{width:100%;height:auto;display:block;margin:1em 0}
code{background:#f4f4f4;padding:0 3px;overflow-wrap:anywhere}details{margin:.5em 0 2em}
summary{cursor:pointer;font-weight:600}li,p,h1,h2,h3{overflow-wrap:anywhere}
caption{text-align:left;font-weight:600;padding:.3em 0;caption-side:top}
table.compact td{white-space:pre}table.compact td:first-child{white-space:normal;max-width:15em}"""


def _img(out: Path, plot: str) -> str:
    data = base64.b64encode((out / "plots" / plot).read_bytes()).decode("ascii")
    return f'<img alt="{html.escape(plot)}" src="data:image/png;base64,{data}">'


def _html_section(sec: Section, out: Path) -> str:
    parts = [f'<section id="{html.escape(_safe(sec.id))}"><h2>{html.escape(sec.title)}</h2>']
    if sec.summary:
        parts.append(f'<p class="answer">{_inline(" ".join(sec.summary))}</p>')
    parts += [_html_table(t) for t in sec.lead] + [_img(out, p) for p in sec.lead_plots]
    if sec.findings or sec.tables or sec.plots:
        parts.append(f"<details><summary>Details: {len(sec.tables)} table(s), {len(sec.findings)} finding(s)"
                     "</summary>")
        if sec.findings:
            parts.append("<ul>" + "".join(f"<li>{_inline(f)}</li>" for f in sec.findings) + "</ul>")
        parts += [_img(out, p) for p in sec.plots] + [_html_table(t) for t in sec.tables]
        parts.append("</details>")
    return "".join(parts) + "</section>"


def write_html(sections: list[Section], out: Path, header: dict[str, Any]) -> Path:
    body = [f"<h1>coonbench report</h1><p>{_inline(summary_line(header))}</p>"]
    body += [f'<p class="warn"><strong>Warning:</strong> {_inline(w)}</p>' for w in header.get("warnings", [])]
    body += [_html_section(sec, out) for sec in sections]
    doc = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>coonbench report</title>'
           '<meta name="viewport" content="width=device-width, initial-scale=1">'
           f"<style>{CSS}</style></head><body>{''.join(body)}</body></html>")
    path = out / "report.html"
    path.write_text(doc, encoding="utf-8")
    return path


def _html_table(table: Table | pd.DataFrame) -> str:
    frame = _shown(table)
    cols = [c for c in frame.columns if c not in HIDDEN_IN_DOCUMENTS]
    pct = _percent_table(frame)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_cell(c, row[c], pct))}</td>" for c in cols) + "</tr>"
        for _, row in frame.iterrows()
    )
    caption = ""
    if isinstance(table, Table):
        caption = (f"<caption>{_inline(table.caption)} <code>tables/{html.escape(_safe(table.name))}.csv</code>"
                   "</caption>")
    kind = ' class="compact"' if isinstance(table, Table) and table.display is not None else ""
    return f'<div class="scroll"><table{kind}>{caption}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>'


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
                "summary": sec.summary,
                "findings": sec.findings,
                "plots": [f"plots/{p}" for p in sec.lead_plots + sec.plots],
                "tables": [
                    {
                        "name": t.name,
                        "caption": t.caption,
                        "csv": f"tables/{_safe(t.name)}.csv",
                        "columns": [str(c) for c in t.frame.columns],
                        "rows": [{str(k): _json_value(v) for k, v in r.items()} for r in t.frame.to_dict("records")],
                    }
                    for t in sec.all_tables()
                ],
            }
            for sec in sections
        ],
    }
    path = out / "report.json"
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False), encoding="utf-8")
    return path
