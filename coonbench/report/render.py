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

import numpy as np

from coonbench.report import provenance, stats, wording
from coonbench.report.safe import csv_frame, file_stem, md_text
from coonbench.report.tables import Section, Table

SCHEMA_VERSION = 3  # 3: comparisons' test/p_value, like-for-like ``questions``, headline, provenance, plot_data
PERCENT_COLUMNS = {
    "accuracy", "ci_low", "ci_high", "acc_a", "acc_b", "correct", "syntax_valid", "decodable", "correct_rate",
    "first_attempt_success", "parse_success", "semantic_correct", "mean_agreement", "mixed_share", "primer_share",
    "baseline_accuracy", "first_attempt", "first_low", "first_high", "after_feedback", "final_low", "final_high",
    "accuracy_low", "accuracy_high", "answered", "output_share", "mean", "ci_low", "ci_high", "success",
}
POINT_COLUMNS = {"diff", "diff_low", "diff_high", "sim_low", "sim_high", "mdd", "gap", "gap_low", "gap_high", "gain"}
TOKEN_COLUMNS = {
    "input_tokens", "usage_input_tokens", "usage_output_tokens", "tokens_per_correct", "input_per_correct",
    "output_per_correct", "primer_tokens_per_correct", "primer_tokens", "tokens_with_primer", "tokens_without_primer",
    "baseline_tokens", "break_even_baseline_tokens", "input_tokens_o200k", "final_tokens",
}
P_COLUMNS = {"p_value", "p_mcnemar", "p_holm", "p_exact_holm"}
RATIO_COLUMNS = {"eff_ratio", "eff_ratio_low", "eff_ratio_high", "efficiency_gain", "gain_low", "gain_high",
                 "compression_ratio", "cost_vs_baseline", "token_ratio", "reference_token_ratio"}
UNKNOWN_COLUMNS = {"primer_share", "primer_tokens_per_correct"}  # NaN there means the logs do not say
HIDDEN_IN_DOCUMENTS = {"wilson_low", "wilson_high", "se_naive", "se_clustered", "tokens_a", "tokens_b", "a_only",
                       "b_only", "design_effect", "family", "p_loo_min", "p_loo_max", "acc_per_1k_tokens",
                       "input_tokens_o200k", "usage_input_tokens", "usage_output_tokens"}
LABELS = {
    "n": "answers", "correct": "correct", "ci_low": "95% CI low", "ci_high": "95% CI high", "interval": "interval",
    "clusters": "clusters", "tokenizer": "tokenizer", "input_tokens": "input tokens / answer",
    "tokens_per_correct": "tokens / correct", "input_per_correct": "input / correct",
    "output_per_correct": "output / correct", "answered": "answer-shaped", "questions": "questions",
    "format_a": "A", "format_b": "B", "pairs": "pairs", "acc_a": "accuracy A", "acc_b": "accuracy B",
    "diff": "A − B (points)", "diff_low": "95% CI low", "diff_high": "95% CI high", "sim_low": "simultaneous low",
    "sim_high": "simultaneous high", "p_value": "p", "p_mcnemar": "McNemar p (unclustered)", "p_holm": "Holm p",
    "p_exact_holm": "exact McNemar Holm p", "exact_test": "exact test",
    "eff_ratio": "efficiency A ÷ B", "eff_ratio_low": "low", "eff_ratio_high": "high",
    "mdd": "detectable (points)", "test": "test", "conclusion": "conclusion", "fragile": "fragile",
    "primer_share": "primer share", "primer_tokens_per_correct": "primer tokens / correct",
    "latency_p50_s": "latency p50 (s)", "latency_p95_s": "latency p95 (s)", "usd_total": "USD total",
    "usd_per_correct": "USD / correct", "question_type": "question type", "cluster": "source item",
}


