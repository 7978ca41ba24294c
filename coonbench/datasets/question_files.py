"""Generated questions shipped as data files (``data/<task>/questions.v<N>.jsonl``), for every task whose questions
are a list of dataclass records (comprehension, structure).

Why a file at all: the task reads its questions instead of generating them at every build, so a build costs what
rendering the drawn questions costs, and what a run asks cannot drift with the machine. The generator stays the
ground truth: each task's ``python -m … --write`` writes the file, and a test regenerates it and compares bytes.
Written one record a line with sorted keys and a version, so a regeneration is byte-identical and a diff shows
questions; read back with every line checked, so a damaged file fails naming its file, line and field rather than
somewhere inside a task build.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar, get_origin, get_type_hints

from coonbench.formats._limits import MAX_DEPTH, json_depth_index

Record = TypeVar("Record")


def render_records(records: Sequence[Any], version: int) -> str:
    """The JSONL text of dataclass records (one a line, keys sorted, each tagged with ``version``)."""
    lines = [
        json.dumps({"version": version, **dataclasses.asdict(r)}, sort_keys=True, ensure_ascii=False) for r in records
    ]
    return "\n".join(lines) + "\n"


def _field_types(cls: type[Any]) -> dict[str, tuple[type | None, bool]]:
    """Each field of a dataclass: the JSON value type it takes (``dict[str, Any]`` -> dict; None: not checked),
    and whether a record must give it (it has no default)."""
    hints = get_type_hints(cls)
    out: dict[str, tuple[type | None, bool]] = {}
    for f in dataclasses.fields(cls):
        kind = get_origin(hints[f.name]) or hints[f.name]
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        out[f.name] = (kind if isinstance(kind, type) else None, required)
    return out


MAX_JSONL_BYTES = 256 * 1024 * 1024
"""Largest JSONL file of records read (the shipped question files and mined edit sets are a few megabytes)."""


def jsonl_lines(path: Path, error: type[ValueError] = ValueError) -> list[str]:
    """The lines of a JSONL file, its size checked before a byte is read (``error`` naming the file when it is
    larger than ``MAX_JSONL_BYTES``, not a regular file, unreadable or not UTF-8)."""
    try:
        if not path.is_file():
            raise error(f"{path}: not a regular file" if path.exists() else f"{path}: no such file")
        size = path.stat().st_size
        if size > MAX_JSONL_BYTES:
            raise error(f"{path}: file too large ({size:,} bytes; limit {MAX_JSONL_BYTES:,})")
        with path.open("rb") as fh:
            data = fh.read(MAX_JSONL_BYTES + 1)
    except OSError as err:
        raise error(f"{path}: cannot read: {err.strerror or err}") from None
    if len(data) > MAX_JSONL_BYTES:
        raise error(f"{path}: file too large (more than {MAX_JSONL_BYTES:,} bytes)")
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError as err:
        raise error(f"{path}: not UTF-8 text (byte {err.start:,})") from None


def json_object_line(line: str, where: str, error: type[ValueError] = ValueError) -> dict[str, Any]:
    """One line of a JSONL file of records (generated questions, a user's questions file, mined edits) as its JSON
    object; ``error`` (a ValueError) naming ``where`` (the file and line) when it is not valid JSON, not an object,
    nested deeper than ``MAX_DEPTH`` (checked by a linear scan before the parser, which recurses, sees the line) or
    holds an integer longer than Python converts, so every reader of such files says the same thing the same way."""
    if line.count("[") + line.count("{") > MAX_DEPTH and (at := json_depth_index(line)) is not None:
        raise error(f"{where}: invalid JSON: nested deeper than {MAX_DEPTH} levels (at character {at + 1:,})")
    try:
        record = json.loads(line)
    except json.JSONDecodeError as err:
        raise error(f"{where}: invalid JSON: {err.msg}") from None
    except ValueError as err:  # an integer literal with more digits than Python converts
        raise error(f"{where}: invalid JSON: {str(err).splitlines()[0] if str(err) else 'a number out of range'}") \
            from None
    if not isinstance(record, dict):
        raise error(f"{where}: expected a JSON object, got {type(record).__name__}")
    return record


def _check_line(line: str, where: str, fields: dict[str, tuple[type | None, bool]], version: int) -> dict[str, Any]:
    """A line's record; ValueError naming ``where`` and the field for invalid JSON, something else than an object,
    another version, a field missing (one without a default) or holding the wrong JSON type."""
    record = json_object_line(line, where)
    if record.get("version", version) != version:
        raise ValueError(f"{where}: field 'version': {record['version']!r}, expected {version}")
    for name, (kind, required) in fields.items():
        if name not in record:
            if required:
                raise ValueError(f"{where}: missing field '{name}'")
        elif kind is not None and not isinstance(record[name], kind):
            raise ValueError(f"{where}: field '{name}': expected {kind.__name__}, got {type(record[name]).__name__}")
    return record


def read_records(path: Path, cls: type[Record], version: int) -> list[Record]:
    """The records of a JSONL file as ``cls`` (a dataclass) instances; a malformed line raises ValueError naming the
    file, the line and the field (``_check_line``). A line need not say its version; keys that are not fields of
    ``cls`` (``version``) are not passed on."""
    fields = _field_types(cls)
    out: list[Record] = []
    for lineno, line in enumerate(jsonl_lines(path), start=1):
        if line.strip():
            record = _check_line(line, f"{path}:{lineno}", fields, version)
            out.append(cls(**{k: record[k] for k in fields if k in record}))
    return out


def questions_main(
    argv: list[str] | None, description: str | None, path: Path, version: int, build: Callable[[], Sequence[Any]]
) -> int:
    """A task's ``python -m … [--write]``: generate its questions, write them to ``path`` with ``--write``, and
    print how many of each question type there are."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--write", action="store_true", help=f"write {path}")
    args = parser.parse_args(argv)
    questions = build()
    if args.write:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render_records(questions, version), encoding="utf-8")
    counts = Counter(q.question_type for q in questions)
    print(f"{len(questions)} questions: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0
