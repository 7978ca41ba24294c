"""The COON codec's compiled build: which modules mypyc compiles, and whether the compiled ones may be used.

The codec's rules are plain Python; ``setup.py`` compiles the modules below with mypyc (the same source, so there is
one piece of code per idea) and writes a stamp: the SHA-256 of those sources at build time. A compiled module that
does not match its source (an editable checkout edited or updated after ``pip install -e .``) would silently run
the old rules, so ``activate`` — run when ``coonbench`` is imported — then loads every one of them from its
``.py`` instead and warns. ``COONBENCH_PURE_PYTHON=1`` asks for the Python source on purpose (the tests compare the
two builds). Standard library only: ``setup.py`` reads this file before anything is installed.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Final, Sequence

NATIVE_MODULES: Final = (
    "coonbench.dart.scan",
    "coonbench.dart.strings",
    "coonbench.dart.minify",
    "coonbench.dart.equivalence",
    "coonbench.formats.coon.tables",
    "coonbench.formats.coon.lexer",
    "coonbench.formats.coon.words",
    "coonbench.formats.coon.decoder",
    "coonbench.formats.coon.layout",
    "coonbench.formats.coon.encoder",
)
"""Compiled together (one mypyc group: calls between them are direct C calls)."""

GROUP: Final = "coonbench_native"
PURE_ENV: Final = "COONBENCH_PURE_PYTHON"
STAMP: Final = "_native_stamp.txt"
"""Beside this file: the digest of the sources the compiled modules were built from."""

_ROOT: Final = Path(__file__).resolve().parent.parent


def source_path(module: str) -> Path:
    return _ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_digest() -> str:
    """SHA-256 over the compiled modules' sources, in order (what the stamp records)."""
    digest = hashlib.sha256()
    for module in NATIVE_MODULES:
        digest.update(module.encode() + b"\0" + source_path(module).read_bytes() + b"\0")
    return digest.hexdigest()


def _compiled(module: str) -> bool:
    """Whether an extension module sits beside the module's source (Python would load it before the ``.py``)."""
    path = source_path(module)
    return any(path.with_suffix(suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' ``.py`` sources ahead of their extension modules."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in NATIVE_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


STATUS: dict[str, str] = {"build": "python", "why": "not compiled (no extension modules beside the sources)"}
"""What ``activate`` decided: ``build`` is ``compiled`` or ``python``, ``why`` says why (the speed benchmark
prints it)."""


def activate() -> dict[str, str]:
    """Decide, before any codec module is imported, whether the compiled modules are used (see the module doc)."""
    present = [m for m in NATIVE_MODULES if _compiled(m)]
    if not present:
        return STATUS
    stamp = source_path("coonbench._native").with_name(STAMP)
    built = stamp.read_text(encoding="utf-8").strip() if stamp.exists() else ""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        STATUS.update(build="python", why=f"{PURE_ENV} is set")
    elif importlib.util.find_spec(f"{GROUP}__mypyc") is None:  # the shared part of the build: without it none loads
        STATUS.update(build="python", why="the compiled codec is incomplete: run `pip install -e .` again")
        warnings.warn(f"coonbench: {STATUS['why']} (using the Python source meanwhile)", stacklevel=2)
    elif len(present) != len(NATIVE_MODULES) or built != source_digest():
        STATUS.update(build="python", why="the compiled codec is older than its source: run `pip install -e .` again")
        warnings.warn(f"coonbench: {STATUS['why']} (using the Python source meanwhile)", stacklevel=2)
    else:
        STATUS.update(build="compiled", why="mypyc build of the current source")
        return STATUS
    if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())
    return STATUS
