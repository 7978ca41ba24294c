"""Time the pure-Python TeaLeaf encoder on the SEC EDGAR file against ``json.dumps`` (goal: within 5×).

Run: ``python benchmarks/tealeaf_speed.py [PATH] [--repeat N]``. Prints best-of-N times and the ratios of the
compact TeaLeaf encode (what TeaLeaf's benchmark sends) to ``json.dumps`` (C-accelerated, compact) and to
``json.dumps(indent=2)`` (pretty, pure Python).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from coonbench.formats.tealeaf import encode_tealeaf
from coonbench.resources import SHARED_DIR

DEFAULT = SHARED_DIR / "reference" / "tealeaf" / "tasks" / "finance" / "data" / "sec_edgar_2025_q4.json"


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` runs (the least disturbed by other processes)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args(argv)
    if not args.path.exists():
        print(f"error: {args.path} not found (needs ../shared/reference beside the checkout)", file=sys.stderr)
        return 1
    data = json.loads(args.path.read_text(encoding="utf-8"))
    encode_tealeaf(data)  # warm the quoting cache the way a benchmark run would
    t_json = best_of(lambda: json.dumps(data), args.repeat)
    t_json_pretty = best_of(lambda: json.dumps(data, indent=2), args.repeat)
    t_tl_compact = best_of(lambda: encode_tealeaf(data, compact=True, compact_floats=True), args.repeat)
    t_tl_pretty = best_of(lambda: encode_tealeaf(data), args.repeat)
    print(f"file: {args.path.name} ({args.path.stat().st_size:,} bytes), best of {args.repeat}")
    print(f"json.dumps (compact, C)      {t_json * 1e3:8.2f} ms")
    print(f"json.dumps(indent=2)         {t_json_pretty * 1e3:8.2f} ms")
    print(f"tealeaf-compact encode       {t_tl_compact * 1e3:8.2f} ms")
    print(f"tealeaf (pretty) encode      {t_tl_pretty * 1e3:8.2f} ms")
    print(f"ratio tealeaf-compact / json.dumps           {t_tl_compact / t_json:5.2f}x (goal <= 5x)")
    print(f"ratio tealeaf-compact / json.dumps(indent=2) {t_tl_compact / t_json_pretty:5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
