"""``coonbench report`` and ``coonbench import-toon``: registered on the main parser with ``register(subparsers)``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from coonbench.report.load import ReportInputError


def cmd_report(args: argparse.Namespace) -> int:
    from coonbench.report import build_report

    try:
        paths = build_report(args.logs, args.output, prices=args.prices, plan=args.plan)
    except ReportInputError as err:
        print(f"coonbench report: {err}", file=sys.stderr)
        return 2
    for warning in paths.warnings:
        print(f"coonbench report: warning: {warning}", file=sys.stderr)
    print(f"wrote {paths.markdown}")
    print(f"wrote {paths.html}")
    return 0


def cmd_import_toon(args: argparse.Namespace) -> int:
    from coonbench.report.import_toon import import_toon

    try:
        written = import_toon(args.results_dir, args.output)
    except ReportInputError as err:
        print(f"coonbench import-toon: {err}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0


def register(subparsers: Any) -> None:
    """Add the ``report`` and ``import-toon`` subcommands."""
    p = subparsers.add_parser("report", help="turn Inspect logs into tables, paired statistics, plots, md/html/csv/json")
    p.add_argument("logs", nargs="+", metavar="LOG_DIR", help="log folders or .eval files")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="folder to write the report into")
    p.add_argument("--prices", metavar="FILE", help="YAML/JSON {model: {input: USD/1M tokens, output: USD/1M tokens}}")
    p.add_argument("--plan", metavar="FILE", help="a plan from `coonbench plan -o` to set against the run (default: "
                                                  "coonbench-plan.json in a LOG_DIR)")
    p.set_defaults(fn=cmd_report)
    p = subparsers.add_parser("import-toon", help="convert TOON's per-call benchmark results into Inspect eval logs")
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="TOON's results/accuracy/models folder (or one file)")
    p.add_argument("-o", "--output", required=True, metavar="LOG_DIR")
    p.set_defaults(fn=cmd_import_toon)
