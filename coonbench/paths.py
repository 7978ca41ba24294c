"""Where the repository's data lives (the package is used from a checkout or an editable install)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("COONBENCH_DATA", REPO_ROOT / "data"))
SHARED_DIR = Path(os.environ.get("COONBENCH_SHARED", REPO_ROOT.parent / "shared"))
