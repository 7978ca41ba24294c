"""How long each ``coonbench`` command takes to start and finish (issue 28: a listing should be instant).

Run: ``python benchmarks/cli_speed.py [--repeat N]``. Each command runs N times as a fresh process, as a user types
it, from the repository root; the table gives the median wall time and the median CPU time (user + system of the
child process, which a shared machine inflates less than wall time) against the goal: under 1 s on an idle
2-core machine for ``formats``, ``encode``, ``decode``, ``tokens`` and ``list-tasks``, under 5 s for
``dump-prompts --limit 20`` and for ``plan`` of the full comprehension task (issue 39: its 2,652 prompts rendered
and counted, money and detectable differences for one model, ``--detect 5``). On an idle machine wall and CPU
time agree; on a busy one wall time says little, so "within goal" is judged on the CPU seconds (issue 44). The load
average before and after is printed. ``--importtime`` adds, per command, the five slowest top-level imports
(``python -X importtime``), which is where a slow start comes from.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coonbench.resources import REPO_ROOT

DART = "data/dart/composed/022_login_form_screen.dart"
JSON = "data/retrieval/datasets/employees.json"


def commands(scratch: Path) -> list[tuple[str, list[str], float]]:
    """(label, coonbench arguments, goal in seconds: CPU, or wall on an idle machine)."""
    coon = scratch / "login.coon"
    coon.write_text(_coonbench("encode", "--format", "coon", DART).stdout, encoding="utf-8")
    return [
        ("formats", ["formats"], 1.0),
        ("encode coon", ["encode", "--format", "coon", DART], 1.0),
        ("encode toon", ["encode", "--format", "toon", JSON], 1.0),
        ("decode coon", ["decode", "--format", "coon", str(coon)], 1.0),
        ("tokens", ["tokens", "--format", "coon", DART], 1.0),
        ("list-tasks", ["list-tasks"], 1.0),
        ("dump-prompts --limit 20",
         ["dump-prompts", "comprehension", "-o", str(scratch / "prompts"), "--limit", "20"], 5.0),
        ("plan comprehension",
         ["plan", "evals/comprehension.py", "--model", "openai/gpt-4o", "--prices", "docs/prices-example.yaml",
          "--max-tokens", "64", "--detect", "5"], 5.0),
        ("plan comprehension (abs)",
         ["plan", str(REPO_ROOT / "evals" / "comprehension.py"), "--model", "openai/gpt-4o", "--max-tokens", "64"],
         5.0),
    ]


def _coonbench(*args: str) -> subprocess.CompletedProcess[str]:
    out = subprocess.run([sys.executable, "-m", "coonbench.cli", *args], cwd=REPO_ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"coonbench {' '.join(args)} failed ({out.returncode}): {out.stderr.strip()[-500:]}")
    return out


def timed(args: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``coonbench ARGS`` process; CPU is the child's user + system time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    _coonbench(*args)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def slowest_imports(args: list[str], top: int = 5) -> list[tuple[str, float]]:
    """The ``top`` slowest top-level imports of one run (name, cumulative seconds), from ``-X importtime``."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "coonbench.cli", *args],
                         cwd=REPO_ROOT, capture_output=True, text=True)
    found: list[tuple[str, float]] = []
    for line in out.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line.removeprefix("import time:").split("|")
        if cumulative.strip().isdigit() and not name.startswith("  "):  # top level: one leading space only
            found.append((name.strip(), int(cumulative) / 1e6))
    return sorted(found, key=lambda item: -item[1])[:top]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per command (the median is shown)")
    parser.add_argument("--importtime", action="store_true", help="also show each command's slowest imports")
    parser.add_argument("--only", metavar="TEXT", help="only the commands whose label contains TEXT (e.g. plan)")
    args = parser.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    print(f"{'command':<26}{'wall (median)':>15}{'CPU (median)':>14}{'goal':>8}  within goal (CPU)")
    missed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for label, cmd, goal in commands(Path(scratch)):
            if args.only and args.only not in label:
                continue
            runs = [timed(cmd) for _ in range(args.repeat)]
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            ok = cpu < goal
            missed += not ok
            print(f"{label:<26}{wall:>13.2f} s{cpu:>12.2f} s{goal:>6.1f} s  {'yes' if ok else 'NO'}")
            if args.importtime:
                for name, seconds in slowest_imports(cmd):
                    print(f"    import {name:<40}{seconds:>7.3f} s")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{missed} command(s) over their goal (CPU seconds, user + system)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
