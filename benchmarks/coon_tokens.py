"""Token cost of COON against raw and minified Dart in any tokenizer, per sample and category, on any directories.

Default corpus: ``data/dart/**/*.dart`` plus the upstream reference samples (``coonbench.datasets.corpus``); with
``DIR``, every ``*.dart`` file under it (category = its first sub-directory). Every file goes through the verifying
``encode``: files it refuses (or that are not Dart) are counted and listed, and the token totals cover the files that
round-trip. Also prints where the remaining COON tokens go (strings, identifiers, keywords, punctuation, numbers,
COON sigils, dictionary aliases ``\\N`` and alias words, comments: each COON lexeme's share of the tokens of its lexemes counted one by one) and times
encode+decode. Upstream's COON is added as a column when the PyPI ``coon`` package works here.

Primer variants: for COON with no primer, the short and the full primer, and a legend (``-T primer=legend``: the
document economised for a legend, plus the legend of only what it uses), the share of files where COON and its
primer cost fewer o200k tokens than the raw Dart, the pooled change, and the break-even document size (primer ÷
(1 − pooled COON/Dart ratio), in Dart tokens, as the report computes it; for the legend its median size).

Per tokenizer (``--encoding NAME``, repeatable, or ``all``; default o200k_base and cl100k_base): the totals, the
primer variants with the legend economised in that tokenizer (``economise`` keeps an entry where it pays in the
tokenizer in use), the share of files that keep a legend, and which legend entries pay: of the files whose plain
COON uses an entry (a widget word, a label, an enum shorthand, a macro, a rule), the share whose economised
document still uses it. Several directories are pooled (``DIR DIR``).

    python benchmarks/coon_tokens.py [DIR ...] [--encoding NAME ...] [--per-sample] [--json out.json] [--no-legend]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from pathlib import Path

from coonbench.dart import ast_diff
from coonbench.dart.minify import minify
from coonbench.dart.parse import DartParseError, parse_unit
from coonbench.datasets.corpus import iter_corpus
from coonbench.formats.coon.tables import ALIAS_WORDS
from coonbench.formats.coon.words import NOT_LABELS
from coonbench.formats.coon.lexer import lex
from coonbench.formats.base import FormatError
from coonbench.formats.coon import decode, encode, primer
from coonbench.formats.coon.legend import document_and_legend, usage
from coonbench.tokens import count_tokens, get_tokenizer, tokenizer_names

ENCODINGS = ("o200k_base", "cl100k_base")
"""The default tokenizers (``--encoding`` chooses others)."""


def upstream_compressor() -> Callable[[str], str | None] | None:
    """The published COON compressor (format ``coon-upstream``) when it runs here, else None (reason on stderr)."""
    from coonbench.formats.coon_upstream import encode_or_none, unavailable

    reason = unavailable()
    if reason is not None:
        print(f"upstream COON skipped: {reason}", file=sys.stderr)
        return None
    return encode_or_none


_BUCKETS = {"str": "strings", "num": "numbers", "op": "punctuation", "comment": "comments", "at": "punctuation",
            "hash": "punctuation", "macro": "COON sigils", "edge": "COON sigils", "cedge": "COON sigils",
            "def": "COON sigils", "ofc": "COON sigils", "ref": "aliases"}


def buckets(coon: str, encoding: str) -> dict[str, int]:
    """Tokens of each COON lexeme kind (lexemes counted one by one: a share, not an exact split of the total)."""
    out: dict[str, int] = defaultdict(int)
    defined: set[str] = set()  # alias words defined so far (a bare one repeats its alias)
    prev = ""
    for tok in lex(coon):
        if tok.kind == "def" and len(defined) < len(ALIAS_WORDS):
            defined.add(ALIAS_WORDS[len(defined)])
        if tok.kind == "ident" and tok.text in defined and prev not in ("at", "hash"):
            kind = "aliases"
        elif tok.kind in ("ident", "esc"):
            kind = "keywords" if tok.text in NOT_LABELS or tok.text in _KEYWORDS else "identifiers"
        else:
            kind = _BUCKETS.get(tok.kind, tok.kind)
        out[kind] += count_tokens("\\" + tok.text if tok.kind == "ref" else tok.text, encoding)
        prev = tok.kind
    return out


_KEYWORDS = frozenset("null true false this super new const final var return if else for while".split())


def directory_corpus(root: Path) -> list[tuple[str, str, str]]:
    """(category, id, source) of every ``*.dart`` under ``root``; category = first sub-directory."""
    out = []
    for path in sorted(root.rglob("*.dart")):
        rel = path.relative_to(root)
        category = rel.parts[0] if len(rel.parts) > 1 else root.name
        out.append((category, str(rel), path.read_text(encoding="utf-8", errors="replace")))
    return out


def _summary(
    totals: dict[str, dict[str, int]], samples: list[dict[str, Any]], encodings: tuple[str, ...]
) -> dict[str, Any]:
    """Per category and in total: the sample count and, per tokenizer, the token sums and the savings ratios."""
    summary = {}
    for key, t in totals.items():
        entry: dict[str, Any] = {"samples": sum(1 for s in samples if key in ("TOTAL", s["category"]))}
        for enc in encodings:
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
    return summary


def measure(
    per_sample: bool = False,
    directories: list[Path] | None = None,
    legend: bool = True,
    encodings: tuple[str, ...] = ENCODINGS,
) -> dict[str, Any]:
    """Token counts per sample and per category in each of ``encodings``, ratios, round-trip rate, refusals, token
    buckets (o200k), timing, and per tokenizer the primer variants and the legend entries that pay."""
    if directories:
        corpus = [row for directory in directories for row in directory_corpus(directory)]
    else:
        corpus = [tuple(s) for s in iter_corpus()]
    upstream = upstream_compressor()
    refused: list[str] = []
    not_dart = 0
    kept: list[tuple[str, str, str]] = []
    coons: list[str] = []
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    for cat, sid, src in corpus:
        try:
            parse_unit(src)
        except DartParseError:
            not_dart += 1
            continue
        try:
            coons.append(encode(src))  # verifying: refuses instead of being silently lossy
        except FormatError as err:
            refused.append(f"{cat}/{sid}: {err}")
            continue
        kept.append((cat, sid, src))
    decoded = [decode(c) for c in coons]
    wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    corpus = kept
    failures = [f"{cat}/{sid}: {d}" for (cat, sid, src), dec in zip(corpus, decoded) if (d := ast_diff(src, dec))]
    samples: list[dict[str, Any]] = []
    totals: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for (cat, sid, src), coon in zip(corpus, coons):
        texts = {"dart": src, "minified": minify(src), "coon": coon}
        if upstream is not None and (compressed := upstream(src)) is not None:
            texts["upstream"] = compressed  # a file upstream refuses counts as missing
        row: dict[str, Any] = {"category": cat, "id": sid}
        for kind, n in buckets(coon, "o200k_base").items():
            totals["BUCKETS"][kind] += n
        for enc in encodings:
            for kind, text in texts.items():
                n = count_tokens(text, enc)
                row[f"{kind}_{enc}"] = n
                for key in (cat, "TOTAL"):
                    totals[key][f"{kind}_{enc}"] += n
        samples.append(row)
    bucket_totals = dict(totals.pop("BUCKETS", {}))
    summary = _summary(totals, samples, encodings)
    parseable = len(kept) + len(refused)
    sources = [src for _c, _s, src in corpus]
    return {
        "encodings": list(encodings),
        "samples": samples if per_sample else len(samples),
        "summary": summary,
        "files": len(corpus) + len(refused) + not_dart,
        "not_dart": not_dart,
        "refused": refused,
        "roundtrip_rate": round(len(kept) / parseable, 4) if parseable else None,
        "buckets_o200k": bucket_totals,
        "roundtrip_failures": failures,
        "encode_decode_seconds": {"wall": round(wall, 3), "cpu": round(cpu, 3)},
        "primers": {enc: primer_variants(sources, coons, legend, enc) for enc in encodings},
        "legend_entries": {enc: legend_entries(sources, coons, enc) for enc in encodings} if legend else {},
    }


PRIMER_VARIANTS = ("none", "short", "full", "legend")


def _legend_pairs(sources: list[str], encoding: str) -> list[tuple[str, str]]:
    """Each file's COON economised in ``encoding`` and its legend (what ``-T primer=legend`` shows that model)."""
    return [document_and_legend(s, tokenizer=encoding) for s in sources]


