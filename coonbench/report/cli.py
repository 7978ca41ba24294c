"""``coonbench report`` and ``coonbench import-toon``: registered on the main parser with ``register(subparsers)``."""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

from coonbench.report.load import ReportInputError


def cmd_report(args: argparse.Namespace) -> int:
    from coonbench.report import build_report

    try:
        command = shlex.join(["coonbench", "report", *args.logs, "-o", args.output,
                              *(["--prices", args.prices] if args.prices else []),
                              *(["--plan", args.plan] if args.plan else [])])
        paths = build_report(args.logs, args.output, prices=args.prices, command=command, plan=args.plan)
    except ReportInputError as err:
        print(f"coonbench report: {err}", file=sys.stderr)
        return 2
    for warning in paths.warnings:
        print(f"coonbench report: warning: {warning}", file=sys.stderr)
    print(f"wrote {paths.markdown}")
    print(f"wrote {paths.html}")
    if args.strict and paths.warnings:
        print(f"coonbench report: --strict: {len(paths.warnings)} warning(s), exit status 1", file=sys.stderr)
        return 1
    return 0


def cmd_import_toon(args: argparse.Namespace) -> int:
    from coonbench.report.import_toon import import_toon

    try:
        written, warnings = import_toon(args.results_dir, args.output, questions=args.questions)
    except ReportInputError as err:
        print(f"coonbench import-toon: {err}", file=sys.stderr)
        return 2
    for warning in warnings:
        print(f"coonbench import-toon: warning: {warning}", file=sys.stderr)
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
    p.add_argument("--strict", action="store_true", help="exit with status 1 when the report has warnings (failed "
                                                         "logs, errored or unscored samples, re-runs dropped)")
    p.set_defaults(fn=cmd_report)
    p = subparsers.add_parser("import-toon", help="convert TOON's per-call benchmark results into Inspect eval logs")
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="TOON's results/accuracy/models folder (or one file)")
    p.add_argument("-o", "--output", required=True, metavar="LOG_DIR")
    p.add_argument("--questions", metavar="FILE", help="TOON's questions.json (ids, datasets, types); default: "
                   "generated/questions.json beside the results, as the reference data lays it out")
    p.set_defaults(fn=cmd_import_toon)
