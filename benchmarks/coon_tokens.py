"""Token cost of COON against raw and minified Dart over the COON corpus (o200k and cl100k), per sample and category.

Corpus: ``data/dart/**/*.dart`` plus the upstream reference samples (``coonbench.datasets.corpus``). Also times
encode+decode of the whole corpus and checks every round trip. Upstream's COON is added as a column when the PyPI
``coon`` package (and the spec tables it needs) can be imported and compresses a sample; otherwise it is skipped.

    python benchmarks/coon_tokens.py [--per-sample] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from coonbench.dart import ast_diff
from coonbench.datasets.corpus import iter_corpus
from coonbench.dart.minify import minify
from coonbench.formats.coon import decode, encode
from coonbench.tokens import count_tokens

ENCODINGS = ("o200k_base", "cl100k_base")


def upstream_compressor() -> Callable[[str], str] | None:
    """Upstream's Dart→COON function when the ``coon`` package works here, else None (reason on stderr)."""
    try:
        import coon  # type: ignore[import-not-found]
    except Exception as err:  # noqa: BLE001 - any import failure means "not available"
        print(f"upstream COON skipped: {type(err).__name__}: {err}", file=sys.stderr)
        return None
    for name in ("compress_dart", "compress", "compress_code"):
        fn = getattr(coon, name, None)
        if callable(fn):
            try:
                fn("Text('a')")
            except Exception as err:  # noqa: BLE001
                print(f"upstream COON skipped: coon.{name} failed: {err}", file=sys.stderr)
                return None
            return fn
    print("upstream COON skipped: no compress function in package 'coon'", file=sys.stderr)
    return None


def measure(per_sample: bool = False) -> dict[str, Any]:
    """Token counts per sample and per category, ratios, round-trip failures and timing."""
    corpus = list(iter_corpus())
    upstream = upstream_compressor()
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    coons = [encode(src) for _, _, src in corpus]
    decoded = [decode(c) for c in coons]
    wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    failures = [f"{cat}/{sid}: {d}" for (cat, sid, src), dec in zip(corpus, decoded) if (d := ast_diff(src, dec))]
    samples: list[dict[str, Any]] = []
    totals: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for (cat, sid, src), coon in zip(corpus, coons):
        texts = {"dart": src, "minified": minify(src), "coon": coon}
        if upstream is not None:
            try:
                texts["upstream"] = upstream(src)
            except Exception:  # noqa: BLE001 - upstream fails on some inputs; count it as missing
                pass
        row: dict[str, Any] = {"category": cat, "id": sid}
        for enc in ENCODINGS:
            for kind, text in texts.items():
                n = count_tokens(text, enc)
                row[f"{kind}_{enc}"] = n
                for key in (cat, "TOTAL"):
                    totals[key][f"{kind}_{enc}"] += n
        samples.append(row)
    summary = {}
    for key, t in totals.items():
        entry: dict[str, Any] = {"samples": sum(1 for s in samples if key in ("TOTAL", s["category"]))}
        for enc in ENCODINGS:
            d, m, c = t[f"dart_{enc}"], t[f"minified_{enc}"], t[f"coon_{enc}"]
            entry[enc] = {
                "dart": d,
                "minified": m,
                "coon": c,
                "coon_vs_dart": round(1 - c / d, 4),
                "coon_vs_minified": round(1 - c / m, 4),
                "minified_vs_dart": round(1 - m / d, 4),
            }
            if f"upstream_{enc}" in t:
                entry[enc]["upstream"] = t[f"upstream_{enc}"]
        summary[key] = entry
    return {
        "samples": samples if per_sample else len(samples),
        "summary": summary,
        "roundtrip_failures": failures,
        "encode_decode_seconds": {"wall": round(wall, 3), "cpu": round(cpu, 3)},
    }


def print_report(result: dict[str, Any]) -> None:
    if isinstance(result["samples"], list):
        print(f"{'category':14} {'id':44} {'dart':>6} {'min':>6} {'coon':>6}  (o200k)")
        for s in result["samples"]:
            print(
                f"{s['category']:14} {s['id'][:44]:44} {s['dart_o200k_base']:6} {s['minified_o200k_base']:6}"
                f" {s['coon_o200k_base']:6}"
            )
        print()
    for enc in ENCODINGS:
        print(f"== {enc}")
        print(f"{'category':14} {'n':>4} {'dart':>7} {'minified':>9} {'coon':>7} {'coon/dart':>10} {'coon/min':>9}")
        for key in sorted(result["summary"], key=lambda k: (k == "TOTAL", k)):
            e = result["summary"][key]
            r = e[enc]
            print(
                f"{key:14} {e['samples']:4} {r['dart']:7} {r['minified']:9} {r['coon']:7}"
                f" {-r['coon_vs_dart']:10.1%} {-r['coon_vs_minified']:9.1%}"
                + (f"  upstream {r['upstream']}" if "upstream" in r else "")
            )
    t = result["encode_decode_seconds"]
    print(f"\nencode+decode of the whole corpus: {t['wall']} s wall, {t['cpu']} s CPU")
    print(f"round-trip failures: {len(result['roundtrip_failures'])}")
    for f in result["roundtrip_failures"]:
        print("  " + f)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-sample", action="store_true", help="print one row per sample")
    parser.add_argument("--json", help="also write the result as JSON to this path")
    args = parser.parse_args(argv)
    result = measure(per_sample=args.per_sample)
    print_report(result)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2)
    return 1 if result["roundtrip_failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
