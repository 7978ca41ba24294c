"""Reading files nobody vouches for: logs, plans, price tables and TOON's results, bounded before any library
sees them.

Published logs are the report's use case, so every file the report, ``plan`` and ``import-toon`` read is hostile
until checked here: its size, its nesting depth and (for the logs Inspect reads) the time spent reading it are
bounded, and every way it can fail is one ``ReportInputError`` line naming the file and the reason. JSON and
YAML go through the data formats' decoders (``coonbench.formats``), which already refuse deep nesting, huge
integers and oversized YAML with a positioned ``FormatError``: one piece of code bounds them all. Numbers from
such files go through ``number``: finite and of a size arithmetic can take, else missing.
"""

from __future__ import annotations

import math
import re
import signal
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from coonbench.formats import FormatError, get_format

class ReportInputError(Exception):
    """No logs, or a file that cannot be read: a one-line message for the user (``coonbench.report.load`` and
    the commands re-export it)."""


MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest plan, price table or TOON results file read (the real ones are kilobytes to a few megabytes)."""

MAX_LOG_BYTES = 4 * 1024**3
"""Largest log file the report opens (an ``.eval`` of 10,000 samples is tens of megabytes)."""

MAX_ENTRY_BYTES = 1024**3
"""Largest part of a log (a ``.json`` log, or one JSON entry of an ``.eval`` archive) read for the report."""

MAX_SCANNED_BYTES = 1024**3
"""Most bytes of an ``.eval`` archive's entries (their sizes as its zip directory declares them) that are read for
the checks below; a zip entry never yields more than it declares."""

MAX_RATIO = 250
RATIO_FLOOR = 1024**2
"""An archive entry over RATIO_FLOOR bytes may expand at most MAX_RATIO times its compressed size: Inspect's logs
compress 5 to 40 times, whitespace padding or a repeated string over a thousand (a 349 KB log of 350 MB)."""

MAX_NAME_CHARS = 1000
"""Longest task, model, solver, category, format, question type or sample id a log may give: each is laid out in
every table, chart and file name (a 4 MiB model name, repeated per sample, would take gigabytes)."""

MAX_LOG_DEPTH = 400
"""Deepest nesting of arrays/objects in a log Inspect is given: its own structure is about 10 levels and a data
format refuses data past ``formats._limits.MAX_DEPTH`` (200), so a real log stays far below this."""

NUMBER_LIMIT = 1e15
"""Largest magnitude a number from a file may have (a score, a token count, a price, a time): a sum over millions
of them stays exact enough and finite; beyond it the value is treated as missing."""

READ_SECONDS = 120.0
READ_SECONDS_PER_MB = 2.0
"""Inspect's reading of the logs is given READ_SECONDS plus this much per MB of log, then stopped."""

MAX_DISTINCT = {"category": 100, "system": 200, "format": 200}
"""Most distinct values of a name the report lays out: every category is a section with its charts, every pair of
formats of a system a paired test (real runs have a handful of each; a log with a new format per sample would
otherwise keep the report busy for hours)."""

SKIPPED_ENTRIES = ("samples/",)
"""Parts of an ``.eval`` archive the report never reads (it reads the header and the sample summaries), unless
the archive has no summaries: then Inspect reads the samples themselves, and they are checked too."""
SUMMARIES = ("summaries.json", "_journal/summaries/")


