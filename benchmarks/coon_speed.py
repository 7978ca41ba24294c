"""COON codec speed on real Dart: KB/s of encode, of its round-trip verification, and of decode (CPU time).

    python benchmarks/coon_speed.py [DIR] [--repeat N] [--phases]

DIR defaults to ``../shared/reference/dart-real`` (the development set) when present, else ``data/dart``. Sizes are
UTF-8 bytes of the Dart source; times are process CPU seconds (best of ``--repeat`` runs), so a loaded machine
changes them less than wall time. "verify" is the extra cost of ``encode``'s self-check (encode with it minus
encode without); "encode+verify+decode" is the figure the 1 MB/s goal is about, and its ratio to one tree-sitter
parse of the same sources (``parse_unit``, best of ``--repeat``) is the figure that does not depend on the machine.
``--phases`` adds where that time goes: the tree-sitter parse of the source and the walk of its tree (the
encoder's tokens), the encoder's rules, the decoder's rules (twice: in the check and in ``decode``), the check's
minimal join and ``decode``'s layout, and the check itself: Dart's scanner on the source and the decoded Dart and
the comparison of the two token streams (``coonbench.dart.scan``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from coonbench.dart.equivalence import unit_scan
from coonbench.dart.minify import join_tokens
from coonbench.dart.parse import DartParseError, parse_unit
from coonbench.dart.scan import first_difference
from coonbench.formats.coon.decoder import decode_texts
from coonbench.formats.coon.encoder import encode_unit, parse_source
from coonbench.formats.coon.layout import format_dart
from coonbench.formats.coon.words import collector_paused
from coonbench.formats.base import FormatError
from coonbench.formats.coon import decode, encode
from coonbench._native import STATUS
from coonbench.resources import REPO_ROOT, SHARED_DIR


def _default_dir() -> Path:
    real = SHARED_DIR / "reference" / "dart-real"
    return real if real.exists() else REPO_ROOT / "data" / "dart"


def _best(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


PHASES = (
    "parse (source)", "walk (source)", "encoder rules", "decoder rules", "join (check)", "scan + compare (check)",
    "layout (decode)",
)


def _phases(sources: list[str]) -> dict[str, float]:
    """CPU seconds of each step of one verified encode and one decode per file, in the codec's own order."""
    spent = dict.fromkeys(PHASES, 0.0)

    def timed(phase: str, fn, *args):  # type: ignore[no-untyped-def]
        start = time.process_time()
        result = fn(*args)
        spent[phase] += time.process_time() - start
        return result

    with collector_paused():
        for source in sources:
            unit = timed("parse (source)", parse_source, source)
            timed("walk (source)", unit_scan, unit)
            coon = timed("encoder rules", encode_unit, unit)
            texts = timed("decoder rules", decode_texts, coon)[0]
            dart = timed("join (check)", join_tokens, texts)  # the check reads the tokens joined minimally
            timed("scan + compare (check)", first_difference, source, dart)
            texts = timed("decoder rules", decode_texts, coon)[0]  # ``decode``
            timed("layout (decode)", format_dart, texts)
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=1, help="runs per phase; the best is reported")
    parser.add_argument("--phases", action="store_true", help="also print where encode+verify+decode spends its time")
    args = parser.parse_args(argv)
    root = args.directory or _default_dir()
    if not any(root.rglob("*.dart")):
        parser.error(f"{root}: no *.dart files there (is the path right?)")
    sources = []
    for path in sorted(root.rglob("*.dart")):
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            parse_unit(text)
            encode(text)
        except (DartParseError, FormatError):
            continue  # not Dart, or refused: not part of the speed figure
        sources.append(text)
    size_kb = sum(len(s.encode("utf-8")) for s in sources) / 1000
    coons = [encode(s, verify=False) for s in sources]
    plain = _best(lambda: [encode(s, verify=False) for s in sources], args.repeat)
    verified = _best(lambda: [encode(s) for s in sources], args.repeat)
    dec = _best(lambda: [decode(c) for c in coons], args.repeat)
    parse = _best(lambda: [parse_unit(s) for s in sources], args.repeat)
    print(f"{root}: {len(sources)} files, {size_kb:.0f} KB of Dart")
    print(f"codec build: {STATUS['build']} ({STATUS['why']})")
    print(f"encode (no verify)      {size_kb / plain:8.0f} KB/s   ({plain:.2f} s CPU)")
    print(f"verify (extra)          {size_kb / max(verified - plain, 1e-9):8.0f} KB/s   ({verified - plain:.2f} s CPU)")
    print(f"decode                  {size_kb / dec:8.0f} KB/s   ({dec:.2f} s CPU)")
    print(f"encode+verify+decode    {size_kb / (verified + dec):8.0f} KB/s   ({verified + dec:.2f} s CPU)")
    print(f"one tree-sitter parse   {size_kb / parse:8.0f} KB/s   ({parse:.2f} s CPU)")
    print(f"encode+verify+decode / one parse: {(verified + dec) / parse:.2f}x")
    if args.phases:
        spent = _phases(sources)
        total = sum(spent.values()) or 1e-9
        print(f"where encode+verify+decode spends its time ({total:.2f} s CPU in one run):")
        for phase, seconds in spent.items():
            print(f"  {phase:26s} {seconds:6.2f} s  {100 * seconds / total:5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
