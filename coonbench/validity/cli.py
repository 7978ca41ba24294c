"""``coonbench validate [TASK…] [--limit-per-task N] [-o OUT] [--judges MODEL…]``: the scorer validity table."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

DEFAULT_LIMIT = 20


def cmd_validate(args: argparse.Namespace) -> int:
    from coonbench.validity.run import TASKS, table, validate

    if args.judges is not None:
        from coonbench.validity.judges import validate_judges
        judged = validate_judges(judge_models=list(args.judges), limit=args.limit_per_task or DEFAULT_LIMIT,
                                 out_dir=Path(args.output))
        print(judged.table())
        print(f"\njudge verdicts against the scorers' in {judged.table_path} (and judges.csv, judges.json)\n")
        if not args.tasks:
            return 0
    tasks = list(args.tasks) or list(TASKS)
    limit = None if args.limit_per_task == 0 else args.limit_per_task
    results = validate(tasks, limit, Path(args.output), progress=lambda m: print(m, file=sys.stderr))
    print(table(results))
    failures = sum(not r.ok for res in results for r in res.rows)
    print(f"\n{failures} variant(s) off goal; details in {Path(args.output) / 'validity.md'}")
    memorised_ok = True
    if "correction" in tasks:
        from coonbench.validity.memorisation import memorisation_table, validate_memorisation

        memorised = validate_memorisation(limit=limit)
        print("\nMemorisation family (lookup table of every value shown, through the retry protocol):")
        print(memorisation_table(memorised))
        memorised_ok = all(r.ok for r in memorised)
    return 0 if all(r.goals_met() for r in results) and memorised_ok else 1


def register(subparsers: Any) -> None:
    """Add ``validate`` to the ``coonbench`` command line."""
    p = subparsers.add_parser(
        "validate", help="run synthetic answers (equivalent, near miss, garbage) through the real scorers"
    )
    p.add_argument("tasks", nargs="*", metavar="TASK",
                   help="comprehension, structure, generation, modification, retrieval, correction, tools, handoff, "
                        "writing, modification-edits, modification-turns3, modification-edits-turns3, "
                        "comprehension-python, generation-python, modification-python (default all)")
    p.add_argument("--limit-per-task", type=int, default=DEFAULT_LIMIT,
                   help=f"samples per task, spread over question types, seeded (default {DEFAULT_LIMIT}; 0 = all)")
    p.add_argument("-o", "--output", default="validity", help="folder for validity.csv/.json/.md (default ./validity)")
    p.add_argument("--judges", nargs="+", metavar="MODEL",
                   help="also meta-evaluate these judge models (accuracy and Cohen's kappa against the scorers)")
    p.set_defaults(fn=cmd_validate)
