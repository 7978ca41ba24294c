"""A language's corpus manifest (``data/dart/manifest.json``): its files, writing it, and a loader that checks
integrity.

Where a language's built-in corpus lies and how it is banded is the language's (``Language.corpus``): Dart's holds
100 original Flutter samples in the five bands of the COON comprehension design, ``simple`` (20), ``composed`` (30),
``stateful`` (20), ``complex`` (15) and ``edge`` (15). Each file is ``<band>/NNN_name<extension>`` and its id is
``<band>-NNN``. The manifest holds each file's sha256 and metrics (``Language.measure``), written deterministically
(sorted keys, corpus order, trailing newline); a test checks that the committed one is current. ``corpus_files`` is
the one place that lists a corpus folder. Every function takes the language (default: the default code language,
Dart) and, for tests, another root folder.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coonbench.languages import Corpus, Language, default_language

MANIFEST_NAME = "manifest.json"
MANIFEST_VERSION = 1
MANIFEST_COMMAND = "python -m coonbench.datasets.corpus --write-manifest"

_METRIC_KEYS = ("loc", "cyclomatic", "gci")  # every language measures these (``Language.measure``)
_ENTRY_KEYS = ("id", "band", "path", "sha256", *_METRIC_KEYS)


class CorpusError(ValueError):
    """The corpus or its manifest is missing, malformed or out of date."""


@dataclass(frozen=True)
class CorpusSample:
    """One corpus file with its manifest metrics (those a language does not measure stay at their defaults:
    Dart's widget metrics for a language without widgets)."""

    id: str
    band: str
    path: Path
    source: str
    sha256: str
    loc: int
    cyclomatic: int
    gci: float
    widgets: int = 0
    widget_types: tuple[str, ...] = ()
    max_depth: int = 0
    classes: int = 0
    features: tuple[str, ...] = ()


def corpus_of(language: Language | None = None) -> Corpus:
    """The language's built-in corpus; CorpusError when it ships none (``-T corpus=DIR`` then)."""
    language = language or default_language()
    spec = language.corpus()
    if spec is None:
        raise CorpusError(f"the language '{language.name}' ships no corpus: give -T corpus=DIR")
    return spec


def corpus_files(root: Path | None = None, *, language: Language | None = None) -> list[tuple[str, str, Path]]:
    """(id, band, path) of every sample file, in band order then by number."""
    language = language or default_language()
    spec = corpus_of(language)
    root = spec.root if root is None else root
    extension = language.extensions[0]
    file_name = re.compile(r"^(\d{3})_[a-z0-9_]+" + re.escape(extension) + "$")
    out: list[tuple[str, str, Path]] = []
    for band in spec.bands:
        folder = root / band
        if not folder.is_dir():
            raise CorpusError(f"{folder}: band folder missing")
        for path in sorted(folder.glob(f"*{extension}")):
            match = file_name.match(path.name)
            if match is None:
                raise CorpusError(f"{path}: file name must look like NNN_short_name{extension}")
            out.append((f"{band}-{match.group(1)}", band, path))
    return out


def build_manifest(root: Path | None = None, *, language: Language | None = None) -> str:
    """The manifest text for the files under ``root`` (what ``--write-manifest`` writes)."""
    language = language or default_language()
    root = corpus_of(language).root if root is None else root
    entries: list[dict[str, Any]] = []
    for sample_id, band, path in corpus_files(root, language=language):
        data = path.read_bytes()
        try:
            metrics = language.measure(data.decode("utf-8"))
        except ValueError as err:  # LanguageSyntaxError, UnicodeDecodeError
            raise CorpusError(f"{path}: {err}") from err
        entries.append(
            {
                "id": sample_id,
                "band": band,
                "path": path.relative_to(root).as_posix(),
                "sha256": hashlib.sha256(data).hexdigest(),
                **metrics,
            }
        )
    manifest = {"version": MANIFEST_VERSION, "command": MANIFEST_COMMAND, "samples": entries}
    return json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_manifest(root: Path | None = None, *, language: Language | None = None) -> Path:
    """Regenerate ``root/manifest.json``."""
    language = language or default_language()
    root = corpus_of(language).root if root is None else root
    target = root / MANIFEST_NAME
    target.write_text(build_manifest(root, language=language), encoding="utf-8", newline="\n")
    return target


def _read_manifest(root: Path, bands: Sequence[str]) -> list[dict[str, Any]]:
    target = root / MANIFEST_NAME
    if not target.is_file():
        raise CorpusError(f"{target}: manifest missing; run `{MANIFEST_COMMAND}`")
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise CorpusError(f"{target}: line {err.lineno}: invalid JSON ({err.msg})") from err
    if not isinstance(data, dict) or data.get("version") != MANIFEST_VERSION or not isinstance(
        data.get("samples"), list
    ):
        raise CorpusError(f"{target}: expected {{'version': {MANIFEST_VERSION}, 'samples': [...]}}")
    for n, entry in enumerate(data["samples"]):
        if not isinstance(entry, dict):
            raise CorpusError(f"{target}: samples[{n}]: not an object")
        for key in _ENTRY_KEYS:
            if key not in entry:
                raise CorpusError(f"{target}: samples[{n}] ({entry.get('id', '?')}): field '{key}' missing")
        if entry["band"] not in bands:
            raise CorpusError(f"{target}: samples[{n}] ({entry['id']}): field 'band' unknown: {entry['band']!r}")
    return data["samples"]


def load_corpus(
    bands: Sequence[str] | None = None, *, root: Path | None = None, language: Language | None = None
) -> list[CorpusSample]:
    """The corpus samples of ``bands`` (all by default) in manifest order, each file checked against its sha256."""
    spec = corpus_of(language)
    root = spec.root if root is None else root
    wanted = tuple(spec.bands if bands is None else bands)
    unknown = [b for b in wanted if b not in spec.bands]
    if unknown:
        raise ValueError(f"unknown band(s) {unknown}; choose from {list(spec.bands)}")
    samples: list[CorpusSample] = []
    for entry in _read_manifest(root, spec.bands):
        if entry["band"] not in wanted:
            continue
        path = root / entry["path"]
        if not path.is_file():
            raise CorpusError(f"{path}: listed in the manifest as {entry['id']} but missing")
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest != entry["sha256"]:
            raise CorpusError(
                f"{path}: sha256 {digest[:12]}… does not match the manifest ({entry['sha256'][:12]}…); "
                f"if the change is intended, rerun `{MANIFEST_COMMAND}`"
            )
        samples.append(corpus_sample(entry["id"], entry["band"], path, data.decode("utf-8"), digest, entry))
    return samples


def corpus_sample(
    sample_id: str, band: str, path: Path, source: str, sha256: str, metrics: dict[str, Any]
) -> CorpusSample:
    """A corpus file from its metrics (a manifest entry or ``Language.measure``'s); the language's own metrics
    that ``CorpusSample`` has fields for are kept, others left out."""
    extra: dict[str, Any] = {}
    for key in ("widgets", "max_depth", "classes"):
        if key in metrics:
            extra[key] = int(metrics[key])
    for key in ("widget_types", "features"):
        if key in metrics:
            extra[key] = tuple(metrics[key])
    return CorpusSample(
        id=sample_id, band=band, path=path, source=source, sha256=sha256, loc=int(metrics["loc"]),
        cyclomatic=int(metrics["cyclomatic"]), gci=float(metrics["gci"]), **extra,
    )


def band_summary(samples: Sequence[CorpusSample]) -> dict[str, dict[str, float]]:
    """Count and mean metrics per band, in the order the bands first appear (for reports)."""
    out: dict[str, dict[str, float]] = {}
    for band in dict.fromkeys(s.band for s in samples):
        group = [s for s in samples if s.band == band]
        if not group:
            continue
        n = len(group)
        out[band] = {
            "samples": n,
            "loc": round(sum(s.loc for s in group) / n, 1),
            "cyclomatic": round(sum(s.cyclomatic for s in group) / n, 2),
            "gci": round(sum(s.gci for s in group) / n, 4),
            "widgets": round(sum(s.widgets for s in group) / n, 2),
            "max_depth": round(sum(s.max_depth for s in group) / n, 2),
            "classes": round(sum(s.classes for s in group) / n, 2),
        }
    return out
