"""Where the repository's data lives (the package is used from a checkout or an editable install)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("COONBENCH_DATA", REPO_ROOT / "data"))
SHARED_DIR = Path(os.environ.get("COONBENCH_SHARED", REPO_ROOT.parent / "shared"))


def absent_reason(path: str | Path) -> str:
    """Why a path a user gave names nothing, in a few words; for a path into the reference data (``../shared``),
    that the reference data is not beside this checkout, and where the README says how to lay it there."""
    if "shared/reference" in Path(path).as_posix() and not (SHARED_DIR / "reference").is_dir():
        return "no such file or directory: the reference data (../shared/reference) is not beside this checkout; " \
            "README.md, 'Reference data', says what it is and where it goes"
    return "no such file or directory"
