"""Mutation score of correction's tests: one-edit mutants of each reference solution, killed by which tests.

Run: ``python benchmarks/mutation_score.py [--suite humaneval|coonbench] [--problems id,...] [--jobs 2]``.
For HumanEval: mutants of each canonical solution against HumanEval's own tests (``base``: the docstring examples
and the check's asserts) and against the amplified set (base + generated). For coonbench's problems: against the
public tests and against public + hidden. Prints each surviving mutant, marked ``(equivalent: why)`` when
``benchmarks/equivalent_mutants.yaml`` lists it (a mutant no input inside the contract can tell from the
reference), then the totals. Mutants run in the sandbox's worker with a per-call alarm, a memory limit and a
wall-clock limit (``coonbench.validity.code_mutants``). About 4 minutes for HumanEval's 1,835 mutants on 2 cores.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import yaml

from coonbench.validity.code_mutants import Mutant, first_failure, mutants

EQUIVALENT = Path(__file__).with_name("equivalent_mutants.yaml")


def _humaneval() -> list[tuple[Any, int, int]]:
    """(amplified problem, first line of the canonical solution, number of base tests) per HumanEval task."""
    from coonbench.datasets.humaneval import load_humaneval, read_tasks

    tasks = read_tasks()
    base = load_humaneval("base")[0]
    return [(p, t["prompt"].count("\n") + 1, len(b.all_tests)) for p, b, t in zip(load_humaneval()[0], base, tasks)]


def _coonbench() -> list[tuple[Any, int, int]]:
    """(problem, 1, number of public tests) per correction problem."""
    from coonbench.datasets.correction import load_problems

    return [(p, 1, len(p.public_tests)) for p in load_problems()]


def equivalents() -> dict[str, dict[str, str]]:
    """problem id -> mutant ``where`` -> why it is equivalent."""
    if not EQUIVALENT.exists():
        return {}
    data = yaml.safe_load(EQUIVALENT.read_text(encoding="utf-8")) or {}
    return {str(k): {str(w): str(r) for w, r in (v or {}).items()} for k, v in data.items()}


def score(problem: Any, first_line: int, n_base: int) -> list[tuple[Mutant, int | None]]:
    """Each mutant with the index of the first test it fails (None: it survives)."""
    return [(m, first_failure(problem, m.source)) for m in mutants(problem.solutions["python"], first_line)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=("humaneval", "coonbench"), default="humaneval")
    parser.add_argument("--problems", default=None, help="comma-separated problem ids (humaneval-34,...)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    rows = _humaneval() if args.suite == "humaneval" else _coonbench()
    if args.problems:
        wanted = set(args.problems.split(","))
        rows = [r for r in rows if r[0].id in wanted]
    known = equivalents()  # listed for the full test set; a base-test survivor not listed counts as non-equivalent
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda r: score(*r), rows))
    total = killed_base = killed_all = 0
    survive_base, survive_all, real_base, real_all = [], [], [], []
    for (problem, _, n_base), scored in zip(rows, results):
        total += len(scored)
        killed_base += sum(f is not None and f < n_base for _, f in scored)
        killed_all += sum(f is not None for _, f in scored)
        reasons = known.get(problem.id, {})
        alive_base = [m for m, f in scored if f is None or f >= n_base]
        alive = [m for m, f in scored if f is None]
        for survivors, names, real in ((alive_base, survive_base, real_base), (alive, survive_all, real_all)):
            if survivors:
                names.append(problem.id)
            if any(m.where not in reasons for m in survivors):
                real.append(problem.id)
        for m in alive:
            note = f"  (equivalent: {reasons[m.where]})" if m.where in reasons else ""
            print(f"survives: {problem.id} {m.where}{note}")
    base_name, all_name = ("HumanEval's own tests", "amplified tests") if args.suite == "humaneval" else \
        ("public tests", "public + hidden tests")
    print(f"{len(rows)} problems, {total} mutants")
    for name, killed, names, real in ((base_name, killed_base, survive_base, real_base),
                                      (all_name, killed_all, survive_all, real_all)):
        print(f"killed by {name}: {killed}/{total} ({killed / max(total, 1):.1%}); problems with a surviving "
              f"mutant: {len(names)}, with a non-equivalent one: {len(real)}")
    if real_all:
        print("problems with a non-equivalent survivor: " + ", ".join(real_all))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
