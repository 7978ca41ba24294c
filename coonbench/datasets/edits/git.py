"""Running git on a repository nobody vouches for: its configuration is data, never instructions.

``coonbench mine-edits`` reads histories users fetch from anywhere, and a repository's own ``.git/config`` can name
programs git runs: a pager, a signature checker (``log.showSignature`` with ``gpg.program``), hooks, filter and
textconv drivers, an fsmonitor, an external diff, an upload-pack for a promisor remote. The system and global
configuration are switched off by the environment (``SAFE_ENV``), but the repository's own cannot be, so every
key that names a program is overridden on the command line (``SAFE_CONFIG``, which wins over every file), the
commands that could start one get the flags that switch it off, and blobs are read with plumbing
(``cat-file blob``: no attributes, no filters, no textconv), their size asked first (``ls-tree -l``) so a huge blob
is refused without being read. Output is read to a bound (``read_bounded``), never whole.
"""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path
from typing import IO, Final

GIT_TIMEOUT_S: Final = 600
MAX_OUTPUT_BYTES: Final = 512 * 1024 * 1024
"""Most bytes one git command may print (a ``git log`` of a history of a million commits is well below)."""

SAFE_CONFIG: Final = (
    "core.pager=cat", "pager.log=false", "pager.show=false", "core.hooksPath=/dev/null", "core.fsmonitor=false",
    "core.attributesFile=/dev/null", "core.sshCommand=false", "core.gitProxy=", "core.askPass=false",
    "credential.helper=", "log.showSignature=false", "gpg.program=false", "gpg.ssh.program=false",
    "gpg.x509.program=false", "gpg.openpgp.program=false", "diff.external=", "diff.noprefix=false",
    "log.mailmap=false", "protocol.allow=never", "uploadpack.packObjectsHook=", "core.alternateRefsCommand=",
    "fetch.recurseSubmodules=false", "submodule.recurse=false", "safe.directory=*",
)
"""``-c`` overrides of every configuration key that names a program git may start (the repository's own
``.git/config`` is read last of the files, but ``-c`` overrides it); ``protocol.allow=never`` keeps a partial
clone's missing objects from being fetched through a remote the repository names."""

SAFE_ENV: Final = {
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat",
    "PAGER": "cat", "GIT_OPTIONAL_LOCKS": "0", "GIT_NO_REPLACE_OBJECTS": "1", "LC_ALL": "C",
}
_KEPT_ENV: Final = ("PATH", "HOME", "TMPDIR", "SYSTEMROOT")
"""The only variables passed on from the user's environment (no ``GIT_DIR``, ``GIT_EXTERNAL_DIFF``, ``GIT_SSH``…)."""


class MiningError(ValueError):
    """A repository git cannot read (the message names the repository)."""


def git_env() -> dict[str, str]:
    """The environment git runs in: the user's PATH and HOME, no other variable, the configuration files off."""
    return {**{k: os.environ[k] for k in _KEPT_ENV if k in os.environ}, **SAFE_ENV}


def git_command(repo: Path, *args: str) -> list[str]:
    """``git`` with every program-naming key overridden, run on ``repo``."""
    config = [part for item in SAFE_CONFIG for part in ("-c", item)]
    return ["git", "--no-pager", *config, "-C", str(repo), *args]


def read_bounded(repo: Path, args: tuple[str, ...], limit: int = MAX_OUTPUT_BYTES) -> tuple[int, bytes, str]:
    """(exit status, stdout, stderr's first 4 KiB) of a git command; MiningError naming the repository when its
    output passes ``limit`` bytes (it is stopped: never read past the bound) or it runs past ``GIT_TIMEOUT_S``."""
    what = " ".join(args[:2])
    try:
        proc = subprocess.Popen(git_command(repo, *args), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=git_env())
    except OSError as err:
        raise MiningError(f"{repo}: git {what} failed: {err}") from None
    stopped = threading.Event()
    timer = threading.Timer(GIT_TIMEOUT_S, lambda: (stopped.set(), proc.kill()))
    timer.start()
    errors: list[bytes] = []
    drain = threading.Thread(target=_drain, args=(proc.stderr, errors), daemon=True)
    drain.start()
    try:
        out = _read_capped(proc.stdout, limit + 1)
        if len(out) > limit:
            raise MiningError(f"{repo}: git {what}: output larger than {limit:,} bytes; refused")
        status = proc.wait()
    finally:
        timer.cancel()
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        drain.join(5)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    if stopped.is_set():
        raise MiningError(f"{repo}: git {what} ran past {GIT_TIMEOUT_S} s; stopped")
    return status, out, b"".join(errors).decode("utf-8", "replace").strip()


def _read_capped(stream: IO[bytes] | None, limit: int) -> bytes:
    """At most ``limit`` bytes of a stream (the caller stops the writer when there were more)."""
    chunks: list[bytes] = []
    size = 0
    while stream is not None and size < limit:
        chunk = stream.read(min(1 << 16, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _drain(stream: IO[bytes] | None, kept: list[bytes], keep: int = 4096) -> None:
    """Read a stream to its end (so its writer never blocks), keeping its first ``keep`` bytes."""
    size = 0
    while stream is not None and (chunk := stream.read(1 << 16)):
        if size < keep:
            kept.append(chunk[: keep - size])
        size += len(chunk)


def git(repo: Path, *args: str) -> str:
    """``git -C repo ARGS`` output as text (MiningError naming the repository when git fails)."""
    status, out, err = read_bounded(repo, args)
    if status != 0:
        raise MiningError(f"{repo}: git {' '.join(args[:2])}: {err}")
    return out.decode("utf-8", "replace")


def blob_size(repo: Path, commit: str, path: str) -> tuple[str, int] | None:
    """(blob id, size in bytes) of ``path`` at ``commit`` from the tree alone (None when absent, not a file, or
    a partial clone's blob whose size is unknown)."""
    status, out, _ = read_bounded(repo, ("ls-tree", "-l", "-z", commit, "--", path), 1 << 20)
    if status != 0:
        return None
    for entry in out.split(b"\0"):
        meta, _, name = entry.partition(b"\t")
        fields = meta.split()
        if name.decode("utf-8", "replace") == path and len(fields) == 4 and fields[1] == b"blob":
            return (fields[2].decode(), int(fields[3])) if fields[3].isdigit() else None
    return None


def blob_text(repo: Path, commit: str, path: str, max_bytes: int) -> tuple[str | None, str | None]:
    """(text, None) of ``path`` at ``commit``; (None, why) when it is absent, larger than ``max_bytes`` (its size
    asked before a byte of it is read), unreadable or not UTF-8. Read with ``cat-file blob``: no filter or textconv
    of the repository's runs."""
    found = blob_size(repo, commit, path)
    if found is None:
        return None, "file not readable"
    blob, size = found
    if size > max_bytes:
        return None, "too large"
    status, out, _ = read_bounded(repo, ("cat-file", "blob", blob), max_bytes)
    if status != 0:
        return None, "file not readable"
    try:
        return out.decode("utf-8"), None
    except UnicodeDecodeError:
        return None, "file not readable"
