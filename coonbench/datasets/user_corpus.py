"""Bring your own code: any directory of Dart as a corpus for the code tasks (``-T corpus=DIR``).

Every ``*.dart`` file under the directory (recursively, sorted by relative path; hidden folders and ``build/``
left out) becomes a ``CorpusSample`` whose id is derived from its relative path (``user-lib.src.main``), so ids
are stable for a given directory. Metrics are measured from the syntax tree as for ``data/dart/``
(``coonbench.datasets.corpus.measure``). The corpus has no hand-made bands; a file's ``band`` (the tasks'
``complexity``) is its GCI band: ``gci-low`` (< 0.3), ``gci-mid`` (< 0.45) or ``gci-high``.

A file that cannot be used is recorded as a ``Skip`` with its reason — not UTF-8, over ``MAX_FILE_BYTES``, does
not parse — never silently dropped; the format round trip is checked per condition by the tasks.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from coonbench.tasks.conditions import Skip
from coonbench.dart.parse import DartParseError
from coonbench.datasets.corpus import CorpusSample, measure
from coonbench.resources import REPO_ROOT
from coonbench.tasks.samples import TaskArgumentError, choose

MAX_FILE_BYTES = 100_000  # larger files take seconds per codec pass; the reference set leaves them out too
GCI_BANDS: tuple[tuple[float, str], ...] = ((0.3, "gci-low"), (0.45, "gci-mid"), (float("inf"), "gci-high"))
USER_BANDS: tuple[str, ...] = tuple(b for _, b in GCI_BANDS)
EXCLUDED_DIRS = frozenset({"build", "node_modules"})
_ID_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def gci_band(gci: float) -> str:
    """The complexity band of a GCI value (fixed thresholds, so a file's band depends on that file only)."""
    return next(band for limit, band in GCI_BANDS if gci < limit)


def sample_id_for(relative: Path) -> str:
    """``lib/src/main.dart`` → ``user-lib.src.main`` (characters outside ``[A-Za-z0-9_.-]`` become ``_``)."""
    stem = relative.with_suffix("").as_posix().replace("/", ".")
    return "user-" + _ID_UNSAFE.sub("_", stem)


def dart_files(root: Path) -> list[Path]:
    """Every ``.dart`` file under ``root``, sorted by relative path, outside hidden and build folders."""
    out = []
    for path in root.rglob("*.dart"):
        rel = path.relative_to(root)
        if any(p.startswith(".") or p in EXCLUDED_DIRS for p in rel.parts[:-1]) or not path.is_file():
            continue
        out.append(path)
    return sorted(out, key=lambda p: p.relative_to(root).as_posix())


def resolve_dir(root: str | Path) -> Path:
    """A user-given directory: absolute, else relative to where the command was typed (``$PWD``: ``inspect eval
    evals/x.py`` creates the task inside ``evals/``), the current directory, or the repository root."""
    given = Path(root).expanduser()
    if given.is_absolute():
        candidates = [given]
    else:
        bases = [Path(os.environ["PWD"])] if os.environ.get("PWD") else []
        candidates = [b / given for b in (*bases, Path.cwd(), REPO_ROOT)]
    for path in candidates:
        if path.is_dir():
            return path.resolve()
    tried = ", ".join(dict.fromkeys(str(c) for c in candidates))
    raise TaskArgumentError(f"-T corpus={root}: not a directory (tried {tried}); give a directory of .dart files")


def load_dart_dir(root: str | Path) -> tuple[list[CorpusSample], list[Skip]]:
    """The usable files of ``root`` as corpus samples, and a Skip (with its reason) for each file left out."""
    base = resolve_dir(root)
    samples: list[CorpusSample] = []
    skips: list[Skip] = []
    seen: dict[str, Path] = {}
    for path in dart_files(base):
        rel = path.relative_to(base)
        sid = sample_id_for(rel)
        if sid in seen:  # two paths differing only in unsafe characters: keep both, apart
            sid += "-" + hashlib.sha256(rel.as_posix().encode()).hexdigest()[:8]
        seen[sid] = rel
        data = path.read_bytes()
        if len(data) > MAX_FILE_BYTES:
            skips.append(Skip(rel.as_posix(), "*", f"too large: {len(data)} bytes > {MAX_FILE_BYTES}"))
            continue
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as err:
            skips.append(Skip(rel.as_posix(), "*", f"not UTF-8: byte {err.start}"))
            continue
        try:
            metrics = measure(source)
        except DartParseError as err:
            skips.append(Skip(rel.as_posix(), "*", f"does not parse: line {err.line}: {err.message}"))
            continue
        except RecursionError:
            skips.append(Skip(rel.as_posix(), "*", "too deeply nested to measure"))
            continue
        samples.append(
            CorpusSample(
                id=sid,
                band=gci_band(float(metrics["gci"])),
                path=path,
                source=source,
                sha256=hashlib.sha256(data).hexdigest(),
                loc=int(metrics["loc"]),
                cyclomatic=int(metrics["cyclomatic"]),
                gci=float(metrics["gci"]),
                widgets=int(metrics["widgets"]),
                widget_types=tuple(metrics["widget_types"]),
                max_depth=int(metrics["max_depth"]),
                classes=int(metrics["classes"]),
                features=tuple(metrics["features"]),
            )
        )
    return samples, skips


def select_corpus(corpus: str | Path | None, bands: list[str] | None) -> tuple[list[CorpusSample], list[Skip]]:
    """The built-in corpus (``data/dart/``) when ``corpus`` is None, else the user's directory; filtered by band."""
    from coonbench.datasets.corpus import BANDS, load_corpus

    if corpus is None or str(corpus) == "":
        choose("bands", bands, BANDS, "band")
        return (load_corpus(bands=bands) if bands else load_corpus()), []
    samples, skips = load_dart_dir(corpus)
    if bands:
        choose("bands", bands, USER_BANDS, "band of a user corpus (-T corpus=)")
        samples = [s for s in samples if s.band in bands]
    return samples, skips
