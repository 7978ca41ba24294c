"""The shared JSONL record reader (``question_files.json_object_line``) on hostile lines, under a memory guard: a
deeply nested line, a huge integer and an oversized file each give one error naming file and line (never a
RecursionError or a traceback), through every reader that uses it (mined edits, a user's questions file, the
generated question files) and through ``mine-edits --append``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.memguard import run_guarded

DEPTH_LIMIT = 200
"""The nesting a data file may have (docs/sandbox.md, CONTRIBUTING.md: ``formats._limits``' bound), from the spec."""

_READERS = """
import json, sys
from pathlib import Path
from coonbench.datasets.edits.store import EditsFileError, read_edits
from coonbench.datasets.retrieval.load import QuestionsFileError, read_questions
from coonbench.datasets.question_files import read_records
from coonbench.datasets.structure_questions import StructureQuestion
out = {}
path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(FILE)
for name, read in (("edits", read_edits), ("questions", read_questions),
                   ("records", lambda p: read_records(p, StructureQuestion, 1))):
    try:
        read(path)
        out[name] = "read"
    except ValueError as err:
        out[name] = str(err)
print(json.dumps(out))
"""


def _read_all(path: Path) -> dict[str, str]:
    run = run_guarded(f"FILE = {str(path)!r}\n" + _READERS, limit_mib=1024, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.peak_mib < 400, run.peak_mib
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("line, why", [
    ("[" * 100_000 + "]" * 100_000, f"nested deeper than {DEPTH_LIMIT} levels"),
    ('{"a": ' * 50_000 + "1" + "}" * 50_000, f"nested deeper than {DEPTH_LIMIT} levels"),
    ('{"id": ' + "9" * 20_000 + "}", "invalid JSON"),
])
def test_a_hostile_line_is_one_error_naming_file_and_line(tmp_path: Path, line: str, why: str) -> None:
    path = tmp_path / "edits.jsonl"
    path.write_text("\n \n" + line + "\n", encoding="utf-8")  # the hostile line is line 3
    errors = _read_all(path)
    for name, message in errors.items():
        assert message != "read" and str(path) in message and "3" in message.split(str(path))[1][:8], (name, message)
        assert why in message and "\n" not in message, (name, message)


def test_a_line_at_the_depth_limit_is_read_as_json(tmp_path: Path) -> None:
    from coonbench.datasets.question_files import json_object_line

    line = '{"a": ' + "[" * (DEPTH_LIMIT - 1) + "]" * (DEPTH_LIMIT - 1) + "}"
    assert json_object_line(line, "f:1") == json.loads(line)
    with pytest.raises(ValueError, match=f"f:1: invalid JSON: nested deeper than {DEPTH_LIMIT} levels"):
        json_object_line('{"a": ' + "[" * DEPTH_LIMIT + "]" * DEPTH_LIMIT + "}", "f:1")


def test_a_file_past_the_size_bound_is_refused_before_it_is_read(tmp_path: Path) -> None:
    from coonbench.datasets import question_files

    path = tmp_path / "edits.jsonl"
    with path.open("wb") as fh:  # sparse: the size is there, the bytes are never written (nor read)
        fh.truncate(question_files.MAX_JSONL_BYTES + 1)
    errors = _read_all(path)
    assert all("file too large" in m and str(path) in m for m in errors.values()), errors


def test_mine_edits_append_onto_a_deep_line_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "edits.jsonl").write_text("[" * 100_000 + "\n", encoding="utf-8")
    code = f"""
from coonbench.cli import main
raise SystemExit(main(["mine-edits", {str(tmp_path)!r}, "-o", {str(out)!r}, "--append"]))
"""
    run = run_guarded(code, limit_mib=1024, timeout=120)
    lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
    assert run.returncode == 2 and len(lines) == 1, run.stderr[-3000:]
    assert f"{out / 'edits.jsonl'}: line 1: invalid JSON: nested deeper than {DEPTH_LIMIT} levels" in lines[0]
