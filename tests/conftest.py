"""Shared test fixtures: the reference data folder (skipped with a reason when absent) and offline tokens; and the
order pytest-xdist's workers take the modules in (``-n 2 --dist loadfile``, pyproject.toml: a module runs whole on
one worker, so its module-scoped fixtures are built once and the documented commands keep their page order)."""

from __future__ import annotations

import os
from collections.abc import Iterator
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


@pytest.fixture(scope="session", autouse=True)
def _inspect_logs_aside(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """In-process Inspect runs that name no log folder write under the session's temporary folder, not into the
    checkout's ``logs/``: a documented command checked in another worker at the same moment must find the checkout
    as it was. A user's own ``INSPECT_LOG_DIR`` is kept; commands run as a user would (documented commands, a fresh
    install) drop it from their environment."""
    if "INSPECT_LOG_DIR" in os.environ:
        yield
        return
    os.environ["INSPECT_LOG_DIR"] = str(tmp_path_factory.mktemp("inspect-logs"))
    try:
        yield
    finally:
        os.environ.pop("INSPECT_LOG_DIR", None)


def pytest_configure(config: pytest.Config) -> None:
    """An xdist worker runs on its share of the cores (worker k of n: every n-th core from the k-th), and so does
    everything it starts: two workers never run more threads than cores (llama.cpp's threads spin while they wait,
    and its default is the cores a process may use, ``coonbench.providers.gguf.usable_cores``)."""
    worker, count = os.environ.get("PYTEST_XDIST_WORKER", ""), int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if not worker.startswith("gw") or count < 2 or not hasattr(os, "sched_setaffinity"):
        return
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) >= count:
        os.sched_setaffinity(0, cores[int(worker[2:]) % count::count])


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The modules that hold slow tests first (a stable sort: the order within a module, and so the documented
    commands' page order, is kept), so that xdist's ``loadfile`` does not start a long module last."""
    module = {id(item): item.nodeid.split("::", 1)[0] for item in items}
    slow = {module[id(item)] for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: module[id(item)] not in slow)
