"""The ``coonbench`` command: real subprocess runs, one-line errors with file and position, exit codes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from coonbench.formats import list_formats
from coonbench.resources import REPO_ROOT
from coonbench.tokens import count_tokens


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "coonbench.cli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


def test_formats_lists_every_registered_format() -> None:
    out = cli("formats")
    assert out.returncode == 0
    names = [line.split()[0] for line in out.stdout.splitlines()]
    assert names == [f.name for f in list_formats()]
    assert {"dart", "dart-minified", "json", "json-compact", "yaml", "toon", "csv", "xml"} <= set(names)
    kinds = {line.split()[0]: re.split(r"\s{2,}", line)[1] for line in out.stdout.splitlines()}
    assert kinds["coon"] == kinds["dart-minified"] == "code (dart)" and kinds["json"] == "data"  # a code format's language


def test_tokens_equals_tiktoken(tmp_path: Path) -> None:
    data = [{"id": i, "name": f"user{i}", "active": i % 2 == 0} for i in range(30)]
    path = tmp_path / "users.json"
    text = json.dumps(data, indent=2)
    path.write_text(text)
    for encoding in ("o200k_base", "cl100k_base"):
        out = cli("tokens", "--encoding", encoding, "--format", "toon", str(path))
        assert out.returncode == 0, out.stderr
        lines = dict(line.split(": ", 1) for line in out.stdout.splitlines())
        encoded = cli("encode", "--format", "toon", str(path)).stdout
        assert lines["original"] == f"{count_tokens(text, encoding)} tokens"
        assert lines["toon"] == f"{count_tokens(encoded.rstrip(chr(10)), encoding)} tokens"
        assert lines["saving"].endswith("%")


def test_encode_decode_round_trip_via_stdin() -> None:
    value = {"a": [1, 2, {"b": None}], "c": "x y"}
    encoded = cli("encode", "--format", "yaml", stdin=json.dumps(value))
    assert encoded.returncode == 0, encoded.stderr
    decoded = cli("decode", "--format", "yaml", stdin=encoded.stdout)
    assert json.loads(decoded.stdout) == value


def test_csv_on_nested_json(tmp_path: Path) -> None:
    path = tmp_path / "nested.json"
    path.write_text(json.dumps([{"id": 1, "tags": ["a", "b"]}]))
    assert_one_line_error(cli("encode", "--format", "csv", str(path)), str(path))


def test_decode_malformed_toon(tmp_path: Path) -> None:
    path = tmp_path / "bad.toon"
    path.write_text("users[3]{id,name}:\n  1,Ada\n  2,Bob\n")
    result = cli("decode", "--format", "toon", str(path))
    assert_one_line_error(result, str(path))
    assert f"{path}:" in result.stderr  # names a line


def test_unknown_format(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{}")
    assert_one_line_error(cli("encode", "--format", "nope", str(path)), "unknown format 'nope'", "toon")


def test_missing_file() -> None:
    assert_one_line_error(cli("encode", "--format", "json", "/no/such/file.json"), "/no/such/file.json", "no such file")


def test_invalid_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "a": 1,\n  "b": \n}\n')
    assert_one_line_error(cli("encode", "--format", "toon", str(path)), f"{path}:4:1")


def test_list_tasks_names_the_tasks() -> None:
    out = cli("list-tasks")
    assert out.returncode == 0, out.stderr
    listed = {line.split()[0].removeprefix("coonbench/") for line in out.stdout.splitlines()}
    from coonbench.cli import _task_function

    modules = {p.stem for p in (REPO_ROOT / "evals").glob("*.py") if p.stem != "__init__"}
    assert listed == modules  # read from syntax: one task per evals/<name>.py
    for name in listed:  # and it must agree with what imports
        assert callable(_task_function(name)), name
    assert all(len(line.split(None, 2)) == 3 for line in out.stdout.splitlines())  # every task has a summary


@pytest.mark.parametrize("fmt", ["dart", "dart-minified"])
def test_dart_file_encodes(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "w.dart"
    path.write_text("class A {\n  // note\n  int f() => 1 +  2;\n}\n")
    out = cli("encode", "--format", fmt, str(path))
    assert out.returncode == 0, out.stderr
    assert "f()" in out.stdout


def test_ast_diff_exit_codes(tmp_path: Path) -> None:
    a, b, c, bad = (tmp_path / n for n in ("a.dart", "b.dart", "c.dart", "bad.dart"))
    a.write_text("Widget f() => Text('hi', style: s,);\n")
    b.write_text("// comment\nWidget f() =>\n    Text('hi', style: s);\n")
    c.write_text("Widget f() => Text('ho', style: s);\n")
    bad.write_text("Widget f() => Text('hi';\n")
    assert cli("ast-diff", str(a), str(b)).returncode == 0
    diff = cli("ast-diff", str(a), str(c))
    assert diff.returncode == 1 and "'hi'" in diff.stdout
    err = cli("ast-diff", str(a), str(bad))
    assert err.returncode == 2 and f"{bad}:1:" in err.stderr