def number(value: Any, limit: float = NUMBER_LIMIT) -> float:
    """``value`` as a float when it is a number (or numeric text) with magnitude at most ``limit``; NaN else
    (lists, huge integers, ``1e400``, infinities, NaN)."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float) or (isinstance(value, str) and len(value) <= 64):
        try:
            out = float(value)
        except (ValueError, OverflowError):
            return math.nan
        return out if math.isfinite(out) and abs(out) <= limit else math.nan
    if hasattr(value, "item") and getattr(value, "shape", None) == ():  # a numpy scalar
        return number(value.item(), limit)
    return math.nan


def first_line(err: BaseException) -> str:
    """The first non-empty line of an error, else its type: never an empty message."""
    for line in str(err).splitlines():
        if line.strip():
            return line.strip()
    return type(err).__name__


def read_text(path: str | Path, what: str, limit: int = MAX_FILE_BYTES) -> str:
    """A file's UTF-8 text; ReportInputError naming it when missing, too large or not text."""
    p = Path(path)
    try:
        if not p.is_file():  # a folder, a pipe or a device would block or never end
            raise ReportInputError(f"{p}: the {what} is not a regular file" if p.exists() else f"{p}: no such file")
        if p.stat().st_size > limit:
            raise ReportInputError(f"{p}: {what} too large ({p.stat().st_size:,} bytes; limit {limit:,})")
        with p.open("rb") as fh:
            data = fh.read(limit + 1)
    except OSError as err:
        raise ReportInputError(f"{p}: cannot read the {what} ({err.strerror or first_line(err)})") from None
    if len(data) > limit:
        raise ReportInputError(f"{p}: {what} too large (more than {limit:,} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ReportInputError(f"{p}: the {what} is not UTF-8 text (byte {err.start})") from None


def _decode(path: str | Path, what: str, fmt: str) -> Any:
    text = read_text(path, what)
    try:
        return get_format(fmt).decode(text)
    except FormatError as err:
        raise ReportInputError(f"{err.with_source(str(path))} (reading the {what})") from None


def read_json(path: str | Path, what: str) -> Any:
    """A JSON file, bounded (size, nesting, integer length); ReportInputError naming the file and position."""
    return _decode(path, what, "json")


def read_yaml(path: str | Path, what: str) -> Any:
    """A YAML (or JSON) file, bounded by the YAML format's limits; ReportInputError naming the file and position."""
    return _decode(path, what, "yaml")


# A JSON string (an unterminated one runs to the end), unrolled: runs of plain characters, then escapes; matched
# in C, linear.
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_CHUNK = 1 << 20
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))


def json_max_depth(data: bytes) -> int:
    """The deepest nesting of arrays/objects in JSON bytes, brackets inside strings not counted (a closer with
    nothing open counts as nothing). Vectorised, for logs of hundreds of megabytes; ``formats._limits.
    json_depth_index`` is the positioned check for one document."""
    brackets = _JSON_STRING.sub(b"", data).translate(None, _NOT_BRACKETS)  # only brackets go on: little memory
    depth = deepest = 0
    for start in range(0, len(brackets), _CHUNK):
        chunk = np.frombuffer(brackets, np.uint8, count=min(_CHUNK, len(brackets) - start), offset=start)
        step = ((chunk == ord("[")) | (chunk == ord("{"))).astype(np.int64)
        step -= (chunk == ord("]")) | (chunk == ord("}"))
        level = depth + np.cumsum(step)
        level -= np.minimum(np.minimum.accumulate(level), 0)  # clamped at 0, as a parser would stop there
        depth, deepest = int(level[-1]), max(deepest, int(level.max()))
    return deepest


def _check_json(data: bytes, where: str) -> None:
    """ReportInputError when a log's JSON nests deeper than ``MAX_LOG_DEPTH``."""
    deepest = json_max_depth(data)
    if deepest > MAX_LOG_DEPTH:
        raise ReportInputError(f"{where}: unreadable Inspect log (nested deeper than {MAX_LOG_DEPTH} levels: "
                               f"{deepest:,})")


def _check_archive(path: Path) -> None:
    import inspect_ai.log  # noqa: F401 - Inspect writes zstd entries, and teaches zipfile to read them on import

    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError) as err:
        raise ReportInputError(f"{path}: unreadable Inspect log (not a zip archive: {first_line(err)})") from None
    with archive:
        names = set(archive.namelist())
        if "header.json" not in names and "_journal/start.json" not in names:
            raise ReportInputError(f"{path}: unreadable Inspect log (an archive without header.json or "
                                   "_journal/start.json)")
        skipped = SKIPPED_ENTRIES if any(n.startswith(SUMMARIES) for n in names) else ()
        read = [info for info in archive.infolist() if not info.is_dir() and info.filename.endswith(".json")
                and not (skipped and info.filename.startswith(skipped))]
        _check_directory(path, archive.infolist(), read)
        for info in read:
            where = f"{path} ({info.filename})"
            try:
                with archive.open(info) as fh:
                    data = fh.read(MAX_ENTRY_BYTES + 1)
            except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError) as err:
                raise ReportInputError(f"{where}: unreadable Inspect log ({first_line(err)})") from None
            _check_json(data, where)


