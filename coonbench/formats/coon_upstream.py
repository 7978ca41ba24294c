"""``coon-upstream``: the published COON compressor (PyPI ``coon``, MIT), so its dialect can sit beside ours.

Optional: ``pip install 'coonbench[upstream]'``. The format is always registered (so ``-T formats=coon-upstream``
is a known name); without the package every source is refused with the install hint, which the code tasks record
as the skip reason for each file.

What the package does, measured on these machines (``docs/plugins.md``, ``/work/shared/notes/findings.md``):

- it is **lossy** (``lossless = False``): compression edits string literals (``'Hello, Flutter!'`` →
  ``'Hello,Flutter!'``), drops ``return`` and turns ``()`` into ``{}``; so coonbench uses it only where a model
  reads it (comprehension), never where an answer in it must be decoded (generation, modification refuse it);
- its ``decompress_coon`` corrupts identifiers (``Welcome`` → ``Widgetelcome``): ``decode`` is offered so that the
  comprehension task can say per sample (``coonbench.tasks.conditions.lossy_roundtrip``) whether the published round trip survives (it nearly never does);
- it reads its abbreviation tables from a ``spec/`` folder of the COON repository, which the wheel does not ship.
  It is looked up in ``$COONBENCH_COON_SPEC`` (the ``spec`` folder itself), else ``../shared/reference/coon/spec``;
  without it every source is refused, saying so.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Literal

from coonbench.formats.base import Format, FormatError, register
from coonbench.resources import SHARED_DIR

NAME = "coon-upstream"
SPEC_ENV = "COONBENCH_COON_SPEC"
INSTALL_HINT = "pip install 'coonbench[upstream]'"
_LOCK = threading.Lock()  # the package keeps module-level caches; one call at a time


def spec_dir() -> Path | None:
    """The upstream ``spec`` folder holding its tables (``languages/dart`` or ``data``), or None."""
    for candidate in (os.environ.get(SPEC_ENV), SHARED_DIR / "reference" / "coon" / "spec"):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


def unavailable() -> str | None:
    """Why the upstream compressor cannot run here (package missing, or its spec tables not found), or None."""
    try:
        import coon  # noqa: F401
        import coon.data
    except ImportError as err:
        return f"the optional package 'coon' is not installed ({err.name}); {INSTALL_HINT}"
    spec = spec_dir()
    if spec is None:
        return (
            f"the 'coon' package needs the COON repository's spec/ tables, which its wheel does not ship: set "
            f"{SPEC_ENV} to a spec/ folder (or place the reference data at {SHARED_DIR / 'reference' / 'coon'})"
        )
    tables = spec / "languages" / "dart" if (spec / "languages" / "dart").is_dir() else spec / "data"
    if not (tables / "widgets.json").is_file():
        return f"{tables}: widgets.json missing (not a COON spec/ folder)"
    # The package finds spec/ by walking up from its install folder or the cwd; point its cache at ours instead.
    coon.data._spec_path_cache["lang_dart"] = tables
    return None


class UpstreamCoon(Format):
    """The published COON compressor, as is (lossy).

    ``validate`` is ``Format``'s: the upstream package has no validator, so a text is valid when its decompressor
    accepts it.
    """

    name = NAME
    description = "COON as published (PyPI coon 0.1.1 compressor; lossy, optional extra 'upstream')"
    kind = "code"
    fence = "coon"
    language = "dart"
    lossless = False

    def encode(self, source: Any) -> str:
        if not isinstance(source, str):
            raise FormatError("Dart source must be text", expected="str")
        why = unavailable()
        if why is not None:
            raise FormatError(f"{NAME}: {why}")
        import coon

        try:
            with _LOCK:
                return str(coon.compress_dart(source))
        except Exception as err:  # noqa: BLE001 - the package's own failure on one file is a refusal, not a crash
            raise FormatError(f"{NAME}: the upstream compressor failed: {type(err).__name__}: {err}") from None

    def decode(self, text: str) -> str:
        """The upstream decompressor's output (NOT a faithful inverse: see the module docstring)."""
        why = unavailable()
        if why is not None:
            raise FormatError(f"{NAME}: {why}")
        import coon

        try:
            with _LOCK:
                return str(coon.decompress_coon(text))
        except Exception as err:  # noqa: BLE001
            raise FormatError(f"{NAME}: the upstream decompressor failed: {type(err).__name__}: {err}") from None

    def primer(self, variant: Literal["short", "full"] = "short") -> str:
        text = (
            "The code is COON, a compressed notation for Dart/Flutter: widget names and argument labels are "
            "abbreviated (S Scaffold, C Column, R Row, T Text, K Container, N Center, P Padding, a: appBar, "
            "b: body, c: child, h: children, t: title), c: starts a class, m:b is the build method, "
            "and parentheses are written as braces."
        )
        if variant == "full":
            text += " Read each abbreviation back to its Flutter name before answering."
        return text


def encode_or_none(source: str) -> str | None:
    """The upstream COON of ``source``, or None when the package is unavailable or refuses it (for token tables:
    ``benchmarks/coon_tokens.py`` adds a column when this returns text)."""
    try:
        return UpstreamCoon().encode(source)
    except FormatError:
        return None


register(UpstreamCoon())
