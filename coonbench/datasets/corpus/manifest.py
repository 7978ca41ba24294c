"""The corpus manifest (``data/dart/manifest.json``): its files, writing it, and a loader that checks integrity.

The corpus holds 100 original Flutter samples in the five bands of the COON comprehension design: ``simple`` (20),
``composed`` (30), ``stateful`` (20), ``complex`` (15) and ``edge`` (15). Each file is ``<band>/NNN_name.dart`` and
its id is ``<band>-NNN``. The manifest holds each file's sha256 and metrics (``corpus.metrics``), written
deterministically (sorted keys, corpus order, trailing newline); a test checks that the committed one is current.
``corpus_files`` is the one place that lists ``data/dart/``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coonbench.datasets.corpus.metrics import measure
from coonbench.resources import DATA_DIR

CORPUS_DIR = DATA_DIR / "dart"
MANIFEST_NAME = "manifest.json"
MANIFEST_VERSION = 1
MANIFEST_COMMAND = "python -m coonbench.datasets.corpus --write-manifest"

BANDS: tuple[str, ...] = ("simple", "composed", "stateful", "complex", "edge")
BAND_SIZES: dict[str, int] = {"simple": 20, "composed": 30, "stateful": 20, "complex": 15, "edge": 15}
_METRIC_KEYS = ("loc", "cyclomatic", "gci", "widgets", "widget_types", "max_depth", "classes", "features")
_ENTRY_KEYS = ("id", "band", "path", "sha256", *_METRIC_KEYS)


class CorpusError(ValueError):
    """The corpus or its manifest is missing, malformed or out of date."""


@dataclass(frozen=True)
class CorpusSample:
    """One corpus file with its manifest metrics."""

    id: str
    band: str
    path: Path
    source: str
    sha256: str
    loc: int
    cyclomatic: int
    gci: float
    widgets: int
    widget_types: tuple[str, ...]
    max_depth: int
    classes: int
    features: tuple[str, ...]


_FILE_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.dart$")


def corpus_files(root: Path = CORPUS_DIR) -> list[tuple[str, str, Path]]:
    """(id, band, path) of every sample file, in band order then by number."""
    out: list[tuple[str, str, Path]] = []
    for band in BANDS:
        folder = root / band
        if not folder.is_dir():
            raise CorpusError(f"{folder}: band folder missing")
        for path in sorted(folder.glob("*.dart")):
            match = _FILE_NAME.match(path.name)
            if match is None:
                raise CorpusError(f"{path}: file name must look like NNN_short_name.dart")
            out.append((f"{band}-{match.group(1)}", band, path))
    return out


def build_manifest(root: Path = CORPUS_DIR) -> str:
    """The manifest text for the files under ``root`` (what ``--write-manifest`` writes)."""
    entries: list[dict[str, Any]] = []
    for sample_id, band, path in corpus_files(root):
        data = path.read_bytes()
        try:
            metrics = measure(data.decode("utf-8"))
        except ValueError as err:  # DartParseError, UnicodeDecodeError
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


def write_manifest(root: Path = CORPUS_DIR) -> Path:
    """Regenerate ``root/manifest.json``."""
    target = root / MANIFEST_NAME
    target.write_text(build_manifest(root), encoding="utf-8", newline="\n")
    return target


def _read_manifest(root: Path) -> list[dict[str, Any]]:
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
        if entry["band"] not in BANDS:
            raise CorpusError(f"{target}: samples[{n}] ({entry['id']}): field 'band' unknown: {entry['band']!r}")
    return data["samples"]


def load_corpus(bands: Sequence[str] | None = None, *, root: Path = CORPUS_DIR) -> list[CorpusSample]:
    """The corpus samples of ``bands`` (all by default) in manifest order, each file checked against its sha256."""
    wanted = tuple(BANDS if bands is None else bands)
    unknown = [b for b in wanted if b not in BANDS]
    if unknown:
        raise ValueError(f"unknown band(s) {unknown}; choose from {list(BANDS)}")
    samples: list[CorpusSample] = []
    for entry in _read_manifest(root):
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
        samples.append(
            CorpusSample(
                id=entry["id"],
                band=entry["band"],
                path=path,
                source=data.decode("utf-8"),
                sha256=digest,
                loc=int(entry["loc"]),
                cyclomatic=int(entry["cyclomatic"]),
                gci=float(entry["gci"]),
                widgets=int(entry["widgets"]),
                widget_types=tuple(entry["widget_types"]),
                max_depth=int(entry["max_depth"]),
                classes=int(entry["classes"]),
                features=tuple(entry["features"]),
            )
        )
    return samples


def band_summary(samples: Sequence[CorpusSample]) -> dict[str, dict[str, float]]:
    """Count and mean metrics per band (for reports)."""
    out: dict[str, dict[str, float]] = {}
    for band in BANDS:
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
