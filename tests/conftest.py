"""Shared test fixtures: the reference data folder (skipped with a reason when absent) and offline tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

import coonbench  # noqa: F401  (installs the offline tiktoken files before any test uses tiktoken)
from coonbench.formats import FormatError, get_format
from coonbench.resources import SHARED_DIR

REFERENCE = SHARED_DIR / "reference"


@pytest.fixture(scope="module")
def goth() -> str:
    """The Goth interpreter: built from ../shared's upstream source if needed (coonbench goth-setup), else one on
    PATH (an ordinary user without cargo: .ci/run puts one there); skips, saying why, where there is none."""
    from coonbench.execution.goth_build import GothBuildError, ensure_binary, find_binary

    reference_path("goth", "upstream", "crates")
    try:
        return str(ensure_binary().binary)
    except GothBuildError as err:
        found = find_binary()
        if found is None:
            pytest.skip(f"cannot build the Goth interpreter here: {err}")
        return found


def reference_path(*parts: str) -> Path:
    """A path under ../shared/reference, or skip the test saying what is missing."""
    path = REFERENCE.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"reference data absent: {path} (needs ../shared/reference beside the checkout)")
    return path


@pytest.fixture
def reference() -> type:
    """Access to ``reference_path`` as a fixture (``reference.path('coon', 'extracted')``)."""

    class _Ref:
        path = staticmethod(reference_path)

    return _Ref


def code_formats() -> list[str]:
    """The Dart code formats a code task can run in: ``dart``, plus ``coon`` once it is registered."""
    out = ["dart"]
    try:
        get_format("coon")
        out.append("coon")
    except FormatError:
        pass
    return out
