"""A cgroup per sample, where this machine lets us make one: the memory and process budget across all of a
sample's processes (the jail joins it before it unshares anything; children inherit it).

Tried in order: cgroup v2 (a child of our own cgroup or of its parent whose ``cgroup.subtree_control`` already
delegates ``memory`` and ``pids`` and whose ``cgroup.procs`` we may write — e.g. systemd's per-user delegation),
then cgroup v1 (children of our own cgroup in the ``memory`` and ``pids`` hierarchies, where writable — root).
Where neither works the jail's PID 1 watches the namespace's resident memory instead (see ``jail.py``).
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field

PREFIX = "coonbench-"


@dataclass
class SampleCgroup:
    """The directories of one sample's cgroup (one for v2; memory and pids for v1)."""

    version: int
    dirs: list[str] = field(default_factory=list)

    @property
    def procs(self) -> list[str]:
        """The ``cgroup.procs`` files the jail writes its pid to."""
        return [os.path.join(d, "cgroup.procs") for d in self.dirs]

    def peak_bytes(self) -> int | None:
        """Highest memory use seen (v1 ``memory.max_usage_in_bytes``, v2 ``memory.peak``), when the kernel says."""
        name = "memory.max_usage_in_bytes" if self.version == 1 else "memory.peak"
        try:
            with open(os.path.join(self.dirs[0], name), encoding="ascii") as fh:
                return int(fh.read().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def remove(self) -> None:
        """Remove the directories (their processes are dead by now)."""
        for d in self.dirs:
            try:
                os.rmdir(d)
            except OSError:
                pass


def _mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, fs type, super options) of each cgroup mount, from ``/proc/self/mountinfo``."""
    found = []
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                left, _, right = line.partition(" - ")
                fstype, _src, *opts = right.split() + [""]
                if fstype in ("cgroup", "cgroup2"):
                    found.append((left.split()[4], fstype, set(",".join(opts).split(","))))
    except OSError:
        pass
    return found


def _own_paths() -> dict[str, str]:
    """Our cgroup path per hierarchy: ``""`` for v2, each controller name for v1."""
    paths: dict[str, str] = {}
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as fh:
            for line in fh:
                _, controllers, path = line.rstrip("\n").split(":", 2)
                for name in controllers.split(",") if controllers else [""]:
                    paths[name] = path
    except (OSError, ValueError):
        pass
    return paths


def _write(path: str, value: str) -> None:
    with open(path, "w", encoding="ascii") as fh:
        fh.write(value)


def _v2_parent() -> str | None:
    own = _own_paths().get("")
    mount = next((m for m, kind, _ in _mounts() if kind == "cgroup2"), None)
    if own is None or mount is None:
        return None
    for rel in (own, os.path.dirname(own)):
        parent = os.path.join(mount, rel.lstrip("/"))
        try:
            with open(os.path.join(parent, "cgroup.subtree_control"), encoding="ascii") as fh:
                delegated = set(fh.read().split())
        except OSError:
            continue
        if {"memory", "pids"} <= delegated and os.access(os.path.join(parent, "cgroup.procs"), os.W_OK) \
                and os.access(parent, os.W_OK):
            return parent
    return None


def _v1_parents() -> list[str] | None:
    own = _own_paths()
    parents = []
    for controller in ("memory", "pids"):
        mount = next((m for m, kind, opts in _mounts() if kind == "cgroup" and controller in opts), None)
        if mount is None or controller not in own:
            return None
        parent = os.path.join(mount, own[controller].lstrip("/"))
        if not os.access(parent, os.W_OK):
            return None
        parents.append(parent)
    return parents


def create(memory_mb: int, max_processes: int) -> SampleCgroup | None:
    """A fresh cgroup limited to ``memory_mb`` (no swap) and ``max_processes`` tasks, or None where this
    machine gives us none."""
    name = PREFIX + secrets.token_hex(6)
    limit = str(memory_mb * 1024 * 1024)
    parent = _v2_parent()
    group: SampleCgroup | None = None
    try:
        if parent is not None:
            group = SampleCgroup(2, [os.path.join(parent, name)])
            os.mkdir(group.dirs[0])
            _write(os.path.join(group.dirs[0], "memory.max"), limit)
            if os.path.exists(os.path.join(group.dirs[0], "memory.swap.max")):
                _write(os.path.join(group.dirs[0], "memory.swap.max"), "0")
            _write(os.path.join(group.dirs[0], "pids.max"), str(max_processes))
            return group
        parents = _v1_parents()
        if parents is None:
            return None
        group = SampleCgroup(1, [])
        for p in parents:
            group.dirs.append(os.path.join(p, name))
            os.mkdir(group.dirs[-1])
        _write(os.path.join(group.dirs[0], "memory.limit_in_bytes"), limit)
        memsw = os.path.join(group.dirs[0], "memory.memsw.limit_in_bytes")
        if os.path.exists(memsw):
            _write(memsw, limit)
        _write(os.path.join(group.dirs[1], "pids.max"), str(max_processes))
        return group
    except OSError:
        if group is not None:
            group.remove()
        return None
