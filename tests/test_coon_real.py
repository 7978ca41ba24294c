"""COON on real apps (``../shared/reference/dart-real/``, 418 files of flutter/samples): never silently wrong.

Every file goes through the verifying ``encode`` and ``decode``: it either decodes to the same tree (and the same
comments in ``coon-comments``) or is refused with a ``FormatError`` naming line, column and construct. The refusals
are listed; at most 0.5% of the files may be refused, and none may decode to different Dart.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coonbench.dart.parse import DartParseError, parse_unit
from coonbench.formats import FormatError
from coonbench.formats.coon import encode
from tests.conftest import reference_path
from tests.coon_oracle import unverified_roundtrip

MAX_REFUSED = 0.005


def _files() -> list[Path]:
    return sorted(reference_path("dart-real").rglob("*.dart"))


def _check(files: list[Path], keep_comments: bool) -> tuple[int, list[str], list[str]]:
    """(parseable files, refusals 'file:line:col: message', silent differences)."""
    parseable, refused, different = 0, [], []
    for path in files:
        source = path.read_text(encoding="utf-8")
        try:
            parse_unit(source)
        except DartParseError:
            continue
        parseable += 1
        try:
            coon = encode(source, keep_comments=keep_comments)
        except FormatError as err:
            assert err.line is not None and err.column is not None, f"{path}: refusal without position: {err}"
            assert "cannot represent this" in err.message, f"{path}: refusal without construct: {err}"
            refused.append(f"{path.name}:{err.line}:{err.column}: {err.message}")
            continue
        _, wrong = unverified_roundtrip(source, keep_comments=keep_comments)  # what the self-check did not see
        if wrong is not None:
            different.append(f"{path}: {wrong}")
    return parseable, refused, different


def _assert_report(parseable: int, refused: list[str], different: list[str]) -> None:
    print(f"\n{parseable} parseable files, {len(refused)} refused:")
    for line in refused:
        print("  " + line)
    assert different == []
    assert parseable > 0 and len(refused) <= MAX_REFUSED * parseable, refused


@pytest.mark.parametrize("keep_comments", [False, True], ids=["coon", "coon-comments"])
def test_sample_of_real_files(keep_comments: bool) -> None:
    """Every 25th file (the default run); the slow test below takes all of them."""
    _assert_report(*_check(_files()[::25], keep_comments))


@pytest.mark.slow
@pytest.mark.parametrize("keep_comments", [False, True], ids=["coon", "coon-comments"])
def test_every_real_file(keep_comments: bool) -> None:
    files = _files()
    assert len(files) >= 400
    _assert_report(*_check(files, keep_comments))
