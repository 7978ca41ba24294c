"""The round-trip corpus the COON dialect is measured and tested on: ``data/dart/`` and the upstream samples.

``iter_corpus`` yields the corpus files plus the upstream COON benchmark samples
(``shared/reference/coon/extracted/code_samples_{ui,logic,large}.json``, field ``dartCode``) and the upstream
"observation testing" Flutter app (one text file of ``FILE: <path>`` sections between ``=====`` rules).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from coonbench.datasets.corpus.manifest import corpus_files
from coonbench.resources import DATA_DIR, SHARED_DIR

REFERENCE_COON = SHARED_DIR / "reference" / "coon"
_FILE_MARKER = re.compile(r"^=+\nFILE: (?P<path>[^\n]+)\n=+\n", re.MULTILINE)

SourceSample = tuple[str, str, str]  # (category, id, source)


def iter_data_dart(data_dir: Path = DATA_DIR) -> Iterator[SourceSample]:
    """coonbench's samples by path: category ``data/<band>``, id = path relative to ``data/dart``."""
    root = data_dir / "dart"
    if not root.is_dir():
        return
    for _, band, path in sorted(corpus_files(root), key=lambda entry: entry[2]):
        yield f"data/{band}", path.relative_to(root).as_posix(), path.read_text(encoding="utf-8")


def split_file_markers(text: str) -> list[tuple[str, str]]:
    """(path, source) for every ``FILE:`` section of a concatenated-files dump."""
    marks = list(_FILE_MARKER.finditer(text))
    return [
        (m.group("path").strip(), text[m.end() : marks[i + 1].start() if i + 1 < len(marks) else len(text)])
        for i, m in enumerate(marks)
    ]


def iter_reference_dart(reference_dir: Path = REFERENCE_COON) -> Iterator[SourceSample]:
    """Upstream samples: categories ``ui``, ``logic``, ``large`` and ``instagram`` (one sample per file)."""
    extracted = reference_dir / "extracted"
    for kind in ("ui", "logic", "large"):
        path = extracted / f"code_samples_{kind}.json"
        if not path.exists():
            continue
        groups = json.loads(path.read_text(encoding="utf-8"))["groups"]
        for group, entries in groups.items():
            for entry in entries if isinstance(entries, list) else [entries]:
                if "dartCode" not in entry or "id" not in entry:
                    raise ValueError(f"{path}: group {group}: entry without 'id'/'dartCode'")
                yield kind, str(entry["id"]), entry["dartCode"]
    app = reference_dir / "benchmarks" / "observation-testing" / "instagram-clone" / "input" / "flutter-context.txt"
    if app.exists():
        for name, source in split_file_markers(app.read_text(encoding="utf-8")):
            yield "instagram", name, source


def iter_corpus() -> Iterator[SourceSample]:
    """Everything: data/ samples first, then the upstream reference samples (when ``shared/`` is present)."""
    yield from iter_data_dart()
    yield from iter_reference_dart()