def primer_variants(
    sources: list[str], coons: list[str], legend: bool = True, encoding: str = "o200k_base"
) -> dict[str, dict[str, Any]]:
    """Per primer variant: files where COON + primer is cheaper than raw Dart (in ``encoding``), the pooled change,
    and the break-even document size in Dart tokens (the legend left out unless ``legend``: it costs most of the
    time; for the legend also the share of files that keep one)."""
    def count(text: str) -> int:
        return count_tokens(text, encoding)

    dart = [count(s) for s in sources]
    plain = [count(c) for c in coons]
    pairs = _legend_pairs(sources, encoding) if legend else [(c, "") for c in coons]
    docs = {"none": plain, "short": plain, "full": plain, "legend": [count(d) for d, _ in pairs]}
    primers = {"none": [0] * len(sources), "short": [count(primer("short"))] * len(sources),
               "full": [count(primer("full"))] * len(sources), "legend": [count(lg) for _, lg in pairs]}
    out: dict[str, dict[str, Any]] = {}
    for variant in PRIMER_VARIANTS if legend else PRIMER_VARIANTS[:-1]:
        doc, extra = docs[variant], primers[variant]
        ratio = sum(doc) / sum(dart) if dart else 1.0
        cost = sorted(extra)[len(extra) // 2] if extra else 0
        losers = [d for d, c, p in zip(dart, doc, extra) if c + p >= d]
        out[variant] = {
            "files": len(dart),
            "cheaper_share": round(1 - len(losers) / len(dart), 4) if dart else None,
            "change_with_primer": round((sum(doc) + sum(extra)) / sum(dart) - 1, 4) if dart else None,
            "document_change": round(ratio - 1, 4),
            "primer_tokens_median": cost,
            "break_even_dart_tokens": round(cost / (1 - ratio)) if ratio < 1 else None,
            "largest_file_not_cheaper": max(losers, default=None),
        }
    if legend:
        out["legend"]["files_with_legend"] = sum(1 for _, lg in pairs if lg)
    return out


def _entry_kinds(coon: str) -> set[str]:
    """The kinds of legend entry a COON document uses (``rule:alias`` for a rule, else the table's kind)."""
    return {f"rule:{key}" if kind == "rule" else kind for kind, key in usage(coon).entries()}


def legend_entries(sources: list[str], coons: list[str], encoding: str) -> dict[str, dict[str, int]]:
    """Per kind of legend entry: the files whose plain COON uses it, and how many of them keep it once the
    document is economised for a legend in ``encoding`` (an entry is kept where it saves more than its line)."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: {"files": 0, "kept": 0})
    for coon, (economised, _) in zip(coons, _legend_pairs(sources, encoding)):
        kept = _entry_kinds(economised)
        for kind in _entry_kinds(coon):
            out[kind]["files"] += 1
            out[kind]["kept"] += kind in kept
    return dict(sorted(out.items()))


def print_report(result: dict[str, Any]) -> None:
    if isinstance(result["samples"], list):
        print(f"{'category':14} {'id':44} {'dart':>6} {'min':>6} {'coon':>6}  (o200k)")
        for s in result["samples"]:
            print(
                f"{s['category']:14} {s['id'][:44]:44} {s['dart_o200k_base']:6} {s['minified_o200k_base']:6}"
                f" {s['coon_o200k_base']:6}"
            )
        print()
    for enc in result["encodings"]:
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
    b = result["buckets_o200k"]
    total = sum(b.values()) or 1
    print("\nwhere the COON tokens go (o200k, lexemes counted one by one): " + ", ".join(
        f"{k} {v / total:.1%}" for k, v in sorted(b.items(), key=lambda kv: -kv[1])))
    parseable = result["files"] - result["not_dart"]
    print(f"files: {result['files']}, not Dart (grammar rejects): {result['not_dart']}, refused by encode: "
          f"{len(result['refused'])}, round-trip rate: {result['roundtrip_rate']:.2%} of {parseable} parseable")
    for line in result["refused"]:
        print("  refused " + line)
    for enc, variants in result["primers"].items():
        print_primers(enc, variants)
    if result["legend_entries"]:
        print_legend_entries(result)
    if len(result["encodings"]) > 1:
        print_per_tokenizer(result)
    t = result["encode_decode_seconds"]
    print(f"\nverifying encode+decode of the whole corpus: {t['wall']} s wall, {t['cpu']} s CPU")
    print(f"round-trip failures: {len(result['roundtrip_failures'])}")
    for f in result["roundtrip_failures"]:
        print("  " + f)


def print_primers(enc: str, variants: dict[str, dict[str, Any]]) -> None:
    print(f"\nCOON + primer against raw Dart ({enc}; break-even = primer ÷ (1 − COON/Dart), in Dart tokens):")
    print(f"{'primer':8} {'cheaper':>8} {'change':>8} {'doc only':>9} {'primer':>7} {'break-even':>11} {'largest loser':>14}")
    for variant, r in variants.items():
        print(f"{variant:8} {r['cheaper_share']:8.1%} {r['change_with_primer']:8.1%} {r['document_change']:9.1%}"
              f" {r['primer_tokens_median']:7} {str(r['break_even_dart_tokens']):>11} {str(r['largest_file_not_cheaper']):>14}")
    if "legend" in variants:
        r = variants["legend"]
        print(f"files that keep a legend: {r['files_with_legend']} of {r['files']} ({r['files_with_legend'] / r['files']:.1%})")


def print_legend_entries(result: dict[str, Any]) -> None:
    """Which legend entries pay in which tokenizer: kept / using, per entry kind (columns: tokenizers)."""
    encs = list(result["legend_entries"])
    kinds = sorted({k for per in result["legend_entries"].values() for k in per})
    print("\nlegend entries that pay (of the files whose COON uses one, the share that keeps it after the economy):")
    print(f"{'entry':16} {'files':>6} " + " ".join(f"{e:>11}" for e in encs))
    for kind in kinds:
        files = result["legend_entries"][encs[0]].get(kind, {}).get("files", 0)
        shares = [result["legend_entries"][e].get(kind, {"files": 0, "kept": 0}) for e in encs]
        print(f"{kind:16} {files:6} " + " ".join(f"{s['kept'] / s['files']:11.1%}" if s["files"] else f"{'-':>11}"
                                               for s in shares))


def print_per_tokenizer(result: dict[str, Any]) -> None:
    """One row per tokenizer: pooled savings against raw and minified Dart, the legend's share of files and the
    change with the legend, the short primer's break-even."""
    print("\nper tokenizer (pooled over every file that round-trips):")
    print(f"{'tokenizer':12} {'dart':>8} {'coon/dart':>10} {'coon/min':>9} {'legend files':>13} {'with legend':>12}"
          f" {'short primer':>13} {'break-even':>11}")
    for enc in result["encodings"]:
        r, p = result["summary"]["TOTAL"][enc], result["primers"][enc]
        leg = p.get("legend")
        share = f"{leg['files_with_legend'] / leg['files']:.1%}" if leg else "-"
        change = f"{leg['change_with_primer']:.1%}" if leg else "-"
        print(f"{enc:12} {r['dart']:8} {-r['coon_vs_dart']:10.1%} {-r['coon_vs_minified']:9.1%} {share:>13}"
              f" {change:>12} {p['short']['primer_tokens_median']:13} {str(p['short']['break_even_dart_tokens']):>11}")


def encodings_of(names: list[str] | None) -> tuple[str, ...]:
    """The ``--encoding`` values: names (each checked), ``all`` (every registered tokenizer), default ``ENCODINGS``."""
    if not names:
        return ENCODINGS
    if "all" in names:
        return tuple(tokenizer_names())
    for name in names:
        get_tokenizer(name)
    return tuple(dict.fromkeys(names))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="*", type=Path, help="measure every *.dart under DIR (default: corpus)")
    parser.add_argument("--encoding", action="append", metavar="NAME",
                        help="a tokenizer (repeatable), or all (default: o200k_base and cl100k_base)")
    parser.add_argument("--per-sample", action="store_true", help="print one row per sample")
    parser.add_argument("--json", help="also write the result as JSON to this path")
    parser.add_argument("--no-legend", action="store_true", help="leave out the legend primer (large corpora)")
    args = parser.parse_args(argv)
    for directory in args.directory:
        if not any(directory.rglob("*.dart")):
            parser.error(f"{directory}: no *.dart files there (is the path right?)")
    try:
        encodings = encodings_of(args.encoding)
    except ValueError as err:
        parser.error(str(err))
    result = measure(args.per_sample, args.directory, legend=not args.no_legend, encodings=encodings)
    print_report(result)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2)
    return 1 if result["roundtrip_failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
