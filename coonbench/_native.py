"""The COON codec's compiled build: which modules mypyc compiles, and whether the compiled ones may be used.

The codec's rules are plain Python; ``setup.py`` compiles the modules below with mypyc (the same source, so there is
one piece of code per idea) and writes a stamp: the SHA-256 of those sources at build time. A compiled module that
does not match its source (an editable checkout edited or updated after ``pip install -e .``) would silently run
the old rules, so ``activate`` — run when ``coonbench`` is imported — decides (and warns) that every one of them
is loaded from its ``.py`` instead. ``COONBENCH_PURE_PYTHON=1`` asks for the Python source on purpose (the tests
compare the two builds). Standard library only: ``setup.py`` reads this file before anything is installed.

No import hook: a finder on ``sys.meta_path`` would change how every later import of the process is resolved,
for whoever imported coonbench (Inspect imports every package's registry). Instead each package that holds
compiled modules (``coonbench.dart``, ``coonbench.formats.coon``) calls ``use_source`` first thing, which puts
each of its compiled modules into ``sys.modules`` as a module that runs its ``.py`` on first use (``_Source``):
the import system finds it there and never looks for the extension. Nothing else in the process changes.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any, Final

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


class _Source(ModuleType):
    """A compiled module's entry in ``sys.modules`` while its Python source has not run: the first attribute asked
    of it runs the source (as a plain module from then on, so an import cycle behaves as it does for any
    module)."""

    def __getattr__(self, attr: str) -> Any:
        if attr == "__path__" or type(self) is not _Source:  # a package probe; or loaded, and truly absent
            raise AttributeError(f"module {self.__name__!r} has no attribute {attr!r}")
        self.__class__ = ModuleType  # type: ignore[assignment]  # back to a plain module: loaded
        spec = self.__spec__
        assert spec is not None and spec.loader is not None
        try:
            spec.loader.exec_module(self)
        except BaseException:
            sys.modules.pop(spec.name, None)  # as a failed import leaves it: the next import tries again
            raise
        return getattr(self, attr)


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


def use_source(package: str) -> None:
    """Called by ``package`` (its ``__init__``, before it imports anything) when ``activate`` chose the Python
    source: each of its compiled modules goes into ``sys.modules`` and onto the package as a ``_Source``, so an
    import finds the source's module and never loads the extension beside it."""
    if STATUS["build"] == "compiled":
        return
    parent = sys.modules[package]
    for name in NATIVE_MODULES:
        where, _, child = name.rpartition(".")
        if where != package or name in sys.modules or not _compiled(name):
            continue
        spec = importlib.util.spec_from_file_location(name, source_path(name))
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        module.__class__ = _Source
        sys.modules[name] = module
        setattr(parent, child, module)
