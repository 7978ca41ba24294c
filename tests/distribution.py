"""``scripts/build_dist.py`` loaded as a module for the packaging tests: its checkout copy and its build steps are
the ones the tests prove, not a second version of them."""

from __future__ import annotations

import functools
import importlib.util
from types import ModuleType

from coonbench.resources import REPO_ROOT


@functools.cache
def build_dist() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_dist", REPO_ROOT / "scripts" / "build_dist.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
