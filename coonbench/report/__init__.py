"""``coonbench report``: Inspect logs in; tables with paired statistics, plots, markdown, HTML, CSV and JSON out.

Beside the stack: it reads logs only (``inspect_ai.analysis``) and never imports a task, solver or scorer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from coonbench.report.load import ReportInputError, load_samples

__all__ = ["ReportInputError", "ReportPaths", "build_report", "load_samples"]


@dataclass(frozen=True)
class ReportPaths:
    markdown: Path
    html: Path
    json: Path
    csv: list[Path]
    warnings: list[str] = field(default_factory=list)  # e.g. re-runs dropped: the CLI prints them


def build_report(logs: Sequence[str | Path], out: str | Path, prices: str | Path | None = None,
                 command: str | None = None, plan: str | Path | None = None) -> ReportPaths:
    """Read the logs under ``logs`` and write the report into ``out`` (created if missing); ``command`` is how it
    was asked for, for the provenance block; with a plan (``plan``, or ``coonbench-plan.json`` in a log folder), a
    section sets it against the run."""
    from coonbench.report import planned, plots, render
    from coonbench.report.cost import cost_section, read_prices
    from coonbench.report.provenance import provenance
    from coonbench.report.sections import sections_for
    from coonbench.report.stopped import stopping_section

    price_table = read_prices(prices) if prices is not None else None
    samples, evals = load_samples(logs)
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    sections = sections_for(samples, price_table)
    sections.append(cost_section(samples, price_table))
    sections.extend(s for s in [stopping_section(samples["log"].unique())] if s is not None)
    plan_path = Path(plan) if plan is not None else planned.find_plan(logs)
    if plan_path is not None:
        sections.append(planned.plan_section_of(plan_path, samples, price_table, sections))
    for sec in sections:
        plots.plot_section(sec, out_dir / "plots")
    sections.sort(key=lambda sec: not sec.lead_plots)  # a section with an answer figure opens the page
    warnings = [str(w) for w in samples.attrs.get("warnings", [])]
    header = {
        "generator": "coonbench report",
        "logs": sorted({str(p) for p in samples["log"]}),
        "samples": int(len(samples)),
        "systems": sorted(samples["system"].unique().tolist()),
        "categories": sorted(samples["category"].unique().tolist()),
        "formats": sorted(samples["format"].unique().tolist()),
        "epochs": int(samples["epoch"].max()),
        "warnings": warnings,
        "intervals": render.interval_methods(sections),
        "provenance": provenance(evals, samples, command),
    }
    csv = render.write_csv(sections, out_dir)
    return ReportPaths(
        markdown=render.write_markdown(sections, out_dir, header),
        html=render.write_html(sections, out_dir, header),
        json=render.write_json(sections, out_dir, header),
        csv=csv,
        warnings=warnings,
    )
