"""Bring your own code: any directory of source files as a corpus for the code tasks (``-T corpus=DIR``).

Every file of the task's language under the directory (its ``Language.extensions``: ``*.dart`` for Dart;
recursively, sorted by relative path; hidden folders and ``build/`` left out) becomes a ``CorpusSample`` whose id is
derived from its relative path (``user-lib.src.main``), so ids are stable for a given directory. Metrics are
measured from the syntax tree as for the built-in corpus (``Language.measure``). The corpus has no hand-made bands; a file's ``band`` (the tasks'
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
from coonbench.datasets.corpus import CorpusSample, corpus_sample
from coonbench.languages import Language, LanguageSyntaxError, default_language
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


def source_files(root: Path, extensions: tuple[str, ...]) -> list[Path]:
    """Every file under ``root`` whose name ends with one of ``extensions``, sorted by relative path, outside hidden
    and build folders."""
    out = []
    for path in root.rglob("*"):
        if not path.name.endswith(extensions):
            continue
        rel = path.relative_to(root)
        if any(p.startswith(".") or p in EXCLUDED_DIRS for p in rel.parts[:-1]) or not path.is_file():
            continue
        out.append(path)
    return sorted(out, key=lambda p: p.relative_to(root).as_posix())


def resolve_dir(root: str | Path, extension: str = ".dart") -> Path:
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
    raise TaskArgumentError(f"-T corpus={root}: not a directory (tried {tried}); give a directory of {extension} files")


def load_dir(root: str | Path, language: Language | None = None) -> tuple[list[CorpusSample], list[Skip]]:
    """The usable files of ``root`` in ``language`` (default: the default code language) as corpus samples, and a
    Skip (with its reason) for each file left out."""
    language = language or default_language()
    base = resolve_dir(root, language.extensions[0])
    samples: list[CorpusSample] = []
    skips: list[Skip] = []
    seen: dict[str, Path] = {}
    for path in source_files(base, language.extensions):
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
            metrics = language.measure(source)
        except LanguageSyntaxError as err:
            skips.append(Skip(rel.as_posix(), "*", f"does not parse: line {err.line}: {err.message}"))
            continue
        except RecursionError:
            skips.append(Skip(rel.as_posix(), "*", "too deeply nested to measure"))
            continue
        digest = hashlib.sha256(data).hexdigest()
        samples.append(corpus_sample(sid, gci_band(float(metrics["gci"])), path, source, digest, metrics))
    return samples, skips


def select_corpus(
    corpus: str | Path | None, bands: list[str] | None, language: Language | None = None
) -> tuple[list[CorpusSample], list[Skip]]:
    """The language's built-in corpus (Dart's ``data/dart/``) when ``corpus`` is None, else the user's directory;
    filtered by band."""
    from coonbench.datasets.corpus import CorpusError, corpus_of, load_corpus

    language = language or default_language()
    if corpus is None or str(corpus) == "":
        try:
            spec = corpus_of(language)
        except CorpusError as err:
            raise TaskArgumentError(str(err)) from None
        choose("bands", bands, spec.bands, "band")
        return load_corpus(bands=bands or None, language=language), []
    samples, skips = load_dir(corpus, language)
    if bands:
        choose("bands", bands, USER_BANDS, "band of a user corpus (-T corpus=)")
        samples = [s for s in samples if s.band in bands]
    return samples, skips