def _cell(column: str, value: Any, percent: bool = True) -> str:
    """One table cell for people: '–' for not applicable, 'unknown' where the logs do not say, rates as
    percentages, differences as signed points, tokens as whole numbers, ratios with ×, p-values to 2 digits."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return "unknown" if column in UNKNOWN_COLUMNS else "–"
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        if math.isinf(value):
            return "∞" if value > 0 else "−∞"
        if column in POINT_COLUMNS:
            return wording.points(value)
        if column in P_COLUMNS:
            return wording.pvalue(value)
        if column in RATIO_COLUMNS:
            return wording.number(value, 2) + "×"
        if column in TOKEN_COLUMNS:
            return wording.tokens(value)
        if percent and column in PERCENT_COLUMNS and not (column == "correct" and value > 1):
            return wording.pct(value)
        if value.is_integer() and abs(value) < 1e12:
            return f"{int(value):,}"
        return wording.number(value, 2) if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _label(column: str) -> str:
    return LABELS.get(column, column.replace("_", " "))


def _shown(table: Table | pd.DataFrame) -> pd.DataFrame:
    if isinstance(table, pd.DataFrame):
        return table
    return table.display if table.display is not None else table.frame


def _columns(frame: pd.DataFrame) -> list[str]:
    return [c for c in frame.columns if c not in HIDDEN_IN_DOCUMENTS]


def markdown_table(table: Table | pd.DataFrame) -> str:
    frame = _shown(table)
    cols = _columns(frame)
    lines = ["| " + " | ".join(_md_cell(_label(str(c))) for c in cols) + " |", "|" + "---|" * len(cols)]
    for _, row in frame.iterrows():
        cells = [_md_cell(_cell(c, row[c])) for c in cols]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _md_cell(text: str) -> str:
    """A Markdown table cell: one line, no HTML, no link, ``|`` escaped."""
    return md_text(" ".join(text.split())).replace("|", "\\|")


def write_csv(sections: list[Section], out: Path) -> list[Path]:
    folder = out / "tables"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for sec in sections:
        for table in sec.all_tables():
            path = folder / f"{_safe(table.name)}.csv"
            csv_frame(table.frame).to_csv(path, index=False)
            paths.append(path)
    return paths


def _safe(name: str) -> str:
    return file_stem(name)


def interval_methods(sections: list[Section]) -> list[str]:
    """Every way an interval of the main accuracy tables was made (their ``interval`` column's values; the
    breakdowns by source item are one cluster each by construction)."""
    found: set[str] = set()
    for sec in sections:
        for table in sec.all_tables():
            if table.name.endswith("_accuracy") and "interval" in table.frame.columns:
                found.update(str(v) for v in table.frame["interval"].dropna())
    return sorted(found)


INTERVAL_WORDS = {
    stats.CLUSTER_WILSON: "Wilson's score interval with the design effect of the jackknife (CR3) cluster-robust "
                          "variance and Student's t on Imbens–Kolesár degrees of freedom in place of z, never "
                          "narrower than Wilson on n",
    stats.CLUSTER_T: "Student's t on the CR2 (bias-reduced) cluster-robust standard error with Imbens–Kolesár "
                     "degrees of freedom",
    stats.WILSON: "Wilson (each question its own source item)",
    stats.WILSON_ONE_CLUSTER: "Wilson, flagged '1 cluster' (every question from one source item: no clustered "
                              "interval can be estimated)",
    stats.EXACT: "Clopper-Pearson exact where every answer is the same",
    stats.T_NAIVE: "Student's t",
    stats.NO_VARIANCE: "none where a mean has no variance",
}


def methods_line(header: dict[str, Any]) -> str:
    """How the intervals and tests were made (only the methods these tables use are named)."""
    methods = [INTERVAL_WORDS.get(m, m) for m in header.get("intervals", [])]
    text = f"Accuracy intervals are 95%: {'; '.join(methods)}. " if methods else ""
    return text + ("Formats are compared on the questions both answered, paired: the CR2 cluster-robust t test of "
                   "the mean difference (Imbens–Kolesár degrees of freedom) where questions share a source item, "
                   "exact McNemar where each is its own, with Holm's correction per system over every question set "
                   "it is compared on; each difference has a 95% interval and a simultaneous one over its family; "
                   "'cannot tell apart' means the Holm-adjusted p ≥ 0.05, and 'too few clusters to decide' a "
                   f"clustered test on fewer than {stats.MIN_DF:g} degrees of freedom.")


def _provenance_items(header: dict[str, Any]) -> list[str]:
    return [f"{header['samples']:,} samples from {len(header['logs'])} log(s)", *provenance.lines(header["provenance"]),
            methods_line(header)]


WARNINGS_TITLE = "Warnings: what the tables leave out"


def write_markdown(sections: list[Section], out: Path, header: dict[str, Any]) -> Path:
    lines = ["# coonbench report", ""]
    md = md_text  # every text from the logs or about them: one line, no HTML (``safe.md_text``)
    if header.get("warnings"):  # before any comparison: what the tables leave out
        lines += [f"## {WARNINGS_TITLE}", ""] + [f"> **Warning:** {md(w)}" for w in header["warnings"]] + [""]
    for sec in sections:
        lines += [f"## {md(sec.title)}", ""]
        if sec.headline:
            lines += [f"**{md(sec.headline.replace('**', ''))}**", ""]
        lines += [f"![{plot}](plots/{plot})" for plot in sec.lead_plots] + ([""] if sec.lead_plots else [])
        for table in sec.lead:
            lines += [f"**{md(table.caption)}** (`tables/{_safe(table.name)}.csv`)", "", markdown_table(table), ""]
        if sec.summary:
            lines += [md(" ".join(sec.summary)), ""]
        if not (sec.findings or sec.tables or sec.plots):
            continue
        lines += [f"### {md(sec.title)}: details", ""] + [f"- {md(f)}" for f in sec.findings] \
            + ([""] if sec.findings else [])
        lines += [f"![{plot}](plots/{plot})" for plot in sec.plots] + ([""] if sec.plots else [])
        for table in sec.tables:
            lines += [f"#### {md(table.caption)}", "", f"`tables/{_safe(table.name)}.csv`", "", markdown_table(table),
                      ""]
    lines += ["## Provenance", ""] + [f"- {md(item)}" for item in _provenance_items(header)] + [""]
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _inline(text: str) -> str:
    """Escape text, then render **bold** and `code` (the only markup findings use)."""
    parts = html.escape(text).split("**")
    text = "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))
    parts = text.split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


CSS = """*{box-sizing:border-box}body{font-family:system-ui,sans-serif;max-width:1200px;margin:.8em auto;
padding:0 1em;color:#222;line-height:1.4}h1{font-size:20px;margin:.2em 0}h2{font-size:18px;margin:.6em 0 .3em}
p.headline{font-size:17px;margin:.3em 0 .4em;overflow-wrap:anywhere}p.answer{font-size:14px;overflow-wrap:anywhere}
.warn{background:#fff4e5;border-left:4px solid #e69500;padding:.4em .8em;overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%}table{border-collapse:collapse;font-size:13px;margin:.5em 0 1.5em}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:right;vertical-align:top;white-space:pre-line}th{background:#f0f0f0}
td:first-child,th:first-child{text-align:left}img{width:100%;height:auto;display:block;margin:.3em 0}
code{background:#f4f4f4;padding:0 3px;overflow-wrap:anywhere}details{margin:.5em 0 2em}
summary{cursor:pointer;font-weight:600}li,p,h1,h2,h3{overflow-wrap:anywhere}
caption{text-align:left;font-weight:600;padding:.3em 0;caption-side:top}
table.compact td{white-space:pre}table.compact td:first-child{white-space:nowrap}
section.provenance li{font-size:13px}"""


def _img(out: Path, plot: str) -> str:
    data = base64.b64encode((out / "plots" / plot).read_bytes()).decode("ascii")
    return f'<img alt="{html.escape(plot)}" src="data:image/png;base64,{data}">'


def _html_section(sec: Section, out: Path) -> str:
    parts = [f'<section id="{html.escape(_safe(sec.id))}"><h2>{html.escape(sec.title)}</h2>']
    if sec.headline:
        parts.append(f'<p class="headline">{_inline(sec.headline)}</p>')
    parts += [_img(out, p) for p in sec.lead_plots] + [_html_table(t) for t in sec.lead]
    if sec.summary:
        parts.append(f'<p class="answer">{_inline(" ".join(sec.summary))}</p>')
    if sec.findings or sec.tables or sec.plots:
        parts.append(f"<details><summary>Details: {len(sec.tables)} table(s), {len(sec.findings)} finding(s)"
                     "</summary>")
        if sec.findings:
            parts.append("<ul>" + "".join(f"<li>{_inline(f)}</li>" for f in sec.findings) + "</ul>")
        parts += [_img(out, p) for p in sec.plots] + [_html_table(t) for t in sec.tables]
        parts.append("</details>")
    return "".join(parts) + "</section>"


def write_html(sections: list[Section], out: Path, header: dict[str, Any]) -> Path:
    body = ["<h1>coonbench report</h1>"]
    if header.get("warnings"):
        body.append(f'<section id="warnings"><h2>{html.escape(WARNINGS_TITLE)}</h2>'
                    + "".join(f'<p class="warn"><strong>Warning:</strong> {_inline(w)}</p>' for w in header["warnings"])
                    + "</section>")
    body += [_html_section(sec, out) for sec in sections]
    body.append('<section class="provenance" id="provenance"><h2>Provenance</h2><ul>'
                + "".join(f"<li>{_inline(item)}</li>" for item in _provenance_items(header)) + "</ul></section>")
    doc = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>coonbench report</title>'
           '<meta name="viewport" content="width=device-width, initial-scale=1">'
           f"<style>{CSS}</style></head><body>{''.join(body)}</body></html>")
    path = out / "report.html"
    path.write_text(doc, encoding="utf-8")
    return path


def _html_table(table: Table | pd.DataFrame) -> str:
    frame = _shown(table)
    cols = _columns(frame)
    head = "".join(f"<th>{html.escape(_label(str(c)))}</th>" for c in cols)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_cell(c, row[c]))}</td>" for c in cols) + "</tr>"
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
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    if hasattr(value, "item"):
        return _json_value(value.item())
    return value


def write_json(sections: list[Section], out: Path, header: dict[str, Any]) -> Path:
    doc = {
        "schema_version": SCHEMA_VERSION,
        **_json_value(header),
        "sections": [
            {
                "id": sec.id,
                "title": sec.title,
                "headline": sec.headline,
                "summary": sec.summary,
                "findings": sec.findings,
                "plots": [f"plots/{p}" for p in sec.lead_plots + sec.plots],
                "plot_data": _json_value(sec.plot_data),
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
