"""Which licence a repository's file is under at a commit: the nearest licence file above it, read by code."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from coonbench.datasets.edits.git import blob_text

LICENCE_FILES: Final = ("LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "COPYING")
PERMISSIVE: Final = frozenset({"MIT", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "PSF-2.0"})


def detect_licence(text: str) -> str:
    """An SPDX name for a licence text by its distinctive sentences, else ``unknown``."""
    flat = " ".join(text.split()).lower()
    if "python software foundation license version 2" in flat:  # before the GPL: its history names the GPL
        return "PSF-2.0"
    if "gnu general public license" in flat or "gnu lesser general public license" in flat:
        return "GPL/LGPL"
    if "apache license" in flat and "version 2.0" in flat:
        return "Apache-2.0"
    if "permission is hereby granted, free of charge" in flat:
        return "MIT"
    if "redistribution and use in source and binary forms" in flat:
        return "BSD-3-Clause" if "neither the name" in flat or "the names of its" in flat else "BSD-2-Clause"
    return "unknown"


MAX_LICENCE_BYTES: Final = 256 * 1024
"""Largest licence file read (the GPL's text is 35 KB); a larger one counts as none."""


def _show(repo: Path, commit: str, path: str) -> str | None:
    return blob_text(repo, commit, path, MAX_LICENCE_BYTES)[0]


def licence_at(repo: Path, commit: str, path: str) -> tuple[str, str, str] | None:
    """(SPDX name, licence file path, its text) of the licence file nearest ``path`` at ``commit`` (its folder,
    then each folder above it to the root), or None when there is none."""
    parts = path.split("/")[:-1]
    for depth in range(len(parts), -1, -1):
        folder = "/".join(parts[:depth])
        for name in LICENCE_FILES:
            where = f"{folder}/{name}" if folder else name
            text = _show(repo, commit, where)
            if text is not None:
                return detect_licence(text), where, text
    return None
