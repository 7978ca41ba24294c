"""``coonbench mine-edits REPO [REPO…] -o DIR``: registered on the main parser with ``register(subparsers)``."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def cmd_mine_edits(args: argparse.Namespace) -> int:
    from coonbench.datasets.edits.licence import PERMISSIVE
    from coonbench.datasets.edits.mine import link_chains, mine_repo, pair_key
    from coonbench.datasets.edits.store import EDITS_FILE, read_edits, write_edits
    from coonbench.languages import get_language

    language = get_language(args.language)
    existing = read_edits(args.output) if args.append and (args.output / EDITS_FILE).is_file() else []
    edits = []
    texts: dict[tuple[str, str], str] = {}
    allowed = None if args.any_licence else (frozenset(args.licence) if args.licence else PERMISSIVE)
    seen: set[str] = {pair_key(e.before, e.after) for e in existing}
    for repo in args.repos:
        kept, dropped, found = mine_repo(repo, max_lines=args.max_lines, max_bytes=args.max_bytes, after=args.after,
                                         licences=allowed, limit=args.limit, rev=args.rev, seen=seen,
                                         companions=args.companions, min_run=args.min_chain, language=language)
        reasons = ", ".join(f"{k}: {v}" for k, v in sorted(dropped.items(), key=lambda kv: -kv[1]))
        print(f"{repo}: kept {len(kept)} edits (left out: {reasons or 'none'})", file=sys.stderr)
        edits.extend(kept)
        texts.update(found)
    linked = link_chains(newest_first(in_long_chains(edits, existing, args.min_chain, language)
                                      + list(reversed(existing))), language)
    used = {(e.repo, e.licence_file) for e in linked} - {(e.repo, e.licence_file) for e in existing}
    path = write_edits(args.output, linked, {key: text for key, text in texts.items() if key in used})
    chained = sum(1 for e in linked if e.previous)
    print(f"wrote {len(linked)} edits ({chained} following another edit of the same file) to {path}")
    return 0 if linked else 1


def newest_first(edits: list[Any]) -> list[Any]:
    """Edits by commit date, newest first (``link_chains``'s order; ties keep their order: ``git log``'s)."""
    from datetime import datetime

    return sorted(edits, key=lambda e: datetime.fromisoformat(e.date).timestamp(), reverse=True)


def in_long_chains(new: list[Any], existing: list[Any], min_chain: int, language: Any = None) -> list[Any]:
    """The new edits (mine_repo's order) that lie in a chain of at least ``min_chain`` consecutive edits of one file,
    counted with the ``existing`` edits (all of them when ``min_chain`` is 1)."""
    if min_chain <= 1:
        return new
    from coonbench.datasets.edits.mine import link_chains
    from coonbench.datasets.edits.samples import chains

    keep = {e.id for chain in chains(link_chains(newest_first(new + list(reversed(existing))), language))
            if len(chain) >= min_chain
            for e in chain}
    return [e for e in new if e.id in keep]


def register(subparsers: Any) -> None:
    """Add the ``mine-edits`` subcommand."""
    from pathlib import Path

    from coonbench.datasets.edits.mine import MAX_BYTES, MAX_LINES

    from coonbench.languages import DEFAULT_LANGUAGE

    p = subparsers.add_parser("mine-edits", help="mine small single-source-file edits from git histories")
    p.add_argument("repos", nargs="+", metavar="REPO", help="git work trees or bare git directories")
    p.add_argument("-o", "--output", required=True, type=Path, metavar="DIR",
                   help="folder for edits.jsonl and licences/")
    p.add_argument("--language", default=DEFAULT_LANGUAGE, metavar="NAME",
                   help=f"the language whose source files are mined (default {DEFAULT_LANGUAGE}; `coonbench formats` "
                        "names the languages)")
    p.add_argument("--max-lines", type=int, default=MAX_LINES, help="most lines a commit may change")
    p.add_argument("--max-bytes", type=int, default=MAX_BYTES, help="largest file (before or after) kept")
    p.add_argument("--after", metavar="DATE", help="keep only commits newer than this date (YYYY-MM-DD)")
    p.add_argument("--limit", type=int, help="at most this many edits per repository (newest first)")
    p.add_argument("--rev", default="HEAD", help="the history to walk (default HEAD)")
    p.add_argument("--companions", action="store_true",
                   help="also commits that change, beside the one source file, only .md/.yaml files (changelog, pubspec)")
    p.add_argument("--min-chain", type=int, default=1, metavar="N",
                   help="keep only edits in a chain of N or more consecutive edits of one file (for sessions)")
    p.add_argument("--append", action="store_true",
                   help="add to the edits already in DIR (their pairs are not mined twice; chains are relinked)")
    p.add_argument("--licence", action="append", metavar="SPDX",
                   help="licences to accept (repeatable; default MIT, BSD-2-Clause, BSD-3-Clause, Apache-2.0)")
    p.add_argument("--any-licence", action="store_true", help="keep edits whatever the licence (your own code)")
    p.set_defaults(fn=cmd_mine_edits)