def _check_directory(path: Path, entries: list[zipfile.ZipInfo], read: list[zipfile.ZipInfo]) -> None:
    """ReportInputError when the zip directory alone shows the archive is too large to read: an entry past
    ``MAX_ENTRY_BYTES`` or expanding past ``MAX_RATIO``, all entries past ``MAX_LOG_BYTES``, the entries to be read
    past ``MAX_SCANNED_BYTES``. Checked before a byte of any entry is decompressed."""
    for info in entries:
        where = f"{path} ({info.filename})"
        if info.file_size > MAX_ENTRY_BYTES:
            raise ReportInputError(f"{where}: unreadable Inspect log (entry of {info.file_size:,} bytes; "
                                   f"limit {MAX_ENTRY_BYTES:,})")
        if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise ReportInputError(f"{where}: unreadable Inspect log (an entry of {info.compress_size:,} bytes "
                                   f"that expands to {info.file_size:,}; at most {MAX_RATIO} times)")
    for total, limit, what in ((sum(i.file_size for i in entries), MAX_LOG_BYTES, "entries"),
                               (sum(i.file_size for i in read), MAX_SCANNED_BYTES, "header and summaries")):
        if total > limit:
            raise ReportInputError(f"{path}: unreadable Inspect log ({what} of {total:,} bytes in all; "
                                   f"limit {limit:,})")


def check_names(columns: dict[str, list[Any]], where: str) -> None:
    """ReportInputError when a name (task, model, category, format, sample id…) is longer than ``MAX_NAME_CHARS``."""
    for key, values in columns.items():
        longest = max((len(v) for v in values if isinstance(v, str)), default=0)
        if longest > MAX_NAME_CHARS:
            raise ReportInputError(f"{where}: a {key} name of {longest:,} characters (the report lays out names "
                                   f"of at most {MAX_NAME_CHARS:,})")


def check_log(path: Path) -> int:
    """Check one log before Inspect reads it; its size in bytes. ReportInputError naming the file and the reason
    when it is too large, nested too deep, not UTF-8, or not an Inspect log at all. Run it inside ``time_limit``
    (``read_seconds(log_size(...))``): the scan is bounded in time like Inspect's reading."""
    size = log_size(path)
    if path.suffix == ".eval":
        _check_archive(path)
    else:
        _check_json(read_bytes(path, size), str(path))
    return size


def log_size(path: Path) -> int:
    """A log's size in bytes, from the file system alone; ReportInputError when it is not a regular file or larger
    than a log may be (``MAX_LOG_BYTES`` an ``.eval``, ``MAX_ENTRY_BYTES`` a ``.json``)."""
    if not path.is_file():  # a pipe or a device named *.eval would block or never end
        raise ReportInputError(f"{path}: not a regular file" if path.exists() else f"{path}: no such file")
    try:
        size = path.stat().st_size
    except OSError as err:
        raise ReportInputError(f"{path}: cannot read the log ({err.strerror or first_line(err)})") from None
    limit = MAX_LOG_BYTES if path.suffix == ".eval" else MAX_ENTRY_BYTES
    if size > limit:
        raise ReportInputError(f"{path}: log too large ({size:,} bytes; limit {limit:,})")
    return size


def read_bytes(path: Path, limit: int) -> bytes:
    try:
        with path.open("rb") as fh:
            return fh.read(limit + 1)
    except OSError as err:
        raise ReportInputError(f"{path}: cannot read the log ({err.strerror or first_line(err)})") from None


class ReadTimeout(BaseException):
    """Raised inside a bounded read when its time is up (a BaseException: no ``except Exception`` on the way,
    Inspect's or ours, can take it for a bad file and carry on)."""


@contextmanager
def time_limit(seconds: float, what: str) -> Iterator[None]:
    """ReportInputError when the body runs past ``seconds`` (wall clock; only in the main thread, where signals
    arrive: elsewhere the body runs unbounded)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def _stop(signum: int, frame: Any) -> None:
        raise ReadTimeout

    previous = signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except ReadTimeout:
        raise ReportInputError(f"{what}: reading took more than {seconds:.0f} s; stopped") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_distinct(columns: dict[str, list[str]], where: str) -> None:
    """ReportInputError when a name has more distinct values than ``MAX_DISTINCT`` allows."""
    for key, limit in MAX_DISTINCT.items():
        found = len(set(columns.get(key, [])))
        if found > limit:
            raise ReportInputError(f"{where}: {found:,} distinct {key} names (the report lays out at most "
                                   f"{limit:,}; is each sample's {key} its own?)")


def read_seconds(total_bytes: int) -> float:
    """How long Inspect may take to read logs of ``total_bytes``."""
    return READ_SECONDS + READ_SECONDS_PER_MB * total_bytes / 1e6
