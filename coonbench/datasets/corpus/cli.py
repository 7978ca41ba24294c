"""``python -m coonbench.datasets.corpus``: write or check the manifest, or print per-band averages."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from coonbench.datasets.corpus.manifest import (
    MANIFEST_COMMAND,
    MANIFEST_NAME,
    band_summary,
    build_manifest,
    corpus_of,
    load_corpus,
    write_manifest,
)
from coonbench.languages import default_language, get_language


def main(argv: Sequence[str] | None = None) -> int:
    """CLI: write or check the manifest, or print per-band averages."""
    parser = argparse.ArgumentParser(prog="python -m coonbench.datasets.corpus", description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write-manifest", action="store_true", help="regenerate the corpus's manifest.json")
    group.add_argument("--check", action="store_true", help="exit 1 when the manifest is not current")
    parser.add_argument("--language", default=None, help="whose corpus (default: dart)")
    args = parser.parse_args(argv)
    language = get_language(args.language) if args.language else default_language()
    if args.write_manifest:
        print(f"wrote {write_manifest(language=language)}")
        return 0
    if args.check:
        target = corpus_of(language).root / MANIFEST_NAME
        current = target.read_text(encoding="utf-8") if target.is_file() else ""
        if current != build_manifest(language=language):
            print(f"manifest out of date; run `{MANIFEST_COMMAND}`", file=sys.stderr)
            return 1
        print("manifest current")
        return 0
    samples = load_corpus(language=language)
    print(json.dumps(band_summary(samples), indent=2))
    print(f"total: {len(samples)} samples, {sum(s.loc for s in samples)} lines of code")
    return 0

