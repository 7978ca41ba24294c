"""Build: the COON codec's modules compiled with mypyc (``coonbench/_native.py`` lists them and explains the stamp).

Everything else is in ``pyproject.toml``. ``COONBENCH_PURE_PYTHON=1`` at install time skips the compilation; a
compilation that fails leaves the pure-Python codec in place (same results, about 1.7× slower) and says so.
"""

from __future__ import annotations

import contextlib
import io
import os
import runpy
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.egg_info import egg_info

HERE = Path(__file__).resolve().parent
native = runpy.run_path(str(HERE / "coonbench" / "_native.py"))  # standard library only: nothing is installed yet


def _say(message: str) -> None:
    print(f"\n*** coonbench: {message}\n", file=sys.stderr, flush=True)


class _BuildExt(build_ext):
    """Compiles the codec; where the C compiler fails, the pure-Python codec stays (no stamp, no extension)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:  # noqa: BLE001 - any compiler failure: the Python source still works
            _say(f"compiling the COON codec failed ({err}); it runs as pure Python")
            _remove_compiled()
            return
        # beside the compiled modules: in the source tree (editable install) or in the wheel's build directory
        stamp = Path(self.get_ext_fullpath("coonbench._native")).with_name(native["STAMP"])
        stamp.write_text(native["source_digest"]() + "\n", encoding="utf-8")

    def copy_file(self, infile: Any, outfile: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """A running process (a test reinstalling the checkout it runs from) may have the old extension mapped:
        write a new file instead of truncating that one under it."""
        if str(outfile).endswith(tuple(EXTENSION_SUFFIXES)) and os.path.exists(outfile):
            os.unlink(outfile)
        return super().copy_file(infile, outfile, *args, **kwargs)


class _EggInfo(egg_info):
    """Metadata written by an editable install goes under build/, not beside pyproject.toml: a ``coonbench.egg-info``
    in the checkout's root is found first by ``importlib.metadata`` whenever the root is on ``sys.path``
    (``python -m …`` run there), and, having no ``direct_url.json``, it hides the editable install from Inspect,
    which then registers our tasks and solvers without their ``coonbench/`` prefix."""

    def finalize_options(self) -> None:
        if self.egg_base is None or Path(self.egg_base).resolve() == HERE:
            (HERE / "build").mkdir(exist_ok=True)
            self.egg_base = str(HERE / "build")
        super().finalize_options()


def _remove_compiled() -> None:
    """An earlier build's extension modules and stamp in the source tree (an editable install), so that a pure
    install is pure."""
    for module in native["NATIVE_MODULES"]:
        for suffix in EXTENSION_SUFFIXES:
            native["source_path"](module).with_suffix(suffix).unlink(missing_ok=True)
    for suffix in EXTENSION_SUFFIXES:
        (HERE / f"{native['GROUP']}__mypyc{suffix}").unlink(missing_ok=True)
    (HERE / "coonbench" / native["STAMP"]).unlink(missing_ok=True)


def _extensions() -> list:  # type: ignore[type-arg]
    if os.environ.get(native["PURE_ENV"], "") not in ("", "0"):
        _say(f"{native['PURE_ENV']} is set: the COON codec is not compiled")
        _remove_compiled()
        return []
    printed = io.StringIO()  # mypy prints its type errors, then exits
    try:
        from mypyc.build import mypycify

        os.chdir(HERE)
        paths = [str(native["source_path"](m).relative_to(HERE)) for m in native["NATIVE_MODULES"]]
        with contextlib.redirect_stdout(printed):
            return mypycify(paths, opt_level="3", group_name=native["GROUP"])
    except (Exception, SystemExit) as err:  # noqa: BLE001 - mypy's type errors exit; the Python source still works
        errors = printed.getvalue().strip()[-2000:]
        _say(f"mypyc could not compile the COON codec ({err!r}); it runs as pure Python\n{errors}")
        _remove_compiled()  # an earlier build must not outlive this one (its group module is no longer installed)
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": _BuildExt, "egg_info": _EggInfo})
