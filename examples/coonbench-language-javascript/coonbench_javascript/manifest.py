"""Rewrite the corpus manifest (``corpus/manifest.json``: each file's sha256 and metrics) after a corpus file
changes: ``python -m coonbench_javascript.manifest``. coonbench's loader checks every file against it; the text is
coonbench's own manifest (``build_manifest``) with this command as the one that wrote it."""

from __future__ import annotations

import json

from coonbench.datasets.corpus.manifest import MANIFEST_NAME, build_manifest
from coonbench_javascript.language import CORPUS_DIR, JAVASCRIPT

COMMAND = "python -m coonbench_javascript.manifest"


def manifest_text() -> str:
    """The manifest as coonbench builds it for this corpus, naming this module's command."""
    data = json.loads(build_manifest(language=JAVASCRIPT))
    data["command"] = COMMAND
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> None:
    """Write the manifest and say where."""
    target = CORPUS_DIR / MANIFEST_NAME
    target.write_text(manifest_text(), encoding="utf-8", newline="\n")
    print(target)


if __name__ == "__main__":
    main()
