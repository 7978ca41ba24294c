"""``coonbench goth-setup`` and ``coonbench goth-conformance``: obtain the Goth interpreter and prove it is Goth."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from coonbench.execution.goth_build import GothBuildError, ensure_binary, run_parser_tests
from coonbench.execution.goth_build import conformance as conf
from coonbench.resources import SHARED_DIR


def cmd_goth_setup(args: argparse.Namespace) -> int:
    """Build the interpreter unless an up-to-date one exists; print where it is."""
    try:
        setup = ensure_binary(Path(args.source) if args.source else None)
    except GothBuildError as err:
        print(f"coonbench: {err}", file=sys.stderr)
        return 2
    state = "built" if setup.built else "up to date"
    print(f"goth: {setup.binary} ({state}, from {setup.source})")
    return 0


def cmd_goth_conformance(args: argparse.Namespace) -> int:
    """Upstream's 176 cases with upstream's reference programs, then the diagnostic suites and model trials."""
    reference = Path(args.reference) if args.reference else SHARED_DIR / "reference" / "goth"
    if not (reference / "benchmark" / "tests").is_dir():
        print(f"coonbench: {reference}: no Goth reference data (benchmark/tests); it is ../shared/reference/goth",
              file=sys.stderr)
        return 2
    try:
        binary = str(ensure_binary(Path(args.source) if args.source else None).binary)
    except GothBuildError as err:
        print(f"coonbench: {err}", file=sys.stderr)
        return 2
    core = conf.run_suites(binary, reference)
    for failure in core.failures():
        print(f"FAIL {failure.evidence}")
    print(f"{core.passed} of {len(core.results)} upstream cases pass")
    for suite in conf.DIAGNOSTIC_SUITES:
        result = conf.run_diagnostic_suite(binary, reference, suite)
        dated = [r for r in result.failures() if conf.is_dated(r)]
        for failure in result.failures():
            print(f"  {'dated' if conf.is_dated(failure) else 'FAIL'} {failure.evidence}")
        print(f"{suite}: {result.passed} of {len(result.results)} cases pass"
              + (f" ({len(dated)} more expect `mod` to fail, which this commit's lexer reads as %)" if dated else ""))
    rows = conf.run_trials(binary, reference)
    checked = [r for r in rows if r.agrees is not None]
    for row in checked:
        if not row.agrees:
            why = "dated: the diagnostic calls a spelling unknown that this commit reads" if row.dated else "differs"
            print(f"  {why}: {row.trial}/{row.name}: diagnostic {row.status} {row.note!r}, here {row.output!r}")
    agree = sum(bool(r.agrees) for r in checked)
    print(f"model trials: {agree} of {len(checked)} checkable diagnostic rows agree "
          f"({sum(bool(r.dated) and not r.agrees for r in checked)} of the rest dated; {len(rows)} rows in all)")
    try:
        ok, summary = run_parser_tests()
        print("upstream's goth-parse tests (its parser's and its lexer's own) on our lexer: "
              + ("; ".join(ln.removeprefix("test result: ") for ln in summary.splitlines() if ln.startswith("test result"))
                 if ok else "FAILED\n" + summary))
    except GothBuildError as err:
        ok = True
        print(f"upstream's goth-parse tests not run: {err}")
    return 0 if core.passed == len(core.results) and ok else 1


def register(subparsers: Any) -> None:
    """Add ``goth-setup`` and ``goth-conformance``."""
    p = subparsers.add_parser("goth-setup", help="build the Goth interpreter offline (a no-op when up to date)")
    p.add_argument("source", nargs="?", help="a Goth checkout (default ../shared/reference/goth/upstream/crates)")
    p.set_defaults(fn=cmd_goth_setup)
    p = subparsers.add_parser("goth-conformance", help="run upstream's 176 Goth cases on the built interpreter")
    p.add_argument("--source", help="the Goth checkout to build from (as goth-setup)")
    p.add_argument("--reference", help="the Goth reference data (default ../shared/reference/goth)")
    p.set_defaults(fn=cmd_goth_conformance)
