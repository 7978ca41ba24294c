"""A private view of what jailed programs may read, which no run can leave a trace in (issue 56).

The page cache is shared by every process of the machine: a program that can read a file can tell, without any
refused call, which of its pages were cached (the count of major faults around a touch, or its time), so a
grading run could mark pages for a later feedback run to read. A tmpfs keeps every page of its files in memory
all the time, and a read-only mount records no access time: a view whose files all live in a tmpfs carries
nothing of what any run read. ``system_view`` builds one in ``/dev/shm`` (a content-addressed folder of this user,
made once and reused by every run and process) holding ``VIEW_PROGRAMS`` (the runners' interpreters and the few
tools a command line uses), the command's own program, the Python standard library of each Python among them and
every shared library they load (``ldd``); the jail binds its folders read-only where the host's ``/usr`` and
friends would be. None where no tmpfs can hold it: the jail then binds the host's folders, and ``capabilities()``
reports the channel open.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import tempfile
from functools import lru_cache

VIEW_PROGRAMS = ("python3", "node", "sh", "sleep", "setsid", "true", "cat", "env", "ls")
"""Programs every view holds (by name on ``SAFE_PATH``): the runners' interpreters and what a command line uses."""
SYSTEM_PREFIXES = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/lib32/", "/libx32/")
"""Where the system directories the jail shows lie; a program elsewhere (``goth``) is bound from the host."""
VIEW_PARENT = "/dev/shm"  # a tmpfs on every Linux with a C library that has POSIX shared memory
SKIPPED_DIRS = frozenset({"test", "site-packages", "dist-packages", "idlelib", "tkinter", "turtledemo"})
"""Folders of a standard library left out: the test suite, third-party packages (``-I -S`` never reads them), GUIs."""
HEADROOM = 2  # the tmpfs must have twice the view's size free
LDD_TIMEOUT_S = 30


def _chain(path: str, into: dict[str, str | None]) -> None:
    """``path`` and every symlink on the way to its file, recorded under their real folders: a file maps to None, a
    symlink to its target."""
    for _ in range(40):  # the kernel's own bound on symlink hops
        folder, name = os.path.split(path)
        here = os.path.join(os.path.realpath(folder), name)
        if os.path.islink(here):
            target = os.readlink(here)
            into[here] = target
            path = os.path.join(os.path.dirname(here), target)
            continue
        if os.path.isfile(here):
            into[here] = None
        return


def _libraries(program: str) -> list[str]:
    """The shared libraries ``program`` loads, and its loader, as ``ldd`` lists them (nothing for a static one)."""
    try:
        out = subprocess.run(["ldd", program], capture_output=True, text=True, timeout=LDD_TIMEOUT_S,
                             env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"}).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found = []
    for line in out.splitlines():
        words = line.split()
        if "=>" in words:
            at = words.index("=>") + 1
            if at < len(words) and words[at].startswith("/"):
                found.append(words[at])
        elif words and words[0].startswith("/"):
            found.append(words[0])
    return found


@lru_cache(maxsize=16)
def _stdlib(python: str) -> str | None:
    """The standard library folder of the Python interpreter ``python``, or None if it does not say (asked once
    per process: every view's name asks it, one per program a command runs)."""
    try:
        out = subprocess.run([python, "-I", "-S", "-c", "import sysconfig; print(sysconfig.get_path('stdlib'))"],
                             capture_output=True, text=True, timeout=LDD_TIMEOUT_S, env={})
    except (OSError, subprocess.SubprocessError):
        return None
    folder = out.stdout.strip()
    return folder if out.returncode == 0 and os.path.isdir(folder) else None


def view_files(programs: list[str]) -> dict[str, str | None]:
    """Every path the view holds (file: None, symlink: its target) for ``programs`` (absolute paths; one outside
    the system directories brings its libraries only)."""
    files: dict[str, str | None] = {}
    libraries: list[str] = []
    for program in programs:
        if os.path.realpath(program).startswith(SYSTEM_PREFIXES):
            _chain(program, files)
        libraries += _libraries(program)
        if os.path.basename(os.path.realpath(program)).startswith("python"):
            folder = _stdlib(program)
            for root, dirs, names in os.walk(folder or "/nonexistent"):
                dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
                for name in names:
                    path = os.path.join(root, name)
                    _chain(path, files)
                    if name.endswith(".so"):
                        libraries += _libraries(path)
    for library in dict.fromkeys(libraries):
        _chain(library, files)
    return files


def _key(programs: tuple[str, ...]) -> str:
    """What names a view without listing it: each program's path and its file's identity (a reinstalled program
    gets a new view), and for a Python the identity of its standard library's folder."""
    h = hashlib.sha256()
    for program in programs:
        real = os.path.realpath(program)
        info = os.stat(real)
        h.update(f"{program}\0{real}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
        if os.path.basename(real).startswith("python"):
            folder = _stdlib(program) or ""
            mtime = os.stat(folder).st_mtime_ns if folder else 0
            h.update(f"{folder}\0{mtime}\n".encode())
    return h.hexdigest()[:20]


def _ours(folder: str) -> bool:
    """A view folder this user made and no one else can change."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o022


def _folder(path: str) -> None:
    """``path`` and its missing parents, each readable by every uid whatever the umask (a sample's uid reads them)."""
    missing = []
    while not os.path.isdir(path):
        missing.append(path)
        path = os.path.dirname(path)
    for folder in reversed(missing):
        os.mkdir(folder)
        os.chmod(folder, 0o755)


def _build(files: dict[str, str | None], into: str) -> None:
    for path in sorted(files):
        inside = into + path
        _folder(os.path.dirname(inside))
        target = files[path]
        if target is not None:
            os.symlink(target, inside)
        else:
            shutil.copy2(path, inside)
            os.chmod(inside, os.stat(path).st_mode & 0o755)


@lru_cache(maxsize=16)
def system_view(programs: tuple[str, ...]) -> str | None:
    """The folder of the private view for ``programs`` (absolute paths), made in ``VIEW_PARENT`` if this user has
    none of it yet; None where the tmpfs is absent or too small (the host's folders are bound)."""
    if not os.path.isdir(VIEW_PARENT):
        return None
    final = os.path.join(VIEW_PARENT, f"coonbench-view-{os.geteuid()}-{_key(programs)}")
    if _ours(final):
        return final
    files = view_files(list(programs))
    size = sum(os.stat(p).st_size for p, target in files.items() if target is None)
    free = os.statvfs(VIEW_PARENT)
    if free.f_bavail * free.f_frsize < HEADROOM * size:
        return None
    staging = tempfile.mkdtemp(prefix=f"coonbench-view-{os.geteuid()}-", dir=VIEW_PARENT)
    try:
        os.chmod(staging, 0o755)
        _build(files, staging)
        os.rename(staging, final)  # atomic: a view is whole or absent
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        if not _ours(final):  # another process made it first, or the tmpfs filled up
            return None
    return final
