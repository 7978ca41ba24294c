"""Normalise time against reply length, per answer type: must grow linearly (issue 16, "linear-time answers").

Run: ``python benchmarks/normalize_speed.py [--repeat N]``. For rambling replies of 10 KB, 100 KB and 1 MB
(words separated by long blank runs, runs of newlines, numbers and dates in prose, a final ``Answer:`` line) it
prints the best CPU time of ``normalize`` for every answer type twice: as shipped (a reply longer than
``MAX_EXAMINED_CHARS`` is read from its end only, so time stops growing) and with that bound lifted, which shows
the patterns themselves are linear. ``ratio`` is t(1 MB) / t(100 KB): ~10 is linear, ≤ 10 is fine, ≫ 10 is not.
"""

from __future__ import annotations

import argparse
import time

import coonbench.answers.normalize as norm

SIZES = (10_000, 100_000, 1_000_000)
ANSWERS = {
    "integer": "42",
    "number": "3.14",
    "boolean": "yes",
    "date": "2025-01-15",
    "string": "Engineering",
    "csv-list-ordered": "a,b,c",
    "csv-list-unordered": "Scaffold,Column,Text",
    "widget-name": "Text",
}
_CHUNK = (
    "The table " + " " * 1000 + "lists rows\n" + "\n" * 1000 + "with 3 columns and 12 rows on May 4, 2024; "
    "`Text` widgets " + "\t" * 200 + "and **bold** words - $ 5 -  ```info\n"
)


def reply(size: int, answer: str) -> str:
    """A rambling reply of about ``size`` characters ending with an answer line."""
    body = (_CHUNK * (size // len(_CHUNK) + 1))[:size]
    return body + f"\nAnswer: {answer}"


def best_cpu(text: str, kind: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        norm.normalize(text, kind)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    bound = norm.MAX_EXAMINED_CHARS
    header = f"{'answer type':<20} {'mode':<10}" + "".join(f"{s // 1000:>9} KB" for s in SIZES) + "   ratio"
    print(header)
    print("-" * len(header))
    for kind, answer in ANSWERS.items():
        texts = [reply(size, answer) for size in SIZES]
        for mode, limit in (("bounded", bound), ("unbounded", None)):
            norm.MAX_EXAMINED_CHARS = limit
            try:
                times = [best_cpu(t, kind, args.repeat) for t in texts]
            finally:
                norm.MAX_EXAMINED_CHARS = bound
            ratio = times[2] / times[1] if times[1] > 0 else float("nan")
            print(f"{kind:<20} {mode:<10}" + "".join(f"{t * 1000:>9.1f} ms" for t in times) + f"   {ratio:5.1f}")
    print(f"(bounded: replies longer than {bound:,} characters are read from their end only)")


if __name__ == "__main__":
    main()
