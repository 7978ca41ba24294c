"""Where coonbench's files are: its data, which ships inside the package (found through ``importlib.resources``,
so an installed wheel and a checkout read it the same way), and in a checkout the repository and the reference
data placed beside it.

Why a package of its own: every loader asks it, and it imports nothing else of coonbench.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
"""The installed ``coonbench`` package (in a checkout, the repository's ``coonbench/``)."""


def _checkout_root() -> Path | None:
    """The repository root when coonbench runs from a checkout (editable install or ``PYTHONPATH``), else None."""
    root = PACKAGE_DIR.parent
    return root if (root / "pyproject.toml").is_file() and (root / "evals").is_dir() else None


CHECKOUT = _checkout_root()
REPO_ROOT = CHECKOUT or Path.cwd()
"""The checkout's root; for an installed package, the directory it was started in (where a user's relative paths
and a ``shared/`` folder beside it are looked for)."""
# In a checkout coonbench/data is a link to the repository's data/; the wheel holds the files themselves.
DATA_DIR = Path(os.environ.get("COONBENCH_DATA") or str(files("coonbench").joinpath("data")))
SHARED_DIR = Path(os.environ.get("COONBENCH_SHARED", REPO_ROOT.parent / "shared"))


def shipped_path(path: str | Path) -> Path:
    """``path`` as given when it names something; else, for a relative path the docs write from a checkout's root
    (``docs/prices-example.yaml``, ``data/dart/simple``), the copy the installed package carries (the wheel ships
    ``docs/`` and ``data/`` under ``coonbench/``); else ``path`` unchanged, for the caller's own error."""
    given = Path(path)
    if given.exists() or given.is_absolute():
        return given
    inside = PACKAGE_DIR / given
    return inside if given.parts and given.parts[0] in ("docs", "data") and inside.exists() else given


def absent_reason(path: str | Path) -> str:
    """Why a path a user gave names nothing, in a few words; for a path into the reference data (``../shared``),
    that the reference data is not beside this checkout, and where the README says how to lay it there."""
    if "shared/reference" in Path(path).as_posix() and not (SHARED_DIR / "reference").is_dir():
        return "no such file or directory: the reference data (../shared/reference) is not beside this checkout; " \
            "README.md, 'Reference data', says what it is and where it goes"
    return "no such file or directory"
