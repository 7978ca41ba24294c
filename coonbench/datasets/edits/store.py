"""A mined-edit dataset on disk: ``edits.jsonl`` (one edit a line) and ``licences/`` beside it.

Each line holds ``id, repo, commit, date, licence, licence_file, path, subject, instruction, instruction_source,
before, after`` and ``previous`` (the id of the edit this one follows on the same file, or null). A malformed line
raises ``EditsFileError`` naming the file, the line and the field.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from coonbench.datasets.question_files import json_object_line, jsonl_lines
from coonbench.tasks.samples import TaskArgumentError

EDITS_FILE = "edits.jsonl"
LICENCES_DIR = "licences"


class EditsFileError(TaskArgumentError):
    """A missing or malformed mined-edit file."""


@dataclass(frozen=True)
class MinedEdit:
    """One edit mined from a commit: the file before and after it, and what to tell a model to do."""

    id: str
    repo: str
    commit: str
    date: str
    licence: str
    licence_file: str
    path: str
    subject: str
    instruction: str
    instruction_source: str
    before: str
    after: str
    previous: str | None = None

    def with_previous(self, previous: str | None) -> MinedEdit:
        return replace(self, previous=previous)


FIELDS = [f.name for f in fields(MinedEdit)]


def licence_slug(repo: str, licence_file: str) -> str:
    """The file name a source project's licence text is stored under."""
    return (repo + "/" + licence_file).replace("/", "+") + ".txt"


def licence_notice(repo: str, licence_file: str, text: str) -> str:
    """A source project's licence as the dataset ships it: which repository and file it is, then its text verbatim.

    The heading says what the text covers, so a reader of ``licences/`` needs no lookup in ``edits.jsonl``."""
    heading = (f"The licence of the edits of {EDITS_FILE} from https://github.com/{repo}: "
               f"its file {licence_file}, verbatim below.")
    return f"{heading}\n\n{text}"


def write_edits(out: str | Path, edits: list[MinedEdit], licence_texts: dict[tuple[str, str], str]) -> Path:
    """Write ``edits.jsonl`` and the licence notices (texts by (repo, licence file)) into ``out``; the file's path."""
    folder = Path(out)
    (folder / LICENCES_DIR).mkdir(parents=True, exist_ok=True)
    path = folder / EDITS_FILE
    with path.open("w", encoding="utf-8") as fh:
        for e in edits:
            fh.write(json.dumps(asdict(e), ensure_ascii=False, sort_keys=True) + "\n")
    for (repo, name), text in sorted(licence_texts.items()):
        notice = licence_notice(repo, name, text)
        (folder / LICENCES_DIR / licence_slug(repo, name)).write_text(notice, encoding="utf-8")
    return path


def read_edits(folder: str | Path) -> list[MinedEdit]:
    """The edits of a folder (or an ``edits.jsonl`` path); EditsFileError naming file, line and field."""
    path = Path(folder)
    if path.is_dir():
        path = path / EDITS_FILE
    if not path.is_file():
        raise EditsFileError(f"{path}: no mined edits here (write them with: coonbench mine-edits REPO -o DIR)")
    out: list[MinedEdit] = []
    ids: set[str] = set()
    for n, line in enumerate(jsonl_lines(path, EditsFileError), start=1):
        if not line.strip():
            continue
        row = json_object_line(line, f"{path}: line {n}", EditsFileError)
        for name in FIELDS:
            value = row.get(name)
            ok = value is None or isinstance(value, str) if name == "previous" else isinstance(value, str) and value
            if not ok:
                raise EditsFileError(f"{path}: line {n}: field '{name}': missing or not a non-empty string")
        if row["id"] in ids:
            raise EditsFileError(f"{path}: line {n}: field 'id': duplicate id {row['id']!r}")
        ids.add(row["id"])
        checked: dict[str, Any] = {name: row.get(name) for name in FIELDS}  # the types were checked above
        out.append(MinedEdit(**checked))
    return out
