"""Rewrite the corpus manifest (``corpus/manifest.json``: each file's sha256 and metrics) after a corpus file
changes: ``python -m coonbench_javascript.manifest``. coonbench's loader checks every file against it."""

from __future__ import annotations

from coonbench.datasets.corpus.manifest import write_manifest
from coonbench_javascript.language import JAVASCRIPT


def main() -> None:
    """Write the manifest and say where."""
    print(write_manifest(language=JAVASCRIPT))


if __name__ == "__main__":
    main()
